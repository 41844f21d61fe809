//! Loop runs ([`crate::version::V_LOOP_RUNS`]): which branches end a single-block loop recorded
//! in runs, as the decoder looks them up (`decode::decode_loop_run` emits their iterations).

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
    /// Per memory instruction of the block: its stride per iteration (`None`: carried by each
    /// event, after the addresses) and its static size.
    pub(super) strides: Vec<Option<i64>>,
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
