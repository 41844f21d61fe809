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
//! worksharing loops nested inside an iteration are part of that iteration; only memory
//! instructions of the `Shared` class (globals, heap, shared arguments: the GPU's global memory)
//! count unless [`SimtConfig::include_private`] is set; `collapse(n)` loops work, the collapsed
//! index being the thread id.
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

use crate::error::{Result, SimtError};
use crate::grid::{BlockStream, Kernel};
use crate::mi::{Granularity, MemInstr};
use rdtrace::event::{Event, EventVisitor};
use rdtrace::meta::{ProgramMeta, VarClass, WorkshareKind};
use rdtrace::Trace;
use rustc_hash::FxHashMap as FastMap;
use serde::{Deserialize, Serialize};

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

/// Accesses of one launch, gathered over all OpenMP threads.
#[derive(Default)]
struct LaunchAccum {
    /// `(iteration, memory instruction, address)` in each thread's program order.
    accesses: Vec<(i64, u32, u64)>,
    first: Option<i64>,
    last: Option<i64>,
    omp_threads: u32,
    unattributed: u64,
    /// Team size of the first thread that started the launch (every thread of a team meets
    /// each worksharing construct).
    team: u32,
    /// Threads that finished their part.
    done: u32,
}

/// The worksharing loop a thread is in.
struct Active {
    key: (u32, u32),
    /// Header block of the loop; `None` when the loop is skipped.
    header: Option<u32>,
    next: i64,
    upper: i64,
    current: Option<i64>,
    /// Worksharing loops nested inside the iteration.
    nested: u32,
}

/// What all threads share while collecting launches.
struct Shared<'a> {
    headers: &'a [Option<u32>],
    kinds: &'a [WorkshareKind],
    counted: &'a [bool],
    accum: FastMap<(u32, u32), LaunchAccum>,
    /// Launches in the order they were first met, not yet handed over.
    order: std::collections::VecDeque<(u32, u32)>,
    chunked: Vec<u32>,
    /// A thread finished its part of a launch since the last look.
    finished_some: bool,
}

/// One thread's state while collecting launches.
#[derive(Default)]
struct ThreadState {
    launches_seen: FastMap<u32, u32>,
    active: Option<Active>,
    /// Team sizes of the regions the thread is in, innermost last.
    teams: Vec<u32>,
}

struct Collector<'s, 'a> {
    shared: &'s mut Shared<'a>,
    thread: &'s mut ThreadState,
}

impl Collector<'_, '_> {
    fn note_bounds(&mut self, key: (u32, u32), lower: i64) {
        let a = self.shared.accum.get_mut(&key).expect("launch exists");
        a.first = Some(a.first.map_or(lower, |f| f.min(lower)));
    }

    /// The thread's part of the active launch ended.
    fn end_active(&mut self) {
        if let Some(act) = self.thread.active.take() {
            if let Some(a) = self.shared.accum.get_mut(&act.key) {
                a.done += 1;
                self.shared.finished_some = true;
            }
        }
    }
}

impl EventVisitor for Collector<'_, '_> {
    fn block(&mut self, bb: u32) {
        let Some(act) = &mut self.thread.active else {
            return;
        };
        if act.nested > 0 || act.header != Some(bb) {
            return;
        }
        // See: module docs, "Identifying iterations": a header entry starts the next iteration.
        if act.next <= act.upper {
            act.current = Some(act.next);
            act.next += 1;
            let (key, it) = (act.key, act.next - 1);
            let a = self.shared.accum.get_mut(&key).expect("launch exists");
            a.last = Some(a.last.map_or(it, |l| l.max(it)));
        } else {
            act.current = None;
        }
    }

    fn access(&mut self, mi: u32, addr: u64, _len: u64) {
        let Some(act) = &self.thread.active else {
            return;
        };
        if act.header.is_none()
            || !self
                .shared
                .counted
                .get(mi as usize)
                .copied()
                .unwrap_or(false)
        {
            return;
        }
        let a = self.shared.accum.get_mut(&act.key).expect("launch exists");
        match act.current {
            Some(it) => a.accesses.push((it, mi, addr)),
            None => a.unattributed += 1,
        }
    }

    fn other(&mut self, event: Event) {
        match event {
            Event::RegionEnter { team_size, .. } => self.thread.teams.push(team_size.max(1)),
            Event::WorkshareInit {
                ws,
                schedule,
                lower,
                upper,
                ..
            } => {
                if let Some(act) = &mut self.thread.active {
                    act.nested += 1;
                    return;
                }
                let n = self.thread.launches_seen.entry(ws).or_insert(0);
                let key = (ws, *n);
                *n += 1;
                let team = self.thread.teams.last().copied().unwrap_or(1);
                let shared = &mut *self.shared;
                let accum = shared.accum.entry(key).or_insert_with(|| {
                    shared.order.push_back(key);
                    LaunchAccum {
                        team,
                        ..LaunchAccum::default()
                    }
                });
                accum.omp_threads += 1;
                let kind = shared.kinds.get(ws as usize).copied();
                let mut header = shared.headers.get(ws as usize).copied().flatten();
                if kind == Some(WorkshareKind::Static)
                    && rdtrace::Schedule(schedule).is_static_chunked()
                {
                    if !shared.chunked.contains(&ws) {
                        shared.chunked.push(ws);
                    }
                    header = None;
                }
                let (next, upper) = match kind {
                    Some(WorkshareKind::Static) => (lower, upper),
                    // Dispatch loops hand out chunks with WorkshareNext.
                    _ => (0, -1),
                };
                self.thread.active = Some(Active {
                    key,
                    header,
                    next,
                    upper,
                    current: None,
                    nested: 0,
                });
                if kind == Some(WorkshareKind::Static) && header.is_some() && lower <= upper {
                    self.note_bounds(key, lower);
                }
            }
            Event::WorkshareNext {
                ws,
                more,
                lower,
                upper,
            } => {
                let Some(act) = &mut self.thread.active else {
                    return;
                };
                if act.nested > 0 || act.key.0 != ws || !more {
                    return;
                }
                act.next = lower;
                act.upper = upper;
                act.current = None;
                let (key, skip) = (act.key, act.header.is_none());
                if !skip && lower <= upper {
                    self.note_bounds(key, lower);
                }
            }
            Event::WorkshareFini { ws } => {
                let Some(act) = &mut self.thread.active else {
                    return;
                };
                if act.nested > 0 {
                    act.nested -= 1;
                } else if act.key.0 == ws {
                    self.end_active();
                }
            }
            Event::RegionExit { .. } => {
                self.end_active();
                self.thread.teams.pop();
            }
            _ => {}
        }
    }
}

/// Turns finished launches into kernels, in the order they were first met.
struct Emitter<'a> {
    meta: &'a ProgramMeta,
    config: &'a SimtConfig,
}

impl Emitter<'_> {
    fn location(&self, ws: u32) -> String {
        self.meta
            .workshares
            .get(ws as usize)
            .map_or_else(|| "?".to_string(), |w| self.meta.format_loc(w.loc))
    }

    /// Hands over the launches at the front of the order whose every thread has finished (all
    /// of them when `all`); launches of loops that are skipped are dropped.
    fn drain<E>(
        &self,
        shared: &mut Shared<'_>,
        all: bool,
        f: &mut dyn FnMut(KernelLaunch) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        shared.finished_some = false;
        while let Some(&key) = shared.order.front() {
            let ready = shared.accum.get(&key).is_some_and(|a| a.done >= a.team);
            if !all && !ready {
                break;
            }
            shared.order.pop_front();
            let a = shared.accum.remove(&key).expect("launch recorded");
            let (ws, launch) = key;
            if shared.chunked.contains(&ws) || shared.headers[ws as usize].is_none() {
                continue;
            }
            let meta = self.meta;
            let function = meta
                .workshares
                .get(ws as usize)
                .and_then(|w| meta.functions.get(w.function as usize))
                .map_or_else(|| "?".to_string(), |f| f.name.clone());
            let loc = self.location(ws);
            let first = a.first.unwrap_or(0);
            let threads = match a.last {
                Some(last) if last >= first => (last - first + 1) as u64,
                _ => 0,
            };
            let accesses = a.accesses.len() as u64;
            let kernel = build_kernel(
                format!("{function} ({loc}) workshare {ws} launch {launch}"),
                a.accesses,
                first,
                threads,
                self.config,
            );
            f(KernelLaunch {
                workshare: ws,
                launch,
                location: loc,
                function,
                first_iteration: first,
                threads,
                omp_threads: a.omp_threads,
                accesses,
                unattributed: a.unattributed,
                kernel,
            })?;
        }
        Ok(())
    }

    /// The loops that cannot be mapped.
    fn skipped(&self, shared: &Shared<'_>) -> Vec<SkippedLoop> {
        let mut out = Vec::new();
        for ws in 0..self.meta.workshares.len() as u32 {
            let reason = if shared.chunked.contains(&ws) {
                Some("schedule(static, chunk): its natural loop is the chunk loop, not the iteration loop")
            } else if shared.headers[ws as usize].is_none() {
                Some("the pass found no natural loop for this worksharing construct")
            } else {
                None
            };
            if let Some(reason) = reason {
                out.push(SkippedLoop {
                    workshare: ws,
                    location: self.location(ws),
                    reason: reason.into(),
                });
            }
        }
        out
    }
}

/// Maps every worksharing-loop launch of a trace to a SIMT kernel, reading each thread's events
/// whole in turn and holding every launch until the end ([`for_each_launch`] streams).
pub fn import_trace(trace: &Trace, config: &SimtConfig) -> Result<OpenMpImport> {
    collect_whole(trace, config)
}

/// Maps every worksharing-loop launch of a trace to a SIMT kernel and hands each to `f` as soon
/// as every thread of its team has finished its part, reading the events of all threads merged
/// in stamp order: memory is the launches in flight (the accesses of one launch, 24 bytes each,
/// for a program whose worksharing loops end before the next starts) plus one decoded chunk per
/// thread, not the trace. Launches come in the order they started, which is the order
/// [`import_trace`] gives when the master thread takes part in every launch. Returns the loops
/// that could not be mapped; an error of `f` stops the pass and is returned.
pub fn for_each_launch<E: From<SimtError>>(
    trace: &Trace,
    config: &SimtConfig,
    f: &mut dyn FnMut(KernelLaunch) -> std::result::Result<(), E>,
) -> std::result::Result<Vec<SkippedLoop>, E> {
    check_config(config)?;
    let tables = Tables::of(&trace.meta, config);
    let mut shared = tables.shared();
    let emitter = Emitter {
        meta: &trace.meta,
        config,
    };
    let mut threads: FastMap<u32, ThreadState> = FastMap::default();
    for item in trace.merged().map_err(SimtError::from)? {
        let (t, event) = item.map_err(SimtError::from)?;
        let thread = threads.entry(t).or_default();
        event.visit(&mut Collector {
            shared: &mut shared,
            thread,
        });
        if shared.finished_some {
            emitter.drain(&mut shared, false, f)?;
        }
    }
    emitter.drain(&mut shared, true, f)?;
    Ok(emitter.skipped(&shared))
}

fn check_config(config: &SimtConfig) -> Result<()> {
    if config.block_size == 0 || config.warp_size == 0 {
        return Err(SimtError::InvalidConfig(
            "block and warp sizes must be at least 1 thread".into(),
        ));
    }
    Ok(())
}

/// Per-construct and per-instruction tables of the metadata.
struct Tables {
    headers: Vec<Option<u32>>,
    kinds: Vec<WorkshareKind>,
    counted: Vec<bool>,
}

impl Tables {
    fn of(meta: &ProgramMeta, config: &SimtConfig) -> Self {
        Tables {
            headers: meta
                .workshares
                .iter()
                .map(|w| {
                    w.loop_id
                        .and_then(|l| meta.loops.get(l as usize))
                        .map(|l| l.header)
                })
                .collect(),
            kinds: meta.workshares.iter().map(|w| w.kind).collect(),
            counted: meta
                .mem_instrs
                .iter()
                .map(|m| config.include_private || m.class == VarClass::Shared)
                .collect(),
        }
    }

    fn shared(&self) -> Shared<'_> {
        Shared {
            headers: &self.headers,
            kinds: &self.kinds,
            counted: &self.counted,
            accum: FastMap::default(),
            order: Default::default(),
            chunked: Vec::new(),
            finished_some: false,
        }
    }
}

fn collect_whole(trace: &Trace, config: &SimtConfig) -> Result<OpenMpImport> {
    check_config(config)?;
    let tables = Tables::of(&trace.meta, config);
    let mut shared = tables.shared();
    for t in trace.thread_indices() {
        let mut thread = ThreadState::default();
        trace.visit_thread(
            t,
            &mut Collector {
                shared: &mut shared,
                thread: &mut thread,
            },
        )?;
    }
    let emitter = Emitter {
        meta: &trace.meta,
        config,
    };
    let mut out = OpenMpImport::default();
    emitter.drain::<SimtError>(&mut shared, true, &mut |l| {
        out.launches.push(l);
        Ok(())
    })?;
    out.skipped = emitter.skipped(&shared);
    Ok(out)
}

/// A thread's instance of a static memory instruction: `(instruction, k)`.
type Instance = (u32, u32);

/// Builds the kernel's blocks from `(iteration, memory instruction, address)` accesses.
fn build_kernel(
    name: String,
    mut accesses: Vec<(i64, u32, u64)>,
    first: i64,
    threads: u64,
    config: &SimtConfig,
) -> Kernel {
    // Each iteration ran on one OpenMP thread, in order; a stable sort keeps that order.
    accesses.sort_by_key(|a| a.0);
    let t_block = config.block_size as u64;
    let group = match config.mi_scope {
        MiScope::Warp => config.warp_size.min(config.block_size),
        MiScope::Block => config.block_size,
    };
    let mut blocks = Vec::new();
    let mut at = 0usize;
    let mut gpos = 0u64;
    let mut counts: FastMap<u32, u32> = FastMap::default();
    for b in 0..threads.div_ceil(t_block) {
        // One instance sequence per thread of the block.
        let mut seqs: Vec<Vec<(Instance, u64)>> = Vec::with_capacity(config.block_size);
        for gid in b * t_block..((b + 1) * t_block).min(threads) {
            let it = first + gid as i64;
            while at < accesses.len() && accesses[at].0 < it {
                at += 1;
            }
            counts.clear();
            let mut seq = Vec::new();
            while at < accesses.len() && accesses[at].0 == it {
                let (_, mi, addr) = accesses[at];
                let k = counts.entry(mi).or_insert(0);
                seq.push(((mi, *k), config.granularity.map(addr)));
                *k += 1;
                at += 1;
            }
            seqs.push(seq);
        }
        let per_group: Vec<Vec<(u32, Vec<u64>)>> = seqs.chunks(group).map(lockstep_merge).collect();
        let mut mis = Vec::new();
        // Warps issue round-robin (one group per block in block scope).
        let rounds = per_group.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..rounds {
            for g in &per_group {
                if let Some((pc, lanes)) = g.get(r) {
                    gpos += 1;
                    mis.push(MemInstr {
                        pc: *pc as u64,
                        pos: mis.len() as u64 + 1,
                        gpos,
                        lanes: lanes.clone(),
                    });
                }
            }
        }
        blocks.push(BlockStream { id: b, mis });
    }
    Kernel { name, blocks }
}

/// Merges the instance sequences of a group of threads into lockstep MIs `(instruction,
/// lanes)`; see the module docs.
fn lockstep_merge(seqs: &[Vec<(Instance, u64)>]) -> Vec<(u32, Vec<u64>)> {
    let mut remaining: FastMap<Instance, u32> = FastMap::default();
    for s in seqs {
        for (inst, _) in s {
            *remaining.entry(*inst).or_insert(0) += 1;
        }
    }
    let mut cursor = vec![0usize; seqs.len()];
    let mut live = seqs.iter().filter(|s| !s.is_empty()).count();
    let mut heads: FastMap<Instance, u32> = FastMap::default();
    let mut out = Vec::new();
    while live > 0 {
        heads.clear();
        for (s, &c) in seqs.iter().zip(&cursor) {
            if let Some((inst, _)) = s.get(c) {
                *heads.entry(*inst).or_insert(0) += 1;
            }
        }
        let mut fallback = None;
        let mut chosen = None;
        for (s, &c) in seqs.iter().zip(&cursor) {
            if let Some((inst, _)) = s.get(c) {
                fallback.get_or_insert(*inst);
                if heads[inst] == remaining[inst] {
                    chosen = Some(*inst);
                    break;
                }
            }
        }
        let inst = chosen
            .or(fallback)
            .expect("a live thread has a next instance");
        let mut lanes = Vec::new();
        for (s, c) in seqs.iter().zip(cursor.iter_mut()) {
            if let Some(&(i, addr)) = s.get(*c) {
                if i == inst {
                    lanes.push(addr);
                    *c += 1;
                    if *c == s.len() {
                        live -= 1;
                    }
                }
            }
        }
        *remaining.get_mut(&inst).expect("counted") -= lanes.len() as u32;
        out.push((inst.0, lanes));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(items: &[(u32, u32, u64)]) -> Vec<(Instance, u64)> {
        items.iter().map(|&(m, k, a)| ((m, k), a)).collect()
    }

    #[test]
    fn uniform_threads_issue_together() {
        let s = vec![
            seq(&[(1, 0, 10), (2, 0, 20)]),
            seq(&[(1, 0, 11), (2, 0, 21)]),
        ];
        assert_eq!(
            lockstep_merge(&s),
            vec![(1, vec![10, 11]), (2, vec![20, 21])]
        );
    }

    #[test]
    fn divergent_branches_reconverge() {
        // Even threads take path b, odd ones path a; all then run c.
        let s = vec![
            seq(&[(5, 0, 0), (9, 0, 100)]),
            seq(&[(4, 0, 1), (9, 0, 101)]),
            seq(&[(5, 0, 2), (9, 0, 102)]),
        ];
        assert_eq!(
            lockstep_merge(&s),
            vec![(5, vec![0, 2]), (4, vec![1]), (9, vec![100, 101, 102])]
        );
    }

    #[test]
    fn shorter_inner_loops_leave_threads_inactive() {
        // Thread t runs the inner load t times, then the store.
        let s: Vec<_> = (0..4u32)
            .map(|t| {
                let mut v: Vec<_> = (0..t).map(|k| ((7, k), k as u64)).collect();
                v.push(((8, 0), 50 + t as u64));
                v
            })
            .collect();
        let m = lockstep_merge(&s);
        let shape: Vec<(u32, usize)> = m.iter().map(|(pc, l)| (*pc, l.len())).collect();
        assert_eq!(shape, vec![(7, 3), (7, 2), (7, 1), (8, 4)]);
    }

    #[test]
    fn crossing_orders_fall_back_to_the_first_thread() {
        let s = vec![seq(&[(1, 0, 0), (2, 0, 0)]), seq(&[(2, 0, 1), (1, 0, 1)])];
        let m = lockstep_merge(&s);
        assert_eq!(m.len(), 3);
        assert_eq!(m.iter().map(|x| x.1.len()).sum::<usize>(), 4);
    }

    fn accesses(threads: i64, per: &[(u32, i64)]) -> Vec<(i64, u32, u64)> {
        let mut v = Vec::new();
        for it in 0..threads {
            for &(mi, off) in per {
                v.push((it, mi, ((it + off) * 8) as u64));
            }
        }
        v
    }

    #[test]
    fn blocks_and_warps_partition_iterations() {
        let cfg = SimtConfig {
            block_size: 8,
            warp_size: 4,
            mi_scope: MiScope::Warp,
            ..Default::default()
        };
        let k = build_kernel("k".into(), accesses(10, &[(0, 0), (1, 1)]), 0, 10, &cfg);
        assert_eq!(k.blocks.len(), 2);
        let b0 = &k.blocks[0];
        // Two warps of two MIs each, interleaved: w0 m0, w1 m0, w0 m1, w1 m1.
        let shape: Vec<(u64, u64, usize)> = b0
            .mis
            .iter()
            .map(|m| (m.pc, m.pos, m.lanes.len()))
            .collect();
        assert_eq!(shape, vec![(0, 1, 4), (0, 2, 4), (1, 3, 4), (1, 4, 4)]);
        assert_eq!(b0.mis[1].lanes, vec![32, 40, 48, 56]);
        // The last block has two threads.
        assert_eq!(k.blocks[1].mis.len(), 2);
        assert_eq!(k.blocks[1].mis[0].lanes, vec![64, 72]);
        assert_eq!(k.blocks[1].mis[1].gpos, 6);
    }

    #[test]
    fn block_scope_and_granularity() {
        let cfg = SimtConfig {
            block_size: 8,
            granularity: Granularity::Line(64),
            ..Default::default()
        };
        let k = build_kernel("k".into(), accesses(8, &[(3, 0)]), 0, 8, &cfg);
        assert_eq!(k.blocks.len(), 1);
        assert_eq!(k.blocks[0].mis[0].lanes, vec![0; 8]);
    }

    #[test]
    fn iterations_without_accesses_are_inactive_threads() {
        let cfg = SimtConfig {
            block_size: 4,
            ..Default::default()
        };
        // Iterations 5..=8 (first = 5); iteration 6 touched nothing.
        let acc = vec![(5, 0, 1), (7, 0, 3), (8, 0, 4)];
        let k = build_kernel("k".into(), acc, 5, 4, &cfg);
        assert_eq!(k.blocks.len(), 1);
        assert_eq!(k.blocks[0].mis[0].lanes, vec![1, 3, 4]);
    }
}
