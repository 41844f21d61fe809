//! Reuse profiles of the mimicked traces: exact PRD (one LRU stack per core) and CRD (one stack
//! over the interleaved trace), and the probabilistic profile of SASMM §3.4–3.5: basic-block
//! probabilities (eq. 1–3), conditional profiles P(D|BB) from sampled windows (Alg. 3) and their
//! mixture P(D) = Σ P(BB)·P(D|BB) (eq. 4).
//!
//! Reuse distances are computed in one forward pass per stack with the engines' exact LRU
//! structure ([`rdengines::FrontedStack`]), which yields the distance of every reference in O(1)
//! amortised; Alg. 3's `get_rd` for the sampled windows then only selects which distances enter
//! P(D|BB). (The paper computes `get_rd` per sampled reference by a backward scan; the forward
//! pass gives the same distances and is cheaper than scanning once windows overlap.)

use crate::error::{Result, SasmmError};
use crate::interleave::{for_each_shared_access, Interleave};
use crate::mimic::MimickedTrace;
use crate::model::Profile;
use crate::sample::{probabilities_of, WindowSampler};
use crate::window::SequentialTrace;
use rdengines::granularity::for_each_block;
use rdengines::{FrontedStack, Histogram};

/// How basic blocks are weighted in eq. 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BbWeighting {
    /// The paper: eq. 1 (instance counts of the sequential run) for the shared cache, eq. 2–3
    /// for private caches (parallel blocks divided by m: the block mix of the master core).
    Paper,
    /// Instance counts of the mimicked traces themselves (all cores together), which is the
    /// block mix behind an aggregate hit rate over all cores' references.
    #[default]
    Mimicked,
}

/// Settings of the probabilistic profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfileConfig {
    /// Fraction of each block's windows sampled by Alg. 3 (the paper uses 1 %); 1.0 takes all.
    pub sample_rate: f64,
    /// At least this many windows are sampled per block (when it has that many). With the
    /// paper's gigabyte traces 1 % is thousands of windows; on small traces it is one or two,
    /// and the estimate of P(D|BB) gets noisy (several points of hit rate), so a floor keeps
    /// small runs honest while large ones sample at the rate.
    pub min_samples: u64,
    /// Seed of the window sampler.
    pub seed: u64,
    /// Block weights of eq. 4.
    pub weighting: BbWeighting,
    /// Multiply each block's probability by its references per instance, so that eq. 4 mixes
    /// per-reference distributions in proportion to references (with the literal eq. 1 a block
    /// with one access weighs as much as one with twenty).
    pub reference_weighted: bool,
}

impl Default for ProfileConfig {
    fn default() -> Self {
        ProfileConfig {
            sample_rate: 0.01,
            min_samples: 32,
            seed: 0x5a53_4d4d,
            weighting: BbWeighting::Mimicked,
            reference_weighted: true,
        }
    }
}

impl ProfileConfig {
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        if !(self.sample_rate > 0.0 && self.sample_rate <= 1.0) {
            return Err(SasmmError::Config(format!(
                "sample rate {} is not in (0, 1]",
                self.sample_rate
            )));
        }
        Ok(())
    }
}

/// P(BB_i) of eq. 1: instances of each block over all instances of the sequential run.
// See: SASMM eq. 1.
pub fn block_probabilities(seq: &SequentialTrace) -> Vec<f64> {
    probabilities_of(&seq.block_instances())
}

/// Block probabilities for a private cache of one of `cores` cores (eq. 2 for serial blocks,
/// eq. 3 for parallel ones).
// See: SASMM eq. 2-3.
pub fn private_block_probabilities(p: &[f64], parallel: &[bool], cores: usize) -> Vec<f64> {
    let m = cores.max(1) as f64;
    let serial: f64 = p.iter().zip(parallel).filter(|x| !*x.1).map(|x| x.0).sum();
    let par: f64 = p.iter().zip(parallel).filter(|x| *x.1).map(|x| x.0).sum();
    let z = serial + par / m;
    p.iter()
        .zip(parallel)
        .map(|(&pi, &is_par)| {
            if z == 0.0 {
                0.0
            } else if is_par {
                pi / m / z
            } else {
                pi / z
            }
        })
        .collect()
}

/// Windows chosen by Alg. 3's `random(bbi_wins, sample_size)`: for every block, about
/// `max(min_samples, ceil(rate × windows))` of its windows or more, uniformly, as the one-pass
/// [`WindowSampler`] draws them (see [`crate::sample`]).
// See: SASMM Alg. 3 lines 3-8.
pub fn sample_windows(seq: &SequentialTrace, rate: f64, min_samples: u64, seed: u64) -> Vec<bool> {
    let mut sampler = WindowSampler::new(rate, min_samples, seed, seq.num_blocks());
    let mut marks = Vec::new();
    sampler.mark(seq, &mut marks);
    let levels = sampler.sample_levels();
    seq.windows
        .iter()
        .zip(marks)
        .map(|(w, m)| m > levels[w.bb as usize])
        .collect()
}

/// What one pass over a set of LRU stacks yields.
#[derive(Clone, Debug, Default)]
pub struct StackProfile {
    /// Exact histogram per stack (per core for PRD, one for CRD).
    pub exact: Vec<Histogram>,
    /// Distances of the references in sampled windows, per block (Alg. 3 before normalising).
    pub conditional: Vec<Histogram>,
    /// References (lines) per block in the stream.
    pub references: Vec<u64>,
    /// Windows (block instances) per block in the stream.
    pub instances: Vec<u64>,
}

impl StackProfile {
    /// Empty profiles for `stacks` stacks and `blocks` block ids.
    pub(crate) fn new(stacks: usize, blocks: usize) -> Self {
        StackProfile {
            exact: vec![Histogram::new_exact(); stacks],
            conditional: vec![Histogram::new_exact(); blocks],
            references: vec![0; blocks],
            instances: vec![0; blocks],
        }
    }

    /// All stacks' histograms summed.
    pub fn exact_total(&self) -> Histogram {
        let mut h = Histogram::new_exact();
        for x in &self.exact {
            h.merge(x);
        }
        h
    }

    /// P(D) of eq. 4 from the conditional profiles and block weights `weights` (by block id;
    /// blocks without sampled references drop out and the rest are renormalised).
    // See: SASMM eq. 4 — P(D) = Σ_i P(BB_i) × P(D|BB_i).
    pub fn mixture(&self, weights: &[f64], reference_weighted: bool) -> Profile {
        let mut w: Vec<f64> = Vec::with_capacity(weights.len());
        for (bb, &p) in weights.iter().enumerate() {
            let usable = self.conditional[bb].total() > 0;
            let per_instance = if reference_weighted && self.instances[bb] > 0 {
                self.references[bb] as f64 / self.instances[bb] as f64
            } else {
                1.0
            };
            w.push(if usable { p * per_instance } else { 0.0 });
        }
        let z: f64 = w.iter().sum();
        let mut out = Profile::default();
        if z == 0.0 {
            return out;
        }
        for (bb, &wi) in w.iter().enumerate() {
            if wi > 0.0 {
                // See: SASMM Alg. 3 lines 15-17 — P(D|BB_i) = counts / len(reuse_dists).
                out.add_scaled(&Profile::from_histogram(&self.conditional[bb]), wi / z);
            }
        }
        out
    }
}

/// Records one reference's distance.
#[inline]
pub(crate) fn record(
    out: &mut StackProfile,
    stack: usize,
    bb: usize,
    sampled: bool,
    d: Option<u64>,
) {
    match d {
        Some(d) => out.exact[stack].add(d, 1),
        None => out.exact[stack].cold += 1,
    }
    out.references[bb] += 1;
    if sampled {
        // See: SASMM Alg. 3 lines 9-13 — rd of every reference of a sampled window.
        let h = &mut out.conditional[bb];
        match d {
            Some(d) => h.add(d, 1),
            None => h.cold += 1,
        }
    }
}

fn count_instances(trace: &MimickedTrace<'_>, out: &mut StackProfile) {
    for s in &trace.sections {
        for ws in &s.per_core {
            for &w in ws {
                let win = &trace.seq.windows[w as usize];
                if !win.continuation {
                    out.instances[win.bb as usize] += 1;
                }
            }
        }
    }
}

/// Private-stack reuse distances (PRD): one LRU stack per core over its private trace, at
/// `line` bytes per block.
pub fn private_profile(trace: &MimickedTrace<'_>, line: u32, sampled: &[bool]) -> StackProfile {
    let seq = trace.seq;
    let shift = line.max(1).trailing_zeros();
    let mut out = StackProfile::new(trace.cores(), seq.num_blocks());
    count_instances(trace, &mut out);
    for core in 0..trace.cores() {
        let mut stack = FrontedStack::default();
        trace.for_each_private_access(core, |w, addr, len| {
            let bb = seq.windows[w as usize].bb as usize;
            let s = sampled[w as usize];
            for_each_block(shift, addr, len as u64, |l| {
                record(&mut out, core, bb, s, stack.access(l));
            });
        });
    }
    out
}

/// Concurrent reuse distances (CRD): one LRU stack over the interleaved shared trace.
pub fn concurrent_profile(
    trace: &MimickedTrace<'_>,
    interleave: Interleave,
    line: u32,
    sampled: &[bool],
) -> StackProfile {
    let seq = trace.seq;
    let shift = line.max(1).trailing_zeros();
    let mut out = StackProfile::new(1, seq.num_blocks());
    count_instances(trace, &mut out);
    let mut stack = FrontedStack::default();
    for_each_shared_access(trace, interleave, |_core, w, addr, len| {
        let bb = seq.windows[w as usize].bb as usize;
        let s = sampled[w as usize];
        for_each_block(shift, addr, len as u64, |l| {
            record(&mut out, 0, bb, s, stack.access(l));
        });
    });
    out
}
