//! Reuse-distance bins small enough to keep one per source line: exact below
//! [`DistanceBins::EXACT_BELOW`], then 16 bins per power of two (a bin's width is at most 1/16
//! of its lower bound, so a percentile read from it is low by less than 6.25 %). The number of
//! bins is bounded (at most 1024 + 16 × 54) whatever the trace length.

/// Histogram of finite reuse distances in bounded bins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DistanceBins {
    bins: Vec<u64>,
    total: u64,
}

const SUB_BITS: u32 = 4;
const EXACT_BITS: u32 = 10;

impl DistanceBins {
    /// Distances below this are binned exactly.
    pub const EXACT_BELOW: u64 = 1 << EXACT_BITS;

    /// The bin index of distance `d`.
    fn index(d: u64) -> usize {
        if d < Self::EXACT_BELOW {
            return d as usize;
        }
        let e = 63 - d.leading_zeros(); // ≥ EXACT_BITS
        let m = (d >> (e - SUB_BITS)) & ((1 << SUB_BITS) - 1);
        (Self::EXACT_BELOW + ((e - EXACT_BITS) as u64) * (1 << SUB_BITS) + m) as usize
    }

    /// The smallest distance that falls in bin `i`.
    fn lower_bound(i: usize) -> u64 {
        let i = i as u64;
        if i < Self::EXACT_BELOW {
            return i;
        }
        let k = i - Self::EXACT_BELOW;
        let e = EXACT_BITS as u64 + k / (1 << SUB_BITS);
        let m = k % (1 << SUB_BITS);
        ((1 << SUB_BITS) + m) << (e - SUB_BITS as u64)
    }

    /// Counts one reference at distance `d`.
    #[inline]
    pub fn add(&mut self, d: u64) {
        let i = Self::index(d);
        if i >= self.bins.len() {
            self.bins.resize(i + 1, 0);
        }
        self.bins[i] += 1;
        self.total += 1;
    }

    /// Adds another histogram.
    pub fn merge(&mut self, other: &DistanceBins) {
        if other.bins.len() > self.bins.len() {
            self.bins.resize(other.bins.len(), 0);
        }
        for (a, b) in self.bins.iter_mut().zip(&other.bins) {
            *a += b;
        }
        self.total += other.total;
    }

    /// Finite distances counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Nearest-rank percentile `p` (0 < p ≤ 100): the smallest distance d such that at least
    /// p % of the counted distances are ≤ d, rounded down to its bin's lower bound (exact below
    /// [`Self::EXACT_BELOW`]). `None` when nothing was counted.
    pub fn percentile(&self, p: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((p / 100.0) * self.total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &n) in self.bins.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(Self::lower_bound(i));
            }
        }
        Some(Self::lower_bound(self.bins.len() - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn bins_round_trip_at_their_bounds() {
        // Every bin's lower bound maps back to that bin, and bins are contiguous: the value
        // just below a lower bound lands in the previous bin.
        for i in 1..(1024 + 16 * 54) {
            let lo = DistanceBins::lower_bound(i);
            assert_eq!(DistanceBins::index(lo), i, "bin {i}");
            assert_eq!(DistanceBins::index(lo - 1), i - 1, "below bin {i}");
        }
        assert_eq!(DistanceBins::index(u64::MAX), 1024 + 16 * 54 - 1);
    }

    proptest! {
        /// Against a sorted-vector oracle: exact below 1024, never above the true percentile
        /// and less than 6.25 % below it.
        #[test]
        fn percentile_matches_sorted_oracle(
            ds in prop::collection::vec(prop_oneof![0u64..1100, 0u64..1_000_000_000], 1..300),
            p in 1u32..=100,
        ) {
            let mut b = DistanceBins::default();
            for &d in &ds { b.add(d); }
            let mut sorted = ds.clone();
            sorted.sort();
            let rank = ((p as f64 / 100.0) * ds.len() as f64).ceil().max(1.0) as usize;
            let truth = sorted[rank - 1];
            let got = b.percentile(p as f64).unwrap();
            if truth < 1024 {
                prop_assert_eq!(got, truth);
            } else {
                prop_assert!(got <= truth);
                prop_assert!((truth - got) as f64 <= truth as f64 / 16.0);
            }
        }
    }
}
