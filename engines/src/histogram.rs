//! The reuse-distance histogram every engine produces.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A reuse-distance histogram: for each distance (number of *distinct* other blocks touched
/// between two accesses to the same block), how many accesses had it; plus cold (first-touch,
/// infinite distance) accesses and, for bounded analyses, accesses whose distance reached the bound.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// Count per exact finite distance (sparse).
    pub counts: BTreeMap<u64, u64>,
    /// First touches (distance ∞).
    pub cold: u64,
    /// Accesses with distance ≥ `bound` (bounded analyses only).
    pub overflow: u64,
    /// The bound of a bounded analysis.
    pub bound: Option<u64>,
    /// Whether the engine that produced it is exact.
    pub exact: bool,
}

impl Histogram {
    /// An empty exact histogram.
    pub fn new_exact() -> Self {
        Histogram {
            exact: true,
            ..Default::default()
        }
    }

    /// Adds `n` accesses at finite distance `d`.
    #[inline]
    pub fn add(&mut self, d: u64, n: u64) {
        *self.counts.entry(d).or_insert(0) += n;
    }

    /// All accesses counted.
    pub fn total(&self) -> u64 {
        self.cold + self.overflow + self.counts.values().sum::<u64>()
    }

    /// Accesses with a finite distance below the bound.
    pub fn reuses(&self) -> u64 {
        self.counts.values().sum()
    }

    /// Adds all counts of `other` into `self` (exactness is the conjunction).
    pub fn merge(&mut self, other: &Histogram) {
        for (&d, &n) in &other.counts {
            self.add(d, n);
        }
        self.cold += other.cold;
        self.overflow += other.overflow;
        self.exact &= other.exact;
        if self.bound.is_none() {
            self.bound = other.bound;
        }
    }

    /// Log2 view: bin 0 holds distance 0, bin k ≥ 1 holds distances in `[2^(k-1), 2^k)`.
    /// Returns `(lower, upper_exclusive, count)` for every non-empty bin.
    pub fn log2_bins(&self) -> Vec<(u64, u64, u64)> {
        let mut bins: BTreeMap<u32, u64> = BTreeMap::new();
        for (&d, &n) in &self.counts {
            let k = if d == 0 { 0 } else { 64 - d.leading_zeros() };
            *bins.entry(k).or_insert(0) += n;
        }
        bins.into_iter()
            .map(|(k, n)| {
                if k == 0 {
                    (0, 1, n)
                } else {
                    (1u64 << (k - 1), 1u64.checked_shl(k).unwrap_or(u64::MAX), n)
                }
            })
            .collect()
    }

    /// Accesses with distance `< capacity` (hits in a fully associative LRU cache of that many
    /// blocks).
    pub fn hits_below(&self, capacity: u64) -> u64 {
        self.counts.range(..capacity).map(|(_, n)| n).sum()
    }
}
