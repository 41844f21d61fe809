//! Exact simulation of many private-L1 / shared-L2 hierarchies at once ([`MultiHierarchy`]),
//! one [`SetStacks`] per L1 set count and core and per L2 set count behind each L1.

use super::set_stacks::SetStacks;
use crate::error::{Result, SasmmError};
use crate::rates::{CoreCounts, HitRates};
use crate::set_sample::{shared_bits, SetSample, SetSampleConfig};
use rdcachesim::CacheConfig;

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

/// Counts of one L1 configuration.
#[derive(Clone, Debug, Default)]
struct L1Counts {
    references: Vec<u64>,
    hits: Vec<u64>,
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
    /// Cores seen so far: every per-core vector has this length.
    cores: usize,
    /// The single L2 group when the request is one L1 and one L2 (the usual call): a direct
    /// path without the loops over configurations.
    pub(super) single: Option<usize>,
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
                }),
            }
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
            && l2_groups[l2_behind[0][0]].requests.len() == 1)
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
            cores: 0,
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
        }
        for c in &mut self.l1_counts {
            c.references.resize(cores, 0);
            c.hits.resize(cores, 0);
        }
        for h in &mut self.l2_hits {
            h.resize(cores, 0);
        }
        self.cores = cores;
    }

    /// One access of `len` bytes at `addr` by core `core`.
    #[inline]
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        if core >= self.cores {
            self.add_cores(core + 1);
        }
        // The usual request (one L1, one L2) is inlined into the caller's loop; the loops over
        // many configurations stay out of line.
        if self.single.is_some() {
            self.access_single(core, addr, len);
        } else {
            self.access_many(core, addr, len);
        }
    }

    /// [`access`](Self::access) for one L1 and one L2 (`single`): the same steps as
    /// [`access_many`](Self::access_many) without the loops over configurations.
    #[inline(always)]
    fn access_single(&mut self, core: usize, addr: u64, len: u64) {
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let MultiHierarchy {
            l1,
            l2,
            l1_groups,
            l2_groups,
            l1_counts,
            l2_accesses,
            l2_hits,
            single,
            ..
        } = self;
        if let Some(k) = *single {
            let g = &mut l1_groups[0];
            let (ways1, ways2) = (l1[0].ways, l2[0].1.ways);
            let stack = &mut g.stacks[core];
            let counts = &mut l1_counts[0];
            let core_l2_hits = &mut l2_hits[0][core];
            let u = &mut l2_groups[k];
            let (first, end) = (addr >> g.shift, last_byte >> g.shift);
            let last = &mut g.last[core];
            if first == end && *last == Some(first) {
                // The line this core accessed last, again: the most recent line of its set in
                // the core's stack (distance 0, an L1 hit), so nothing is looked up or moved.
                stack.repeat_most_recent();
                counts.references[core] += 1;
                counts.hits[core] += 1;
                return;
            }
            for line in first..=end {
                if g.sample.as_ref().is_some_and(|s| !s.keeps(line << g.shift)) {
                    continue;
                }
                *last = Some(line);
                counts.references[core] += 1;
                if stack.access(line).is_some_and(|d| d < ways1) {
                    counts.hits[core] += 1;
                } else {
                    l2_accesses[0] += 1;
                    if u.stack
                        .access((line << g.shift) >> u.shift)
                        .is_some_and(|d| d < ways2)
                    {
                        *core_l2_hits += 1;
                    }
                }
            }
        }
    }

    /// [`access`](Self::access) for any set of configurations.
    #[inline(never)]
    fn access_many(&mut self, core: usize, addr: u64, len: u64) {
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let MultiHierarchy {
            l1,
            l2,
            l1_groups,
            l2_groups,
            l2_behind,
            l2_unfiltered,
            l1_counts,
            l2_accesses,
            l2_hits,
            ..
        } = self;
        for g in l1_groups.iter_mut() {
            let (first, end) = (addr >> g.shift, last_byte >> g.shift);
            if first == end && g.last[core] == Some(first) {
                // A repeat of the core's last line: distance 0, a hit in every L1 of the
                // group (every cache has a way), so no L2 behind it is looked up.
                g.stacks[core].repeat_most_recent();
                for &i in &g.configs {
                    l1_counts[i].references[core] += 1;
                    l1_counts[i].hits[core] += 1;
                }
                continue;
            }
            for line in first..=end {
                // See: set sampling — a dropped set's lines (and the L2 sets they map to) are
                // not simulated at all.
                if g.sample.as_ref().is_some_and(|s| !s.keeps(line << g.shift)) {
                    continue;
                }
                g.last[core] = Some(line);
                // See: set-aware stack distance — an A-way LRU set hits iff fewer than A
                // distinct lines of the set were used since this line's previous use.
                let d = g.stacks[core].access(line);
                for &i in &g.configs {
                    let counts = &mut l1_counts[i];
                    counts.references[core] += 1;
                    if d.is_some_and(|d| d < l1[i].ways) {
                        counts.hits[core] += 1;
                        continue;
                    }
                    // L1 miss: the shared L2 is looked up at its own line size.
                    let byte = line << g.shift;
                    for &k in &l2_behind[i] {
                        let u = &mut l2_groups[k];
                        let d2 = u.stack.access(byte >> u.shift);
                        for &j in &u.requests {
                            l2_accesses[j] += 1;
                            if d2.is_some_and(|d| d < l2[j].1.ways) {
                                l2_hits[j][core] += 1;
                            }
                        }
                    }
                }
            }
        }
        for &k in l2_unfiltered.iter() {
            let u = &mut l2_groups[k];
            let (first, end) = (addr >> u.shift, last_byte >> u.shift);
            if first == end && u.last == Some(first) {
                // The shared stack's most recent line again: distance 0, a hit everywhere.
                u.stack.repeat_most_recent();
                for &j in &u.requests {
                    l2_accesses[j] += 1;
                    l2_hits[j][core] += 1;
                }
                continue;
            }
            for line in first..=end {
                if u.sample.as_ref().is_some_and(|s| !s.keeps(line << u.shift)) {
                    continue;
                }
                u.last = Some(line);
                let d = u.stack.access(line);
                for &j in &u.requests {
                    l2_accesses[j] += 1;
                    if d.is_some_and(|d| d < l2[j].1.ways) {
                        l2_hits[j][core] += 1;
                    }
                }
            }
        }
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
    /// caused. Index = core; cores not seen yet are absent.
    pub fn core_counts(&self, i: usize, j: usize) -> Vec<CoreCounts> {
        debug_assert_eq!(self.l2[j].0, Some(i));
        let (refs, hits) = self.l1_counts(i);
        refs.iter()
            .zip(hits)
            .zip(&self.l2_hits[j])
            .map(|((&r, &h), &h2)| CoreCounts::new(r, h, h2))
            .collect()
    }

    /// Rates of the hierarchy L1 configuration `i` + L2 request `j` (which must be behind `i`):
    /// those of the sum of [`core_counts`](Self::core_counts).
    pub fn rates(&self, i: usize, j: usize) -> HitRates {
        CoreCounts::sum(&self.core_counts(i, j)).rates()
    }
}
