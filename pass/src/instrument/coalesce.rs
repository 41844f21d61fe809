//! Fewer instructions per inline record: within each basic block, the thread-local cursor is
//! loaded once and stored once per stretch between calls, and each entry of the module's base
//! table and of its record-head table is loaded once.
//!
//! [`InlineRecords::emit`](super::InlineRecords::emit) writes every record as its own
//! load-store-advance of the cursor and loads its id's base: a block with three records carried
//! three loads and three stores of the cursor and three loads of bases. The code generator
//! cannot merge them (it runs without IR optimisation, see the driver, and a program store in
//! between may alias the cursor or the table as far as it knows), so the traced program ran
//! every one of them. This pass knows what LLVM cannot: the program never touches the cursor,
//! the table or the records. Between two calls, a load of the cursor after a store of it
//! takes the stored value, a store followed by another is dropped, and a load of a base after
//! another of the same entry takes that load's value.
//!
//! Calls are where this stops: a call that runs a hook or instrumented code ([`ir::runs_a_hook`]:
//! an instrumented callee, a hook, `__rdt_check`) may write records, so the cursor is stored
//! before it and loaded again after.
//! A signal handler that records while a block is half written already overwrote the rest of
//! that block's records (the code generator kept the cursor in a register within a block);
//! a crash in the middle of a block now loses that block's records, which were written but
//! not yet counted: within the promise of losing at most the last unflushed chunk.

use inkwell::module::Module;
use inkwell::values::{AsValueRef, GlobalValue, InstructionOpcode, InstructionValue};
use std::collections::hash_map::{Entry, HashMap};

use crate::ir::{self, ValueRef};

/// Merges the cursor's and the bases' loads and stores of inline records in every block of
/// `module` (see the module documentation); `cursor` is the thread-local cursor, `tables` the
/// module's base table and its table of record heads.
pub(crate) fn coalesce_records(
    module: &Module<'_>,
    cursor: GlobalValue<'_>,
    tables: [GlobalValue<'_>; 2],
) {
    let cursor = cursor.as_value_ref();
    let bases = tables.map(|t| t.as_value_ref());
    for function in module.get_functions() {
        for bb in function.get_basic_blocks() {
            let mut block = Block::default();
            let mut next = bb.get_first_instruction();
            while let Some(inst) = next {
                next = inst.get_next_instruction();
                block.visit(inst, cursor, bases);
            }
        }
    }
}

/// What one block's walk knows so far.
#[derive(Default)]
struct Block<'ctx> {
    /// The cursor's value since the last call (stored or loaded in this block).
    cursor: Option<ValueRef>,
    /// The last store of the cursor since the last call: dropped if another follows.
    store: Option<InstructionValue<'ctx>>,
    /// Loaded bases since the last call, by pointer operand.
    bases: HashMap<ValueRef, ValueRef>,
}

impl<'ctx> Block<'ctx> {
    fn visit(&mut self, inst: InstructionValue<'ctx>, cursor: ValueRef, bases: [ValueRef; 2]) {
        match inst.get_opcode() {
            // A call that may read or write the cursor (and, run before the module's
            // registration, see a base change).
            InstructionOpcode::Call if ir::runs_a_hook(inst) => *self = Block::default(),
            InstructionOpcode::Load => {
                let raw = inst.as_value_ref();
                let Some(ptr) = ir::operand(raw, 0) else {
                    return;
                };
                if is_base_slot(ptr, bases) {
                    match self.bases.entry(ptr) {
                        Entry::Occupied(first) if same_type(*first.get(), raw) => {
                            replace_and_erase(inst, *first.get())
                        }
                        Entry::Occupied(_) => {}
                        Entry::Vacant(slot) => {
                            slot.insert(raw);
                        }
                    }
                } else if is_cursor_slot(ptr, cursor) {
                    match self.cursor {
                        Some(value) if same_type(value, raw) => {
                            replace_and_erase(inst, value);
                            drop_unused_address(ptr, cursor);
                        }
                        _ => {
                            // A load that stays reads the stores before it.
                            self.cursor = Some(raw);
                            self.store = None;
                        }
                    }
                }
            }
            InstructionOpcode::Store => {
                let raw = inst.as_value_ref();
                let (Some(value), Some(ptr)) = (ir::operand(raw, 0), ir::operand(raw, 1)) else {
                    return;
                };
                if !is_cursor_slot(ptr, cursor) {
                    return;
                }
                if let Some(earlier) = self.store.replace(inst) {
                    let slot = ir::operand(earlier.as_value_ref(), 1);
                    earlier.erase_from_basic_block();
                    if let Some(slot) = slot {
                        drop_unused_address(slot, cursor);
                    }
                }
                self.cursor = Some(value);
            }
            _ => {}
        }
    }
}

/// Whether `v` is `llvm.threadlocal.address(@cursor)`.
fn is_cursor_address(v: ValueRef, cursor: ValueRef) -> bool {
    if ir::opcode(v) != Some(inkwell::llvm_sys::LLVMOpcode::LLVMCall)
        || ir::call_arg_count(v) != 1
        || ir::operand(v, 0) != Some(cursor)
    {
        return false;
    }
    // Safety: `v` is a live call instruction (checked above).
    let call = unsafe { InstructionValue::new(v) };
    ir::called_function(call).is_some_and(ir::is_intrinsic)
}

/// Whether two values have the same type (a load is only replaced by a value of its type).
fn same_type(a: ValueRef, b: ValueRef) -> bool {
    ir::type_of(a) == ir::type_of(b)
}

/// Whether a load or store through `ptr` reads or writes the calling thread's cursor.
fn is_cursor_slot(ptr: ValueRef, cursor: ValueRef) -> bool {
    ptr == cursor || is_cursor_address(ptr, cursor)
}

/// Whether `ptr` is an entry of the base table or the head table (the table itself for entry
/// 0).
fn is_base_slot(ptr: ValueRef, tables: [ValueRef; 2]) -> bool {
    tables.iter().any(|&table| {
        ptr == table
            || (ir::opcode(ptr) == Some(inkwell::llvm_sys::LLVMOpcode::LLVMGetElementPtr)
                && ir::value_kind(ptr) == ir::ValueKind::OtherConstant
                && ir::operand(ptr, 0) == Some(table))
    })
}

/// Replaces every use of `inst` with `v` and erases it.
fn replace_and_erase(inst: InstructionValue<'_>, v: ValueRef) {
    // Safety: `inst` and `v` are live values of the same type in the same function (a load
    // replaced by an earlier load of the same slot or by the value stored there), and `v`
    // comes before `inst` in its block, so it dominates every use of `inst`.
    unsafe { inkwell::llvm_sys::core::LLVMReplaceAllUsesWith(inst.as_value_ref(), v) };
    inst.erase_from_basic_block();
}

/// Erases the cursor's address computation `ptr` once nothing uses it.
fn drop_unused_address(ptr: ValueRef, cursor: ValueRef) {
    if !is_cursor_address(ptr, cursor) {
        return;
    }
    // Safety: `ptr` is a live call instruction (checked above).
    let inst = unsafe { InstructionValue::new(ptr) };
    if inst.get_first_use().is_none() {
        inst.erase_from_basic_block();
    }
}
