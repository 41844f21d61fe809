//! Which single-block loops the trace records in runs (`rdtrace::version::V_LOOP_RUNS`).
//!
//! A loop qualifies when it is one block `B` ending in a conditional `br` back to itself or to
//! an exit block (not another such loop); `B` is implied (its entries are recorded
//! by its predecessors and its own branch); it makes no call that runs a hook or instrumented
//! code; and each of its (1 to `LOOP_RUN_MAX_ACCESSES`) memory instructions is a fixed-size
//! access whose address moves by the same number of bytes in every iteration: an expression
//! of values from outside the block, constants and the block's induction variables (PHIs that
//! step by a constant), through `add`, `sub`, disjoint `or`, `not`, `x ^ sign bit`, `trunc`,
//! `mul` and `shl` by constants, sign and zero extensions, and `getelementptr`; a 64-bit `mul` by a value
//! from outside the block gives a run-time stride (`a[k * n + j]` over `k`, a Fortran
//! descriptor's byte stride), which each run record carries. An extension of a narrow value
//! that the IR does not promise cannot wrap (flang's index arithmetic) is checked in every
//! iteration instead ([`WrapCheck`]): a run ends before a jump. Such an iteration records
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
    pub strides: Vec<Stride>,
    /// Narrow values whose extension the strides assume does not wrap from one iteration to
    /// the next (see [`WrapCheck`]).
    pub wrap_checks: Vec<WrapCheck>,
}

/// A narrow integer (`i32` and the like) extended into an address (by `sext`, `zext` or as a
/// `getelementptr` index) without a no-wrap flag that says its extension moves by `step` in
/// every iteration: flang computes a loop's index as `lb + iv` in `i32` without `nsw`. Near
/// the end of its range the next iteration's value would wrap and the address jump; the
/// instrumentation tests each iteration's value and ends the run after an iteration from
/// which the next could wrap, so every run's addresses do move by the strides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrapCheck {
    /// The narrow value, an instruction of the loop's block.
    pub value: LLVMValueRef,
    /// Its change per iteration (fits the value's width, signed).
    pub step: i64,
    /// Sign extension (`true`) or zero extension.
    pub signed: bool,
}

/// Most [`WrapCheck`]s a loop recorded in runs takes (each costs a compare per iteration).
const MAX_WRAP_CHECKS: usize = 8;

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
        // Safety: the data layout belongs to the module, which outlives this call.
        let data_layout = unsafe { LLVMGetModuleDataLayout(module.as_mut_ptr()) };
        let candidates: Vec<Option<LoopRunSite>> = (layout.branches.iter())
            .map(|site| qualify(layout, implied, site, data_layout))
            .collect();
        let mut is_loop = vec![false; layout.blocks.len()];
        for run in candidates.iter().flatten() {
            is_loop[run.block as usize] = true;
        }
        let mut out = Self::none(layout);
        for (br, run) in candidates.into_iter().enumerate() {
            // A run's exit edge gets a block of its own, which rebuilds the exit's PHIs: an
            // exit that is another such loop (whose PHIs the instrumentation adds to) is left
            // alone.
            let Some(run) = run.filter(|r| !is_loop[r.exit as usize]) else {
                continue;
            };
            out.run_branch[run.block as usize] = Some(br as u32);
            out.by_branch[br] = Some(run);
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
    let mut wrap_checks = Vec::new();
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
        strides.push(affine(m.ptr, raw_block, data_layout, 0, &mut wrap_checks)?.stride);
    }
    wrap_checks.sort_by_key(|c| (c.value as usize, c.signed));
    wrap_checks.dedup();
    if wrap_checks.len() > MAX_WRAP_CHECKS {
        return None;
    }
    // A run's records (itself, an address per instruction, a run-time stride each) are
    // written together, within a block's share of records between hooks.
    let records = 1 + strides.len() + strides.iter().filter(|s| s.term.is_some()).count();
    if records > abi::INLINE_RECORDS_BETWEEN_CHECKS {
        return None;
    }
    Some(LoopRunSite {
        block,
        exit,
        strides,
        wrap_checks,
    })
}

/// Bytes (or units, for an integer) a value moves per iteration: `fixed`, plus `coeff` times
/// a 64-bit integer computed before the loop (`term`: an array's row length, a descriptor's
/// byte stride), which the instrumentation evaluates where it writes a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stride {
    /// The constant part.
    pub fixed: i64,
    /// The run-time part: `(value, coeff)`.
    pub term: Option<(LLVMValueRef, i64)>,
}

impl Stride {
    const ZERO: Stride = Stride {
        fixed: 0,
        term: None,
    };

    /// The constant stride, if there is no run-time part.
    pub(crate) fn constant(&self) -> Option<i64> {
        self.term.is_none().then_some(self.fixed)
    }

    fn scaled(self, c: i64) -> Stride {
        Stride {
            fixed: self.fixed.wrapping_mul(c),
            term: self
                .term
                .map(|(v, k)| (v, k.wrapping_mul(c)))
                .filter(|t| t.1 != 0),
        }
    }

    /// `self + other * sign`, if the run-time parts are one value's (or absent).
    fn plus(self, other: Stride, sign: i64) -> Option<Stride> {
        let other = other.scaled(sign);
        let term = match (self.term, other.term) {
            (Some((v, a)), Some((w, b))) if v == w => {
                Some((v, a.wrapping_add(b))).filter(|t| t.1 != 0)
            }
            (Some(_), Some(_)) => return None,
            (t, None) | (None, t) => t,
        };
        Some(Stride {
            fixed: self.fixed.wrapping_add(other.fixed),
            term,
        })
    }
}

/// A value's change per iteration of the loop block, and whether its own arithmetic can wrap
/// (signed, unsigned) over the loop: an extension of a narrow value, or a narrow
/// `getelementptr` index, is only affine when it cannot.
#[derive(Clone, Copy)]
struct Affine {
    stride: Stride,
    nsw: bool,
    nuw: bool,
}

/// Deepest expression [`affine`] follows.
const MAX_DEPTH: u32 = 24;

/// Whether `v` is computed before the loop block runs (not an instruction of `block`).
fn outside(v: LLVMValueRef, block: LLVMBasicBlockRef) -> bool {
    // Safety: `v` is a live value; the parent is only asked of instructions.
    unsafe { LLVMIsAInstruction(v).is_null() || LLVMGetInstructionParent(v) != block }
}

/// How `v` changes per iteration of `block` (the whole loop), if by a constant or by a
/// multiple of one value fixed before the loop.
///
/// An extension of a narrow value without a no-wrap flag is taken with a [`WrapCheck`] added
/// to `checks`.
fn affine(
    v: LLVMValueRef,
    block: LLVMBasicBlockRef,
    dl: LLVMTargetDataRef,
    depth: u32,
    checks: &mut Vec<WrapCheck>,
) -> Option<Affine> {
    const FIXED: Affine = Affine {
        stride: Stride::ZERO,
        nsw: true,
        nuw: true,
    };
    if outside(v, block) {
        // Computed before the loop was entered (or a constant): the same in every iteration.
        return Some(FIXED);
    }
    if depth > MAX_DEPTH {
        return None;
    }
    let wide = is_wide(v);
    let flags = |a: &Affine, b: &Affine, nsw: bool, nuw: bool| Affine {
        stride: Stride::ZERO,
        nsw: wide || (a.nsw && b.nsw && nsw),
        nuw: wide || (a.nuw && b.nuw && nuw),
    };
    let op = |i| ir::operand(v, i);
    let mut sub = |x: LLVMValueRef| affine(x, block, dl, depth + 1, checks);
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
            let sign = if ir::opcode(v)? == LLVMOpcode::LLVMAdd {
                1
            } else {
                -1
            };
            Some(Affine {
                stride: a.stride.plus(b.stride, sign)?,
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
                stride: a.stride.plus(b.stride, 1)?,
                ..flags(&a, &b, true, true)
            })
        }
        LLVMOpcode::LLVMXor => {
            // `x ^ -1` is `-x - 1` (what optimisers make of `n - 1 - i`), and `x ^ -2^k` is
            // `-x - 2^k` where the low `k` bits of `x` are 0 (the same, unrolled).
            let (x, y) = (op(0)?, op(1)?);
            let (x, c) = match (ir::const_int(x), ir::const_int(y)) {
                (_, Some(c)) => (x, c),
                (Some(c), _) => (y, c),
                _ => return None,
            };
            // `x ^ MIN` flips the sign bit: `x + 2^(w-1)` modulo 2^w (`i + INT_MIN` of a
            // loop whose index starts near INT_MAX).
            let width = int_width(v)?;
            if c == i64::MIN >> (64 - width) {
                let a = sub(x)?;
                return Some(Affine {
                    stride: a.stride,
                    nsw: wide,
                    nuw: wide,
                });
            }
            let k = c
                .checked_neg()
                .filter(|m| *m > 0 && m.count_ones() == 1)?
                .trailing_zeros();
            if k > 0 && low_zero_bits(x, block) < k {
                return None;
            }
            let a = sub(x)?;
            Some(Affine {
                stride: a.stride.scaled(-1),
                nsw: wide || a.nsw,
                nuw: wide,
            })
        }
        LLVMOpcode::LLVMMul => {
            let (x, y) = (op(0)?, op(1)?);
            let (a, b) = (sub(x)?, sub(y)?);
            let stride = if let Some(c) = ir::const_int(y) {
                a.stride.scaled(c)
            } else if let Some(c) = ir::const_int(x) {
                b.stride.scaled(c)
            } else {
                // One side fixed before the loop (a run-time factor), the other moving by a
                // constant: a run-time stride, for 64-bit arithmetic only (a narrow product
                // could wrap where the trace cannot see it).
                let by = |f: LLVMValueRef, m: &Affine| {
                    let c = m.stride.constant()?;
                    (wide && is_wide(f) && outside(f, block) && c != 0).then_some(Stride {
                        fixed: 0,
                        term: Some((f, c)),
                    })
                };
                match (a.stride == Stride::ZERO, b.stride == Stride::ZERO) {
                    (true, true) => Stride::ZERO,
                    (true, false) => by(x, &b)?,
                    (false, true) => by(y, &a)?,
                    (false, false) => return None,
                }
            };
            Some(Affine {
                stride,
                ..flags(&a, &b, nsw, nuw)
            })
        }
        LLVMOpcode::LLVMShl => {
            let a = sub(op(0)?)?;
            let c = ir::const_int(op(1)?)?;
            if !(0..63).contains(&c) {
                return None;
            }
            Some(Affine {
                stride: a.stride.scaled(1i64 << c),
                ..flags(&a, &FIXED, nsw, nuw)
            })
        }
        LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt => {
            let signed = ir::opcode(v)? == LLVMOpcode::LLVMSExt;
            let x = op(0)?;
            let a = sub(x)?;
            extends(
                x,
                &a,
                if signed { a.nsw } else { a.nuw },
                signed,
                block,
                checks,
            )?;
            // A zero-extended value is non-negative: no unsigned wrap from its own bits.
            Some(Affine {
                stride: a.stride,
                nsw: true,
                nuw: wide || !signed,
            })
        }
        LLVMOpcode::LLVMTrunc => {
            // Modulo 2^w the narrow value moves by the wide one's step, truncated (sign
            // taken); its extensions are checked for wrapping.
            let a = sub(op(0)?)?;
            let step = a.stride.constant()?;
            let shift = 64 - int_width(v)?;
            Some(Affine {
                stride: Stride {
                    fixed: (step << shift) >> shift,
                    term: None,
                },
                nsw: false,
                nuw: false,
            })
        }
        LLVMOpcode::LLVMGetElementPtr => gep_stride(v, block, dl, depth, checks),
        _ => None,
    }
}

/// Whether the extension of narrow `x` (moving as `a`, `no_wrap` its own flag) moves by `a`'s
/// stride in every iteration: when `x` is wide, or flagged, or fixed; or else with a
/// [`WrapCheck`] added to `checks` (a constant step that fits `x`'s width).
fn extends(
    x: LLVMValueRef,
    a: &Affine,
    no_wrap: bool,
    signed: bool,
    block: LLVMBasicBlockRef,
    checks: &mut Vec<WrapCheck>,
) -> Option<()> {
    if is_wide(x) || no_wrap || a.stride == Stride::ZERO {
        return Some(());
    }
    let step = a.stride.constant()?;
    // Safety: a value extended (or used as an index) that is not wide is an integer.
    let width = unsafe { LLVMGetIntTypeWidth(ir::type_of(x)) };
    let fits = width > 1 && step.unsigned_abs() < 1u64 << (width - 1).min(62);
    (fits && !outside(x, block)).then(|| {
        checks.push(WrapCheck {
            value: x,
            step,
            signed,
        })
    })
}

/// A `getelementptr`'s change per iteration: its base's plus each index's times the size it
/// scales by (narrow indices are sign-extended, so they must not wrap).
fn gep_stride(
    v: LLVMValueRef,
    block: LLVMBasicBlockRef,
    dl: LLVMTargetDataRef,
    depth: u32,
    checks: &mut Vec<WrapCheck>,
) -> Option<Affine> {
    if ir::type_kind(ir::type_of(v)) != LLVMTypeKind::LLVMPointerTypeKind {
        return None; // a vector of pointers
    }
    let base = affine(ir::operand(v, 0)?, block, dl, depth + 1, checks)?;
    let mut index = |i: u32| {
        let x = ir::operand(v, i)?;
        let a = affine(x, block, dl, depth + 1, checks)?;
        extends(x, &a, a.nsw, true, block, checks)?;
        Some(a.stride)
    };
    // Safety: `v` is a GEP instruction; its source element type and the types it steps through
    // are sized, struct indices are constants in range (the verifier requires both).
    unsafe {
        let mut stride = base.stride;
        let mut ty = LLVMGetGEPSourceElementType(v);
        let size = |ty| LLVMABISizeOfType(dl, ty) as i64;
        stride = stride.plus(index(1)?.scaled(size(ty)), 1)?;
        for i in 2..LLVMGetNumOperands(v) as u32 {
            match ir::type_kind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let field = u32::try_from(ir::const_int(ir::operand(v, i)?)?).ok()?;
                    ty = inkwell::llvm_sys::core::LLVMStructGetTypeAtIndex(ty, field);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    ty = LLVMGetElementType(ty);
                    stride = stride.plus(index(i)?.scaled(size(ty)), 1)?;
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
    let (step, (nsw, nuw)) = match ir::opcode(next)? {
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
    Some(Affine {
        stride: Stride {
            fixed: step,
            term: None,
        },
        nsw,
        nuw,
    })
}

/// How many low bits of `v` are 0 in every iteration of `block`: of a constant, or of an
/// induction PHI whose start (every value from outside the block) and constant step have them.
fn low_zero_bits(v: LLVMValueRef, block: LLVMBasicBlockRef) -> u32 {
    if let Some(c) = ir::const_int(v) {
        return c.trailing_zeros();
    }
    if outside(v, block) || ir::opcode(v) != Some(LLVMOpcode::LLVMPHI) {
        return 0;
    }
    let mut bits = 64;
    // Safety: `v` is a PHI node; indexes stay below its incoming count.
    unsafe {
        for i in 0..LLVMCountIncoming(v) {
            let value = LLVMGetIncomingValue(v, i);
            let known = if LLVMGetIncomingBlock(v, i) == block {
                // The step: `v + c` only.
                let is_step = ir::opcode(value) == Some(LLVMOpcode::LLVMAdd)
                    && ir::operand(value, 0) == Some(v);
                match ir::operand(value, 1).and_then(ir::const_int) {
                    Some(c) if is_step => c.trailing_zeros(),
                    _ => 0,
                }
            } else {
                ir::const_int(value).map_or(0, |c| c.trailing_zeros())
            };
            bits = bits.min(known);
        }
    }
    bits
}

/// The width of an integer value (1 to 64 bits), `None` for other types and wider integers.
fn int_width(v: LLVMValueRef) -> Option<u32> {
    let ty = ir::type_of(v);
    if ir::type_kind(ty) != LLVMTypeKind::LLVMIntegerTypeKind {
        return None;
    }
    // Safety: `ty` is an integer type.
    let width = unsafe { LLVMGetIntTypeWidth(ty) };
    (1..=64).contains(&width).then_some(width)
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
