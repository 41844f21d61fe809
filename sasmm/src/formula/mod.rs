//! The formula model (eq. 1–7, Alg. 3) over a sequential trace handed over in fragments
//! ([`SequentialTrace::stream`]), in one pass, in memory bounded by the program's footprint and
//! the sample, never by the trace length.
//!
//! [`FormulaRuns`] runs the fragments through one LRU stack per core (PRD) and one over the
//! interleaved trace (CRD). Alg. 3 samples about `max(min_samples, ceil(rate × n_i))` of the
//! `n_i` windows of every block; [`WindowSampler`] draws that sample in the same pass (see
//! [`crate::sample`]: each window's priority level, the distances recorded per block and
//! level, the levels below the block's sample level dropped at the end) and counts the
//! windows, instances (eq. 1) and parallel flags (eq. 2–3) of every block. The run assembles
//! the same [`Prediction`] as [`predict`](crate::predict::predict).
//!
//! Memory: the stacks (distinct lines per core and of the shared trace), exact histograms
//! (distinct distances), per-block counters (a few words per block and priority level), the
//! recorded windows' distances (distinct per block and level) and one fragment of the stream.

mod stack;

use crate::error::Result;
use crate::interleave::Interleaver;
use crate::mimic::{MimicConfig, MimickedTrace};
use crate::predict::{assemble, Prediction, SasmmConfig};
use crate::profile::StackProfile;
use crate::seq::{Fragment, StreamLimits};
use crate::spill::SpilledFragment;
use crate::window::SequentialTrace;
use rdengines::granularity::for_each_block;
use rdengines::LastLineStack;
use rdtrace::Trace;
use stack::{Batch, RunProfile};

pub use crate::sample::{BlockCounts, Mark, WindowSampler};

/// The formula model's stacks for one core count, fed the sequential trace's fragments with
/// the marks of the pass's sampler (see [`FormulaRuns`]).
struct FormulaRun {
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
    fn new(config: &SasmmConfig, cores: usize, blocks: usize) -> Result<Self> {
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

    /// Runs the next part of the sequential trace held in memory; `marks[w]` is its window
    /// `w`'s mark by the pass's sampler.
    fn feed(&mut self, seq: &SequentialTrace, marks: &[Mark]) {
        let trace = MimickedTrace::build(seq, self.mimic).expect("settings checked in new");
        self.feed_mimicked(&trace, marks);
    }

    /// Runs the next fragment of the pass, spilled; `sampler` (the pass's) is stepped over its
    /// windows.
    fn feed_spilled(&mut self, s: &SpilledFragment, sampler: &mut WindowSampler) -> Result<()> {
        s.for_each_batch(self.mimic, Some(sampler), |t, marks| {
            self.feed_mimicked(t, marks)
        })
    }

    /// Alg. 1's private traces and Alg. 2's interleaving of one part, through the stacks;
    /// `marks[w]` is window `w`'s mark by the sampler.
    fn feed_mimicked(&mut self, trace: &MimickedTrace<'_>, marks: &[Mark]) {
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
                    let m = marks[w as usize];
                    for_each_block(l1_shift, addr, len as u64, |l| batch.push(l, bb, m));
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
                let m = marks[w as usize];
                for_each_block(l2_shift, addr, len as u64, |l| batch.push(l, bb, m));
                if batch.is_full() {
                    batch.run(stack, crd, 0);
                }
            });
            batch.run(stack, crd, 0);
        };
        rayon::join(run_private, run_shared);
    }

    /// The PRD and CRD profiles of the run so far, each block's conditional profile made of
    /// its sampled windows (levels `levels[b]` and up).
    fn profiles(
        prd: RunProfile,
        crd: RunProfile,
        solo: bool,
        levels: &[u8],
    ) -> (StackProfile, StackProfile) {
        let crd = if solo {
            // See `new`: the CRD is core 0's PRD; instances were counted in both.
            let mut profile = prd.clone().into_stack_profile(levels);
            profile.instances = crd.instances;
            profile
        } else {
            crd.into_stack_profile(levels)
        };
        (prd.into_stack_profile(levels), crd)
    }

    /// The predictions for several configurations that differ only in what eq. 5-7 and eq. 4
    /// read (the caches' sizes and ways, the block weighting), not in what the stacks computed
    /// (core count, line sizes, Alg. 1-3 settings), one per configuration in order.
    /// `sampler` is the pass's, after the whole trace.
    fn finish_each(self, sampler: &WindowSampler, configs: &[&SasmmConfig]) -> Vec<Prediction> {
        let cores = self.cores;
        let counts = sampler.counts();
        let levels = sampler.sample_levels();
        let solo = self.shared.is_none();
        let (prd, crd) = Self::profiles(self.prd, self.crd, solo, &levels);
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

/// What a `FormulaRun`'s stacks depend on besides the trace: runs with equal keys compute
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
/// from the trace file of a sequential run, in one streamed pass over the file (with the
/// thresholds of the first configuration's `limits`) for every configuration and core count
/// at once (Alg. 3's sample drawn as it goes). Configurations that differ only in the
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

/// [`predict_many_trace`] with another consumer of the pass's fragments beside the
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
    let mut runs = FormulaRuns::new(configs, cores, SequentialTrace::block_ids(&trace.meta))?;
    let limits = configs
        .first()
        .map_or_else(StreamLimits::default, |c| c.limits);
    let mut both = (&mut runs, state);
    crate::seq::stream_pipelined(trace, limits, &mut both, &|(runs, state), f| match feed {
        None => runs.feed(f),
        Some(feed) => {
            let (a, b) = rayon::join(|| runs.feed(f), || feed(state, f));
            a.and(b)
        }
    })?;
    Ok(runs.finish())
}

/// The formula model's runs for several configurations and core counts, fed one sequential
/// trace's fragments in one pass (a file's, [`predict_many_trace`], or a stream's):
/// configurations that differ only in the caches' sizes and ways (or eq. 4's weighting) share
/// one run of the stacks per core count, and the runs take each fragment in parallel.
pub struct FormulaRuns {
    configs: Vec<SasmmConfig>,
    runs: Vec<FormulaRun>,
    /// `job_run[c][m]`: the run of configuration c and core count m.
    job_run: Vec<Vec<usize>>,
    /// One sampler per distinct Alg. 3 setting, stepped once per window for every run of it.
    samplers: Vec<WindowSampler>,
    /// Each run's sampler.
    run_sampler: Vec<usize>,
    /// Each sampler's marks of the fragment in hand.
    marks: Vec<Vec<Mark>>,
}

impl FormulaRuns {
    /// Checks every configuration and core count and sets up the runs for `blocks` block ids.
    pub fn new(configs: &[SasmmConfig], cores: &[usize], blocks: usize) -> Result<Self> {
        let mut keys: Vec<RunKey> = Vec::new();
        let mut runs: Vec<FormulaRun> = Vec::new();
        let mut job_run = vec![Vec::with_capacity(cores.len()); configs.len()];
        let mut sample_keys: Vec<SampleKey> = Vec::new();
        let mut samplers = Vec::new();
        let mut run_sampler = Vec::new();
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
                        keys.push(key);
                        runs.push(FormulaRun::new(c, m, blocks)?);
                        let sampler = match sample_keys.iter().position(|k| *k == key.sample) {
                            Some(s) => s,
                            None => {
                                let p = &c.profile;
                                sample_keys.push(key.sample);
                                samplers.push(WindowSampler::new(
                                    p.sample_rate,
                                    p.min_samples,
                                    p.seed,
                                    blocks,
                                ));
                                samplers.len() - 1
                            }
                        };
                        run_sampler.push(sampler);
                        keys.len() - 1
                    }
                };
                job_run[ci].push(r);
            }
        }
        let marks = vec![Vec::new(); samplers.len()];
        Ok(FormulaRuns {
            configs: configs.to_vec(),
            runs,
            job_run,
            samplers,
            run_sampler,
            marks,
        })
    }

    /// Runs the next fragment of the pass through every run.
    pub fn feed(&mut self, f: Fragment<'_>) -> Result<()> {
        use rayon::prelude::*;
        match f {
            Fragment::Memory(seq) => {
                // Each sampler marks the fragment's windows once for all its runs.
                for (sampler, marks) in self.samplers.iter_mut().zip(&mut self.marks) {
                    sampler.mark(seq, marks);
                }
                let marks = &self.marks;
                match self.runs.as_mut_slice() {
                    [run] => run.feed(seq, &marks[self.run_sampler[0]]),
                    runs => runs
                        .par_iter_mut()
                        .zip(&self.run_sampler)
                        .for_each(|(run, &s)| run.feed(seq, &marks[s])),
                }
                Ok(())
            }
            // A spilled fragment's windows are stepped over by each run's own cursors: each run
            // steps a copy of its sampler, and all copies of one sampler end alike.
            Fragment::Spilled(s) => match self.runs.as_mut_slice() {
                [run] => run.feed_spilled(s, &mut self.samplers[self.run_sampler[0]]),
                runs => {
                    let samplers = &self.samplers;
                    let stepped = runs
                        .par_iter_mut()
                        .zip(&self.run_sampler)
                        .map(|(run, &i)| {
                            let mut sampler = samplers[i].clone();
                            run.feed_spilled(s, &mut sampler).map(|()| (i, sampler))
                        })
                        .collect::<Result<Vec<_>>>()?;
                    for (i, sampler) in stepped {
                        self.samplers[i] = sampler;
                    }
                    Ok(())
                }
            },
        }
    }

    /// The block counts (eq. 1-3's inputs) of the windows fed so far.
    pub fn counts(&self) -> BlockCounts {
        self.samplers
            .first()
            .map_or_else(BlockCounts::default, WindowSampler::counts)
    }

    /// The predictions once the whole trace has been fed, by configuration, then core count.
    pub fn finish(self) -> Vec<Vec<Prediction>> {
        // Each run's configurations, in order; then the predictions put back per configuration.
        let cores = self.job_run.first().map_or(0, Vec::len);
        let mut users: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.runs.len()];
        for (ci, per_core) in self.job_run.iter().enumerate() {
            for (mi, &r) in per_core.iter().enumerate() {
                users[r].push((ci, mi));
            }
        }
        let mut out: Vec<Vec<Option<Prediction>>> = vec![vec![None; cores]; self.configs.len()];
        for ((run, users), &s) in self.runs.into_iter().zip(users).zip(&self.run_sampler) {
            let cfgs: Vec<&SasmmConfig> = users.iter().map(|&(ci, _)| &self.configs[ci]).collect();
            let sampler = &self.samplers[s];
            for (p, (ci, mi)) in run.finish_each(sampler, &cfgs).into_iter().zip(users) {
                out[ci][mi] = Some(p);
            }
        }
        out.into_iter()
            .map(|ps| {
                ps.into_iter()
                    .map(|p| p.expect("every job has a run"))
                    .collect()
            })
            .collect()
    }
}
