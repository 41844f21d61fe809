//! [`Cache`]: one write-allocate, true-LRU, set-associative cache, and its [`LevelStats`].

use crate::CacheConfig;
use serde::{Deserialize, Serialize};

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
    /// `sets - 1` when the sets are a power of two (a mask instead of a division per access).
    set_mask: Option<u64>,
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
            set_mask: sets.is_power_of_two().then(|| sets - 1),
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

    /// The set of line address `line`.
    #[inline]
    fn set_of(&self, line: u64) -> usize {
        match self.set_mask {
            Some(mask) => (line & mask) as usize,
            None => (line % self.sets) as usize,
        }
    }

    /// Accesses one line address (`addr >> line_shift`); returns whether it hit. On a miss the
    /// line is allocated and the least recently used line of its set is evicted if the set is
    /// full.
    #[inline]
    pub fn access_line(&mut self, line: u64) -> bool {
        self.stats.accesses += 1;
        let set = self.set_of(line);
        let base = set * self.ways;
        let n = self.fill[set] as usize;
        let slot = &mut self.tags[base..base + self.ways];
        if let Some(pos) = slot[..n].iter().position(|&t| t == line) {
            // Move to the MRU position.
            shift_down(&mut slot[..=pos]);
            slot[0] = line;
            self.stats.hits += 1;
            return true;
        }
        if n < self.ways {
            self.fill[set] += 1;
            shift_down(&mut slot[..=n]);
        } else {
            // The LRU line (last) is overwritten.
            shift_down(slot);
        }
        slot[0] = line;
        false
    }

    /// Counts a hit on the line this cache was accessed for last, without looking it up: that
    /// line is the most recently used of its set, so the access changes nothing but the counts.
    /// The caller must know that it is that line (the simulators' fast path for runs of
    /// accesses to one line).
    #[inline]
    pub fn hit_most_recent(&mut self) {
        self.stats.accesses += 1;
        self.stats.hits += 1;
    }

    /// Accesses every line of `len` bytes at `addr`; returns the number of hits.
    pub fn access(&mut self, addr: u64, len: u64) -> u64 {
        let mut hits = 0;
        let cfg = self.cfg;
        cfg.for_each_line(addr, len, |l| hits += self.access_line(l) as u64);
        hits
    }

    /// Drops a line (a coherence invalidation); returns whether it was cached. The other lines
    /// of its set keep their LRU order. Not counted as an access.
    #[inline]
    pub fn invalidate_line(&mut self, line: u64) -> bool {
        let set = self.set_of(line);
        let base = set * self.ways;
        let n = self.fill[set] as usize;
        let slot = &mut self.tags[base..base + n];
        match slot.iter().position(|&t| t == line) {
            Some(pos) => {
                slot[pos..].rotate_left(1);
                self.fill[set] -= 1;
                true
            }
            None => false,
        }
    }

    /// Whether a line is cached (no state change).
    pub fn contains_line(&self, line: u64) -> bool {
        let set = self.set_of(line);
        let base = set * self.ways;
        self.tags[base..base + self.fill[set] as usize].contains(&line)
    }
}

/// Moves every tag of `slot` but the last one place up (the last is overwritten, the first
/// left for the caller): a set's few ways in a plain loop, where `rotate_right` calls `memmove`.
#[inline]
fn shift_down(slot: &mut [u64]) {
    for i in (1..slot.len()).rev() {
        slot[i] = slot[i - 1];
    }
}
