//! What [`MultiHierarchy`] counted: references, hits and misses by class per cache and core,
//! the set samples behind them, and the rates of each L1 + L2 hierarchy.

use super::MultiHierarchy;
use crate::rates::{CoreCounts, HitRates};
use crate::set_sample::SetSample;
use rdcachesim::MissKinds;

impl MultiHierarchy {
    /// L1 misses of configuration `i` per core by class: the 3C + coherence split when
    /// [`classify`](Self::classify) named it, else only the coherence misses (and their true
    /// and false sharing; the other classes zero).
    pub fn l1_miss_kinds(&self, i: usize) -> &[MissKinds] {
        &self.l1_counts[i].kinds
    }

    /// Misses of L2 request `j` by class, per core whose L1 miss caused the access (zeros unless
    /// [`classify`](Self::classify) named it).
    pub fn l2_miss_kinds(&self, j: usize) -> &[MissKinds] {
        &self.l2_classes[j].kinds
    }

    /// Whether the misses of L1 configuration `i` are classed.
    pub fn l1_classified(&self, i: usize) -> bool {
        self.l1_counts[i].shadow_lines.is_some()
    }

    /// The set sample behind the counts of L1 configuration `i` (and of the L2 caches behind
    /// it); `None`: every set is simulated.
    pub fn l1_sample(&self, i: usize) -> Option<&SetSample> {
        self.l1_groups
            .iter()
            .find(|g| g.configs.contains(&i))
            .and_then(|g| g.sample.as_ref())
    }

    /// The set sample behind the counts of L2 request `j`.
    pub fn l2_sample(&self, j: usize) -> Option<&SetSample> {
        match self.l2[j].0 {
            Some(i) => self.l1_sample(i),
            None => self
                .l2_groups
                .iter()
                .find(|g| g.requests.contains(&j))
                .and_then(|g| g.sample.as_ref()),
        }
    }

    /// L1 references and hits per core of L1 configuration `i`.
    pub fn l1_counts(&self, i: usize) -> (&[u64], &[u64]) {
        let c = &self.l1_counts[i];
        (&c.references, &c.hits)
    }

    /// Accesses and hits of L2 request `j`.
    pub fn l2_counts(&self, j: usize) -> (u64, u64) {
        (self.l2_accesses[j], self.l2_hits[j].iter().sum())
    }

    /// Hits of L2 request `j` per core: of the accesses each core's L1 misses caused (or each
    /// core's references, for a cache with no L1 in front).
    pub fn l2_hits_per_core(&self, j: usize) -> &[u64] {
        &self.l2_hits[j]
    }

    /// Cores seen so far (the length of every per-core count).
    pub fn cores(&self) -> usize {
        self.cores
    }

    /// Each core's counts in the hierarchy L1 configuration `i` + L2 request `j` (which must be
    /// behind `i`): its references, L1 hits and the L2 hits of the accesses its L1 misses
    /// caused (the private L2's with three levels, for `i = 0`). Index = core; cores not seen
    /// yet are absent.
    pub fn core_counts(&self, i: usize, j: usize) -> Vec<CoreCounts> {
        debug_assert_eq!(self.l2[j].0, Some(i));
        let (refs, hits) = self.l1_counts(i);
        // Three levels: the level behind the L1 is the private L2 (the shared one is the L3,
        // whose hits per core `l2_hits_per_core` gives).
        let behind = match &self.private {
            Some(p) if i == 0 => p.counts().1,
            _ => &self.l2_hits[j],
        };
        refs.iter()
            .zip(hits)
            .zip(behind)
            .map(|((&r, &h), &h2)| CoreCounts::new(r, h, h2))
            .collect()
    }

    /// Rates of the hierarchy L1 configuration `i` + L2 request `j` (which must be behind `i`):
    /// those of the sum of [`core_counts`](Self::core_counts).
    pub fn rates(&self, i: usize, j: usize) -> HitRates {
        CoreCounts::sum(&self.core_counts(i, j)).rates()
    }
}
