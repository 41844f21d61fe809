//! How the pass names values in metadata and explain lines: the way the textual IR prints them.
//!
//! clang discards most value names, so `%A.addr` usually prints as `%4`. LLVM numbers unnamed
//! function-local values in order (arguments, then per block the block label and every unnamed
//! non-void instruction); this module reproduces that numbering on the *original* module, before
//! the pass inserts anything, so that explain lines point at the lines of `clang -S -emit-llvm`.

use std::collections::HashMap;

use inkwell::llvm_sys::prelude::LLVMBasicBlockRef;
use inkwell::llvm_sys::LLVMTypeKind;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue};

use crate::ir::{self, ValueKind, ValueRef};

/// Printable names of the values of one module.
#[derive(Debug, Default)]
pub(crate) struct ValueNames {
    /// Slot name (`%7`, `%A.addr`, `@grid`, `@0`) of named and numbered values.
    names: HashMap<ValueRef, String>,
    /// Label of each block without `%` (`entry`, `32`).
    block_labels: HashMap<LLVMBasicBlockRef, String>,
}

impl ValueNames {
    /// Numbers the values of `module` as the IR printer would.
    pub(crate) fn compute(module: &Module<'_>) -> Self {
        let mut out = Self::default();
        let mut global_slot = 0u32;
        let mut global = |v: ValueRef, out: &mut Self| {
            let name = ir::value_name(v);
            let printed = if name.is_empty() {
                global_slot += 1;
                format!("@{}", global_slot - 1)
            } else {
                format!("@{name}")
            };
            out.names.insert(v, printed);
        };
        for g in module.get_globals() {
            global(g.as_value_ref(), &mut out);
        }
        for f in module.get_functions() {
            global(f.as_value_ref(), &mut out);
        }
        for f in module.get_functions() {
            out.number_function(f);
        }
        out
    }

    fn number_function(&mut self, f: FunctionValue<'_>) {
        let mut slot = 0u32;
        let local = |v: ValueRef, slot: &mut u32| {
            let name = ir::value_name(v);
            if name.is_empty() {
                *slot += 1;
                (*slot - 1).to_string()
            } else {
                name
            }
        };
        if ir::is_declaration(f) {
            return;
        }
        // Parameters are read raw: inkwell's typed parameter iterator rejects `metadata`
        // parameters, which intrinsic declarations have.
        let raw = f.as_value_ref();
        let mut i = 0;
        while let Some(p) = ir::function_param(raw, i) {
            let label = local(p, &mut slot);
            self.names.insert(p, format!("%{label}"));
            i += 1;
        }
        for bb in f.get_basic_blocks() {
            // Blocks are values too; the printer numbers unnamed blocks in the same sequence.
            let name = bb.get_name().to_string_lossy().into_owned();
            let label = if name.is_empty() {
                slot += 1;
                (slot - 1).to_string()
            } else {
                name
            };
            self.block_labels.insert(bb.as_mut_ptr(), label);
            for inst in bb.get_instructions() {
                let ty = ir::type_of(inst.as_value_ref());
                if ir::type_kind(ty) == LLVMTypeKind::LLVMVoidTypeKind {
                    continue;
                }
                let label = local(inst.as_value_ref(), &mut slot);
                self.names.insert(inst.as_value_ref(), format!("%{label}"));
            }
        }
    }

    /// How a value prints: `%7`, `%A.addr`, `@grid`, or a short description of a constant.
    pub(crate) fn value(&self, v: ValueRef) -> String {
        if let Some(n) = self.names.get(&v) {
            return n.clone();
        }
        match ir::value_kind(v) {
            ValueKind::NullOrUndef => "null".to_string(),
            ValueKind::OtherConstant => "constant".to_string(),
            _ => {
                let name = ir::value_name(v);
                if name.is_empty() {
                    "%?".to_string()
                } else {
                    format!("%{name}")
                }
            }
        }
    }

    /// Label of a block (`entry`, `32`), used for `BlockMeta::name` as `bb32` when numeric.
    pub(crate) fn block_label(&self, bb: inkwell::basic_block::BasicBlock<'_>) -> String {
        self.block_labels
            .get(&bb.as_mut_ptr())
            .cloned()
            .unwrap_or_else(|| bb.get_name().to_string_lossy().into_owned())
    }
}
