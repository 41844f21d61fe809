//! A naive reference cache for tests: every line carries the time of its last use, and a miss in
//! a full set evicts the line with the oldest time. Slow and obviously correct; shares no code
//! with [`crate::Cache`] apart from the geometry.

use crate::{CacheConfig, LevelStats};
use std::collections::HashMap;

/// Timestamp-based LRU cache (reference implementation).
#[derive(Clone, Debug)]
pub struct NaiveCache {
    cfg: CacheConfig,
    /// set index → (line, last use time) for each resident line.
    sets: HashMap<u64, Vec<(u64, u64)>>,
    now: u64,
    stats: LevelStats,
}

impl NaiveCache {
    /// An empty cache.
    pub fn new(cfg: CacheConfig) -> Self {
        NaiveCache {
            cfg,
            sets: HashMap::new(),
            now: 0,
            stats: LevelStats::default(),
        }
    }

    /// Accesses one line address; returns whether it hit.
    pub fn access_line(&mut self, line: u64) -> bool {
        self.now += 1;
        self.stats.accesses += 1;
        let set = self.sets.entry(line % self.cfg.sets()).or_default();
        if let Some(e) = set.iter_mut().find(|e| e.0 == line) {
            e.1 = self.now;
            self.stats.hits += 1;
            return true;
        }
        if set.len() == self.cfg.ways as usize {
            let oldest = (0..set.len()).min_by_key(|&i| set[i].1).unwrap();
            set.swap_remove(oldest);
        }
        set.push((line, self.now));
        false
    }

    /// Accesses every line of `len` bytes at `addr`; returns the number of hits.
    pub fn access(&mut self, addr: u64, len: u64) -> u64 {
        let cfg = self.cfg;
        let mut hits = 0;
        cfg.for_each_line(addr, len, |l| hits += self.access_line(l) as u64);
        hits
    }

    /// Counts so far.
    pub fn stats(&self) -> LevelStats {
        self.stats
    }
}
