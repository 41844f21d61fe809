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
//! [`SequentialTrace::stream`] hands the same windows and sections over in *fragments* (each a
//! `SequentialTrace` of whole sections, local indices) and forgets each fragment once handed
//! over: a serial section is cut at a window boundary every [`STREAM_FLUSH_ACCESSES`] accesses,
//! and parallel code is held from a section's start until the section ends with no worksharing
//! construct open. So streaming memory is bounded by the largest parallel section (the accesses
//! between two synchronisation points of a parallel region), never by the trace length. Fed
//! fragment by fragment, Alg. 1-2 give the same shared trace as over the whole
//! `SequentialTrace` (sections are mimicked and interleaved independently; a serial section cut in
//! two is core 0's accesses in the same order).

use crate::error::{Result, SasmmError};
use rdtrace::meta::{ProgramMeta, VarClass};
use rdtrace::{Event, EventVisitor, Trace};
use std::collections::HashMap;
use std::ops::Range;

/// Accesses a serial section may buffer while streaming before the windows closed so far are
/// handed over (see the module documentation).
pub const STREAM_FLUSH_ACCESSES: usize = 1 << 16;

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
        let mut b = Builder::new(&trace.meta, None, 0);
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
    /// fragment is a `SequentialTrace` of whole sections with local indices and the program's
    /// metadata tables; its windows and accesses are forgotten after `sink` returns. Fed to
    /// Alg. 1-2 one after the other, the fragments give the same shared trace as
    /// [`SequentialTrace::from_trace`]. Same errors as `from_trace` (found at the end for an
    /// empty trace).
    pub fn stream(trace: &Trace, sink: &mut dyn FnMut(&SequentialTrace)) -> Result<()> {
        Self::stream_with(trace, STREAM_FLUSH_ACCESSES, sink)
    }

    /// [`SequentialTrace::stream`] with the serial flush threshold given (tests use small ones).
    pub fn stream_with(
        trace: &Trace,
        flush_accesses: usize,
        sink: &mut dyn FnMut(&SequentialTrace),
    ) -> Result<()> {
        let thread = only_thread_with_events(trace)?;
        let mut b = Builder::new(&trace.meta, Some(sink), flush_accesses);
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

    /// [`SequentialTrace::stream_with`] over events of one thread (tests).
    pub fn stream_events(
        meta: &ProgramMeta,
        events: impl IntoIterator<Item = Event>,
        flush_accesses: usize,
        sink: &mut dyn FnMut(&SequentialTrace),
    ) -> Result<u64> {
        let mut b = Builder::new(meta, Some(sink), flush_accesses);
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
        let mut b = Builder::new(meta, None, 0);
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
#[derive(Clone, Copy, Debug)]
struct Unit {
    outer: (u32, u64),
    inner: Option<(u32, u64)>,
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
    /// Windows waiting for their iteration.
    pending: Vec<(u32, Unit)>,
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
    sink: Option<&'s mut dyn FnMut(&SequentialTrace)>,
    /// Streaming: buffered accesses of a serial section that trigger a flush at the next window.
    flush_accesses: usize,
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
        sink: Option<&'s mut dyn FnMut(&SequentialTrace)>,
        flush_accesses: usize,
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
            flush_accesses,
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
        self.close_window();
        if self.sink.is_some()
            && self.depth == 0
            && self.ws.is_none()
            && !self.section_parallel
            && self.out.accesses.len() >= self.flush_accesses
        {
            // A long serial section: hand over its closed windows (core 0 runs them in order
            // whichever section they are counted in).
            self.flush(true);
        }
        self.last_bb = Some(bb);
        let start = self.pos(self.out.accesses.len());
        let section = self.out.sections.len() as u32;
        self.out.windows.push(Window {
            bb,
            start,
            end: start,
            section,
            placement,
            continuation,
        });
    }

    fn current_bb(&self) -> Option<u32> {
        self.last_bb
    }

    /// Ends the current section; the next windows go to a new one.
    fn close_section(&mut self) {
        self.close_window();
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
        if !self.out.windows.is_empty() {
            if let Some(sink) = self.sink.as_mut() {
                sink(&self.out);
            }
        }
        self.out.accesses.clear();
        self.out.windows.clear();
        self.out.sections.clear();
        self.out.workshares.clear();
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
        self.open_window(bb, placement, false);
        if let (Some(unit), Some(ws)) = (pending, self.ws.as_mut()) {
            ws.pending.push((self.out.windows.len() as u32 - 1, unit));
        }
    }

    /// Resolves the open worksharing construct's windows to iterations.
    // See: SASMM Alg. 1 — repeated parallel BBs (loop iterations) are split among the cores;
    // here the split unit is the loop iteration, recovered from the unit loops.
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
            .pending
            .iter()
            .map(|(_, u)| ws.units[&u.outer.0])
            .max()
            .unwrap_or(0);
        run.iterations = match run.chunk {
            None => recorded.max(1),
            Some(_) if whole_range => recorded,
            Some(c) => (max_units * c).max(recorded).max(1),
        };
        let iterations = run.iterations;
        let chunk = run.chunk;
        let windows = &mut self.out.windows;
        if !ws.pending.is_empty() {
            for &(w, unit) in &ws.pending {
                let (l, u) = if whole_range {
                    match unit.inner {
                        Some(inner) => inner,
                        // Chunk-loop overhead: every thread runs it for its own chunks.
                        None => continue,
                    }
                } else {
                    unit.outer
                };
                let k = ws.units[&l].max(1);
                let iteration = if chunk.is_none() || whole_range {
                    // One unit per iteration, scaled when the unit count differs (vectorised
                    // or unrotated loops).
                    (u as u128 * iterations as u128 / k as u128) as u64
                } else {
                    // One unit per chunk.
                    (u * chunk.unwrap_or(1)).min(iterations.saturating_sub(1))
                };
                windows[w as usize].placement = Placement::Iteration {
                    workshare: ws.run,
                    iteration,
                };
            }
        } else {
            // Fallback without loop metadata (see the module documentation).
            // See: SASMM Alg. 1 lines 8-19 — one instance: copy; several: divide.
            let range = ws.first_window as usize..windows.len();
            let mut count: HashMap<u32, u64> = HashMap::new();
            for w in &windows[range.clone()] {
                if !w.continuation {
                    *count.entry(w.bb).or_insert(0) += 1;
                }
            }
            let mut seen: HashMap<u32, u64> = HashMap::new();
            for w in &mut windows[range] {
                let n = count.get(&w.bb).copied().unwrap_or(0);
                if n > 1 && w.placement != Placement::Serial {
                    let i = seen.entry(w.bb).or_insert(0);
                    let iteration = (*i as u128 * iterations as u128 / n as u128) as u64;
                    if !w.continuation {
                        *i += 1;
                    }
                    w.placement = Placement::Iteration {
                        workshare: ws.run,
                        iteration,
                    };
                }
            }
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
        self.flush(false);
        if self.overflow {
            return Err(SasmmError::Config(
                "a parallel section has more than 2^32 accesses; SASMM holds one section in memory"
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
