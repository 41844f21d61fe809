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
    #[inline]
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
    pub fn for_each_block(self, addr: u64, len: u64, f: impl FnMut(u64)) {
        for_each_block(self.shift(), addr, len, f)
    }
}

/// Calls `f` for every block of `1 << shift` bytes that an access of `len` bytes at `addr`
/// touches, in address order (a zero-length access touches the block of `addr`). The one
/// definition of "which lines does this access touch" for every analysis.
#[inline(always)]
pub fn for_each_block(shift: u32, addr: u64, len: u64, mut f: impl FnMut(u64)) {
    for b in blocks_of(shift, addr, len) {
        f(b);
    }
}

/// The blocks of `1 << shift` bytes that an access of `len` bytes at `addr` touches, first to
/// last ([`for_each_block`]'s).
#[inline(always)]
pub fn blocks_of(shift: u32, addr: u64, len: u64) -> std::ops::RangeInclusive<u64> {
    let first = addr >> shift;
    let last = addr.saturating_add(len.max(1) - 1) >> shift;
    first..=last
}

/// A cache-line size in bytes, checked to be a power of two: the one type for `--line` values
/// and cache configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct LineSize(u32);

/// A line size that is not a power of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not a power of two")]
pub struct BadLineSize(pub u32);

impl LineSize {
    /// The line size `bytes`, if it is a power of two.
    pub fn new(bytes: u32) -> Result<LineSize, BadLineSize> {
        if bytes.is_power_of_two() {
            Ok(LineSize(bytes))
        } else {
            Err(BadLineSize(bytes))
        }
    }

    /// Bytes per line.
    pub fn bytes(self) -> u32 {
        self.0
    }

    /// Low address bits dropped to get the line address.
    #[inline]
    pub fn shift(self) -> u32 {
        self.0.trailing_zeros()
    }

    /// Calls `f` with every line address an access of `len` bytes at `addr` touches.
    #[inline]
    pub fn for_each_line(self, addr: u64, len: u64, f: impl FnMut(u64)) {
        for_each_block(self.shift(), addr, len, f)
    }
}

impl TryFrom<u32> for LineSize {
    type Error = BadLineSize;
    fn try_from(bytes: u32) -> Result<LineSize, BadLineSize> {
        LineSize::new(bytes)
    }
}

impl From<LineSize> for u32 {
    fn from(l: LineSize) -> u32 {
        l.0
    }
}
