//! One walk over the original module that collects everything the pass will instrument and
//! gives it dense module-local ids.
//!
//! Ids follow module order: functions in module order, blocks in function order (so a
//! function's blocks are contiguous), memory instructions in block and instruction order (so a
//! block's are contiguous), branches in block order, loops by function then header. Identical
//! input therefore yields identical ids. Everything is collected before the first hook is
//! inserted, so nothing the pass adds is itself instrumented.

use std::collections::HashMap;

use inkwell::basic_block::BasicBlock;
use inkwell::llvm_sys::prelude::LLVMBasicBlockRef;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};
use rdtrace::abi;
use rdtrace::meta::{AccessKind, BranchKind};

use crate::fortran_runtime;
use crate::ir::{self, ValueRef};
use crate::loops::LoopForest;

/// A function with a body that the pass instruments.
pub(crate) struct FunctionInfo<'ctx> {
    /// The function.
    pub func: FunctionValue<'ctx>,
    /// Its symbol name.
    pub name: String,
    /// Id of its first block.
    pub first_block: u32,
    /// Its blocks in layout order (block id = `first_block + index`).
    pub blocks: Vec<BasicBlock<'ctx>>,
    /// Successors of each block as local indexes, in terminator order (duplicates kept).
    pub succs: Vec<Vec<usize>>,
    /// Its natural loops (loop id = `first_loop + index`).
    pub loops: LoopForest,
    /// Id of its first loop.
    pub first_loop: u32,
}

/// One memory access to trace.
pub(crate) struct MemSite<'ctx> {
    /// The instruction (for memcpy/memmove: the same call for both sides).
    pub inst: InstructionValue<'ctx>,
    /// Owning block id.
    pub block: u32,
    /// What it does.
    pub kind: AccessKind,
    /// Address operand.
    pub ptr: ValueRef,
    /// Length operand for ranges (memcpy/memmove/memset); `None` for fixed-size accesses.
    pub len: Option<ValueRef>,
    /// `ptr` is a Fortran array descriptor passed to a flang runtime call that reads or writes
    /// the array (see [`crate::fortran`]); the ranges come from the descriptor.
    pub descriptor: bool,
    /// Static size in bytes (0 for ranges).
    pub size: u32,
    /// Whether the accessed type is a vector.
    pub vector: bool,
}

/// A memory-touching instruction the pass does not trace (masked/gather intrinsics).
pub(crate) struct UntracedSite<'ctx> {
    /// The instruction.
    pub inst: InstructionValue<'ctx>,
    /// Owning function id.
    pub function: u32,
    /// What it is, e.g. `llvm.masked.load.v4f64.p0`.
    pub what: String,
    /// Why it is not traced.
    pub reason: &'static str,
}

/// One branch to trace.
pub(crate) struct BranchSite<'ctx> {
    /// The terminator.
    pub inst: InstructionValue<'ctx>,
    /// Owning block id.
    pub block: u32,
    /// Kind of branch.
    pub kind: BranchKind,
    /// Successor block ids, indexed by outcome.
    pub successors: Vec<u32>,
    /// For each successor, the loop whose back-edge it is.
    pub back_edge_of: Vec<Option<u32>>,
}

/// A call instruction, kept for the OpenMP analysis.
pub(crate) struct CallSite<'ctx> {
    /// The call.
    pub inst: InstructionValue<'ctx>,
    /// Owning function id.
    pub function: u32,
    /// Owning block id.
    pub block: u32,
    /// Direct callee after stripping casts.
    pub callee: Option<FunctionValue<'ctx>>,
    /// Name of the direct callee, empty for indirect calls.
    pub callee_name: String,
}

/// Everything the pass instruments, with module-local ids (the index in each vector).
pub(crate) struct ModuleLayout<'ctx> {
    /// Instrumented functions by id.
    pub functions: Vec<FunctionInfo<'ctx>>,
    /// Blocks by id.
    pub blocks: Vec<BasicBlock<'ctx>>,
    /// Owning function of each block id.
    pub block_function: Vec<u32>,
    /// Memory instructions by id.
    pub mem_sites: Vec<MemSite<'ctx>>,
    /// `(first, count)` memory instruction ids of each block.
    pub block_mem_range: Vec<(u32, u32)>,
    /// Memory instructions that are not traced.
    pub untraced: Vec<UntracedSite<'ctx>>,
    /// Branches by id.
    pub branches: Vec<BranchSite<'ctx>>,
    /// Calls in module order.
    pub calls: Vec<CallSite<'ctx>>,
    /// Function id of each instrumented function, by raw value.
    pub function_ids: HashMap<ValueRef, u32>,
}

impl<'ctx> ModuleLayout<'ctx> {
    /// Walks `module` and assigns ids.
    pub(crate) fn scan(module: &Module<'ctx>) -> Self {
        let mut layout = Self {
            functions: Vec::new(),
            blocks: Vec::new(),
            block_function: Vec::new(),
            mem_sites: Vec::new(),
            block_mem_range: Vec::new(),
            untraced: Vec::new(),
            branches: Vec::new(),
            calls: Vec::new(),
            function_ids: HashMap::new(),
        };
        let mut next_loop = 0u32;
        for func in module.get_functions() {
            let name = ir::function_name(func);
            if ir::is_declaration(func) || name.starts_with("__rdt_") || name == abi::MODULE_CTOR {
                continue;
            }
            let id = layout.functions.len() as u32;
            let blocks = func.get_basic_blocks();
            let first_block = layout.blocks.len() as u32;
            let local: HashMap<LLVMBasicBlockRef, usize> = blocks
                .iter()
                .enumerate()
                .map(|(i, &bb)| (ir::block_ref(bb), i))
                .collect();
            let succs: Vec<Vec<usize>> = blocks
                .iter()
                .map(|bb| {
                    bb.get_terminator()
                        .map(|t| {
                            ir::successors(t)
                                .iter()
                                .map(|s| local[&ir::block_ref(*s)])
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect();
            let loops = LoopForest::compute(&succs, 0);
            let first_loop = next_loop;
            next_loop += loops.loops.len() as u32;
            layout.function_ids.insert(func.as_value_ref(), id);
            layout.blocks.extend(blocks.iter().copied());
            let owned = layout.block_function.len() + blocks.len();
            layout.block_function.resize(owned, id);
            layout.functions.push(FunctionInfo {
                func,
                name,
                first_block,
                blocks,
                succs,
                loops,
                first_loop,
            });
        }

        let data_layout_module = module.as_mut_ptr();
        for f in 0..layout.functions.len() {
            for b in 0..layout.functions[f].blocks.len() {
                let bb = layout.functions[f].blocks[b];
                let block_id = layout.functions[f].first_block + b as u32;
                let first_mem = layout.mem_sites.len() as u32;
                for inst in bb.get_instructions() {
                    layout.scan_instruction(data_layout_module, inst, f as u32, block_id);
                }
                let count = layout.mem_sites.len() as u32 - first_mem;
                layout.block_mem_range.push((first_mem, count));
                layout.scan_terminator(f, b, block_id);
            }
        }
        layout
    }

    /// Id of an instrumented function.
    pub(crate) fn function_id(&self, f: FunctionValue<'ctx>) -> Option<u32> {
        self.function_ids.get(&f.as_value_ref()).copied()
    }

    fn scan_instruction(
        &mut self,
        module: inkwell::llvm_sys::prelude::LLVMModuleRef,
        inst: InstructionValue<'ctx>,
        function: u32,
        block: u32,
    ) {
        let raw = inst.as_value_ref();
        let op = |i| ir::operand(raw, i).expect("memory instruction operand");
        let fixed = |kind, ptr: ValueRef, ty| (kind, ptr, ty);
        let access = match inst.get_opcode() {
            InstructionOpcode::Load => fixed(AccessKind::Load, op(0), ir::type_of(raw)),
            InstructionOpcode::Store => fixed(AccessKind::Store, op(1), ir::type_of(op(0))),
            InstructionOpcode::AtomicRMW => fixed(AccessKind::AtomicRmw, op(0), ir::type_of(op(1))),
            InstructionOpcode::AtomicCmpXchg => {
                fixed(AccessKind::CmpXchg, op(0), ir::type_of(op(1)))
            }
            InstructionOpcode::Call => {
                self.scan_call(inst, function, block);
                return;
            }
            _ => return,
        };
        let (kind, ptr, ty) = access;
        if ir::is_scalable_vector(ty) {
            self.untraced.push(UntracedSite {
                inst,
                function,
                what: format!("scalable-vector {}", kind.name()),
                reason: UNTRACED_VECTOR,
            });
            return;
        }
        self.mem_sites.push(MemSite {
            inst,
            block,
            kind,
            ptr,
            len: None,
            descriptor: false,
            size: ir::store_size(module, ty) as u32,
            vector: ir::is_vector(ty),
        });
    }

    fn scan_call(&mut self, inst: InstructionValue<'ctx>, function: u32, block: u32) {
        let raw = inst.as_value_ref();
        let callee = ir::called_function(inst);
        let callee_name = callee.map(ir::function_name).unwrap_or_default();
        self.calls.push(CallSite {
            inst,
            function,
            block,
            callee,
            callee_name: callee_name.clone(),
        });
        let Some(callee) = callee else { return };
        if ir::is_declaration(callee) && !ir::is_intrinsic(callee) {
            self.scan_fortran_runtime_call(inst, function, block, callee_name);
            return;
        }
        if !ir::is_intrinsic(callee) {
            return;
        }
        let op = |i| ir::operand(raw, i).expect("memory intrinsic operand");
        let range = |kind, ptr, len| MemSite {
            inst,
            block,
            kind,
            ptr,
            len: Some(len),
            descriptor: false,
            size: 0,
            vector: false,
        };
        if callee_name.starts_with("llvm.memcpy") || callee_name.starts_with("llvm.memmove") {
            // The source is read before the destination is written: TransferRead first.
            self.mem_sites
                .push(range(AccessKind::TransferRead, op(1), op(2)));
            self.mem_sites
                .push(range(AccessKind::TransferWrite, op(0), op(2)));
        } else if callee_name.starts_with("llvm.memset") {
            self.mem_sites.push(range(AccessKind::Set, op(0), op(2)));
        } else if is_untraced_memory_intrinsic(&callee_name) {
            self.untraced.push(UntracedSite {
                inst,
                function,
                what: callee_name,
                reason: UNTRACED_VECTOR,
            });
        }
    }

    /// Calls into flang's runtime that move array data (see [`crate::fortran`]).
    fn scan_fortran_runtime_call(
        &mut self,
        inst: InstructionValue<'ctx>,
        function: u32,
        block: u32,
        callee_name: String,
    ) {
        if let Some(transfer) = fortran_runtime::runtime_transfer(&callee_name) {
            let raw = inst.as_value_ref();
            for (kind, arg) in fortran_runtime::transfer_sites(transfer) {
                let Some(ptr) = ir::operand(raw, arg) else {
                    continue;
                };
                self.mem_sites.push(MemSite {
                    inst,
                    block,
                    kind,
                    ptr,
                    len: None,
                    descriptor: true,
                    size: 0,
                    vector: false,
                });
            }
        } else if fortran_runtime::untraced_runtime_call(&callee_name) {
            self.untraced.push(UntracedSite {
                inst,
                function,
                what: callee_name,
                reason: "flang runtime call whose array traffic is not recorded",
            });
        }
    }

    fn scan_terminator(&mut self, f: usize, b: usize, block_id: u32) {
        let info = &self.functions[f];
        let Some(term) = info.blocks[b].get_terminator() else {
            return;
        };
        let succ_local = &info.succs[b];
        let kind = match term.get_opcode() {
            InstructionOpcode::Br if succ_local.len() == 2 => BranchKind::Conditional,
            InstructionOpcode::Br
                if succ_local.len() == 1
                    && info.loops.back_edge_loop(b, succ_local[0]).is_some() =>
            {
                BranchKind::BackEdge
            }
            InstructionOpcode::Switch => BranchKind::Switch,
            _ => return,
        };
        let successors = succ_local
            .iter()
            .map(|&s| info.first_block + s as u32)
            .collect();
        let back_edge_of = succ_local
            .iter()
            .map(|&s| {
                info.loops
                    .back_edge_loop(b, s)
                    .map(|l| info.first_loop + l as u32)
            })
            .collect();
        self.branches.push(BranchSite {
            inst: term,
            block: block_id,
            kind,
            successors,
            back_edge_of,
        });
    }
}

/// Why masked, gathered and scalable-vector accesses are not traced.
const UNTRACED_VECTOR: &str = "no event for masked or gathered accesses";

/// Intrinsics that touch memory through masks or vectors of addresses. The ABI has no event
/// for them, so they are listed in explain output instead of being traced.
fn is_untraced_memory_intrinsic(name: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "llvm.masked.",
        "llvm.vp.load",
        "llvm.vp.store",
        "llvm.vp.gather",
        "llvm.vp.scatter",
        "llvm.experimental.vp.strided",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p))
}
