//! The exit edges of loops recorded in runs: each gets a block of its own for the run record
//! written when the loop exits (see `crate::loop_runs`).
//!
//! The block is made while the records are inserted, but connected (the loop's branch led
//! there, the exit's PHIs told that the loop's edge now comes through it) only once every
//! other insertion is done: connecting rebuilds the exit block's PHIs, and the pass's layout
//! holds raw references to values (a memory instruction's pointer may be such a PHI), which
//! must not go stale while they are used.

use inkwell::basic_block::BasicBlock;
use inkwell::context::AsContextRef;
use inkwell::llvm_sys::core as llvm;
use inkwell::values::AsValueRef;

use crate::error::PassError;
use crate::ids::ModuleLayout;
use crate::ir::{self, ValueRef};

/// A block on the edge from a loop recorded in runs to its exit, not yet connected.
pub(crate) struct ExitEdge<'ctx> {
    from: BasicBlock<'ctx>,
    to: BasicBlock<'ctx>,
    edge: BasicBlock<'ctx>,
}

impl<'ctx> ExitEdge<'ctx> {
    /// A new, empty block after the loop's (the caller fills it and ends it with a branch to
    /// the exit).
    pub(super) fn new(
        layout: &ModuleLayout<'ctx>,
        run: &crate::loop_runs::LoopRunSite,
    ) -> ExitEdge<'ctx> {
        let (from, to) = (
            layout.blocks[run.block as usize],
            layout.blocks[run.exit as usize],
        );
        let edge = from
            .get_context()
            .insert_basic_block_after(from, "rdt.run.exit");
        ExitEdge { from, to, edge }
    }

    /// The block on the edge.
    pub(super) fn block(&self) -> BasicBlock<'ctx> {
        self.edge
    }
}

/// Connects each exit edge: the loop's branch to the exit leads to the edge's block instead,
/// and each PHI of the exit is rebuilt with the loop's incoming value now coming from it.
/// Run after every other insertion that uses the layout (see the module docs).
pub(crate) fn connect_exit_edges(edges: &[ExitEdge<'_>]) -> Result<(), PassError> {
    for e in edges {
        let term = (e.from.get_terminator())
            .ok_or_else(|| PassError::Build("a loop run's block lost its branch".into()))?;
        let (raw_from, raw_to, raw_edge) = (
            ir::block_ref(e.from),
            ir::block_ref(e.to),
            ir::block_ref(e.edge),
        );
        // Safety: `term` is the loop's conditional `br` (two successors); each PHI of the exit
        // is rebuilt with the same incoming values, the loop's edge now coming from `edge`,
        // and replaces the old one, which is then erased (nothing of the pass refers to it any
        // more: see the module docs).
        unsafe {
            let raw_term = term.as_value_ref();
            for i in 0..llvm::LLVMGetNumSuccessors(raw_term) {
                if llvm::LLVMGetSuccessor(raw_term, i) == raw_to {
                    llvm::LLVMSetSuccessor(raw_term, i, raw_edge);
                }
            }
            let builder = llvm::LLVMCreateBuilderInContext(e.from.get_context().as_ctx_ref());
            let mut inst = llvm::LLVMGetFirstInstruction(raw_to);
            while !inst.is_null()
                && ir::opcode(inst) == Some(inkwell::llvm_sys::LLVMOpcode::LLVMPHI)
            {
                let next = llvm::LLVMGetNextInstruction(inst);
                let n = llvm::LLVMCountIncoming(inst);
                let mut values: Vec<ValueRef> = (0..n)
                    .map(|i| llvm::LLVMGetIncomingValue(inst, i))
                    .collect();
                let mut blocks: Vec<_> = (0..n)
                    .map(|i| match llvm::LLVMGetIncomingBlock(inst, i) {
                        b if b == raw_from => raw_edge,
                        b => b,
                    })
                    .collect();
                llvm::LLVMPositionBuilderBefore(builder, inst);
                let mut len = 0usize;
                let name = llvm::LLVMGetValueName2(inst, &mut len);
                let name = std::slice::from_raw_parts(name as *const u8, len).to_vec();
                let phi = llvm::LLVMBuildPhi(builder, llvm::LLVMTypeOf(inst), c"".as_ptr());
                llvm::LLVMAddIncoming(phi, values.as_mut_ptr(), blocks.as_mut_ptr(), n);
                llvm::LLVMReplaceAllUsesWith(inst, phi);
                llvm::LLVMInstructionEraseFromParent(inst);
                llvm::LLVMSetValueName2(phi, name.as_ptr() as *const _, name.len());
                inst = next;
            }
            llvm::LLVMDisposeBuilder(builder);
        }
    }
    Ok(())
}
