//! Which accesses need no record of their own (`rdtrace::version::V_DERIVED_ACCESSES`).
//!
//! An access is *derived* when an earlier access of the same block, recorded, used the same
//! pointer plus constant offsets, with no hook between them: its address is then that access's
//! address plus the difference of the offsets, and the decoder emits it right after the access
//! event of the instruction before it (see `rdtrace::meta::MemInstrMeta::derived`). Struct
//! fields (`p->a`, `p->b`), neighbouring array elements (`a[i]`, `a[i + 1]`) and stack slots
//! of one frame are the usual cases.
//!
//! "No hook between" is what keeps the anchor's address in the decoder's reach: the runtime
//! hands a buffer to its writer, and so may end a chunk, only inside a hook, and chunks decode
//! on their own. So the analysis walks each block in order and forgets its anchors at every
//! call that runs a hook or instrumented code (every call but the intrinsics that record
//! nothing) and where the instrumentation puts a `__rdt_check` (every
//! `INLINE_RECORDS_BETWEEN_CHECKS` records of a block, the derived accesses left out). The
//! same walk places those checks ([`DerivedAccesses::check_before`]), so `instrument` has no
//! count of its own that could disagree.
//!
//! Why: on code that walks structures, a sixth or so of all accesses are derived (app_mix:
//! 18 %, Lua's interpreter: 14 %; a stencil's neighbouring loads: 45 % of its records), and
//! every record costs the traced thread a store and the background writer, the bottleneck of a
//! traced run, an encoding.

use std::collections::HashMap;

use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::target::{LLVMGetModuleDataLayout, LLVMTargetDataRef};
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionOpcode};
use rdtrace::abi;
use rdtrace::meta::{AccessKind, DerivedAddress};

use crate::ids::ModuleLayout;
use crate::implied::ImpliedEntries;
use crate::ir::{self, ValueRef};
use crate::loop_runs::LoopRuns;

/// The pass's decision, by module-local memory instruction id, and where the inline records'
/// checks go: the checks bound how far an anchor reaches, so one count places both, and
/// `instrument::insert_hooks` follows it.
pub(crate) struct DerivedAccesses {
    /// Per memory instruction: where its address comes from, when it has no record.
    pub derived: Vec<Option<DerivedAddress>>,
    /// Per memory instruction: a `__rdt_check` goes right before its record (inline records).
    pub check_before: Vec<bool>,
    /// Per block: its records since its entry or last check reach
    /// `INLINE_RECORDS_BETWEEN_CHECKS` at its end, so its branch or edge record needs a check
    /// first (inline records).
    pub full_at_end: Vec<bool>,
}

impl DerivedAccesses {
    /// No derived accesses and no checks (records are calls).
    pub(crate) fn none(layout: &ModuleLayout<'_>) -> Self {
        DerivedAccesses {
            derived: vec![None; layout.mem_sites.len()],
            check_before: vec![false; layout.mem_sites.len()],
            full_at_end: vec![false; layout.blocks.len()],
        }
    }

    /// Places the inline records' checks for every block of `layout` (`implied` says which
    /// blocks have no block record, which the count includes; `runs` which loops are recorded
    /// in runs: their blocks record nothing, and the run's records on their exit edges count
    /// with the loop's entry, before a hook) and,
    /// with `derive`, decides which accesses are derived (without, every access is recorded).
    pub(crate) fn compute(
        module: &Module<'_>,
        layout: &ModuleLayout<'_>,
        (implied, runs): (&ImpliedEntries, &LoopRuns),
        derive: bool,
    ) -> Self {
        let mut out = Self::none(layout);
        // Safety: the data layout belongs to the module, which outlives this call.
        let data_layout = unsafe { LLVMGetModuleDataLayout(module.as_mut_ptr()) };
        // The fixed-size accesses, by instruction (a memcpy's two sites share its call, which
        // is a hook anyway).
        let site_of: HashMap<ValueRef, usize> = (layout.mem_sites.iter().enumerate())
            .filter(|(_, s)| s.len.is_none() && !s.descriptor)
            .map(|(mi, s)| (s.inst.as_value_ref(), mi))
            .collect();
        for f in &layout.functions {
            for (b, bb) in f.blocks.iter().enumerate() {
                let block = f.first_block as usize + b;
                if runs.run_branch[block].is_some() {
                    continue; // no record of its own (see `crate::loop_runs`)
                }
                // Records since the block's entry or its last check (its block record counts).
                let mut since_check = usize::from(!implied.implied[block]);
                // The anchors of the current stretch without hooks: (base, access, offset).
                let mut anchors: Vec<(ValueRef, u32, i64)> = Vec::new();
                for inst in bb.get_instructions() {
                    let raw = inst.as_value_ref();
                    if inst.get_opcode() == InstructionOpcode::Call {
                        if ir::runs_a_hook(inst) {
                            anchors.clear();
                        }
                        continue;
                    }
                    let Some(&mi) = site_of.get(&raw) else {
                        continue;
                    };
                    let site = &layout.mem_sites[mi];
                    let derivable = matches!(site.kind, AccessKind::Load | AccessKind::Store)
                        && site.size > 0
                        && ir::pointer_address_space(ir::type_of(site.ptr)) == 0;
                    let key = (derive && derivable).then(|| base_and_offset(site.ptr, data_layout));
                    if let Some((base, offset)) = key {
                        if let Some(&(_, anchor, at)) = anchors.iter().find(|a| a.0 == base) {
                            out.derived[mi] = Some(DerivedAddress {
                                anchor,
                                offset: offset.wrapping_sub(at),
                            });
                            continue;
                        }
                    }
                    // A recorded access, with a check first when the block's count is full.
                    if since_check == abi::INLINE_RECORDS_BETWEEN_CHECKS {
                        out.check_before[mi] = true;
                        anchors.clear();
                        since_check = 0;
                    }
                    since_check += 1;
                    match key {
                        Some((base, offset)) => anchors.push((base, mi as u32, offset)),
                        // The decoder emits a derived access after the one before it, which
                        // must then have a size of its own.
                        None if site.size == 0 => anchors.clear(),
                        None => {}
                    }
                }
                out.full_at_end[block] = since_check >= abi::INLINE_RECORDS_BETWEEN_CHECKS;
            }
        }
        out
    }
}

/// The pointer `ptr` is computed from by constant-offset `getelementptr`s (instructions or
/// constant expressions), and the sum of their offsets in bytes.
fn base_and_offset(mut ptr: LLVMValueRef, data_layout: LLVMTargetDataRef) -> (ValueRef, i64) {
    let mut offset = 0i64;
    while ir::opcode(ptr) == Some(LLVMOpcode::LLVMGetElementPtr) {
        let Some(step) = ir::constant_gep_offset(ptr, data_layout) else {
            break;
        };
        let Some(inner) = ir::operand(ptr, 0) else {
            break;
        };
        offset = offset.wrapping_add(step);
        ptr = inner;
    }
    (ptr, offset)
}
