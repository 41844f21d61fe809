//! [`Hierarchy`]: a private L1 per core and one shared, non-inclusive non-exclusive L2.

use crate::{Cache, CacheConfig, LevelStats};
use serde::{Deserialize, Serialize};

/// Where one access was served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    /// Hit in the core's private L1.
    L1,
    /// Missed L1, hit the L2 (shared, or private under a shared L3).
    L2,
    /// Missed L1 and L2, hit the shared L3 ([`crate::CoherentHierarchy`] with three levels).
    L3,
    /// Missed both.
    Memory,
}

/// Counts of a [`Hierarchy`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HierarchyStats {
    /// Per-core L1 counts, indexed by core.
    pub l1: Vec<LevelStats>,
    /// Shared L2 counts (its accesses are the L1 misses).
    pub l2: LevelStats,
}

impl HierarchyStats {
    /// All cores' L1 counts summed.
    pub fn l1_total(&self) -> LevelStats {
        let mut t = LevelStats::default();
        for s in &self.l1 {
            t.add(s);
        }
        t
    }

    /// Line references issued by all cores.
    pub fn references(&self) -> u64 {
        self.l1_total().accesses
    }

    /// L1 hit rate over all cores' references.
    pub fn l1_hit_rate(&self) -> f64 {
        self.l1_total().hit_rate()
    }

    /// Global L2 hit rate: the fraction of all references served without going to memory,
    /// `1 − L2 misses / references` (cachegrind's convention for its last-level cache, and what
    /// the stack-distance model of SASMM eq. 7 estimates from the concurrent reuse profile).
    pub fn l2_global_hit_rate(&self) -> f64 {
        let refs = self.references();
        if refs == 0 {
            0.0
        } else {
            1.0 - self.l2.misses() as f64 / refs as f64
        }
    }

    /// Local L2 hit rate: L2 hits / L2 accesses (= L1 misses).
    pub fn l2_local_hit_rate(&self) -> f64 {
        self.l2.hit_rate()
    }
}

/// Private L1 per core and one shared L2, non-inclusive (see the crate documentation).
#[derive(Clone, Debug)]
pub struct Hierarchy {
    l1_cfg: CacheConfig,
    l1: Vec<Cache>,
    l2: Cache,
}

impl Hierarchy {
    /// A hierarchy for `cores` cores (more are added on demand by [`Hierarchy::access`]).
    pub fn new(l1: CacheConfig, l2: CacheConfig, cores: usize) -> Self {
        Hierarchy {
            l1_cfg: l1,
            l1: (0..cores).map(|_| Cache::new(l1)).collect(),
            l2: Cache::new(l2),
        }
    }

    /// Accesses `len` bytes at `addr` from `core`, line by line at the L1's line size; each L1
    /// miss looks up the L2 at the L2's line size. Calls `served` once per L1 line.
    pub fn access_with(
        &mut self,
        core: usize,
        addr: u64,
        len: u64,
        mut served: impl FnMut(Served),
    ) {
        while self.l1.len() <= core {
            self.l1.push(Cache::new(self.l1_cfg));
        }
        let l1_shift = self.l1_cfg.line_shift();
        let l2_shift = self.l2.config().line_shift();
        let l1 = &mut self.l1[core];
        let l2 = &mut self.l2;
        self.l1_cfg.for_each_line(addr, len, |line| {
            if l1.access_line(line) {
                served(Served::L1);
            } else {
                let byte = line << l1_shift;
                let l2_line = byte >> l2_shift;
                served(if l2.access_line(l2_line) {
                    Served::L2
                } else {
                    Served::Memory
                });
            }
        });
    }

    /// Counts an L1 hit of `core` on the line that core accessed last ([`Cache::hit_most_recent`]:
    /// private L1s see only their own core's accesses, so that line is still its set's most
    /// recently used).
    #[inline]
    pub fn l1_hit_most_recent(&mut self, core: usize) {
        self.l1[core].hit_most_recent();
    }

    /// Accesses `len` bytes at `addr` from `core`.
    #[inline]
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        self.access_with(core, addr, len, |_| {});
    }

    /// The counts so far.
    pub fn stats(&self) -> HierarchyStats {
        HierarchyStats {
            l1: self.l1.iter().map(Cache::stats).collect(),
            l2: self.l2.stats(),
        }
    }
}
