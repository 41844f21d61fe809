//! Exact simulation of many private-L1 / shared-L2 hierarchies at once ([`MultiHierarchy`]),
//! one [`SetStacks`] per L1 set count and core and per L2 set count behind each L1, with
//! write-invalidate coherence between the private L1s and the 3C + coherence split of the
//! misses of the caches asked for.
//!
//! This module holds the simulator's groups of stacks and counts and their construction;
//! `access` runs the accesses through them, `counts` reads the counts out.

mod access;
mod counts;

use super::coherence::LostMap;
use super::private_l2::PrivateL2;
use super::set_stacks::SetStacks;
use crate::error::{Result, SasmmError};
use crate::set_sample::{shared_bits, SetSample, SetSampleConfig};
use rdcachesim::{CacheConfig, FaShadow, MissKinds};

/// One L1 set count / line size, shared by the L1 configurations that have it.
pub(super) struct L1Group {
    shift: u32,
    sets: u64,
    depth: u32,
    /// Indices into the L1 configurations.
    configs: Vec<usize>,
    /// One stack per core.
    stacks: Vec<SetStacks>,
    /// Per core: the line it accessed last through these stacks (`None` before its first).
    /// It is the most recently used line of its set in that core's stack, so a repeat has
    /// distance 0 and is looked up nowhere.
    last: Vec<Option<u64>>,
    /// The sets simulated (of this group and the L2 groups behind its configurations); `None`:
    /// all.
    pub(super) sample: Option<SetSample>,
    /// Cores that lost a line of this group's line size by invalidation and have not accessed
    /// it since.
    lost: LostMap,
    /// Per core: a write to its `last` line needs no coherence work (no other core holds the
    /// line and none has a lost record of it).
    exclusive: Vec<bool>,
    /// Cores with `exclusive` set (0: no check on other cores' accesses).
    exclusive_cores: usize,
    /// Lines a core owns, by a hash of the line ([`owner_slot`]): `(line, core)` when `core`
    /// wrote the line, which left no other core a copy or a lost record, and no other core has
    /// accessed it since; its writes to the line then need no coherence work. A hint: a
    /// collision forgets an owner (the write then does the work), never makes one.
    owner: Vec<(u64, u32)>,
}

/// Slots of [`L1Group::owner`].
const OWNER_SLOTS: usize = 256;

/// No line in an owner slot (line numbers are addresses shifted right, never all ones).
const NO_LINE: u64 = u64::MAX;

/// The owner slot of `line`.
#[inline]
fn owner_slot(line: u64) -> usize {
    ((line ^ (line >> 8)) as usize) & (OWNER_SLOTS - 1)
}

/// L2 stacks of one set count / line size behind one L1 configuration (or behind none: a
/// shared cache that sees every reference).
struct L2Group {
    behind: Option<usize>,
    shift: u32,
    stack: SetStacks,
    /// Indices into the L2 requests.
    requests: Vec<usize>,
    /// The line this group's stack was accessed with last (`None` before the first): for a
    /// group that sees every reference, a repeat of it has distance 0.
    last: Option<u64>,
    /// The sets simulated when this group sees every reference (behind an L1, the L1 group's
    /// sample decides).
    sample: Option<SetSample>,
}

/// Counts and per-core state of one L1 configuration beyond its group's stacks.
#[derive(Clone, Debug, Default)]
struct L1Counts {
    references: Vec<u64>,
    hits: Vec<u64>,
    /// Per core, per set: ways emptied by invalidations and not refilled since (an empty vector:
    /// none yet). The cache holds the `ways − holes` most recent lines of its set's stack.
    holes: Vec<Vec<u32>>,
    /// Lines of the fully associative shadow when the misses are classed (`None`: not classed).
    shadow_lines: Option<u64>,
    /// Per core: the fully associative shadow (empty when not classed).
    shadows: Vec<FaShadow>,
    /// Per core: the misses by class (zero when not classed).
    kinds: Vec<MissKinds>,
}

/// The 3C split of one shared-L2 request's misses.
#[derive(Clone, Debug, Default)]
struct L2Classes {
    /// The fully associative shadow (`None`: not classed).
    shadow: Option<FaShadow>,
    /// Per core (whose L1 miss caused the access): the misses by class.
    kinds: Vec<MissKinds>,
}

/// Exact simulation of many private-L1 / shared-L2 hierarchies at once, from per-set stack
/// distances: L1 configurations with the same set count and line share one stack per core;
/// L2 caches with the same set count and line behind the same L1 share one stack.
pub struct MultiHierarchy {
    l1: Vec<CacheConfig>,
    l2: Vec<(Option<usize>, CacheConfig)>,
    pub(super) l1_groups: Vec<L1Group>,
    l2_groups: Vec<L2Group>,
    /// L2 groups fed by each L1 configuration's misses.
    l2_behind: Vec<Vec<usize>>,
    /// L2 groups fed by every reference.
    l2_unfiltered: Vec<usize>,
    l1_counts: Vec<L1Counts>,
    l2_accesses: Vec<u64>,
    /// `l2_hits[j][core]`: hits of L2 request `j` on accesses by `core` (an L1 miss of that
    /// core, or its reference for a cache with no L1 in front).
    l2_hits: Vec<Vec<u64>>,
    /// Per L2 request: its miss classes.
    l2_classes: Vec<L2Classes>,
    /// Cores seen so far: every per-core vector has this length.
    cores: usize,
    /// The single L2 group when the request is one L1 and one L2 (the usual call): a repeat
    /// of a core's last line is then decided inline in the caller's loop.
    pub(super) single: Option<usize>,
    /// A private L2 per core behind L1 configuration 0 (a three-level hierarchy): its misses,
    /// not the L1's, go to the shared caches behind that L1, which are then L3s.
    pub(super) private: Option<PrivateL2>,
}

impl MultiHierarchy {
    /// Hierarchies for private L1 caches `l1` and shared caches `l2`, each given as
    /// `(Some(i), cache)` (looked up on the misses of L1 configuration `i`, like
    /// [`rdcachesim::Hierarchy`]) or `(None, cache)` (sees every reference, no L1 in front).
    pub fn new(l1: &[CacheConfig], l2: &[(Option<usize>, CacheConfig)]) -> Result<Self> {
        Self::sampled(l1, l2, None)
    }

    /// [`new`](Self::new), simulating with `sample` only a random subset of the sets of each
    /// group of coupled caches (an L1 set count with the L2 caches behind it; a shared cache
    /// with no L1 in front on its own), see [`crate::set_sample`]. Counts are those of the
    /// simulated sets; [`l1_sample`](Self::l1_sample) and [`l2_sample`](Self::l2_sample) say
    /// how to scale them.
    pub fn sampled(
        l1: &[CacheConfig],
        l2: &[(Option<usize>, CacheConfig)],
        sample: Option<&SetSampleConfig>,
    ) -> Result<Self> {
        Self::build(l1, None, l2, sample)
    }

    /// The hierarchies of [`sampled`](Self::sampled) with `private` behind L1 configuration 0
    /// (see [`three_level`](Self::three_level)).
    pub(super) fn build(
        l1: &[CacheConfig],
        private: Option<PrivateL2>,
        l2: &[(Option<usize>, CacheConfig)],
        sample: Option<&SetSampleConfig>,
    ) -> Result<Self> {
        let mut l1_groups: Vec<L1Group> = Vec::new();
        for (i, c) in l1.iter().enumerate() {
            let (shift, sets) = (c.line_shift(), c.sets());
            match l1_groups
                .iter_mut()
                .find(|g| g.shift == shift && g.sets == sets)
            {
                Some(g) => {
                    g.configs.push(i);
                    g.depth = g.depth.max(c.ways);
                }
                None => l1_groups.push(L1Group {
                    shift,
                    sets,
                    depth: c.ways,
                    configs: vec![i],
                    stacks: Vec::new(),
                    last: Vec::new(),
                    sample: None,
                    lost: LostMap::default(),
                    exclusive: Vec::new(),
                    exclusive_cores: 0,
                    owner: vec![(NO_LINE, 0); OWNER_SLOTS],
                }),
            }
        }
        if let Some(g) = l1_groups.iter().find(|g| g.configs.len() > 64) {
            return Err(SasmmError::Config(format!(
                "{} L1 configurations with {} sets of {}-byte lines; at most 64 share a set count",
                g.configs.len(),
                g.sets,
                1u64 << g.shift
            )));
        }
        let mut l2_groups: Vec<L2Group> = Vec::new();
        let mut l2_depth: Vec<(u64, u32)> = Vec::new();
        for (j, &(behind, c)) in l2.iter().enumerate() {
            if let Some(i) = behind {
                if i >= l1.len() {
                    return Err(SasmmError::Config(format!(
                        "L2 request {j} is behind L1 configuration {i} of {}",
                        l1.len()
                    )));
                }
            }
            let (shift, sets) = (c.line_shift(), c.sets());
            match l2_groups
                .iter()
                .zip(&l2_depth)
                .position(|(g, &(s, _))| g.behind == behind && g.shift == shift && s == sets)
            {
                Some(k) => {
                    l2_groups[k].requests.push(j);
                    l2_depth[k].1 = l2_depth[k].1.max(c.ways);
                }
                None => {
                    l2_groups.push(L2Group {
                        behind,
                        shift,
                        stack: SetStacks::new(1, 1)?,
                        requests: vec![j],
                        last: None,
                        sample: None,
                    });
                    l2_depth.push((sets, c.ways));
                }
            }
        }
        for (g, &(sets, depth)) in l2_groups.iter_mut().zip(&l2_depth) {
            g.stack = SetStacks::new(sets, depth)?;
        }
        let mut l2_behind = vec![Vec::new(); l1.len()];
        let mut l2_unfiltered = Vec::new();
        for (k, g) in l2_groups.iter().enumerate() {
            match g.behind {
                Some(i) => l2_behind[i].push(k),
                None => l2_unfiltered.push(k),
            }
        }
        let single = (l1_groups.len() == 1
            && l1_groups[0].configs.len() == 1
            && l2_unfiltered.is_empty()
            && l2_behind[0].len() == 1
            && l2_groups[l2_behind[0][0]].requests.len() == 1
            && private.is_none())
        .then(|| l2_behind[0][0]);
        let mut sim = MultiHierarchy {
            single,
            l1: l1.to_vec(),
            l2: l2.to_vec(),
            l1_groups,
            l2_groups,
            l2_behind,
            l2_unfiltered,
            l1_counts: vec![L1Counts::default(); l1.len()],
            l2_accesses: vec![0; l2.len()],
            l2_hits: vec![Vec::new(); l2.len()],
            l2_classes: vec![L2Classes::default(); l2.len()],
            cores: 0,
            private,
        };
        if let Some(cfg) = sample {
            sim.choose_samples(|shift, bits| SetSample::from_bits(shift, bits, cfg));
        }
        Ok(sim)
    }

    /// Gives each group of coupled caches the sample `choose(shift, bits)` of the address bits
    /// `[shift, shift + bits)` that all of them index sets by (groups with no such bit are not
    /// sampled).
    pub(super) fn choose_samples(&mut self, choose: impl Fn(u32, u32) -> Option<SetSample>) {
        let l2_groups = &mut self.l2_groups;
        for g in &mut self.l1_groups {
            let mut coupled = vec![(g.shift, g.sets)];
            if let Some(p) = self.private.as_ref().filter(|_| g.configs.contains(&0)) {
                // The private L2 sees whole kept L1 sets, and its misses whole L3 sets.
                coupled.push((p.shift, p.sets()));
            }
            for &i in &g.configs {
                coupled.extend(
                    self.l2_behind[i]
                        .iter()
                        .map(|&k| (l2_groups[k].shift, l2_groups[k].stack.sets())),
                );
            }
            g.sample = shared_bits(&coupled).and_then(|(shift, bits)| choose(shift, bits));
        }
        for &k in &self.l2_unfiltered {
            let u = &mut l2_groups[k];
            u.sample = shared_bits(&[(u.shift, u.stack.sets())])
                .and_then(|(shift, bits)| choose(shift, bits));
        }
    }

    /// Makes room for cores `0..cores`: their L1 stacks and their counters.
    #[cold]
    fn add_cores(&mut self, cores: usize) {
        for g in &mut self.l1_groups {
            while g.stacks.len() < cores {
                g.stacks
                    .push(SetStacks::new(g.sets, g.depth).expect("valid geometry"));
            }
            g.last.resize(cores, None);
            g.exclusive.resize(cores, false);
        }
        for c in &mut self.l1_counts {
            c.references.resize(cores, 0);
            c.hits.resize(cores, 0);
            c.holes.resize(cores, Vec::new());
            c.kinds.resize(cores, MissKinds::default());
            if let Some(lines) = c.shadow_lines {
                c.shadows.resize_with(cores, || FaShadow::new(lines));
            }
        }
        for h in &mut self.l2_hits {
            h.resize(cores, 0);
        }
        for k in &mut self.l2_classes {
            k.kinds.resize(cores, MissKinds::default());
        }
        if let Some(p) = &mut self.private {
            p.add_cores(cores);
        }
        self.cores = cores;
    }

    /// Classes the misses of L1 configurations `0..l1` and of L2 requests `0..l2` (the
    /// hierarchies asked for; a miss-ratio curve's caches are simulated but not classed) into
    /// compulsory, capacity, conflict and coherence, with a fully associative LRU shadow of
    /// each cache's size per core (L1) or shared (L2), as `measure` does. When set-sampled, the
    /// shadows have the sampled fraction of the lines. Call before the first access.
    pub fn classify(&mut self, l1: usize, l2: usize) {
        let scaled_lines = |c: &CacheConfig, s: Option<&SetSample>| {
            let rate = s.map_or(1.0, SetSample::rate);
            ((c.lines() as f64 * rate).round() as u64).max(1)
        };
        for i in 0..l1.min(self.l1.len()) {
            let lines = scaled_lines(&self.l1[i], self.l1_sample(i));
            let c = &mut self.l1_counts[i];
            c.shadow_lines = Some(lines);
            c.shadows.resize_with(self.cores, || FaShadow::new(lines));
        }
        for j in 0..l2.min(self.l2.len()) {
            let lines = scaled_lines(&self.l2[j].1, self.l2_sample(j));
            self.l2_classes[j].shadow = Some(FaShadow::new(lines));
        }
        if l1 > 0 {
            let rate = self.l1_sample(0).map_or(1.0, SetSample::rate);
            if let Some(p) = &mut self.private {
                p.classify(((p.config().lines() as f64 * rate).round() as u64).max(1));
            }
        }
    }
}
