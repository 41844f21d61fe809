//! The simulation itself ([`Measurer`]): accesses in global order by core through the coherent
//! hierarchy, with each core's PRD and the CRD counted on the way, and the [`Measurement`] they
//! add up to.

use super::stacks::Stacks;
use super::{LevelCounts, MeasureConfig, MeasureOptions, Measurement, MiCoherence, ThreadRates};
use crate::model::Profile;
use crate::rates::{CoreCounts, HitRates};
use rdcachesim::{CacheCounts, CoherentHierarchy, LevelStats, MissKind, Served, Sharing};
use rdengines::Histogram;

/// Accumulates a measurement from accesses in global order: the cache simulation
/// ([`Simulation`]) and the reuse distances ([`Stacks`]), each fed every access.
pub struct Measurer {
    sim: Simulation,
    stacks: Stacks,
}

/// The cache-simulation half of a measurement: the coherent hierarchy with the per-core L2 hits
/// and the coherence misses per memory instruction.
pub(super) struct Simulation {
    config: MeasureConfig,
    options: MeasureOptions,
    hierarchy: CoherentHierarchy,
    /// L1 coherence misses per memory instruction: (true, false, cores).
    by_mi: std::collections::HashMap<u32, (u64, u64, Vec<u32>)>,
    /// Per core: L2 hits of the accesses its L1 misses caused.
    l2_hits: Vec<u64>,
    /// Per core: the L1 line it accessed last ([`NO_LINE`] before its first access).
    last_l1: Vec<u64>,
}

/// No line yet (line numbers are addresses shifted right, never all ones).
const NO_LINE: u64 = u64::MAX;

/// The memory instruction of an access fed without one ([`Measurer::access`]).
pub const NO_MI: u32 = u32::MAX;

impl Measurer {
    /// An empty measurement.
    pub fn new(config: MeasureConfig) -> Self {
        Self::with_options(config, MeasureOptions::default())
    }

    /// An empty measurement with options (a shared L3).
    pub fn with_options(config: MeasureConfig, options: MeasureOptions) -> Self {
        Measurer {
            sim: Simulation::new(config, options),
            stacks: Stacks::new(config.l1, config.l2),
        }
    }

    /// One read of `len` bytes at `addr` by core `core` (no memory instruction).
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        self.access_rw(core, NO_MI, addr, len, false);
    }

    /// One access of `len` bytes at `addr` by core `core`, made by memory instruction `mi`
    /// ([`NO_MI`] for none); `write`: whether it writes (a write invalidates the line in the
    /// other cores' private caches).
    #[inline]
    pub fn access_rw(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        self.sim.access_rw(core, mi, addr, len, write);
        self.stacks.access(core, addr, len);
    }

    /// The results.
    pub fn finish(self) -> Measurement {
        self.sim.finish(self.stacks)
    }
}

impl Simulation {
    /// An empty simulation of `config`'s levels (and `options`' L3).
    pub(super) fn new(config: MeasureConfig, options: MeasureOptions) -> Self {
        Simulation {
            config,
            options,
            hierarchy: CoherentHierarchy::new(config.l1, config.l2, options.l3),
            by_mi: Default::default(),
            l2_hits: Vec::new(),
            last_l1: Vec::new(),
        }
    }

    /// [`Measurer::access_rw`]'s simulation.
    #[inline]
    pub(super) fn access_rw(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        while self.l2_hits.len() <= core {
            self.l2_hits.push(0);
            self.last_l1.push(NO_LINE);
        }
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let (s1, s2) = (self.config.l1.line_shift(), self.config.l2.line_shift());
        let line1 = addr >> s1;
        let one_line = last_byte >> s1 == line1 && last_byte >> s2 == addr >> s2;
        if one_line && self.last_l1[core] == line1 {
            // The line this core touched last, again: an L1 hit that moves nothing unless
            // another core's write invalidated the line meanwhile or this write must
            // invalidate other copies.
            if !self.hierarchy.try_repeat(core, line1, write) {
                self.simulate(core, mi, addr, len, write);
            }
            return;
        }
        self.last_l1[core] = last_byte >> s1;
        self.simulate(core, mi, addr, len, write);
    }

    /// The cache simulation of one access (the slow path).
    fn simulate(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        // Each L2 access is the L1 miss of this core: its hit counts for this core.
        let l2_hits = &mut self.l2_hits[core];
        let by_mi = &mut self.by_mi;
        self.hierarchy.access_with(core, addr, len, write, |o| {
            if o.served == Served::L2 {
                *l2_hits += 1;
            }
            if let Some(MissKind::Coherence(s)) = o.l1_miss {
                let e = by_mi.entry(mi).or_default();
                match s {
                    Sharing::True => e.0 += 1,
                    Sharing::False => e.1 += 1,
                }
                if !e.2.contains(&(core as u32)) {
                    e.2.push(core as u32);
                }
            }
        });
    }

    /// The results, with the reuse distances of `stacks` (fed the same accesses).
    pub(super) fn finish(self, stacks: Stacks) -> Measurement {
        let full = self.hierarchy.stats();
        let l1_per_thread: Vec<LevelStats> = full.l1.iter().map(|c| c.stats).collect();
        let private_l2 = !full.l2_private.is_empty();
        let l2 = if private_l2 {
            let mut t = LevelStats::default();
            for c in &full.l2_private {
                t.add(&c.stats);
            }
            t
        } else {
            full.shared.stats
        };
        let stats = rdcachesim::HierarchyStats {
            l1: l1_per_thread,
            l2,
        };
        let l1 = stats.l1_total();
        let rates = HitRates::from_counts(l1.accesses, l1.hits, stats.l2.hits);
        let sum = |v: &[CacheCounts]| {
            let mut t = CacheCounts::default();
            for c in v {
                t.add(c);
            }
            t
        };
        let mut levels = vec![LevelCounts {
            level: "L1",
            sharing: "private",
            cache: self.config.l1.to_string(),
            counts: sum(&full.l1),
        }];
        let (mut l3, mut l3_hit_global, mut l3_hit_local) = (None, None, None);
        match self.options.l3 {
            Some(c3) => {
                levels.push(LevelCounts {
                    level: "L2",
                    sharing: "private",
                    cache: self.config.l2.to_string(),
                    counts: sum(&full.l2_private),
                });
                levels.push(LevelCounts {
                    level: "L3",
                    sharing: "shared",
                    cache: c3.to_string(),
                    counts: full.shared,
                });
                let s3 = full.shared.stats;
                l3 = Some(s3);
                l3_hit_local = Some(s3.hit_rate());
                l3_hit_global = Some(if l1.accesses == 0 {
                    0.0
                } else {
                    1.0 - s3.misses() as f64 / l1.accesses as f64
                });
            }
            None => levels.push(LevelCounts {
                level: "L2",
                sharing: "shared",
                cache: self.config.l2.to_string(),
                counts: full.shared,
            }),
        }
        let mut coherence_by_mi: Vec<MiCoherence> = self
            .by_mi
            .into_iter()
            .map(|(mi, (t, f, mut cores))| {
                cores.sort_unstable();
                MiCoherence {
                    mi,
                    true_sharing: t,
                    false_sharing: f,
                    threads: cores,
                }
            })
            .collect();
        coherence_by_mi
            .sort_by_key(|m| (std::cmp::Reverse(m.true_sharing + m.false_sharing), m.mi));
        let (prd, crd) = stacks.finish();
        let mut all = Histogram::new_exact();
        for h in &prd {
            all.merge(h);
        }

        let per_thread = stats
            .l1
            .iter()
            .enumerate()
            .map(|(core, s)| ThreadRates {
                thread: core as u32,
                omp_thread: None,
                rates: CoreCounts::new(
                    s.accesses,
                    s.hits,
                    self.l2_hits.get(core).copied().unwrap_or(0),
                )
                .into(),
            })
            .collect();
        let l1_misses_per_thread = full.l1.iter().map(|c| c.misses).collect();
        let l2_misses_per_thread = full.l2_private.iter().map(|c| c.misses).collect();
        Measurement {
            threads: stats.l1.iter().filter(|s| s.accesses > 0).count(),
            references: stats.references(),
            l1_hit: stats.l1_hit_rate(),
            l1_per_thread: stats.l1.clone(),
            l2_hit: stats.l2_global_hit_rate(),
            l2_local_hit: stats.l2_local_hit_rate(),
            l2_hit_global: rates.l2_hit_global,
            l2_hit_local: rates.l2_hit_local,
            l1_mpka: rates.l1_mpka,
            l2_mpka: rates.l2_mpka,
            omp_thread: vec![None; stats.l1.len()],
            l2: stats.l2,
            per_thread,
            levels,
            l3,
            l3_hit_global,
            l3_hit_local,
            coherence_by_mi,
            l1_misses_per_thread,
            l2_misses_per_thread,
            l1_hit_from_prd: Profile::from_histogram(&all).hit_rate(&self.config.l1),
            l2_hit_from_crd: Profile::from_histogram(&crd).hit_rate(&self.config.l2),
            prd,
            crd,
        }
    }
}

#[cfg(test)]
mod coherence_tests {
    use super::*;
    use rdcachesim::MissKinds;

    /// A core's repeat of its last line is not a hit when another core's write invalidated the
    /// line meanwhile; the coherence miss is charged to its thread and memory instruction.
    #[test]
    fn the_repeat_fast_path_sees_invalidations() {
        let mut m = Measurer::new(MeasureConfig::default());
        m.access_rw(0, 7, 0, 8, true); // compulsory
        m.access_rw(0, 7, 0, 8, true); // repeat: hit (core 0 holds the line alone)
        m.access_rw(1, 9, 8, 8, true); // compulsory; invalidates core 0's copy
        m.access_rw(0, 7, 0, 8, false); // repeat of core 0's line, but lost: false sharing
        m.access_rw(0, 7, 0, 8, true); // hit; invalidates core 1's copy
        m.access_rw(1, 9, 0, 1, false); // core 1 reads byte 0, written by core 0: true sharing
        let r = m.finish();
        assert_eq!(
            r.l1_per_thread,
            [
                LevelStats {
                    accesses: 4,
                    hits: 2
                },
                LevelStats {
                    accesses: 2,
                    hits: 0
                }
            ]
        );
        let k = |compulsory, true_sharing, false_sharing| MissKinds {
            compulsory,
            coherence: true_sharing + false_sharing,
            true_sharing,
            false_sharing,
            ..Default::default()
        };
        assert_eq!(r.l1_misses_per_thread, [k(1, 0, 1), k(1, 1, 0)]);
        assert_eq!(
            r.coherence_by_mi,
            [
                MiCoherence {
                    mi: 7,
                    true_sharing: 0,
                    false_sharing: 1,
                    threads: vec![0]
                },
                MiCoherence {
                    mi: 9,
                    true_sharing: 1,
                    false_sharing: 0,
                    threads: vec![1]
                }
            ]
        );
        // The PRD is the core's own stream, invalidations or not: cold, then distance 0.
        assert_eq!(r.prd[0].cold, 1);
        assert_eq!(r.prd[0].counts.get(&0), Some(&3));
        assert_eq!(r.levels[0].counts.misses.total(), 4);
        assert_eq!(r.levels[1].level, "L2");
    }
}
