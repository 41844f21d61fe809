//! The formula model (eq. 1–7, Alg. 3) over a sequential trace handed over in fragments
//! ([`SequentialTrace::stream`]), in memory bounded by the program's footprint and the sample,
//! never by the trace length.
//!
//! Alg. 3 samples `max(min_samples, ceil(rate × n_i))` of the `n_i` windows of every block
//! uniformly without replacement, so the sample sizes need every block's window count before
//! the first distance is recorded. The streamed model therefore reads the trace twice:
//!
//! 1. [`BlockCounts`]: windows, instances (eq. 1) and parallel flag (eq. 2–3) per block, from
//!    [`SequentialTrace::stream_windows`] (the windows' blocks and flags only: no access kept,
//!    no temporary file written).
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

mod stack;

use crate::error::Result;
use crate::interleave::Interleaver;
use crate::mimic::{MimicConfig, MimickedTrace};
use crate::predict::{assemble, Prediction, SasmmConfig};
use crate::profile::StackProfile;
use crate::seq::{Fragment, StreamLimits};
use crate::window::{Placement, SequentialTrace};
use rdengines::granularity::for_each_block;
use rdengines::LastLineStack;
use rdtrace::Trace;
use stack::{Batch, RunProfile};

pub use crate::sample::{SampleCursor, WindowSample};

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

    /// Zero counts for `blocks` block ids.
    pub fn new(blocks: usize) -> Self {
        let mut c = BlockCounts::default();
        c.reserve(blocks);
        c
    }

    /// The counts of the sequential run in the trace file, in one streamed pass that keeps
    /// only the windows' blocks and flags ([`SequentialTrace::stream_windows`] with `limits`):
    /// equal to the counts of [`SequentialTrace::stream_with`]'s fragments
    /// ([`add_fragment`](Self::add_fragment)) with the same limits.
    pub fn of_trace(trace: &Trace, limits: StreamLimits) -> Result<Self> {
        let mut counts = BlockCounts::new(SequentialTrace::block_ids(&trace.meta));
        SequentialTrace::stream_windows(trace, limits, &mut |bb, continuation, parallel| {
            counts.add_window(bb, continuation, parallel)
        })?;
        Ok(counts)
    }

    /// Adds the windows of `seq` (a whole trace or the next fragment).
    pub fn add(&mut self, seq: &SequentialTrace) {
        self.reserve(seq.num_blocks());
        for w in &seq.windows {
            self.add_window(w.bb, w.continuation, w.placement != Placement::Serial);
        }
    }

    /// Adds the windows of the next streamed fragment.
    pub fn add_fragment(&mut self, fragment: Fragment<'_>) -> Result<()> {
        match fragment {
            Fragment::Memory(seq) => self.add(seq),
            Fragment::Spilled(s) => {
                self.reserve(s.header().num_blocks());
                s.for_each_window(|bb, continuation, parallel| {
                    self.add_window(bb, continuation, parallel)
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

    /// P(BB_i) of eq. 1.
    // See: SASMM eq. 1.
    pub fn probabilities(&self) -> Vec<f64> {
        crate::profile::probabilities_of(&self.instances)
    }
}

/// The formula model for one core count, fed the sequential trace whole or in fragments.
pub struct FormulaRun {
    cores: usize,
    mimic: MimicConfig,
    interleaver: Interleaver,
    l1_shift: u32,
    l2_shift: u32,
    private: Vec<LastLineStack>,
    /// The stack over the shared trace; `None` when the CRD is core 0's PRD (see `new`).
    shared: Option<LastLineStack>,
    /// References on their way to the private stacks (one stack's at a time), and to the
    /// shared one.
    batch: Batch,
    shared_batch: Batch,
    prd: RunProfile,
    crd: RunProfile,
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
        let l1_shift = config.l1.line.max(1).trailing_zeros();
        let l2_shift = config.l2.line.max(1).trailing_zeros();
        // With one core, Alg. 2's shared trace is core 0's private trace (serial sections are
        // core 0's; a parallel section's rounds hold one window each, taken whole), so with
        // equal line sizes every CRD distance is the PRD distance of the same reference: the
        // CRD profile is the PRD profile and is not computed twice.
        let solo = cores == 1 && l1_shift == l2_shift;
        Ok(FormulaRun {
            cores,
            mimic,
            interleaver: Interleaver::new(config.interleave),
            l1_shift,
            l2_shift,
            private: (0..cores).map(|_| LastLineStack::default()).collect(),
            shared: (!solo).then(LastLineStack::default),
            batch: Batch::default(),
            shared_batch: Batch::default(),
            prd: RunProfile::new(cores, blocks),
            crd: RunProfile::new(1, blocks),
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
        // The private stacks and the shared one read the same part and nothing of each other:
        // on two threads when there is a shared stack.
        let (private, prd, l1_shift) = (&mut self.private, &mut self.prd, self.l1_shift);
        let (batch, shared_batch) = (&mut self.batch, &mut self.shared_batch);
        let mut run_private = || {
            // Each core's accesses in its own order (the cores' stacks are independent, so
            // running them fragment by fragment changes no distance).
            for (core, stack) in private.iter_mut().enumerate() {
                trace.for_each_private_access(core, |w, addr, len| {
                    let bb = seq.windows[w as usize].bb as usize;
                    let s = sampled[w as usize];
                    for_each_block(l1_shift, addr, len as u64, |l| batch.push(l, bb, s));
                    if batch.is_full() {
                        batch.run(stack, prd, core);
                    }
                });
                batch.run(stack, prd, core);
            }
        };
        let Some(stack) = self.shared.as_mut() else {
            return run_private();
        };
        let (crd, l2_shift, interleaver) = (&mut self.crd, self.l2_shift, &mut self.interleaver);
        let run_shared = || {
            // Alg. 2's interleaving, whose generator goes on across fragments.
            let batch = shared_batch;
            interleaver.feed(trace, |_core, w, addr, len| {
                let bb = seq.windows[w as usize].bb as usize;
                let s = sampled[w as usize];
                for_each_block(l2_shift, addr, len as u64, |l| batch.push(l, bb, s));
                if batch.is_full() {
                    batch.run(stack, crd, 0);
                }
            });
            batch.run(stack, crd, 0);
        };
        rayon::join(run_private, run_shared);
    }

    /// The PRD and CRD profiles of the run so far.
    fn profiles(self) -> (StackProfile, StackProfile) {
        let crd = match self.shared {
            Some(_) => self.crd.into_stack_profile(),
            // See `new`: the CRD is core 0's PRD; instances were counted in both.
            None => {
                let mut crd = self.prd.clone().into_stack_profile();
                crd.instances = self.crd.instances;
                crd
            }
        };
        (self.prd.into_stack_profile(), crd)
    }

    /// The prediction, with the block counts of the whole run.
    pub fn finish(self, counts: &BlockCounts, config: &SasmmConfig) -> Prediction {
        self.finish_each(counts, &[config])
            .pop()
            .expect("one prediction per configuration")
    }

    /// The predictions for several configurations that differ only in what eq. 5-7 and eq. 4
    /// read (the caches' sizes and ways, the block weighting), not in what the stacks computed
    /// (core count, line sizes, Alg. 1-3 settings), one per configuration in order.
    fn finish_each(self, counts: &BlockCounts, configs: &[&SasmmConfig]) -> Vec<Prediction> {
        let cores = self.cores;
        let (prd, crd) = self.profiles();
        let p_seq = counts.probabilities();
        configs
            .iter()
            .map(|config| {
                assemble(
                    prd.clone(),
                    crd.clone(),
                    &p_seq,
                    &counts.parallel,
                    config,
                    cores,
                )
            })
            .collect()
    }
}

/// What a [`FormulaRun`]'s stacks depend on besides the trace: runs with equal keys compute
/// the same profiles, and only eq. 4-7 (per configuration) differ.
#[derive(Clone, Copy, PartialEq)]
struct RunKey {
    cores: usize,
    mimic: MimicConfig,
    interleave: crate::interleave::Interleave,
    l1_line: u32,
    l2_line: u32,
    sample: SampleKey,
}

/// Alg. 3's sample settings (the rate compared by its bits).
#[derive(Clone, Copy, PartialEq, Eq)]
struct SampleKey {
    rate: u64,
    min_samples: u64,
    seed: u64,
}

impl SampleKey {
    fn of(config: &SasmmConfig) -> Self {
        let p = &config.profile;
        SampleKey {
            rate: p.sample_rate.to_bits(),
            min_samples: p.min_samples,
            seed: p.seed,
        }
    }
}

/// [`predict`](crate::predict::predict) for several configurations and core counts straight
/// from the trace file of a sequential run, in two streamed passes over the file (with the
/// thresholds of the first configuration's `limits`): one for the block counts
/// ([`BlockCounts::of_trace`]: the windows only, no access kept; Alg. 3's
/// sample sizes need every block's window count before the first distance is recorded), then
/// one for every configuration and core count at once. Configurations that differ only in the
/// caches' sizes and ways (or eq. 4's weighting) share one run of the stacks per core count;
/// the runs take each fragment in parallel. Equal to
/// `predict(&SequentialTrace::from_trace(trace)?, config, m)` for each; memory as in the module
/// documentation, per run. Results by configuration, then core count.
pub fn predict_many_trace(
    trace: &Trace,
    configs: &[SasmmConfig],
    cores: &[usize],
) -> Result<Vec<Vec<Prediction>>> {
    predict_many_trace_beside(trace, configs, cores, &mut (), None)
}

/// What takes a streamed fragment beside the formula model's runs, with its state.
pub type BesideFeed<'f, S> = &'f (dyn Fn(&mut S, Fragment<'_>) -> Result<()> + Sync);

/// [`predict_many_trace`] with another consumer of the second pass's fragments beside the
/// formula model's runs: `feed` (if any) takes each fragment with `state`, in order, in
/// parallel with them (so another model streamed with the first configuration's limits costs
/// no pass of its own; `validate` runs the exact model there).
pub fn predict_many_trace_beside<S: Send>(
    trace: &Trace,
    configs: &[SasmmConfig],
    cores: &[usize],
    state: &mut S,
    feed: Option<BesideFeed<'_, S>>,
) -> Result<Vec<Vec<Prediction>>> {
    // Settings first, so bad ones are reported before the trace is read.
    for c in configs {
        for &m in cores {
            FormulaRun::new(c, m, 0)?;
        }
    }
    let limits = configs
        .first()
        .map_or_else(StreamLimits::default, |c| c.limits);
    // See: SASMM Alg. 3 — the sample sizes need every block's window count first.
    let counts = BlockCounts::of_trace(trace, limits)?;
    // One window sample per distinct Alg. 3 setting.
    let mut sample_keys: Vec<SampleKey> = Vec::new();
    for c in configs {
        if !sample_keys.contains(&SampleKey::of(c)) {
            sample_keys.push(SampleKey::of(c));
        }
    }
    let samples: Vec<WindowSample> = sample_keys
        .iter()
        .map(|k| {
            WindowSample::draw(
                &counts.windows,
                f64::from_bits(k.rate),
                k.min_samples,
                k.seed,
            )
        })
        .collect();
    // One run per distinct key; `job_run[c][m]`: the run of configuration c and core count m.
    let mut keys: Vec<RunKey> = Vec::new();
    let mut runs: Vec<(FormulaRun, SampleCursor<'_>)> = Vec::new();
    let mut job_run = vec![Vec::with_capacity(cores.len()); configs.len()];
    for (ci, c) in configs.iter().enumerate() {
        for &m in cores {
            let key = RunKey {
                cores: m,
                mimic: c.mimic,
                interleave: c.interleave,
                l1_line: c.l1.line,
                l2_line: c.l2.line,
                sample: SampleKey::of(c),
            };
            let r = match keys.iter().position(|k| *k == key) {
                Some(r) => r,
                None => {
                    let s = sample_keys
                        .iter()
                        .position(|k| *k == key.sample)
                        .expect("every sample key drawn");
                    keys.push(key);
                    runs.push((
                        FormulaRun::new(c, m, counts.windows.len())?,
                        samples[s].cursor(),
                    ));
                    keys.len() - 1
                }
            };
            job_run[ci].push(r);
        }
    }
    let mut both = (&mut runs, state);
    crate::seq::stream_pipelined(trace, limits, &mut both, &|(runs, state), f| {
        use rayon::prelude::*;
        let mut formula = || match runs.as_mut_slice() {
            [(run, cursor)] => run.feed_fragment(f, cursor),
            runs => runs
                .par_iter_mut()
                .try_for_each(|(run, cursor)| run.feed_fragment(f, cursor)),
        };
        match feed {
            None => formula(),
            Some(feed) => {
                let (a, b) = rayon::join(formula, || feed(state, f));
                a.and(b)
            }
        }
    })?;
    // Each run's configurations, in order; then the predictions put back per configuration.
    let mut users: Vec<Vec<(usize, usize)>> = vec![Vec::new(); runs.len()];
    for (ci, per_core) in job_run.iter().enumerate() {
        for (mi, &r) in per_core.iter().enumerate() {
            users[r].push((ci, mi));
        }
    }
    let mut out: Vec<Vec<Option<Prediction>>> = vec![vec![None; cores.len()]; configs.len()];
    for ((run, _), users) in runs.into_iter().zip(users) {
        let cfgs: Vec<&SasmmConfig> = users.iter().map(|&(ci, _)| &configs[ci]).collect();
        for (p, (ci, mi)) in run.finish_each(&counts, &cfgs).into_iter().zip(users) {
            out[ci][mi] = Some(p);
        }
    }
    Ok(out
        .into_iter()
        .map(|ps| {
            ps.into_iter()
                .map(|p| p.expect("every job has a run"))
                .collect()
        })
        .collect())
}
