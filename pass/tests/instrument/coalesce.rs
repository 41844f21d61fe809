//! Inline records share the cursor's load and store and the bases' loads between calls.

use super::*;
use inkwell::values::{AnyValue, InstructionValue};

/// What one stretch of a block (between calls that may record) does with the cursor.
#[derive(Default)]
struct Stretch {
    cursor_loads: usize,
    cursor_stores: usize,
    base_loads: std::collections::HashMap<String, usize>,
    /// A record was written after the last store of the cursor.
    unsaved: bool,
}

impl Stretch {
    fn check(&self, at: &str) {
        assert!(
            self.cursor_loads <= 1,
            "{at}: {} cursor loads",
            self.cursor_loads
        );
        assert!(
            self.cursor_stores <= 1,
            "{at}: {} cursor stores",
            self.cursor_stores
        );
        for (slot, n) in &self.base_loads {
            assert!(*n <= 1, "{at}: {n} loads of {slot}");
        }
        assert!(
            !self.unsaved,
            "{at}: records written but the cursor not stored"
        );
    }
}

/// The operand `i` of `inst` as text (what a pointer operand names).
fn operand_text(inst: InstructionValue<'_>, i: u32) -> String {
    inst.get_operand(i)
        .and_then(|o| o.value())
        .map(|v| v.print_to_string().to_string())
        .unwrap_or_default()
}

/// Whether the pointer operand `i` of `inst` is the thread-local cursor's slot.
fn is_cursor_slot(inst: InstructionValue<'_>, i: u32) -> bool {
    operand_text(inst, i).contains(&format!(
        "llvm.threadlocal.address.p0(ptr @{})",
        abi::CURSOR_TLS
    ))
}

/// Whether the pointer operand `i` of `inst` is record memory (the cursor's value or past it).
fn is_record_memory(inst: InstructionValue<'_>, i: u32) -> bool {
    let name = inst
        .get_operand(i)
        .and_then(|o| o.value())
        .map(|v| v.get_name().to_string_lossy().into_owned())
        .unwrap_or_default();
    ["rdt.cur", "rdt.next", "rdt.at"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// In every block of every input, between two calls that may record (anything but an
/// intrinsic), the cursor is loaded and stored at most once, each base entry is loaded at most
/// once, and the cursor is stored after the last record before the call (or the block's end);
/// and fewer cursor stores are left than records.
#[test]
fn records_share_the_cursor_and_bases_between_calls() {
    let bases = format!("@{}", abi::MODULE_BASES_GLOBAL);
    let mut stores = 0;
    let mut records = 0;
    for name in ALL_INPUTS
        .iter()
        .chain(&["loop_runs.ll", "derived_accesses.ll"])
    {
        let ctx = Context::create();
        let module = load(&ctx, name);
        instrument_explained(&module);
        for f in module.get_functions() {
            for bb in f.get_basic_blocks() {
                let at = format!("{name}: {}", f.get_name().to_string_lossy());
                let mut stretch = Stretch::default();
                for inst in bb.get_instructions() {
                    match inst.get_opcode() {
                        InstructionOpcode::Call
                            if !callee_name(inst).is_some_and(|c| c.starts_with("llvm.")) =>
                        {
                            stretch.check(&at);
                            stretch = Stretch::default();
                        }
                        InstructionOpcode::Load if is_cursor_slot(inst, 0) => {
                            stretch.cursor_loads += 1
                        }
                        InstructionOpcode::Load if operand_text(inst, 0).contains(&bases) => {
                            *stretch.base_loads.entry(operand_text(inst, 0)).or_default() += 1
                        }
                        InstructionOpcode::Store if is_cursor_slot(inst, 1) => {
                            stretch.cursor_stores += 1;
                            stretch.unsaved = false;
                            stores += 1;
                        }
                        InstructionOpcode::Store if is_record_memory(inst, 1) => {
                            stretch.unsaved = true;
                            records += 1;
                        }
                        _ => {}
                    }
                }
                stretch.check(&at);
            }
        }
    }
    // Each record is two stores (its head and its value).
    assert!(
        stores > 0 && stores < records / 2,
        "{stores} cursor stores, {records} stores"
    );
}
