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

/// A launch: the team that ran it, the worksharing loop, and how many times the team met that
/// loop before (every thread of a team meets the team's worksharing constructs in the same
/// order, so the count is the same on each of them).
type LaunchKey = (u64, u32, u32);

/// One thread's part of a launch.
#[derive(Default)]
struct Part {
    /// The thread (trace index); `u32::MAX` for a part moved to another launch.
    thread: u32,
    /// `(iteration, memory instruction, address)` in the thread's program order.
    accesses: Vec<(i64, u32, u64)>,
    first: Option<i64>,
    last: Option<i64>,
    /// Iterations the thread started (header entries within its bounds): what justifies the
    /// bounds the trace reported.
    iterations: u64,
    unattributed: u64,
    /// The thread finished its part.
    done: bool,
}

/// A part's thread once the part has moved to another launch.
const MOVED: u32 = u32::MAX;

/// Accesses of one launch, one part per OpenMP thread of its team.
#[derive(Default)]
struct LaunchAccum {
    /// The threads' parts, in the order they started (moved ones left in place, empty, so
    /// that the indices threads hold stay valid).
    parts: Vec<Part>,
    /// Launches of the same loop that started before this one (over all teams).
    launch: u32,
    /// Size of the team that runs the launch (every thread of a team meets each worksharing
    /// construct).
    team: u32,
    /// The team has ended (its master joined): no thread adds to the launch any more.
    ended: bool,
}

impl LaunchAccum {
    /// Threads that finished their part.
    fn done(&self) -> u32 {
        self.parts
            .iter()
            .filter(|p| p.thread != MOVED && p.done)
            .count() as u32
    }

    /// The part of thread `thread`, made when new; returns its index.
    fn part_of(&mut self, thread: u32) -> usize {
        match self.parts.iter().position(|p| p.thread == thread) {
            Some(i) => i,
            None => {
                self.parts.push(Part {
                    thread,
                    ..Part::default()
                });
                self.parts.len() - 1
            }
        }
    }
}

/// The worksharing loop a thread is in.
struct Active {
    key: LaunchKey,
    /// Index of the thread's part in the launch's parts.
    part: usize,
    /// Header block of the loop; `None` when the loop is skipped.
    header: Option<u32>,
    next: i64,
    upper: i64,
    current: Option<i64>,
    /// Worksharing loops nested inside the iteration (in the same team).
    nested: u32,
}

/// A member of a team: its OpenMP thread number, its trace thread, and whether it has left
/// the region.
#[derive(Clone, Copy)]
struct Member {
    omp_thread: u32,
    thread: u32,
    exited: bool,
}

/// A team whose membership may still change: forked and not yet joined, and either not full
/// (workers may still enter) or *uncertain* (a worker entered while another team of the same
/// region could have taken it, so members may move between the two until the teams join).
struct TeamInfo {
    id: u64,
    region: u32,
    /// The thread that forked it (`None` for a team entered without a fork).
    master: Option<u32>,
    /// Team size, once a member has entered.
    size: Option<u32>,
    members: Vec<Member>,
    uncertain: bool,
}

impl TeamInfo {
    fn full(&self) -> bool {
        self.size.is_some_and(|s| self.members.len() >= s as usize)
    }

    fn fits(&self, region: u32, omp_thread: u32, size: u32) -> bool {
        self.region == region
            && self.size.is_none_or(|s| s == size)
            && omp_thread < size
            && !self.members.iter().any(|m| m.omp_thread == omp_thread)
    }
}

/// A thread moved from one team to another: its contexts and active launch follow.
struct Move {
    thread: u32,
    from: u64,
    to: u64,
    /// The master of `to`.
    master: Option<u32>,
    /// The index of the thread's part in each launch of `to` it moved to.
    parts: Vec<(LaunchKey, usize)>,
}

/// What all threads share while collecting launches.
struct Shared<'a> {
    headers: &'a [Option<u32>],
    kinds: &'a [WorkshareKind],
    counted: &'a [bool],
    accum: FastMap<LaunchKey, LaunchAccum>,
    /// Launches in the order they were first met, not yet handed over.
    order: std::collections::VecDeque<LaunchKey>,
    chunked: Vec<u32>,
    /// A thread finished its part of a launch since the last look.
    finished_some: bool,
    /// Launches started so far, per worksharing loop.
    launches: FastMap<u32, u32>,
    /// Teams whose membership may still change, oldest first.
    teams: Vec<TeamInfo>,
    /// The id the next team gets.
    next_team: u64,
    /// Threads moved between teams, for the caller to update their states.
    moves: Vec<Move>,
}

/// Teams followed at once (a bound for traces whose teams never fill or join).
const MAX_OPEN_TEAMS: usize = 4096;

impl Shared<'_> {
    fn new_team(&mut self) -> u64 {
        self.next_team += 1;
        self.next_team
    }

    fn track(&mut self, team: TeamInfo) {
        self.teams.push(team);
        if self.teams.len() > MAX_OPEN_TEAMS {
            let gone = self.teams.remove(0);
            self.release(gone.id);
        }
    }

    /// Whether team `id`'s membership is uncertain (its launches wait for its join).
    fn uncertain(&self, id: u64) -> bool {
        self.teams.iter().any(|t| t.id == id && t.uncertain)
    }

    /// The team thread `thread`, OpenMP thread number `omp_thread` of a team of `size`
    /// entering `region`, belongs to: for the master (thread 0), the team of its own innermost
    /// fork of `region`; for a worker, an open team of `region` of that size that lacks its
    /// thread number: the one forked by `last_master` (the master of the worker's previous
    /// team) if there is one, else the oldest. When another open team could have taken the
    /// worker too, both become uncertain: [`Shared::end_team`] corrects their members when one
    /// joins (see the module docs, "Teams and nested parallelism"). A thread that matches no
    /// team starts one. Returns the team and its master.
    fn join_team(
        &mut self,
        thread: u32,
        fork: Option<(u32, u64)>,
        last_master: Option<u32>,
        region: u32,
        omp_thread: u32,
        size: u32,
    ) -> (u64, Option<u32>) {
        let fits = |t: &TeamInfo| !t.full() && t.fits(region, omp_thread, size);
        let found = if omp_thread == 0 {
            fork.filter(|&(r, _)| r == region)
                .and_then(|(_, id)| self.teams.iter().position(|t| t.id == id && fits(t)))
        } else {
            let candidates: Vec<usize> = (0..self.teams.len())
                .filter(|&i| fits(&self.teams[i]))
                .collect();
            if candidates.len() > 1 {
                for &i in &candidates {
                    self.teams[i].uncertain = true;
                }
            }
            candidates
                .iter()
                .copied()
                .find(|&i| self.teams[i].master.is_some() && self.teams[i].master == last_master)
                .or(candidates.first().copied())
        };
        let at = match found {
            Some(at) => at,
            None if size <= 1 => return (self.new_team(), None),
            None => {
                let id = self.new_team();
                self.track(TeamInfo {
                    id,
                    region,
                    master: None,
                    size: None,
                    members: Vec::new(),
                    uncertain: false,
                });
                self.teams.len() - 1
            }
        };
        let team = &mut self.teams[at];
        team.size = Some(size);
        team.members.push(Member {
            omp_thread,
            thread,
            exited: false,
        });
        let (id, master) = (team.id, team.master);
        if team.full() && !team.uncertain && team.master.is_none() {
            // Nothing can change it any more (no join will come).
            self.teams.remove(at);
        }
        (id, master)
    }

    /// Thread `thread` left the region of team `id`.
    fn exited(&mut self, id: u64, thread: u32) {
        if let Some(t) = self.teams.iter_mut().find(|t| t.id == id) {
            for m in t.members.iter_mut().filter(|m| m.thread == thread) {
                m.exited = true;
            }
        }
    }

    /// Team `id` has ended (its master joined): every worker of it has left the region, so
    /// a member that has not is another team's, and a thread number it lacks is held by an
    /// uncertain team of the same region whose member has left: such members are exchanged
    /// first. Then no worker joins the team any more, and its launches are complete.
    fn end_team(&mut self, id: u64) {
        if let Some(at) = self.teams.iter().position(|t| t.id == id) {
            if self.teams[at].uncertain {
                self.correct(at);
            }
            self.teams.remove(at);
        }
        self.release(id);
    }

    /// Marks the launches of team `id` complete.
    fn release(&mut self, id: u64) {
        for (key, a) in self.accum.iter_mut() {
            if key.0 == id && !a.ended {
                a.ended = true;
                self.finished_some = true;
            }
        }
    }

    /// Exchanges members between the joining team `at` and the other uncertain teams of its
    /// region, as [`Shared::end_team`] says.
    fn correct(&mut self, at: usize) {
        let (id, region) = (self.teams[at].id, self.teams[at].region);
        let Some(size) = self.teams[at].size else {
            return;
        };
        let peer =
            |t: &TeamInfo| t.id != id && t.uncertain && t.region == region && t.size == Some(size);
        // The thread numbers another uncertain team has a member for that has left.
        let numbers: std::collections::BTreeSet<u32> = self
            .teams
            .iter()
            .filter(|t| peer(t))
            .flat_map(|t| t.members.iter().filter(|m| m.exited).map(|m| m.omp_thread))
            .filter(|&k| k > 0)
            .collect();
        for k in numbers {
            let mine = self.teams[at]
                .members
                .iter()
                .position(|m| m.omp_thread == k);
            if mine.is_some_and(|i| self.teams[at].members[i].exited) {
                continue;
            }
            // Another uncertain team's member k that has left the region.
            let other = (0..self.teams.len()).find_map(|j| {
                let t = &self.teams[j];
                if !peer(t) {
                    return None;
                }
                t.members
                    .iter()
                    .position(|m| m.omp_thread == k && m.exited)
                    .map(|i| (j, i))
            });
            let Some((j, i)) = other else {
                continue;
            };
            let theirs = self.teams[j].members.remove(i);
            let other_id = self.teams[j].id;
            if let Some(mi) = mine {
                let stay = self.teams[at].members.remove(mi);
                self.teams[j].members.push(stay);
                self.move_thread(stay.thread, id, other_id);
            }
            self.teams[at].members.push(theirs);
            self.move_thread(theirs.thread, other_id, id);
        }
    }

    /// Moves thread `thread`'s parts of team `from`'s launches to the same launches of team
    /// `to`, and records the move for the caller.
    fn move_thread(&mut self, thread: u32, from: u64, to: u64) {
        let keys: Vec<LaunchKey> = self
            .accum
            .iter()
            .filter(|(k, a)| k.0 == from && a.parts.iter().any(|p| p.thread == thread))
            .map(|(k, _)| *k)
            .collect();
        let mut parts = Vec::new();
        for key in keys {
            let part = {
                let a = self.accum.get_mut(&key).expect("listed above");
                let i = a.part_of(thread);
                std::mem::replace(
                    &mut a.parts[i],
                    Part {
                        thread: MOVED,
                        ..Part::default()
                    },
                )
            };
            let target = (to, key.1, key.2);
            let team = self.accum[&key].team;
            let a = self.launch(target, team);
            a.parts.push(part);
            parts.push((target, a.parts.len() - 1));
        }
        self.finished_some = true;
        let master = self
            .teams
            .iter()
            .find(|t| t.id == to)
            .and_then(|t| t.master);
        self.moves.push(Move {
            thread,
            from,
            to,
            master,
            parts,
        });
    }

    /// The accumulator of launch `key` of a team of `team` threads, made (and numbered) when
    /// new.
    fn launch(&mut self, key: LaunchKey, team: u32) -> &mut LaunchAccum {
        if !self.accum.contains_key(&key) {
            let count = self.launches.entry(key.1).or_insert(0);
            let launch = *count;
            *count += 1;
            self.order.push_back(key);
            self.accum.insert(
                key,
                LaunchAccum {
                    team,
                    launch,
                    ..LaunchAccum::default()
                },
            );
        }
        self.accum.get_mut(&key).expect("inserted above")
    }
}

/// A thread's view of one team it is in: the team, its size, the team's worksharing loops met
/// so far and the one the thread is in.
struct Context {
    team: u64,
    size: u32,
    /// Entered by `RegionEnter` (not the thread's implicit team outside every region).
    region: bool,
    seen: FastMap<u32, u32>,
    active: Option<Active>,
}

/// One thread's state while collecting launches.
#[derive(Default)]
struct ThreadState {
    /// The teams the thread is in, innermost last (the implicit team of a thread outside every
    /// region at the bottom, made when first needed).
    contexts: Vec<Context>,
    /// Forks of this thread not yet joined: `(region, team)`, innermost last.
    forks: Vec<(u32, u64)>,
    /// The thread that forked the last team this thread joined as a worker (libomp tends to
    /// give a master the same workers again).
    last_master: Option<u32>,
}

impl ThreadState {
    fn active(&mut self) -> Option<&mut Active> {
        self.contexts.last_mut().and_then(|c| c.active.as_mut())
    }

    /// Follows a move of this thread from one team to another (whose master it takes as its
    /// last master).
    fn apply(&mut self, m: &Move) {
        if m.master.is_some() {
            self.last_master = m.master;
        }
        for c in self.contexts.iter_mut().filter(|c| c.team == m.from) {
            c.team = m.to;
            if let Some(act) = &mut c.active {
                let key = (m.to, act.key.1, act.key.2);
                if let Some(&(_, part)) = m.parts.iter().find(|(k, _)| *k == key) {
                    act.key = key;
                    act.part = part;
                }
            }
        }
    }
}

struct Collector<'s, 'a> {
    shared: &'s mut Shared<'a>,
    thread: &'s mut ThreadState,
    /// The thread's index in the trace.
    index: u32,
}

impl Collector<'_, '_> {
    /// The thread's part of the launch it is in.
    fn part(&mut self) -> Option<&mut Part> {
        let act = self.thread.contexts.last()?.active.as_ref()?;
        let (key, part) = (act.key, act.part);
        self.shared
            .accum
            .get_mut(&key)
            .and_then(|a| a.parts.get_mut(part))
    }

    fn note_bounds(&mut self, lower: i64) {
        if let Some(p) = self.part() {
            p.first = Some(p.first.map_or(lower, |f| f.min(lower)));
        }
    }

    /// The thread's part of the active launch ended.
    fn end_active(&mut self) {
        if let Some(p) = self.part() {
            p.done = true;
            self.shared.finished_some = true;
        }
        if let Some(c) = self.thread.contexts.last_mut() {
            c.active = None;
        }
    }

    /// The innermost team of the thread (its implicit team of one outside every region).
    fn context(&mut self) -> &mut Context {
        if self.thread.contexts.is_empty() {
            let team = self.shared.new_team();
            self.thread.contexts.push(Context {
                team,
                size: 1,
                region: false,
                seen: FastMap::default(),
                active: None,
            });
        }
        self.thread.contexts.last_mut().expect("made above")
    }

    fn workshare_init(&mut self, ws: u32, schedule: i32, lower: i64, upper: i64) {
        let index = self.index;
        let ctx = self.context();
        if let Some(act) = &mut ctx.active {
            act.nested += 1;
            return;
        }
        let n = ctx.seen.entry(ws).or_insert(0);
        let key = (ctx.team, ws, *n);
        *n += 1;
        let team = ctx.size;
        let part = self.shared.launch(key, team).part_of(index);
        let shared = &mut *self.shared;
        let kind = shared.kinds.get(ws as usize).copied();
        let mut header = shared.headers.get(ws as usize).copied().flatten();
        if kind == Some(WorkshareKind::Static) && rdtrace::Schedule(schedule).is_static_chunked() {
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
        self.context().active = Some(Active {
            key,
            part,
            header,
            next,
            upper,
            current: None,
            nested: 0,
        });
        if kind == Some(WorkshareKind::Static) && header.is_some() && lower <= upper {
            self.note_bounds(lower);
        }
    }
}

impl EventVisitor for Collector<'_, '_> {
    fn block(&mut self, bb: u32) {
        let Some(act) = self.thread.active() else {
            return;
        };
        if act.nested > 0 || act.header != Some(bb) {
            return;
        }
        // See: module docs, "Identifying iterations": a header entry starts the next iteration.
        if act.next <= act.upper {
            let it = act.next;
            act.current = Some(it);
            // Bounds come from the trace: at `i64::MAX` stay there rather than overflow.
            act.next = it.saturating_add(1);
            if let Some(p) = self.part() {
                p.last = Some(p.last.map_or(it, |l| l.max(it)));
                p.iterations += 1;
            }
        } else {
            act.current = None;
        }
    }

    fn access(&mut self, mi: u32, addr: u64, _len: u64) {
        let Some(act) = self.thread.active() else {
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
        let current = act.current;
        if let Some(p) = self.part() {
            match current {
                Some(it) => p.accesses.push((it, mi, addr)),
                None => p.unattributed += 1,
            }
        }
    }

    fn other(&mut self, event: Event) {
        match event {
            Event::Fork { region } => {
                let id = self.shared.new_team();
                self.shared.track(TeamInfo {
                    id,
                    region,
                    master: Some(self.index),
                    size: None,
                    members: Vec::new(),
                    uncertain: false,
                });
                self.thread.forks.push((region, id));
            }
            Event::Join { region } => {
                if let Some(at) = self.thread.forks.iter().rposition(|&(r, _)| r == region) {
                    let (_, id) = self.thread.forks[at];
                    self.thread.forks.truncate(at);
                    self.shared.end_team(id);
                }
            }
            Event::RegionEnter {
                region,
                omp_thread,
                team_size,
            } => {
                let size = team_size.max(1);
                let fork = self.thread.forks.last().copied();
                let last = self.thread.last_master;
                let (team, master) = self
                    .shared
                    .join_team(self.index, fork, last, region, omp_thread, size);
                if omp_thread > 0 && master.is_some() {
                    self.thread.last_master = master;
                }
                self.thread.contexts.push(Context {
                    team,
                    size,
                    region: true,
                    seen: FastMap::default(),
                    active: None,
                });
            }
            Event::WorkshareInit {
                ws,
                schedule,
                lower,
                upper,
                ..
            } => self.workshare_init(ws, schedule, lower, upper),
            Event::WorkshareNext {
                ws,
                more,
                lower,
                upper,
            } => {
                let Some(act) = self.thread.active() else {
                    return;
                };
                if act.nested > 0 || act.key.1 != ws || !more {
                    return;
                }
                act.next = lower;
                act.upper = upper;
                act.current = None;
                if act.header.is_some() && lower <= upper {
                    self.note_bounds(lower);
                }
            }
            Event::WorkshareFini { ws } => {
                let Some(act) = self.thread.active() else {
                    return;
                };
                if act.nested > 0 {
                    act.nested -= 1;
                } else if act.key.1 == ws {
                    self.end_active();
                }
            }
            Event::RegionExit { .. } => {
                self.end_active();
                if self.thread.contexts.last().is_some_and(|c| c.region) {
                    let c = self.thread.contexts.pop().expect("checked above");
                    self.shared.exited(c.team, self.index);
                }
            }
            Event::Gap => {
                // The thread left the region of interest: nothing it was in carries over.
                while !self.thread.contexts.is_empty() {
                    self.end_active();
                    let c = self.thread.contexts.pop().expect("not empty");
                    if c.region {
                        self.shared.exited(c.team, self.index);
                    }
                }
                while let Some((_, id)) = self.thread.forks.pop() {
                    self.shared.end_team(id);
                }
            }
            _ => {}
        }
    }
}

/// How many times more iterations than the trace ran (per member of the team) a launch's
/// bounds may span: room for the chunks a salvaged trace lost, while bounds from a damaged or
/// crafted file (-2^40) cannot make a kernel of billions of GPU threads.
const SPAN_SLACK: u64 = 64;

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
    fn drain<E: From<SimtError>>(
        &self,
        shared: &mut Shared<'_>,
        all: bool,
        threads_seen: usize,
        f: &mut dyn FnMut(KernelLaunch) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        shared.finished_some = false;
        while let Some(&key) = shared.order.front() {
            let ready = shared
                .accum
                .get(&key)
                .is_some_and(|a| a.ended || (a.done() >= a.team && !shared.uncertain(key.0)));
            if !all && !ready {
                break;
            }
            shared.order.pop_front();
            let Some(a) = shared.accum.remove(&key) else {
                continue;
            };
            let (_, ws, _) = key;
            let launch = a.launch;
            let team = a.team;
            // The threads' parts, in the order they started.
            let parts: Vec<Part> = a.parts.into_iter().filter(|p| p.thread != MOVED).collect();
            let first = parts.iter().filter_map(|p| p.first).min();
            let last = parts.iter().filter_map(|p| p.last).max();
            let omp_threads = parts.len() as u32;
            let iterations: u64 = parts.iter().map(|p| p.iterations).sum();
            let unattributed = parts.iter().map(|p| p.unattributed).sum();
            let accesses: Vec<(i64, u32, u64)> =
                parts.into_iter().flat_map(|p| p.accesses).collect();
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
            let first = first.unwrap_or(0);
            let threads = match last {
                Some(last) if last >= first => {
                    u64::try_from(last as i128 - first as i128 + 1).unwrap_or(u64::MAX)
                }
                _ => 0,
            };
            // The kernel has a GPU thread for every iteration between the bounds, so the
            // bounds size its work: they must be justified by the iterations the trace ran.
            // Each member's bounds cover the iterations it ran, so the members present span
            // about the team's size times what they ran, even with members missing; a
            // salvaged trace may also miss chunks inside a member's part, hence the slack.
            // (A team is counted at most as the threads seen.)
            let members = u64::from(team).min(threads_seen.max(1) as u64);
            let justified = iterations
                .saturating_add(1)
                .saturating_mul(members)
                .saturating_mul(SPAN_SLACK);
            if threads > justified {
                return Err(SimtError::BadBounds(format!(
                    "worksharing loop {ws} ({}) launch {launch}: its bounds span {threads} \
                     iterations from {first}, but its {omp_threads} thread(s) ran {iterations}: \
                     the trace's worksharing bounds are corrupt",
                    self.location(ws)
                ))
                .into());
            }
            let n_accesses = accesses.len() as u64;
            let kernel = build_kernel(
                format!("{function} ({loc}) workshare {ws} launch {launch}"),
                accesses,
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
                omp_threads,
                accesses: n_accesses,
                unattributed,
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

/// Maps every worksharing-loop launch of a trace to a SIMT kernel, holding every launch until
/// the end ([`for_each_launch`] hands each over as soon as it is complete): the same launches in
/// the same order.
pub fn import_trace(trace: &Trace, config: &SimtConfig) -> Result<OpenMpImport> {
    let mut out = OpenMpImport::default();
    out.skipped = for_each_launch::<SimtError>(trace, config, &mut |l| {
        out.launches.push(l);
        Ok(())
    })?;
    Ok(out)
}

/// Maps every worksharing-loop launch of a trace to a SIMT kernel and hands each to `f` as soon
/// as every thread of its team has finished its part (or the team has joined; a team whose
/// members are uncertain, see the module docs, when it has joined), reading the events of all
/// threads merged in stamp order: memory is the launches in flight (the accesses of one launch,
/// 24 bytes each, for a program whose worksharing loops end before the next starts) plus one
/// decoded chunk per thread, not the trace. Launches come in the order they started. Returns the loops that could not be mapped; an error of `f` stops the pass and is
/// returned.
pub fn for_each_launch<E: From<SimtError>>(
    trace: &Trace,
    config: &SimtConfig,
    f: &mut dyn FnMut(KernelLaunch) -> std::result::Result<(), E>,
) -> std::result::Result<Vec<SkippedLoop>, E> {
    check_config(config)?;
    let events = trace.merged().map_err(SimtError::from)?;
    for_each_launch_in(&trace.meta, events, config, f)
}

/// [`for_each_launch`] over any source of a run's events merged in stamp order (a trace file's
/// [`Trace::merged`], or a stream's `rdtrace::LiveTrace::next_merged`) whose metadata is `meta`.
pub fn for_each_launch_in<E: From<SimtError>>(
    meta: &ProgramMeta,
    events: impl IntoIterator<Item = rdtrace::Result<(u32, Event)>>,
    config: &SimtConfig,
    f: &mut dyn FnMut(KernelLaunch) -> std::result::Result<(), E>,
) -> std::result::Result<Vec<SkippedLoop>, E> {
    check_config(config)?;
    let tables = Tables::of(meta, config);
    let mut shared = tables.shared();
    let emitter = Emitter { meta, config };
    let mut threads: FastMap<u32, ThreadState> = FastMap::default();
    for item in events {
        let (t, event) = item.map_err(SimtError::from)?;
        let thread = threads.entry(t).or_default();
        event.visit(&mut Collector {
            shared: &mut shared,
            thread,
            index: t,
        });
        for m in std::mem::take(&mut shared.moves) {
            if let Some(th) = threads.get_mut(&m.thread) {
                th.apply(&m);
            }
        }
        if shared.finished_some {
            emitter.drain(&mut shared, false, threads.len(), f)?;
        }
    }
    emitter.drain(&mut shared, true, threads.len(), f)?;
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
            launches: FastMap::default(),
            teams: Vec::new(),
            next_team: 0,
            moves: Vec::new(),
        }
    }
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
        // A block holds at most the launch's threads (the block size may be far larger).
        let mut seqs: Vec<Vec<(Instance, u64)>> =
            Vec::with_capacity(t_block.min(threads - b * t_block) as usize);
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
