//! Address granularity: what counts as "the same datum" for reuse.

use serde::{Deserialize, Serialize};

/// Unit at which addresses are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Granularity {
    /// Every byte address is its own datum.
    Byte,
    /// Aligned words of the given size in bytes (a power of two).
    Word(u32),
    /// Cache lines of the given size in bytes (a power of two).
    Line(u32),
}

impl Granularity {
    /// Number of low address bits dropped.
    pub fn shift(self) -> u32 {
        match self {
            Granularity::Byte => 0,
            Granularity::Word(n) | Granularity::Line(n) => n.max(1).trailing_zeros(),
        }
    }

    /// The block (datum) an address belongs to.
    #[inline]
    pub fn block_of(self, addr: u64) -> u64 {
        addr >> self.shift()
    }

    /// Calls `f` for every block an access of `len` bytes at `addr` touches, in address order.
    #[inline]
    pub fn for_each_block(self, addr: u64, len: u64, mut f: impl FnMut(u64)) {
        let s = self.shift();
        let first = addr >> s;
        let last = addr.saturating_add(len.max(1) - 1) >> s;
        for b in first..=last {
            f(b);
        }
    }
}
