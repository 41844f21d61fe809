//! The exact model: hit rates of the *mimicked* traces (Alg. 1 private traces, Alg. 2 shared
//! trace) from set-aware LRU stack distances instead of the stack-distance formula (eq. 5–7).
//!
//! Eq. 5 assumes lines fall into sets uniformly at random; real caches index sets by address
//! bits, so a column walk with a power-of-two pitch, a blocked kernel or a stream just larger than
//! the cache behave differently from the formula. Here every reference gets its *per-set* LRU
//! stack distance: the number of distinct lines of the same set touched since its previous use.
//! In an A-way LRU cache with that set count the reference hits exactly when the distance is
//! below A, so one stack per set count answers every associativity at once ([`SetStacks`] keeps
//! each set's stack only as deep as the largest associativity asked for, which bounds its memory
//! by the cache size, not by the trace).
//!
//! The hierarchy is the one [`crate::measure`](mod@crate::measure) simulates: a private L1 per
//! core and a shared, non-inclusive L2 looked up on L1 misses only ([`rdcachesim::Hierarchy`]).
//! One pass over the
//! interleaved shared trace (streamed, never materialised) drives every core's L1 stacks in that
//! core's own order — which is its private trace — and feeds the L1 misses of each L1
//! configuration to that configuration's L2 stacks. The result equals an exact simulation of the
//! mimicked traces for every `(L1, L2)` pair asked for; what remains of the error against a real
//! run is the mimicking (Alg. 1–2) alone.
//!
//! **Coherence.** When the accesses' kinds are known (the `*_trace` entry points read them from
//! the trace's metadata; [`ExactRun::with_writes`] otherwise), the private L1s are kept
//! coherent by write-invalidate over the shared trace, as `measure` keeps the real run's
//! ([`rdcachesim::CoherentHierarchy`]): a write by one core drops the line from the other cores'
//! L1s, and their next reference to it is a coherence miss (true or false sharing by the bytes
//! written). The rule in stack-distance terms is exact, see [`MultiHierarchy::access_rw`].
//! What it assumes is the mimicking's: the cores write what the sequential run's iterations
//! wrote, interleaved one access at a time (round-robin) or at random within each round of
//! block instances, so it estimates the sharing of a fine-grained interleaving; code that
//! depends on the thread number (`omp_get_thread_num()`) runs as thread 0 on every core.
//! Every L1 and L2 miss of the hierarchies asked for is also classed compulsory, capacity,
//! conflict or coherence (the 3C split); the classes add up to the misses exactly.
//!
//! **Three levels.** With [`ExactConfig::l3`] the hierarchy is `measure --l3`'s: a private L1
//! and a private L2 per core and one shared L3. Each core's L2 stacks are fed that core's L1
//! misses (non-inclusive, as `CoherentHierarchy`), writes invalidate the other cores' L2 copies
//! by the same hole rule as their L1s', and the L3 stacks see the L2 misses
//! ([`MultiHierarchy::three_level`]); the result equals `measure --l3` on the mimicked trace.

mod coherence;
mod hierarchy;
mod l3;
mod private_l2;
mod set_stacks;
mod sim_thread;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod three_level_tests;

use crate::error::{Result, SasmmError};
use crate::interleave::{Interleave, Interleaver};
use crate::mimic::{MimicConfig, MimickedTrace};
use crate::par::par_map;
use crate::predict::{Prediction, SasmmConfig};
use crate::rates::{CoreCounts, CoreRates, HitRates};
use crate::seq::{Fragment, StreamLimits};
use crate::set_sample::{scaled, SetSample, SetSampleConfig};
use crate::window::SequentialTrace;
use rdcachesim::{CacheConfig, MissKinds};
use rdtrace::Trace;
use serde::Serialize;

pub use hierarchy::MultiHierarchy;
pub use l3::{L3Counts, L3Prediction};
pub use set_stacks::SetStacks;
use sim_thread::Sim;

/// Settings of the exact model.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactConfig {
    /// Private L1 configurations (each core has one of each).
    pub l1: Vec<CacheConfig>,
    /// Shared L2 configurations; every L1 × L2 pair is a hierarchy. With [`Self::l3`]: the
    /// one private L2 per core.
    pub l2: Vec<CacheConfig>,
    /// Alg. 1 settings (`cores` is set per prediction).
    pub mimic: MimicConfig,
    /// Alg. 2 strategy.
    pub interleave: Interleave,
    /// Cache sizes (bytes) of a miss-ratio curve; empty for none. Each size is a private cache
    /// with the first L1's associativity and line (fewer ways if it has fewer lines) and a
    /// shared cache with the first L2's.
    pub mrc: Vec<u64>,
    /// Simulate only a random subset of the sets and scale ([`crate::set_sample`]); `None`:
    /// every set (exact).
    pub set_sample: Option<SetSampleConfig>,
    /// When a streamed trace hands fragments over and spills parallel ones to disk (the
    /// `*_trace` entry points; the CLI sets the spill threshold from `RDTOOLS_SPILL_ACCESSES`).
    pub limits: StreamLimits,
    /// Keep the private L1s coherent by write-invalidate (when the accesses' kinds are known);
    /// `false`: every access counts as a read (the model before coherence).
    pub coherence: bool,
    /// Class every L1 and L2 miss of the hierarchies asked for as compulsory, capacity,
    /// conflict or coherence (a fully associative LRU shadow per cache: about 1.6x the time of
    /// the model without it); `false`: only the coherence misses are counted (they need no
    /// shadow).
    pub classify_misses: bool,
    /// A shared L3: the hierarchy gets three levels, a private L1 and a private L2 per core
    /// (then exactly one of each, of the same line size) and this L3 behind them, as `measure
    /// --l3` simulates; a miss-ratio curve's shared caches take its ways and line. `None`:
    /// private L1s and shared L2s.
    pub l3: Option<CacheConfig>,
}

impl Default for ExactConfig {
    /// The paper's caches (L1 8K:8:64, L2 128K:16:64), round-robin interleaving, no curve.
    fn default() -> Self {
        ExactConfig {
            l1: vec![CacheConfig::default()],
            l2: vec![CacheConfig::paper_l2()],
            mimic: MimicConfig::default(),
            interleave: Interleave::RoundRobin,
            mrc: Vec::new(),
            set_sample: None,
            limits: StreamLimits::default(),
            coherence: true,
            classify_misses: false,
            l3: None,
        }
    }
}

/// Exact rates of one L1 + L2 hierarchy on the mimicked traces.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HierarchyPrediction {
    /// The private L1.
    pub l1: CacheConfig,
    /// The shared L2 (the private L2 with three levels, see `l3`).
    pub l2: CacheConfig,
    /// The rates (per line reference at the L1's line size).
    #[serde(flatten)]
    pub rates: HitRates,
    /// Line references of all cores at the L1's line size (scaled to all sets when sampled).
    pub references: u64,
    /// L1 hit rate per core.
    pub l1_hit_per_core: Vec<f64>,
    /// Each core's counts and rates, cores `0..m` (a core with no reference has zero counts
    /// and rates): its references, L1 hits and misses, the shared-L2 accesses its L1 misses
    /// cause and their hits. The counts add up to the combined counts and `rates` is the rate
    /// of their sum (the reference-weighted combination of the per-core rates). When
    /// set-sampled, each count is scaled like `references` (the sums may then differ from the
    /// scaled totals by rounding) and the rates are those of the simulated sets.
    pub per_core: Vec<CoreRates>,
    /// Fraction of the sets simulated when set-sampled (the rates are those of these sets, the
    /// references are scaled by its inverse); absent when every set was simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_rate: Option<f64>,
    /// The L1 misses of all cores by class. With [`ExactConfig::classify_misses`]:
    /// compulsory + capacity + conflict + coherence = L1 misses (references − L1 hits); without,
    /// only `coherence` (and its split) is counted, the other classes are 0. Always
    /// coherence = true + false sharing. Scaled like `references` when set-sampled.
    pub l1_misses: MissKinds,
    /// The shared L2's misses by class (coherence is 0: the shared level is never
    /// invalidated); with [`ExactConfig::classify_misses`] they add up to the L2 misses, else
    /// all 0. With three levels, the private L2s' (their coherence misses always counted).
    pub l2_misses: MissKinds,
    /// Whether `l1_misses` and `l2_misses` hold the whole 3C split
    /// ([`ExactConfig::classify_misses`]).
    pub misses_classified: bool,
    /// Each core's L1 misses by class, cores `0..m`.
    pub l1_misses_per_core: Vec<MissKinds>,
    /// With three levels ([`ExactConfig::l3`]): the shared L3. `l2` is then the private L2,
    /// the L2 counts and rates (`rates`, `per_core`, `l2_misses`) are the private L2s' summed
    /// over the cores, as `measure --l3` reports them, and `l2_misses` has their coherence
    /// misses. Absent with two levels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l3: Option<L3Prediction>,
}

/// One point of a miss-ratio curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MrcPoint {
    /// Capacity in bytes.
    pub size: u64,
    /// The private cache of this size (one per core over its private trace).
    pub private: CacheConfig,
    /// Misses / references of the private caches, all cores together.
    pub private_miss_ratio: f64,
    /// The shared cache of this size (over the interleaved trace, no L1 in front).
    pub shared: CacheConfig,
    /// Misses / references of the shared cache.
    pub shared_miss_ratio: f64,
    /// Fraction of the private cache's sets simulated, when set-sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_sample_rate: Option<f64>,
    /// Fraction of the shared cache's sets simulated, when set-sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_sample_rate: Option<f64>,
}

/// The exact model's answer for one core count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactPrediction {
    /// Number of cores m.
    pub cores: usize,
    /// One entry per L1 × L2 pair, L1-major (`l1[0]` with every L2, then `l1[1]`, …).
    pub hierarchies: Vec<HierarchyPrediction>,
    /// The miss-ratio curve (empty unless sizes were asked for).
    pub mrc: Vec<MrcPoint>,
}

/// `cache` shrunk or grown to `size` bytes, keeping its line and (at most) its associativity.
pub fn resized(cache: &CacheConfig, size: u64) -> Result<CacheConfig> {
    let line = cache.line as u64;
    let lines = (size / line).max(1);
    let ways = (cache.ways as u64).min(lines);
    CacheConfig::new(size, ways as u32, cache.line).map_err(|e| SasmmError::Config(e.to_string()))
}

/// Powers of two from 1 KiB to four times the largest of `caches`: the default sizes of a
/// miss-ratio curve.
pub fn default_mrc_sizes(caches: &[CacheConfig]) -> Vec<u64> {
    let top = 4 * caches.iter().map(|c| c.size).max().unwrap_or(128 << 10);
    let mut s = 1u64 << 10;
    let mut out = Vec::new();
    while s <= top {
        out.push(s);
        s <<= 1;
    }
    out
}

/// Exact hit rates of the mimicked traces of `cores` cores for every hierarchy and curve point
/// of `config`, in one streamed pass over the interleaved trace. A [`SequentialTrace`] does not
/// say which accesses write, so every access reads here (no coherence misses); the `*_trace`
/// entry points and [`ExactRun::with_writes`] know the kinds.
pub fn predict_exact(
    seq: &SequentialTrace,
    config: &ExactConfig,
    cores: usize,
) -> Result<ExactPrediction> {
    let mut run = ExactRun::new(config, cores)?;
    run.feed(seq);
    Ok(run.finish())
}

/// [`predict_exact`] straight from the trace file of a sequential run, in one streamed pass
/// ([`SequentialTrace::stream_with`] with `config.limits`): memory is the caches' stacks and at
/// most the spill threshold of a parallel section ([`crate::spill`]), not the trace. Equal to
/// `predict_exact(&SequentialTrace::from_trace(trace)?, ..)`.
pub fn predict_exact_trace(
    trace: &Trace,
    config: &ExactConfig,
    cores: usize,
) -> Result<ExactPrediction> {
    Ok(predict_exact_many_trace(trace, config, &[cores])?
        .pop()
        .expect("one prediction per core count"))
}

/// [`predict_exact_trace`] for several core counts in one streamed pass over the file: every
/// fragment is decoded once and fed to one [`ExactRun`] per core count (in parallel when there
/// are several, see [`feed_all`]); results in the order of `cores`. Settings are checked before
/// the trace is read.
pub fn predict_exact_many_trace(
    trace: &Trace,
    config: &ExactConfig,
    cores: &[usize],
) -> Result<Vec<ExactPrediction>> {
    let mut runs = trace_runs(trace, config, cores)?;
    crate::seq::stream_pipelined(trace, config.limits, &mut runs, &|runs, f| {
        feed_all(runs, f)
    })?;
    Ok(runs.into_iter().map(ExactRun::finish).collect())
}

/// The formula model ([`predict_many_trace`](crate::formula::predict_many_trace) of `configs`)
/// and the exact model ([`predict_exact_many_trace`] of `exact`) for the same core counts, the
/// exact runs fed the formula model's second pass beside its own runs when both stream with the
/// same limits (one pass less over the file; the fragments, hence the predictions, are those of
/// its own pass), else in a pass of their own after it. Settings are checked before the trace
/// is read.
pub fn predict_both_many_trace(
    trace: &Trace,
    configs: &[SasmmConfig],
    exact: &ExactConfig,
    cores: &[usize],
) -> Result<(Vec<Vec<Prediction>>, Vec<ExactPrediction>)> {
    let same_limits = configs.first().map(|c| c.limits) == Some(exact.limits);
    if !same_limits {
        let formula = crate::formula::predict_many_trace(trace, configs, cores)?;
        return Ok((formula, predict_exact_many_trace(trace, exact, cores)?));
    }
    let mut runs = trace_runs(trace, exact, cores)?;
    let formula = crate::formula::predict_many_trace_beside(
        trace,
        configs,
        cores,
        &mut runs,
        Some(&|runs: &mut Vec<ExactRun>, f| feed_all(runs, f)),
    )?;
    Ok((formula, runs.into_iter().map(ExactRun::finish).collect()))
}

/// One run per core count of `cores` for a pass over `trace`: the accesses' kinds from its
/// metadata, and the stacks on threads of their own ([`ExactRun::with_stacks_thread`]) when
/// there are at least two CPUs per run: with fewer, the runs (fed in parallel, see
/// [`feed_all`]) and the trace's decoding keep the CPUs busy already, and the batches would
/// only add their copying.
fn trace_runs(trace: &Trace, config: &ExactConfig, cores: &[usize]) -> Result<Vec<ExactRun>> {
    let writes = crate::measure::write_table(&trace.meta);
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    let threaded = cpus >= 2 * cores.len();
    cores
        .iter()
        .map(|&m| {
            let run = ExactRun::new(config, m)?.with_writes(writes.clone());
            Ok(if threaded {
                run.with_stacks_thread()
            } else {
                run
            })
        })
        .collect()
}

/// Feeds one streamed fragment to every run (one per core count), each run on a thread of the
/// pool when there are several: the runs are independent, so each sees the fragments in order
/// as it would alone, and the fragment is decoded once for all of them.
pub fn feed_all(runs: &mut [ExactRun], fragment: Fragment<'_>) -> Result<()> {
    use rayon::prelude::*;
    match runs {
        [] => Ok(()),
        [run] => run.feed_fragment(fragment),
        _ => runs
            .par_iter_mut()
            .try_for_each(|run| run.feed_fragment(fragment)),
    }
}

/// The exact model for one core count, fed the sequential trace whole or in fragments.
pub struct ExactRun {
    cores: usize,
    mimic: MimicConfig,
    interleaver: Interleaver,
    l1: Vec<CacheConfig>,
    l2: Vec<(Option<usize>, CacheConfig)>,
    /// L1 x L2 pairs asked for (the first entries of `l2`).
    pairs: usize,
    /// Curve points: (size, L1 index, private cache, L2 index, shared cache).
    curve: Vec<(u64, usize, CacheConfig, usize, CacheConfig)>,
    sim: Sim,
    /// Whether each memory instruction (by id) writes; empty: every access reads.
    writes: Vec<bool>,
    /// [`ExactConfig::coherence`].
    coherence: bool,
    /// Three levels: the private L2 (the shared caches of `l2` are then L3s).
    private_l2: Option<CacheConfig>,
}

impl ExactRun {
    /// Checks `config` and sets up the stacks for `cores` cores.
    pub fn new(config: &ExactConfig, cores: usize) -> Result<Self> {
        if config.l1.is_empty() || config.l2.is_empty() {
            return Err(SasmmError::Config(
                "the exact model needs at least one L1 and one L2".into(),
            ));
        }
        let mimic = MimicConfig {
            cores,
            ..config.mimic
        };
        // Alg. 1's settings are checked once, before anything is read.
        MimickedTrace::build(&SequentialTrace::default(), mimic)?;
        // The shared level: the L2s, or with three levels the L3 (the L2 is private).
        let shared_levels = match config.l3 {
            None => config.l2.clone(),
            Some(l3) => {
                if config.l1.len() != 1 || config.l2.len() != 1 {
                    return Err(SasmmError::Config(
                        "with an L3 the exact model takes one L1 and one (private) L2".into(),
                    ));
                }
                vec![l3]
            }
        };
        let mut l1 = config.l1.clone();
        let mut l2: Vec<(Option<usize>, CacheConfig)> = Vec::new();
        for i in 0..config.l1.len() {
            for c in &shared_levels {
                l2.push((Some(i), *c));
            }
        }
        let pairs = l2.len();
        let mut curve = Vec::with_capacity(config.mrc.len());
        for &size in &config.mrc {
            let private = resized(&config.l1[0], size)?;
            let shared = resized(&shared_levels[0], size)?;
            curve.push((size, l1.len(), private, l2.len(), shared));
            l1.push(private);
            l2.push((None, shared));
        }
        let private_l2 = config.l3.map(|_| config.l2[0]);
        let mut sim = match private_l2 {
            None => MultiHierarchy::sampled(&l1, &l2, config.set_sample.as_ref())?,
            Some(p) => MultiHierarchy::three_level(&l1, p, &l2, config.set_sample.as_ref())?,
        };
        if config.classify_misses {
            sim.classify(config.l1.len(), pairs);
        }
        Ok(ExactRun {
            cores,
            mimic,
            interleaver: Interleaver::new(config.interleave),
            l1,
            l2,
            pairs,
            curve,
            sim: Sim::Inline(sim),
            writes: Vec::new(),
            coherence: config.coherence,
            private_l2,
        })
    }

    /// Simulates the stacks on a thread of their own, fed batches of the shared trace's
    /// references (see `sim_thread`): the same counts, in about the time of the slower of the
    /// simulation and the rest of the run, given a spare CPU. Stays as it is when the thread
    /// cannot start.
    pub fn with_stacks_thread(mut self) -> Self {
        if let Sim::Inline(sim) = self.sim {
            self.sim = Sim::threaded(sim);
        }
        self
    }

    /// Tells the run which memory instructions (by id) write (e.g.
    /// [`crate::measure::write_table`] of the trace's metadata), so that the private L1s are
    /// kept coherent by write-invalidate (unless [`ExactConfig::coherence`] is off). Without
    /// it every access reads.
    pub fn with_writes(mut self, writes: Vec<bool>) -> Self {
        if self.coherence {
            self.writes = writes;
        }
        self
    }

    /// Runs the next part of the sequential trace (the whole trace, or the next fragment of
    /// [`SequentialTrace::stream`]) through the caches.
    pub fn feed(&mut self, seq: &SequentialTrace) {
        let mimic = MimickedTrace::build(seq, self.mimic).expect("settings checked in new");
        self.feed_mimicked(&mimic);
    }

    /// Runs the next streamed fragment, held or spilled, through the caches.
    pub fn feed_fragment(&mut self, fragment: Fragment<'_>) -> Result<()> {
        match fragment {
            Fragment::Memory(seq) => {
                self.feed(seq);
                Ok(())
            }
            Fragment::Spilled(s) => {
                s.for_each_batch(self.mimic, None, |t, _| self.feed_mimicked(t))
            }
        }
    }

    fn feed_mimicked(&mut self, mimic: &MimickedTrace<'_>) {
        let sim = &mut self.sim;
        // See: SASMM Alg. 2 — the shared trace, streamed; each core's subsequence is its private
        // trace (Alg. 1), which is all its private L1 sees. Writes invalidate the other cores'
        // copies in that order.
        if self.writes.is_empty() {
            self.interleaver.feed(mimic, |core, _w, addr, len| {
                sim.access_rw(core, addr, len as u64, false)
            });
        } else {
            let writes = &self.writes;
            self.interleaver
                .feed_with_mi(mimic, |core, _w, addr, len, mi| {
                    let write = writes.get(mi as usize).copied().unwrap_or(false);
                    sim.access_rw(core, addr, len as u64, write)
                });
        }
    }

    /// The rates of every hierarchy and curve point.
    pub fn finish(self) -> ExactPrediction {
        let ExactRun {
            cores,
            l1,
            l2,
            pairs,
            curve,
            sim,
            private_l2,
            ..
        } = self;
        let sim = sim.finish();
        let mut hierarchies = Vec::with_capacity(pairs);
        for (j, &(behind, l2c)) in l2[..pairs].iter().enumerate() {
            let i = behind.expect("pairs are behind an L1");
            let (refs, hits) = sim.l1_counts(i);
            let sample = sim.l1_sample(i);
            let counts = sim.core_counts(i, j);
            let per_core = (0..cores)
                .map(|c| {
                    let n = counts.get(c).copied().unwrap_or_default();
                    let rates = n.rates();
                    let counts = match sample {
                        None => n,
                        Some(s) => CoreCounts::new(
                            s.scale(n.references),
                            s.scale(n.l1_hits),
                            s.scale(n.l2_hits),
                        ),
                    };
                    CoreRates { counts, rates }
                })
                .collect();
            let scale_kinds = |k: &MissKinds| match sample {
                None => *k,
                Some(s) => MissKinds {
                    compulsory: s.scale(k.compulsory),
                    capacity: s.scale(k.capacity),
                    conflict: s.scale(k.conflict),
                    coherence: s.scale(k.coherence),
                    true_sharing: s.scale(k.true_sharing),
                    false_sharing: s.scale(k.false_sharing),
                },
            };
            let summed = |per: &[MissKinds]| {
                let mut t = MissKinds::default();
                per.iter().for_each(|k| t.add(k));
                scale_kinds(&t)
            };
            let l1_misses_per_core: Vec<MissKinds> = (0..cores)
                .map(|c| scale_kinds(&sim.l1_miss_kinds(i).get(c).copied().unwrap_or_default()))
                .collect();
            let (l2, l2_misses, l3) = match private_l2 {
                None => (l2c, summed(sim.l2_miss_kinds(j)), None),
                Some(p) => {
                    let private = sim.l2_private_miss_kinds().unwrap_or_default();
                    let l3 = l3::l3_prediction(&sim, j, l2c, cores, sample, &scale_kinds);
                    (p, summed(private), Some(l3))
                }
            };
            hierarchies.push(HierarchyPrediction {
                l1_misses: summed(sim.l1_miss_kinds(i)),
                l2_misses,
                l1_misses_per_core,
                misses_classified: sim.l1_classified(i),
                l1: l1[i],
                l2,
                l3,
                rates: sim.rates(i, j),
                references: scaled(sample, refs.iter().sum()),
                sample_rate: sample.map(SetSample::rate),
                l1_hit_per_core: refs
                    .iter()
                    .zip(hits)
                    .map(|(&r, &h)| if r == 0 { 0.0 } else { h as f64 / r as f64 })
                    .collect(),
                per_core,
            });
        }
        let ratio = |miss: u64, refs: u64| {
            if refs == 0 {
                0.0
            } else {
                miss as f64 / refs as f64
            }
        };
        let mrc = curve
            .into_iter()
            .map(|(size, i, private, j, shared)| {
                let (refs, hits) = sim.l1_counts(i);
                let (r, h) = (refs.iter().sum::<u64>(), hits.iter().sum::<u64>());
                let (a2, h2) = sim.l2_counts(j);
                MrcPoint {
                    size,
                    private,
                    private_miss_ratio: ratio(r - h, r),
                    shared,
                    shared_miss_ratio: ratio(a2 - h2, a2),
                    private_sample_rate: sim.l1_sample(i).map(SetSample::rate),
                    shared_sample_rate: sim.l2_sample(j).map(SetSample::rate),
                }
            })
            .collect();
        ExactPrediction {
            cores,
            hierarchies,
            mrc,
        }
    }
}
/// [`predict_exact`] for several core counts (in parallel); results in the order of `cores`.
pub fn predict_exact_many(
    seq: &SequentialTrace,
    config: &ExactConfig,
    cores: &[usize],
) -> Result<Vec<ExactPrediction>> {
    par_map(cores, |&m| predict_exact(seq, config, m))
        .into_iter()
        .collect()
}
