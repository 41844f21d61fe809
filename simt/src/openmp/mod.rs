//! The SIMT view of an OpenMP worksharing loop: iteration `i` of the loop is GPU thread `i`,
//! `block_size` consecutive threads form a thread block and `warp_size` consecutive threads of a
//! block a warp. Each execution of a worksharing loop (each *launch*) becomes one [`Kernel`].
//!
//! # Identifying iterations
//!
//! Between a thread's `WorkshareInit` and `WorkshareFini` of worksharing loop `w`, every entry of
//! the header block of `w`'s natural loop (`WorkshareMeta::loop_id` → `LoopMeta::header`) starts
//! the thread's next iteration. Iterations are numbered from the lower bound the runtime
//! reported: the `WorkshareInit` bounds for static schedules (that thread's range), the
//! `WorkshareNext` chunk bounds for dispatch schedules (dynamic, guided). clang normalises the
//! induction variable of a worksharing loop to `0..trip_count`, so the number is the
//! zero-based logical iteration, like `blockIdx.x * blockDim.x + threadIdx.x` on a GPU. Header
//! entries beyond the reported upper bound (the exit test of an unrotated `-O0` loop) and
//! accesses before the first header entry start no iteration and are not attributed.
//!
//! Limits of the rule: `schedule(static, chunk)` loops are skipped (their natural loop is the
//! chunk loop, entered once per chunk); a loop whose header the pass could not find is skipped;
//! worksharing loops met inside an iteration by the same team are part of that iteration (a
//! nested parallel region is a team of its own, see below); only memory instructions of the
//! `Shared` class (globals, heap, shared arguments: the GPU's global memory) count unless
//! [`SimtConfig::include_private`] is set; `collapse(n)` loops work, the collapsed index being
//! the thread id.
//!
//! # Teams and nested parallelism
//!
//! A launch belongs to one *team*: one execution of a parallel region (or the implicit team of
//! one of a thread outside every region), and is identified by the team and by how many times
//! the team met the same worksharing loop before (every thread of a team meets the team's
//! worksharing constructs in the same order). A launch is complete once every thread of the
//! team (`RegionEnter`'s team size) has finished its part, or once the team has joined.
//! Several launches of one loop can be in flight at once: with nested parallelism each outer
//! thread forks an inner team of its own (a team of one when libomp serializes the inner
//! region, as it does by default, or a real team with `OMP_MAX_ACTIVE_LEVELS=2`), and each
//! inner team runs the inner loop. A nested region is its own team even inside an iteration of
//! an outer loop (like a child kernel launch): its loops are launches of their own, and the
//! outer iteration does not include their accesses. `launch` numbers the launches of a loop in
//! the order they started, over all teams.
//!
//! The trace names a team member only by its region and thread number, so members are
//! matched to teams in stamp order (every OpenMP event is stamped, so this is the order in
//! which they happened): a thread entering a region as thread 0 joins the team of its own
//! innermost fork of that region; a worker joins a forked team of that region and size that is
//! not full and lacks its thread number, preferring the team of the master it last worked for
//! (libomp tends to hand a master the same workers), else the oldest. When two such teams wait
//! for the same thread number at once, the choice is a guess: both teams become *uncertain*,
//! their launches are held until they join, and a join corrects them (a master joins only after
//! every worker of its team has left the region, so a member still inside belongs to another
//! team, and a thread number the joining team lacks belongs to a worker of another uncertain
//! team that has left: such members, and their parts of the launches, are exchanged). So every
//! launch gets its team's number of parts; which of two workers that both left before either
//! team joined went with which master cannot be told from the trace (the trace would need the
//! team in `RegionEnter`, e.g. `omp_get_ancestor_thread_num` of the enclosing level), and such
//! a pair of launches may have their second halves swapped.
//!
//! # Forming MIs
//!
//! Within an iteration, the k-th execution of static memory instruction `m` is the thread's
//! instance `(m, k)`. The threads of a warp (or of the whole block, [`MiScope::Block`]) issue
//! their instances in lockstep: an MI is one instance issued by every thread of the group that
//! executed it; threads that did not (divergence, shorter inner loops) are inactive and have no
//! lane. The group's order of MIs merges the threads' sequences: at each step the first thread
//! (in thread order) whose next instance is *ready* — next for every thread that still has it —
//! issues it, together with all threads for which it is next (reconvergence); if none is ready,
//! the first thread's next instance issues with the threads for which it is next. Warp-scope
//! streams of a block interleave its warps round-robin (the thesis's warp scheduling,
//! section 7.2.3).

mod collect;
mod deliver;
mod kernel;
mod part_accesses;
mod teams;
#[cfg(test)]
mod tests;

use crate::error::{Result, SimtError};
use crate::grid::Kernel;
use crate::mi::Granularity;
use collect::{Collector, ThreadState};
use deliver::{deliver, LaunchSink, WalkError};
use kernel::Emitter;
use rdtrace::event::Event;
use rdtrace::meta::ProgramMeta;
use rdtrace::{Analysis, Shape, Trace};
use rustc_hash::FxHashMap as FastMap;
use serde::{Deserialize, Serialize};
use teams::Tables;

/// Which threads issue an MI together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MiScope {
    /// The threads of one warp.
    Warp,
    /// All threads of the block (what the thesis's GPU traces record).
    #[default]
    Block,
}

/// How OpenMP iterations map onto GPU threads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimtConfig {
    /// Threads (iterations) per block.
    pub block_size: usize,
    /// Threads per warp.
    pub warp_size: usize,
    /// Whether MIs are formed per warp or per block.
    pub mi_scope: MiScope,
    /// Address granularity of the lanes.
    pub granularity: Granularity,
    /// Also count accesses of `Private`-class memory instructions (the thread's stack).
    pub include_private: bool,
}

impl Default for SimtConfig {
    /// Blocks of 256 threads, warps of 32, block-scope MIs, element granularity, shared only.
    fn default() -> Self {
        SimtConfig {
            block_size: 256,
            warp_size: 32,
            mi_scope: MiScope::Block,
            granularity: Granularity::Element,
            include_private: false,
        }
    }
}

/// One launch of a worksharing loop as a SIMT kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelLaunch {
    /// Worksharing loop id.
    pub workshare: u32,
    /// How many launches of the same loop came before this one.
    pub launch: u32,
    /// Source location of the loop (`file:line:col`, or `?`).
    pub location: String,
    /// Function containing the loop.
    pub function: String,
    /// Logical iteration numbered GPU thread 0.
    pub first_iteration: i64,
    /// GPU threads: iterations from the first to the last one entered.
    pub threads: u64,
    /// OpenMP threads that ran iterations.
    pub omp_threads: u32,
    /// Accesses attributed to iterations.
    pub accesses: u64,
    /// Accesses between init and fini that belong to no iteration (before the first header
    /// entry, or after the last iteration).
    pub unattributed: u64,
    /// The SIMT kernel.
    pub kernel: Kernel,
}

/// A worksharing loop that could not be mapped, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedLoop {
    /// Worksharing loop id.
    pub workshare: u32,
    /// Source location.
    pub location: String,
    /// Why it was skipped.
    pub reason: String,
}

/// Everything [`import_trace`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenMpImport {
    /// Launches in the order the first thread met them.
    pub launches: Vec<KernelLaunch>,
    /// Loops that were skipped.
    pub skipped: Vec<SkippedLoop>,
}

/// Maps every worksharing-loop launch of a trace to a SIMT kernel, holding every launch until
/// the end ([`for_each_launch`] hands each over as soon as it is complete): the same launches in
/// the same order.
pub fn import_trace(trace: &Trace, config: &SimtConfig) -> Result<OpenMpImport> {
    let mut launches = Vec::new();
    let skipped = for_each_launch::<SimtError>(trace, config, &mut |l| {
        launches.push(l);
        Ok(())
    })?;
    Ok(OpenMpImport { launches, skipped })
}

/// Maps every worksharing-loop launch of a trace to a SIMT kernel and hands each to `f` as soon
/// as every thread of its team has finished its part (or the team has joined; a team whose
/// members are uncertain, see the module docs, when it has joined), reading the events of all
/// threads merged in stamp order: memory is the launches in flight (the accesses of one launch,
/// 12 bytes each and 16 per iteration, for a program whose worksharing loops end before the
/// next starts; and the launch `f` works on) plus one decoded chunk per thread, not the trace.
/// With two CPUs, each launch's kernel is built and `f` called on a thread of their own while
/// the events of the next launch are read (see `deliver`). Launches come in the order they
/// started. Returns the loops that could not be mapped; an error of `f` stops the pass and is
/// returned.
pub fn for_each_launch<E: From<SimtError> + Send>(
    trace: &Trace,
    config: &SimtConfig,
    f: &mut (dyn FnMut(KernelLaunch) -> std::result::Result<(), E> + Send),
) -> std::result::Result<Vec<SkippedLoop>, E> {
    check_config(config)?;
    if trace.meta.workshares.is_empty() {
        // No worksharing loop, no kernel (the reader admits no event of a loop the metadata
        // lacks): what is left to learn is whether the events are sound, and every CPU can
        // check chunks for that.
        trace.finish_validation().map_err(SimtError::from)?;
        return Ok(Vec::new());
    }
    let tables = Tables::of(&trace.meta, config);
    let emitter = Emitter { meta: &trace.meta };
    deliver(config, f, deliver::pipelined(), |sink| {
        let walk = Walk::new(&tables, &emitter, sink);
        rdtrace::analysis::run(trace, walk, |_| {}).map_err(SimtError::from)
    })
}

/// [`for_each_launch`] over any source of a run's events merged in stamp order (a trace file's
/// [`Trace::merged`], or a stream's `rdtrace::LiveTrace::next_merged`) whose metadata is `meta`.
pub fn for_each_launch_in<E: From<SimtError> + Send>(
    meta: &ProgramMeta,
    events: impl IntoIterator<Item = rdtrace::Result<(u32, Event)>>,
    config: &SimtConfig,
    f: &mut (dyn FnMut(KernelLaunch) -> std::result::Result<(), E> + Send),
) -> std::result::Result<Vec<SkippedLoop>, E> {
    check_config(config)?;
    let tables = Tables::of(meta, config);
    let emitter = Emitter { meta };
    deliver(config, f, deliver::pipelined(), |sink| {
        let mut walk = Walk::new(&tables, &emitter, sink);
        rdtrace::analysis::run_merged(events, &mut walk, |_| {}).map_err(SimtError::from)?;
        Ok(walk.finish())
    })
}

/// The walk over a run's events merged in stamp order, as an [`Analysis`]: each event goes
/// through its thread's [`Collector`]; team moves are applied to the threads they name, and
/// finished launches are handed to `f` as soon as they are complete.
struct Walk<'w, 's, 'a, E> {
    shared: teams::Shared<'a>,
    emitter: &'w Emitter<'a>,
    f: &'w mut LaunchSink<'s, E>,
    /// Threads' states by slot, in order of appearance.
    threads: Vec<ThreadState>,
    slot_of: FastMap<u32, usize>,
    /// The thread whose events come now, and its slot.
    current: (u32, usize),
    /// The first error of `f`: the visit cannot stop, so the rest of the events are skipped.
    failed: Option<WalkError<E>>,
}

impl<'w, 's, 'a, E> Walk<'w, 's, 'a, E> {
    fn new(tables: &'a Tables, emitter: &'w Emitter<'a>, f: &'w mut LaunchSink<'s, E>) -> Self {
        Walk {
            shared: tables.shared(),
            emitter,
            f,
            threads: Vec::new(),
            slot_of: FastMap::default(),
            current: (0, usize::MAX),
            failed: None,
        }
    }

    #[inline]
    fn collector(&mut self) -> Option<Collector<'_, 'a>> {
        if self.failed.is_some() {
            return None;
        }
        let (index, slot) = self.current;
        Some(Collector {
            shared: &mut self.shared,
            thread: self.threads.get_mut(slot)?,
            index,
        })
    }

    #[inline]
    fn after(&mut self) {
        if !self.shared.moves.is_empty() {
            for m in std::mem::take(&mut self.shared.moves) {
                if let Some(&s) = self.slot_of.get(&m.thread) {
                    self.threads[s].apply(&m);
                }
            }
        }
        if self.shared.finished_some {
            let threads = self.threads.len();
            if let Err(e) = self.emitter.drain(&mut self.shared, false, threads, self.f) {
                self.failed = Some(e);
            }
        }
    }
}

impl<E> rdtrace::EventVisitor for Walk<'_, '_, '_, E> {
    #[inline]
    fn block(&mut self, bb: u32) {
        if let Some(mut c) = self.collector() {
            c.block(bb);
            self.after();
        }
    }

    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        if let Some(mut c) = self.collector() {
            c.access(mi, addr, len);
            self.after();
        }
    }

    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        if let Some(mut c) = self.collector() {
            c.branch(br, outcome);
            self.after();
        }
    }

    fn other(&mut self, event: Event) {
        if let Some(mut c) = self.collector() {
            c.other(event);
            self.after();
        }
    }
}

impl<E> Analysis for Walk<'_, '_, '_, E> {
    /// The loops that could not be mapped, or the first error of `f`.
    type Report = std::result::Result<Vec<SkippedLoop>, WalkError<E>>;

    fn shape(&self) -> Shape {
        Shape::Merged
    }

    fn thread(&mut self, thread: u32) {
        let threads = &mut self.threads;
        let slot = *self.slot_of.entry(thread).or_insert_with(|| {
            threads.push(ThreadState::default());
            threads.len() - 1
        });
        self.current = (thread, slot);
    }

    fn finish(mut self) -> Self::Report {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let threads = self.threads.len();
        self.emitter
            .drain(&mut self.shared, true, threads, self.f)?;
        Ok(self.emitter.skipped(&self.shared))
    }
}

fn check_config(config: &SimtConfig) -> Result<()> {
    if config.block_size == 0 || config.warp_size == 0 {
        return Err(SimtError::InvalidConfig(
            "block and warp sizes must be at least 1 thread".into(),
        ));
    }
    Ok(())
}
