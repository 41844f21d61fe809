//! Exact set-associative LRU cache simulation: the ground truth that SASMM's predicted hit rates
//! are validated against.
//!
//! * [`CacheConfig`]: size, associativity and line size, parsed from `"8K:8:64"`.
//! * [`Cache`]: one write-allocate, true-LRU, set-associative cache (sets indexed by
//!   `line % sets`).
//! * [`Hierarchy`]: a private L1 per core and one shared L2.
//! * [`naive::NaiveCache`]: a deliberately simple reference implementation used by the tests.
//!
//! **Inclusion policy.** The L2 is *non-inclusive, non-exclusive* (NINE): it is looked up only
//! on an L1 miss, it allocates the line on its own miss, and an L2 eviction does not invalidate
//! L1 copies. This is the usual choice for a reuse-distance ground truth because (a) it is what
//! Valgrind's cachegrind simulates (the reference tool of the SASMM paper), (b) the stack-distance
//! model (SASMM eq. 5-7) treats each level as an independent LRU cache over its reference stream
//! with no back-invalidation, and (c) it needs no coherence or victim bookkeeping, so the
//! simulator stays exact and easy to check. Writes are treated like reads (write-allocate, no
//! write-back traffic), again as in cachegrind. Coherence invalidations between private L1s are
//! not modelled (SASMM does not model them either).
//!
//! Architecture invariant: this crate does no IO and knows nothing of traces or LLVM; callers
//! feed it addresses.

pub mod naive;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Errors of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheSimError {
    /// A cache specification did not parse.
    #[error("bad cache specification `{spec}`: {why} (expected SIZE:WAYS:LINE, e.g. 8K:8:64)")]
    BadSpec {
        /// The text given.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
}

/// Geometry of one cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CacheConfig {
    /// Capacity in bytes.
    pub size: u64,
    /// Associativity (lines per set); equal to [`CacheConfig::lines`] for a fully associative
    /// cache, 1 for a direct-mapped one.
    pub ways: u32,
    /// Line size in bytes (a power of two).
    pub line: u32,
}

impl Default for CacheConfig {
    /// The SASMM paper's L1: 8 KiB, 8-way, 64-byte lines.
    fn default() -> Self {
        CacheConfig {
            size: 8 << 10,
            ways: 8,
            line: 64,
        }
    }
}

impl CacheConfig {
    /// The SASMM paper's shared L2: 128 KiB, 16-way, 64-byte lines.
    pub fn paper_l2() -> Self {
        CacheConfig {
            size: 128 << 10,
            ways: 16,
            line: 64,
        }
    }

    /// Builds and validates a geometry.
    pub fn new(size: u64, ways: u32, line: u32) -> Result<Self, CacheSimError> {
        let c = CacheConfig { size, ways, line };
        c.validate().map_err(|why| CacheSimError::BadSpec {
            spec: c.to_string(),
            why,
        })?;
        Ok(c)
    }

    fn validate(&self) -> Result<(), String> {
        if self.line == 0 || !self.line.is_power_of_two() {
            return Err(format!("line size {} is not a power of two", self.line));
        }
        if self.ways == 0 {
            return Err("associativity must be at least 1".into());
        }
        let set_bytes = self.line as u64 * self.ways as u64;
        if self.size == 0 || self.size.checked_rem(set_bytes) != Some(0) {
            return Err(format!(
                "size {} is not a positive multiple of ways x line = {set_bytes}",
                self.size
            ));
        }
        Ok(())
    }

    /// Parses `SIZE:WAYS:LINE`; SIZE takes an optional `K`, `M` or `G` suffix (powers of 1024)
    /// and WAYS may be `full` for a fully associative cache.
    pub fn parse(spec: &str) -> Result<Self, CacheSimError> {
        let bad = |why: String| CacheSimError::BadSpec {
            spec: spec.to_string(),
            why,
        };
        let parts: Vec<&str> = spec.trim().split(':').collect();
        if parts.len() != 3 {
            return Err(bad(format!("{} fields", parts.len())));
        }
        let size = parse_size(parts[0]).ok_or_else(|| bad(format!("size `{}`", parts[0])))?;
        let line: u32 = parts[2]
            .trim()
            .parse()
            .map_err(|_| bad(format!("line size `{}`", parts[2])))?;
        let ways: u32 = if parts[1].trim().eq_ignore_ascii_case("full") {
            if line == 0 {
                return Err(bad("line size 0".into()));
            }
            u32::try_from(size / line as u64).map_err(|_| bad("too many lines".into()))?
        } else {
            parts[1]
                .trim()
                .parse()
                .map_err(|_| bad(format!("associativity `{}`", parts[1])))?
        };
        let c = CacheConfig { size, ways, line };
        c.validate().map_err(bad)?;
        Ok(c)
    }

    /// Number of lines (the paper's B).
    pub fn lines(&self) -> u64 {
        self.size / self.line as u64
    }

    /// Number of sets.
    pub fn sets(&self) -> u64 {
        self.lines() / self.ways as u64
    }

    /// Low address bits dropped to get the line address.
    pub fn line_shift(&self) -> u32 {
        self.line.trailing_zeros()
    }

    /// Calls `f` with the line address of every line that `len` bytes at `addr` touch.
    #[inline]
    pub fn for_each_line(&self, addr: u64, len: u64, mut f: impl FnMut(u64)) {
        let s = self.line_shift();
        let first = addr >> s;
        let last = addr.saturating_add(len.max(1) - 1) >> s;
        for l in first..=last {
            f(l);
        }
    }
}

fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1u64 << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

impl fmt::Display for CacheConfig {
    /// Writes the geometry back in `parse` form, with the largest exact K/M/G suffix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size;
        let s = if size >= 1 << 30 && size.trailing_zeros() >= 30 {
            format!("{}G", size >> 30)
        } else if size >= 1 << 20 && size.trailing_zeros() >= 20 {
            format!("{}M", size >> 20)
        } else if size >= 1 << 10 && size.trailing_zeros() >= 10 {
            format!("{}K", size >> 10)
        } else {
            size.to_string()
        };
        write!(f, "{s}:{}:{}", self.ways, self.line)
    }
}

impl FromStr for CacheConfig {
    type Err = CacheSimError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CacheConfig::parse(s)
    }
}

/// Hit and access counts of one cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelStats {
    /// Line accesses that reached this cache.
    pub accesses: u64,
    /// Of those, hits.
    pub hits: u64,
}

impl LevelStats {
    /// Misses.
    pub fn misses(&self) -> u64 {
        self.accesses - self.hits
    }

    /// Hits / accesses (0 when nothing reached the cache).
    pub fn hit_rate(&self) -> f64 {
        if self.accesses == 0 {
            0.0
        } else {
            self.hits as f64 / self.accesses as f64
        }
    }

    /// Adds another cache's counts.
    pub fn add(&mut self, other: &LevelStats) {
        self.accesses += other.accesses;
        self.hits += other.hits;
    }
}

/// One set-associative, true-LRU, write-allocate cache.
///
/// Each set keeps its lines ordered from most to least recently used in a flat array slice; a
/// hit rotates the line to the front, a miss shifts the set and inserts at the front (evicting
/// the last line when the set is full). With the usual 1–32 ways the linear scan is cheaper than
/// any pointer structure.
#[derive(Clone, Debug)]
pub struct Cache {
    cfg: CacheConfig,
    sets: u64,
    ways: usize,
    /// `sets × ways` line addresses, MRU first within each set.
    tags: Vec<u64>,
    /// Valid lines per set.
    fill: Vec<u32>,
    stats: LevelStats,
}

impl Cache {
    /// An empty cache of this geometry.
    pub fn new(cfg: CacheConfig) -> Self {
        let sets = cfg.sets();
        let ways = cfg.ways as usize;
        Cache {
            cfg,
            sets,
            ways,
            tags: vec![0; sets as usize * ways],
            fill: vec![0; sets as usize],
            stats: LevelStats::default(),
        }
    }

    /// The geometry.
    pub fn config(&self) -> CacheConfig {
        self.cfg
    }

    /// Counts so far.
    pub fn stats(&self) -> LevelStats {
        self.stats
    }

    /// Accesses one line address (`addr >> line_shift`); returns whether it hit. On a miss the
    /// line is allocated and the least recently used line of its set is evicted if the set is
    /// full.
    #[inline]
    pub fn access_line(&mut self, line: u64) -> bool {
        self.stats.accesses += 1;
        let set = (line % self.sets) as usize;
        let base = set * self.ways;
        let n = self.fill[set] as usize;
        let slot = &mut self.tags[base..base + self.ways];
        if let Some(pos) = slot[..n].iter().position(|&t| t == line) {
            // Move to the MRU position.
            slot[..=pos].rotate_right(1);
            self.stats.hits += 1;
            return true;
        }
        if n < self.ways {
            self.fill[set] += 1;
            slot[..=n].rotate_right(1);
        } else {
            // The LRU line (last) is overwritten by the rotation.
            slot.rotate_right(1);
        }
        slot[0] = line;
        false
    }

    /// Accesses every line of `len` bytes at `addr`; returns the number of hits.
    pub fn access(&mut self, addr: u64, len: u64) -> u64 {
        let mut hits = 0;
        let cfg = self.cfg;
        cfg.for_each_line(addr, len, |l| hits += self.access_line(l) as u64);
        hits
    }

    /// Whether a line is cached (no state change).
    pub fn contains_line(&self, line: u64) -> bool {
        let set = (line % self.sets) as usize;
        let base = set * self.ways;
        self.tags[base..base + self.fill[set] as usize].contains(&line)
    }
}

/// Where one access was served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    /// Hit in the core's private L1.
    L1,
    /// Missed L1, hit the shared L2.
    L2,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::NaiveCache;
    use proptest::prelude::*;

    #[test]
    fn parse_accepts_suffixes_and_full() {
        let c = CacheConfig::parse("8K:8:64").unwrap();
        assert_eq!((c.size, c.ways, c.line), (8192, 8, 64));
        assert_eq!((c.lines(), c.sets(), c.line_shift()), (128, 16, 6));
        assert_eq!(CacheConfig::parse("1M:16:64").unwrap().size, 1 << 20);
        let f = CacheConfig::parse("4K:full:64").unwrap();
        assert_eq!((f.ways, f.sets()), (64, 1));
        assert_eq!(CacheConfig::parse("512:1:32").unwrap().sets(), 16);
        assert_eq!(c.to_string(), "8K:8:64");
        assert_eq!(
            "128K:16:64".parse::<CacheConfig>().unwrap(),
            CacheConfig::paper_l2()
        );
    }

    #[test]
    fn parse_rejects_bad_specs() {
        for bad in [
            "",
            "8K:8",
            "8K:8:64:1",
            "8Q:8:64",
            "8K:0:64",
            "8K:8:48",
            "1000:8:64",
            "0:1:64",
        ] {
            assert!(CacheConfig::parse(bad).is_err(), "{bad} should not parse");
        }
        let msg = CacheConfig::parse("8K:8:48").unwrap_err().to_string();
        assert!(msg.contains("power of two"), "{msg}");
    }

    #[test]
    fn two_way_lru_by_hand() {
        // 2 sets × 2 ways, 1-byte lines: lines 0,2,4 map to set 0.
        let mut c = Cache::new(CacheConfig::new(4, 2, 1).unwrap());
        let hits: Vec<bool> = [0, 2, 0, 4, 2, 0, 1, 1]
            .iter()
            .map(|&l| c.access_line(l))
            .collect();
        // 0 miss, 2 miss, 0 hit (order 0,2), 4 miss evicts 2 (order 4,0), 2 miss evicts 0,
        // 0 miss, 1 miss (set 1), 1 hit.
        assert_eq!(hits, [false, false, true, false, false, false, false, true]);
        assert_eq!(
            c.stats(),
            LevelStats {
                accesses: 8,
                hits: 2
            }
        );
        assert!(c.contains_line(2) && c.contains_line(0) && !c.contains_line(4));
    }

    #[test]
    fn accesses_split_at_line_boundaries() {
        let mut c = Cache::new(CacheConfig::parse("1K:2:64").unwrap());
        // 16 bytes at 56 touch lines 0 and 1.
        assert_eq!(c.access(56, 16), 0);
        assert_eq!(c.stats().accesses, 2);
        assert_eq!(c.access(0, 128), 2);
    }

    #[test]
    fn hierarchy_is_private_l1_shared_l2() {
        let l1 = CacheConfig::new(128, 2, 64).unwrap(); // 2 lines, one set
        let l2 = CacheConfig::new(1024, 16, 64).unwrap();
        let mut h = Hierarchy::new(l1, l2, 2);
        let mut log = Vec::new();
        h.access_with(0, 0, 8, |s| log.push(s)); // memory
        h.access_with(1, 0, 8, |s| log.push(s)); // core 1's L1 misses, shared L2 hits
        h.access_with(0, 0, 8, |s| log.push(s)); // core 0's L1 hits
        assert_eq!(log, [Served::Memory, Served::L2, Served::L1]);
        let s = h.stats();
        assert_eq!(
            s.l1[0],
            LevelStats {
                accesses: 2,
                hits: 1
            }
        );
        assert_eq!(
            s.l1[1],
            LevelStats {
                accesses: 1,
                hits: 0
            }
        );
        assert_eq!(
            s.l2,
            LevelStats {
                accesses: 2,
                hits: 1
            }
        );
        assert_eq!(s.references(), 3);
        assert!((s.l2_global_hit_rate() - 2.0 / 3.0).abs() < 1e-12);
        assert!((s.l2_local_hit_rate() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn l2_is_not_inclusive() {
        // L2 with one line: evicting a line from L2 leaves the L1 copy valid.
        let l1 = CacheConfig::new(256, 4, 64).unwrap();
        let l2 = CacheConfig::new(64, 1, 64).unwrap();
        let mut h = Hierarchy::new(l1, l2, 1);
        h.access(0, 0, 1);
        h.access(0, 64, 1); // evicts line 0 from L2
        let mut log = Vec::new();
        h.access_with(0, 0, 1, |s| log.push(s));
        assert_eq!(log, [Served::L1]);
    }

    fn geometry() -> impl Strategy<Value = CacheConfig> {
        (0u32..4, 0u32..4, 0u32..3).prop_map(|(s, w, l)| {
            let ways = 1 << w;
            let line = 1 << l;
            CacheConfig::new((1u64 << s) * ways as u64 * line as u64, ways, line).unwrap()
        })
    }

    proptest! {
        #[test]
        fn matches_naive_simulator(cfg in geometry(), addrs in prop::collection::vec(0u64..96, 0..400)) {
            let mut fast = Cache::new(cfg);
            let mut slow = NaiveCache::new(cfg);
            for a in addrs {
                let line = a >> cfg.line_shift();
                prop_assert_eq!(fast.access_line(line), slow.access_line(line));
            }
            prop_assert_eq!(fast.stats(), slow.stats());
        }
    }

    #[test]
    fn matches_naive_on_long_random_stream() {
        // A cheap LCG so the test needs no RNG crate.
        let mut x = 12345u64;
        for spec in ["8K:8:64", "2K:1:32", "4K:full:64", "6K:3:64"] {
            let cfg = CacheConfig::parse(spec).unwrap();
            let mut fast = Cache::new(cfg);
            let mut slow = NaiveCache::new(cfg);
            for _ in 0..50_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let addr = (x >> 33) % 40_000;
                assert_eq!(fast.access(addr, 8), slow.access(addr, 8), "{spec}");
            }
            assert_eq!(fast.stats(), slow.stats(), "{spec}");
        }
    }
}
