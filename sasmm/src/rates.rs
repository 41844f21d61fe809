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
            l2_hit_local: local_rate(l1_hit, l2_hit_global),
            l1_mpka: 1000.0 * (1.0 - l1_hit),
            l2_mpka: 1000.0 * (1.0 - l2_hit_global),
        }
    }
}

/// One core's (or one thread's) counts in a private-L1 / shared-L2 hierarchy and its rates:
/// its references, its private L1's hits and misses, the shared L2 accesses its L1 misses cause
/// (each L2 access is attributed to the core whose L1 missed) and how many of them hit.
///
/// The rates are [`HitRates::from_counts`] of this core's counts, so the combined rates of all
/// cores are the reference-weighted combination of the per-core ones: the combined L1 hit rate
/// is `Σ l1_hits / Σ references`, the L1 MPKA `1000 · Σ l1_misses / Σ references`, and the
/// per-core `l2_hit_global` is the fraction of this core's references served without memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CoreCounts {
    /// Line references the core issued (at the L1's line size).
    pub references: u64,
    /// References that hit the core's private L1.
    pub l1_hits: u64,
    /// References that missed it.
    pub l1_misses: u64,
    /// Shared-L2 accesses this core's L1 misses caused (equal to `l1_misses`: the L2 is looked
    /// up on every L1 miss).
    pub l2_accesses: u64,
    /// Of them, L2 hits.
    pub l2_hits: u64,
    /// Of them, L2 misses (references of this core served from memory).
    pub l2_misses: u64,
}

impl CoreCounts {
    /// Counts from `references`, the L1 hits among them and the L2 hits among the L1 misses.
    pub fn new(references: u64, l1_hits: u64, l2_hits: u64) -> Self {
        let l1_misses = references.saturating_sub(l1_hits);
        CoreCounts {
            references,
            l1_hits,
            l1_misses,
            l2_accesses: l1_misses,
            l2_hits,
            l2_misses: l1_misses.saturating_sub(l2_hits),
        }
    }

    /// The counts of several cores added up (what the combined rates are computed from).
    pub fn sum<'a>(cores: impl IntoIterator<Item = &'a CoreCounts>) -> CoreCounts {
        let (mut r, mut h1, mut h2) = (0u64, 0u64, 0u64);
        for c in cores {
            r += c.references;
            h1 += c.l1_hits;
            h2 += c.l2_hits;
        }
        CoreCounts::new(r, h1, h2)
    }

    /// This core's rates.
    pub fn rates(&self) -> HitRates {
        HitRates::from_counts(self.references, self.l1_hits, self.l2_hits)
    }
}

/// One core's counts with its rates, as reports print them (`per_core` of `predict`,
/// `per_thread` of `measure`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CoreRates {
    /// The counts.
    #[serde(flatten)]
    pub counts: CoreCounts,
    /// The rates of these counts.
    #[serde(flatten)]
    pub rates: HitRates,
}

impl From<CoreCounts> for CoreRates {
    fn from(counts: CoreCounts) -> Self {
        CoreRates {
            counts,
            rates: counts.rates(),
        }
    }
}

/// Local L2 hit rate from global L1 and L2 hit rates, clamped to [0, 1].
pub fn local_rate(l1: f64, l2_global: f64) -> f64 {
    if l1 >= 1.0 {
        0.0
    } else {
        ((l2_global - l1) / (1.0 - l1)).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_core_counts_combine_to_the_total() {
        // Core 0: 100 references, 10 L1 hits, 30 of its 90 misses hit the L2. Core 1: 300
        // references, 290 L1 hits, none of its 10 misses hit the L2.
        let a = CoreCounts::new(100, 10, 30);
        let b = CoreCounts::new(300, 290, 0);
        assert_eq!((a.l1_misses, a.l2_accesses, a.l2_misses), (90, 90, 60));
        let all = CoreCounts::sum([&a, &b]);
        assert_eq!(all, CoreCounts::new(400, 300, 30));
        let (ra, rb, r) = (a.rates(), b.rates(), all.rates());
        assert_eq!(r, HitRates::from_counts(400, 300, 30));
        // The reference-weighted combination of the per-core rates.
        let w = |f: fn(&HitRates) -> f64| (100.0 * f(&ra) + 300.0 * f(&rb)) / 400.0;
        assert!((w(|h| h.l1_hit) - r.l1_hit).abs() < 1e-15);
        assert!((w(|h| h.l1_mpka) - r.l1_mpka).abs() < 1e-12);
        assert!((w(|h| h.l2_hit_global) - r.l2_hit_global).abs() < 1e-15);
        assert!((w(|h| h.l2_mpka) - r.l2_mpka).abs() < 1e-12);
        let cr = CoreRates::from(a);
        assert_eq!((cr.counts, cr.rates), (a, ra));
    }

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
