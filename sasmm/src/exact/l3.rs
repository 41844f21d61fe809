//! The shared L3 of the exact model's three-level hierarchy ([`super::ExactConfig::l3`]): its
//! counts and rates as `predict` reports them, named as `measure --l3` names its own.

use super::MultiHierarchy;
use crate::set_sample::{scaled, SetSample};
use rdcachesim::{CacheConfig, MissKinds};
use serde::Serialize;

/// The shared L3 of a three-level hierarchy: its counts and rates, as `measure --l3` reports
/// them (`l3`, `l3_hit_global`, `l3_hit_local`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct L3Prediction {
    /// The L3.
    pub l3: CacheConfig,
    /// L3 lookups (the private L2s' misses) and hits, all cores, scaled like the
    /// hierarchy's `references` when set-sampled.
    #[serde(flatten)]
    pub counts: L3Counts,
    /// L3 misses per 1000 references.
    pub l3_mpka: f64,
    /// Each core's L3 lookups (its L2 misses) and their hits, cores `0..m`.
    pub per_core: Vec<L3Counts>,
    /// The L3's misses by class (coherence 0: the shared level is never invalidated); with
    /// [`super::ExactConfig::classify_misses`] they add up to the L3 misses, else all 0.
    pub l3_miss_classes: MissKinds,
    /// Each core's private-L2 misses by class, cores `0..m` (as `l1_misses_per_core`).
    pub l2_misses_per_core: Vec<MissKinds>,
}

/// L3 counts and rates of all cores or of one core (the L3 accesses a core's L2 misses cause).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct L3Counts {
    /// L3 lookups.
    pub l3_accesses: u64,
    /// Of them, hits.
    pub l3_hits: u64,
    /// Of them, misses (references served from memory).
    pub l3_misses: u64,
    /// Global L3 hit rate: 1 − L3 misses / references (of these cores).
    pub l3_hit_global: f64,
    /// Local L3 hit rate: L3 hits / L3 accesses.
    pub l3_hit_local: f64,
}

impl L3Counts {
    /// Counts of `accesses` L3 lookups with `hits` hits, for `references` line references.
    pub fn new(references: u64, accesses: u64, hits: u64) -> Self {
        let misses = accesses.saturating_sub(hits);
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        L3Counts {
            l3_accesses: accesses,
            l3_hits: hits,
            l3_misses: misses,
            l3_hit_global: if references == 0 {
                0.0
            } else {
                1.0 - ratio(misses, references)
            },
            l3_hit_local: ratio(hits, accesses),
        }
    }
}

/// The shared L3 of the three-level hierarchy of L3 request `j` (behind L1 configuration 0):
/// its counts per core (lookups: the core's private-L2 misses) and in all, scaled by `sample`.
pub(super) fn l3_prediction(
    sim: &MultiHierarchy,
    j: usize,
    l3: CacheConfig,
    cores: usize,
    sample: Option<&SetSample>,
    scale_kinds: &dyn Fn(&MissKinds) -> MissKinds,
) -> L3Prediction {
    let (refs, _) = sim.l1_counts(0);
    let (acc2, hits2) = sim.l2_private_counts().unwrap_or_default();
    let hits3 = sim.l2_hits_per_core(j);
    let at = |v: &[u64], c: usize| v.get(c).copied().unwrap_or(0);
    let scale = |n: u64| scaled(sample, n);
    // Rates of the simulated sets, counts scaled to all of them (as the other levels').
    let counts = |r: u64, a: u64, h: u64| {
        let rates = L3Counts::new(r, a, h);
        L3Counts {
            l3_accesses: scale(a),
            l3_hits: scale(h),
            l3_misses: scale(rates.l3_misses),
            ..rates
        }
    };
    let per_core: Vec<L3Counts> = (0..cores)
        .map(|c| {
            let accesses = at(acc2, c) - at(hits2, c);
            counts(at(refs, c), accesses, at(hits3, c))
        })
        .collect();
    let (r, a, h) = (0..cores).fold((0, 0, 0), |(r, a, h), c| {
        (
            r + at(refs, c),
            a + at(acc2, c) - at(hits2, c),
            h + at(hits3, c),
        )
    });
    let all = counts(r, a, h);
    let mut l3_misses = MissKinds::default();
    sim.l2_miss_kinds(j).iter().for_each(|k| l3_misses.add(k));
    L3Prediction {
        l3,
        counts: all,
        l3_mpka: if r == 0 {
            0.0
        } else {
            1000.0 * (a - h) as f64 / r as f64
        },
        per_core,
        l3_miss_classes: scale_kinds(&l3_misses),
        l2_misses_per_core: (0..cores)
            .map(|c| {
                let k = sim.l2_private_miss_kinds().unwrap_or_default();
                scale_kinds(&k.get(c).copied().unwrap_or_default())
            })
            .collect(),
    }
}
