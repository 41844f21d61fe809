//! Exact simulation of many private-L1 / shared-L2 hierarchies at once ([`MultiHierarchy`]),
//! one [`SetStacks`] per L1 set count and core and per L2 set count behind each L1, with
//! write-invalidate coherence between the private L1s and the 3C + coherence split of the
//! misses of the caches asked for.

use super::coherence::{coherence_kind, l1_miss_kind, shared_miss_kind, take_lost, Lost, LostMap};
use super::private_l2::PrivateL2;
use super::set_stacks::SetStacks;
use crate::error::{Result, SasmmError};
use crate::rates::{CoreCounts, HitRates};
use crate::set_sample::{shared_bits, SetSample, SetSampleConfig};
use rdcachesim::coherence::granule_mask;
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

    /// One read of `len` bytes at `addr` by core `core`.
    #[inline]
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        self.access_rw(core, addr, len, false);
    }

    /// One access of `len` bytes at `addr` by core `core`, a write when `write`.
    ///
    /// **Write-invalidate** (MESI-style, as `measure`'s [`rdcachesim::CoherentHierarchy`]): a
    /// write by core `c` drops the line from every other core's private L1s after `c`'s own
    /// lookup; an upgrade (a write hit) is no miss; the shared L2 is never invalidated.
    ///
    /// **In stack-distance terms, exactly.** An invalidated line leaves the core's per-set LRU
    /// stack, so every line below it moves up a place. That alone would be wrong: an A-way
    /// cache that loses a line keeps A − 1 lines and does not get back the line it evicted
    /// earlier, which now sits at distance A − 1. So each cache also counts, per set, the
    /// *holes* invalidations left (`h`, refilled one per miss): it holds exactly the
    /// `A − h` most recent lines of the stack, and a reference hits iff its distance is below
    /// `A − h`. (By induction: an invalidation inside the top `A − h` removes one of them and
    /// adds a hole; one below changes neither; a hit reorders the top; a miss puts the line on
    /// top and fills a hole or evicts the line at `A`.) The stacks stay `depth` deep: a line
    /// below the depth is in no cache, and every cache holds at most as many lines as the
    /// stack keeps. With no write, `h = 0` everywhere and the counts are the old ones.
    ///
    /// **Classes** (configurations passed to [`classify`](Self::classify)): compulsory (the
    /// shadow never saw the line), coherence (the cache held the line when it was invalidated
    /// and this is the core's next reference to it; true sharing when the bytes touched overlap
    /// bytes other cores wrote since, by the granule masks of
    /// [`rdcachesim::coherence::granule_mask`]), capacity (the shadow, which sees the same
    /// references and invalidations, misses too), conflict (the rest).
    #[inline]
    pub fn access_rw(&mut self, core: usize, addr: u64, len: u64, write: bool) {
        if core >= self.cores {
            self.add_cores(core + 1);
        }
        if self.single.is_some() {
            // The usual request (one L1, one L2): a repeat of the core's last line is an L1 hit
            // that moves nothing (a write only while the core holds the line alone), decided
            // in the caller's loop; the rest goes out of line.
            let g = &mut self.l1_groups[0];
            let first = addr >> g.shift;
            if g.last[core] == Some(first)
                && addr.saturating_add(len.max(1) - 1) >> g.shift == first
                && (!write
                    || g.exclusive[core]
                    || g.owner[owner_slot(first)] == (first, core as u32))
            {
                g.stacks[core].repeat_most_recent();
                let counts = &mut self.l1_counts[0];
                counts.references[core] += 1;
                counts.hits[core] += 1;
                return;
            }
            // A read where no coherence state and no shadow can be involved: the plain
            // set-stack steps, inline (the speed of the model before coherence).
            if !write
                && g.lost.is_empty()
                && g.exclusive_cores == 0
                && self.l1_counts[0].holes[core].is_empty()
                && self.l1_counts[0].shadow_lines.is_none()
            {
                self.read_single(core, addr, len);
                return;
            }
        }
        self.access_many(core, addr, len, write);
    }

    /// A read by `core` in the usual request (one L1, one L2) when the core's L1 has no holes,
    /// no core waits on a lost line or holds one exclusively, and no miss is classed: the steps
    /// of [`access_many`](Self::access_many) that remain then (no classes, no invalidation),
    /// without its loops over configurations.
    #[inline(always)]
    fn read_single(&mut self, core: usize, addr: u64, len: u64) {
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
        let Some(k) = *single else { return };
        let g = &mut l1_groups[0];
        let (ways1, ways2) = (l1[0].ways, l2[0].1.ways);
        let counts = &mut l1_counts[0];
        let u = &mut l2_groups[k];
        let (first, end) = (addr >> g.shift, last_byte >> g.shift);
        for line in first..=end {
            if g.sample.as_ref().is_some_and(|s| !s.keeps(line << g.shift)) {
                continue;
            }
            let slot = owner_slot(line);
            if g.owner[slot].0 == line && g.owner[slot].1 as usize != core {
                // Another core's line: this core takes a copy.
                g.owner[slot].0 = NO_LINE;
            }
            g.last[core] = Some(line);
            counts.references[core] += 1;
            if g.stacks[core].access(line).is_some_and(|d| d < ways1) {
                counts.hits[core] += 1;
            } else {
                l2_accesses[0] += 1;
                if u.stack
                    .access((line << g.shift) >> u.shift)
                    .is_some_and(|d| d < ways2)
                {
                    l2_hits[0][core] += 1;
                }
            }
        }
    }

    /// [`access_rw`](Self::access_rw) for any set of configurations.
    #[inline(never)]
    fn access_many(&mut self, core: usize, addr: u64, len: u64, write: bool) {
        let hi = addr.saturating_add(len.max(1));
        let last_byte = hi - 1;
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
            l2_classes,
            cores,
            private,
            ..
        } = self;
        for (gi, g) in l1_groups.iter_mut().enumerate() {
            // L1 configuration 0, which a private L2 is behind, is the first group's first.
            let mut pl2 = private.as_mut().filter(|_| gi == 0);
            let (first, end) = (addr >> g.shift, last_byte >> g.shift);
            if first == end
                && g.last[core] == Some(first)
                && (!write
                    || g.exclusive[core]
                    || g.owner[owner_slot(first)] == (first, core as u32))
            {
                // A repeat of the core's last line: distance 0, a hit in every L1 of the
                // group (every cache has a way), so no L2 behind it is looked up.
                g.stacks[core].repeat_most_recent();
                for &i in &g.configs {
                    l1_counts[i].references[core] += 1;
                    l1_counts[i].hits[core] += 1;
                }
                continue;
            }
            let mut touched_last = None;
            for line in first..=end {
                // See: set sampling — a dropped set's lines (and the L2 sets they map to) are
                // not simulated at all.
                if g.sample.as_ref().is_some_and(|s| !s.keeps(line << g.shift)) {
                    continue;
                }
                touched_last = Some(line);
                let slot = owner_slot(line);
                let owned = match g.owner[slot] {
                    (l, c) if l == line && c as usize == core => true,
                    (l, _) if l == line => {
                        // Another core's line: this core takes a copy.
                        g.owner[slot].0 = NO_LINE;
                        false
                    }
                    _ => false,
                };
                let repeat = g.last[core] == Some(line);
                g.last[core] = Some(line);
                if g.exclusive_cores > 0 {
                    // This core takes a copy: no other core holds the line alone any more.
                    for c in 0..*cores {
                        if c != core && g.exclusive[c] && g.last[c] == Some(line) {
                            g.exclusive[c] = false;
                            g.exclusive_cores -= 1;
                        }
                    }
                }
                if repeat {
                    // The most recent line of the core's stack (a write to a line another core
                    // may hold): a hit everywhere, the shadows unchanged; only the
                    // invalidation below remains.
                    g.stacks[core].repeat_most_recent();
                    for &i in &g.configs {
                        l1_counts[i].references[core] += 1;
                        l1_counts[i].hits[core] += 1;
                    }
                } else {
                    let lost = if g.lost.is_empty() {
                        None
                    } else {
                        take_lost(&mut g.lost, line, core)
                    };
                    let touched = if lost.is_some() {
                        granule_mask(g.shift, line, addr, hi)
                    } else {
                        0
                    };
                    // See: set-aware stack distance — an A-way LRU set hits iff fewer than A
                    // distinct lines of the set were used since this line's previous use
                    // (A − holes after invalidations, see `access_rw`).
                    let d = g.stacks[core].access(line);
                    let set = g.stacks[core].set_of(line);
                    for (k, &i) in g.configs.iter().enumerate() {
                        let counts = &mut l1_counts[i];
                        counts.references[core] += 1;
                        let holes = counts.holes[core].get_mut(set);
                        let ways = l1[i].ways - holes.as_deref().copied().unwrap_or(0);
                        let shadow = counts.shadows.get_mut(core).map(|s| s.access(line));
                        if d.is_some_and(|d| d < ways) {
                            counts.hits[core] += 1;
                            continue;
                        }
                        if let Some(h) = holes {
                            *h = h.saturating_sub(1);
                        }
                        match shadow {
                            Some(r) => counts.kinds[core].count(l1_miss_kind(r, lost, k, touched)),
                            // Not classed: coherence misses are still counted (a line the cache
                            // held is never a first reference, so no shadow is needed).
                            None => {
                                if let Some(kind) = coherence_kind(lost, k, touched) {
                                    counts.kinds[core].count(kind);
                                }
                            }
                        }
                        // L1 miss: the shared L2 is looked up at its own line size.
                        let byte = line << g.shift;
                        if let Some(p) = pl2.as_deref_mut().filter(|_| i == 0) {
                            // Three levels: the core's private L2 first; only its misses go
                            // on to the shared level (the L3).
                            if p.access(core, byte, addr, hi) {
                                continue;
                            }
                        }
                        for &kk in &l2_behind[i] {
                            let u = &mut l2_groups[kk];
                            let l2_line = byte >> u.shift;
                            let d2 = u.stack.access(l2_line);
                            for &j in &u.requests {
                                l2_accesses[j] += 1;
                                let classes = &mut l2_classes[j];
                                let shadow = classes.shadow.as_mut().map(|s| s.access(l2_line));
                                if d2.is_some_and(|d| d < l2[j].1.ways) {
                                    l2_hits[j][core] += 1;
                                } else if let Some(r) = shadow {
                                    classes.kinds[core].count(shared_miss_kind(r));
                                }
                            }
                        }
                    }
                }
                if write && !owned {
                    let touched = granule_mask(g.shift, line, addr, hi);
                    invalidate_others(g, l1, l1_counts, core, line, touched);
                    let byte = line << g.shift;
                    if let Some(p) = pl2.as_deref_mut() {
                        // The other cores' private L2s lose the line too, held by their L1
                        // or not (as `CoherentHierarchy` invalidates every private level).
                        p.invalidate_others(core, byte, addr, hi);
                    }
                    if !g.lost.contains_key(&line)
                        && !pl2.as_ref().is_some_and(|p| p.waited_on(byte))
                    {
                        // No other core holds the line or waits on it: this core owns it.
                        g.owner[slot] = (line, core as u32);
                    }
                }
            }
            if let Some(line) = touched_last {
                // As `measure`: a write leaves the line exclusive unless a core waits on it.
                let now = write
                    && !g.lost.contains_key(&line)
                    && !pl2.as_ref().is_some_and(|p| p.waited_on(line << g.shift));
                if now != g.exclusive[core] {
                    g.exclusive[core] = now;
                    if now {
                        g.exclusive_cores += 1;
                    } else {
                        g.exclusive_cores -= 1;
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

/// A write by `core` to granules `touched` of `line` (of group `g`): every other core's stacks
/// lose the line; each cache of the group that held it (distance below `ways − holes`) gets a
/// hole in the line's set and its shadow drops the line, and the core a lost record naming
/// those caches; every lost record of the line learns the written granules.
fn invalidate_others(
    g: &mut L1Group,
    l1: &[CacheConfig],
    counts: &mut [L1Counts],
    core: usize,
    line: u64,
    touched: u64,
) {
    for d in 0..g.stacks.len() {
        if d == core {
            continue;
        }
        let Some(p) = g.stacks[d].remove(line) else {
            continue;
        };
        if g.last[d] == Some(line) {
            g.last[d] = None;
            if g.exclusive[d] {
                g.exclusive[d] = false;
                g.exclusive_cores -= 1;
            }
        }
        let set = g.stacks[d].set_of(line);
        let mut held = 0u64;
        for (k, &i) in g.configs.iter().enumerate() {
            let c = &mut counts[i];
            let holes = &mut c.holes[d];
            if p < l1[i].ways - holes.get(set).copied().unwrap_or(0) {
                if holes.is_empty() {
                    *holes = vec![0; g.sets as usize];
                }
                holes[set] += 1;
                held |= 1 << k;
                if let Some(s) = c.shadows.get_mut(d) {
                    s.invalidate(line);
                }
            }
        }
        if held != 0 {
            g.lost.entry(line).or_default().push(Lost {
                core: d as u32,
                written: 0,
                held,
            });
        }
    }
    if let Some(v) = g.lost.get_mut(&line) {
        for e in v.iter_mut().filter(|e| e.core as usize != core) {
            e.written |= touched;
        }
    }
}
