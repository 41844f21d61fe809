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

use crate::error::Result;
use crate::model::Profile;
use crate::rates::{CoreCounts, CoreRates, HitRates};
use rdcachesim::{
    CacheConfig, CacheCounts, CoherentHierarchy, LevelStats, MissKind, MissKinds, Served, Sharing,
};
use rdengines::accum::DenseHist;
use rdengines::{FrontedStack, Histogram};
use rdtrace::{Event, Trace};
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

/// Accumulates a measurement from accesses in global order.
pub struct Measurer {
    config: MeasureConfig,
    options: MeasureOptions,
    hierarchy: CoherentHierarchy,
    /// L1 coherence misses per memory instruction: (true, false, cores).
    by_mi: std::collections::HashMap<u32, (u64, u64, Vec<u32>)>,
    prd: Vec<(FrontedStack, DenseHist)>,
    crd: (FrontedStack, DenseHist),
    /// Per core: L2 hits of the accesses its L1 misses caused.
    l2_hits: Vec<u64>,
    /// Per core: the L1 line it accessed last ([`NO_LINE`] before its first access).
    last_l1: Vec<u64>,
    /// The L2-sized line the whole run accessed last (the CRD stack's top).
    last_l2: u64,
    /// While one core only has accessed and the L1 and L2 lines are equal, that core: the CRD
    /// is then its PRD (the same lines in the same order) and is not computed twice; the CRD
    /// starts as a copy of that PRD when a second core accesses.
    solo: Option<usize>,
    /// Whether any access came yet.
    started: bool,
}

/// No line yet (line numbers are addresses shifted right, never all ones).
const NO_LINE: u64 = u64::MAX;

/// The memory instruction of an access fed without one ([`Measurer::access`]).
pub const NO_MI: u32 = u32::MAX;

/// Counts a distance (`None`: a first touch) into a flat accumulator (a `Histogram`'s map would
/// cost a tree walk per reference).
#[inline]
fn add(h: &mut DenseHist, d: Option<u64>) {
    match d {
        Some(d) => h.add(d),
        None => h.cold += 1,
    }
}

impl Measurer {
    /// An empty measurement.
    pub fn new(config: MeasureConfig) -> Self {
        Self::with_options(config, MeasureOptions::default())
    }

    /// An empty measurement with options (a shared L3).
    pub fn with_options(config: MeasureConfig, options: MeasureOptions) -> Self {
        Measurer {
            config,
            options,
            hierarchy: CoherentHierarchy::new(config.l1, config.l2, options.l3),
            by_mi: Default::default(),
            prd: Vec::new(),
            crd: (FrontedStack::default(), DenseHist::default()),
            l2_hits: Vec::new(),
            last_l1: Vec::new(),
            last_l2: NO_LINE,
            solo: None,
            started: false,
        }
    }

    /// Whether the CRD is still core `core`'s PRD (see `solo`); ends that when another core
    /// accesses.
    #[inline]
    fn crd_is_prd_of(&mut self, core: usize) -> bool {
        match self.solo {
            Some(c) if c == core => true,
            Some(c) => {
                self.crd = self.prd[c].clone();
                self.solo = None;
                false
            }
            None if !self.started => {
                self.started = true;
                if self.config.l1.line_shift() == self.config.l2.line_shift() {
                    self.solo = Some(core);
                }
                self.solo.is_some()
            }
            None => false,
        }
    }

    /// One read of `len` bytes at `addr` by core `core` (no memory instruction).
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        self.access_rw(core, NO_MI, addr, len, false);
    }

    /// One access of `len` bytes at `addr` by core `core`, made by memory instruction `mi`
    /// ([`NO_MI`] for none); `write`: whether it writes (a write invalidates the line in the
    /// other cores' private caches).
    #[inline]
    pub fn access_rw(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        while self.prd.len() <= core {
            self.prd
                .push((FrontedStack::default(), DenseHist::default()));
            self.l2_hits.push(0);
            self.last_l1.push(NO_LINE);
        }
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let (s1, s2) = (self.config.l1.line_shift(), self.config.l2.line_shift());
        let (line1, line2) = (addr >> s1, addr >> s2);
        let one_line = last_byte >> s1 == line1 && last_byte >> s2 == line2;
        let crd_is_prd = self.crd_is_prd_of(core);
        if one_line && self.last_l1[core] == line1 {
            // The line this core touched last, again: PRD distance 0 (its PRD stack sees only
            // its own accesses), and an L1 hit that moves nothing unless another core's write
            // invalidated the line meanwhile or this write must invalidate other copies.
            if !self.hierarchy.try_repeat(core, line1, write) {
                self.simulate(core, mi, addr, len, write);
            }
            self.prd[core].1.add(0);
            if crd_is_prd {
            } else if self.last_l2 == line2 {
                self.crd.1.add(0);
            } else {
                add(&mut self.crd.1, self.crd.0.access(line2));
                self.last_l2 = line2;
            }
            return;
        }
        self.last_l1[core] = last_byte >> s1;
        self.last_l2 = last_byte >> s2;
        self.simulate(core, mi, addr, len, write);
        let (stack, h) = &mut self.prd[core];
        self.config
            .l1
            .for_each_line(addr, len, |l| add(h, stack.access(l)));
        if !crd_is_prd {
            let (stack, h) = &mut self.crd;
            self.config
                .l2
                .for_each_line(addr, len, |l| add(h, stack.access(l)));
        }
    }

    /// The cache simulation of one access (the slow path).
    fn simulate(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        // Each L2 access is the L1 miss of this core: its hit counts for this core.
        let l2_hits = &mut self.l2_hits[core];
        let by_mi = &mut self.by_mi;
        self.hierarchy.access_with(core, addr, len, write, |o| {
            if o.served == Served::L2 {
                *l2_hits += 1;
            }
            if let Some(MissKind::Coherence(s)) = o.l1_miss {
                let e = by_mi.entry(mi).or_default();
                match s {
                    Sharing::True => e.0 += 1,
                    Sharing::False => e.1 += 1,
                }
                if !e.2.contains(&(core as u32)) {
                    e.2.push(core as u32);
                }
            }
        });
    }

    /// The results.
    pub fn finish(self) -> Measurement {
        let full = self.hierarchy.stats();
        let l1_per_thread: Vec<LevelStats> = full.l1.iter().map(|c| c.stats).collect();
        let private_l2 = !full.l2_private.is_empty();
        let l2 = if private_l2 {
            let mut t = LevelStats::default();
            for c in &full.l2_private {
                t.add(&c.stats);
            }
            t
        } else {
            full.shared.stats
        };
        let stats = rdcachesim::HierarchyStats {
            l1: l1_per_thread,
            l2,
        };
        let l1 = stats.l1_total();
        let rates = HitRates::from_counts(l1.accesses, l1.hits, stats.l2.hits);
        let sum = |v: &[CacheCounts]| {
            let mut t = CacheCounts::default();
            for c in v {
                t.add(c);
            }
            t
        };
        let mut levels = vec![LevelCounts {
            level: "L1",
            sharing: "private",
            cache: self.config.l1.to_string(),
            counts: sum(&full.l1),
        }];
        let (mut l3, mut l3_hit_global, mut l3_hit_local) = (None, None, None);
        match self.options.l3 {
            Some(c3) => {
                levels.push(LevelCounts {
                    level: "L2",
                    sharing: "private",
                    cache: self.config.l2.to_string(),
                    counts: sum(&full.l2_private),
                });
                levels.push(LevelCounts {
                    level: "L3",
                    sharing: "shared",
                    cache: c3.to_string(),
                    counts: full.shared,
                });
                let s3 = full.shared.stats;
                l3 = Some(s3);
                l3_hit_local = Some(s3.hit_rate());
                l3_hit_global = Some(if l1.accesses == 0 {
                    0.0
                } else {
                    1.0 - s3.misses() as f64 / l1.accesses as f64
                });
            }
            None => levels.push(LevelCounts {
                level: "L2",
                sharing: "shared",
                cache: self.config.l2.to_string(),
                counts: full.shared,
            }),
        }
        let mut coherence_by_mi: Vec<MiCoherence> = self
            .by_mi
            .into_iter()
            .map(|(mi, (t, f, mut cores))| {
                cores.sort_unstable();
                MiCoherence {
                    mi,
                    true_sharing: t,
                    false_sharing: f,
                    threads: cores,
                }
            })
            .collect();
        coherence_by_mi
            .sort_by_key(|m| (std::cmp::Reverse(m.true_sharing + m.false_sharing), m.mi));
        let crd = match self.solo {
            Some(c) => self.prd[c].1.clone(),
            None => self.crd.1,
        }
        .into_histogram(None, true);
        let prd: Vec<Histogram> = self
            .prd
            .into_iter()
            .map(|(_, h)| h.into_histogram(None, true))
            .collect();
        let mut all = Histogram::new_exact();
        for h in &prd {
            all.merge(h);
        }

        let per_thread = stats
            .l1
            .iter()
            .enumerate()
            .map(|(core, s)| ThreadRates {
                thread: core as u32,
                omp_thread: None,
                rates: CoreCounts::new(
                    s.accesses,
                    s.hits,
                    self.l2_hits.get(core).copied().unwrap_or(0),
                )
                .into(),
            })
            .collect();
        let l1_misses_per_thread = full.l1.iter().map(|c| c.misses).collect();
        let l2_misses_per_thread = full.l2_private.iter().map(|c| c.misses).collect();
        Measurement {
            threads: stats.l1.iter().filter(|s| s.accesses > 0).count(),
            references: stats.references(),
            l1_hit: stats.l1_hit_rate(),
            l1_per_thread: stats.l1.clone(),
            l2_hit: stats.l2_global_hit_rate(),
            l2_local_hit: stats.l2_local_hit_rate(),
            l2_hit_global: rates.l2_hit_global,
            l2_hit_local: rates.l2_hit_local,
            l1_mpka: rates.l1_mpka,
            l2_mpka: rates.l2_mpka,
            omp_thread: vec![None; stats.l1.len()],
            l2: stats.l2,
            per_thread,
            levels,
            l3,
            l3_hit_global,
            l3_hit_local,
            coherence_by_mi,
            l1_misses_per_thread,
            l2_misses_per_thread,
            l1_hit_from_prd: Profile::from_histogram(&all).hit_rate(&self.config.l1),
            l2_hit_from_crd: Profile::from_histogram(&crd).hit_rate(&self.config.l2),
            prd,
            crd,
        }
    }
}

/// Measures a real run: threads become cores in thread-index order, events are taken in the
/// order the stamps reconstruct ([`Trace::merged`]).
/// Every access is taken as a read, so the simulation is the non-coherent one of
/// [`rdcachesim::Hierarchy`]; [`measure_with`] knows writes from the trace's metadata.
pub fn measure(trace: &Trace, config: MeasureConfig) -> Result<Measurement> {
    let mut m = ThreadMeasurer::new(config);
    for r in trace.merged()? {
        let (t, e) = r?;
        m.event(t, &e);
    }
    Ok(m.finish(&trace.thread_indices()))
}

/// [`measure`] with write-invalidate coherence (each access's kind from the trace's metadata)
/// and options.
pub fn measure_with(
    trace: &Trace,
    config: MeasureConfig,
    options: MeasureOptions,
) -> Result<Measurement> {
    let mut m = ThreadMeasurer::with_options(config, options, write_table(&trace.meta));
    for r in trace.merged()? {
        let (t, e) = r?;
        m.event(t, &e);
    }
    Ok(m.finish(&trace.thread_indices()))
}

/// Whether each memory instruction (by id) writes memory.
pub fn write_table(meta: &rdtrace::meta::ProgramMeta) -> Vec<bool> {
    meta.mem_instrs.iter().map(|m| m.kind.writes()).collect()
}

/// [`measure`] fed one event at a time, for a run whose thread list is known only at its end
/// (a stream): each thread is simulated on a core of its own from its first access, and
/// [`ThreadMeasurer::finish`] renumbers the cores into thread-index order. The simulated cores
/// are independent (a private L1 each; the shared L2 sees the accesses in event order,
/// whatever their core), so the result is the one [`measure`] gives for the same events.
pub struct ThreadMeasurer {
    m: Measurer,
    /// Core of each thread that made an access.
    cores: std::collections::BTreeMap<u32, usize>,
    /// OpenMP thread number of each thread's first region entry.
    omp: std::collections::BTreeMap<u32, u32>,
    /// Whether each memory instruction writes (empty: every access reads).
    writes: Vec<bool>,
}

/// [`ThreadMeasurer::of_thread`]'s visitor.
pub struct OneThread<'a> {
    m: &'a mut ThreadMeasurer,
    t: u32,
    /// The thread's core, once it has one.
    core: Option<usize>,
}

impl rdtrace::EventVisitor for OneThread<'_> {
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        let core = match self.core {
            Some(c) => c,
            None => {
                let next = self.m.cores.len();
                let c = *self.m.cores.entry(self.t).or_insert(next);
                self.core = Some(c);
                c
            }
        };
        let write = self.m.writes(mi);
        self.m.m.access_rw(core, mi, addr, len, write);
    }

    fn other(&mut self, e: Event) {
        self.m.event(self.t, &e);
    }
}

impl ThreadMeasurer {
    /// An empty measurement.
    pub fn new(config: MeasureConfig) -> Self {
        Self::with_options(config, MeasureOptions::default(), Vec::new())
    }

    /// An empty measurement with options, coherent: `writes` says whether each memory
    /// instruction writes ([`write_table`]; an id beyond it reads).
    pub fn with_options(config: MeasureConfig, options: MeasureOptions, writes: Vec<bool>) -> Self {
        ThreadMeasurer {
            m: Measurer::with_options(config, options),
            cores: Default::default(),
            omp: Default::default(),
            writes,
        }
    }

    #[inline]
    fn writes(&self, mi: u32) -> bool {
        self.writes.get(mi as usize).copied().unwrap_or(false)
    }

    /// The next event of the run (in merged order), made by thread `t`.
    pub fn event(&mut self, t: u32, e: &Event) {
        match *e {
            Event::Access { mi, addr, len } => {
                let next = self.cores.len();
                let core = *self.cores.entry(t).or_insert(next);
                let write = self.writes(mi);
                self.m.access_rw(core, mi, addr, len, write);
            }
            Event::RegionEnter { omp_thread, .. } => {
                self.omp.entry(t).or_insert(omp_thread);
            }
            _ => {}
        }
    }

    /// A visitor for the events of thread `t` (the same as [`ThreadMeasurer::event`] with `t`
    /// for each): the form for a run with one thread, read straight from its chunks
    /// (`Trace::visit_merged`).
    pub fn of_thread(&mut self, t: u32) -> OneThread<'_> {
        OneThread {
            m: self,
            t,
            core: None,
        }
    }

    /// The measurement, with the trace's thread indices `threads` (ascending) as its cores, in
    /// that order (a thread that made accesses but is missing from `threads` is added).
    pub fn finish(self, threads: &[u32]) -> Measurement {
        let mut threads = threads.to_vec();
        for &t in self.cores.keys() {
            if let Err(at) = threads.binary_search(&t) {
                threads.insert(at, t);
            }
        }
        let rank = |t: u32| threads.binary_search(&t).unwrap_or(0);
        let raw = self.m.finish();
        // The cores an in-order simulation would have had: up to the highest one accessed.
        let used = self.cores.keys().map(|&t| rank(t) + 1).max().unwrap_or(0);
        let mut l1_per_thread = vec![LevelStats::default(); used];
        let mut prd = vec![Histogram::new_exact(); used];
        let empty = ThreadRates {
            thread: 0,
            omp_thread: None,
            rates: CoreCounts::new(0, 0, 0).into(),
        };
        let mut per_thread = vec![empty; used];
        let mut l1_misses_per_thread = vec![MissKinds::default(); used];
        let private_l2 = !raw.l2_misses_per_thread.is_empty();
        let mut l2_misses_per_thread =
            vec![MissKinds::default(); if private_l2 { used } else { 0 }];
        for (&t, &core) in &self.cores {
            let r = rank(t);
            l1_per_thread[r] = raw.l1_per_thread[core];
            prd[r] = raw.prd[core].clone();
            per_thread[r] = raw.per_thread[core];
            l1_misses_per_thread[r] = raw.l1_misses_per_thread[core];
            if private_l2 {
                l2_misses_per_thread[r] = raw.l2_misses_per_thread[core];
            }
        }
        per_thread.resize(
            threads.len().max(used),
            ThreadRates {
                rates: CoreRates::default(),
                ..empty
            },
        );
        let omp_of = |r: usize| threads.get(r).and_then(|t| self.omp.get(t).copied());
        for (r, t) in per_thread.iter_mut().enumerate() {
            t.thread = threads.get(r).copied().unwrap_or(r as u32);
            t.omp_thread = omp_of(r);
        }
        // Coherence misses per instruction name threads, not cores.
        let thread_of_core: std::collections::HashMap<usize, u32> =
            self.cores.iter().map(|(&t, &c)| (c, t)).collect();
        let mut coherence_by_mi = raw.coherence_by_mi.clone();
        for m in &mut coherence_by_mi {
            for t in &mut m.threads {
                *t = thread_of_core.get(&(*t as usize)).copied().unwrap_or(*t);
            }
            m.threads.sort_unstable();
        }
        // The totals (and the PRD's model rate: a sum over threads) do not depend on the
        // cores' order.
        Measurement {
            coherence_by_mi,
            l1_misses_per_thread,
            l2_misses_per_thread,
            threads: l1_per_thread.iter().filter(|s| s.accesses > 0).count(),
            omp_thread: (0..used).map(omp_of).collect(),
            l1_per_thread,
            per_thread,
            prd,
            ..raw
        }
    }
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

#[cfg(test)]
mod coherence_tests {
    use super::*;

    /// A core's repeat of its last line is not a hit when another core's write invalidated the
    /// line meanwhile; the coherence miss is charged to its thread and memory instruction.
    #[test]
    fn the_repeat_fast_path_sees_invalidations() {
        let mut m = Measurer::new(MeasureConfig::default());
        m.access_rw(0, 7, 0, 8, true); // compulsory
        m.access_rw(0, 7, 0, 8, true); // repeat: hit (core 0 holds the line alone)
        m.access_rw(1, 9, 8, 8, true); // compulsory; invalidates core 0's copy
        m.access_rw(0, 7, 0, 8, false); // repeat of core 0's line, but lost: false sharing
        m.access_rw(0, 7, 0, 8, true); // hit; invalidates core 1's copy
        m.access_rw(1, 9, 0, 1, false); // core 1 reads byte 0, written by core 0: true sharing
        let r = m.finish();
        assert_eq!(
            r.l1_per_thread,
            [
                LevelStats {
                    accesses: 4,
                    hits: 2
                },
                LevelStats {
                    accesses: 2,
                    hits: 0
                }
            ]
        );
        let k = |compulsory, true_sharing, false_sharing| MissKinds {
            compulsory,
            coherence: true_sharing + false_sharing,
            true_sharing,
            false_sharing,
            ..Default::default()
        };
        assert_eq!(r.l1_misses_per_thread, [k(1, 0, 1), k(1, 1, 0)]);
        assert_eq!(
            r.coherence_by_mi,
            [
                MiCoherence {
                    mi: 7,
                    true_sharing: 0,
                    false_sharing: 1,
                    threads: vec![0]
                },
                MiCoherence {
                    mi: 9,
                    true_sharing: 1,
                    false_sharing: 0,
                    threads: vec![1]
                }
            ]
        );
        // The PRD is the core's own stream, invalidations or not: cold, then distance 0.
        assert_eq!(r.prd[0].cold, 1);
        assert_eq!(r.prd[0].counts.get(&0), Some(&3));
        assert_eq!(r.levels[0].counts.misses.total(), 4);
        assert_eq!(r.levels[1].level, "L2");
    }
}
