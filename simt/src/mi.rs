//! Memory instructions (MIs) of a SIMT reference stream, their address arrays, and the two
//! per-pair metrics of the thesis: multiplicity (definition 1) and data reuse degree
//! (definition 2).
//!
//! An MI is one memory instruction issued by a group of threads in lockstep. It holds one
//! address per active thread (its *lanes*, in thread order); the thesis's *address array* `X_i`
//! is the multiset of those addresses, kept here as sorted `(address, multiplicity)` pairs.

use crate::error::{Result, SimtError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The unit at which addresses are compared: what counts as "the same address".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Granularity {
    /// Every address as given (the byte address of the access, or the address the GPU tool
    /// reported).
    #[default]
    Element,
    /// Memory elements of the given size in bytes: an address becomes `address / bytes`, so all
    /// threads touching the same element (cache line, sector, word) share one address. An access
    /// is attributed to the element holding its first byte.
    Line(u64),
}

impl Granularity {
    /// Maps an address to the element it belongs to.
    #[inline]
    pub fn map(self, addr: u64) -> u64 {
        match self {
            Granularity::Element => addr,
            Granularity::Line(bytes) => addr / bytes,
        }
    }

    /// Parses `element` or `line:BYTES` (BYTES ≥ 1).
    pub fn parse(s: &str) -> Result<Granularity> {
        let s = s.trim();
        if s == "element" {
            return Ok(Granularity::Element);
        }
        if let Some(bytes) = s.strip_prefix("line:") {
            let bytes: u64 = bytes.trim().parse().map_err(|_| {
                SimtError::InvalidConfig(format!(
                    "granularity {s:?}: {bytes:?} is not a byte count"
                ))
            })?;
            if bytes == 0 {
                return Err(SimtError::InvalidConfig(
                    "granularity line:0: the element size must be at least 1 byte".into(),
                ));
            }
            return Ok(Granularity::Line(bytes));
        }
        Err(SimtError::InvalidConfig(format!(
            "granularity {s:?}: expected `element` or `line:BYTES`"
        )))
    }
}

impl fmt::Display for Granularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Granularity::Element => f.write_str("element"),
            Granularity::Line(b) => write!(f, "line:{b}"),
        }
    }
}

impl std::str::FromStr for Granularity {
    type Err = SimtError;
    fn from_str(s: &str) -> Result<Self> {
        Granularity::parse(s)
    }
}

/// One memory instruction of a block's reference stream, with the fields of the thesis trace
/// (section 7.2.1): PC, position index, global position, and the addresses of its active
/// threads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemInstr {
    /// Static instruction identifier (the PC on a GPU; the memory-instruction id of an rdtools
    /// trace).
    pub pc: u64,
    /// Position index within its block's reference stream (1-based in traces; what
    /// aggregate-block merging aligns on).
    pub pos: u64,
    /// Global instruction count of the GPU tool; informational, not used by the analysis.
    pub gpos: u64,
    /// One address per active thread, in thread order. Its length is the thesis's `Threads`
    /// field: threads that did not execute the instruction (divergence) have no lane.
    pub lanes: Vec<u64>,
}

impl MemInstr {
    /// Number of active threads (lanes).
    pub fn threads(&self) -> usize {
        self.lanes.len()
    }

    /// The address array `X_i` with multiplicities.
    pub fn address_array(&self) -> AddressArray {
        AddressArray::from_lanes(&self.lanes)
    }
}

/// The address array of an MI: distinct addresses, ascending, each with its multiplicity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressArray {
    entries: Vec<(u64, u32)>,
}

impl AddressArray {
    /// Builds the array from one address per lane (duplicates raise the multiplicity).
    pub fn from_lanes(lanes: &[u64]) -> AddressArray {
        let mut sorted = lanes.to_vec();
        sorted.sort_unstable();
        let mut entries: Vec<(u64, u32)> = Vec::with_capacity(sorted.len());
        for a in sorted {
            match entries.last_mut() {
                Some((last, m)) if *last == a => *m += 1,
                _ => entries.push((a, 1)),
            }
        }
        AddressArray { entries }
    }

    /// Multiplicity `M_i(A)` of `addr`: how often it appears in the array; 0 when absent.
    // See: thesis definition 1.
    pub fn multiplicity(&self, addr: u64) -> u32 {
        self.entries
            .binary_search_by_key(&addr, |e| e.0)
            .map_or(0, |k| self.entries[k].1)
    }

    /// `(address, multiplicity)` pairs in ascending address order.
    pub fn entries(&self) -> &[(u64, u32)] {
        &self.entries
    }

    /// Number of distinct addresses.
    pub fn distinct(&self) -> usize {
        self.entries.len()
    }

    /// Sum of multiplicities (the number of lanes the array was built from).
    pub fn total(&self) -> u64 {
        self.entries.iter().map(|e| e.1 as u64).sum()
    }
}

/// Data reuse degree `DS_ij` between an earlier MI `i` and a later MI `j`: the sum, over the
/// addresses common to both arrays, of their multiplicity in `j`. Zero when no address is shared.
// See: thesis definition 2 (eq. 1).
pub fn reuse_degree(earlier: &AddressArray, later: &AddressArray) -> u64 {
    let (a, b) = (earlier.entries(), later.entries());
    let (mut x, mut y, mut ds) = (0, 0, 0u64);
    while x < a.len() && y < b.len() {
        match a[x].0.cmp(&b[y].0) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => {
                ds += b[y].1 as u64;
                x += 1;
                y += 1;
            }
        }
    }
    ds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplicity_counts_repeats() {
        let x = AddressArray::from_lanes(&[7, 3, 7, 7, 9]);
        assert_eq!(x.multiplicity(7), 3);
        assert_eq!(x.multiplicity(3), 1);
        assert_eq!(x.multiplicity(4), 0);
        assert_eq!(x.distinct(), 3);
        assert_eq!(x.total(), 5);
    }

    #[test]
    fn reuse_degree_uses_multiplicity_of_the_later_mi() {
        let i = AddressArray::from_lanes(&[1, 1, 1, 2]);
        let j = AddressArray::from_lanes(&[1, 2, 2, 5]);
        // Common {1, 2}; multiplicities in j: 1 and 2.
        assert_eq!(reuse_degree(&i, &j), 3);
        // Reversed, the multiplicities of i count: 3 + 1.
        assert_eq!(reuse_degree(&j, &i), 4);
        assert_eq!(reuse_degree(&i, &AddressArray::from_lanes(&[8, 9])), 0);
    }

    #[test]
    fn granularity_parses_and_maps() {
        assert_eq!(Granularity::parse("element").unwrap(), Granularity::Element);
        assert_eq!(
            Granularity::parse("line:64").unwrap(),
            Granularity::Line(64)
        );
        assert!(Granularity::parse("line:0").is_err());
        assert!(Granularity::parse("line:x").is_err());
        assert!(Granularity::parse("word").is_err());
        assert_eq!(Granularity::Line(64).map(130), 2);
        assert_eq!(Granularity::Element.map(130), 130);
        assert_eq!(Granularity::Line(12).to_string(), "line:12");
    }
}
