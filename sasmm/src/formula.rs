//! The formula model (eq. 1–7, Alg. 3) over a sequential trace handed over in fragments
//! ([`SequentialTrace::stream`]), in memory bounded by the program's footprint and the sample,
//! never by the trace length.
//!
//! Alg. 3 samples `max(min_samples, ceil(rate × n_i))` of the `n_i` windows of every block
//! uniformly without replacement, so the sample sizes need every block's window count before
//! the first distance is recorded. The streamed model therefore reads the trace twice:
//!
//! 1. [`BlockCounts`]: windows, instances (eq. 1) and parallel flag (eq. 2–3) per block.
//! 2. [`WindowSample::draw`] picks the sampled windows of each block as *ranks* (the r-th window
//!    of block i in program order) with the same partial Fisher-Yates shuffle and the same
//!    generator calls as the in-memory [`sample_windows`](crate::profile::sample_windows),
//!    keeping only the displaced slots (a sparse shuffle), so the sample is the same set of
//!    windows; [`SampleCursor`] marks each fragment's sampled windows as they go by.
//! 3. [`FormulaRun`] runs the fragments through one LRU stack per core (PRD) and one over the
//!    interleaved trace (CRD), recording Alg. 3's conditional profiles, and assembles the same
//!    [`Prediction`] as [`predict`](crate::predict::predict).
//!
//! Memory: the stacks (distinct lines per core and of the shared trace), exact histograms
//! (distinct distances), per-block counters, the sampled ranks (8 bytes per sampled window; a
//! block whose every window is sampled stores nothing) and one fragment of the stream.

use crate::error::Result;
use crate::exact::par_map;
use crate::interleave::Interleaver;
use crate::mimic::{MimicConfig, MimickedTrace};
use crate::predict::{assemble, Prediction, SasmmConfig};
use crate::profile::{record, StackProfile};
use crate::seq::{Fragment, Placement, SequentialTrace, StreamLimits};
use rdengines::granularity::for_each_block;
use rdengines::{FastCore, SplitMix64};
use rdtrace::Trace;
use std::collections::HashMap;

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

impl BlockCounts {
    /// The counts of a whole sequential trace.
    pub fn of(seq: &SequentialTrace) -> Self {
        let mut c = BlockCounts::default();
        c.add(seq);
        c
    }

    /// Adds the windows of `seq` (a whole trace or the next fragment).
    pub fn add(&mut self, seq: &SequentialTrace) {
        self.reserve(seq.num_blocks());
        for w in &seq.windows {
            self.count(w.bb, w.continuation, w.placement != Placement::Serial);
        }
    }

    /// Adds the windows of the next streamed fragment.
    pub fn add_fragment(&mut self, fragment: Fragment<'_>) -> Result<()> {
        match fragment {
            Fragment::Memory(seq) => self.add(seq),
            Fragment::Spilled(s) => {
                self.reserve(s.header().num_blocks());
                s.for_each_window(|bb, continuation, parallel| {
                    self.count(bb, continuation, parallel)
                })?;
            }
        }
        Ok(())
    }

    fn reserve(&mut self, blocks: usize) {
        if self.windows.len() < blocks {
            self.windows.resize(blocks, 0);
            self.instances.resize(blocks, 0);
            self.parallel.resize(blocks, false);
        }
    }

    fn count(&mut self, bb: u32, continuation: bool, parallel: bool) {
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

    /// P(BB_i) of eq. 1.
    // See: SASMM eq. 1.
    pub fn probabilities(&self) -> Vec<f64> {
        crate::profile::probabilities_of(&self.instances)
    }
}

/// The sampled windows of one block.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ranks {
    /// Every window.
    All,
    /// These ranks, ascending.
    Some(Vec<u64>),
}

/// Alg. 3's window sample, as ranks within each block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowSample {
    ranks: Vec<Ranks>,
}

impl WindowSample {
    /// Draws `max(min_samples, ceil(rate × n))` (at most `n`) of the `n` windows of every block,
    /// uniformly without replacement: the partial Fisher-Yates shuffle of
    /// [`sample_windows`](crate::profile::sample_windows), blocks in id order, one generator,
    /// so both pick the same windows for the same seed.
    // See: SASMM Alg. 3 lines 3-8 — bbi_wins = random(bbi_wins, sample_size).
    pub fn draw(windows_per_block: &[u64], rate: f64, min_samples: u64, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let ranks = windows_per_block
            .iter()
            .map(|&n| {
                if n == 0 {
                    return Ranks::Some(Vec::new());
                }
                let k = ((rate * n as f64).ceil() as u64).max(min_samples).min(n);
                if k == n {
                    // Every window; the generator still advances as the shuffle would.
                    for i in 0..k {
                        rng.below(n - i);
                    }
                    return Ranks::All;
                }
                // The shuffle over the identity array 0..n, storing only displaced slots.
                let mut moved: HashMap<u64, u64> = HashMap::new();
                let mut chosen = Vec::with_capacity(k as usize);
                for i in 0..k {
                    let j = i + rng.below(n - i);
                    let vi = moved.get(&i).copied().unwrap_or(i);
                    let vj = moved.get(&j).copied().unwrap_or(j);
                    moved.insert(j, vi);
                    moved.remove(&i);
                    chosen.push(vj);
                }
                chosen.sort_unstable();
                Ranks::Some(chosen)
            })
            .collect();
        WindowSample { ranks }
    }

    /// Sampled windows in all.
    pub fn len(&self, windows_per_block: &[u64]) -> u64 {
        self.ranks
            .iter()
            .zip(windows_per_block)
            .map(|(r, &n)| match r {
                Ranks::All => n,
                Ranks::Some(v) => v.len() as u64,
            })
            .sum()
    }

    /// A cursor for one pass over the trace from its start.
    pub fn cursor(&self) -> SampleCursor<'_> {
        SampleCursor {
            sample: self,
            seen: vec![0; self.ranks.len()],
            next: vec![0; self.ranks.len()],
            flags: Vec::new(),
        }
    }
}

/// Walks the windows of one pass in program order and says which are sampled.
#[derive(Clone)]
pub struct SampleCursor<'a> {
    sample: &'a WindowSample,
    /// Windows of each block seen so far.
    seen: Vec<u64>,
    /// Next sampled rank of each block (index into its list).
    next: Vec<usize>,
    flags: Vec<bool>,
}

impl SampleCursor<'_> {
    /// Whether each window of `seq` (the next fragment of the pass) is sampled, by local index.
    pub fn mark(&mut self, seq: &SequentialTrace) -> &[bool] {
        let mut flags = std::mem::take(&mut self.flags);
        flags.clear();
        flags.extend(seq.windows.iter().map(|w| self.step(w.bb)));
        self.flags = flags;
        &self.flags
    }

    /// Whether the next window of the pass, of block `bb`, is sampled.
    pub fn step(&mut self, bb: u32) -> bool {
        let b = bb as usize;
        let sampled = match self.sample.ranks.get(b) {
            Some(Ranks::All) => true,
            Some(Ranks::Some(r)) => {
                let hit = r.get(self.next[b]) == Some(&self.seen[b]);
                if hit {
                    self.next[b] += 1;
                }
                hit
            }
            None => false,
        };
        if let Some(s) = self.seen.get_mut(b) {
            *s += 1;
        }
        sampled
    }
}

/// The formula model for one core count, fed the sequential trace whole or in fragments.
pub struct FormulaRun {
    cores: usize,
    mimic: MimicConfig,
    interleaver: Interleaver,
    l1_shift: u32,
    l2_shift: u32,
    private: Vec<FastCore>,
    shared: FastCore,
    prd: StackProfile,
    crd: StackProfile,
}

impl FormulaRun {
    /// Checks `config` and sets up the stacks for `cores` cores and `blocks` block ids.
    pub fn new(config: &SasmmConfig, cores: usize, blocks: usize) -> Result<Self> {
        config.profile.validate()?;
        let mimic = MimicConfig {
            cores,
            ..config.mimic
        };
        // Alg. 1's settings are checked once, before anything is read.
        MimickedTrace::build(&SequentialTrace::default(), mimic)?;
        Ok(FormulaRun {
            cores,
            mimic,
            interleaver: Interleaver::new(config.interleave),
            l1_shift: config.l1.line.max(1).trailing_zeros(),
            l2_shift: config.l2.line.max(1).trailing_zeros(),
            private: (0..cores).map(|_| FastCore::default()).collect(),
            shared: FastCore::default(),
            prd: StackProfile::new(cores, blocks),
            crd: StackProfile::new(1, blocks),
        })
    }

    /// Runs the next part of the sequential trace; `sampled[w]` says whether its window `w`
    /// is in Alg. 3's sample.
    pub fn feed(&mut self, seq: &SequentialTrace, sampled: &[bool]) {
        let trace = MimickedTrace::build(seq, self.mimic).expect("settings checked in new");
        self.feed_mimicked(&trace, sampled);
    }

    /// Runs the next streamed fragment; `cursor` is the pass's Alg. 3 sample cursor.
    pub fn feed_fragment(
        &mut self,
        fragment: Fragment<'_>,
        cursor: &mut SampleCursor<'_>,
    ) -> Result<()> {
        match fragment {
            Fragment::Memory(seq) => {
                let sampled = cursor.mark(seq);
                let trace = MimickedTrace::build(seq, self.mimic).expect("settings checked in new");
                self.feed_mimicked(&trace, sampled);
                Ok(())
            }
            Fragment::Spilled(s) => s.for_each_batch(self.mimic, Some(cursor), |t, sampled| {
                self.feed_mimicked(t, sampled)
            }),
        }
    }

    /// Alg. 1's private traces and Alg. 2's interleaving of one part, through the stacks.
    fn feed_mimicked(&mut self, trace: &MimickedTrace<'_>, sampled: &[bool]) {
        let seq = trace.seq;
        for s in &trace.sections {
            for ws in &s.per_core {
                for &w in ws {
                    let win = &seq.windows[w as usize];
                    if !win.continuation {
                        self.prd.instances[win.bb as usize] += 1;
                        self.crd.instances[win.bb as usize] += 1;
                    }
                }
            }
        }
        // Private stacks: each core's accesses in its own order (the cores' stacks are
        // independent, so running them fragment by fragment changes no distance).
        let (prd, shift) = (&mut self.prd, self.l1_shift);
        for (core, stack) in self.private.iter_mut().enumerate() {
            trace.for_each_private_access(core, |w, addr, len| {
                let bb = seq.windows[w as usize].bb as usize;
                let s = sampled[w as usize];
                for_each_block(shift, addr, len as u64, |l| {
                    record(prd, core, bb, s, stack.access(l));
                });
            });
        }
        // The shared stack over Alg. 2's interleaving, whose generator goes on across fragments.
        let (crd, stack, shift) = (&mut self.crd, &mut self.shared, self.l2_shift);
        self.interleaver.feed(trace, |_core, w, addr, len| {
            let bb = seq.windows[w as usize].bb as usize;
            let s = sampled[w as usize];
            for_each_block(shift, addr, len as u64, |l| {
                record(crd, 0, bb, s, stack.access(l));
            });
        });
    }

    /// The prediction, with the block counts of the whole run.
    pub fn finish(self, counts: &BlockCounts, config: &SasmmConfig) -> Prediction {
        assemble(
            self.prd,
            self.crd,
            &counts.probabilities(),
            &counts.parallel,
            config,
            self.cores,
        )
    }
}

/// [`predict`](crate::predict::predict) for several configurations and core counts straight
/// from the trace file of a sequential run: one pass for the block counts, then one pass per
/// configuration and core count (as many at once as the thread pool runs). Equal to
/// `predict(&SequentialTrace::from_trace(trace)?, config, m)` for each; memory as in the
/// module documentation. Results by configuration, then core count.
pub fn predict_many_trace(
    trace: &Trace,
    configs: &[SasmmConfig],
    cores: &[usize],
) -> Result<Vec<Vec<Prediction>>> {
    predict_many_trace_with(trace, configs, cores, StreamLimits::from_env()?)
}

/// [`predict_many_trace`] with the streaming thresholds of [`SequentialTrace::stream_with`].
pub fn predict_many_trace_with(
    trace: &Trace,
    configs: &[SasmmConfig],
    cores: &[usize],
    limits: StreamLimits,
) -> Result<Vec<Vec<Prediction>>> {
    // Settings first, so bad ones are reported before the trace is read.
    for c in configs {
        for &m in cores {
            FormulaRun::new(c, m, 0)?;
        }
    }
    let mut counts = BlockCounts::default();
    SequentialTrace::stream_with(trace, limits, &mut |f| counts.add_fragment(f))?;
    let samples: Vec<WindowSample> = configs
        .iter()
        .map(|c| {
            let p = &c.profile;
            WindowSample::draw(&counts.windows, p.sample_rate, p.min_samples, p.seed)
        })
        .collect();
    let jobs: Vec<(usize, usize)> = (0..configs.len())
        .flat_map(|c| cores.iter().map(move |&m| (c, m)))
        .collect();
    let mut results = par_map(&jobs, |&(c, m)| -> Result<Prediction> {
        let config = &configs[c];
        let mut run = FormulaRun::new(config, m, counts.windows.len())?;
        let mut cursor = samples[c].cursor();
        SequentialTrace::stream_with(trace, limits, &mut |f| run.feed_fragment(f, &mut cursor))?;
        Ok(run.finish(&counts, config))
    })
    .into_iter();
    configs
        .iter()
        .map(|_| {
            cores
                .iter()
                .map(|_| results.next().expect("one per job"))
                .collect()
        })
        .collect()
}
