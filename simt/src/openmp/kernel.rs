//! The per-launch analysis: handing finished launches over as kernels, building a kernel's
//! blocks from its accesses and merging the threads' instances into MIs in lockstep.

use super::part_accesses::{PartAccesses, RunCursor};
use super::teams::{Part, Shared, MOVED};
use super::{KernelLaunch, MiScope, SimtConfig, SkippedLoop};
use crate::error::SimtError;
use crate::grid::{BlockStream, Kernel};
use crate::mi::MemInstr;
use rdtrace::meta::ProgramMeta;
use rustc_hash::FxHashMap as FastMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How many times more iterations than the trace ran (per member of the team) a launch's
/// bounds may span: room for the chunks a salvaged trace lost, while bounds from a damaged or
/// crafted file (-2^40) cannot make a kernel of billions of GPU threads.
pub(super) const SPAN_SLACK: u64 = 64;

/// Turns finished launches into kernels, in the order they were first met.
pub(super) struct Emitter<'a> {
    pub(super) meta: &'a ProgramMeta,
}

impl Emitter<'_> {
    pub(super) fn location(&self, ws: u32) -> String {
        self.meta
            .workshares
            .get(ws as usize)
            .map_or_else(|| "?".to_string(), |w| self.meta.format_loc(w.loc))
    }

    /// Hands over the launches at the front of the order whose every thread has finished (all
    /// of them when `all`); launches of loops that are skipped are dropped.
    pub(super) fn drain<E: From<SimtError>>(
        &self,
        shared: &mut Shared<'_>,
        all: bool,
        threads_seen: usize,
        f: &mut dyn FnMut(PendingLaunch) -> std::result::Result<(), E>,
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
            let n_accesses = parts.iter().map(|p| p.accesses.len() as u64).sum();
            let accesses: Vec<PartAccesses> = parts.into_iter().map(|p| p.accesses).collect();
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
            f(PendingLaunch {
                name: format!("{function} ({loc}) workshare {ws} launch {launch}"),
                parts: accesses,
                workshare: ws,
                launch,
                location: loc,
                function,
                first_iteration: first,
                threads,
                omp_threads,
                accesses: n_accesses,
                unattributed,
            })?;
        }
        Ok(())
    }

    /// The loops that cannot be mapped.
    pub(super) fn skipped(&self, shared: &Shared<'_>) -> Vec<SkippedLoop> {
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

/// A finished launch whose kernel is still to be built: [`PendingLaunch::build`] (the lockstep
/// merge) can run on another thread than the walk that collected it.
pub(super) struct PendingLaunch {
    name: String,
    parts: Vec<PartAccesses>,
    workshare: u32,
    launch: u32,
    location: String,
    function: String,
    first_iteration: i64,
    threads: u64,
    omp_threads: u32,
    accesses: u64,
    unattributed: u64,
}

impl PendingLaunch {
    /// Launch `launch` of loop 0, without accesses (tests of the delivery).
    #[cfg(test)]
    pub(super) fn empty(launch: u32) -> Self {
        PendingLaunch {
            name: format!("k{launch}"),
            parts: Vec::new(),
            workshare: 0,
            launch,
            location: "?".into(),
            function: "f".into(),
            first_iteration: 0,
            threads: 0,
            omp_threads: 1,
            accesses: 0,
            unattributed: 0,
        }
    }

    /// The launch with its kernel built for `config`.
    pub(super) fn build(self, config: &SimtConfig) -> KernelLaunch {
        let kernel = build_kernel(
            self.name,
            self.parts,
            self.first_iteration,
            self.threads,
            config,
        );
        KernelLaunch {
            workshare: self.workshare,
            launch: self.launch,
            location: self.location,
            function: self.function,
            first_iteration: self.first_iteration,
            threads: self.threads,
            omp_threads: self.omp_threads,
            accesses: self.accesses,
            unattributed: self.unattributed,
            kernel,
        }
    }
}

/// A thread's instance of a static memory instruction: `(instruction, k)`.
pub(super) type Instance = (u32, u32);

/// Builds the kernel's blocks from the parts' `(iteration, memory instruction, address)`
/// accesses (each part one OpenMP thread's, in its program order; parts in the order they
/// started). An iteration's accesses are taken from every part that ran it, in part order,
/// each part's in its order: the parts' accesses concatenated and sorted by iteration with a
/// stable sort, without the copy and the sort's buffer (a third more memory than the accesses
/// themselves). A part whose iterations go back (which no schedule does) is sorted first.
pub(super) fn build_kernel(
    name: String,
    mut parts: Vec<PartAccesses>,
    first: i64,
    threads: u64,
    config: &SimtConfig,
) -> Kernel {
    parts.iter_mut().for_each(PartAccesses::sort);
    // Where each part stands, and the parts' next iterations, smallest first (ties: the part
    // that started first).
    let mut at: Vec<RunCursor> = parts.iter().map(PartAccesses::cursor).collect();
    let mut heads: BinaryHeap<Reverse<(i64, usize)>> = parts
        .iter()
        .zip(&at)
        .enumerate()
        .filter_map(|(i, (p, c))| p.iteration(c).map(|it| Reverse((it, i))))
        .collect();
    let t_block = config.block_size as u64;
    let group = match config.mi_scope {
        MiScope::Warp => config.warp_size.min(config.block_size),
        MiScope::Block => config.block_size,
    };
    let mut blocks = Vec::new();
    let mut gpos = 0u64;
    let mut counts: FastMap<u32, u32> = FastMap::default();
    // One instance sequence per thread of the block, reused from block to block (a block holds
    // at most the launch's threads: the block size may be far larger).
    let mut seqs: Vec<Vec<(Instance, u64)>> = Vec::new();
    for b in 0..threads.div_ceil(t_block) {
        let in_block = t_block.min(threads - b * t_block) as usize;
        seqs.resize_with(seqs.len().max(in_block), Vec::new);
        for (gid, seq) in (b * t_block..).zip(&mut seqs[..in_block]) {
            let it = first + gid as i64;
            counts.clear();
            seq.clear();
            // Iterations below the kernel's first are skipped (outside the bounds); then the
            // parts that ran `it` come off the heap in the order they started.
            while let Some(&Reverse((head, i))) = heads.peek() {
                if head >= it {
                    break;
                }
                heads.pop();
                let (part, c) = (&parts[i], &mut at[i]);
                while part.iteration(c).is_some_and(|r| r < it) {
                    part.skip_run(c);
                }
                if let Some(next) = part.iteration(c) {
                    heads.push(Reverse((next, i)));
                }
            }
            while let Some(&Reverse((head, i))) = heads.peek() {
                if head > it {
                    break;
                }
                heads.pop();
                let (part, c) = (&parts[i], &mut at[i]);
                while part.iteration(c) == Some(it) {
                    for (mi, addr) in part.take_run(c) {
                        let k = counts.entry(mi).or_insert(0);
                        seq.push(((mi, *k), config.granularity.map(addr)));
                        *k += 1;
                    }
                }
                if let Some(next) = part.iteration(c) {
                    heads.push(Reverse((next, i)));
                }
            }
        }
        let mut per_group: Vec<Vec<(u32, Vec<u64>)>> =
            seqs[..in_block].chunks(group).map(lockstep_merge).collect();
        let mut mis = Vec::new();
        // Warps issue round-robin (one group per block in block scope).
        let rounds = per_group.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..rounds {
            for g in &mut per_group {
                if let Some((pc, lanes)) = g.get_mut(r) {
                    gpos += 1;
                    mis.push(MemInstr {
                        pc: *pc as u64,
                        pos: mis.len() as u64 + 1,
                        gpos,
                        lanes: std::mem::take(lanes),
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
pub(super) fn lockstep_merge(seqs: &[Vec<(Instance, u64)>]) -> Vec<(u32, Vec<u64>)> {
    if let Some(out) = merge_uniform(seqs) {
        return out;
    }
    // Instances as dense ids, so that the rounds below count in arrays rather than hash maps.
    let mut ids: FastMap<Instance, u32> = FastMap::default();
    let mut instance_of: Vec<Instance> = Vec::new();
    let mut remaining: Vec<u32> = Vec::new();
    // Every thread's sequence as ids, one after another in `flat`: thread t's next instance is
    // at `cursor[t]`, and its sequence ends at `end[t]`.
    let mut flat: Vec<(u32, u64)> = Vec::with_capacity(seqs.iter().map(Vec::len).sum());
    let mut cursor = Vec::with_capacity(seqs.len());
    let mut end = Vec::with_capacity(seqs.len());
    for s in seqs {
        cursor.push(flat.len());
        for &(inst, addr) in s {
            let id = *ids.entry(inst).or_insert_with(|| {
                instance_of.push(inst);
                remaining.push(0);
                instance_of.len() as u32 - 1
            });
            remaining[id as usize] += 1;
            flat.push((id, addr));
        }
        end.push(flat.len());
    }
    // The threads with instances left, in thread order (a round visits only these: in a group
    // where a few threads run long inner loops, most are done early).
    let mut live: Vec<usize> = (0..seqs.len()).filter(|&t| cursor[t] < end[t]).collect();
    // Threads at each instance this round; zero again after every round.
    let mut heads = vec![0u32; instance_of.len()];
    let mut out = Vec::new();
    while !live.is_empty() {
        for &t in &live {
            heads[flat[cursor[t]].0 as usize] += 1;
        }
        // The first thread whose next instance every thread still to run it has reached; else
        // the first live thread's.
        let fallback = flat[cursor[live[0]]].0;
        let id = live
            .iter()
            .map(|&t| flat[cursor[t]].0)
            .find(|&id| heads[id as usize] == remaining[id as usize])
            .unwrap_or(fallback);
        let mut lanes = Vec::with_capacity(heads[id as usize] as usize);
        let mut finished = false;
        for &t in &live {
            let (i, addr) = flat[cursor[t]];
            heads[i as usize] = 0;
            if i == id {
                lanes.push(addr);
                cursor[t] += 1;
                finished |= cursor[t] == end[t];
            }
        }
        if finished {
            live.retain(|&t| cursor[t] < end[t]);
        }
        remaining[id as usize] -= lanes.len() as u32;
        out.push((instance_of[id as usize].0, lanes));
    }
    out
}

/// The lockstep merge where every thread of the group that runs at all runs the same
/// instances in the same order (no divergence, the common case of array loops): MI `r` is
/// every such thread's `r`-th access. `None` when the threads diverge.
fn merge_uniform(seqs: &[Vec<(Instance, u64)>]) -> Option<Vec<(u32, Vec<u64>)>> {
    let mut running = seqs.iter().filter(|s| !s.is_empty());
    let Some(lead) = running.next() else {
        return Some(Vec::new());
    };
    let same = |s: &&Vec<(Instance, u64)>| {
        s.len() == lead.len() && s.iter().zip(lead.iter()).all(|(a, b)| a.0 == b.0)
    };
    if !running.clone().all(|s| same(&s)) {
        return None;
    }
    let lanes = 1 + running.count();
    Some(
        (0..lead.len())
            .map(|r| {
                let mut v = Vec::with_capacity(lanes);
                v.extend(seqs.iter().filter(|s| !s.is_empty()).map(|s| s[r].1));
                (lead[r].0 .0, v)
            })
            .collect(),
    )
}
