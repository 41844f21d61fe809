//! The exact model: hit rates of the *mimicked* traces (Alg. 1 private traces, Alg. 2 shared
//! trace) from set-aware LRU stack distances instead of the stack-distance formula (eq. 5–7).
//!
//! Eq. 5 assumes lines fall into sets uniformly at random; real caches index sets by address
//! bits, so a column walk with a power-of-two pitch, a blocked kernel or a stream just larger than
//! the cache behave differently from the formula. Here every reference gets its *per-set* LRU
//! stack distance: the number of distinct lines of the same set touched since its previous use.
//! In an A-way LRU cache with that set count the reference hits exactly when the distance is
//! below A, so one stack per set count answers every associativity at once ([`SetStacks`] keeps
//! each set's stack only as deep as the largest associativity asked for, which bounds its memory
//! by the cache size, not by the trace).
//!
//! The hierarchy is the one [`crate::measure`] simulates: a private L1 per core and a shared,
//! non-inclusive L2 looked up on L1 misses only ([`rdcachesim::Hierarchy`]). One pass over the
//! interleaved shared trace (streamed, never materialised) drives every core's L1 stacks in that
//! core's own order — which is its private trace — and feeds the L1 misses of each L1
//! configuration to that configuration's L2 stacks. The result equals an exact simulation of the
//! mimicked traces for every `(L1, L2)` pair asked for; what remains of the error against a real
//! run is the mimicking (Alg. 1–2) alone.

use crate::error::{Result, SasmmError};
use crate::interleave::{Interleave, Interleaver};
use crate::mimic::{MimicConfig, MimickedTrace};
use crate::rates::{CoreCounts, CoreRates, HitRates};
use crate::seq::{Fragment, SequentialTrace, StreamLimits};
use crate::set_sample::{scaled, shared_bits, SetSample, SetSampleConfig};
use rdcachesim::CacheConfig;
use rdengines::FastCore;
use rdtrace::Trace;
use serde::Serialize;

/// Stack depth above which a single-set (fully associative) stack uses the engines' exact LRU
/// structure instead of a linear scan.
const SCAN_DEPTH: usize = 64;

/// Per-set LRU stacks for one set count, each kept `depth` lines deep: gives every reference
/// its per-set stack distance when that is below `depth` (enough to decide hits in every cache
/// of this set count with at most `depth` ways).
pub struct SetStacks {
    sets: u64,
    /// `sets − 1` when `sets` is a power of two (the set is then `line & mask`, no division).
    mask: Option<u64>,
    depth: usize,
    kind: StackKind,
    /// `counts[d]`: references with per-set distance `d` (< depth).
    counts: Vec<u64>,
    /// References with a distance of at least `depth`, or first touches.
    beyond: u64,
}

enum StackKind {
    /// `sets × depth` lines, MRU first within each set, `fill` valid per set.
    Scan { tags: Vec<u64>, fill: Vec<u32> },
    /// One set, deep: exact distances from an order-statistics LRU stack.
    Full(Box<FastCore>),
}

impl std::fmt::Debug for SetStacks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetStacks")
            .field("sets", &self.sets)
            .field("depth", &self.depth)
            .field("references", &self.references())
            .finish()
    }
}

impl SetStacks {
    /// Stacks for `sets` sets (lines map to set `line % sets`, as in [`rdcachesim::Cache`]),
    /// `depth` lines deep.
    pub fn new(sets: u64, depth: u32) -> Result<Self> {
        if sets == 0 || depth == 0 {
            return Err(SasmmError::Config(
                "set stacks need at least one set and one way".into(),
            ));
        }
        let depth = depth as usize;
        let kind = if sets == 1 && depth > SCAN_DEPTH {
            StackKind::Full(Box::new(FastCore::untracked(depth)))
        } else {
            let n = usize::try_from(sets)
                .ok()
                .and_then(|s| s.checked_mul(depth))
                .ok_or_else(|| SasmmError::Config(format!("{sets} sets x {depth} ways")))?;
            StackKind::Scan {
                tags: vec![0; n],
                fill: vec![0; sets as usize],
            }
        };
        Ok(SetStacks {
            sets,
            mask: sets.is_power_of_two().then(|| sets - 1),
            depth,
            kind,
            counts: vec![0; depth],
            beyond: 0,
        })
    }

    /// Stacks deciding hits for every cache in `caches` (all must have the same set count).
    pub fn for_caches(caches: &[CacheConfig]) -> Result<Self> {
        let sets = caches.first().map_or(1, CacheConfig::sets);
        if caches.iter().any(|c| c.sets() != sets) {
            return Err(SasmmError::Config(
                "set stacks serve caches of one set count".into(),
            ));
        }
        SetStacks::new(sets, caches.iter().map(|c| c.ways).max().unwrap_or(1))
    }

    /// Number of sets.
    pub fn sets(&self) -> u64 {
        self.sets
    }

    /// Depth of each set's stack.
    pub fn depth(&self) -> u32 {
        self.depth as u32
    }

    /// Accesses line address `line`; returns its per-set stack distance if below the depth
    /// (`None`: first touch or at least `depth` other lines of its set since). The line becomes
    /// its set's most recently used.
    #[inline]
    pub fn access(&mut self, line: u64) -> Option<u32> {
        let d = match &mut self.kind {
            StackKind::Scan { tags, fill } => {
                let set = match self.mask {
                    Some(m) => line & m,
                    None => line % self.sets,
                } as usize;
                let base = set * self.depth;
                let n = fill[set] as usize;
                let slot = &mut tags[base..base + self.depth];
                if n > 0 && slot[0] == line {
                    // The set's most recent line again (the common case of a stream of small
                    // accesses): distance 0, nothing moves.
                    self.counts[0] += 1;
                    return Some(0);
                }
                // Move to front in one pass: each line more recent than `line` moves down a
                // place as the scan passes it (no second pass, no memmove call for a few tags).
                let mut carry = line;
                let mut found = None;
                for (pos, t) in slot[..n].iter_mut().enumerate() {
                    let old = std::mem::replace(t, carry);
                    if old == line {
                        found = Some(pos as u32);
                        break;
                    }
                    carry = old;
                }
                if found.is_none() && n < self.depth {
                    // A new line in a set with room: the least recent one moves down too.
                    slot[n] = carry;
                    fill[set] += 1;
                }
                // (In a full set the least recent line, now in `carry`, is evicted.)
                found
            }
            StackKind::Full(core) => core
                .access(line)
                .filter(|&d| d < self.depth as u64)
                .map(|d| d as u32),
        };
        match d {
            Some(d) => self.counts[d as usize] += 1,
            None => self.beyond += 1,
        }
        d
    }

    /// Counts a reference to the line accessed last (its set's most recently used line, at
    /// distance 0) without looking it up: what [`access`](Self::access) would return for it,
    /// `Some(0)`, with nothing moved.
    #[inline]
    pub fn repeat_most_recent(&mut self) {
        self.counts[0] += 1;
    }

    /// References so far.
    pub fn references(&self) -> u64 {
        self.counts.iter().sum::<u64>() + self.beyond
    }

    /// Per-set distance histogram: `[d]` references at distance `d` (below the depth).
    pub fn distance_counts(&self) -> &[u64] {
        &self.counts
    }

    /// References at distance ≥ depth or first touches.
    pub fn beyond(&self) -> u64 {
        self.beyond
    }

    /// Hits so far in an LRU cache of this set count with `ways` ways (≤ depth): references
    /// whose per-set distance is below `ways`.
    pub fn hits(&self, ways: u32) -> u64 {
        self.counts[..(ways as usize).min(self.depth)].iter().sum()
    }
}

/// One L1 set count / line size, shared by the L1 configurations that have it.
struct L1Group {
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
    sample: Option<SetSample>,
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
    l1_groups: Vec<L1Group>,
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
    single: Option<usize>,
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
    fn choose_samples(&mut self, choose: impl Fn(u32, u32) -> Option<SetSample>) {
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

/// Settings of the exact model.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactConfig {
    /// Private L1 configurations (each core has one of each).
    pub l1: Vec<CacheConfig>,
    /// Shared L2 configurations; every L1 × L2 pair is a hierarchy.
    pub l2: Vec<CacheConfig>,
    /// Alg. 1 settings (`cores` is set per prediction).
    pub mimic: MimicConfig,
    /// Alg. 2 strategy.
    pub interleave: Interleave,
    /// Cache sizes (bytes) of a miss-ratio curve; empty for none. Each size is a private cache
    /// with the first L1's associativity and line (fewer ways if it has fewer lines) and a
    /// shared cache with the first L2's.
    pub mrc: Vec<u64>,
    /// Simulate only a random subset of the sets and scale ([`crate::set_sample`]); `None`:
    /// every set (exact).
    pub set_sample: Option<SetSampleConfig>,
    /// When a streamed trace hands fragments over and spills parallel ones to disk (the
    /// `*_trace` entry points; the CLI sets the spill threshold from `RDTOOLS_SPILL_ACCESSES`).
    pub limits: StreamLimits,
}

impl Default for ExactConfig {
    /// The paper's caches (L1 8K:8:64, L2 128K:16:64), round-robin interleaving, no curve.
    fn default() -> Self {
        ExactConfig {
            l1: vec![CacheConfig::default()],
            l2: vec![CacheConfig::paper_l2()],
            mimic: MimicConfig::default(),
            interleave: Interleave::RoundRobin,
            mrc: Vec::new(),
            set_sample: None,
            limits: StreamLimits::default(),
        }
    }
}

/// Exact rates of one L1 + L2 hierarchy on the mimicked traces.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HierarchyPrediction {
    /// The private L1.
    pub l1: CacheConfig,
    /// The shared L2.
    pub l2: CacheConfig,
    /// The rates (per line reference at the L1's line size).
    #[serde(flatten)]
    pub rates: HitRates,
    /// Line references of all cores at the L1's line size (scaled to all sets when sampled).
    pub references: u64,
    /// L1 hit rate per core.
    pub l1_hit_per_core: Vec<f64>,
    /// Each core's counts and rates, cores `0..m` (a core with no reference has zero counts
    /// and rates): its references, L1 hits and misses, the shared-L2 accesses its L1 misses
    /// cause and their hits. The counts add up to the combined counts and `rates` is the rate
    /// of their sum (the reference-weighted combination of the per-core rates). When
    /// set-sampled, each count is scaled like `references` (the sums may then differ from the
    /// scaled totals by rounding) and the rates are those of the simulated sets.
    pub per_core: Vec<CoreRates>,
    /// Fraction of the sets simulated when set-sampled (the rates are those of these sets, the
    /// references are scaled by its inverse); absent when every set was simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_rate: Option<f64>,
}

/// One point of a miss-ratio curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MrcPoint {
    /// Capacity in bytes.
    pub size: u64,
    /// The private cache of this size (one per core over its private trace).
    pub private: CacheConfig,
    /// Misses / references of the private caches, all cores together.
    pub private_miss_ratio: f64,
    /// The shared cache of this size (over the interleaved trace, no L1 in front).
    pub shared: CacheConfig,
    /// Misses / references of the shared cache.
    pub shared_miss_ratio: f64,
    /// Fraction of the private cache's sets simulated, when set-sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_sample_rate: Option<f64>,
    /// Fraction of the shared cache's sets simulated, when set-sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_sample_rate: Option<f64>,
}

/// The exact model's answer for one core count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactPrediction {
    /// Number of cores m.
    pub cores: usize,
    /// One entry per L1 × L2 pair, L1-major (`l1[0]` with every L2, then `l1[1]`, …).
    pub hierarchies: Vec<HierarchyPrediction>,
    /// The miss-ratio curve (empty unless sizes were asked for).
    pub mrc: Vec<MrcPoint>,
}

/// `cache` shrunk or grown to `size` bytes, keeping its line and (at most) its associativity.
pub fn resized(cache: &CacheConfig, size: u64) -> Result<CacheConfig> {
    let line = cache.line as u64;
    let lines = (size / line).max(1);
    let ways = (cache.ways as u64).min(lines);
    CacheConfig::new(size, ways as u32, cache.line).map_err(|e| SasmmError::Config(e.to_string()))
}

/// Powers of two from 1 KiB to four times the largest of `caches`: the default sizes of a
/// miss-ratio curve.
pub fn default_mrc_sizes(caches: &[CacheConfig]) -> Vec<u64> {
    let top = 4 * caches.iter().map(|c| c.size).max().unwrap_or(128 << 10);
    let mut s = 1u64 << 10;
    let mut out = Vec::new();
    while s <= top {
        out.push(s);
        s <<= 1;
    }
    out
}

/// Exact hit rates of the mimicked traces of `cores` cores for every hierarchy and curve point
/// of `config`, in one streamed pass over the interleaved trace.
pub fn predict_exact(
    seq: &SequentialTrace,
    config: &ExactConfig,
    cores: usize,
) -> Result<ExactPrediction> {
    let mut run = ExactRun::new(config, cores)?;
    run.feed(seq);
    Ok(run.finish())
}

/// [`predict_exact`] straight from the trace file of a sequential run, in one streamed pass
/// ([`SequentialTrace::stream_with`] with `config.limits`): memory is the caches' stacks and at
/// most the spill threshold of a parallel section ([`crate::spill`]), not the trace. Equal to
/// `predict_exact(&SequentialTrace::from_trace(trace)?, ..)`.
pub fn predict_exact_trace(
    trace: &Trace,
    config: &ExactConfig,
    cores: usize,
) -> Result<ExactPrediction> {
    Ok(predict_exact_many_trace(trace, config, &[cores])?
        .pop()
        .expect("one prediction per core count"))
}

/// [`predict_exact_trace`] for several core counts in one streamed pass over the file: every
/// fragment is decoded once and fed to one [`ExactRun`] per core count (in parallel when there
/// are several, see [`feed_all`]); results in the order of `cores`. Settings are checked before
/// the trace is read.
pub fn predict_exact_many_trace(
    trace: &Trace,
    config: &ExactConfig,
    cores: &[usize],
) -> Result<Vec<ExactPrediction>> {
    let mut runs = cores
        .iter()
        .map(|&m| ExactRun::new(config, m))
        .collect::<Result<Vec<_>>>()?;
    SequentialTrace::stream_with(trace, config.limits, &mut |f| feed_all(&mut runs, f))?;
    Ok(runs.into_iter().map(ExactRun::finish).collect())
}

/// Feeds one streamed fragment to every run (one per core count), each run on a thread of the
/// pool when there are several: the runs are independent, so each sees the fragments in order
/// as it would alone, and the fragment is decoded once for all of them.
pub fn feed_all(runs: &mut [ExactRun], fragment: Fragment<'_>) -> Result<()> {
    use rayon::prelude::*;
    match runs {
        [] => Ok(()),
        [run] => run.feed_fragment(fragment),
        _ => runs
            .par_iter_mut()
            .try_for_each(|run| run.feed_fragment(fragment)),
    }
}

/// The exact model for one core count, fed the sequential trace whole or in fragments.
pub struct ExactRun {
    cores: usize,
    mimic: MimicConfig,
    interleaver: Interleaver,
    l1: Vec<CacheConfig>,
    l2: Vec<(Option<usize>, CacheConfig)>,
    /// L1 x L2 pairs asked for (the first entries of `l2`).
    pairs: usize,
    /// Curve points: (size, L1 index, private cache, L2 index, shared cache).
    curve: Vec<(u64, usize, CacheConfig, usize, CacheConfig)>,
    sim: MultiHierarchy,
}

impl ExactRun {
    /// Checks `config` and sets up the stacks for `cores` cores.
    pub fn new(config: &ExactConfig, cores: usize) -> Result<Self> {
        if config.l1.is_empty() || config.l2.is_empty() {
            return Err(SasmmError::Config(
                "the exact model needs at least one L1 and one L2".into(),
            ));
        }
        let mimic = MimicConfig {
            cores,
            ..config.mimic
        };
        // Alg. 1's settings are checked once, before anything is read.
        MimickedTrace::build(&SequentialTrace::default(), mimic)?;
        let mut l1 = config.l1.clone();
        let mut l2: Vec<(Option<usize>, CacheConfig)> = Vec::new();
        for i in 0..config.l1.len() {
            for c in &config.l2 {
                l2.push((Some(i), *c));
            }
        }
        let pairs = l2.len();
        let mut curve = Vec::with_capacity(config.mrc.len());
        for &size in &config.mrc {
            let private = resized(&config.l1[0], size)?;
            let shared = resized(&config.l2[0], size)?;
            curve.push((size, l1.len(), private, l2.len(), shared));
            l1.push(private);
            l2.push((None, shared));
        }
        let sim = MultiHierarchy::sampled(&l1, &l2, config.set_sample.as_ref())?;
        Ok(ExactRun {
            cores,
            mimic,
            interleaver: Interleaver::new(config.interleave),
            l1,
            l2,
            pairs,
            curve,
            sim,
        })
    }

    /// Runs the next part of the sequential trace (the whole trace, or the next fragment of
    /// [`SequentialTrace::stream`]) through the caches.
    pub fn feed(&mut self, seq: &SequentialTrace) {
        let mimic = MimickedTrace::build(seq, self.mimic).expect("settings checked in new");
        self.feed_mimicked(&mimic);
    }

    /// Runs the next streamed fragment, held or spilled, through the caches.
    pub fn feed_fragment(&mut self, fragment: Fragment<'_>) -> Result<()> {
        match fragment {
            Fragment::Memory(seq) => {
                self.feed(seq);
                Ok(())
            }
            Fragment::Spilled(s) => {
                s.for_each_batch(self.mimic, None, |t, _| self.feed_mimicked(t))
            }
        }
    }

    fn feed_mimicked(&mut self, mimic: &MimickedTrace<'_>) {
        let sim = &mut self.sim;
        // See: SASMM Alg. 2 — the shared trace, streamed; each core's subsequence is its private
        // trace (Alg. 1), which is all its private L1 sees.
        self.interleaver.feed(mimic, |core, _w, addr, len| {
            sim.access(core, addr, len as u64)
        });
    }

    /// The rates of every hierarchy and curve point.
    pub fn finish(self) -> ExactPrediction {
        let ExactRun {
            cores,
            l1,
            l2,
            pairs,
            curve,
            sim,
            ..
        } = self;
        let mut hierarchies = Vec::with_capacity(pairs);
        for (j, &(behind, l2c)) in l2[..pairs].iter().enumerate() {
            let i = behind.expect("pairs are behind an L1");
            let (refs, hits) = sim.l1_counts(i);
            let sample = sim.l1_sample(i);
            let counts = sim.core_counts(i, j);
            let per_core = (0..cores)
                .map(|c| {
                    let n = counts.get(c).copied().unwrap_or_default();
                    let rates = n.rates();
                    let counts = match sample {
                        None => n,
                        Some(s) => CoreCounts::new(
                            s.scale(n.references),
                            s.scale(n.l1_hits),
                            s.scale(n.l2_hits),
                        ),
                    };
                    CoreRates { counts, rates }
                })
                .collect();
            hierarchies.push(HierarchyPrediction {
                l1: l1[i],
                l2: l2c,
                rates: sim.rates(i, j),
                references: scaled(sample, refs.iter().sum()),
                sample_rate: sample.map(SetSample::rate),
                l1_hit_per_core: refs
                    .iter()
                    .zip(hits)
                    .map(|(&r, &h)| if r == 0 { 0.0 } else { h as f64 / r as f64 })
                    .collect(),
                per_core,
            });
        }
        let ratio = |miss: u64, refs: u64| {
            if refs == 0 {
                0.0
            } else {
                miss as f64 / refs as f64
            }
        };
        let mrc = curve
            .into_iter()
            .map(|(size, i, private, j, shared)| {
                let (refs, hits) = sim.l1_counts(i);
                let (r, h) = (refs.iter().sum::<u64>(), hits.iter().sum::<u64>());
                let (a2, h2) = sim.l2_counts(j);
                MrcPoint {
                    size,
                    private,
                    private_miss_ratio: ratio(r - h, r),
                    shared,
                    shared_miss_ratio: ratio(a2 - h2, a2),
                    private_sample_rate: sim.l1_sample(i).map(SetSample::rate),
                    shared_sample_rate: sim.l2_sample(j).map(SetSample::rate),
                }
            })
            .collect();
        ExactPrediction {
            cores,
            hierarchies,
            mrc,
        }
    }
}

/// Runs `f` on every item on the workspace's thread pool (rayon); results come back in input
/// order.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(f).collect()
}

/// [`predict_exact`] for several core counts (in parallel); results in the order of `cores`.
pub fn predict_exact_many(
    seq: &SequentialTrace,
    config: &ExactConfig,
    cores: &[usize],
) -> Result<Vec<ExactPrediction>> {
    par_map(cores, |&m| predict_exact(seq, config, m))
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rdcachesim::{Cache, Hierarchy};

    #[test]
    fn power_of_two_pitch_by_hand() {
        // 4 sets, 2 ways. Lines 0, 4, 8 all map to set 0; 1 to set 1.
        // 0 4 1 0: per-set distance of the second 0 is 1 (only 4 in its set since) -> a 2-way
        // hit, although 2 distinct lines (4, 1) were touched in between (the formula's D = 2).
        // Then 8 evicts... nothing yet (set 0 holds 0, 4 at depth 2): 8 is a first touch; 4 has
        // distance 2 (0 and 8 since) -> a 2-way miss, a 3-way hit.
        let mut s = SetStacks::new(4, 3).unwrap();
        let got: Vec<Option<u32>> = [0, 4, 1, 0, 8, 4].iter().map(|&l| s.access(l)).collect();
        assert_eq!(got, [None, None, None, Some(1), None, Some(2)]);
        assert_eq!(s.hits(2), 1);
        assert_eq!(s.hits(3), 2);
        assert_eq!(s.references(), 6);
        assert_eq!(s.beyond(), 4);
    }

    #[test]
    fn stream_just_larger_than_the_cache_never_hits() {
        // A cyclic stream over 2500 lines through a 2048-line 16-way cache: every set sees
        // 19 or 20 > 16 distinct lines per cycle, so LRU misses every reference (eq. 5 gives
        // D = 2499 a hit probability of several percent: it lets some sets receive few lines).
        let c = CacheConfig::paper_l2();
        let mut s = SetStacks::for_caches(&[c]).unwrap();
        for _ in 0..4 {
            for l in 0..2500u64 {
                s.access(l);
            }
        }
        assert_eq!(s.hits(16), 0);
    }

    #[test]
    fn sampled_run_reports_rates_of_the_kept_sets_and_scaled_references() {
        // A cyclic sweep over 64 KiB: every set sees the same pattern, so any sample has the
        // exact rates, and the references scale back to the full count.
        let l1 = CacheConfig::default(); // 8K:8:64, 16 sets
        let l2 = CacheConfig::paper_l2(); // 128K:16:64, 128 sets
        let sweep = |sim: &mut MultiHierarchy| {
            for _ in 0..4 {
                for a in (0..64u64 << 10).step_by(8) {
                    sim.access(0, a, 8);
                }
            }
        };
        let req = [(Some(0), l2), (None, l2)];
        let mut full = MultiHierarchy::new(&[l1], &req).unwrap();
        sweep(&mut full);
        let cfg = SetSampleConfig {
            rate: 0.01,
            seed: 3,
        };
        let mut part = MultiHierarchy::sampled(&[l1], &req, Some(&cfg)).unwrap();
        sweep(&mut part);
        // L1 and L2 share set bits 6..10: one of 16 values; the shared cache alone has 7 bits.
        assert_eq!(part.l1_sample(0).map(SetSample::rate), Some(1.0 / 16.0));
        assert_eq!(part.l2_sample(0).map(SetSample::rate), Some(1.0 / 16.0));
        assert_eq!(part.l2_sample(1).map(SetSample::rate), Some(1.0 / 128.0));
        assert_eq!(part.rates(0, 0), full.rates(0, 0));
        let refs = |m: &MultiHierarchy| m.l1_counts(0).0.iter().sum::<u64>();
        assert_eq!(scaled(part.l1_sample(0), refs(&part)), refs(&full));
        assert_eq!(refs(&part) * 16, refs(&full));
    }

    fn geometry() -> impl Strategy<Value = (u64, u32)> {
        (1u64..=9, 1u32..=10)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Every associativity up to the depth gets exactly the hits of an LRU cache simulation.
        #[test]
        fn set_distances_equal_lru_simulation(
            (sets, depth) in geometry(),
            trace in prop::collection::vec(0u64..80, 0..600),
        ) {
            let mut s = SetStacks::new(sets, depth).unwrap();
            let mut caches: Vec<Cache> = (1..=depth)
                .map(|w| Cache::new(CacheConfig::new(sets * w as u64, w, 1).unwrap()))
                .collect();
            for &l in &trace {
                let d = s.access(l);
                for (w, c) in (1..=depth).zip(caches.iter_mut()) {
                    prop_assert_eq!(c.access_line(l), d.is_some_and(|d| d < w), "sets {} ways {}", sets, w);
                }
            }
            for (w, c) in (1..=depth).zip(&caches) {
                prop_assert_eq!(s.hits(w), c.stats().hits);
            }
        }

        /// The deep single-set (fully associative) path agrees with the simulator too.
        #[test]
        fn deep_fully_associative_stack_equals_lru_simulation(
            trace in prop::collection::vec(0u64..300, 0..1500),
            ways in prop::sample::select(vec![1u32, 7, 65, 100, 200]),
        ) {
            let mut s = SetStacks::new(1, 200).unwrap();
            let mut c = Cache::new(CacheConfig::new(ways as u64, ways, 1).unwrap());
            for &l in &trace {
                let d = s.access(l);
                prop_assert_eq!(c.access_line(l), d.is_some_and(|d| d < ways));
            }
        }

        /// Set sampling is exact per set: the counts of samples that partition the kept values
        /// add up to the unsampled counts, for every L1, every L2 behind it and a shared cache
        /// with no L1 in front. So the scaled count of a simple random sample of the values is
        /// an unbiased estimate of the full count (each value is kept with probability K/n).
        #[test]
        fn set_samples_partition_the_unsampled_counts(
            accesses in prop::collection::vec(
                (0usize..3, prop_oneof![0u64..1 << 14, 0u64..256], 1u64..40),
                0..800,
            ),
            classes in 2u64..5,
        ) {
            let l1 = vec![
                CacheConfig::new(256, 2, 16).unwrap(),
                CacheConfig::new(512, 2, 16).unwrap(),
                CacheConfig::new(256, 1, 32).unwrap(),
            ];
            let l2s = [
                CacheConfig::new(2048, 4, 32).unwrap(),
                CacheConfig::new(1024, 2, 64).unwrap(),
            ];
            let mut req: Vec<(Option<usize>, CacheConfig)> = Vec::new();
            for i in 0..l1.len() {
                for c in l2s {
                    req.push((Some(i), c));
                }
            }
            req.push((None, l2s[0]));
            let run = |part: Option<u64>| {
                let mut m = MultiHierarchy::new(&l1, &req).unwrap();
                if let Some(c) = part {
                    m.choose_samples(|shift, bits| {
                        let values: Vec<u64> = (0..1u64 << bits).filter(|v| v % classes == c).collect();
                        Some(SetSample::with_values(shift, bits, &values))
                    });
                    assert!(m.l1_groups.iter().all(|g| g.sample.is_some()));
                }
                for &(core, addr, len) in &accesses {
                    m.access(core, addr, len);
                }
                m
            };
            let full = run(None);
            let parts: Vec<MultiHierarchy> = (0..classes).map(|c| run(Some(c))).collect();
            for i in 0..l1.len() {
                let (refs, hits) = full.l1_counts(i);
                for core in 0..refs.len() {
                    let sum = |f: &dyn Fn(&MultiHierarchy) -> u64| parts.iter().map(f).sum::<u64>();
                    let at = |v: &[u64]| v.get(core).copied().unwrap_or(0);
                    prop_assert_eq!(sum(&|p| at(p.l1_counts(i).0)), refs[core]);
                    prop_assert_eq!(sum(&|p| at(p.l1_counts(i).1)), hits[core]);
                }
            }
            for j in 0..req.len() {
                let (a, h) = parts.iter().fold((0, 0), |(a, h), p| {
                    let (pa, ph) = p.l2_counts(j);
                    (a + pa, h + ph)
                });
                prop_assert_eq!((a, h), full.l2_counts(j), "L2 request {}", j);
            }
        }

        /// Many hierarchies at once equal one `rdcachesim::Hierarchy` each. Half the accesses
        /// fall in a few lines, so a core often repeats its last line (the shortcut that
        /// counts a distance-0 hit without a lookup, per L1 group and per shared cache).
        #[test]
        fn multi_hierarchy_equals_hierarchy_simulations(
            accesses in prop::collection::vec(
                (0usize..3, prop_oneof![0u64..4096, 0u64..96], 1u64..20),
                0..800,
            ),
        ) {
            let l1 = vec![
                CacheConfig::new(256, 2, 16).unwrap(),
                CacheConfig::new(256, 4, 16).unwrap(),
                CacheConfig::new(512, 1, 32).unwrap(),
            ];
            let l2s = [
                CacheConfig::new(1024, 4, 32).unwrap(),
                CacheConfig::new(1024, 8, 32).unwrap(),
                CacheConfig::new(768, 3, 16).unwrap(),
            ];
            let mut req = Vec::new();
            for i in 0..l1.len() {
                for c in l2s {
                    req.push((Some(i), c));
                }
            }
            req.push((None, l2s[0]));
            let mut multi = MultiHierarchy::new(&l1, &req).unwrap();
            let mut sims: Vec<Hierarchy> = req[..9]
                .iter()
                .map(|&(i, c)| Hierarchy::new(l1[i.unwrap()], c, 0))
                .collect();
            // Per simulation and core: L2 hits of the accesses that core's L1 misses caused.
            let mut sim_l2_hits = vec![[0u64; 3]; sims.len()];
            let mut alone = Cache::new(l2s[0]);
            // One L1 and one L2 take the direct path.
            let mut single = MultiHierarchy::new(&l1[2..], &[(Some(0), l2s[2])]).unwrap();
            assert!(single.single.is_some());
            let mut single_sim = Hierarchy::new(l1[2], l2s[2], 0);
            for &(core, addr, len) in &accesses {
                single.access(core, addr, len);
                single_sim.access(core, addr, len);
                multi.access(core, addr, len);
                for (h, hits) in sims.iter_mut().zip(&mut sim_l2_hits) {
                    h.access_with(core, addr, len, |s| {
                        hits[core] += u64::from(s == rdcachesim::Served::L2);
                    });
                }
                alone.access(addr, len);
            }
            for (j, h) in sims.iter().enumerate() {
                let i = req[j].0.unwrap();
                let st = h.stats();
                let (refs, hits) = multi.l1_counts(i);
                for (c, s) in st.l1.iter().enumerate() {
                    prop_assert_eq!(refs.get(c).copied().unwrap_or(0), s.accesses);
                    prop_assert_eq!(hits.get(c).copied().unwrap_or(0), s.hits);
                }
                prop_assert_eq!(multi.l2_counts(j), (st.l2.accesses, st.l2.hits));
                // Each L2 access belongs to the core whose L1 missed; the per-core counts add
                // up to the combined ones.
                let per_core = multi.core_counts(i, j);
                prop_assert_eq!(per_core.len(), multi.cores());
                for (c, n) in per_core.iter().enumerate() {
                    prop_assert_eq!(n.l2_hits, sim_l2_hits[j][c]);
                    prop_assert_eq!(n.l2_accesses, st.l1[c].misses());
                }
                let sum = CoreCounts::sum(&per_core);
                prop_assert_eq!(
                    (sum.references, sum.l1_hits, sum.l2_accesses, sum.l2_hits),
                    (st.references(), st.l1_total().hits, st.l2.accesses, st.l2.hits)
                );
                let r = multi.rates(i, j);
                prop_assert!((r.l2_hit_global - st.l2_global_hit_rate()).abs() < 1e-12);
                prop_assert!((r.l2_hit_local - st.l2_local_hit_rate()).abs() < 1e-12);
            }
            prop_assert_eq!(multi.l2_counts(9), (alone.stats().accesses, alone.stats().hits));
            let st = single_sim.stats();
            let (refs, hits) = single.l1_counts(0);
            for (c, s) in st.l1.iter().enumerate() {
                prop_assert_eq!((refs[c], hits[c]), (s.accesses, s.hits));
            }
            prop_assert_eq!(single.l2_counts(0), (st.l2.accesses, st.l2.hits));
        }
    }
}
