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

mod coalesce;
mod exit_edges;
mod inline;
mod omp_hooks;
mod split;

use inkwell::builder::Builder;
use inkwell::values::{AsValueRef, InstructionOpcode, InstructionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use rdtrace::abi::IdKind;
use rdtrace::meta::BranchKind;

use crate::derived::DerivedAccesses;
use crate::error::PassError;
use crate::hooks::{position_after, position_before, Hooks};
use crate::ids::ModuleLayout;
use crate::implied::ImpliedEntries;
use crate::ir::{self, ValueRef};
use crate::loop_runs::LoopRuns;
use crate::openmp::OmpAnalysis;

pub(crate) use coalesce::coalesce_records;
pub(crate) use exit_edges::{connect_exit_edges, ExitEdge};
use inline::RunEntry;
pub(crate) use inline::{BlockEntry, InlineRecords};
pub(crate) use split::split_block_entries;

use omp_hooks::{insert_openmp, region_enter};

/// Inserts every hook call (and, with `inline`, the inline records and their checks). Returns
/// the inline block entries, for [`split_block_entries`] once everything else is inserted, and
/// the loop runs' exit edges, for [`connect_exit_edges`] before that.
pub(crate) fn insert_hooks<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
    omp: &OmpAnalysis<'ctx>,
    inline: Option<&InlineRecords<'ctx>>,
    (implied, derived, runs): (&ImpliedEntries, &DerivedAccesses, &LoopRuns),
) -> Result<(Vec<BlockEntry<'ctx>>, Vec<ExitEdge<'ctx>>), PassError> {
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
    // Loops recorded in runs: their counters and last addresses, and the run record on each
    // exit edge.
    let mut run_values = std::collections::HashMap::new();
    let mut exits = Vec::new();
    if let Some(inline) = inline {
        for (br, run) in runs.iter() {
            let values = loop_run_values(builder, hooks, layout, run)?;
            let edge = ExitEdge::new(layout, run);
            split::position_after_end(builder, edge.block(), layout.branches[br as usize].inst);
            let branch = hooks.global_id(builder, IdKind::Branch, br)?;
            let mis = global_mem_ids(builder, hooks, &values.last)?;
            let count = (values.next, true);
            let strides = runtime_strides(builder, hooks, &run.strides)?;
            let records = (&mis[..], &values.addrs[..]);
            inline.emit_run(builder, hooks, branch, count, records, &strides, false)?;
            builder.build_unconditional_branch(layout.blocks[run.exit as usize])?;
            exits.push(edge);
            run_values.insert(run.block, (br, values));
        }
    }
    // Where the checks go between inline records: `derived` placed them.
    let mut entries = Vec::new();
    for (block, anchor) in anchors.iter().enumerate() {
        // Blocks that start with a `catchswitch` have no insertion point; C code has none.
        if let Some(anchor) = *anchor {
            position_before(builder, anchor);
            match inline {
                Some(inline) => {
                    let head = match implied.implied[block] {
                        true => None,
                        false => Some(hooks.record_head(builder, IdKind::Block, block as u32)?),
                    };
                    let mut entry = inline.emit_block_entry(builder, hooks, head)?;
                    if let Some((br, values)) = run_values.remove(&(block as u32)) {
                        let strides = runs.by_branch[br as usize]
                            .as_ref()
                            .map(|r| r.strides.clone())
                            .unwrap_or_default();
                        entry = run_block_entry(builder, hooks, entry, (br, strides), values)?;
                    }
                    entries.push(entry);
                }
                None => {
                    let id = hooks.global_id(builder, IdKind::Block, block as u32)?;
                    hooks.call(builder, hooks.basic_block, &[id.into()])?
                }
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
        if runs.run_branch[site.block as usize].is_some() {
            continue; // recorded in runs (see `crate::loop_runs`)
        }
        position_before(builder, site.inst);
        let addr = generic_pointer(builder, hooks, site.ptr)?;
        match (site.len, inline) {
            (None, Some(inline)) => {
                if derived.check_before[mi] {
                    hooks.call(builder, hooks.check, &[])?;
                }
                let head = hooks.record_head(builder, IdKind::MemInstr, mi as u32)?;
                let value = builder.build_ptr_to_int(addr, hooks.i64(), "rdt.addrw")?;
                inline.emit(builder, hooks, head, value)?;
            }
            (None, None) => {
                let id = hooks.global_id(builder, IdKind::MemInstr, mi as u32)?;
                hooks.call(builder, hooks.access, &[id.into(), addr.into()])?
            }
            (Some(len), _) => {
                let id = hooks.global_id(builder, IdKind::MemInstr, mi as u32)?;
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
        if runs.by_branch[br].is_some() {
            continue; // recorded in runs
        }
        position_before(builder, site.inst);
        let outcome = branch_outcome(builder, hooks, site.inst, site.kind)?;
        match inline {
            // The branch is the block's last record; a block with a full count gets a check
            // first so the branch record still fits.
            Some(inline) => {
                if derived.full_at_end[site.block as usize] {
                    hooks.call(builder, hooks.check, &[])?;
                }
                let head = hooks.record_head(builder, IdKind::Branch, br as u32)?;
                let value = builder.build_int_z_extend(outcome, hooks.i64(), "rdt.outw")?;
                inline.emit(builder, hooks, head, value)?;
            }
            None => {
                let id = hooks.global_id(builder, IdKind::Branch, br as u32)?;
                hooks.call(builder, hooks.branch, &[id.into(), outcome.into()])?
            }
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
            let head = hooks.record_head(builder, IdKind::Block, block)?;
            inline.emit(builder, hooks, head, hooks.i64().const_zero())?;
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
    Ok((entries, exits))
}

/// The values a loop recorded in runs carries from iteration to iteration.
struct RunValues<'ctx> {
    /// Iterations of the open run before this one (an `i32` PHI at the top of the block).
    count: IntValue<'ctx>,
    /// The count after this iteration, `count + 1` (its operand becomes 0 where a run ends).
    next: IntValue<'ctx>,
    /// Per memory instruction: its module-local id and last iteration's address (`i64` PHIs).
    last: Vec<(u32, IntValue<'ctx>)>,
    /// Per memory instruction: this iteration's address, before the block's terminator.
    addrs: Vec<IntValue<'ctx>>,
    /// Whether the last iteration's narrow values could wrap in this one (an `i1` PHI, false
    /// from outside), when the loop has [`crate::loop_runs::WrapCheck`]s: the run ends there.
    cut: Option<IntValue<'ctx>>,
}

/// Adds a loop's run counter and last-address PHIs (0 when entering from outside) and, before
/// its terminator, the addresses of this iteration and the count after it.
fn loop_run_values<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
    run: &crate::loop_runs::LoopRunSite,
) -> Result<RunValues<'ctx>, PassError> {
    let bb = layout.blocks[run.block as usize];
    let lost = || PassError::Build("a loop run's block lost its instructions".into());
    let (first, term) = (bb.get_first_instruction(), bb.get_terminator());
    let (first, term) = (first.ok_or_else(lost)?, term.ok_or_else(lost)?);
    let (i32t, i64t) = (hooks.i32(), hooks.i64());
    position_before(builder, first);
    let count = builder.build_phi(i32t, "rdt.run.n")?;
    let (first_mi, _) = layout.block_mem_range[run.block as usize];
    let mis = first_mi..first_mi + run.strides.len() as u32;
    let last_phis = (mis.clone())
        .map(|_| builder.build_phi(i64t, "rdt.run.last"))
        .collect::<Result<Vec<_>, _>>()?;
    let bool_t = i32t.get_context().bool_type();
    let cut_phi = (!run.wrap_checks.is_empty())
        .then(|| builder.build_phi(bool_t, "rdt.run.cut"))
        .transpose()?;
    position_before(builder, term);
    let mut addrs = Vec::with_capacity(last_phis.len());
    for mi in mis.clone() {
        // Safety: memory instruction address operands are pointers.
        let ptr = unsafe { PointerValue::new(layout.mem_sites[mi as usize].ptr) };
        addrs.push(builder.build_ptr_to_int(ptr, i64t, "rdt.run.addr")?);
    }
    let cut = wraps_next(builder, &run.wrap_checks)?;
    let one = i32t.const_int(1, false);
    let next =
        builder.build_int_nuw_add(count.as_basic_value().into_int_value(), one, "rdt.run.next")?;
    // One incoming value per edge into the block: from itself the values of this iteration,
    // from outside nothing yet.
    let f = &layout.functions[layout.block_function[run.block as usize] as usize];
    let own = (run.block - f.first_block) as usize;
    for (p, succs) in f.succs.iter().enumerate() {
        for _ in succs.iter().filter(|&&s| s == own) {
            let from = f.blocks[p];
            if p == own {
                count.add_incoming(&[(&next, from)]);
                for (phi, addr) in last_phis.iter().zip(&addrs) {
                    phi.add_incoming(&[(addr, from)]);
                }
                if let (Some(phi), Some(cut)) = (&cut_phi, cut) {
                    phi.add_incoming(&[(&cut, from)]);
                }
            } else {
                count.add_incoming(&[(&i32t.const_zero(), from)]);
                for phi in &last_phis {
                    phi.add_incoming(&[(&i64t.const_zero(), from)]);
                }
                if let Some(phi) = &cut_phi {
                    phi.add_incoming(&[(&bool_t.const_zero(), from)]);
                }
            }
        }
    }
    let last = (mis.zip(&last_phis))
        .map(|(mi, phi)| (mi, phi.as_basic_value().into_int_value()))
        .collect();
    Ok(RunValues {
        count: count.as_basic_value().into_int_value(),
        next,
        last,
        addrs,
        cut: cut_phi.map(|phi| phi.as_basic_value().into_int_value()),
    })
}

/// Whether any of `checks`' values, as this iteration has them, would wrap in the next one
/// (`None` without checks): `x + step` leaves `x`'s signed (or unsigned) range, a compare with
/// a constant each.
fn wraps_next<'ctx>(
    builder: &Builder<'ctx>,
    checks: &[crate::loop_runs::WrapCheck],
) -> Result<Option<IntValue<'ctx>>, PassError> {
    let mut any: Option<IntValue<'ctx>> = None;
    for c in checks {
        // Safety: the loop-run analysis only checks integer instructions of the loop's block.
        let x = unsafe { IntValue::new(c.value) };
        let ty = x.get_type();
        let width = ty.get_bit_width();
        // The bounds past which `x + step` leaves the range: the step fits the width (signed),
        // so these fit it too.
        let (predicate, bound) = match (c.signed, c.step > 0) {
            // x > MAX - step
            (true, true) => (
                IntPredicate::SGT,
                ((1i128 << (width - 1)) - 1) - c.step as i128,
            ),
            // x < MIN - step
            (true, false) => (IntPredicate::SLT, -(1i128 << (width - 1)) - c.step as i128),
            // x > UMAX - step
            (false, true) => (IntPredicate::UGT, ((1i128 << width) - 1) - c.step as i128),
            // x < -step
            (false, false) => (IntPredicate::ULT, -(c.step as i128)),
        };
        let bound = ty.const_int(bound as u64, false);
        let wraps = builder.build_int_compare(predicate, x, bound, "rdt.run.wraps")?;
        any = Some(match any {
            Some(a) => builder.build_or(a, wraps, "rdt.run.wraps")?,
            None => wraps,
        });
    }
    Ok(any)
}

/// The run-time strides among `strides`, evaluated at the builder's position (which their
/// values, computed before the loop, dominate): `fixed + coeff * value` each.
pub(super) fn runtime_strides<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    strides: &[crate::loop_runs::Stride],
) -> Result<Vec<IntValue<'ctx>>, PassError> {
    let i64t = hooks.i64();
    let mut out = Vec::new();
    for s in strides {
        let Some((value, coeff)) = s.term else {
            continue;
        };
        // Safety: the loop-run analysis only takes 64-bit integer values as run-time factors.
        let value = unsafe { IntValue::new(value) };
        let k = i64t.const_int(coeff as u64, true);
        let scaled = builder.build_int_mul(value, k, "rdt.run.stride")?;
        let fixed = i64t.const_int(s.fixed as u64, true);
        out.push(builder.build_int_add(scaled, fixed, "rdt.run.stride")?);
    }
    Ok(out)
}

/// The global ids of a loop run's memory instructions.
fn global_mem_ids<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    last: &[(u32, IntValue<'ctx>)],
) -> Result<Vec<IntValue<'ctx>>, PassError> {
    (last.iter())
        .map(|&(mi, _)| hooks.global_id(builder, IdKind::MemInstr, mi))
        .collect()
}

/// The entry of a loop recorded in runs (the builder right after its countdown test): a run
/// also ends when it is full (`LOOP_RUN_MAX_ITERATIONS`), and where one ends the count starts
/// again from 0.
fn run_block_entry<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    entry: BlockEntry<'ctx>,
    (branch, strides): (u32, Vec<crate::loop_runs::Stride>),
    values: RunValues<'ctx>,
) -> Result<BlockEntry<'ctx>, PassError> {
    let i32t = hooks.i32();
    // Safety: `due` is the countdown's `icmp`, an i1 value.
    let countdown = unsafe { IntValue::new(entry.due.as_value_ref()) };
    let max = i32t.const_int(rdtrace::abi::LOOP_RUN_MAX_ITERATIONS as u64, false);
    let full = builder.build_int_compare(IntPredicate::UGE, values.count, max, "rdt.run.full")?;
    let ends = match values.cut {
        Some(cut) => builder.build_or(full, cut, "rdt.run.ends")?,
        None => full,
    };
    let due = builder.build_or(countdown, ends, "rdt.run.due")?;
    let next = values
        .next
        .as_instruction()
        .ok_or_else(|| PassError::Build("a loop run's count folded".into()))?;
    position_before(builder, next);
    let start = builder
        .build_select(due, i32t.const_zero(), values.count, "rdt.run.base")?
        .into_int_value();
    // Safety: operand 0 of the `add` is its count operand, replaced by a value of that type
    // defined before it.
    unsafe {
        inkwell::llvm_sys::core::LLVMSetOperand(next.as_value_ref(), 0, start.as_value_ref())
    };
    let due = due
        .as_instruction()
        .ok_or_else(|| PassError::Build("a loop run's test folded".into()))?;
    Ok(BlockEntry {
        due,
        run: Some(RunEntry {
            countdown,
            branch,
            count: values.count,
            last: values.last,
            strides,
        }),
    })
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
