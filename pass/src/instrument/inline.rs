//! Inline records: the stores that append block, fixed-size access and branch records at the
//! runtime's thread-local cursor, and the block countdown test, in place of hook calls (see
//! [`crate::PassConfig::inline_records`]).

use inkwell::builder::Builder;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, GlobalValue, InstructionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use rdtrace::abi::{RECORD_ALIGN, RECORD_SIZE};
use rdtrace::raw::TAG_BLOCK;

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
    threadlocal_address: FunctionValue<'ctx>,
}

/// A block entry whose countdown test (`due`, an `i1` instruction at the end of the block's
/// entry code) still has to become a branch to the countdown hook: see
/// [`split_block_entries`](super::split_block_entries).
pub(crate) struct BlockEntry<'ctx> {
    pub(super) due: InstructionValue<'ctx>,
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
    /// hook is added by [`split_block_entries`](super::split_block_entries)), then appends the block record unless the
    /// block is implied (see [`crate::implied`]: its entry is recorded by its predecessors).
    pub(super) fn emit_block_entry(
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
    pub(super) fn emit(
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
