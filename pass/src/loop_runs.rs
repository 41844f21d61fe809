//! Which single-block loops the trace records in runs (`rdtrace::version::V_LOOP_RUNS`).
//!
//! A loop qualifies when it is one block `B` ending in a conditional `br` back to itself or to
//! an exit block (not another such loop); `B` is implied (its entries are recorded
//! by its predecessors and its own branch); it makes no call that runs a hook or instrumented
//! code; and each of its (1 to `LOOP_RUN_MAX_ACCESSES`) memory instructions is a fixed-size
//! access whose address moves by a constant number of bytes per iteration: an expression of
//! values from outside the block, constants and the block's induction variables (PHIs that
//! step by a constant), through `add`, `sub`, disjoint `or`, `mul` and `shl` by constants,
//! sign and zero extensions that cannot wrap, and `getelementptr`. Such an iteration records
//! the same events every time but for addresses that the metadata can re-create, so the
//! instrumentation records none of them: it counts iterations in a register, keeps the last
//! iteration's addresses, and writes one loop-run record (count, addresses) where the block's
//! countdown calls its hook (so ordering stamps stay where they were) and on the exit edge (a
//! block of its own, before the exit block's entry). The decoder emits every iteration's
//! accesses, branch and block.
//!
//! Why: a loop over arrays costs the traced program a record per access and per branch per
//! iteration, a few native cycles each, and the background writer an encoding; runs cut those
//! to one record per instruction per run (up to `INLINE_BLOCKS_BETWEEN_HOOKS` iterations,
//! the countdown's reach): matrix and stencil kernels, array sweeps, vectorised bodies.

use inkwell::llvm_sys::core::{
    LLVMCountIncoming, LLVMGetElementType, LLVMGetGEPSourceElementType, LLVMGetIncomingBlock,
    LLVMGetIncomingValue, LLVMGetInstructionParent, LLVMGetIntTypeWidth, LLVMGetIsDisjoint,
    LLVMGetNSW, LLVMGetNUW, LLVMGetNumOperands, LLVMIsAInstruction,
};
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::llvm_sys::target::{LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMTargetDataRef};
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::module::Module;
use inkwell::values::InstructionOpcode;
use rdtrace::abi;
use rdtrace::meta::{AccessKind, BranchKind};

use crate::ids::ModuleLayout;
use crate::implied::ImpliedEntries;
use crate::ir;

/// One loop recorded in runs.
pub(crate) struct LoopRunSite {
    /// The loop's block (module-local id).
    pub block: u32,
    /// Its exit block.
    pub exit: u32,
    /// Per memory instruction of `block`, in order: bytes its address moves per iteration.
    pub strides: Vec<i64>,
}

/// The pass's decision, by module-local branch id, with the blocks it concerns.
pub(crate) struct LoopRuns {
    /// Per branch: the loop it ends, when that loop is recorded in runs.
    pub by_branch: Vec<Option<LoopRunSite>>,
    /// Per block: the branch of the loop recorded in runs that this block is.
    pub run_branch: Vec<Option<u32>>,
}

impl LoopRuns {
    /// No loop recorded in runs.
    pub(crate) fn none(layout: &ModuleLayout<'_>) -> Self {
        LoopRuns {
            by_branch: layout.branches.iter().map(|_| None).collect(),
            run_branch: vec![None; layout.blocks.len()],
        }
    }

    /// Decides for every branch of `layout` (`implied` says which blocks are implied).
    pub(crate) fn compute(
        module: &Module<'_>,
        layout: &ModuleLayout<'_>,
        implied: &ImpliedEntries,
    ) -> Self {
        let mut out = Self::none(layout);
        // Safety: the data layout belongs to the module, which outlives this call.
        let data_layout = unsafe { LLVMGetModuleDataLayout(module.as_mut_ptr()) };
        for (br, site) in layout.branches.iter().enumerate() {
            if let Some(run) = qualify(layout, implied, site, data_layout) {
                out.run_branch[run.block as usize] = Some(br as u32);
                out.by_branch[br] = Some(run);
            }
        }
        // A run's exit edge gets a block of its own, which rebuilds the exit's PHIs: an exit
        // that is another such loop (whose PHIs the instrumentation adds to) is left alone.
        for br in 0..out.by_branch.len() {
            let exit = out.by_branch[br].as_ref().map(|r| r.exit as usize);
            if exit.is_some_and(|x| out.run_branch[x].is_some()) {
                out.by_branch[br] = None;
            }
        }
        for (b, br) in out.run_branch.iter_mut().enumerate() {
            *br = br.filter(|&br| {
                out.by_branch[br as usize]
                    .as_ref()
                    .is_some_and(|r| r.block as usize == b)
            });
        }
        out
    }

    /// The loops recorded in runs, with their branch ids.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, &LoopRunSite)> {
        (self.by_branch.iter().enumerate()).filter_map(|(br, r)| r.as_ref().map(|r| (br as u32, r)))
    }
}

/// The loop run `site` ends, if its loop qualifies (see the module docs).
fn qualify(
    layout: &ModuleLayout<'_>,
    implied: &ImpliedEntries,
    site: &crate::ids::BranchSite<'_>,
    data_layout: LLVMTargetDataRef,
) -> Option<LoopRunSite> {
    if site.kind != BranchKind::Conditional || site.successors.len() != 2 {
        return None;
    }
    let block = site.block;
    let exit = match site.successors[..] {
        [a, b] if a == block && b != block => b,
        [a, b] if b == block && a != block => a,
        _ => return None,
    };
    if !implied.implied[block as usize] {
        return None;
    }
    let bb = layout.blocks[block as usize];
    if (bb.get_instructions())
        .any(|i| i.get_opcode() == InstructionOpcode::Call && ir::runs_a_hook(i))
    {
        return None;
    }
    let (first, count) = layout.block_mem_range[block as usize];
    if count == 0 || count as usize > abi::LOOP_RUN_MAX_ACCESSES {
        return None;
    }
    let raw_block = ir::block_ref(bb);
    let mut strides = Vec::with_capacity(count as usize);
    for mi in first..first + count {
        let m = &layout.mem_sites[mi as usize];
        let fixed = m.len.is_none()
            && !m.descriptor
            && m.size > 0
            && !matches!(m.kind, AccessKind::TransferRead | AccessKind::TransferWrite)
            && ir::pointer_address_space(ir::type_of(m.ptr)) == 0;
        if !fixed {
            return None;
        }
        strides.push(affine(m.ptr, raw_block, data_layout, 0)?.stride);
    }
    Some(LoopRunSite {
        block,
        exit,
        strides,
    })
}

/// A value's change per iteration of the loop block, and whether its own arithmetic can wrap
/// (signed, unsigned) over the loop: an extension of a narrow value, or a narrow
/// `getelementptr` index, is only affine when it cannot.
#[derive(Clone, Copy)]
struct Affine {
    stride: i64,
    nsw: bool,
    nuw: bool,
}

/// Deepest expression [`affine`] follows.
const MAX_DEPTH: u32 = 24;

/// How `v` changes per iteration of `block` (the whole loop), if by a constant.
fn affine(
    v: LLVMValueRef,
    block: LLVMBasicBlockRef,
    dl: LLVMTargetDataRef,
    depth: u32,
) -> Option<Affine> {
    const FIXED: Affine = Affine {
        stride: 0,
        nsw: true,
        nuw: true,
    };
    // Safety: `v` is a live value; the parent is only asked of instructions.
    let inside =
        unsafe { !LLVMIsAInstruction(v).is_null() && LLVMGetInstructionParent(v) == block };
    if !inside {
        // Computed before the loop was entered (or a constant): the same in every iteration.
        return Some(FIXED);
    }
    if depth > MAX_DEPTH {
        return None;
    }
    let wide = is_wide(v);
    let flags = |a: &Affine, b: &Affine, nsw: bool, nuw: bool| Affine {
        stride: 0,
        nsw: wide || (a.nsw && b.nsw && nsw),
        nuw: wide || (a.nuw && b.nuw && nuw),
    };
    let op = |i| ir::operand(v, i);
    let sub = |x: LLVMValueRef| affine(x, block, dl, depth + 1);
    // Safety: the flag getters are only called on the arithmetic instructions they apply to.
    let (nsw, nuw) = unsafe {
        match ir::opcode(v)? {
            LLVMOpcode::LLVMAdd
            | LLVMOpcode::LLVMSub
            | LLVMOpcode::LLVMMul
            | LLVMOpcode::LLVMShl => (LLVMGetNSW(v) != 0, LLVMGetNUW(v) != 0),
            _ => (false, false),
        }
    };
    match ir::opcode(v)? {
        LLVMOpcode::LLVMPHI => induction_step(v, block, dl),
        LLVMOpcode::LLVMAdd | LLVMOpcode::LLVMSub => {
            let (a, b) = (sub(op(0)?)?, sub(op(1)?)?);
            let stride = if ir::opcode(v)? == LLVMOpcode::LLVMAdd {
                a.stride.wrapping_add(b.stride)
            } else {
                a.stride.wrapping_sub(b.stride)
            };
            Some(Affine {
                stride,
                ..flags(&a, &b, nsw, nuw)
            })
        }
        LLVMOpcode::LLVMOr => {
            // A disjoint `or` adds without carries.
            // Safety: `v` is an `or` instruction.
            if unsafe { LLVMGetIsDisjoint(v) } == 0 {
                return None;
            }
            let (a, b) = (sub(op(0)?)?, sub(op(1)?)?);
            Some(Affine {
                stride: a.stride.wrapping_add(b.stride),
                ..flags(&a, &b, true, true)
            })
        }
        LLVMOpcode::LLVMMul | LLVMOpcode::LLVMShl => {
            let a = sub(op(0)?)?;
            let c = ir::const_int(op(1)?)?;
            let factor = if ir::opcode(v)? == LLVMOpcode::LLVMMul {
                c
            } else if (0..63).contains(&c) {
                1i64 << c
            } else {
                return None;
            };
            Some(Affine {
                stride: a.stride.wrapping_mul(factor),
                ..flags(&a, &FIXED, nsw, nuw)
            })
        }
        LLVMOpcode::LLVMSExt => {
            let a = sub(op(0)?)?;
            (is_wide(op(0)?) || a.nsw).then_some(Affine {
                stride: a.stride,
                nsw: true,
                nuw: wide,
            })
        }
        LLVMOpcode::LLVMZExt => {
            let a = sub(op(0)?)?;
            (is_wide(op(0)?) || a.nuw).then_some(Affine {
                stride: a.stride,
                nsw: true,
                nuw: true,
            })
        }
        LLVMOpcode::LLVMGetElementPtr => gep_stride(v, block, dl, depth),
        _ => None,
    }
}

/// A `getelementptr`'s change per iteration: its base's plus each index's times the size it
/// scales by (narrow indices are sign-extended, so they must not wrap).
fn gep_stride(
    v: LLVMValueRef,
    block: LLVMBasicBlockRef,
    dl: LLVMTargetDataRef,
    depth: u32,
) -> Option<Affine> {
    if ir::type_kind(ir::type_of(v)) != LLVMTypeKind::LLVMPointerTypeKind {
        return None; // a vector of pointers
    }
    let index = |i: u32| {
        let x = ir::operand(v, i)?;
        let a = affine(x, block, dl, depth + 1)?;
        (is_wide(x) || a.nsw).then_some(a.stride)
    };
    // Safety: `v` is a GEP instruction; its source element type and the types it steps through
    // are sized, struct indices are constants in range (the verifier requires both).
    unsafe {
        let mut stride = affine(ir::operand(v, 0)?, block, dl, depth + 1)?.stride;
        let mut ty = LLVMGetGEPSourceElementType(v);
        let first = index(1)?;
        stride = stride.wrapping_add(first.wrapping_mul(LLVMABISizeOfType(dl, ty) as i64));
        for i in 2..LLVMGetNumOperands(v) as u32 {
            match ir::type_kind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let field = u32::try_from(ir::const_int(ir::operand(v, i)?)?).ok()?;
                    ty = inkwell::llvm_sys::core::LLVMStructGetTypeAtIndex(ty, field);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    ty = LLVMGetElementType(ty);
                    let step = index(i)?;
                    stride =
                        stride.wrapping_add(step.wrapping_mul(LLVMABISizeOfType(dl, ty) as i64));
                }
                _ => return None,
            }
        }
        Some(Affine {
            stride,
            nsw: true,
            nuw: true,
        })
    }
}

/// An induction variable of `block`: a PHI whose value from the block itself is the PHI plus
/// (or minus) a constant, or a constant-offset `getelementptr` of it.
fn induction_step(
    phi: LLVMValueRef,
    block: LLVMBasicBlockRef,
    dl: LLVMTargetDataRef,
) -> Option<Affine> {
    // Safety: `phi` is a PHI node; indexes stay below its incoming count.
    let from_block: Vec<LLVMValueRef> = unsafe {
        (0..LLVMCountIncoming(phi))
            .filter(|&i| LLVMGetIncomingBlock(phi, i) == block)
            .map(|i| LLVMGetIncomingValue(phi, i))
            .collect()
    };
    let [next] = from_block[..] else {
        return None;
    };
    let wide = is_wide(phi);
    let operand_is_phi = |i| ir::operand(next, i) == Some(phi);
    // Safety: the flag getters are only called on `add`/`sub` instructions.
    let flags = || unsafe { (wide || LLVMGetNSW(next) != 0, wide || LLVMGetNUW(next) != 0) };
    let (stride, (nsw, nuw)) = match ir::opcode(next)? {
        LLVMOpcode::LLVMAdd if operand_is_phi(0) => {
            (ir::const_int(ir::operand(next, 1)?)?, flags())
        }
        LLVMOpcode::LLVMAdd if operand_is_phi(1) => {
            (ir::const_int(ir::operand(next, 0)?)?, flags())
        }
        LLVMOpcode::LLVMSub if operand_is_phi(0) => (
            ir::const_int(ir::operand(next, 1)?)?.wrapping_neg(),
            flags(),
        ),
        LLVMOpcode::LLVMGetElementPtr if operand_is_phi(0) => {
            (ir::constant_gep_offset(next, dl)?, (true, true))
        }
        _ => return None,
    };
    Some(Affine { stride, nsw, nuw })
}

/// Whether `v` is 64 bits wide or a pointer: arithmetic that wraps there still moves an address
/// by the same amount per iteration, modulo 2^64, as the machine computes it.
fn is_wide(v: LLVMValueRef) -> bool {
    let ty = ir::type_of(v);
    match ir::type_kind(ty) {
        LLVMTypeKind::LLVMPointerTypeKind => true,
        // Safety: only asked of integer types.
        LLVMTypeKind::LLVMIntegerTypeKind => unsafe { LLVMGetIntTypeWidth(ty) >= 64 },
        _ => false,
    }
}
