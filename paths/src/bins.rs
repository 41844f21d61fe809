//! Per-instruction distance bins: logarithmic below 1K, 1K wide above.
//!
//! See: path-based reuse distance, Section 3.1 — "the reuse distances for each instruction are
//! collected and distributed in logarithmic scaled bins for distances less than 1K and in
//! 1K-sized bins for distances greater than 1K. The minimum, maximum, and mean reuse distances
//! together with the access frequency are recorded for each bin."

use serde::{Deserialize, Serialize};

/// Width of the linear bins, and the distance where they start.
pub const LINEAR_BIN_WIDTH: u64 = 1024;

/// Index of the bin holding `distance`: 0 holds distance 0, `1 + floor(log2 d)` the
/// logarithmic bins `[2^k, 2^(k+1))` up to 1023 (indices 1..=10), and `10 + d / 1024` the
/// 1K-wide bins from 1024 on (index 11 is `[1024, 2048)`).
#[inline]
pub fn bin_index(distance: u64) -> u32 {
    if distance == 0 {
        0
    } else if distance < LINEAR_BIN_WIDTH {
        64 - distance.leading_zeros()
    } else {
        (10 + distance / LINEAR_BIN_WIDTH).min(u32::MAX as u64) as u32
    }
}

/// Inclusive distance range `[lo, hi]` of bin `index`.
pub fn bin_range(index: u32) -> (u64, u64) {
    match index {
        0 => (0, 0),
        1..=10 => (1 << (index - 1), (1 << index) - 1),
        _ => {
            let lo = (index as u64 - 10) * LINEAR_BIN_WIDTH;
            (lo, lo + LINEAR_BIN_WIDTH - 1)
        }
    }
}

/// Statistics of the distances that fell into one bin (or one merged pattern).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bin {
    /// Smallest distance.
    pub min: u64,
    /// Largest distance.
    pub max: u64,
    /// Sum of the distances (for the mean).
    pub sum: u128,
    /// Number of references.
    pub count: u64,
}

impl Bin {
    /// A bin holding one distance.
    #[inline]
    pub fn single(distance: u64) -> Bin {
        Bin {
            min: distance,
            max: distance,
            sum: distance as u128,
            count: 1,
        }
    }

    /// Adds one distance.
    #[inline]
    pub fn add(&mut self, distance: u64) {
        self.min = self.min.min(distance);
        self.max = self.max.max(distance);
        self.sum += distance as u128;
        self.count += 1;
    }

    /// Merges another bin's statistics into this one.
    pub fn merge(&mut self, other: &Bin) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.count += other.count;
    }

    /// Mean distance.
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }
}

/// The non-empty bins of one distance distribution, sorted by bin index. Most keys touch one
/// to three bins, so a sorted vector beats a map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bins {
    bins: Vec<(u32, Bin)>,
}

impl Bins {
    /// No distances.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one distance.
    #[inline]
    pub fn add(&mut self, distance: u64) {
        let idx = bin_index(distance);
        // Fast path: the same bin as last time is by far the common case.
        for (i, b) in self.bins.iter_mut() {
            if *i == idx {
                b.add(distance);
                return;
            }
        }
        let at = self.bins.partition_point(|(i, _)| *i < idx);
        self.bins.insert(at, (idx, Bin::single(distance)));
    }

    /// Merges another distribution into this one.
    pub fn merge(&mut self, other: &Bins) {
        for (idx, b) in &other.bins {
            match self.bins.binary_search_by_key(idx, |(i, _)| *i) {
                Ok(at) => self.bins[at].1.merge(b),
                Err(at) => self.bins.insert(at, (*idx, *b)),
            }
        }
    }

    /// The bins, ascending.
    pub fn iter(&self) -> impl Iterator<Item = &(u32, Bin)> {
        self.bins.iter()
    }

    /// Total references.
    pub fn count(&self) -> u64 {
        self.bins.iter().map(|(_, b)| b.count).sum()
    }

    /// Whether no distance was recorded.
    pub fn is_empty(&self) -> bool {
        self.bins.is_empty()
    }
}

/// A bin in reports: its index and statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BinSummary {
    /// Bin index ([`bin_index`]).
    pub index: u32,
    /// Smallest distance.
    pub min: u64,
    /// Largest distance.
    pub max: u64,
    /// Mean distance.
    pub mean: f64,
    /// References.
    pub count: u64,
}

impl Bins {
    /// The bins as report rows.
    pub fn summaries(&self) -> Vec<BinSummary> {
        self.bins
            .iter()
            .map(|(i, b)| BinSummary {
                index: *i,
                min: b.min,
                max: b.max,
                mean: b.mean(),
                count: b.count,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_boundaries() {
        assert_eq!(bin_index(0), 0);
        assert_eq!(bin_index(1), 1);
        assert_eq!(bin_index(2), 2);
        assert_eq!(bin_index(3), 2);
        assert_eq!(bin_index(4), 3);
        assert_eq!(bin_index(1023), 10);
        assert_eq!(bin_index(1024), 11);
        assert_eq!(bin_index(2047), 11);
        assert_eq!(bin_index(2048), 12);
        assert_eq!(bin_index(10 * 1024 + 5), 20);
        for idx in 0..40 {
            let (lo, hi) = bin_range(idx);
            assert_eq!(bin_index(lo), idx);
            assert_eq!(bin_index(hi), idx);
            assert_eq!(bin_index(hi + 1), idx + 1);
        }
    }

    #[test]
    fn bins_keep_min_max_mean_count() {
        let mut b = Bins::new();
        for d in [5, 7, 6, 0, 1500, 1030, 0] {
            b.add(d);
        }
        let s = b.summaries();
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].index, s[0].min, s[0].max, s[0].count), (0, 0, 0, 2));
        assert_eq!((s[1].index, s[1].min, s[1].max, s[1].count), (3, 5, 7, 3));
        assert_eq!(s[1].mean, 6.0);
        assert_eq!(
            (s[2].index, s[2].min, s[2].max, s[2].count),
            (11, 1030, 1500, 2)
        );
        let mut c = Bins::new();
        c.add(6);
        c.add(3000);
        b.merge(&c);
        assert_eq!(b.count(), 9);
        assert_eq!(b.summaries().len(), 4);
    }
}
