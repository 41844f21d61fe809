//! Which blocks need no block record of their own (`rdtrace::version::V_IMPLIED_BLOCKS`).
//!
//! A block is *implied* when the trace already says every time it is entered: each edge into it
//! either is a recorded branch outcome (a conditional branch, a switch or a back-edge `br`:
//! the branch record names the successor through the metadata), or leaves a predecessor that
//! ends in an unrecorded unconditional `br`, which then carries the block's record just before
//! that `br` (an *edge record*). The decoder emits the block event right after the branch
//! event, so readers see the same event stream as with a record in the block. The branch or
//! edge record is the last record of the predecessor and nothing records between a terminator
//! and the successor's first insertion point (PHIs, allocas), so the block event lands exactly
//! where the block's own record was; only an ordering stamp that the block's countdown hook
//! writes now comes after the block event instead of before it.
//!
//! Why: on branchy code block records are a third of all records (app_mix: 29 of 92 million),
//! and the background writer, the bottleneck of a traced run, encodes every one of them. Most
//! blocks of compiled C and C++ are entered only through conditional branches and loop
//! back-edges.
//!
//! Not implied: function entries (entered through calls), blocks entered from an `invoke`,
//! `indirectbr`, `callbr` or exception-handling terminator, EH pads, blocks without predecessors
//! and blocks without an insertion point.

use inkwell::values::InstructionOpcode;

use crate::ids::ModuleLayout;
use crate::ir::first_insertion_point;

/// The pass's decision, by module-local block id.
pub(crate) struct ImpliedEntries {
    /// Per block: it has no block record of its own.
    pub implied: Vec<bool>,
    /// `(predecessor, block)`: the predecessor ends in an unrecorded unconditional `br` into the
    /// implied block, whose record goes right before that `br`.
    pub edge_records: Vec<(u32, u32)>,
}

impl ImpliedEntries {
    /// No implied blocks (records are calls, or the pass was asked not to imply any).
    pub(crate) fn none(blocks: usize) -> Self {
        ImpliedEntries {
            implied: vec![false; blocks],
            edge_records: Vec::new(),
        }
    }

    /// Decides for every block of `layout`.
    pub(crate) fn compute(layout: &ModuleLayout<'_>) -> Self {
        let mut out = Self::none(layout.blocks.len());
        // How each block's terminator reports the edge it takes.
        let mut recorded = vec![false; layout.blocks.len()];
        for site in &layout.branches {
            recorded[site.block as usize] = true;
        }
        for f in &layout.functions {
            let first = f.first_block as usize;
            let mut preds: Vec<Vec<usize>> = vec![Vec::new(); f.blocks.len()];
            for (p, succs) in f.succs.iter().enumerate() {
                for &s in succs {
                    if preds[s].last() != Some(&p) {
                        preds[s].push(p);
                    }
                }
            }
            let unconditional_br = |p: usize| {
                f.blocks[p].get_terminator().is_some_and(|t| {
                    t.get_opcode() == InstructionOpcode::Br && f.succs[p].len() == 1
                })
            };
            // The block is entered only through recorded outcomes and unconditional `br`s.
            let entered_visibly = |p: usize| recorded[first + p] || unconditional_br(p);
            // Block 0 is the entry, entered through calls.
            for (b, preds) in preds.iter().enumerate().skip(1) {
                // EH pads need no test of their own: `invoke`, `catchswitch` and `cleanupret`,
                // which enter them, are not visible edges.
                if preds.is_empty()
                    || !preds.iter().all(|&p| entered_visibly(p))
                    || first_insertion_point(f.blocks[b]).is_none()
                {
                    continue;
                }
                out.implied[first + b] = true;
                for &p in preds {
                    if !recorded[first + p] {
                        out.edge_records
                            .push(((first + p) as u32, (first + b) as u32));
                    }
                }
            }
        }
        out
    }
}
