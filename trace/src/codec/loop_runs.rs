//! Loop runs ([`crate::version::V_LOOP_RUNS`]): which branches end a single-block loop recorded
//! in runs, and the decoding of a loop-run event into the iterations it stands for.

use super::decode::{Cursor, DecodeError, EventBounds};
use super::predictor::Predictor;
use super::unzigzag;
use crate::event::EventVisitor;

/// Which branches end a single-block loop recorded in *runs* ([`crate::meta::BranchMeta::loop_run`],
/// [`crate::version::V_LOOP_RUNS`]): one loop-run event gives a run's iteration count and the
/// addresses of its last iteration, and the decoder emits every iteration's accesses, the branch
/// event and the implied block after it. Empty for metadata without loop runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopRuns {
    /// Per branch: the index of its loop in `loops` plus one (0: not recorded in runs).
    of_branch: Vec<u32>,
    loops: Vec<LoopRunBounds>,
}

/// One loop recorded in runs, as [`LoopRuns`] holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct LoopRunBounds {
    /// The block's first memory instruction (the others follow it).
    pub(super) first_mi: u32,
    /// Per memory instruction of the block: its stride per iteration and its static size.
    pub(super) strides: Vec<i64>,
    pub(super) sizes: Vec<u32>,
    /// The outcome that stays in the loop (its own block) and the one that leaves it.
    pub(super) back: u32,
    pub(super) exit: u32,
}

impl LoopRuns {
    /// The loops of `meta` recorded in runs (its metadata validated: see
    /// [`crate::meta::ModuleMeta::validate`]; a loop run that does not fit its branch is left
    /// out, so its events are refused).
    pub fn of(meta: &crate::meta::MetaTables) -> Self {
        if !meta.branches.iter().any(|b| b.loop_run.is_some()) {
            return LoopRuns::default();
        }
        let mut runs = LoopRuns {
            of_branch: vec![0; meta.branches.len()],
            loops: Vec::new(),
        };
        for (i, br) in meta.branches.iter().enumerate() {
            let Some(run) = &br.loop_run else { continue };
            let Some(back) = br.successors.iter().position(|&s| s == br.block) else {
                continue;
            };
            let Some(block) = meta.blocks.get(br.block as usize) else {
                continue;
            };
            let first = block.first_mem_instr as usize;
            let sizes: Option<Vec<u32>> = (0..run.strides.len())
                .map(|k| meta.mem_instrs.get(first + k).map(|m| m.size))
                .collect();
            let Some(sizes) = sizes else { continue };
            if br.successors.len() != 2 {
                continue;
            }
            runs.loops.push(LoopRunBounds {
                first_mi: block.first_mem_instr,
                strides: run.strides.clone(),
                sizes,
                back: back as u32,
                exit: 1 - back as u32,
            });
            runs.of_branch[i] = runs.loops.len() as u32;
        }
        runs
    }

    /// Whether any loop is recorded in runs.
    pub fn any(&self) -> bool {
        !self.loops.is_empty()
    }

    /// The loop that branch `br` ends, if it is recorded in runs.
    pub(super) fn of_branch(&self, br: u32) -> Option<&LoopRunBounds> {
        match self.of_branch.get(br as usize) {
            Some(&k) if k > 0 => Some(&self.loops[k as usize - 1]),
            _ => None,
        }
    }
}

/// Decodes a loop-run event (after its opcode) and emits the iterations it stands for (see
/// [`LoopRuns`]): for each iteration, the block's accesses (the run's last addresses less a
/// stride per iteration still to come), the branch event (the exit outcome for the last
/// iteration of a run that left the loop, else the back outcome) and the implied block that
/// outcome enters. Every operand is checked before the first event reaches the visitor. Out of
/// line, so the decoder's loop pays nothing for it (not cold: on loop kernels its emission is
/// most of the decoding).
#[inline(never)]
pub(super) fn decode_loop_run(
    p: &mut Predictor,
    c: &mut Cursor,
    bounds: &EventBounds,
    v: &mut impl EventVisitor,
) -> Result<(), DecodeError> {
    let d = unzigzag(c.varint()?) as i32 as u32;
    let br = p.prev_br.wrapping_add(d);
    let known = bounds.branch_outcomes.len() as u32;
    c.check_id("branch", br, known)?;
    let Some(run) = bounds.loop_runs.of_branch(br) else {
        return Err(c.err(&format!("branch {br} is not a loop recorded in runs")));
    };
    let value = c.varint()?;
    let (count, exit) = (value >> 1, value & 1 != 0);
    let max = crate::abi::LOOP_RUN_MAX_ITERATIONS;
    if count > max as u64 {
        return Err(c.err(&format!(
            "a loop run of {count} iterations of branch {br} exceeds the limit of {max}"
        )));
    }
    let m = run.strides.len();
    let mut last = [0u64; crate::abi::LOOP_RUN_MAX_ACCESSES];
    for (k, last) in last[..m].iter_mut().enumerate() {
        let want = run.first_mi + k as u32;
        let dmi = unzigzag(c.varint()?) as i32 as u32;
        let mi = p.expected_mi().wrapping_add(dmi);
        if mi != want {
            return Err(c.err(&format!(
                "a loop run of branch {br} names memory instruction {mi} where its block has {want}"
            )));
        }
        let daddr = unzigzag(c.varint()?) as u64;
        (_, *last) = p.access(mi, |predicted| predicted.wrapping_add(daddr));
    }
    p.prev_br = br;
    for j in 0..count {
        let back = count - 1 - j;
        let each = last[..m].iter().zip(&run.strides).zip(&run.sizes);
        for (k, ((&last, &stride), &size)) in each.enumerate() {
            let addr = last.wrapping_sub(back.wrapping_mul(stride as u64));
            v.access(run.first_mi + k as u32, addr, size as u64);
        }
        let outcome = if exit && back == 0 {
            run.exit
        } else {
            run.back
        };
        v.branch(br, outcome);
        if let Some(bb) = bounds.implied.after(br, outcome) {
            v.block(bb);
        }
    }
    Ok(())
}
