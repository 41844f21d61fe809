//! The sequential trace as SASMM sees it: basic-block *windows* (one per executed block
//! instance, holding that instance's memory accesses), cut into serial and parallel *sections*,
//! and for every window of a parallel region the place it has in the OpenMP execution.
//!
//! See: SASMM §3.2 — "the i-th basic block (BB_i) of the labeled trace contains all the memory
//! addresses that are accessed as a result of executing the corresponding straight-line code".
//!
//! Placement of a window (what Alg. 1 needs to mimic m threads from one sequential run):
//! * [`Placement::Serial`]: outside every parallel region; runs on core 0 (the master).
//! * [`Placement::Replicated`]: inside a parallel region but not inside an iteration of a
//!   worksharing loop (region prologue, loop guards, code between worksharing loops): every
//!   thread of the team executes it, so it is copied to every core.
//! * [`Placement::Iteration`]: inside iteration `i` of a worksharing-loop instance; the thread
//!   that owns iteration `i` under the schedule executes it.
//!
//! Iterations are found from the metadata: the *unit loops* of a worksharing construct are the
//! outermost natural loops of its function that do not contain the `__kmpc_for_static_init`
//! call block (for unchunked static schedules the iteration loop, possibly split by the
//! vectoriser into vector and remainder loops; for chunked or dynamic schedules the chunk loop).
//! Each entry of a unit loop's header starts one unit. Units are mapped back to iterations by
//! the recorded bounds and chunk (see [`WorkshareRun`]). With one thread libomp hands out the
//! whole iteration range at once even for chunked and dynamic schedules, so the chunk loop runs
//! once; then the loops one level inside it (the iteration loop) are the units instead, and the
//! chunk loop's own blocks count as replicated overhead. Blocks of functions called from an
//! iteration belong to that iteration. When no unit loop is entered (metadata without loops),
//! the paper's per-block rule is the fallback: a block with several windows in the instance has
//! them split as iterations, a block with one window is replicated.
//!
//! Sections end at region entry and exit and at barriers, so that interleaving (Alg. 2) never
//! lets one core run past a synchronisation point of another.
//!
//! Known limits of mimicking from one thread: code that depends on `omp_get_thread_num()`
//! (manual work splitting), `single`/`master` blocks and `critical` sections are replicated as
//! thread 0 executed them; nested regions count as part of the outer one.
//!
//! **Memory.** [`SequentialTrace::from_trace`] holds the whole trace (16 bytes per access).
//! [`SequentialTrace::stream`] hands the same windows and sections over in *fragments* of whole
//! sections ([`Fragment`]) and forgets each fragment once handed over: a serial section is cut at
//! a window boundary every [`StreamLimits::flush`] accesses, and parallel code is held from a
//! section's start until the section ends with no worksharing construct open. A parallel
//! fragment that grows past [`StreamLimits::spill`] accesses is written to an unlinked temporary
//! file instead ([`crate::spill`]; about 3-5 bytes per access) and handed over as
//! [`Fragment::Spilled`]: then the builder holds one window, and a window's iteration, which
//! depends on counts over the whole construct, is resolved when the file is read, from a table
//! per worksharing run (unit-loop header counts, or windows per block for the per-block rule).
//! So streaming memory is bounded by the spill threshold and the program's footprint, never by
//! the trace length. Fed fragment by fragment, Alg. 1-2 give the same shared trace as over the
//! whole `SequentialTrace` (sections are mimicked and interleaved independently; a serial section
//! cut in two is core 0's accesses in the same order).

use crate::error::{Result, SasmmError};
use crate::spill::{SpillWriter, SpilledFragment};
use rdtrace::meta::{ProgramMeta, VarClass};
use rdtrace::{Event, EventVisitor, Trace};
use std::collections::HashMap;
use std::ops::Range;

/// Accesses a serial section may buffer while streaming before the windows closed so far are
/// handed over (see the module documentation).
pub const STREAM_FLUSH_ACCESSES: usize = 1 << 16;

/// Accesses (or windows) a parallel fragment may hold in memory while streaming before it is
/// written to a temporary file (see the module documentation). Held, an access costs about 75
/// bytes with its window and placement at the peak; measured on a 1.6·10^7-access parallel
/// loop, 2^16 held accesses ran as fast as 2^20 in a fifth of the memory.
pub const STREAM_SPILL_ACCESSES: usize = 1 << 17;

/// Environment variable that overrides [`STREAM_SPILL_ACCESSES`]. The library never reads it:
/// the CLI reads it and passes its value to [`StreamLimits::with_spill_setting`].
pub const SPILL_ACCESSES_ENV: &str = "RDTOOLS_SPILL_ACCESSES";

/// When a streamed sequential trace hands a fragment over or writes it to disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Accesses of a serial section held before its closed windows are handed over.
    pub flush: usize,
    /// Accesses of a parallel fragment held before it goes to a temporary file.
    pub spill: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            flush: STREAM_FLUSH_ACCESSES,
            spill: STREAM_SPILL_ACCESSES,
        }
    }
}

impl StreamLimits {
    /// The default limits, with the spill threshold `setting` when there is one (the value of
    /// [`SPILL_ACCESSES_ENV`] as the caller read it; an error when it is not a number).
    pub fn with_spill_setting(setting: Option<&std::ffi::OsStr>) -> Result<Self> {
        let mut limits = StreamLimits::default();
        if let Some(v) = setting {
            limits.spill = v
                .to_str()
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| {
                    SasmmError::Config(format!(
                        "{SPILL_ACCESSES_ENV}={} is not a number of accesses",
                        v.to_string_lossy()
                    ))
                })?;
        }
        Ok(limits)
    }
}

/// Where a streamed sequential trace's fragments go (an error stops the stream).
pub type FragmentSink<'s> = dyn FnMut(Fragment<'_>) -> Result<()> + 's;

/// One fragment of a streamed sequential trace: whole sections, held in memory or, when a
/// parallel fragment is too long to hold, in a temporary file.
#[derive(Clone, Copy)]
pub enum Fragment<'a> {
    /// Sections in memory, with local window and access indices.
    Memory(&'a SequentialTrace),
    /// Sections written to a temporary file (see [`crate::spill`]).
    Spilled(&'a SpilledFragment),
}

impl Fragment<'_> {
    /// Windows of the fragment.
    pub fn windows(&self) -> u64 {
        match self {
            Fragment::Memory(s) => s.windows.len() as u64,
            Fragment::Spilled(s) => s.windows(),
        }
    }

    /// Accesses of the fragment.
    pub fn accesses(&self) -> u64 {
        match self {
            Fragment::Memory(s) => s.accesses.len() as u64,
            Fragment::Spilled(s) => s.accesses(),
        }
    }
}

/// One memory access of the sequential run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// First byte.
    pub addr: u64,
    /// Bytes.
    pub len: u32,
    /// Memory instruction id.
    pub mi: u32,
}

/// Where a window runs in the mimicked parallel execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Serial code: core 0.
    Serial,
    /// Parallel code outside worksharing iterations: every core.
    Replicated,
    /// Iteration `iteration` of worksharing-loop run `workshare` (index into
    /// [`SequentialTrace::workshares`]).
    Iteration {
        /// Index of the worksharing-loop run.
        workshare: u32,
        /// Logical iteration number, `0..iterations`.
        iteration: u64,
    },
}

/// One executed basic-block instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Block id ([`SequentialTrace::unknown_block`] for accesses before the first block event).
    pub bb: u32,
    /// First access (index into [`SequentialTrace::accesses`]).
    pub start: u32,
    /// One past the last access.
    pub end: u32,
    /// Section the window belongs to.
    pub section: u32,
    /// Where it runs.
    pub placement: Placement,
    /// True when the window continues a block instance that was cut by a region entry or exit,
    /// a barrier or the end of a worksharing loop (not a new instance for BB counts, eq. 1).
    pub continuation: bool,
}

impl Window {
    /// The window's accesses as an index range.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A run of windows between synchronisation points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Inside a parallel region.
    pub parallel: bool,
    /// Window indices.
    pub windows: Range<u32>,
}

/// One execution of a worksharing loop in the sequential run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkshareRun {
    /// Worksharing-loop id.
    pub ws: u32,
    /// libomp `sched_type` recorded by `WorkshareInit`.
    pub schedule: i32,
    /// Logical iterations of the loop.
    pub iterations: u64,
    /// Chunk of the recorded schedule in iterations; `None` for an unchunked static schedule
    /// (iterations split into one contiguous block per thread).
    pub chunk: Option<u64>,
}

/// The sequential trace, decoded into windows and sections.
#[derive(Clone, Debug, Default)]
pub struct SequentialTrace {
    /// All accesses in program order.
    pub accesses: Vec<Access>,
    /// All windows in program order; windows tile `accesses`.
    pub windows: Vec<Window>,
    /// Sections in program order; sections tile `windows`.
    pub sections: Vec<Section>,
    /// Worksharing-loop runs.
    pub workshares: Vec<WorkshareRun>,
    /// Class of every memory instruction (by id).
    pub mi_class: Vec<VarClass>,
    /// Whether a memory instruction accesses a shared variable itself (its address derives
    /// directly from a shared-variable argument of an outlined function, with no pointer loaded
    /// on the way): the analogue of the paper's `shared_var_trace` label.
    pub mi_shared_variable: Vec<bool>,
    /// Block names (`function:label`) by id, for reports.
    pub block_names: Vec<String>,
}

/// The one thread of `trace` that has events (`None` when none has): a sequential run's, or
/// [`SasmmError::NotSequential`].
fn only_thread_with_events(trace: &Trace) -> Result<Option<u32>> {
    let mut with_events: Vec<u32> = trace.event_chunks().iter().map(|c| c.thread).collect();
    with_events.sort_unstable();
    with_events.dedup();
    if with_events.len() > 1 {
        return Err(SasmmError::NotSequential {
            path: trace.path().to_path_buf(),
            threads: with_events.len(),
        });
    }
    Ok(with_events.first().copied())
}

impl SequentialTrace {
    /// Reads the trace of a sequential run.
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Self> {
        let trace = Trace::open(path)?;
        Self::from_trace(&trace)
    }

    /// Decodes an open trace, which must hold the events of one thread.
    pub fn from_trace(trace: &Trace) -> Result<Self> {
        let thread = only_thread_with_events(trace)?;
        let mut b = Builder::new(&trace.meta, None, StreamLimits::default());
        if let Some(t) = thread {
            trace.visit_thread(t, &mut b)?;
        }
        let seq = b.finish()?;
        if seq.accesses.is_empty() {
            return Err(SasmmError::Empty {
                path: trace.path().to_path_buf(),
            });
        }
        Ok(seq)
    }

    /// Decodes an open trace of one thread in one streamed pass, handing `sink` the windows and
    /// sections in fragments (see the module documentation) instead of keeping them: each
    /// fragment holds whole sections with local indices and the program's metadata tables; its
    /// windows and accesses are forgotten after `sink` returns. Fed to Alg. 1-2 one after the
    /// other, the fragments give the same shared trace as [`SequentialTrace::from_trace`]. Same
    /// errors as `from_trace` (found at the end for an empty trace), a failing temporary file,
    /// or the first error `sink` returns (no fragment is handed over after it). Uses the
    /// default [`StreamLimits`].
    pub fn stream(trace: &Trace, sink: &mut dyn FnMut(Fragment<'_>) -> Result<()>) -> Result<()> {
        Self::stream_with(trace, StreamLimits::default(), sink)
    }

    /// [`SequentialTrace::stream`] with the thresholds given (tests use small ones).
    pub fn stream_with(
        trace: &Trace,
        limits: StreamLimits,
        sink: &mut dyn FnMut(Fragment<'_>) -> Result<()>,
    ) -> Result<()> {
        let thread = only_thread_with_events(trace)?;
        let mut b = Builder::new(&trace.meta, Some(sink), limits);
        if let Some(t) = thread {
            trace.visit_thread(t, &mut b)?;
        }
        if b.finish_stream()? == 0 {
            return Err(SasmmError::Empty {
                path: trace.path().to_path_buf(),
            });
        }
        Ok(())
    }

    /// [`SequentialTrace::stream_with`] over events of one thread (tests, live analysis); returns
    /// the number of accesses.
    pub fn stream_events(
        meta: &ProgramMeta,
        events: impl IntoIterator<Item = Event>,
        limits: StreamLimits,
        sink: &mut dyn FnMut(Fragment<'_>) -> Result<()>,
    ) -> Result<u64> {
        let mut b = Builder::new(meta, Some(sink), limits);
        for e in events {
            e.visit(&mut b);
        }
        b.finish_stream()
    }

    /// Builds from metadata and the events of one thread (used by tests and by
    /// [`SequentialTrace::from_trace`]).
    pub fn from_events(
        meta: &ProgramMeta,
        events: impl IntoIterator<Item = Event>,
    ) -> Result<Self> {
        let mut b = Builder::new(meta, None, StreamLimits::default());
        for e in events {
            e.visit(&mut b);
        }
        b.finish()
    }

    /// The id used for accesses that come before any block event.
    pub fn unknown_block(&self) -> u32 {
        self.block_names.len() as u32 - 1
    }

    /// Number of block ids (including [`SequentialTrace::unknown_block`]).
    pub fn num_blocks(&self) -> usize {
        self.block_names.len()
    }

    /// The accesses of a window.
    pub fn window_accesses(&self, w: u32) -> &[Access] {
        &self.accesses[self.windows[w as usize].range()]
    }

    /// Instances of every block (N_i of SASMM eq. 1): windows that are not continuations.
    pub fn block_instances(&self) -> Vec<u64> {
        let mut n = vec![0u64; self.num_blocks()];
        for w in &self.windows {
            if !w.continuation {
                n[w.bb as usize] += 1;
            }
        }
        n
    }

    /// Whether each block ran inside a parallel region (any of its windows).
    pub fn block_parallel(&self) -> Vec<bool> {
        let mut p = vec![false; self.num_blocks()];
        for w in &self.windows {
            if w.placement != Placement::Serial {
                p[w.bb as usize] = true;
            }
        }
        p
    }
}

/// Where a block instance lies in a worksharing construct's loops: the unit of the outermost
/// loop, and of the loop one level inside it when there is one (header entries counted over
/// the whole construct).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    /// (loop, unit) of the outermost unit loop.
    pub(crate) outer: (u32, u64),
    /// (loop, unit) of the loop one level inside it.
    pub(crate) inner: Option<(u32, u64)>,
}

/// A window's placement as known when the window is opened: final, or inside worksharing run
/// `run` (at `unit` of its loops, if any), resolved by the run's [`RunTable`] once the construct
/// has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    /// Known.
    Final(Placement),
    /// Inside a worksharing-loop run.
    Run { run: u32, unit: Option<Unit> },
}

/// What resolves the windows of one worksharing-loop run to iterations once the construct has
/// ended: the run's iteration count and unit-loop header counts over the whole construct, or,
/// when no unit loop was entered, its windows per block (the paper's per-block rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunTable {
    run: u32,
    iterations: u64,
    chunk: Option<u64>,
    whole_range: bool,
    units: HashMap<u32, u64>,
    fallback: Option<HashMap<u32, u64>>,
}

impl RunTable {
    /// The worksharing run the table resolves.
    pub(crate) fn run(&self) -> u32 {
        self.run
    }

    /// The placement of a window of the run opened at `unit` of its loops; windows must be
    /// resolved in program order, with one `seen` (the per-block rule's counters) per run.
    // See: SASMM Alg. 1 — repeated parallel BBs (loop iterations) are split among the cores;
    // here the split unit is the loop iteration, recovered from the unit loops.
    pub(crate) fn resolve(
        &self,
        unit: Option<Unit>,
        bb: u32,
        continuation: bool,
        seen: &mut HashMap<u32, u64>,
    ) -> Placement {
        let iterations = self.iterations;
        let iteration = match &self.fallback {
            None => {
                let Some(unit) = unit else {
                    return Placement::Replicated;
                };
                let (l, u) = if self.whole_range {
                    match unit.inner {
                        Some(inner) => inner,
                        // Chunk-loop overhead: every thread runs it for its own chunks.
                        None => return Placement::Replicated,
                    }
                } else {
                    unit.outer
                };
                let k = self.units.get(&l).copied().unwrap_or(1).max(1);
                match self.chunk {
                    // One unit per iteration, scaled when the unit count differs (vectorised
                    // or unrotated loops).
                    Some(_) if !self.whole_range => {
                        // One unit per chunk.
                        (u.saturating_mul(self.chunk.unwrap_or(1)))
                            .min(iterations.saturating_sub(1))
                    }
                    _ => (u as u128 * iterations as u128 / k as u128) as u64,
                }
            }
            // Fallback without loop metadata (see the module documentation).
            // See: SASMM Alg. 1 lines 8-19 — one instance: copy; several: divide.
            Some(count) => {
                let n = count.get(&bb).copied().unwrap_or(0);
                if n <= 1 {
                    return Placement::Replicated;
                }
                let i = seen.entry(bb).or_insert(0);
                let iteration = (*i as u128 * iterations as u128 / n as u128) as u64;
                if !continuation {
                    *i += 1;
                }
                iteration
            }
        };
        Placement::Iteration {
            workshare: self.run,
            iteration,
        }
    }
}

/// Per worksharing-loop-instance state while decoding.
struct WsState {
    run: u32,
    function: u32,
    /// Loops containing the init block (they enclose the whole construct).
    enclosing: Vec<u32>,
    /// Header entries so far, per unit loop.
    units: HashMap<u32, u64>,
    /// Unit of the most recent block of the construct's own function (for callee blocks).
    current: Option<Unit>,
    /// Windows waiting for their iteration (in memory; a spilled window carries its unit).
    pending: Vec<(u32, Unit)>,
    /// Whether any window was opened inside a unit loop (else the per-block rule applies).
    any_unit: bool,
    /// Outer unit loops of those windows.
    outer_loops: Vec<u32>,
    /// Windows per block that are not continuations (for the per-block rule).
    block_windows: HashMap<u32, u64>,
    first_window: u32,
    lower: i64,
    upper: i64,
    incr: i64,
}

struct Builder<'m, 's> {
    meta: &'m ProgramMeta,
    /// The whole trace, or (streaming) the part not yet handed to `sink`.
    out: SequentialTrace,
    /// Streaming: where finished fragments go.
    sink: Option<&'s mut FragmentSink<'s>>,
    /// Streaming: when to hand a serial section over and when to spill a parallel fragment.
    limits: StreamLimits,
    /// Streaming: the fragment being written to a temporary file, once it outgrew memory.
    spill: Option<SpillWriter>,
    /// While spilling: the tag of each window still in `out.windows`.
    tags: Vec<Tag>,
    /// Streaming: the first error of the temporary file or the sink.
    error: Option<SasmmError>,
    /// Block of the most recent window (it may have been handed over already).
    last_bb: Option<u32>,
    /// Accesses seen.
    accesses: u64,
    depth: u32,
    section_start: u32,
    section_parallel: bool,
    /// Block of the window that was current at each region entry (continued after the exit).
    fork_blocks: Vec<u32>,
    ws: Option<WsState>,
    overflow: bool,
}

impl<'m, 's> Builder<'m, 's> {
    fn new(
        meta: &'m ProgramMeta,
        sink: Option<&'s mut FragmentSink<'s>>,
        limits: StreamLimits,
    ) -> Self {
        let mut block_names: Vec<String> = meta
            .blocks
            .iter()
            .map(|b| {
                let f = meta
                    .functions
                    .get(b.function as usize)
                    .map_or("?", |f| f.name.as_str());
                format!("{f}:{}", b.name)
            })
            .collect();
        block_names.push("(before first block)".into());
        let mi_class = meta.mem_instrs.iter().map(|m| m.class).collect();
        let mi_shared_variable = meta
            .mem_instrs
            .iter()
            .map(|m| {
                m.class == VarClass::Shared
                    && !m.derivation.contains("loaded")
                    && m.derivation
                        .rsplit(" -> ")
                        .next()
                        .is_some_and(|root| root.starts_with("shared variable argument"))
            })
            .collect();
        Builder {
            meta,
            out: SequentialTrace {
                mi_class,
                mi_shared_variable,
                block_names,
                ..Default::default()
            },
            sink,
            limits,
            spill: None,
            tags: Vec::new(),
            error: None,
            last_bb: None,
            accesses: 0,
            depth: 0,
            section_start: 0,
            section_parallel: false,
            fork_blocks: Vec::new(),
            ws: None,
            overflow: false,
        }
    }

    fn pos(&mut self, n: usize) -> u32 {
        u32::try_from(n).unwrap_or_else(|_| {
            self.overflow = true;
            u32::MAX
        })
    }

    fn close_window(&mut self) {
        let end = self.pos(self.out.accesses.len());
        if let Some(w) = self.out.windows.last_mut() {
            w.end = end;
        }
    }

    fn open_window(&mut self, bb: u32, placement: Placement, continuation: bool) {
        self.open_window_at(bb, placement, continuation, None);
    }

    /// Opens a window; `unit`: where it lies in the open worksharing construct's unit loops.
    fn open_window_at(
        &mut self,
        bb: u32,
        placement: Placement,
        continuation: bool,
        unit: Option<Unit>,
    ) {
        self.close_window();
        if self.sink.is_some() {
            let serial = self.depth == 0 && self.ws.is_none() && !self.section_parallel;
            if serial && self.spill.is_none() && self.out.accesses.len() >= self.limits.flush {
                // A long serial section: hand over its closed windows (core 0 runs them in
                // order whichever section they are counted in).
                self.flush(true);
            } else if !serial
                && self.spill.is_none()
                && self.error.is_none()
                && self.out.accesses.len().max(self.out.windows.len()) >= self.limits.spill
            {
                // (After a failed temporary file the stream ends in that error; no retry.)
                self.start_spill();
            }
            if self.spill.is_some() {
                self.drain();
            }
        }
        self.last_bb = Some(bb);
        let start = self.pos(self.out.accesses.len());
        let section = self.out.sections.len() as u32;
        let index = self.out.windows.len() as u32;
        self.out.windows.push(Window {
            bb,
            start,
            end: start,
            section,
            placement,
            continuation,
        });
        let spilling = self.spill.is_some();
        let tag = match self.ws.as_mut() {
            Some(ws) => {
                if !continuation {
                    *ws.block_windows.entry(bb).or_insert(0) += 1;
                }
                if let Some(u) = unit {
                    ws.any_unit = true;
                    if !ws.outer_loops.contains(&u.outer.0) {
                        ws.outer_loops.push(u.outer.0);
                    }
                    if !spilling {
                        ws.pending.push((index, u));
                    }
                }
                Tag::Run { run: ws.run, unit }
            }
            None => Tag::Final(placement),
        };
        if spilling {
            self.tags.push(tag);
        }
    }

    /// Streaming: the fragment outgrew memory; writes what is held to a temporary file, which
    /// takes every window from now until the fragment ends.
    fn start_spill(&mut self) {
        let mut spill = match SpillWriter::new(self.out.mi_class.len()) {
            Ok(w) => w,
            Err(e) => {
                self.error.get_or_insert(e);
                return;
            }
        };
        // The held windows' tags: resolved placements, or their run and unit while their
        // construct is still open.
        let (first, run) = self
            .ws
            .as_ref()
            .map_or((usize::MAX, 0), |ws| (ws.first_window as usize, ws.run));
        let mut pending = self
            .ws
            .as_mut()
            .map(|ws| std::mem::take(&mut ws.pending))
            .unwrap_or_default()
            .into_iter()
            .peekable();
        self.tags.clear();
        for (i, w) in self.out.windows.iter().enumerate() {
            self.tags.push(if i >= first {
                let unit = pending.next_if(|&(p, _)| p as usize == i).map(|(_, u)| u);
                Tag::Run { run, unit }
            } else {
                Tag::Final(w.placement)
            });
        }
        // Sections closed so far, then the open one's windows.
        for sec in std::mem::take(&mut self.out.sections) {
            for i in sec.windows.clone() {
                spill.window(&self.out, i as usize, self.tags[i as usize]);
            }
            spill.close_section(sec.parallel);
        }
        for i in self.section_start as usize..self.out.windows.len() {
            spill.window(&self.out, i, self.tags[i]);
        }
        self.out.windows.clear();
        self.out.accesses.clear();
        self.tags.clear();
        self.section_start = 0;
        self.spill = Some(spill);
    }

    /// While spilling: writes the held windows (all closed) to the temporary file.
    fn drain(&mut self) {
        let Some(spill) = self.spill.as_mut() else {
            return;
        };
        for (i, &tag) in self.tags.iter().enumerate() {
            spill.window(&self.out, i, tag);
        }
        self.out.windows.clear();
        self.out.accesses.clear();
        self.tags.clear();
    }

    fn current_bb(&self) -> Option<u32> {
        self.last_bb
    }

    /// Ends the current section; the next windows go to a new one.
    fn close_section(&mut self) {
        self.close_window();
        if self.spill.is_some() {
            self.drain();
            if let Some(spill) = self.spill.as_mut() {
                spill.close_section(self.section_parallel);
            }
            if self.ws.is_none() {
                self.finish_spill();
            }
            return;
        }
        let end = self.out.windows.len() as u32;
        if end > self.section_start {
            self.out.sections.push(Section {
                parallel: self.section_parallel,
                windows: self.section_start..end,
            });
        }
        self.section_start = end;
        if self.sink.is_some() && self.ws.is_none() {
            self.flush(false);
        }
    }

    /// Streaming: finalises what is buffered as a fragment, hands it to the sink and forgets
    /// it. `open_section`: the current section goes on after the fragment (its windows so far
    /// are handed over as a section of their own).
    fn flush(&mut self, open_section: bool) {
        if open_section {
            let end = self.out.windows.len() as u32;
            if end > self.section_start {
                self.out.sections.push(Section {
                    parallel: self.section_parallel,
                    windows: self.section_start..end,
                });
            }
        }
        finalize(&mut self.out);
        if !self.out.windows.is_empty() && self.error.is_none() {
            if let Some(sink) = self.sink.as_mut() {
                if let Err(e) = sink(Fragment::Memory(&self.out)) {
                    self.error = Some(e);
                }
            }
        }
        self.out.accesses.clear();
        self.out.windows.clear();
        self.out.sections.clear();
        self.out.workshares.clear();
        self.section_start = 0;
    }

    /// Hands the spilled fragment over and goes back to holding windows in memory.
    fn finish_spill(&mut self) {
        let Some(spill) = self.spill.take() else {
            return;
        };
        let header = SequentialTrace {
            workshares: std::mem::take(&mut self.out.workshares),
            mi_class: self.out.mi_class.clone(),
            mi_shared_variable: self.out.mi_shared_variable.clone(),
            block_names: self.out.block_names.clone(),
            ..SequentialTrace::default()
        };
        match spill.finish(header) {
            Ok(fragment) => {
                if fragment.windows() > 0 && self.error.is_none() {
                    if let Some(sink) = self.sink.as_mut() {
                        if let Err(e) = sink(Fragment::Spilled(&fragment)) {
                            self.error = Some(e);
                        }
                    }
                }
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self.section_start = 0;
    }

    /// Starts a new section, continuing the current block instance in it.
    fn cut(&mut self, parallel: bool, continue_bb: Option<u32>) {
        self.close_section();
        self.section_parallel = parallel;
        if let Some(bb) = continue_bb {
            let placement = self.base_placement();
            self.open_window(bb, placement, true);
        }
    }

    fn base_placement(&self) -> Placement {
        if self.depth == 0 {
            Placement::Serial
        } else {
            Placement::Replicated
        }
    }

    /// The loops of block `bb` inside the open worksharing construct, innermost first.
    fn construct_loops(&self, ws: &WsState, bb: u32) -> Vec<u32> {
        let mut chain = Vec::new();
        let mut cur = self.meta.blocks.get(bb as usize).and_then(|b| b.loop_id);
        while let Some(l) = cur {
            if ws.enclosing.contains(&l) {
                break;
            }
            chain.push(l);
            cur = self.meta.loops.get(l as usize).and_then(|l| l.parent);
        }
        chain
    }

    fn block(&mut self, bb: u32) {
        let mut placement = self.base_placement();
        let mut pending = None;
        if self.depth > 0 {
            if let Some(mut ws) = self.ws.take() {
                let function = self.meta.blocks.get(bb as usize).map(|b| b.function);
                if function == Some(ws.function) {
                    let chain = self.construct_loops(&ws, bb);
                    let loops = &self.meta.loops;
                    let mut bump = |l: u32| {
                        let is_header = loops.get(l as usize).map(|m| m.header) == Some(bb);
                        let n = ws.units.entry(l).or_insert(0);
                        if is_header || *n == 0 {
                            *n += 1;
                        }
                        (l, *n - 1)
                    };
                    ws.current = chain.last().map(|&outer| Unit {
                        outer: bump(outer),
                        inner: (chain.len() >= 2).then(|| bump(chain[chain.len() - 2])),
                    });
                }
                pending = ws.current;
                self.ws = Some(ws);
            }
        }
        if pending.is_some() {
            // Resolved to an iteration when the construct ends.
            placement = Placement::Replicated;
        }
        self.open_window_at(bb, placement, false, pending);
    }

    /// Ends the open worksharing construct: its iteration count, and its windows resolved to
    /// iterations (in memory) or its [`RunTable`] kept for reading the spilled windows.
    fn finish_workshare(&mut self) {
        let Some(ws) = self.ws.take() else { return };
        let run = &mut self.out.workshares[ws.run as usize];
        let recorded = if ws.incr > 0 && ws.upper >= ws.lower {
            ((ws.upper - ws.lower) / ws.incr + 1) as u64
        } else if ws.incr < 0 && ws.upper <= ws.lower {
            ((ws.lower - ws.upper) / (-ws.incr) + 1) as u64
        } else {
            0
        };
        // With one thread libomp hands a chunked or dynamic loop its whole range at once: the
        // chunk loop runs once and the iterations are the units of the loops inside it.
        let whole_range = run.chunk.is_some_and(|c| recorded > c);
        let max_units = ws
            .outer_loops
            .iter()
            .map(|l| ws.units.get(l).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        run.iterations = match run.chunk {
            None => recorded.max(1),
            Some(_) if whole_range => recorded,
            Some(c) => max_units.saturating_mul(c).max(recorded).max(1),
        };
        let table = RunTable {
            run: ws.run,
            iterations: run.iterations,
            chunk: run.chunk,
            whole_range,
            units: ws.units,
            fallback: (!ws.any_unit).then_some(ws.block_windows),
        };
        if let Some(spill) = self.spill.as_mut() {
            spill.set_run(table);
            return;
        }
        let mut seen = HashMap::new();
        let mut pending = ws.pending.into_iter().peekable();
        let first = ws.first_window as usize;
        for (i, w) in self.out.windows.iter_mut().enumerate().skip(first) {
            let unit = pending.next_if(|&(p, _)| p as usize == i).map(|(_, u)| u);
            w.placement = table.resolve(unit, w.bb, w.continuation, &mut seen);
        }
    }

    fn other(&mut self, e: Event) {
        match e {
            Event::RegionEnter { .. } => {
                let bb = self.current_bb();
                self.fork_blocks.push(bb.unwrap_or(u32::MAX));
                self.depth += 1;
                if self.depth == 1 {
                    self.cut(true, None);
                }
            }
            Event::RegionExit { .. } => {
                if self.depth == 0 {
                    return;
                }
                if self.depth == 1 {
                    self.finish_workshare();
                }
                self.depth -= 1;
                let caller = self.fork_blocks.pop().filter(|&b| b != u32::MAX);
                if self.depth == 0 {
                    self.cut(false, caller);
                } else if let Some(bb) = caller {
                    let p = self.base_placement();
                    self.open_window(bb, p, true);
                }
            }
            Event::Barrier if self.depth > 0 => {
                let bb = self.current_bb();
                self.cut(true, bb);
            }
            Event::WorkshareInit {
                ws,
                schedule,
                lower,
                upper,
                incr,
                chunk,
                ..
            } if self.depth > 0 => {
                self.finish_workshare();
                let meta = self.meta.workshares.get(ws as usize);
                let function = meta.map_or(u32::MAX, |m| m.function);
                let mut enclosing = Vec::new();
                let mut cur = meta
                    .and_then(|m| self.meta.blocks.get(m.block as usize))
                    .and_then(|b| b.loop_id);
                while let Some(l) = cur {
                    enclosing.push(l);
                    cur = self.meta.loops.get(l as usize).and_then(|l| l.parent);
                }
                let run = self.out.workshares.len() as u32;
                self.out.workshares.push(WorkshareRun {
                    ws,
                    schedule,
                    iterations: 0,
                    chunk: (!rdtrace::Schedule(schedule).is_static_unchunked())
                        .then_some(chunk.max(1) as u64),
                });
                self.ws = Some(WsState {
                    run,
                    function,
                    enclosing,
                    units: HashMap::new(),
                    current: None,
                    pending: Vec::new(),
                    any_unit: false,
                    outer_loops: Vec::new(),
                    block_windows: HashMap::new(),
                    first_window: self.out.windows.len() as u32,
                    lower,
                    upper,
                    incr: if incr == 0 { 1 } else { incr },
                });
            }
            Event::WorkshareFini { .. } if self.ws.is_some() => {
                self.finish_workshare();
                // The rest of the current block instance runs after the loop, on every core.
                if let Some(bb) = self.current_bb() {
                    let p = self.base_placement();
                    self.open_window(bb, p, true);
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Result<SequentialTrace> {
        self.finish_workshare();
        self.close_section();
        if self.overflow {
            return Err(SasmmError::Config(
                "trace has more than 2^32 accesses; SASMM keeps the sequential trace in memory"
                    .into(),
            ));
        }
        finalize(&mut self.out);
        Ok(self.out)
    }

    /// Streaming: hands over the rest; returns the number of accesses seen.
    fn finish_stream(mut self) -> Result<u64> {
        self.finish_workshare();
        self.close_section();
        // Sections closed while a worksharing construct was open.
        if self.spill.is_some() {
            self.finish_spill();
        } else {
            self.flush(false);
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.overflow {
            return Err(SasmmError::Config(
                "a parallel fragment held in memory has more than 2^32 accesses; lower RDTOOLS_SPILL_ACCESSES"
                    .into(),
            ));
        }
        Ok(self.accesses)
    }
}

/// Drops empty continuation windows (they carry nothing and are not block instances) and the
/// sections left without windows, and renumbers the windows' sections.
fn finalize(out: &mut SequentialTrace) {
    let mut remap = Vec::with_capacity(out.windows.len());
    let mut kept = Vec::with_capacity(out.windows.len());
    for w in &out.windows {
        remap.push(kept.len() as u32);
        if !(w.continuation && w.start == w.end) {
            kept.push(*w);
        }
    }
    remap.push(kept.len() as u32);
    for s in &mut out.sections {
        s.windows = remap[s.windows.start as usize]..remap[s.windows.end as usize];
    }
    out.sections.retain(|s| !s.windows.is_empty());
    for (i, s) in out.sections.iter().enumerate() {
        for w in &mut kept[s.windows.start as usize..s.windows.end as usize] {
            w.section = i as u32;
        }
    }
    out.windows = kept;
}

impl EventVisitor for Builder<'_, '_> {
    fn block(&mut self, bb: u32) {
        Builder::block(self, bb);
    }

    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        if self.out.windows.is_empty() {
            let p = self.base_placement();
            match self.last_bb {
                None => {
                    let bb = self.out.block_names.len() as u32 - 1;
                    self.open_window(bb, p, false);
                }
                // Streaming, after a fragment was handed over with no window open since (an
                // access between a region's entry and its first block): the last block goes on.
                Some(bb) => self.open_window(bb, p, true),
            }
        }
        self.accesses += 1;
        self.out.accesses.push(Access {
            addr,
            len: len.min(u32::MAX as u64) as u32,
            mi,
        });
    }

    fn other(&mut self, event: Event) {
        Builder::other(self, event);
    }
}
