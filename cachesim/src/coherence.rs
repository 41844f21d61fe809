//! [`CoherentHierarchy`]: private caches per core kept coherent by write-invalidate, a shared
//! last level, and every miss classed by the 3C split plus coherence.
//!
//! **Coherence (MESI-style write-invalidate).** A write by core `c` to a line drops that line
//! from every other core's private caches (its L1, and its L2 when the L2 is private). The
//! line's owner may then write it again without traffic until another core fetches a copy.
//! Upgrades (a write hit on a shared line) are not misses, and no write-back traffic is modelled
//! (write-allocate, as [`crate::Cache`]). The shared level is the point of coherence: it is never
//! invalidated.
//!
//! **The 4 Cs.** Each miss of each cache is exactly one of:
//! * *compulsory*: the first reference of the line by this cache;
//! * *coherence*: the cache lost the line by an invalidation and has not fetched it since;
//!   classed *true sharing* when the bytes this access touches overlap bytes that other cores
//!   wrote since the invalidation, else *false sharing* (only other bytes of the line changed);
//! * *capacity*: a fully associative LRU cache with as many lines, fed the same references and
//!   invalidations ([`FaShadow`]), misses too;
//! * *conflict*: the rest (the set mapping alone caused it).
//!
//! They sum to the misses exactly, in one pass.
//!
//! **Bounded state.** Written bytes are tracked per (core, line) only while that core has lost
//! the line by invalidation and not fetched it back: a 64-bit mask whose bits are *granules* of
//! `line / 64` bytes (1 byte for lines up to 64 bytes; 2 bytes for 128-byte lines, ...), so
//! true/false sharing is exact at byte level for lines of 64 bytes or less and at granule level
//! above. The compulsory test needs every line each cache has seen (one hash entry per distinct
//! line and cache, shared with the fully associative shadow).
//!
//! **Levels.** `new(l1, l2, None)`: private L1s and a shared L2 (as [`crate::Hierarchy`], which
//! it equals exactly when no access writes). `new(l1, l2, Some(l3))`: private L1s, private L2s,
//! and a shared L3. Each level is non-inclusive non-exclusive (see the crate documentation).

use crate::fa_shadow::{FaShadow, LineMap, ShadowResult};
use crate::{Cache, CacheConfig, LevelStats, Served};
use serde::{Deserialize, Serialize};

/// Whether a coherence miss touched bytes another core wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sharing {
    /// The access's bytes overlap bytes written by other cores since the invalidation.
    True,
    /// Only other bytes of the line were written (false sharing).
    False,
}

/// The class of one miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MissKind {
    /// First reference of the line by this cache.
    Compulsory,
    /// A fully associative LRU cache of the same size misses too.
    Capacity,
    /// Only the set mapping caused it.
    Conflict,
    /// The line was lost by an invalidation.
    Coherence(Sharing),
}

/// Misses of one cache split by [`MissKind`]; `compulsory + capacity + conflict + coherence`
/// is the number of misses, and `coherence = true_sharing + false_sharing`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissKinds {
    /// First references.
    pub compulsory: u64,
    /// Misses a fully associative LRU cache of the same size has too.
    pub capacity: u64,
    /// The remaining non-coherence misses.
    pub conflict: u64,
    /// Misses on lines lost by invalidation.
    pub coherence: u64,
    /// Coherence misses that touched bytes other cores wrote.
    pub true_sharing: u64,
    /// Coherence misses that touched none of the bytes other cores wrote.
    pub false_sharing: u64,
}

impl MissKinds {
    /// Counts one miss.
    #[inline]
    pub fn count(&mut self, k: MissKind) {
        match k {
            MissKind::Compulsory => self.compulsory += 1,
            MissKind::Capacity => self.capacity += 1,
            MissKind::Conflict => self.conflict += 1,
            MissKind::Coherence(s) => {
                self.coherence += 1;
                match s {
                    Sharing::True => self.true_sharing += 1,
                    Sharing::False => self.false_sharing += 1,
                }
            }
        }
    }

    /// All misses (the four Cs summed).
    pub fn total(&self) -> u64 {
        self.compulsory + self.capacity + self.conflict + self.coherence
    }

    /// Adds another count.
    pub fn add(&mut self, o: &MissKinds) {
        self.compulsory += o.compulsory;
        self.capacity += o.capacity;
        self.conflict += o.conflict;
        self.coherence += o.coherence;
        self.true_sharing += o.true_sharing;
        self.false_sharing += o.false_sharing;
    }
}

/// Counts of one cache: accesses, hits and the classes of its misses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheCounts {
    /// Accesses and hits.
    #[serde(flatten)]
    pub stats: LevelStats,
    /// The misses by class.
    #[serde(flatten)]
    pub misses: MissKinds,
}

impl CacheCounts {
    /// Adds another cache's counts.
    pub fn add(&mut self, o: &CacheCounts) {
        self.stats.add(&o.stats);
        self.misses.add(&o.misses);
    }
}

/// Counts of a [`CoherentHierarchy`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoherentStats {
    /// Each core's L1.
    pub l1: Vec<CacheCounts>,
    /// Each core's private L2 (empty without an L3).
    pub l2_private: Vec<CacheCounts>,
    /// The shared level: the L2 without an L3, else the L3.
    pub shared: CacheCounts,
}

/// What happened to one L1 line of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOutcome {
    /// The level that served it.
    pub served: Served,
    /// The class of the L1 miss (`None`: an L1 hit).
    pub l1_miss: Option<MissKind>,
}

/// A core that lost a line by invalidation, and the granules others wrote since.
#[derive(Clone, Copy, Debug)]
struct Lost {
    core: u32,
    written: u64,
}

/// One simulated cache with its fully associative shadow and miss classes.
#[derive(Clone, Debug)]
struct Tracked {
    cache: Cache,
    shadow: FaShadow,
    misses: MissKinds,
}

impl Tracked {
    fn new(cfg: CacheConfig) -> Self {
        Tracked {
            cache: Cache::new(cfg),
            shadow: FaShadow::new(cfg.lines()),
            misses: MissKinds::default(),
        }
    }

    fn counts(&self) -> CacheCounts {
        CacheCounts {
            stats: self.cache.stats(),
            misses: self.misses,
        }
    }

    /// Granules of the line `line` that bytes `lo..hi` touch.
    #[inline]
    fn mask(&self, line: u64, lo: u64, hi: u64) -> u64 {
        granule_mask(self.cache.config().line_shift(), line, lo, hi)
    }

    /// Looks up one line for `core`; on a miss, classifies it (consuming the core's lost record
    /// in `lost`, if any) and returns the class.
    #[inline]
    fn lookup(
        &mut self,
        line: u64,
        lost: &mut LineMap<Vec<Lost>>,
        core: usize,
        touched: u64,
    ) -> Option<MissKind> {
        let hit = self.cache.access_line(line);
        let shadow = self.shadow.access(line);
        if hit {
            return None;
        }
        let kind = if shadow == ShadowResult::First {
            MissKind::Compulsory
        } else if let Some(s) = take_lost(lost, line, core, touched) {
            MissKind::Coherence(s)
        } else if shadow == ShadowResult::Miss {
            MissKind::Capacity
        } else {
            MissKind::Conflict
        };
        self.misses.count(kind);
        Some(kind)
    }

    /// Drops `line` for an invalidation; returns whether it was cached.
    #[inline]
    fn invalidate(&mut self, line: u64) -> bool {
        if self.cache.invalidate_line(line) {
            self.shadow.invalidate(line);
            true
        } else {
            false
        }
    }
}

/// Removes `core`'s lost record of `line`: `Some` (with the sharing kind) when it had one.
#[inline]
fn take_lost(
    lost: &mut LineMap<Vec<Lost>>,
    line: u64,
    core: usize,
    touched: u64,
) -> Option<Sharing> {
    if lost.is_empty() {
        return None;
    }
    let v = lost.get_mut(&line)?;
    let i = v.iter().position(|e| e.core as usize == core)?;
    let e = v.swap_remove(i);
    if v.is_empty() {
        lost.remove(&line);
    }
    Some(if e.written & touched != 0 {
        Sharing::True
    } else {
        Sharing::False
    })
}

/// No line (line numbers are addresses shifted right, never all ones).
const NO_LINE: u64 = u64::MAX;

/// Private L1s (and private L2s with an L3), one shared last level, write-invalidate coherence
/// and the 3C + coherence split of every cache's misses (see the module documentation).
#[derive(Clone, Debug)]
pub struct CoherentHierarchy {
    l1_cfg: CacheConfig,
    l2_cfg: CacheConfig,
    l3_cfg: Option<CacheConfig>,
    l1: Vec<Tracked>,
    l2_private: Vec<Tracked>,
    shared: Tracked,
    /// Lost records of L1 lines.
    lost_l1: LineMap<Vec<Lost>>,
    /// Lost records of private-L2 lines.
    lost_l2: LineMap<Vec<Lost>>,
    /// Per core: the L1 line it accessed last, while still in its L1 ([`NO_LINE`] otherwise).
    mru: Vec<u64>,
    /// Per core: whether a write to `mru` needs no coherence work (no other core holds a copy
    /// and no core waits on a lost record of it).
    exclusive: Vec<bool>,
}

impl CoherentHierarchy {
    /// Private L1s and a shared L2 (`l3 = None`), or private L1s, private L2s and a shared L3.
    /// Cores are added on demand.
    pub fn new(l1: CacheConfig, l2: CacheConfig, l3: Option<CacheConfig>) -> Self {
        CoherentHierarchy {
            l1_cfg: l1,
            l2_cfg: l2,
            l3_cfg: l3,
            l1: Vec::new(),
            l2_private: Vec::new(),
            shared: Tracked::new(l3.unwrap_or(l2)),
            lost_l1: LineMap::default(),
            lost_l2: LineMap::default(),
            mru: Vec::new(),
            exclusive: Vec::new(),
        }
    }

    /// Whether the L2 is private (an L3 was given).
    pub fn has_l3(&self) -> bool {
        self.l3_cfg.is_some()
    }

    #[inline]
    fn add_cores(&mut self, core: usize) {
        if core >= self.l1.len() {
            self.add_cores_up_to(core);
        }
    }

    #[cold]
    fn add_cores_up_to(&mut self, core: usize) {
        while self.l1.len() <= core {
            self.l1.push(Tracked::new(self.l1_cfg));
            if self.l3_cfg.is_some() {
                self.l2_private.push(Tracked::new(self.l2_cfg));
            }
            self.mru.push(NO_LINE);
            self.exclusive.push(false);
        }
    }

    /// The access of `core` to the L1 line it accessed last, if that needs no lookup: an L1
    /// hit that changes nothing but the counts (the line is the most recently used of its set
    /// and of the shadow). A write qualifies only while the core holds the line exclusively.
    /// Returns `false` (and does nothing) otherwise; then call [`CoherentHierarchy::access_with`].
    #[inline]
    pub fn try_repeat(&mut self, core: usize, line: u64, write: bool) -> bool {
        match self.mru.get(core) {
            Some(&m) if m == line && (!write || self.exclusive[core]) => {
                self.l1[core].cache.hit_most_recent();
                true
            }
            _ => false,
        }
    }

    /// Accesses `len` bytes at `addr` from `core` (a write when `write`), line by line at the
    /// L1's line size; calls `f` once per L1 line. Inlined: each caller's per-access step
    /// (measure's, annotate's) is this with its closure, which belongs in the caller's codegen unit.
    #[inline]
    pub fn access_with(
        &mut self,
        core: usize,
        addr: u64,
        len: u64,
        write: bool,
        mut f: impl FnMut(LineOutcome),
    ) {
        self.add_cores(core);
        let hi = addr.saturating_add(len.max(1));
        let s1 = self.l1_cfg.line_shift();
        let s2 = self.l2_cfg.line_shift();
        let mut last = NO_LINE;
        let cfg = self.l1_cfg;
        cfg.for_each_line(addr, len, |line| {
            last = line;
            let touched = self.l1[core].mask(line, addr, hi);
            let k1 = self.l1[core].lookup(line, &mut self.lost_l1, core, touched);
            let served = if k1.is_none() {
                Served::L1
            } else {
                // This core now holds a copy: no other core holds this line exclusively.
                for (c, m) in self.mru.iter().enumerate() {
                    if *m == line && c != core {
                        self.exclusive[c] = false;
                    }
                }
                let (lo, end) = ((line << s1).max(addr), ((line + 1) << s1).min(hi));
                let byte = line << s1;
                if let Some(l3) = self.l3_cfg {
                    let l2_line = byte >> s2;
                    let p = &mut self.l2_private[core];
                    let touched2 = p.mask(l2_line, lo, end);
                    if p.lookup(l2_line, &mut self.lost_l2, core, touched2)
                        .is_none()
                    {
                        Served::L2
                    } else if self
                        .shared
                        .lookup(byte >> l3.line_shift(), &mut LineMap::default(), core, 0)
                        .is_none()
                    {
                        Served::L3
                    } else {
                        Served::Memory
                    }
                } else if self
                    .shared
                    .lookup(byte >> s2, &mut LineMap::default(), core, 0)
                    .is_none()
                {
                    Served::L2
                } else {
                    Served::Memory
                }
            };
            if write {
                self.invalidate_others(core, line, touched, addr, hi);
            }
            f(LineOutcome {
                served,
                l1_miss: k1,
            });
        });
        if last != NO_LINE {
            self.mru[core] = last;
            self.exclusive[core] = write
                && !self.lost_l1.contains_key(&last)
                && (self.l3_cfg.is_none() || !self.lost_l2.contains_key(&((last << s1) >> s2)));
        }
    }

    /// A write by `core` to bytes `lo..hi` of L1 line `line` (granules `touched`): every other
    /// core drops its copies, and every lost record of the line (at L1 and private-L2
    /// granularity) learns the written bytes.
    fn invalidate_others(&mut self, core: usize, line: u64, touched: u64, lo: u64, hi: u64) {
        if self.l1.len() == 1 {
            // No other core has ever accessed: no copies and no lost records.
            return;
        }
        let s1 = self.l1_cfg.line_shift();
        let l2_line = (line << s1) >> self.l2_cfg.line_shift();
        let private_l2 = self.l3_cfg.is_some();
        for d in 0..self.l1.len() {
            if d == core {
                continue;
            }
            if self.l1[d].invalidate(line) {
                self.lost_l1.entry(line).or_default().push(Lost {
                    core: d as u32,
                    written: 0,
                });
                if self.mru[d] == line {
                    self.mru[d] = NO_LINE;
                }
            }
            if private_l2 && self.l2_private[d].invalidate(l2_line) {
                self.lost_l2.entry(l2_line).or_default().push(Lost {
                    core: d as u32,
                    written: 0,
                });
            }
        }
        if let Some(v) = self.lost_l1.get_mut(&line) {
            for e in v.iter_mut().filter(|e| e.core as usize != core) {
                e.written |= touched;
            }
        }
        if private_l2 {
            let lo = lo.max(line << s1);
            let hi = hi.min((line << s1).saturating_add(1 << s1));
            let touched2 = self.l2_private[core].mask(l2_line, lo, hi);
            if let Some(v) = self.lost_l2.get_mut(&l2_line) {
                for e in v.iter_mut().filter(|e| e.core as usize != core) {
                    e.written |= touched2;
                }
            }
        }
    }

    /// Accesses `len` bytes at `addr` from `core`.
    pub fn access(&mut self, core: usize, addr: u64, len: u64, write: bool) {
        let line = addr >> self.l1_cfg.line_shift();
        let one_line = (addr.saturating_add(len.max(1) - 1)) >> self.l1_cfg.line_shift() == line;
        if !(one_line && self.try_repeat(core, line, write)) {
            self.access_with(core, addr, len, write, |_| {});
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> CoherentStats {
        CoherentStats {
            l1: self.l1.iter().map(Tracked::counts).collect(),
            l2_private: self.l2_private.iter().map(Tracked::counts).collect(),
            shared: self.shared.counts(),
        }
    }

    /// Lines whose lost records are kept (for memory tests and reports).
    pub fn lost_records(&self) -> usize {
        self.lost_l1.values().map(Vec::len).sum::<usize>()
            + self.lost_l2.values().map(Vec::len).sum::<usize>()
    }
}

/// Granules of line `line` (lines of `1 << line_shift` bytes) that bytes `lo..hi` touch, as a
/// 64-bit mask whose bits are granules of `max(1, line / 64)` bytes: the byte mask by which
/// [`CoherentHierarchy`] tells true from false sharing, for models that class coherence misses
/// the same way (SASMM's exact model). `lo..hi` must overlap the line.
#[inline]
pub fn granule_mask(line_shift: u32, line: u64, lo: u64, hi: u64) -> u64 {
    let granule_shift = line_shift.saturating_sub(6);
    let base = line << line_shift;
    // The line's last byte: no overflow, even for the last line of the address space (where
    // callers' saturated ends stop one byte short, and a corrupt trace's addresses may lie).
    let last_in_line = base + ((1u64 << line_shift) - 1);
    let first_byte = lo.clamp(base, last_in_line);
    let last_byte = hi.saturating_sub(1).clamp(first_byte, last_in_line);
    let first = (first_byte - base) >> granule_shift;
    let last = (last_byte - base) >> granule_shift;
    (u64::MAX >> (63 - last)) & (u64::MAX << first)
}
