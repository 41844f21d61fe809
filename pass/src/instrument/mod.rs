//! Inserts the hook calls for everything [`ModuleLayout`] and [`OmpAnalysis`] collected.
//!
//! Insertion order matters where several hooks share an anchor instruction, and is chosen so
//! that the runtime sees events in execution order:
//!
//! 0. `__rdt_roi_enter` at the entry of every function, before anything else it records (a
//!    thread entering the region of interest must record the function's first block), and
//!    `__rdt_roi_exit` before every `ret` and `resume`, after everything else;
//! 1. `__rdt_omp_region_enter` at the entry of outlined functions, so the thread knows its
//!    region before its first block event;
//! 2. `__rdt_bb` before each block's first non-PHI, non-landingpad instruction;
//! 3. `__rdt_access{,_range}` immediately before each memory instruction (after 2, so when a
//!    block starts with a load the block event still comes first);
//! 4. `__rdt_branch` before terminators;
//! 5. OpenMP calls: fork/join around `__kmpc_fork_call`, worksharing and barrier hooks right
//!    after the libomp call returns, `__rdt_omp_region_exit` before every `ret` of an outlined
//!    function.
//!
//! With inline records (see [`InlineRecords`]), 2, 3 (fixed-size accesses) and 4 become stores
//! at the thread-local cursor instead of calls, and `__rdt_check` follows every call and every
//! `INLINE_RECORDS_BETWEEN_CHECKS` inline records of a block (its own block record included),
//! which keeps the runtime's promise of free buffer space valid between hooks. A block entry
//! decrements the thread-local countdown and, when it runs out, calls `__rdt_block_countdown`
//! before the block record (stamps, flushing, registration: at most every
//! `INLINE_BLOCKS_BETWEEN_HOOKS` blocks, so no path appends more than that many blocks' records
//! between hooks). The call sits in a block of its own: [`split_block_entries`] splits every
//! instrumented block after its countdown test, once everything else is inserted.

mod inline;
mod omp_hooks;
mod split;

use inkwell::builder::Builder;
use inkwell::values::{AsValueRef, InstructionOpcode, InstructionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use rdtrace::abi::IdKind;
use rdtrace::meta::BranchKind;
use rdtrace::raw::{TAG_ACCESS, TAG_BLOCK, TAG_BRANCH};

use crate::derived::DerivedAccesses;
use crate::error::PassError;
use crate::hooks::{position_after, position_before, Hooks};
use crate::ids::ModuleLayout;
use crate::implied::ImpliedEntries;
use crate::ir::{self, ValueRef};
use crate::openmp::OmpAnalysis;

pub(crate) use inline::{BlockEntry, InlineRecords};
pub(crate) use split::split_block_entries;

use omp_hooks::{insert_openmp, region_enter};

/// Inserts every hook call (and, with `inline`, the inline records and their checks). Returns
/// the inline block entries, for [`split_block_entries`] once everything else is inserted.
pub(crate) fn insert_hooks<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
    omp: &OmpAnalysis<'ctx>,
    inline: Option<&InlineRecords<'ctx>>,
    (implied, derived): (&ImpliedEntries, &DerivedAccesses),
) -> Result<Vec<BlockEntry<'ctx>>, PassError> {
    // Anchors are taken before anything is inserted: the region-enter code goes before the
    // entry block's anchor, and the block hook after it.
    let anchors: Vec<Option<InstructionValue<'ctx>>> = layout
        .blocks
        .iter()
        .map(|&bb| ir::first_insertion_point(bb))
        .collect();
    for (function, f) in layout.functions.iter().enumerate() {
        if let Some(anchor) = anchors[f.first_block as usize] {
            position_before(builder, anchor);
            let id = hooks.global_id(builder, IdKind::Function, function as u32)?;
            hooks.call(builder, hooks.roi_enter, &[id.into()])?;
        }
    }
    for (region, r) in omp.regions.iter().enumerate() {
        let entry = layout.functions[r.function as usize].first_block as usize;
        if let Some(anchor) = anchors[entry] {
            region_enter(builder, hooks, anchor, region as u32)?;
        }
    }
    // Where the checks go between inline records: `derived` placed them.
    let mut entries = Vec::new();
    for (block, anchor) in anchors.iter().enumerate() {
        // Blocks that start with a `catchswitch` have no insertion point; C code has none.
        if let Some(anchor) = *anchor {
            position_before(builder, anchor);
            let id = hooks.global_id(builder, IdKind::Block, block as u32)?;
            match inline {
                Some(inline) => {
                    let implied = implied.implied[block];
                    entries.push(inline.emit_block_entry(builder, hooks, id, implied)?);
                }
                None => hooks.call(builder, hooks.basic_block, &[id.into()])?,
            }
        }
    }
    for (mi, site) in layout.mem_sites.iter().enumerate() {
        if site.descriptor {
            continue; // crate::fortran::insert_array_accesses
        }
        if derived.derived[mi].is_some() {
            continue; // no record: the decoder derives it (see `crate::derived`)
        }
        position_before(builder, site.inst);
        let id = hooks.global_id(builder, IdKind::MemInstr, mi as u32)?;
        let addr = generic_pointer(builder, hooks, site.ptr)?;
        match (site.len, inline) {
            (None, Some(inline)) => {
                if derived.check_before[mi] {
                    hooks.call(builder, hooks.check, &[])?;
                }
                let value = builder.build_ptr_to_int(addr, hooks.i64(), "rdt.addrw")?;
                inline.emit(builder, hooks, TAG_ACCESS, id, value)?;
            }
            (None, None) => hooks.call(builder, hooks.access, &[id.into(), addr.into()])?,
            (Some(len), _) => {
                // Safety: the length operand of a mem intrinsic is an integer value.
                let len = unsafe { IntValue::new(len) };
                let len = builder.build_int_z_extend_or_bit_cast(len, hooks.i64(), "rdt.len")?;
                hooks.call(
                    builder,
                    hooks.access_range,
                    &[id.into(), addr.into(), len.into()],
                )?
            }
        }
    }
    for (br, site) in layout.branches.iter().enumerate() {
        position_before(builder, site.inst);
        let outcome = branch_outcome(builder, hooks, site.inst, site.kind)?;
        let id = hooks.global_id(builder, IdKind::Branch, br as u32)?;
        match inline {
            // The branch is the block's last record; a block with a full count gets a check
            // first so the branch record still fits.
            Some(inline) => {
                if derived.full_at_end[site.block as usize] {
                    hooks.call(builder, hooks.check, &[])?;
                }
                let value = builder.build_int_z_extend(outcome, hooks.i64(), "rdt.outw")?;
                inline.emit(builder, hooks, TAG_BRANCH, id, value)?;
            }
            None => hooks.call(builder, hooks.branch, &[id.into(), outcome.into()])?,
        }
    }
    if let Some(inline) = inline {
        // The record of an implied block entered by an unconditional `br`: the predecessor's
        // last record, where a recorded branch would be (so with the same check before it).
        for &(pred, block) in &implied.edge_records {
            let term = layout.blocks[pred as usize]
                .get_terminator()
                .ok_or_else(|| PassError::Build("an edge record's block lost its `br`".into()))?;
            position_before(builder, term);
            if derived.full_at_end[pred as usize] {
                hooks.call(builder, hooks.check, &[])?;
            }
            let id = hooks.global_id(builder, IdKind::Block, block)?;
            inline.emit(builder, hooks, TAG_BLOCK, id, hooks.i64().const_zero())?;
        }
        // After a call returns, the callee's last block may have used up to
        // INLINE_RECORDS_BETWEEN_CHECKS records since its last hook; a check here keeps the
        // caller's remaining records within the slack. Intrinsics run no instrumented code.
        for call in &layout.calls {
            if call.callee_name.starts_with("llvm.") || call.callee_name.starts_with("__rdt_") {
                continue;
            }
            if call.inst.get_opcode() != InstructionOpcode::Call {
                continue;
            }
            position_after(builder, call.inst);
            hooks.call(builder, hooks.check, &[])?;
        }
    }
    insert_openmp(builder, hooks, layout, omp)?;
    insert_roi_exits(builder, hooks, layout)?;
    Ok(entries)
}

/// `__rdt_roi_exit` before every `ret` and `resume` (after the region-exit hook, which
/// [`insert_openmp`] put there first). A `ret` after a `musttail` call must follow the call
/// directly: such a function's return is not marked (see `docs/deviations.md`).
fn insert_roi_exits<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
) -> Result<(), PassError> {
    for (function, f) in layout.functions.iter().enumerate() {
        for bb in &f.blocks {
            let Some(term) = bb.get_terminator() else {
                continue;
            };
            if !matches!(
                term.get_opcode(),
                InstructionOpcode::Return | InstructionOpcode::Resume
            ) {
                continue;
            }
            let after_musttail = term.get_previous_instruction().is_some_and(|prev| {
                prev.get_opcode() == InstructionOpcode::Call
                    && prev.get_tail_call_kind().is_ok_and(|k| {
                        k == inkwell::values::LLVMTailCallKind::LLVMTailCallKindMustTail
                    })
            });
            if after_musttail {
                continue;
            }
            position_before(builder, term);
            let id = hooks.global_id(builder, IdKind::Function, function as u32)?;
            hooks.call(builder, hooks.roi_exit, &[id.into()])?;
        }
    }
    Ok(())
}

/// Outcome of a branch as an `i32`: the index of the successor taken.
fn branch_outcome<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    term: InstructionValue<'ctx>,
    kind: BranchKind,
) -> Result<IntValue<'ctx>, PassError> {
    let i32t = hooks.i32();
    let raw = term.as_value_ref();
    match kind {
        BranchKind::BackEdge => Ok(i32t.const_zero()),
        BranchKind::Conditional => {
            // Successor 0 is taken when the condition is true: outcome = zext(!cond).
            // Safety: the condition of a conditional branch is an `i1` value.
            let cond = unsafe { IntValue::new(ir::branch_condition(raw)) };
            let not = builder.build_not(cond, "rdt.not")?;
            Ok(builder.build_int_z_extend(not, i32t, "rdt.outcome")?)
        }
        BranchKind::Switch => {
            // Case values are distinct, so the select chain picks at most one case; with none
            // matching the default (outcome 0) remains.
            // Safety: a switch's condition (operand 0) is an integer value.
            let cond = unsafe { IntValue::new(ir::operand(raw, 0).expect("switch condition")) };
            let mut outcome = i32t.const_zero();
            for (i, case) in ir::switch_case_values(raw).into_iter().enumerate() {
                // Safety: switch case values are integer constants of the condition's type.
                let case = unsafe { IntValue::new(case) };
                let hit = builder.build_int_compare(IntPredicate::EQ, cond, case, "rdt.case")?;
                let this = i32t.const_int(i as u64 + 1, false);
                outcome = builder
                    .build_select(hit, this, outcome, "rdt.outcome")?
                    .into_int_value();
            }
            Ok(outcome)
        }
    }
}

/// The address as a generic (`addrspace(0)`) pointer, casting when needed.
fn generic_pointer<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    ptr: ValueRef,
) -> Result<PointerValue<'ctx>, PassError> {
    // Safety: memory instruction address operands are pointers.
    let p = unsafe { PointerValue::new(ptr) };
    if ir::pointer_address_space(ir::type_of(ptr)) == 0 {
        return Ok(p);
    }
    let generic = hooks.i32().get_context().ptr_type(AddressSpace::default());
    Ok(builder.build_address_space_cast(p, generic, "rdt.addr")?)
}
