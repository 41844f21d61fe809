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

mod builder;
mod pipeline;

use crate::error::{Result, SasmmError};
use crate::spill::SpilledFragment;
use builder::{Builder, Output};
use rdtrace::analysis::{Analysis, Shape};
use rdtrace::meta::ProgramMeta;
use rdtrace::{Event, EventVisitor, Trace};

pub use crate::window::{Access, Placement, Section, SequentialTrace, Window, WorkshareRun};
pub use pipeline::stream_pipelined;

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

/// A fragment as the builder hands it over ([`Fragment`] with the held fragment mutable): the
/// receiver may take the held fragment's windows, accesses, sections and worksharing runs
/// (leaving other buffers in their place, whose capacity the builder then reuses) instead of
/// copying them; it must leave the program's tables. The builder clears all four right after.
pub(crate) enum FragmentMut<'a> {
    /// Sections in memory.
    Memory(&'a mut SequentialTrace),
    /// Sections written to a temporary file.
    Spilled(&'a SpilledFragment),
}

impl FragmentMut<'_> {
    /// The fragment, read-only.
    fn shared(&self) -> Fragment<'_> {
        match self {
            FragmentMut::Memory(s) => Fragment::Memory(s),
            FragmentMut::Spilled(s) => Fragment::Spilled(s),
        }
    }
}

/// Where the builder's fragments go ([`FragmentMut`]).
pub(crate) type FragmentMutSink<'s> = dyn FnMut(FragmentMut<'_>) -> Result<()> + 's;

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

/// The streamed pass of [`SequentialTrace::stream_with`] as an [`Analysis`]: it reads one thread's
/// events in order (a sequential run's: the callers check that only one thread has events) and
/// reports the number of accesses, or the first error of its temporary file or its sink.
pub struct SequentialPass<'m, 's>(Builder<'m, 's>);

impl<'m, 's> SequentialPass<'m, 's> {
    /// Hands `sink` the fragments (see [`SequentialTrace::stream_with`]).
    pub(crate) fn fragments(
        meta: &'m ProgramMeta,
        limits: StreamLimits,
        sink: &'s mut FragmentMutSink<'s>,
    ) -> Self {
        SequentialPass(Builder::new(meta, Output::Fragments(sink), limits))
    }
}

impl EventVisitor for SequentialPass<'_, '_> {
    #[inline]
    fn block(&mut self, bb: u32) {
        EventVisitor::block(&mut self.0, bb);
    }
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        EventVisitor::access(&mut self.0, mi, addr, len);
    }
    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        EventVisitor::branch(&mut self.0, br, outcome);
    }
    #[inline]
    fn other(&mut self, event: Event) {
        EventVisitor::other(&mut self.0, event);
    }
}

impl Analysis for SequentialPass<'_, '_> {
    type Report = Result<u64>;

    fn shape(&self) -> Shape {
        Shape::PerThread
    }

    fn thread(&mut self, _thread: u32) {}

    fn finish(self) -> Result<u64> {
        self.0.finish_stream()
    }
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
        let mut b = Builder::new(&trace.meta, Output::Whole, StreamLimits::default());
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
        Self::stream_handing_over(trace, limits, &mut |f| sink(f.shared()))
    }

    /// [`SequentialTrace::stream_with`] handing the held fragments over mutably, so that the
    /// sink can take their buffers ([`FragmentMut`]).
    pub(crate) fn stream_handing_over(
        trace: &Trace,
        limits: StreamLimits,
        sink: &mut FragmentMutSink<'_>,
    ) -> Result<()> {
        only_thread_with_events(trace)?;
        let pass = SequentialPass::fragments(&trace.meta, limits, sink);
        if rdtrace::analysis::run(trace, pass, |_| {})?? == 0 {
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
        let mut shared = |f: FragmentMut<'_>| sink(f.shared());
        let mut pass = SequentialPass::fragments(meta, limits, &mut shared);
        for e in events {
            e.visit(&mut pass);
        }
        pass.finish()
    }

    /// Number of block ids of a trace of `meta`'s program: its blocks and
    /// [`SequentialTrace::unknown_block`] (the [`SequentialTrace::num_blocks`] of every
    /// fragment).
    pub fn block_ids(meta: &ProgramMeta) -> usize {
        meta.blocks.len() + 1
    }

    /// Builds from metadata and the events of one thread (used by tests and by
    /// [`SequentialTrace::from_trace`]).
    pub fn from_events(
        meta: &ProgramMeta,
        events: impl IntoIterator<Item = Event>,
    ) -> Result<Self> {
        let mut b = Builder::new(meta, Output::Whole, StreamLimits::default());
        for e in events {
            e.visit(&mut b);
        }
        b.finish()
    }
}
