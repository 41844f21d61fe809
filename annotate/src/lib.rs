//! Source attribution: which source lines and functions make the accesses, the cold misses, the
//! long reuse distances and the simulated cache misses of a run (cachegrind's `cg_annotate` for
//! rdtools traces).
//!
//! One streaming pass over the events in stamp order ([`rdtrace::Trace::merged`]) feeds every
//! access, cache line by cache line, to
//!
//! * an exact reuse-distance stack over all threads ([`rdengines::FrontedStack`]; the concurrent
//!   distance that `rda-report histogram` reports), and one private stack per thread;
//! * the exact LRU simulator [`rdcachesim::CoherentHierarchy`] (a private L1 per thread, one
//!   shared L2, threads becoming cores in thread-index order, write-invalidate coherence between
//!   the L1s with each access's kind from the metadata, as `rda-report measure` does), whose
//!   every L1 miss is classed compulsory, capacity, conflict or coherence (true or false
//!   sharing);
//! * with [`AnnotateConfig::false_sharing`], a [`rdcachesim::SharingRecorder`]: which threads
//!   touched which bytes of the cache lines with coherence misses, from which source lines
//!   ([`FalseSharing`], resolved in [`sharing`]),
//!
//! and charges the result to the memory instruction's source line and function. Memory is
//! bounded by the footprint (the stacks) and the number of source lines, never by the trace
//! length (the recorder by its own bound).
//!
//! Architecture invariant: this crate reads traces and counts; it does no printing (the CLI
//! renders [`Annotation`]).

mod bins;
pub mod sharing;

pub use bins::DistanceBins;
pub use sharing::FalseSharing;

use rdcachesim::{
    CacheConfig, CoherentHierarchy, LineOutcome, MissKind, MissKinds, Served, SharingConfig,
    SharingRecorder,
};
use rdengines::accum::DenseHist;
use rdengines::{FrontedStack, Histogram};
use rdtrace::meta::ProgramMeta;
use rdtrace::{Event, Trace};
use serde::Serialize;
use std::collections::HashMap;

/// Errors of an annotation run.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// The trace could not be read.
    #[error(transparent)]
    Trace(#[from] rdtrace::TraceError),
    /// The L1 and L2 line sizes differ (distances are counted at one line size).
    #[error("L1 line size {l1} differs from L2 line size {l2}; annotate needs one line size")]
    LineSizes {
        /// L1 line size.
        l1: u32,
        /// L2 line size.
        l2: u32,
    },
}

/// The simulated caches; reuse distances are counted in lines of the L1's line size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AnnotateConfig {
    /// Private L1 per thread.
    pub l1: CacheConfig,
    /// Shared L2.
    pub l2: CacheConfig,
    /// Record the cache lines with coherence misses (the false-sharing view) within these
    /// bounds; `None`: do not.
    pub false_sharing: Option<SharingConfig>,
}

impl Default for AnnotateConfig {
    /// The SASMM paper's caches (8 KiB 8-way L1, 128 KiB 16-way L2, 64-byte lines), the same
    /// defaults as `rda-report measure`.
    fn default() -> Self {
        AnnotateConfig {
            l1: CacheConfig::default(),
            l2: CacheConfig::paper_l2(),
            false_sharing: None,
        }
    }
}

/// What one source line (or function, or the whole run) did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Access events (one per executed memory instruction).
    pub accesses: u64,
    /// Cache-line references (an access spanning two lines makes two).
    pub references: u64,
    /// References to a line never touched before by any thread (infinite reuse distance).
    pub cold: u64,
    /// References that missed the thread's private L1.
    pub l1_misses: u64,
    /// References that missed both the L1 and the shared L2.
    pub l2_misses: u64,
    /// The L1 misses by class: compulsory + capacity + conflict + coherence = `l1_misses`.
    #[serde(rename = "l1_miss_kinds")]
    pub l1_kinds: MissKinds,
    /// Finite reuse distances (all threads in stamp order) of the references.
    #[serde(skip)]
    pub distances: DistanceBins,
}

impl Counts {
    fn reference(&mut self, distance: Option<u64>, served: Served, l1_miss: Option<MissKind>) {
        self.references += 1;
        match distance {
            Some(d) => self.distances.add(d),
            None => self.cold += 1,
        }
        if let Some(k) = l1_miss {
            self.l1_misses += 1;
            self.l1_kinds.count(k);
        }
        if served == Served::Memory {
            self.l2_misses += 1;
        }
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &Counts) {
        self.accesses += other.accesses;
        self.references += other.references;
        self.cold += other.cold;
        self.l1_misses += other.l1_misses;
        self.l2_misses += other.l2_misses;
        self.l1_kinds.add(&other.l1_kinds);
        self.distances.merge(&other.distances);
    }

    /// The reuse-distance percentile `p` (0 < p ≤ 100) over the finite distances, cold
    /// references excluded; see [`DistanceBins::percentile`].
    pub fn percentile(&self, p: f64) -> Option<u64> {
        self.distances.percentile(p)
    }
}

/// One source line.
#[derive(Clone, Debug, Serialize)]
pub struct LineStats {
    /// Source file as recorded in the debug information (`?` when unknown).
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: u32,
    /// Symbols of the functions whose instructions on this line executed (inlining can make
    /// several; functions that only *could* run this line, such as never-called copies of an
    /// inlined header function, are left out), in metadata order.
    pub functions: Vec<String>,
    /// Memory instructions on this line.
    pub mem_instrs: Vec<u32>,
    /// What they did.
    #[serde(flatten)]
    pub counts: Counts,
}

/// One function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionStats {
    /// Symbol name (the linker's: `_Z6kernelPdi` for C++; see `rdtrace::demangle` for the
    /// readable form).
    pub name: String,
    /// `file:line` of its first located instruction (`?` when unknown).
    pub location: String,
    /// What its memory instructions did.
    #[serde(flatten)]
    pub counts: Counts,
}

/// Everything one pass over a trace found.
#[derive(Clone, Debug, Serialize)]
pub struct Annotation {
    /// The simulated caches.
    pub config: AnnotateConfig,
    /// Threads that made accesses (one core each).
    pub threads: usize,
    /// Whole-run totals.
    pub total: Counts,
    /// Source lines that made accesses, most L1 misses first (then L2 misses, then accesses).
    pub lines: Vec<LineStats>,
    /// Functions that made accesses (never one that did not execute), in the same order.
    pub functions: Vec<FunctionStats>,
    /// Reuse-distance histogram over all threads in stamp order (L1 lines).
    #[serde(skip)]
    pub histogram: Histogram,
    /// Private reuse-distance histogram of each thread, by thread index.
    #[serde(skip)]
    pub thread_histograms: Vec<(u32, Histogram)>,
    /// With [`AnnotateConfig::false_sharing`]: the cache lines and source lines with coherence
    /// misses.
    pub false_sharing: Option<FalseSharing>,
}

/// Where a memory instruction's counts go.
#[derive(Clone, Copy)]
struct Target {
    line: usize,
    function: usize,
    /// Index of the (line, function) pair in `Annotator::pair_accesses`.
    pair: usize,
}

/// The streaming part: feed accesses in global order with [`Annotator::access`].
pub struct Annotator {
    config: AnnotateConfig,
    hierarchy: CoherentHierarchy,
    /// Whether each memory instruction (by id) reads and writes; an id beyond it reads.
    kinds: Vec<(bool, bool)>,
    recorder: Option<SharingRecorder>,
    shared_stack: FrontedStack,
    histogram: DenseHist,
    private: Vec<(FrontedStack, DenseHist)>,
    /// While one thread only has accessed, that thread: the shared stack is then its private
    /// stack (the same lines in the same order) and is not computed twice; it starts as a copy
    /// when a second thread accesses.
    solo: Option<usize>,
    /// Whether any access came yet.
    started: bool,
    targets: Vec<Target>,
    line_keys: Vec<(String, u32)>,
    line_counts: Vec<Counts>,
    function_names: Vec<(String, String)>,
    function_counts: Vec<Counts>,
    /// Functions with instructions on each line key, with the index of the pair's access count.
    line_functions: Vec<Vec<(usize, usize)>>,
    /// Accesses per (line, function) pair: a line lists only the functions that executed it.
    pair_accesses: Vec<u64>,
    line_mis: Vec<Vec<u32>>,
    /// What happened to each line of the current access (reused to avoid an allocation per
    /// access; ranges can span many lines).
    outcomes: Vec<LineOutcome>,
}

impl Annotator {
    /// An annotator for a program with metadata `meta`.
    pub fn new(meta: &ProgramMeta, config: AnnotateConfig) -> Result<Self, AnnotateError> {
        if config.l1.line != config.l2.line {
            return Err(AnnotateError::LineSizes {
                l1: config.l1.line,
                l2: config.l2.line,
            });
        }
        let mut line_index: HashMap<(String, u32), usize> = HashMap::new();
        let mut line_keys = Vec::new();
        let mut key_of = |file: String, line: u32, keys: &mut Vec<(String, u32)>| {
            *line_index.entry((file.clone(), line)).or_insert_with(|| {
                keys.push((file, line));
                keys.len() - 1
            })
        };
        // Function slot `functions.len()` stands for instructions of an unknown block.
        let mut function_names: Vec<(String, String)> = meta
            .functions
            .iter()
            .map(|f| (f.name.clone(), short_loc(meta, f.loc)))
            .collect();
        function_names.push(("?".into(), "?".into()));
        let unknown_function = function_names.len() - 1;
        let mut targets: Vec<Target> = Vec::with_capacity(meta.mem_instrs.len() + 1);
        for m in &meta.mem_instrs {
            let (file, line) = match m.loc {
                Some(l) if l.line > 0 => (
                    meta.files
                        .get(l.file as usize)
                        .cloned()
                        .unwrap_or_else(|| "?".into()),
                    l.line,
                ),
                _ => ("?".into(), 0),
            };
            let function = meta
                .blocks
                .get(m.block as usize)
                .map(|b| b.function as usize)
                .filter(|&f| f < meta.functions.len())
                .unwrap_or(unknown_function);
            targets.push(Target {
                line: key_of(file, line, &mut line_keys),
                function,
                pair: 0,
            });
        }
        // Slot for ids outside the metadata (a damaged trace): counted, never dropped.
        targets.push(Target {
            line: key_of("?".into(), 0, &mut line_keys),
            function: unknown_function,
            pair: 0,
        });
        let mut line_functions: Vec<Vec<(usize, usize)>> = vec![Vec::new(); line_keys.len()];
        let mut line_mis = vec![Vec::new(); line_keys.len()];
        let mut pairs = 0;
        for (mi, t) in targets.iter_mut().enumerate() {
            let fs = &mut line_functions[t.line];
            t.pair = match fs.iter().find(|&&(f, _)| f == t.function) {
                Some(&(_, pair)) => pair,
                None => {
                    fs.push((t.function, pairs));
                    pairs += 1;
                    pairs - 1
                }
            };
            if mi < meta.mem_instrs.len() {
                line_mis[t.line].push(mi as u32);
            }
        }
        Ok(Annotator {
            config,
            hierarchy: CoherentHierarchy::new(config.l1, config.l2, None),
            kinds: meta
                .mem_instrs
                .iter()
                .map(|m| (m.kind.reads(), m.kind.writes()))
                .collect(),
            recorder: config
                .false_sharing
                .map(|c| SharingRecorder::new(config.l1.line, c)),
            shared_stack: FrontedStack::default(),
            histogram: DenseHist::default(),
            private: Vec::new(),
            solo: None,
            started: false,
            line_counts: vec![Counts::default(); line_keys.len()],
            line_keys,
            function_counts: vec![Counts::default(); function_names.len()],
            function_names,
            targets,
            line_functions,
            pair_accesses: vec![0; pairs],
            line_mis,
            outcomes: Vec::new(),
        })
    }

    /// One access by memory instruction `mi` of `len` bytes at `addr`, made on core `core`
    /// (the thread's position among the trace's threads).
    pub fn access(&mut self, core: usize, mi: u32, addr: u64, len: u64) {
        let target = *self
            .targets
            .get(mi as usize)
            .unwrap_or_else(|| self.targets.last().expect("unknown slot"));
        while self.private.len() <= core {
            self.private
                .push((FrontedStack::default(), DenseHist::default()));
        }
        let shared_is_private = match self.solo {
            Some(c) if c == core => true,
            Some(c) => {
                (self.shared_stack, self.histogram) = self.private[c].clone();
                self.solo = None;
                false
            }
            None if !self.started => {
                self.started = true;
                self.solo = Some(core);
                true
            }
            None => false,
        };
        self.line_counts[target.line].accesses += 1;
        self.function_counts[target.function].accesses += 1;
        self.pair_accesses[target.pair] += 1;
        // The hierarchy reports L1 lines in address order, the same order for_each_line walks.
        let (read, write) = self
            .kinds
            .get(mi as usize)
            .copied()
            .unwrap_or((true, false));
        let outcomes = &mut self.outcomes;
        outcomes.clear();
        let shift = self.config.l1.line_shift();
        let first = addr >> shift;
        // A repeat of the core's last line that changes nothing but the counts is an L1 hit
        // without a lookup (as in `measure`).
        if (addr.saturating_add(len.max(1) - 1) >> shift) == first
            && self.hierarchy.try_repeat(core, first, write)
        {
            outcomes.push(LineOutcome {
                served: Served::L1,
                l1_miss: None,
            });
        } else {
            self.hierarchy
                .access_with(core, addr, len, write, |o| outcomes.push(o));
        }
        let recorder = &mut self.recorder;
        let hi = addr.saturating_add(len.max(1));
        let mut k = 0;
        let (stack, hist) = (&mut self.shared_stack, &mut self.histogram);
        let (pstack, phist) = &mut self.private[core];
        let line_counts = &mut self.line_counts[target.line];
        let function_counts = &mut self.function_counts[target.function];
        self.config.l1.for_each_line(addr, len, |line| {
            // See: the reuse distance of a reference is the number of distinct other lines
            // touched since the previous reference to its line (∞ for the first).
            let pd = pstack.access(line);
            match pd {
                Some(pd) => phist.add(pd),
                None => phist.cold += 1,
            }
            let d = if shared_is_private {
                pd
            } else {
                let d = stack.access(line);
                match d {
                    Some(d) => hist.add(d),
                    None => hist.cold += 1,
                }
                d
            };
            let o = outcomes[k];
            k += 1;
            if let Some(r) = recorder.as_mut() {
                r.record(core, mi, line, addr, hi, read, write, o.l1_miss);
            }
            line_counts.reference(d, o.served, o.l1_miss);
            function_counts.reference(d, o.served, o.l1_miss);
        });
    }

    /// The results, lines and functions sorted by misses.
    pub fn finish(mut self, thread_indices: &[u32]) -> Annotation {
        let false_sharing = self
            .recorder
            .take()
            .map(|r| sharing::resolve(&self, r.finish(), thread_indices));
        let mut total = Counts::default();
        for c in &self.function_counts {
            total.merge(c);
        }
        let mut lines: Vec<LineStats> = self
            .line_keys
            .into_iter()
            .zip(self.line_counts)
            .zip(self.line_functions.into_iter().zip(self.line_mis))
            .filter(|((_, c), _)| c.accesses > 0)
            .map(|(((file, line), counts), (fs, mis))| LineStats {
                file,
                line,
                functions: fs
                    .iter()
                    .filter(|&&(_, pair)| self.pair_accesses[pair] > 0)
                    .map(|&(f, _)| self.function_names[f].0.clone())
                    .collect(),
                mem_instrs: mis,
                counts,
            })
            .collect();
        let mut functions: Vec<FunctionStats> = self
            .function_names
            .into_iter()
            .zip(self.function_counts)
            .filter(|(_, c)| c.accesses > 0)
            .map(|((name, location), counts)| FunctionStats {
                name,
                location,
                counts,
            })
            .collect();
        let key =
            |c: &Counts| std::cmp::Reverse((c.l1_misses, c.l2_misses, c.accesses, c.references));
        lines.sort_by(|a, b| {
            key(&a.counts)
                .cmp(&key(&b.counts))
                .then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line)))
        });
        functions.sort_by(|a, b| {
            key(&a.counts)
                .cmp(&key(&b.counts))
                .then_with(|| a.name.cmp(&b.name))
        });
        let histogram = match self.solo {
            Some(c) => self.private[c].1.clone(),
            None => self.histogram,
        }
        .into_histogram(None, true);
        let thread_histograms: Vec<(u32, Histogram)> = self
            .private
            .into_iter()
            .enumerate()
            .map(|(core, (_, h))| {
                (
                    thread_indices.get(core).copied().unwrap_or(core as u32),
                    h.into_histogram(None, true),
                )
            })
            .collect();
        let threads = thread_histograms
            .iter()
            .filter(|(_, h)| h.total() > 0)
            .count();
        Annotation {
            config: self.config,
            threads,
            total,
            lines,
            functions,
            histogram,
            thread_histograms,
            false_sharing,
        }
    }
}

fn short_loc(meta: &ProgramMeta, loc: Option<rdtrace::meta::SourceLoc>) -> String {
    match loc {
        Some(l) if l.line > 0 => format!(
            "{}:{}",
            meta.files
                .get(l.file as usize)
                .map(String::as_str)
                .unwrap_or("?"),
            l.line
        ),
        _ => "?".into(),
    }
}

/// Annotates a whole trace: threads become cores in thread-index order, events are taken in the
/// order the stamps reconstruct.
pub fn annotate(trace: &Trace, config: AnnotateConfig) -> Result<Annotation, AnnotateError> {
    annotate_with_progress(trace, config, |_| {})
}

/// [`annotate`], calling `progress` with the number of events read every 65536 events (after
/// every chunk for a one-thread trace, whose chunks are decoded on other cores).
pub fn annotate_with_progress(
    trace: &Trace,
    config: AnnotateConfig,
    mut progress: impl FnMut(u64),
) -> Result<Annotation, AnnotateError> {
    let threads = trace.thread_indices();
    let mut a = Annotator::new(&trace.meta, config)?;
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    if threads.len() == 1 && cpus > 1 {
        // One thread: its chunks in sequence are the merged order, so they can be decoded on
        // other cores while this one annotates (decoding was a fifth of annotate's time).
        let mut n = 0u64;
        let workers = (cpus - 1).clamp(2, 8);
        trace.decode_chunks_in_order(
            trace.event_chunks(),
            workers,
            workers + 2,
            |reader, c| {
                let mut chunk = ChunkAccesses {
                    accesses: Vec::with_capacity(c.events as usize),
                    events: 0,
                };
                reader.visit_chunk(c, &mut chunk)?;
                Ok(chunk)
            },
            |chunk| {
                for &(mi, addr, len) in &chunk.accesses {
                    a.access(0, mi, addr, len);
                }
                n += chunk.events;
                progress(n);
                Ok(())
            },
        )?;
        return Ok(a.finish(&threads));
    }
    let mut n = 0u64;
    for r in trace.merged()? {
        let (t, e) = r?;
        if let Event::Access { mi, addr, len } = e {
            let core = threads.binary_search(&t).unwrap_or(0);
            a.access(core, mi, addr, len);
        }
        n += 1;
        if n.is_multiple_of(65536) {
            progress(n);
        }
    }
    progress(n);
    Ok(a.finish(&threads))
}

/// One chunk's accesses, decoded on a worker for [`annotate_with_progress`], and the number of
/// its events of every kind (for progress).
struct ChunkAccesses {
    accesses: Vec<(u32, u64, u64)>,
    events: u64,
}

impl rdtrace::EventVisitor for ChunkAccesses {
    fn block(&mut self, _bb: u32) {
        self.events += 1;
    }
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.accesses.push((mi, addr, len));
        self.events += 1;
    }
    fn branch(&mut self, _br: u32, _outcome: u32) {
        self.events += 1;
    }
    fn other(&mut self, _event: Event) {
        self.events += 1;
    }
}

#[cfg(test)]
mod tests;
