//! The named hit rates every SASMM report prints, with one definition for the formula model,
//! the exact model and the measured runs. All rates are per *cache-line reference* (an access
//! that straddles two lines is two references).

use serde::Serialize;

/// L1 and L2 hit rates of a private-L1 / shared-L2 hierarchy, and misses per 1000 references.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct HitRates {
    /// L1 hits / references.
    pub l1_hit: f64,
    /// Global L2 hit rate: 1 − L2 misses / references (references served without memory).
    pub l2_hit_global: f64,
    /// Alias of [`HitRates::l2_hit_global`] (the name older reports use).
    pub l2_hit: f64,
    /// Local L2 hit rate: L2 hits / L2 accesses (the L1 misses).
    pub l2_hit_local: f64,
    /// L1 misses per 1000 references.
    pub l1_mpka: f64,
    /// L2 misses per 1000 references.
    pub l2_mpka: f64,
}

impl HitRates {
    /// Rates from counts: `references` line references, `l1_hits` of them hit the L1, and
    /// `l2_hits` of the L1 misses hit the L2.
    pub fn from_counts(references: u64, l1_hits: u64, l2_hits: u64) -> Self {
        if references == 0 {
            return HitRates::default();
        }
        let r = references as f64;
        let l1_misses = references.saturating_sub(l1_hits);
        let l2_misses = l1_misses.saturating_sub(l2_hits);
        let global = 1.0 - l2_misses as f64 / r;
        HitRates {
            l1_hit: l1_hits as f64 / r,
            l2_hit_global: global,
            l2_hit: global,
            l2_hit_local: if l1_misses == 0 {
                0.0
            } else {
                l2_hits as f64 / l1_misses as f64
            },
            l1_mpka: 1000.0 * l1_misses as f64 / r,
            l2_mpka: 1000.0 * l2_misses as f64 / r,
        }
    }

    /// Rates from a global L1 and a global L2 hit rate (what the formula model gives); the local
    /// rate is `(h2 − h1) / (1 − h1)`, clamped to [0, 1].
    pub fn from_global(l1_hit: f64, l2_hit_global: f64) -> Self {
        HitRates {
            l1_hit,
            l2_hit_global,
            l2_hit: l2_hit_global,
            l2_hit_local: crate::predict::local_rate(l1_hit, l2_hit_global),
            l1_mpka: 1000.0 * (1.0 - l1_hit),
            l2_mpka: 1000.0 * (1.0 - l2_hit_global),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_hand() {
        // 1000 references, 900 L1 hits, 100 L1 misses of which 40 hit the L2: 60 go to memory.
        let r = HitRates::from_counts(1000, 900, 40);
        assert_eq!(r.l1_hit, 0.9);
        assert!((r.l2_hit_global - 0.94).abs() < 1e-12);
        assert_eq!(r.l2_hit, r.l2_hit_global);
        assert!((r.l2_hit_local - 0.4).abs() < 1e-12);
        assert!((r.l1_mpka - 100.0).abs() < 1e-9);
        assert!((r.l2_mpka - 60.0).abs() < 1e-9);
        // The same from the global rates.
        let g = HitRates::from_global(0.9, 0.94);
        assert!((g.l2_hit_local - 0.4).abs() < 1e-12);
        assert!((g.l2_mpka - 60.0).abs() < 1e-9);
        assert_eq!(HitRates::from_counts(0, 0, 0), HitRates::default());
    }
}
