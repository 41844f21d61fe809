//! Ground truth from the trace of a real threaded run: per-thread PRD, CRD over the events
//! merged in stamp order, and an exact LRU simulation of a private L1 per thread and a shared
//! L2 ([`rdcachesim::CoherentHierarchy`]) giving measured hit rates.
//!
//! The simulation is coherent (write-invalidate between the private caches, on the run's own
//! interleaving) when the accesses say whether they write ([`Measurer::access_rw`],
//! [`measure_with`], [`ThreadMeasurer::with_options`]), and every cache's misses are split
//! into compulsory, capacity, conflict and coherence (true or false sharing), per thread and
//! per memory instruction. Fed reads only ([`Measurer::access`], [`measure`]) it is the
//! non-coherent simulation of [`rdcachesim::Hierarchy`], count for count.

mod chain;
mod measurer;
mod stacks;
mod threads;
pub use measurer::{Measurer, NO_MI};
pub use threads::ThreadMeasurer;

use crate::error::Result;
use crate::rates::{CoreRates, HitRates};
use rdcachesim::{CacheConfig, CacheCounts, LevelStats, MissKinds};
use rdengines::Histogram;
use rdtrace::Trace;
use serde::Serialize;

/// Caches of the simulated machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeasureConfig {
    /// Private L1 per thread.
    pub l1: CacheConfig,
    /// Shared L2.
    pub l2: CacheConfig,
}

impl Default for MeasureConfig {
    fn default() -> Self {
        MeasureConfig {
            l1: CacheConfig::default(),
            l2: CacheConfig::paper_l2(),
        }
    }
}

/// Options of a measurement beyond [`MeasureConfig`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeasureOptions {
    /// A shared L3; with one, the L2 becomes private per thread (private L1 and L2 per core, a
    /// shared L3, as most multicore machines have). `None`: private L1s and a shared L2.
    pub l3: Option<CacheConfig>,
}

/// One cache level of a [`Measurement`]: its counts (summed over the cores for a private
/// level) with the classes of its misses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelCounts {
    /// `L1`, `L2` or `L3`.
    pub level: &'static str,
    /// Whether each core has its own (`private`) or all share one (`shared`).
    pub sharing: &'static str,
    /// The geometry, as `SIZE:WAYS:LINE`.
    pub cache: String,
    /// Accesses, hits and the miss classes (compulsory, capacity, conflict, coherence, and the
    /// coherence misses' true/false sharing split).
    #[serde(flatten)]
    pub counts: CacheCounts,
}

/// Coherence misses (L1) of one memory instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MiCoherence {
    /// The memory instruction id.
    pub mi: u32,
    /// Its L1 coherence misses that touched bytes other threads wrote.
    pub true_sharing: u64,
    /// Its L1 coherence misses that touched none of them.
    pub false_sharing: u64,
    /// The threads (trace indices; a [`Measurer`] fed by hand: cores) that had them,
    /// ascending.
    pub threads: Vec<u32>,
}

/// Measured numbers of one real run.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// Threads that issued accesses (one core each).
    pub threads: usize,
    /// Line references issued (at the L1 line size).
    pub references: u64,
    /// Simulated L1 hit rate over all threads' references.
    pub l1_hit: f64,
    /// Simulated L1 counts per thread.
    pub l1_per_thread: Vec<LevelStats>,
    /// Simulated global L2 hit rate: 1 − L2 misses / references.
    pub l2_hit: f64,
    /// Simulated local L2 hit rate: L2 hits / L2 accesses.
    pub l2_local_hit: f64,
    /// Simulated global L2 hit rate (the same as `l2_hit`, under the name every report uses).
    pub l2_hit_global: f64,
    /// Simulated local L2 hit rate (the same as `l2_local_hit`, under the name every report
    /// uses).
    pub l2_hit_local: f64,
    /// L1 misses per 1000 line references.
    pub l1_mpka: f64,
    /// L2 misses per 1000 line references.
    pub l2_mpka: f64,
    /// OpenMP thread number of each simulated thread (index as in `l1_per_thread`): the
    /// `omp_thread` of its first region entry; `None` for a thread that entered no region (the
    /// initial thread outside every region is OpenMP thread 0, but is only named so when seen).
    pub omp_thread: Vec<Option<u32>>,
    /// Simulated L2 counts.
    pub l2: LevelStats,
    /// Eq. 7 over the real PRD (all threads): what the stack-distance model gives with a
    /// perfect profile.
    pub l1_hit_from_prd: f64,
    /// Eq. 7 over the real CRD.
    pub l2_hit_from_crd: f64,
    /// Each thread's counts and rates: its references, its private L1's hits and misses, the
    /// shared-L2 accesses its L1 misses caused and their hits. One entry per thread of the
    /// trace in thread-index order (a thread without accesses has zero counts); the counts add
    /// up to the combined ones (`references`, `l2`).
    pub per_thread: Vec<ThreadRates>,
    /// Each cache level, L1 first: counts and the 3C + coherence split of its misses. The
    /// private levels sum over the threads.
    pub levels: Vec<LevelCounts>,
    /// The shared L3 (when one was simulated; `l2` is then the private L2s summed).
    pub l3: Option<LevelStats>,
    /// Global L3 hit rate, 1 − L3 misses / references (with an L3).
    pub l3_hit_global: Option<f64>,
    /// Local L3 hit rate, L3 hits / L3 accesses (with an L3).
    pub l3_hit_local: Option<f64>,
    /// Each simulated thread's L1 misses by class (compulsory, capacity, conflict, coherence,
    /// true/false sharing), indexed as `l1_per_thread`.
    pub l1_misses_per_thread: Vec<MissKinds>,
    /// Each simulated thread's private-L2 misses by class, indexed as `l1_per_thread` (empty
    /// without an L3: the L2 is shared, its classes are in `levels`).
    pub l2_misses_per_thread: Vec<MissKinds>,
    /// L1 coherence misses per memory instruction (those with any), most first.
    pub coherence_by_mi: Vec<MiCoherence>,
    /// Per-thread PRD histograms (L1 lines).
    #[serde(skip)]
    pub prd: Vec<Histogram>,
    /// CRD histogram (L2 lines).
    #[serde(skip)]
    pub crd: Histogram,
}

/// One thread's measured counts and rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ThreadRates {
    /// The trace's thread index (a [`Measurer`] fed by hand: the core index).
    pub thread: u32,
    /// Its OpenMP thread number: the `omp_thread` of its first region entry (`None` when it
    /// entered no region).
    pub omp_thread: Option<u32>,
    /// Its counts and rates.
    #[serde(flatten)]
    pub rates: CoreRates,
}

/// Measures a real run: threads become cores in thread-index order, events are taken in the
/// order the stamps reconstruct ([`Trace::merged`]).
/// Every access is taken as a read, so the simulation is the non-coherent one of
/// [`rdcachesim::Hierarchy`]; [`measure_with`] knows writes from the trace's metadata.
pub fn measure(trace: &Trace, config: MeasureConfig) -> Result<Measurement> {
    measure_file(trace, ThreadMeasurer::new(config))
}

/// [`measure`] with write-invalidate coherence (each access's kind from the trace's metadata)
/// and options.
pub fn measure_with(
    trace: &Trace,
    config: MeasureConfig,
    options: MeasureOptions,
) -> Result<Measurement> {
    measure_file(
        trace,
        ThreadMeasurer::with_options(config, options, write_table(&trace.meta)),
    )
}

/// Runs a measurer over a trace file (its threads become the cores, in thread-index order).
/// Here rather than at the caller so that the pass is compiled with the simulation it drives.
pub fn measure_file(trace: &Trace, mut m: ThreadMeasurer) -> Result<Measurement> {
    m.set_threads(trace.thread_indices());
    Ok(rdtrace::analysis::run_digested(trace, m, |_| {})?)
}

/// Whether each memory instruction (by id) writes memory.
pub fn write_table(meta: &rdtrace::meta::ProgramMeta) -> Vec<bool> {
    meta.mem_instrs.iter().map(|m| m.kind.writes()).collect()
}

impl Measurement {
    /// The named rates ([`HitRates`]).
    pub fn rates(&self) -> HitRates {
        HitRates {
            l1_hit: self.l1_hit,
            l2_hit_global: self.l2_hit_global,
            l2_hit: self.l2_hit,
            l2_hit_local: self.l2_hit_local,
            l1_mpka: self.l1_mpka,
            l2_mpka: self.l2_mpka,
        }
    }

    /// Indices into `l1_per_thread` ordered by OpenMP thread number (threads without one last,
    /// in index order).
    pub fn threads_by_omp_number(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.l1_per_thread.len()).collect();
        idx.sort_by_key(|&i| {
            (
                self.omp_thread
                    .get(i)
                    .copied()
                    .flatten()
                    .unwrap_or(u32::MAX),
                i,
            )
        });
        idx
    }
}
