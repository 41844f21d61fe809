//! Team and launch bookkeeping shared by all threads: each launch's parts, the teams whose
//! membership may still change (matching members to teams, correcting guesses at a join) and
//! the metadata tables the collection reads.

use super::part_accesses::PartAccesses;
use super::SimtConfig;
use rdtrace::meta::{ProgramMeta, VarClass, WorkshareKind};
use rustc_hash::FxHashMap as FastMap;

/// A launch: the team that ran it, the worksharing loop, and how many times the team met that
/// loop before (every thread of a team meets the team's worksharing constructs in the same
/// order, so the count is the same on each of them).
pub(super) type LaunchKey = (u64, u32, u32);

/// One thread's part of a launch.
#[derive(Default)]
pub(super) struct Part {
    /// The thread (trace index); `u32::MAX` for a part moved to another launch.
    pub(super) thread: u32,
    /// `(iteration, memory instruction, address)` in the thread's program order.
    pub(super) accesses: PartAccesses,
    pub(super) first: Option<i64>,
    pub(super) last: Option<i64>,
    /// Iterations the thread started (header entries within its bounds): what justifies the
    /// bounds the trace reported.
    pub(super) iterations: u64,
    pub(super) unattributed: u64,
    /// The thread finished its part.
    pub(super) done: bool,
}

/// A part's thread once the part has moved to another launch.
pub(super) const MOVED: u32 = u32::MAX;

/// Accesses of one launch, one part per OpenMP thread of its team.
#[derive(Default)]
pub(super) struct LaunchAccum {
    /// The threads' parts, in the order they started (moved ones left in place, empty, so
    /// that the indices threads hold stay valid).
    pub(super) parts: Vec<Part>,
    /// Launches of the same loop that started before this one (over all teams).
    pub(super) launch: u32,
    /// Size of the team that runs the launch (every thread of a team meets each worksharing
    /// construct).
    pub(super) team: u32,
    /// The team has ended (its master joined): no thread adds to the launch any more.
    pub(super) ended: bool,
}

impl LaunchAccum {
    /// Threads that finished their part.
    pub(super) fn done(&self) -> u32 {
        self.parts
            .iter()
            .filter(|p| p.thread != MOVED && p.done)
            .count() as u32
    }

    /// The part of thread `thread`, made when new; returns its index.
    pub(super) fn part_of(&mut self, thread: u32) -> usize {
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
pub(super) struct Active {
    pub(super) key: LaunchKey,
    /// Index of the thread's part in the launch's parts.
    pub(super) part: usize,
    /// Header block of the loop; `None` when the loop is skipped.
    pub(super) header: Option<u32>,
    pub(super) next: i64,
    pub(super) upper: i64,
    pub(super) current: Option<i64>,
    /// Worksharing loops nested inside the iteration (in the same team).
    pub(super) nested: u32,
}

/// A member of a team: its OpenMP thread number, its trace thread, and whether it has left
/// the region.
#[derive(Clone, Copy)]
pub(super) struct Member {
    pub(super) omp_thread: u32,
    pub(super) thread: u32,
    pub(super) exited: bool,
}

/// A team whose membership may still change: forked and not yet joined, and either not full
/// (workers may still enter) or *uncertain* (a worker entered while another team of the same
/// region could have taken it, so members may move between the two until the teams join).
pub(super) struct TeamInfo {
    pub(super) id: u64,
    pub(super) region: u32,
    /// The thread that forked it (`None` for a team entered without a fork).
    pub(super) master: Option<u32>,
    /// Team size, once a member has entered.
    pub(super) size: Option<u32>,
    pub(super) members: Vec<Member>,
    pub(super) uncertain: bool,
}

impl TeamInfo {
    pub(super) fn full(&self) -> bool {
        self.size.is_some_and(|s| self.members.len() >= s as usize)
    }

    pub(super) fn fits(&self, region: u32, omp_thread: u32, size: u32) -> bool {
        self.region == region
            && self.size.is_none_or(|s| s == size)
            && omp_thread < size
            && !self.members.iter().any(|m| m.omp_thread == omp_thread)
    }
}

/// A thread moved from one team to another: its contexts and active launch follow.
pub(super) struct Move {
    pub(super) thread: u32,
    pub(super) from: u64,
    pub(super) to: u64,
    /// The master of `to`.
    pub(super) master: Option<u32>,
    /// The index of the thread's part in each launch of `to` it moved to.
    pub(super) parts: Vec<(LaunchKey, usize)>,
}

/// What all threads share while collecting launches.
pub(super) struct Shared<'a> {
    pub(super) headers: &'a [Option<u32>],
    pub(super) kinds: &'a [WorkshareKind],
    pub(super) counted: &'a [bool],
    pub(super) accum: FastMap<LaunchKey, LaunchAccum>,
    /// Launches in the order they were first met, not yet handed over.
    pub(super) order: std::collections::VecDeque<LaunchKey>,
    pub(super) chunked: Vec<u32>,
    /// A thread finished its part of a launch since the last look.
    pub(super) finished_some: bool,
    /// Launches started so far, per worksharing loop.
    pub(super) launches: FastMap<u32, u32>,
    /// Teams whose membership may still change, oldest first.
    pub(super) teams: Vec<TeamInfo>,
    /// The id the next team gets.
    pub(super) next_team: u64,
    /// Threads moved between teams, for the caller to update their states.
    pub(super) moves: Vec<Move>,
}

/// Teams followed at once (a bound for traces whose teams never fill or join).
pub(super) const MAX_OPEN_TEAMS: usize = 4096;

impl Shared<'_> {
    pub(super) fn new_team(&mut self) -> u64 {
        self.next_team += 1;
        self.next_team
    }

    pub(super) fn track(&mut self, team: TeamInfo) {
        self.teams.push(team);
        if self.teams.len() > MAX_OPEN_TEAMS {
            let gone = self.teams.remove(0);
            self.release(gone.id);
        }
    }

    /// Whether team `id`'s membership is uncertain (its launches wait for its join).
    pub(super) fn uncertain(&self, id: u64) -> bool {
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
    pub(super) fn join_team(
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
    pub(super) fn exited(&mut self, id: u64, thread: u32) {
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
    pub(super) fn end_team(&mut self, id: u64) {
        if let Some(at) = self.teams.iter().position(|t| t.id == id) {
            if self.teams[at].uncertain {
                self.correct(at);
            }
            self.teams.remove(at);
        }
        self.release(id);
    }

    /// Marks the launches of team `id` complete.
    pub(super) fn release(&mut self, id: u64) {
        for (key, a) in self.accum.iter_mut() {
            if key.0 == id && !a.ended {
                a.ended = true;
                self.finished_some = true;
            }
        }
    }

    /// Exchanges members between the joining team `at` and the other uncertain teams of its
    /// region, as [`Shared::end_team`] says.
    pub(super) fn correct(&mut self, at: usize) {
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
    pub(super) fn move_thread(&mut self, thread: u32, from: u64, to: u64) {
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
    pub(super) fn launch(&mut self, key: LaunchKey, team: u32) -> &mut LaunchAccum {
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

/// Per-construct and per-instruction tables of the metadata.
pub(super) struct Tables {
    pub(super) headers: Vec<Option<u32>>,
    pub(super) kinds: Vec<WorkshareKind>,
    pub(super) counted: Vec<bool>,
}

impl Tables {
    pub(super) fn of(meta: &ProgramMeta, config: &SimtConfig) -> Self {
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

    pub(super) fn shared(&self) -> Shared<'_> {
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
