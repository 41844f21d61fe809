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

use inkwell::builder::Builder;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, FunctionValue, GlobalValue, InstructionOpcode,
    InstructionValue, IntValue, PointerValue,
};
use inkwell::{AddressSpace, IntPredicate};
use rdtrace::abi::{self, IdKind, RECORD_ALIGN, RECORD_SIZE};
use rdtrace::meta::BranchKind;
use rdtrace::raw::{TAG_ACCESS, TAG_BLOCK, TAG_BRANCH};

use crate::error::PassError;
use crate::hooks::{position_after, position_before, Hooks};

// The record's first word is stored with `align RECORD_ALIGN` and its second at offset 8 with
// `align 8`: that is only sound if records are that large and the runtime's record type (whose
// alignment `rdtrace::raw` asserts equal to RECORD_ALIGN) is at least 8-aligned.
const _: () = assert!(RECORD_ALIGN.is_power_of_two() && RECORD_ALIGN >= 8);
const _: () = assert!(RECORD_SIZE == 16 && RECORD_SIZE.is_multiple_of(RECORD_ALIGN));
const _: () = assert!(
    std::mem::align_of::<rdtrace::raw::RawEvent>() == RECORD_ALIGN as usize
        && std::mem::size_of::<rdtrace::raw::RawEvent>() == RECORD_SIZE as usize
);
use crate::ids::ModuleLayout;
use crate::implied::ImpliedEntries;
use crate::ir::{self, ValueRef};
use crate::openmp::{BoundType, OmpAnalysis, RuntimeAction};

/// What inline record emission needs: the runtime's TLS cursor and block countdown, and the
/// intrinsic that gives the calling thread's address of them.
pub(crate) struct InlineRecords<'ctx> {
    cursor: GlobalValue<'ctx>,
    countdown: GlobalValue<'ctx>,
    threadlocal_address: FunctionValue<'ctx>,
}

/// A block entry whose countdown test (`due`, an `i1` instruction at the end of the block's
/// entry code) still has to become a branch to the countdown hook: see
/// [`split_block_entries`].
pub(crate) struct BlockEntry<'ctx> {
    due: InstructionValue<'ctx>,
}

impl<'ctx> InlineRecords<'ctx> {
    /// Declares the cursor and `llvm.threadlocal.address.p0`.
    pub(crate) fn declare(module: &Module<'ctx>, hooks: &Hooks<'ctx>) -> Result<Self, PassError> {
        let ptr = module.get_context().ptr_type(AddressSpace::default());
        let intrinsic = Intrinsic::find("llvm.threadlocal.address").ok_or_else(|| {
            PassError::Build("llvm.threadlocal.address is unknown to this LLVM".into())
        })?;
        let threadlocal_address = intrinsic
            .get_declaration(module, &[ptr.into()])
            .ok_or_else(|| PassError::Build("cannot declare llvm.threadlocal.address.p0".into()))?;
        Ok(InlineRecords {
            cursor: hooks.cursor_global(module),
            countdown: hooks.countdown_global(module),
            threadlocal_address,
        })
    }

    /// The calling thread's address of the thread-local `global`.
    fn tls_address(
        &self,
        builder: &Builder<'ctx>,
        global: GlobalValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, PassError> {
        Ok(builder
            .build_direct_call(
                self.threadlocal_address,
                &[global.as_pointer_value().into()],
                "rdt.tls",
            )?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| PassError::Build("llvm.threadlocal.address returned nothing".into()))?
            .into_pointer_value())
    }

    /// A block entry: decrements the countdown and tests whether it ran out (the branch to the
    /// hook is added by [`split_block_entries`]), then appends the block record unless the
    /// block is implied (see [`crate::implied`]: its entry is recorded by its predecessors).
    fn emit_block_entry(
        &self,
        builder: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
        id: IntValue<'ctx>,
        implied: bool,
    ) -> Result<BlockEntry<'ctx>, PassError> {
        let i32t = hooks.i32();
        let slot = self.tls_address(builder, self.countdown)?;
        let left = builder.build_load(i32t, slot, "rdt.cd")?.into_int_value();
        let left = builder.build_int_sub(left, i32t.const_int(1, false), "rdt.cd.next")?;
        builder.build_store(slot, left)?;
        // At zero or below (a signal handler's blocks may have run between load and store).
        let due =
            builder.build_int_compare(IntPredicate::SLE, left, i32t.const_zero(), "rdt.due")?;
        let due = due
            .as_instruction()
            .ok_or_else(|| PassError::Build("the countdown test folded to a constant".into()))?;
        if !implied {
            self.emit(builder, hooks, TAG_BLOCK, id, hooks.i64().const_zero())?;
        }
        Ok(BlockEntry { due })
    }

    /// Appends one raw record (`raw::head_of(tag, id)`, `value`) at the cursor and advances it:
    /// the inline equivalent of the runtime's `record`.
    fn emit(
        &self,
        builder: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
        tag: u8,
        id: IntValue<'ctx>,
        value: IntValue<'ctx>,
    ) -> Result<(), PassError> {
        let ctx = hooks.i64().get_context();
        let (i8t, i64t) = (ctx.i8_type(), hooks.i64());
        let ptr = ctx.ptr_type(AddressSpace::default());
        let slot = self.tls_address(builder, self.cursor)?;
        let cur = builder
            .build_load(ptr, slot, "rdt.cur")?
            .into_pointer_value();
        let wide = builder.build_int_z_extend(id, i64t, "rdt.idw")?;
        let head = builder.build_or(
            wide,
            i64t.const_int(rdtrace::raw::head_of(tag, 0), false),
            "rdt.head",
        )?;
        builder
            .build_store(cur, head)?
            .set_alignment(RECORD_ALIGN)
            .map_err(|e| PassError::Build(e.to_string()))?;
        // Safety: the runtime guarantees room for this record at `cur` (16 bytes).
        let at8 = unsafe {
            builder.build_in_bounds_gep(i8t, cur, &[i64t.const_int(8, false)], "rdt.at8")?
        };
        builder
            .build_store(at8, value)?
            .set_alignment(8)
            .map_err(|e| PassError::Build(e.to_string()))?;
        // Safety: as above; one past the record is still inside the buffer's slack.
        let next = unsafe {
            builder.build_in_bounds_gep(
                i8t,
                cur,
                &[i64t.const_int(RECORD_SIZE as u64, false)],
                "rdt.next",
            )?
        };
        builder.build_store(slot, next)?;
        Ok(())
    }
}

/// Inserts every hook call (and, with `inline`, the inline records and their checks). Returns
/// the inline block entries, for [`split_block_entries`] once everything else is inserted.
pub(crate) fn insert_hooks<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
    omp: &OmpAnalysis<'ctx>,
    inline: Option<&InlineRecords<'ctx>>,
    implied: &ImpliedEntries,
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
    // Inline records per block since the block's entry or its last check (the block record
    // counts).
    let mut since_check = vec![0usize; layout.blocks.len()];
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
                    since_check[block] = usize::from(!implied);
                }
                None => hooks.call(builder, hooks.basic_block, &[id.into()])?,
            }
        }
    }
    for (mi, site) in layout.mem_sites.iter().enumerate() {
        if site.descriptor {
            continue; // crate::fortran::insert_array_accesses
        }
        position_before(builder, site.inst);
        let id = hooks.global_id(builder, IdKind::MemInstr, mi as u32)?;
        let addr = generic_pointer(builder, hooks, site.ptr)?;
        match (site.len, inline) {
            (None, Some(inline)) => {
                let n = &mut since_check[site.block as usize];
                if *n == abi::INLINE_RECORDS_BETWEEN_CHECKS {
                    hooks.call(builder, hooks.check, &[])?;
                    *n = 0;
                }
                *n += 1;
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
                if since_check[site.block as usize] >= abi::INLINE_RECORDS_BETWEEN_CHECKS {
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
            if since_check[pred as usize] >= abi::INLINE_RECORDS_BETWEEN_CHECKS {
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
pub(crate) fn split_block_entries<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
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
fn position_after_end<'ctx>(
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

fn insert_openmp<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
    omp: &OmpAnalysis<'ctx>,
) -> Result<(), PassError> {
    for &(fork, region) in &omp.forks {
        position_before(builder, fork);
        let id = hooks.global_id(builder, IdKind::Region, region)?;
        hooks.call(builder, hooks.omp_fork, &[id.into()])?;
        position_after(builder, fork);
        let id = hooks.global_id(builder, IdKind::Region, region)?;
        hooks.call(builder, hooks.omp_join, &[id.into()])?;
    }
    for rc in &omp.runtime_calls {
        position_after(builder, rc.call);
        let raw = rc.call.as_value_ref();
        match rc.action {
            RuntimeAction::ForInit { ws } => for_init(builder, hooks, omp, ws)?,
            RuntimeAction::DispatchNext { ws } => {
                let id = hooks.global_id(builder, IdKind::Workshare, ws)?;
                // Safety: `__kmpc_dispatch_next_*` returns `i32`.
                let more = unsafe { IntValue::new(raw) };
                let lower = load_bound(builder, hooks, raw, 3, rc.bounds)?;
                let upper = load_bound(builder, hooks, raw, 4, rc.bounds)?;
                let args = [id.into(), more.into(), lower.into(), upper.into()];
                hooks.call(builder, hooks.omp_dispatch_next, &args)?;
            }
            RuntimeAction::ForFini { ws } => {
                let id = hooks.global_id(builder, IdKind::Workshare, ws)?;
                hooks.call(builder, hooks.omp_for_fini, &[id.into()])?;
            }
            RuntimeAction::Barrier => {
                hooks.call(builder, hooks.omp_barrier, &[])?;
            }
        }
    }
    for (region, r) in omp.regions.iter().enumerate() {
        for bb in &layout.functions[r.function as usize].blocks {
            let Some(term) = bb.get_terminator() else {
                continue;
            };
            if term.get_opcode() == InstructionOpcode::Return {
                position_before(builder, term);
                let id = hooks.global_id(builder, IdKind::Region, region as u32)?;
                hooks.call(builder, hooks.omp_region_exit, &[id.into()])?;
            }
        }
    }
    Ok(())
}

/// `__rdt_omp_region_enter(region, omp_get_thread_num(), omp_get_num_threads())`.
fn region_enter<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    anchor: InstructionValue<'ctx>,
    region: u32,
) -> Result<(), PassError> {
    position_before(builder, anchor);
    let tnum = hooks.call_query(builder, hooks.omp_get_thread_num, "rdt.tnum")?;
    let nthreads = hooks.call_query(builder, hooks.omp_get_num_threads, "rdt.nthreads")?;
    let id = hooks.global_id(builder, IdKind::Region, region)?;
    hooks.call(
        builder,
        hooks.omp_region_enter,
        &[id.into(), tnum.into(), nthreads.into()],
    )?;
    Ok(())
}

/// `__rdt_omp_for_init(ws, sched, lower, upper, stride, incr, chunk)` after an init call. For
/// static init the bounds are this thread's, read back from the out-parameters; for dispatch
/// init they are the whole loop's, and the loop increment doubles as the stride.
fn for_init<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    omp: &OmpAnalysis<'ctx>,
    ws: u32,
) -> Result<(), PassError> {
    let w = &omp.workshares[ws as usize];
    let raw = w.call.as_value_ref();
    let id = hooks.global_id(builder, IdKind::Workshare, ws)?;
    let arg = |i| -> Result<IntValue<'ctx>, PassError> {
        // Safety: the scalar parameters of the libomp entry points are integers.
        let v = unsafe { IntValue::new(ir::operand(raw, i).expect("libomp call argument")) };
        Ok(builder.build_int_cast_sign_flag(v, hooks.i64(), w.bounds.signed, "rdt.arg")?)
    };
    // Safety: the schedule parameter is an `i32`.
    let sched = unsafe { IntValue::new(ir::operand(raw, 2).expect("schedule argument")) };
    let sched = builder.build_int_cast_sign_flag(sched, hooks.i32(), true, "rdt.sched")?;
    let (lower, upper, stride, incr, chunk) = match w.kind {
        rdtrace::meta::WorkshareKind::Static => (
            load_bound(builder, hooks, raw, 4, w.bounds)?,
            load_bound(builder, hooks, raw, 5, w.bounds)?,
            load_bound(builder, hooks, raw, 6, w.bounds)?,
            arg(7)?,
            arg(8)?,
        ),
        rdtrace::meta::WorkshareKind::Dispatch => (arg(3)?, arg(4)?, arg(5)?, arg(5)?, arg(6)?),
    };
    let args: [BasicMetadataValueEnum; 7] = [
        id.into(),
        sched.into(),
        lower.into(),
        upper.into(),
        stride.into(),
        incr.into(),
        chunk.into(),
    ];
    hooks.call(builder, hooks.omp_for_init, &args)?;
    Ok(())
}

/// Loads the bound that pointer argument `i` of a libomp call points to, extended to `i64`.
fn load_bound<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    call: ValueRef,
    i: u32,
    bounds: BoundType,
) -> Result<IntValue<'ctx>, PassError> {
    // Safety: the out-parameters of the libomp entry points are pointers.
    let ptr = unsafe { PointerValue::new(ir::operand(call, i).expect("libomp out-parameter")) };
    let ty = if bounds.bits == 32 {
        hooks.i32()
    } else {
        hooks.i64()
    };
    let v = builder.build_load(ty, ptr, "rdt.bound")?.into_int_value();
    Ok(builder.build_int_cast_sign_flag(v, hooks.i64(), bounds.signed, "rdt.bound64")?)
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
