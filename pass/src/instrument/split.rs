//! Splitting every inline block entry after its countdown test, so that the call of the
//! countdown hook sits in a cold block of its own; runs after every other insertion.

use inkwell::builder::Builder;
use inkwell::values::{AsValueRef, InstructionValue, IntValue};
use rdtrace::abi;
use rdtrace::abi::IdKind;

use crate::error::PassError;
use crate::hooks::Hooks;

use super::inline::{BlockEntry, InlineRecords};

/// Gives every inline block entry its call of the countdown hook: the block `bb` is split after
/// its countdown test into `pre` (its PHIs, EH pad, allocas, the function-entry hooks and the
/// countdown code), a `cold` block that calls `__rdt_block_countdown`, and `bb` itself (the
/// block record and everything else):
///
/// ```text
/// pre:  phis, landingpad, allocas, entry hooks; due = --countdown <= 0; br due, cold, bb
/// cold: call __rdt_block_countdown(); br bb
/// bb:   block record, the block's instructions and records, its terminator
/// ```
///
/// `pre` takes over `bb`'s predecessors (and `blockaddress` uses); `bb` keeps its terminator,
/// so its successors' PHIs still name their real predecessor. Runs last, because the other
/// insertions find terminators and anchors through the original blocks.
///
/// The block of a loop recorded in runs (`entry.run`) tests whether the countdown ran out or its
/// run is full; its cold block writes the run so far and calls the hook only when it is due:
///
/// ```text
/// cold: loop-run records (kept unless the run is empty); br countdown, hook, bb
/// hook: call __rdt_block_countdown(); br bb
/// ```
pub(crate) fn split_block_entries<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    inline: Option<&InlineRecords<'ctx>>,
    entries: &[BlockEntry<'ctx>],
) -> Result<(), PassError> {
    if entries.is_empty() {
        return Ok(());
    }
    let ctx = hooks.i32().get_context();
    // Moves instructions without touching their debug locations or metadata: a builder that
    // never has a current location copies none onto what it inserts.
    let mover = ctx.create_builder();
    // Taken 1 time in INLINE_BLOCKS_BETWEEN_HOOKS (the runtime's default stamp interval).
    let weights = ctx.metadata_node(&[
        ctx.metadata_string("branch_weights").into(),
        hooks.i32().const_int(1, false).into(),
        hooks
            .i32()
            .const_int(abi::INLINE_BLOCKS_BETWEEN_HOOKS as u64 - 1, false)
            .into(),
    ]);
    let prof = ctx.get_kind_id("prof");
    for entry in entries {
        let due = entry.due;
        let (Some(bb), Some(split_at)) = (due.get_parent(), due.get_next_instruction()) else {
            return Err(PassError::Build("a block entry lost its place".into()));
        };
        let function = bb
            .get_parent()
            .ok_or_else(|| PassError::Build("a block outside a function".into()))?;
        let term = bb
            .get_terminator()
            .ok_or_else(|| PassError::Build("a block without a terminator".into()))?;
        let pre = ctx.prepend_basic_block(bb, "rdt.entry");
        let cold = ctx.append_basic_block(function, "rdt.countdown");
        // With the terminator detached, replacing `bb` leaves its successors' PHIs alone (LLVM
        // updates the PHIs of the successors of the replaced block's terminator) and moves
        // every branch to `bb`, a self-loop's included, and every blockaddress to `pre`.
        term.remove_from_basic_block();
        bb.replace_all_uses_with(&pre);
        mover.position_at_end(bb);
        insert_keeping_name(&mover, term);
        let mut inst = bb.get_first_instruction();
        while let Some(i) = inst {
            if i == split_at {
                break;
            }
            inst = i.get_next_instruction();
            i.remove_from_basic_block();
            mover.position_at_end(pre);
            insert_keeping_name(&mover, i);
        }
        position_after_end(builder, pre, due);
        let br = builder.build_conditional_branch(due_value(due)?, cold, bb)?;
        br.set_metadata(weights, prof)
            .map_err(|e| PassError::Build(e.to_string()))?;
        position_after_end(builder, cold, due);
        let (Some(run), Some(inline)) = (&entry.run, inline) else {
            hooks.call(builder, hooks.block_countdown, &[])?;
            builder.build_unconditional_branch(bb)?;
            continue;
        };
        let branch = hooks.global_id(builder, IdKind::Branch, run.branch)?;
        let mis = super::global_mem_ids(builder, hooks, &run.last)?;
        let addrs: Vec<_> = run.last.iter().map(|&(_, a)| a).collect();
        let strides = super::runtime_strides(builder, hooks, &run.strides)?;
        let count = (run.count, false);
        inline.emit_run(
            builder,
            hooks,
            branch,
            count,
            (&mis, &addrs),
            &strides,
            true,
        )?;
        let hook = ctx.append_basic_block(function, "rdt.countdown.hook");
        builder.build_conditional_branch(run.countdown, hook, bb)?;
        position_after_end(builder, hook, due);
        hooks.call(builder, hooks.block_countdown, &[])?;
        builder.build_unconditional_branch(bb)?;
    }
    Ok(())
}

/// Inserts the detached `inst` at the mover's position under its own name (the builder would
/// otherwise give it the empty name).
fn insert_keeping_name<'ctx>(mover: &Builder<'ctx>, inst: InstructionValue<'ctx>) {
    let name = inst
        .get_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    mover.insert_instruction(&inst, Some(&name));
}

/// Positions `builder` at the end of `bb` with the debug location of `like`.
pub(super) fn position_after_end<'ctx>(
    builder: &Builder<'ctx>,
    bb: inkwell::basic_block::BasicBlock<'ctx>,
    like: InstructionValue<'ctx>,
) {
    builder.position_at_end(bb);
    // Safety: the builder and instruction are live; a null location clears the builder's.
    unsafe {
        inkwell::llvm_sys::core::LLVMSetCurrentDebugLocation2(
            builder.as_mut_ptr(),
            inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(like.as_value_ref()),
        )
    };
}

/// The `i1` value of the countdown test.
fn due_value(due: InstructionValue<'_>) -> Result<IntValue<'_>, PassError> {
    // Safety: `due` is the `icmp` built by `emit_block_entry`, an integer (i1) value.
    let v = unsafe { IntValue::new(due.as_value_ref()) };
    if v.get_type().get_bit_width() != 1 {
        return Err(PassError::Build("the countdown test is not an i1".into()));
    }
    Ok(v)
}
