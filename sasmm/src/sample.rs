//! Alg. 3's window sample, drawn in the one pass that also computes the distances: a uniform
//! sample of about `max(min_samples, ceil(rate × n_i))` of the `n_i` windows of every block,
//! without knowing `n_i` before the pass ends.
//!
//! Every window gets a *priority level* from a hash of (seed, block, rank of the window in its
//! block): level `l` with probability `2^-(l+1)` (the hash's leading zero bits), the levels at
//! and above [`WindowSampler::top`] taken together. The sample of a block is every window whose
//! level is at least some `L`: a uniform random sample (levels are independent of the
//! windows' accesses). At the end of the pass `L` is the highest level whose windows at and
//! above it number at least `k_i = max(min_samples, ceil(rate × n_i))` (at most `n_i`), so the
//! sample holds `k_i` windows or more, about twice as many at most; `top` is the highest level
//! `l` with `2^-l >= rate`, so a large block's sample is between `rate` and `2 × rate` of it.
//!
//! Distances are recorded per block and level while the pass runs, and the levels below `L`
//! dropped at the end. So that the small levels are not recorded for the whole run, each block
//! has a *floor*: once its windows at or above `floor + 1` number `2 × k` (`k` of the windows
//! seen so far), the floor rises, and windows below it are not recorded. A level under the
//! floor can then no longer be `L`, except where a block's later windows fall far below their
//! expected share (each of them is at or above the floor with probability `2^-floor >= rate`,
//! while `k` grows by `rate` per window): its sample is then every window from the floor up,
//! fewer than `k_i`.
//!
//! The paper samples 1 % of each block's windows ("Typically we randomly select 1% samples")
//! to save computing distances; here every reference goes through the stacks anyway, so the
//! sample only decides which distances make P(D|BB), and a one-pass sample saves the pass over
//! the trace that counting `n_i` first would cost.

use crate::window::{Placement, SequentialTrace};
use rdengines::mix64;

/// A window's place in the sample as the pass marks it: [`NOT_RECORDED`], or `1 + level`.
pub type Mark = u8;

/// The mark of a window below its block's floor (never in the sample).
pub const NOT_RECORDED: Mark = 0;

/// Highest level any sample distinguishes (rates down to 2^-40).
const MAX_TOP: u8 = 40;

/// Per-block counts of the sequential run: what eq. 1–3 and Alg. 3's sample sizes need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockCounts {
    /// Windows per block (continuations included: Alg. 3 samples every window).
    pub windows: Vec<u64>,
    /// Instances per block (N_i of eq. 1: windows that are not continuations).
    pub instances: Vec<u64>,
    /// Whether the block ran inside a parallel region.
    pub parallel: Vec<bool>,
}

/// The counts built from windows directly: the tests' expectation for what the sampler counts.
#[cfg(test)]
impl BlockCounts {
    /// The counts of a whole sequential trace.
    pub fn of(seq: &SequentialTrace) -> Self {
        let mut c = BlockCounts::default();
        c.add(seq);
        c
    }

    /// Zero counts for `blocks` block ids.
    pub fn new(blocks: usize) -> Self {
        let mut c = BlockCounts::default();
        c.reserve(blocks);
        c
    }

    /// Adds the windows of `seq` (a whole trace).
    pub fn add(&mut self, seq: &SequentialTrace) {
        self.reserve(seq.num_blocks());
        for w in &seq.windows {
            self.add_window(w.bb, w.continuation, w.placement != Placement::Serial);
        }
    }

    fn reserve(&mut self, blocks: usize) {
        if self.windows.len() < blocks {
            self.windows.resize(blocks, 0);
            self.instances.resize(blocks, 0);
            self.parallel.resize(blocks, false);
        }
    }

    /// Adds one window of block `bb` (a continuation of a block instance or not, inside a
    /// parallel region or not).
    pub fn add_window(&mut self, bb: u32, continuation: bool, parallel: bool) {
        let b = bb as usize;
        if b >= self.windows.len() {
            self.reserve(b + 1);
        }
        self.windows[b] += 1;
        if !continuation {
            self.instances[b] += 1;
        }
        if parallel {
            self.parallel[b] = true;
        }
    }
}

impl BlockCounts {
    /// P(BB_i) of eq. 1.
    // See: SASMM eq. 1.
    pub fn probabilities(&self) -> Vec<f64> {
        probabilities_of(&self.instances)
    }
}

/// Eq. 1 over per-block instance counts (all zero: every probability 0).
// See: SASMM eq. 1.
pub(crate) fn probabilities_of(instances: &[u64]) -> Vec<f64> {
    let total: u64 = instances.iter().sum();
    instances
        .iter()
        .map(|&x| {
            if total == 0 {
                0.0
            } else {
                x as f64 / total as f64
            }
        })
        .collect()
}

/// What the sampler keeps of one block besides its levels (one place, so that a window's
/// step touches one cache line of them).
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    windows: u64,
    instances: u64,
    /// Windows above the floor (at level `floor + 1` or higher).
    above: u64,
    floor: u8,
    parallel: bool,
}

/// Alg. 3's window sampler for one pass (see the module documentation): steps over every
/// window in program order, marks it, and keeps the block counts of eq. 1-3.
#[derive(Clone, Debug)]
pub struct WindowSampler {
    rate: f64,
    min_samples: u64,
    seed: u64,
    top: u8,
    /// Windows per level and block, `top + 1` per block, counted from the block's floor up
    /// (the levels below it are never asked for again).
    levels: Vec<u64>,
    blocks: Vec<Tally>,
}

impl WindowSampler {
    /// A sampler of `rate` (in (0, 1]), `min_samples` and `seed` for `blocks` block ids (more
    /// are added as windows of higher ids come).
    pub fn new(rate: f64, min_samples: u64, seed: u64, blocks: usize) -> Self {
        let mut top = 0;
        while top < MAX_TOP && 0.5f64.powi(top as i32 + 1) >= rate {
            top += 1;
        }
        let mut s = WindowSampler {
            rate,
            min_samples,
            seed,
            top,
            levels: Vec::new(),
            blocks: Vec::new(),
        };
        s.reserve(blocks);
        s
    }

    /// Highest priority level told apart (see the module documentation).
    pub fn top(&self) -> u8 {
        self.top
    }

    fn reserve(&mut self, blocks: usize) {
        if self.blocks.len() < blocks {
            self.blocks.resize(blocks, Tally::default());
            self.levels.resize(blocks * (self.top as usize + 1), 0);
        }
    }

    /// `k` of a block with `n` windows.
    fn wanted(&self, n: u64) -> u64 {
        wanted(self.rate, self.min_samples, n)
    }

    /// Windows of block `b` at level `level` or above (`level` at least the block's floor).
    fn at_or_above(&self, b: usize, level: u8) -> u64 {
        at_or_above(&self.levels, self.top, b, level)
    }

    /// Level of the `rank`-th window of block `bb`.
    fn level_of(&self, bb: u32, rank: u64) -> u8 {
        let x = self.seed
            ^ (bb as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ rank.wrapping_mul(0xd1b5_4a32_d192_ed03);
        let h = mix64(x.wrapping_add(0x2545_f491_4f6c_dd1d));
        (h.leading_zeros() as u8).min(self.top)
    }

    /// Steps over the next window of the pass (block `bb`, a continuation of a block instance
    /// or not, in a parallel region or not) and marks it.
    // See: SASMM Alg. 3 lines 3-8 — bbi_wins = random(bbi_wins, sample_size).
    pub fn step(&mut self, bb: u32, continuation: bool, parallel: bool) -> Mark {
        let b = bb as usize;
        if b >= self.blocks.len() {
            self.reserve(b + 1);
        }
        let level = self.level_of(bb, self.blocks[b].windows);
        let (rate, min_samples) = (self.rate, self.min_samples);
        let t = &mut self.blocks[b];
        t.windows += 1;
        t.instances += u64::from(!continuation);
        t.parallel |= parallel;
        if level < t.floor {
            return NOT_RECORDED;
        }
        let stride = self.top as usize + 1;
        self.levels[b * stride + level as usize] += 1;
        // `wanted` never shrinks as windows come, so the floor can rise only when the windows
        // above it grow.
        if level > t.floor {
            t.above += 1;
            let k = wanted(rate, min_samples, t.windows);
            while t.floor < self.top && t.above >= 2 * k {
                t.floor += 1;
                t.above = if t.floor < self.top {
                    at_or_above(&self.levels, self.top, b, t.floor + 1)
                } else {
                    0
                };
            }
        }
        if level >= t.floor {
            1 + level
        } else {
            NOT_RECORDED
        }
    }

    /// Steps over the windows of `seq` (the next part of the pass, held in memory) and puts
    /// their marks in `marks`, by window.
    pub fn mark(&mut self, seq: &SequentialTrace, marks: &mut Vec<Mark>) {
        marks.clear();
        marks.extend(seq.windows.iter().map(|w| {
            let parallel = w.placement != Placement::Serial;
            self.step(w.bb, w.continuation, parallel)
        }));
    }

    /// Each block's `L` after the pass: its sample is the windows recorded at that level or
    /// above (see the module documentation).
    pub fn sample_levels(&self) -> Vec<u8> {
        self.blocks
            .iter()
            .enumerate()
            .map(|(b, t)| {
                let k = self.wanted(t.windows);
                (t.floor..=self.top)
                    .rev()
                    .find(|&l| self.at_or_above(b, l) >= k)
                    .unwrap_or(t.floor)
            })
            .collect()
    }

    /// The block counts of the windows stepped over.
    pub fn counts(&self) -> BlockCounts {
        BlockCounts {
            windows: self.blocks.iter().map(|t| t.windows).collect(),
            instances: self.blocks.iter().map(|t| t.instances).collect(),
            parallel: self.blocks.iter().map(|t| t.parallel).collect(),
        }
    }
}

/// `k = max(min_samples, ceil(rate × n))`, at most `n`: the sample size a block of `n`
/// windows wants.
fn wanted(rate: f64, min_samples: u64, n: u64) -> u64 {
    ((rate * n as f64).ceil() as u64).max(min_samples).min(n)
}

/// Windows of block `b` at level `level` or above in `levels` (`top + 1` per block).
fn at_or_above(levels: &[u64], top: u8, b: usize, level: u8) -> u64 {
    let stride = top as usize + 1;
    levels[b * stride + level as usize..(b + 1) * stride]
        .iter()
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(sampler: &mut WindowSampler, blocks: &[u32]) -> Vec<Mark> {
        blocks
            .iter()
            .map(|&b| sampler.step(b, false, false))
            .collect()
    }

    /// With rate 1 every window is recorded and sampled; `top` is the highest level whose
    /// share `2^-l` is still at least the rate.
    #[test]
    fn top_level_follows_the_rate() {
        for (rate, top) in [(1.0, 0), (0.6, 0), (0.5, 1), (0.3, 1), (0.25, 2), (0.01, 6)] {
            assert_eq!(WindowSampler::new(rate, 0, 1, 0).top(), top, "rate {rate}");
        }
        let mut s = WindowSampler::new(1.0, 0, 9, 2);
        let marks = run(&mut s, &[0, 1, 0, 0, 1]);
        assert!(marks.iter().all(|&m| m == 1));
        assert_eq!(s.sample_levels(), vec![0, 0]);
        assert_eq!(s.at_or_above(0, 0) + s.at_or_above(1, 0), 5);
    }

    /// Large blocks: the sample holds at least `k` windows and at most a few times the rate's
    /// share; small blocks (at most `min_samples` windows) are sampled whole.
    #[test]
    fn sample_sizes_stay_between_the_wanted_count_and_about_twice_it() {
        for seed in 0..20u64 {
            let mut s = WindowSampler::new(0.01, 32, seed, 3);
            let mut blocks = Vec::new();
            for i in 0..200_000u32 {
                blocks.push(i % 2);
                if i % 10_000 == 0 {
                    blocks.push(2);
                }
            }
            let marks = run(&mut s, &blocks);
            let levels = s.sample_levels();
            for (b, &level) in levels.iter().enumerate() {
                let n = s.blocks[b].windows;
                let sampled = blocks
                    .iter()
                    .zip(&marks)
                    .filter(|&(&bb, &m)| bb as usize == b && m > level)
                    .count() as u64;
                assert_eq!(sampled, s.at_or_above(b, level));
                let k = s.wanted(n);
                assert!(sampled >= k, "seed {seed} block {b}: {sampled} < {k}");
                if n <= 32 {
                    assert_eq!(sampled, n);
                } else {
                    assert!(sampled <= 4 * k, "seed {seed} block {b}: {sampled} of {n}");
                }
            }
        }
    }

    /// Every window is equally likely to be sampled, early or late in the pass: over many
    /// seeds, the first and the last tenth of a block's windows are sampled about as often.
    #[test]
    fn early_and_late_windows_are_sampled_alike() {
        let n = 5_000u32;
        let (mut early, mut late) = (0u64, 0u64);
        for seed in 0..200u64 {
            let mut s = WindowSampler::new(0.02, 8, seed, 1);
            let marks = run(&mut s, &vec![0; n as usize]);
            let l = s.sample_levels()[0];
            for (i, &m) in marks.iter().enumerate() {
                if m > l {
                    if (i as u32) < n / 10 {
                        early += 1;
                    } else if (i as u32) >= n - n / 10 {
                        late += 1;
                    }
                }
            }
        }
        let ratio = early as f64 / late as f64;
        assert!((0.9..1.1).contains(&ratio), "early {early}, late {late}");
    }
}
