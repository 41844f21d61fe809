//! A run's threads measured from its events ([`ThreadMeasurer`]): each thread on a core of its
//! own from its first access, its OpenMP thread number from its first region entry, and the
//! [`Measurement`] renumbered into thread-index order at the end.

use super::chain::Chain;
use super::measurer::Simulation;
use super::stacks::{MeasuredAccess, Stacks};
use super::{MeasureConfig, MeasureOptions, Measurement, ThreadRates};
use crate::rates::{CoreCounts, CoreRates};
use rdcachesim::{LevelStats, MissKinds};
use rdengines::batched::Batched;
use rdengines::Histogram;
use rdtrace::analysis::ChunkDigester;
use rdtrace::reader::{ChunkReader, EventChunkRef};
use rdtrace::{Analysis, Digest, Event, Shape};

/// [`measure`](super::measure) as an [`Analysis`] (merged events, told whose events follow), also
/// for a run whose thread list is known only at its end (a stream, through
/// `rdtrace::analysis::run_merged`): each thread is simulated on a core of its own from its first
/// access, and [`ThreadMeasurer::finish`] renumbers the cores into thread-index order. The
/// simulated cores are independent (a private L1 each; the shared L2 sees the accesses in event
/// order, whatever their core), so the result is the one [`measure`](super::measure) gives for
/// the same events. On a machine of more than one CPU the work leaves the caller's thread,
/// which decodes (see [`Engine`]).
pub struct ThreadMeasurer {
    config: MeasureConfig,
    options: MeasureOptions,
    engine: Engine,
    /// Core of each thread that made an access.
    cores: std::collections::BTreeMap<u32, usize>,
    /// OpenMP thread number of each thread's first region entry.
    omp: std::collections::BTreeMap<u32, u32>,
    /// Whether each memory instruction writes (empty: every access reads).
    writes: Vec<bool>,
    /// As an [`Analysis`]: the thread whose events come now, and its core once it has one.
    current: u32,
    core: Option<usize>,
    /// As an [`Analysis`]: the trace's thread indices, for [`Analysis::finish`].
    threads: Vec<u32>,
}

/// Where a [`ThreadMeasurer`] simulates and counts, chosen at the first access by how the
/// accesses come; every way gives the same measurement.
enum Engine {
    /// No access yet.
    Idle,
    /// The caches simulated here; the PRD and CRD counted here or on a thread of their own
    /// ([`Stacks::fed`]): a one-thread file's chunks, decoded on other cores.
    Here {
        sim: Box<Simulation>,
        stacks: Box<Batched<Stacks>>,
    },
    /// Both on threads of their own ([`Chain`]): accesses merged here from several threads.
    Chain(Box<Chain>),
}

impl ThreadMeasurer {
    /// An empty measurement.
    pub fn new(config: MeasureConfig) -> Self {
        Self::with_options(config, MeasureOptions::default(), Vec::new())
    }

    /// An empty measurement with options, coherent: `writes` says whether each memory
    /// instruction writes ([`write_table`](super::write_table); an id beyond it reads).
    pub fn with_options(config: MeasureConfig, options: MeasureOptions, writes: Vec<bool>) -> Self {
        ThreadMeasurer {
            config,
            options,
            engine: Engine::Idle,
            cores: Default::default(),
            omp: Default::default(),
            writes,
            current: 0,
            core: None,
            threads: Vec::new(),
        }
    }

    /// The same measurer with everything on the caller's thread (the result does not depend
    /// on where the work is done; tests compare the ways).
    #[cfg(test)]
    pub(crate) fn on_this_thread(mut self) -> Self {
        self.engine = self.here(false);
        self
    }

    /// The simulation here, and the stacks on a thread of their own when `stacks_apart` (and
    /// the machine has more than one CPU).
    fn here(&self, stacks_apart: bool) -> Engine {
        Engine::Here {
            sim: Box::new(Simulation::new(self.config, self.options)),
            stacks: Box::new(Stacks::fed(self.config.l1, self.config.l2, stacks_apart)),
        }
    }

    /// The core of the thread whose events come now, given at its first access.
    #[inline]
    fn core(&mut self) -> usize {
        match self.core {
            Some(c) => c,
            None => {
                let next = self.cores.len();
                let c = *self.cores.entry(self.current).or_insert(next);
                self.core = Some(c);
                c
            }
        }
    }

    /// The trace's thread indices (ascending), which [`Analysis::finish`] gives
    /// [`ThreadMeasurer::finish`] (a stream's are known only at its end: set them then).
    pub fn set_threads(&mut self, threads: Vec<u32>) {
        self.threads = threads;
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
        let raw = match self.engine {
            Engine::Idle => Simulation::new(self.config, self.options)
                .finish(Stacks::new(self.config.l1, self.config.l2)),
            Engine::Here { sim, stacks } => sim.finish(stacks.join()),
            Engine::Chain(chain) => {
                let (sim, stacks) = chain.finish();
                sim.finish(stacks)
            }
        };
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

/// Each access on its thread's core (a thread gets the next core at its first access); a
/// region entry names the thread's OpenMP thread number.
impl rdtrace::EventVisitor for ThreadMeasurer {
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        let core = self.core();
        let write = writes(&self.writes, mi);
        match &mut self.engine {
            Engine::Chain(chain) => chain.access(core, mi, addr, len, write),
            Engine::Here { sim, stacks } => {
                sim.access_rw(core, mi, addr, len, write);
                stacks.push(MeasuredAccess::new(core, mi, addr, len, write));
            }
            Engine::Idle => {
                self.engine = Engine::Chain(Box::new(Chain::start(self.config, self.options)));
                rdtrace::EventVisitor::access(self, mi, addr, len);
            }
        }
    }

    fn other(&mut self, e: Event) {
        if let Event::RegionEnter { omp_thread, .. } = e {
            self.omp.entry(self.current).or_insert(omp_thread);
        }
    }
}

/// Threads become cores: the events merged in stamp order.
impl Analysis for ThreadMeasurer {
    type Report = Measurement;

    fn shape(&self) -> Shape {
        Shape::Merged
    }

    fn thread(&mut self, thread: u32) {
        self.current = thread;
        self.core = self.cores.get(&thread).copied();
    }

    fn finish(mut self) -> Measurement {
        let threads = std::mem::take(&mut self.threads);
        ThreadMeasurer::finish(self, &threads)
    }
}

/// A one-thread file's chunks are read on other cores, and only what the measurement uses
/// crosses over: the accesses, and the OpenMP thread number of the chunk's first region entry.
impl Digest for ThreadMeasurer {
    type Digester = MeasureDigester;

    fn digester(&self) -> Option<MeasureDigester> {
        Some(MeasureDigester)
    }

    fn piece(&mut self, piece: MeasuredChunk) {
        if let Some(omp_thread) = piece.omp_thread {
            self.omp.entry(self.current).or_insert(omp_thread);
        }
        if piece.accesses.is_empty() {
            return;
        }
        // The chunk's accesses are one thread's: simulated here, counted on the stacks' thread.
        if matches!(self.engine, Engine::Idle) {
            self.engine = self.here(true);
        }
        let core = self.core();
        match &mut self.engine {
            Engine::Here { sim, stacks } => {
                let mut accesses = piece.accesses;
                for a in &mut accesses {
                    let write = writes(&self.writes, a.mi);
                    *a = MeasuredAccess::new(core, a.mi, a.addr, a.len, write);
                    sim.access_rw(core, a.mi, a.addr, a.len, write);
                }
                stacks.push_vec(accesses);
            }
            _ => {
                for a in piece.accesses {
                    rdtrace::EventVisitor::access(self, a.mi, a.addr, a.len);
                }
            }
        }
    }
}

/// Whether memory instruction `mi` writes, by the write table `table` (an id beyond it
/// reads). A function of the table, not of the measurer, so that it can be asked while the
/// measurer's engine is borrowed.
#[inline]
fn writes(table: &[bool], mi: u32) -> bool {
    table.get(mi as usize).copied().unwrap_or(false)
}

/// What [`ThreadMeasurer`] takes of a chunk (see its [`Digest`] implementation).
pub struct MeasuredChunk {
    /// Its accesses (their core and write flag set when taken).
    accesses: Vec<MeasuredAccess>,
    omp_thread: Option<u32>,
}

/// Reads a chunk into a [`MeasuredChunk`] on a worker.
pub struct MeasureDigester;

impl ChunkDigester for MeasureDigester {
    type Piece = MeasuredChunk;

    fn digest(
        &self,
        reader: &mut ChunkReader<'_>,
        chunk: &EventChunkRef,
    ) -> rdtrace::Result<(MeasuredChunk, u64)> {
        /// Keeps the accesses and the first region entry's thread number.
        struct Keep(MeasuredChunk);
        impl rdtrace::EventVisitor for Keep {
            #[inline]
            fn access(&mut self, mi: u32, addr: u64, len: u64) {
                self.0
                    .accesses
                    .push(MeasuredAccess::new(0, mi, addr, len, false));
            }
            fn other(&mut self, e: Event) {
                if let Event::RegionEnter { omp_thread, .. } = e {
                    self.0.omp_thread.get_or_insert(omp_thread);
                }
            }
        }
        let mut keep = Keep(MeasuredChunk {
            accesses: Vec::with_capacity(chunk.events as usize),
            omp_thread: None,
        });
        let events = reader.visit_chunk(chunk, &mut keep)?;
        Ok((keep.0, events))
    }
}
