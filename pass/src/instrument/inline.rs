//! Inline records: the stores that append block, fixed-size access and branch records at the
//! runtime's thread-local cursor, and the block countdown test, in place of hook calls (see
//! [`crate::PassConfig::inline_records`]).

use inkwell::builder::Builder;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, GlobalValue, InstructionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use rdtrace::abi::{RECORD_ALIGN, RECORD_SIZE};
use rdtrace::raw::{TAG_ACCESS, TAG_EXT, TAG_LOOP_RUN};

use crate::error::PassError;
use crate::hooks::Hooks;

// The record's first word is stored with `align RECORD_ALIGN` and its second at offset 8 with
// `align 8`: that is only sound if records are that large and the runtime's record type (whose
// alignment `rdtrace::raw` asserts equal to RECORD_ALIGN) is at least 8-aligned.
const _: () = assert!(RECORD_ALIGN.is_power_of_two() && RECORD_ALIGN >= 8);
const _: () = assert!(RECORD_SIZE == 16 && RECORD_SIZE.is_multiple_of(RECORD_ALIGN));
const _: () = assert!(
    std::mem::align_of::<rdtrace::raw::RawEvent>() == RECORD_ALIGN as usize
        && std::mem::size_of::<rdtrace::raw::RawEvent>() == RECORD_SIZE as usize
);

/// What inline record emission needs: the runtime's TLS cursor and block countdown, and the
/// intrinsic that gives the calling thread's address of them.
pub(crate) struct InlineRecords<'ctx> {
    cursor: GlobalValue<'ctx>,
    countdown: GlobalValue<'ctx>,
    /// `rdtrace::abi::EXPANDED_TLS`, declared when the module has loops recorded in runs.
    expanded: Option<GlobalValue<'ctx>>,
    threadlocal_address: FunctionValue<'ctx>,
}

/// A block entry whose countdown test (`due`, an `i1` instruction at the end of the block's
/// entry code) still has to become a branch to the countdown hook: see
/// [`split_block_entries`](super::split_block_entries).
pub(crate) struct BlockEntry<'ctx> {
    pub(super) due: InstructionValue<'ctx>,
    /// For the block of a loop recorded in runs: `due` also ends a full run, and the cold
    /// block writes the run before it calls the hook.
    pub(super) run: Option<RunEntry<'ctx>>,
}

/// What the cold block of a loop recorded in runs needs (see `crate::loop_runs`).
pub(crate) struct RunEntry<'ctx> {
    /// The countdown test alone: the hook is due.
    pub(super) countdown: IntValue<'ctx>,
    /// The loop's branch (module-local id).
    pub(super) branch: u32,
    /// Iterations of the open run so far (an `i32` PHI).
    pub(super) count: IntValue<'ctx>,
    /// The block's memory instructions (module-local ids) and their last addresses (`i64`
    /// PHIs).
    pub(super) last: Vec<(u32, IntValue<'ctx>)>,
    /// The block's memory instructions' strides (the run-time ones go with each run).
    pub(super) strides: Vec<crate::loop_runs::Stride>,
}

impl<'ctx> InlineRecords<'ctx> {
    /// Declares the cursor, the countdown, the loop-run expansion when `loop_runs`, and
    /// `llvm.threadlocal.address.p0`.
    pub(crate) fn declare(
        module: &Module<'ctx>,
        hooks: &Hooks<'ctx>,
        loop_runs: bool,
    ) -> Result<Self, PassError> {
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
            expanded: loop_runs.then(|| hooks.expanded_global(module)),
            threadlocal_address,
        })
    }

    /// The runtime's thread-local cursor (`rdtrace::abi::CURSOR_TLS`).
    pub(crate) fn cursor_global(&self) -> GlobalValue<'ctx> {
        self.cursor
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

    /// The calling thread's cursor: its thread-local slot and the record address it holds.
    fn cursor(
        &self,
        builder: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
    ) -> Result<(PointerValue<'ctx>, PointerValue<'ctx>), PassError> {
        let ptr = hooks.i64().get_context().ptr_type(AddressSpace::default());
        let slot = self.tls_address(builder, self.cursor)?;
        let cur = builder
            .build_load(ptr, slot, "rdt.cur")?
            .into_pointer_value();
        Ok((slot, cur))
    }

    /// A block entry: decrements the countdown and tests whether it ran out (the branch to the
    /// hook is added by [`split_block_entries`](super::split_block_entries)), then appends the
    /// block record whose first word is `head` (see [`Hooks::record_head`]), unless the block
    /// is implied (`None`; see [`crate::implied`]: its entry is recorded by its predecessors).
    pub(super) fn emit_block_entry(
        &self,
        builder: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
        head: Option<IntValue<'ctx>>,
    ) -> Result<BlockEntry<'ctx>, PassError> {
        let i32t = hooks.i32();
        let slot = self.tls_address(builder, self.countdown)?;
        let left = builder.build_load(i32t, slot, "rdt.cd")?.into_int_value();
        let left = builder.build_int_sub(left, i32t.const_int(1, false), "rdt.cd.next")?;
        builder.build_store(slot, left)?;
        // Below zero (a signal handler's blocks may have run between load and store): a test of
        // the sign alone, so the code generator folds load, decrement, store and test into a
        // `dec` of the variable and a jump on the sign flag (see `abi::COUNTDOWN_TLS`).
        let due =
            builder.build_int_compare(IntPredicate::SLT, left, i32t.const_zero(), "rdt.due")?;
        let due = due
            .as_instruction()
            .ok_or_else(|| PassError::Build("the countdown test folded to a constant".into()))?;
        if let Some(head) = head {
            self.emit(builder, hooks, head, hooks.i64().const_zero())?;
        }
        Ok(BlockEntry { due, run: None })
    }

    /// Appends a loop run's records (see `rdtrace::raw::TAG_LOOP_RUN`): the run of `count`
    /// (`i32`) iterations of the loop ending in `branch` (a global id), which left the loop
    /// when `exit`, then one access record per memory instruction (`mis`: global ids) at its
    /// address in the run's last iteration (`addrs`, `i64`), then one record per run-time
    /// stride (`strides`, `i64`). With `skip_empty`, a run of no iterations is written past the
    /// cursor but not kept (the cursor stays).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_run(
        &self,
        builder: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
        branch: IntValue<'ctx>,
        (count, exit): (IntValue<'ctx>, bool),
        (mis, addrs): (&[IntValue<'ctx>], &[IntValue<'ctx>]),
        strides: &[IntValue<'ctx>],
        skip_empty: bool,
    ) -> Result<(), PassError> {
        let (i8t, i64t) = (hooks.i64().get_context().i8_type(), hooks.i64());
        let (slot, cur) = self.cursor(builder, hooks)?;
        let store = |at: u64, value: IntValue<'ctx>, align: u32| -> Result<(), PassError> {
            // Safety: the runtime guarantees room for the run's records at `cur` (its length
            // is bounded by `LOOP_RUN_MAX_ACCESSES`, counted with the block's records).
            let p = unsafe {
                builder.build_in_bounds_gep(i8t, cur, &[i64t.const_int(at, false)], "rdt.at")?
            };
            builder
                .build_store(p, value)?
                .set_alignment(align)
                .map_err(|e| PassError::Build(e.to_string()))
        };
        let head = |tag: u8, aux: u64, id: IntValue<'ctx>| record_head(builder, i64t, tag, aux, id);
        let record = RECORD_SIZE as u64;
        let aux = mis.len() as u64 | (strides.len() as u64) << 8;
        store(0, head(TAG_LOOP_RUN, aux, branch)?, RECORD_ALIGN)?;
        let wide = builder.build_int_z_extend(count, i64t, "rdt.runw")?;
        let shifted = builder.build_left_shift(wide, i64t.const_int(1, false), "rdt.runc")?;
        let value = builder.build_or(shifted, i64t.const_int(exit as u64, false), "rdt.run")?;
        store(8, value, 8)?;
        for (k, (&mi, &addr)) in mis.iter().zip(addrs).enumerate() {
            let at = record * (k as u64 + 1);
            store(at, head(TAG_ACCESS, 0, mi)?, RECORD_ALIGN)?;
            store(at + 8, addr, 8)?;
        }
        let ext = hooks.i32().const_zero();
        for (k, &stride) in strides.iter().enumerate() {
            let at = record * (mis.len() as u64 + k as u64 + 1);
            store(at, head(TAG_EXT, 0, ext)?, RECORD_ALIGN)?;
            store(at + 8, stride, 8)?;
        }
        let len = record * (mis.len() as u64 + strides.len() as u64 + 1);
        let len = if skip_empty {
            let i32t = hooks.i32();
            let empty = builder.build_int_compare(
                IntPredicate::EQ,
                count,
                i32t.const_zero(),
                "rdt.empty",
            )?;
            builder
                .build_select(
                    empty,
                    i64t.const_zero(),
                    i64t.const_int(len, false),
                    "rdt.len",
                )?
                .into_int_value()
        } else {
            i64t.const_int(len, false)
        };
        // Safety: as above; one past the run is still inside the buffer's slack.
        let next = unsafe { builder.build_in_bounds_gep(i8t, cur, &[len], "rdt.next")? };
        builder.build_store(slot, next)?;
        // The events the run stands for: its iterations' accesses, branches and blocks.
        let expanded = self
            .expanded
            .ok_or_else(|| PassError::Build("a loop run without its expansion counter".into()))?;
        let slot = self.tls_address(builder, expanded)?;
        let before = builder.build_load(i64t, slot, "rdt.exp")?.into_int_value();
        let per = i64t.const_int(mis.len() as u64 + 2, false);
        let added = builder.build_int_nuw_mul(wide, per, "rdt.exp.run")?;
        let after = builder.build_int_add(before, added, "rdt.exp.next")?;
        builder.build_store(slot, after)?;
        Ok(())
    }

    /// Appends one raw record (`head`, `value`) at the cursor and advances it: the inline
    /// equivalent of the runtime's `record`; `head` is `raw::head_of(tag, id)`, from
    /// [`Hooks::record_head`].
    pub(super) fn emit(
        &self,
        builder: &Builder<'ctx>,
        hooks: &Hooks<'ctx>,
        head: IntValue<'ctx>,
        value: IntValue<'ctx>,
    ) -> Result<(), PassError> {
        let (i8t, i64t) = (hooks.i64().get_context().i8_type(), hooks.i64());
        let (slot, cur) = self.cursor(builder, hooks)?;
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

/// The first word of a raw record, `raw::head_of(tag, id)` with `aux` in its auxiliary bits:
/// the inline records' and the loop runs' alike.
fn record_head<'ctx>(
    builder: &Builder<'ctx>,
    i64t: inkwell::types::IntType<'ctx>,
    tag: u8,
    aux: u64,
    id: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, PassError> {
    let wide = builder.build_int_z_extend(id, i64t, "rdt.idw")?;
    let bits = rdtrace::raw::head_of(tag, 0) | aux << rdtrace::raw::AUX_SHIFT;
    Ok(builder.build_or(wide, i64t.const_int(bits, false), "rdt.head")?)
}
