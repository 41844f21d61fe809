//! Ground truth from the trace of a real threaded run: per-thread PRD, CRD over the events
//! merged in stamp order, and an exact LRU simulation of a private L1 per thread and a shared
//! L2 ([`rdcachesim::Hierarchy`]) giving measured hit rates.

use crate::error::Result;
use crate::model::Profile;
use crate::rates::{CoreCounts, CoreRates, HitRates};
use rdcachesim::{CacheConfig, Hierarchy, LevelStats, Served};
use rdengines::accum::DenseHist;
use rdengines::{FastCore, Histogram};
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
    hierarchy: Hierarchy,
    prd: Vec<(FastCore, DenseHist)>,
    crd: (FastCore, DenseHist),
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
        Measurer {
            config,
            hierarchy: Hierarchy::new(config.l1, config.l2, 0),
            prd: Vec::new(),
            crd: (FastCore::default(), DenseHist::default()),
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

    /// One access of `len` bytes at `addr` by core `core`.
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        while self.prd.len() <= core {
            self.prd.push((FastCore::default(), DenseHist::default()));
            self.l2_hits.push(0);
            self.last_l1.push(NO_LINE);
        }
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let (s1, s2) = (self.config.l1.line_shift(), self.config.l2.line_shift());
        let (line1, line2) = (addr >> s1, addr >> s2);
        let one_line = last_byte >> s1 == line1 && last_byte >> s2 == line2;
        let crd_is_prd = self.crd_is_prd_of(core);
        if one_line && self.last_l1[core] == line1 {
            // The line this core touched last, again: an L1 hit that moves nothing (its L1 and
            // its PRD stack see only its own accesses), PRD distance 0, and no L2 access.
            self.hierarchy.l1_hit_most_recent(core);
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
        // Each L2 access is the L1 miss of this core: its hit counts for this core.
        let l2_hits = &mut self.l2_hits[core];
        self.hierarchy.access_with(core, addr, len, |s| {
            if s == Served::L2 {
                *l2_hits += 1;
            }
        });
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

    /// The results.
    pub fn finish(self) -> Measurement {
        let stats = self.hierarchy.stats();
        let l1 = stats.l1_total();
        let rates = HitRates::from_counts(l1.accesses, l1.hits, stats.l2.hits);
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
            l1_hit_from_prd: Profile::from_histogram(&all).hit_rate(&self.config.l1),
            l2_hit_from_crd: Profile::from_histogram(&crd).hit_rate(&self.config.l2),
            prd,
            crd,
        }
    }
}

/// Measures a real run: threads become cores in thread-index order, events are taken in the
/// order the stamps reconstruct ([`Trace::merged`]).
pub fn measure(trace: &Trace, config: MeasureConfig) -> Result<Measurement> {
    let mut m = ThreadMeasurer::new(config);
    for r in trace.merged()? {
        let (t, e) = r?;
        m.event(t, &e);
    }
    Ok(m.finish(&trace.thread_indices()))
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
    fn access(&mut self, _mi: u32, addr: u64, len: u64) {
        let core = match self.core {
            Some(c) => c,
            None => {
                let next = self.m.cores.len();
                let c = *self.m.cores.entry(self.t).or_insert(next);
                self.core = Some(c);
                c
            }
        };
        self.m.m.access(core, addr, len);
    }

    fn other(&mut self, e: Event) {
        self.m.event(self.t, &e);
    }
}

impl ThreadMeasurer {
    /// An empty measurement.
    pub fn new(config: MeasureConfig) -> Self {
        ThreadMeasurer {
            m: Measurer::new(config),
            cores: Default::default(),
            omp: Default::default(),
        }
    }

    /// The next event of the run (in merged order), made by thread `t`.
    pub fn event(&mut self, t: u32, e: &Event) {
        match *e {
            Event::Access { addr, len, .. } => {
                let next = self.cores.len();
                let core = *self.cores.entry(t).or_insert(next);
                self.m.access(core, addr, len);
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
        let mut per_thread = vec![
            ThreadRates {
                thread: 0,
                omp_thread: None,
                rates: CoreCounts::new(0, 0, 0).into(),
            };
            used
        ];
        for (&t, &core) in &self.cores {
            let r = rank(t);
            l1_per_thread[r] = raw.l1_per_thread[core];
            prd[r] = raw.prd[core].clone();
            per_thread[r] = raw.per_thread[core];
        }
        per_thread.resize(
            threads.len().max(used),
            ThreadRates {
                thread: 0,
                omp_thread: None,
                rates: CoreRates::default(),
            },
        );
        let omp_of = |r: usize| threads.get(r).and_then(|t| self.omp.get(t).copied());
        for (r, t) in per_thread.iter_mut().enumerate() {
            t.thread = threads.get(r).copied().unwrap_or(r as u32);
            t.omp_thread = omp_of(r);
        }
        // The totals (and the PRD's model rate: a sum over threads) do not depend on the
        // cores' order.
        Measurement {
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
