//! Per-thread collection: each thread's view of its teams and the event visitor that turns
//! OpenMP and memory events into launch parts.

use super::teams::{Active, Move, Part, Shared, TeamInfo};
use rdtrace::event::{Event, EventVisitor};
use rdtrace::meta::WorkshareKind;
use rustc_hash::FxHashMap as FastMap;

/// A thread's view of one team it is in: the team, its size, the team's worksharing loops met
/// so far and the one the thread is in.
pub(super) struct Context {
    pub(super) team: u64,
    pub(super) size: u32,
    /// Entered by `RegionEnter` (not the thread's implicit team outside every region).
    pub(super) region: bool,
    pub(super) seen: FastMap<u32, u32>,
    pub(super) active: Option<Active>,
}

/// One thread's state while collecting launches.
#[derive(Default)]
pub(super) struct ThreadState {
    /// The teams the thread is in, innermost last (the implicit team of a thread outside every
    /// region at the bottom, made when first needed).
    pub(super) contexts: Vec<Context>,
    /// Forks of this thread not yet joined: `(region, team)`, innermost last.
    pub(super) forks: Vec<(u32, u64)>,
    /// The thread that forked the last team this thread joined as a worker (libomp tends to
    /// give a master the same workers again).
    pub(super) last_master: Option<u32>,
}

impl ThreadState {
    pub(super) fn active(&mut self) -> Option<&mut Active> {
        self.contexts.last_mut().and_then(|c| c.active.as_mut())
    }

    /// Follows a move of this thread from one team to another (whose master it takes as its
    /// last master).
    pub(super) fn apply(&mut self, m: &Move) {
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

pub(super) struct Collector<'s, 'a> {
    pub(super) shared: &'s mut Shared<'a>,
    pub(super) thread: &'s mut ThreadState,
    /// The thread's index in the trace.
    pub(super) index: u32,
}

impl Collector<'_, '_> {
    /// The thread's part of the launch it is in.
    pub(super) fn part(&mut self) -> Option<&mut Part> {
        let act = self.thread.contexts.last()?.active.as_ref()?;
        let (key, part) = (act.key, act.part);
        self.shared
            .accum
            .get_mut(&key)
            .and_then(|a| a.parts.get_mut(part))
    }

    pub(super) fn note_bounds(&mut self, lower: i64) {
        if let Some(p) = self.part() {
            p.first = Some(p.first.map_or(lower, |f| f.min(lower)));
        }
    }

    /// The thread's part of the active launch ended.
    pub(super) fn end_active(&mut self) {
        if let Some(p) = self.part() {
            p.done = true;
            self.shared.finished_some = true;
        }
        if let Some(c) = self.thread.contexts.last_mut() {
            c.active = None;
        }
    }

    /// The innermost team of the thread (its implicit team of one outside every region).
    pub(super) fn context(&mut self) -> &mut Context {
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

    pub(super) fn workshare_init(&mut self, ws: u32, schedule: i32, lower: i64, upper: i64) {
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
                Some(it) => p.accesses.push(it, mi, addr),
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
