//! The private L2 per core of a three-level hierarchy (private L1 and L2 per core, one shared
//! L3), as `measure --l3` simulates it ([`rdcachesim::CoherentHierarchy`] with an L3): each
//! core's L2 sees that core's L1 misses only (non-inclusive, non-exclusive: an L2 hit fills the
//! L1 and leaves the L2 as it is, an L2 miss fills both), and a write by one core invalidates
//! the line in every other core's private L2 as well as in its L1.
//!
//! The L2 is simulated like the L1s, from per-set stack distances ([`SetStacks`], one per
//! core, fed the core's L1 misses in the interleaved order) with the same coherence rule: an
//! invalidation removes the line from the other cores' stacks, and each core's L2 counts per
//! set the holes that left, so it holds the `A − h` most recent lines of its stack and a
//! reference hits iff its distance is below `A − h` (see [`super::MultiHierarchy::access_rw`]
//! for why that is exact). [`super::MultiHierarchy`] calls it behind its first L1
//! configuration and feeds its misses to the shared caches behind that L1.

use super::coherence::{coherence_kind, l1_miss_kind, take_lost, Lost, LostMap};
use super::set_stacks::SetStacks;
use crate::error::{Result, SasmmError};
use crate::set_sample::SetSampleConfig;
use rdcachesim::coherence::granule_mask;
use rdcachesim::{CacheConfig, FaShadow, MissKinds};

/// Private L2 caches, one per core, behind one L1 configuration.
pub(super) struct PrivateL2 {
    cfg: CacheConfig,
    /// log2 of the line size.
    pub(super) shift: u32,
    /// One stack per core.
    stacks: Vec<SetStacks>,
    /// Per core: lookups (the core's L1 misses) and hits.
    accesses: Vec<u64>,
    hits: Vec<u64>,
    /// Per core, per set: ways emptied by invalidations and not refilled since (empty: none
    /// yet), as the L1s keep them.
    holes: Vec<Vec<u32>>,
    /// Cores whose L2 lost a line by invalidation and has not looked it up since. Apart from
    /// the L1s' records: a core can lose a line from its L2 that its L1 no longer held, and
    /// the L2's coherence miss comes only when an L1 miss looks the line up there.
    lost: LostMap,
    /// Lines of the fully associative shadow when the misses are classed (`None`: not).
    shadow_lines: Option<u64>,
    /// Per core: the shadow (empty when not classed).
    shadows: Vec<FaShadow>,
    /// Per core: the misses by class (only coherence when not classed).
    kinds: Vec<MissKinds>,
}

impl PrivateL2 {
    /// A private L2 of geometry `cfg` per core; cores are added by
    /// [`add_cores`](Self::add_cores).
    pub(super) fn new(cfg: CacheConfig) -> Result<Self> {
        // Checked once here so that `add_cores` cannot fail.
        SetStacks::new(cfg.sets(), cfg.ways)?;
        Ok(PrivateL2 {
            cfg,
            shift: cfg.line_shift(),
            stacks: Vec::new(),
            accesses: Vec::new(),
            hits: Vec::new(),
            holes: Vec::new(),
            lost: LostMap::default(),
            shadow_lines: None,
            shadows: Vec::new(),
            kinds: Vec::new(),
        })
    }

    /// The geometry.
    pub(super) fn config(&self) -> CacheConfig {
        self.cfg
    }

    /// Number of sets (for the set sample, which couples the L2 with its L1).
    pub(super) fn sets(&self) -> u64 {
        self.cfg.sets()
    }

    /// Makes room for cores `0..cores`.
    pub(super) fn add_cores(&mut self, cores: usize) {
        while self.stacks.len() < cores {
            self.stacks
                .push(SetStacks::new(self.cfg.sets(), self.cfg.ways).expect("checked in new"));
        }
        self.accesses.resize(cores, 0);
        self.hits.resize(cores, 0);
        self.holes.resize(cores, Vec::new());
        self.kinds.resize(cores, MissKinds::default());
        if let Some(lines) = self.shadow_lines {
            self.shadows.resize_with(cores, || FaShadow::new(lines));
        }
    }

    /// Classes the misses with a fully associative shadow of `lines` lines per core (the
    /// cache's lines, or the sampled fraction of them).
    pub(super) fn classify(&mut self, lines: u64) {
        self.shadow_lines = Some(lines);
        let cores = self.stacks.len();
        self.shadows.resize_with(cores, || FaShadow::new(lines));
    }

    /// An L1 miss of `core` on the L1 line at byte `byte`, its access touching bytes `lo..hi`
    /// of that line: looks the line up in the core's L2 and returns whether it hit (a miss goes
    /// on to the shared level). A miss consumes the core's lost record of the line, which makes
    /// it a coherence miss, as `CoherentHierarchy` classes it (compulsory before coherence
    /// before capacity before conflict).
    #[inline]
    pub(super) fn access(&mut self, core: usize, byte: u64, lo: u64, hi: u64) -> bool {
        let line = byte >> self.shift;
        self.accesses[core] += 1;
        let stack = &mut self.stacks[core];
        let d = stack.access(line);
        let set = stack.set_of(line);
        let holes = self.holes[core].get_mut(set);
        let ways = self.cfg.ways - holes.as_deref().copied().unwrap_or(0);
        let shadow = self.shadows.get_mut(core).map(|s| s.access(line));
        if d.is_some_and(|d| d < ways) {
            self.hits[core] += 1;
            return true;
        }
        if let Some(h) = holes {
            *h = h.saturating_sub(1);
        }
        let lost = if self.lost.is_empty() {
            None
        } else {
            take_lost(&mut self.lost, line, core)
        };
        let touched = if lost.is_some() {
            granule_mask(self.shift, line, lo, hi)
        } else {
            0
        };
        match shadow {
            Some(r) => self.kinds[core].count(l1_miss_kind(r, lost, 0, touched)),
            None => {
                if let Some(kind) = coherence_kind(lost, 0, touched) {
                    self.kinds[core].count(kind);
                }
            }
        }
        false
    }

    /// A write by `core` to bytes `lo..hi` of the L1 line at byte `byte`: every other core's
    /// L2 loses the line (whether or not its L1 held it); a core whose L2 held it (distance
    /// below `ways − holes`) gets a hole in the set, its shadow drops the line, and a lost
    /// record; every other core's lost record of the line learns the written granules.
    pub(super) fn invalidate_others(&mut self, core: usize, byte: u64, lo: u64, hi: u64) {
        let line = byte >> self.shift;
        for d in 0..self.stacks.len() {
            if d == core {
                continue;
            }
            let Some(p) = self.stacks[d].remove(line) else {
                continue;
            };
            let set = self.stacks[d].set_of(line);
            let holes = &mut self.holes[d];
            if p < self.cfg.ways - holes.get(set).copied().unwrap_or(0) {
                if holes.is_empty() {
                    *holes = vec![0; self.cfg.sets() as usize];
                }
                holes[set] += 1;
                if let Some(s) = self.shadows.get_mut(d) {
                    s.invalidate(line);
                }
                self.lost.entry(line).or_default().push(Lost {
                    core: d as u32,
                    written: 0,
                    held: 1,
                });
            }
        }
        if let Some(v) = self.lost.get_mut(&line) {
            let touched = granule_mask(self.shift, line, lo, hi);
            for e in v.iter_mut().filter(|e| e.core as usize != core) {
                e.written |= touched;
            }
        }
    }

    /// Whether some core waits on a lost record of the L2 line holding byte `byte` (a write to
    /// it then must update the record, so the writer does not own the line).
    #[inline]
    pub(super) fn waited_on(&self, byte: u64) -> bool {
        !self.lost.is_empty() && self.lost.contains_key(&(byte >> self.shift))
    }

    /// Per core: lookups (= the core's L1 misses of the L1 in front) and hits.
    pub(super) fn counts(&self) -> (&[u64], &[u64]) {
        (&self.accesses, &self.hits)
    }

    /// Per core: the misses by class (the 3C split when classed, else only coherence).
    pub(super) fn miss_kinds(&self) -> &[MissKinds] {
        &self.kinds
    }

    /// Whether the misses are classed.
    pub(super) fn classified(&self) -> bool {
        self.shadow_lines.is_some()
    }
}

/// The private level of a three-level [`super::MultiHierarchy`] (built by
/// [`super::MultiHierarchy::three_level`]); every accessor is `None` for two levels.
impl super::MultiHierarchy {
    /// Three-level hierarchies ([`sampled`](Self::sampled) with a private L2 per core): L1
    /// configuration 0 has the private L2 `l2_private` behind it (the L1's line size), and the
    /// shared caches `(Some(0), cache)` of `shared` are looked up on that L2's misses, as
    /// `measure` simulates `--l3` ([`rdcachesim::CoherentHierarchy`] with an L3). A write
    /// invalidates the line in the other cores' private L2s as well as in their L1s. Other L1
    /// configurations (a miss-ratio curve's) and `(None, cache)` requests are as in
    /// [`sampled`](Self::sampled).
    pub fn three_level(
        l1: &[CacheConfig],
        l2_private: CacheConfig,
        shared: &[(Option<usize>, CacheConfig)],
        sample: Option<&SetSampleConfig>,
    ) -> Result<Self> {
        match l1.first() {
            Some(c) if c.line == l2_private.line => {}
            Some(c) => {
                return Err(SasmmError::Config(format!(
                    "a private L2 must have the L1's line size ({} bytes, not {})",
                    c.line, l2_private.line
                )))
            }
            None => {
                return Err(SasmmError::Config(
                    "no L1 in front of the private L2".into(),
                ))
            }
        }
        Self::build(l1, Some(PrivateL2::new(l2_private)?), shared, sample)
    }

    /// The private L2's geometry.
    pub fn l2_private_config(&self) -> Option<CacheConfig> {
        self.private.as_ref().map(PrivateL2::config)
    }

    /// Per core: the private L2's lookups (its L1 misses) and hits.
    pub fn l2_private_counts(&self) -> Option<(&[u64], &[u64])> {
        self.private.as_ref().map(PrivateL2::counts)
    }

    /// Per core: the private L2's misses by class (the 3C + coherence split when
    /// [`classify`](super::MultiHierarchy::classify) named L1 configuration 0, else only the
    /// coherence misses).
    pub fn l2_private_miss_kinds(&self) -> Option<&[MissKinds]> {
        self.private.as_ref().map(PrivateL2::miss_kinds)
    }

    /// Whether the private L2's misses are classed.
    pub fn l2_private_classified(&self) -> bool {
        self.private.as_ref().is_some_and(PrivateL2::classified)
    }
}
