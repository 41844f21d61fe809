//! SHARDS: approximate reuse-distance histograms from spatially hash-sampled blocks
//! (Waldspurger, Park, Garthwaite, Ahmad, FAST'15).
//!
//! A block is *sampled* when `hash(block) mod P < T`, so either every access to a block is
//! analysed or none is; the sampling rate is `R = T / P`. The sampled stream goes through an
//! exact LRU stack ([`FastCore`]); every sampled reuse distance `d` is scaled to `d / R` and
//! every sampled reference stands for `1 / R` references of the full trace, so the histogram
//! estimates the full trace's. With a bound `S` on the sampled blocks (the *fixed-size*
//! variant) the threshold `T` is lowered whenever the sampled set would exceed `S`, evicting the
//! blocks with the largest hash, so memory is O(S) however large the trace.
//!
//! With `R = 1` (and no eviction) every block is sampled and the result equals the exact
//! engines' histogram (proptested).

use crate::fast::FastCore;
use crate::{Histogram, ReuseEngine};
use std::collections::{BTreeMap, BinaryHeap};

/// Modulus of the sampling hash.
// See: SHARDS FAST'15 Sec. 3 — "hash(L) mod P < T"; the paper's implementation uses P = 2^24.
pub const MODULUS: u64 = 1 << 24;

/// SHARDS settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShardsConfig {
    /// Sampling rate R in (0, 1] (the starting rate of the fixed-size variant).
    pub rate: f64,
    /// Fixed-size variant: at most this many sampled blocks are tracked.
    pub max_blocks: Option<usize>,
    /// Bound B: scaled distances ≥ B are counted as overflow.
    pub bound: Option<u64>,
    /// SHARDS_adj: add the difference between the trace's references and the estimated total
    /// to the first bucket.
    pub adjust: bool,
    /// Salt of the sampling hash (different salts give independent samples; 0 by default).
    pub seed: u64,
}

impl Default for ShardsConfig {
    fn default() -> Self {
        ShardsConfig {
            rate: 1.0,
            max_blocks: None,
            bound: None,
            adjust: true,
            seed: 0,
        }
    }
}

/// Error for sampling settings out of range.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShardsError {
    /// The rate is not in (0, 1] or rounds to a threshold of 0.
    #[error("sampling rate {0} is not in [1/2^24, 1]")]
    Rate(f64),
    /// A fixed-size bound of zero blocks.
    #[error("--sample-max-blocks must be at least 1")]
    MaxBlocks,
}

impl ShardsConfig {
    /// The threshold T for the configured rate (`round(R · P)`), checked.
    pub fn threshold(&self) -> Result<u64, ShardsError> {
        if !(self.rate > 0.0 && self.rate <= 1.0) {
            return Err(ShardsError::Rate(self.rate));
        }
        let t = (self.rate * MODULUS as f64).round() as u64;
        if t == 0 {
            return Err(ShardsError::Rate(self.rate));
        }
        if self.max_blocks == Some(0) {
            return Err(ShardsError::MaxBlocks);
        }
        Ok(t.min(MODULUS))
    }
}

/// The sampling hash of a block: a 64-bit finaliser (murmur3's fmix64) of the salted block,
/// reduced mod P.
#[inline(always)]
pub fn sample_hash(block: u64, seed: u64) -> u64 {
    let mut x = block ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x % MODULUS
}

/// What a sampled run did (reported beside its histogram).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SampleStats {
    /// The requested starting rate.
    pub rate: f64,
    /// The rate at the end (lower than `rate` when the fixed-size variant evicted).
    pub final_rate: f64,
    /// The fixed-size bound, if any.
    pub max_blocks: Option<usize>,
    /// References in the full stream.
    pub references: u64,
    /// References that were sampled.
    pub sampled_references: u64,
    /// Distinct blocks tracked at the end.
    pub sampled_blocks: u64,
    /// Blocks evicted by threshold drops (fixed-size variant).
    pub evicted_blocks: u64,
    /// The SHARDS_adj correction added to the first bucket (references, may be negative).
    pub adjustment: i64,
}

impl SampleStats {
    /// Adds another run's stats (per-thread histograms): counts add up, the final rate is the
    /// lowest.
    pub fn merge(&mut self, o: &SampleStats) {
        self.final_rate = self.final_rate.min(o.final_rate);
        self.references += o.references;
        self.sampled_references += o.sampled_references;
        self.sampled_blocks += o.sampled_blocks;
        self.evicted_blocks += o.evicted_blocks;
        self.adjustment += o.adjustment;
    }
}

/// The SHARDS engine: fixed-rate, or fixed-size with `max_blocks`.
pub struct ShardsEngine {
    cfg: ShardsConfig,
    core: FastCore,
    threshold: u64,
    /// Sampled blocks by hash (max-heap), only for the fixed-size variant.
    heap: BinaryHeap<(u64, u64)>,
    /// Counts per *sampled* distance while the threshold has not moved (integer, fast path).
    dense: Vec<u64>,
    dense_cold: u64,
    /// Weighted counts per *scaled* distance, once the threshold has moved.
    weighted: BTreeMap<u64, f64>,
    weighted_cold: f64,
    moved: bool,
    references: u64,
    sampled: u64,
    evicted: u64,
}

impl ShardsEngine {
    /// A SHARDS engine (an error when the settings are out of range).
    pub fn new(cfg: ShardsConfig) -> Result<Self, ShardsError> {
        let threshold = cfg.threshold()?;
        let cap = cfg.max_blocks.unwrap_or(1 << 12).min(1 << 20);
        Ok(ShardsEngine {
            cfg,
            core: FastCore::untracked(cap),
            threshold,
            heap: BinaryHeap::new(),
            dense: Vec::new(),
            dense_cold: 0,
            weighted: BTreeMap::new(),
            weighted_cold: 0.0,
            moved: false,
            references: 0,
            sampled: 0,
            evicted: 0,
        })
    }

    /// Distance `d` on the sampled stream scaled to the full trace: `floor(d · P / T)`.
    // See: SHARDS FAST'15 Sec. 3 — reuse distances computed on the sample are scaled by 1/R.
    #[inline(always)]
    fn scale(&self, d: u64) -> u64 {
        ((d as u128 * MODULUS as u128) / self.threshold as u128) as u64
    }

    /// Processes one block.
    #[inline(always)]
    pub fn access(&mut self, block: u64) {
        self.references += 1;
        let h = sample_hash(block, self.cfg.seed);
        self.access_hashed(block, h);
    }

    /// Processes one block whose hash is `h` (already counted in `references`).
    #[inline(always)]
    fn access_hashed(&mut self, block: u64, h: u64) {
        if h >= self.threshold {
            return;
        }
        self.sampled += 1;
        match self.core.access(block) {
            Some(d) => {
                if self.moved {
                    let w = MODULUS as f64 / self.threshold as f64;
                    *self.weighted.entry(self.scale(d)).or_insert(0.0) += w;
                } else {
                    let i = d as usize;
                    if i >= self.dense.len() {
                        self.dense.resize((i + 1).max(self.dense.len() * 2), 0);
                    }
                    self.dense[i] += 1;
                }
            }
            None => {
                if self.moved {
                    self.weighted_cold += MODULUS as f64 / self.threshold as f64;
                } else {
                    self.dense_cold += 1;
                }
                if let Some(s) = self.cfg.max_blocks {
                    self.heap.push((h, block));
                    if self.heap.len() > s {
                        self.lower_threshold();
                    }
                }
            }
        }
    }

    /// Fixed-size variant: drops the threshold to the largest sampled hash and evicts every
    /// block at or above it.
    // See: SHARDS FAST'15 Sec. 4.2 — when the sample set exceeds s_max, evict the location
    // with the largest T_i, set T = T_max, and remove the evicted locations from the tree.
    #[cold]
    fn lower_threshold(&mut self) {
        if !self.moved {
            self.flush_dense();
            self.moved = true;
        }
        let Some(&(top, _)) = self.heap.peek() else {
            return;
        };
        self.threshold = top;
        while let Some(&(h, b)) = self.heap.peek() {
            if h < top {
                break;
            }
            self.heap.pop();
            self.core.remove(b);
            self.evicted += 1;
        }
    }

    /// Moves the integer counts of the current threshold into the weighted map.
    fn flush_dense(&mut self) {
        let w = MODULUS as f64 / self.threshold as f64;
        let dense = std::mem::take(&mut self.dense);
        for (d, &n) in dense.iter().enumerate() {
            if n != 0 {
                *self.weighted.entry(self.scale(d as u64)).or_insert(0.0) += n as f64 * w;
            }
        }
        self.weighted_cold += self.dense_cold as f64 * w;
        self.dense_cold = 0;
    }

    /// The estimated total references (before SHARDS_adj).
    fn estimated_total(&self) -> f64 {
        let w = MODULUS as f64 / self.threshold as f64;
        let dense: u64 = self.dense_cold + self.dense.iter().sum::<u64>();
        dense as f64 * w + self.weighted_cold + self.weighted.values().sum::<f64>()
    }

    /// What the sample did so far (the adjustment is the one [`finish_with_stats`] would
    /// apply now).
    ///
    /// [`finish_with_stats`]: Self::finish_with_stats
    pub fn stats(&self) -> SampleStats {
        let adjustment = if self.cfg.adjust && self.references > 0 {
            (self.references as f64 - self.estimated_total()).round() as i64
        } else {
            0
        };
        SampleStats {
            rate: self.cfg.rate,
            final_rate: self.threshold as f64 / MODULUS as f64,
            max_blocks: self.cfg.max_blocks,
            references: self.references,
            sampled_references: self.sampled,
            sampled_blocks: self.core.len() as u64,
            evicted_blocks: self.evicted,
            adjustment,
        }
    }

    /// Ends the stream: the scaled histogram and what the sample did.
    pub fn finish_with_stats(mut self) -> (Histogram, SampleStats) {
        let stats = self.stats();
        self.flush_dense();
        // See: SHARDS FAST'15 (SHARDS_adj) — the difference between the expected and the
        // actual number of sampled references goes to the first histogram bucket, so the
        // estimated total equals the trace's references.
        if stats.adjustment != 0 {
            let mut left = stats.adjustment as f64;
            if left > 0.0 {
                *self.weighted.entry(0).or_insert(0.0) += left;
            } else {
                // A negative correction empties the lowest buckets in turn.
                for w in self.weighted.values_mut() {
                    let take = w.min(-left);
                    *w -= take;
                    left += take;
                    if left >= 0.0 {
                        break;
                    }
                }
            }
        }
        // At R = 1 with nothing evicted every block was analysed with weight 1: exact.
        let exact = self.threshold == MODULUS && self.evicted == 0;
        let mut h = Histogram {
            bound: self.cfg.bound,
            exact,
            cold: self.weighted_cold.round() as u64,
            ..Default::default()
        };
        let mut overflow = 0.0;
        for (&d, &w) in &self.weighted {
            if self.cfg.bound.is_some_and(|b| d >= b) {
                overflow += w;
            } else {
                let n = w.round() as u64;
                if n > 0 {
                    h.counts.insert(d, n);
                }
            }
        }
        h.overflow = overflow.round() as u64;
        (h, stats)
    }
}

impl ReuseEngine for ShardsEngine {
    fn name(&self) -> &'static str {
        "shards"
    }

    fn is_exact(&self) -> bool {
        false
    }

    fn process(&mut self, blocks: &[u64]) {
        // Filter first (the threshold only falls, so this keeps a superset), then run the
        // sampled blocks through the stack with its block map prefetched a few blocks ahead,
        // as the fast engine does.
        const AHEAD: usize = 8;
        let mut kept: Vec<(u64, u64)> = Vec::new();
        for piece in blocks.chunks(4096) {
            kept.clear();
            for &b in piece {
                let h = sample_hash(b, self.cfg.seed);
                if h < self.threshold {
                    kept.push((b, h));
                }
            }
            self.references += piece.len() as u64;
            for i in 0..kept.len() {
                if let Some(&(next, _)) = kept.get(i + AHEAD) {
                    self.core.prefetch(next);
                }
                let (b, h) = kept[i];
                self.access_hashed(b, h);
            }
        }
    }

    fn finish(self: Box<Self>) -> Histogram {
        self.finish_with_stats().0
    }

    fn sample_stats(&self) -> Option<SampleStats> {
        Some(self.stats())
    }
}

/// Miss ratio of a fully associative LRU cache of `capacity` blocks according to `h`
/// (cold and overflow references always miss).
pub fn miss_ratio(h: &Histogram, capacity: u64) -> f64 {
    let total = h.total();
    if total == 0 {
        return 0.0;
    }
    1.0 - h.hits_below(capacity) as f64 / total as f64
}

/// Mean absolute difference between two miss-ratio curves at `points` cache sizes evenly
/// spaced up to just past the largest finite distance of `exact` (SHARDS FAST'15's accuracy
/// metric, MAE over the MRC).
pub fn mrc_mean_abs_error(exact: &Histogram, approx: &Histogram, points: usize) -> f64 {
    let max = exact.counts.keys().next_back().copied().unwrap_or(0) + 1;
    let points = points.max(1) as u64;
    let sum: f64 = (1..=points)
        .map(|i| {
            let c = (max * i).div_ceil(points);
            (miss_ratio(exact, c) - miss_ratio(approx, c)).abs()
        })
        .sum();
    sum / points as f64
}
