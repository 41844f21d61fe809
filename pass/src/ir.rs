//! Read-only IR queries that inkwell 0.11 does not expose, written once over the llvm-c API.
//!
//! The analyses (classification, OpenMP detection, naming) walk arbitrary values: arguments,
//! globals, constant expressions and instructions alike. inkwell splits these into many typed
//! wrappers, so this module works on raw [`LLVMValueRef`]s and keeps every `unsafe` call in one
//! place. All functions here only read the IR; nothing in this module mutates a module.
//!
//! Every raw value handed to these functions must come from a live module of the current
//! context (the pass never deletes the values it analyses), which is what makes the calls sound.

use inkwell::basic_block::BasicBlock;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMModuleRef, LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::target::{
    LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement, LLVMStoreSizeOfType,
    LLVMTargetDataRef,
};
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};

/// A raw value of the module being instrumented.
pub(crate) type ValueRef = LLVMValueRef;

/// The value's own name (without `%`/`@`), empty when it is unnamed.
pub(crate) fn value_name(v: ValueRef) -> String {
    let mut len = 0usize;
    // Safety: `v` is a live value; LLVM returns a pointer into the value's name storage that
    // stays valid until the name changes, and we copy it out immediately.
    let ptr = unsafe { LLVMGetValueName2(v, &mut len) };
    if ptr.is_null() || len == 0 {
        return String::new();
    }
    // Safety: LLVM guarantees `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Name of a function as a Rust string.
pub(crate) fn function_name(f: FunctionValue<'_>) -> String {
    f.get_name().to_string_lossy().into_owned()
}

/// Opcode of an instruction or of a constant expression; `None` for other values.
pub(crate) fn opcode(v: ValueRef) -> Option<LLVMOpcode> {
    // Safety: `v` is a live value; the `LLVMIsA*` casts return null when the kind differs, and
    // the opcode getters are only called on the matching kind.
    unsafe {
        if !LLVMIsAInstruction(v).is_null() {
            Some(LLVMGetInstructionOpcode(v))
        } else if !LLVMIsAConstantExpr(v).is_null() {
            Some(LLVMGetConstOpcode(v))
        } else {
            None
        }
    }
}

/// Operand `i` of a user value (instruction or constant expression).
pub(crate) fn operand(v: ValueRef, i: u32) -> Option<ValueRef> {
    // Safety: `v` is a live value; the index is checked against the operand count first.
    unsafe {
        if LLVMIsAUser(v).is_null() || i as i32 >= LLVMGetNumOperands(v) {
            return None;
        }
        let op = LLVMGetOperand(v, i);
        (!op.is_null()).then_some(op)
    }
}

/// Kinds of values the analyses tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueKind {
    Argument,
    GlobalVariable,
    Function,
    OtherGlobal,
    Alloca,
    Load,
    Call,
    Phi,
    Select,
    NullOrUndef,
    OtherConstant,
    OtherInstruction,
}

/// Classifies a raw value into the kinds the analyses care about.
pub(crate) fn value_kind(v: ValueRef) -> ValueKind {
    // Safety: `v` is a live value; `LLVMIsA*` only inspect its class id.
    unsafe {
        if !LLVMIsAArgument(v).is_null() {
            ValueKind::Argument
        } else if !LLVMIsAGlobalVariable(v).is_null() {
            ValueKind::GlobalVariable
        } else if !LLVMIsAFunction(v).is_null() {
            ValueKind::Function
        } else if !LLVMIsAGlobalValue(v).is_null() {
            ValueKind::OtherGlobal
        } else if !LLVMIsAAllocaInst(v).is_null() {
            ValueKind::Alloca
        } else if !LLVMIsALoadInst(v).is_null() {
            ValueKind::Load
        } else if !LLVMIsACallInst(v).is_null() || !LLVMIsAInvokeInst(v).is_null() {
            ValueKind::Call
        } else if !LLVMIsAPHINode(v).is_null() {
            ValueKind::Phi
        } else if !LLVMIsASelectInst(v).is_null() {
            ValueKind::Select
        } else if !LLVMIsAConstantPointerNull(v).is_null() || !LLVMIsAUndefValue(v).is_null() {
            ValueKind::NullOrUndef
        } else if !LLVMIsAConstant(v).is_null() {
            ValueKind::OtherConstant
        } else {
            ValueKind::OtherInstruction
        }
    }
}

/// Whether a global variable is `thread_local` (each thread has its own copy).
pub(crate) fn is_thread_local(global: ValueRef) -> bool {
    // Safety: only called on values classified as `GlobalVariable`.
    unsafe { LLVMIsThreadLocal(global) != 0 }
}

/// Incoming values of a PHI node, in operand order.
pub(crate) fn phi_incoming(phi: ValueRef) -> Vec<ValueRef> {
    // Safety: only called on PHI nodes; indexes stay below `LLVMCountIncoming`.
    unsafe {
        (0..LLVMCountIncoming(phi))
            .map(|i| LLVMGetIncomingValue(phi, i))
            .collect()
    }
}

/// The function that owns an argument and the argument's index.
pub(crate) fn argument_position(arg: ValueRef) -> Option<(ValueRef, u32)> {
    // Safety: only called on arguments; `LLVMGetParamParent` returns the owning function and the
    // indexes stay below `LLVMCountParams`.
    unsafe {
        let func = LLVMGetParamParent(arg);
        if func.is_null() {
            return None;
        }
        (0..LLVMCountParams(func))
            .find(|&i| LLVMGetParam(func, i) == arg)
            .map(|i| (func, i))
    }
}

/// Parameter `i` of a function.
pub(crate) fn function_param(func: ValueRef, i: u32) -> Option<ValueRef> {
    // Safety: `func` is a live function; the index is checked against its parameter count.
    unsafe { (i < LLVMCountParams(func)).then(|| LLVMGetParam(func, i)) }
}

/// The function containing an instruction.
pub(crate) fn instruction_function(inst: ValueRef) -> Option<ValueRef> {
    // Safety: `inst` is a live value; non-instructions are rejected before asking for a parent.
    unsafe {
        if LLVMIsAInstruction(inst).is_null() {
            return None;
        }
        let bb = LLVMGetInstructionParent(inst);
        if bb.is_null() {
            return None;
        }
        let f = LLVMGetBasicBlockParent(bb);
        (!f.is_null()).then_some(f)
    }
}

/// All users of a value (instructions and constants), in use-list order.
pub(crate) fn users(v: ValueRef) -> Vec<ValueRef> {
    let mut out = Vec::new();
    // Safety: walks the use list of a live value without modifying it.
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(LLVMGetUser(u));
            u = LLVMGetNextUse(u);
        }
    }
    out
}

/// Strips pointer casts (bitcast / addrspacecast, as instructions or constant expressions).
pub(crate) fn strip_pointer_casts(mut v: ValueRef) -> ValueRef {
    while let Some(LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast) = opcode(v) {
        match operand(v, 0) {
            Some(inner) => v = inner,
            None => break,
        }
    }
    v
}

/// The function a call or invoke calls directly (after stripping casts), if any.
pub(crate) fn called_function<'ctx>(call: InstructionValue<'ctx>) -> Option<FunctionValue<'ctx>> {
    let raw = call.as_value_ref();
    // Safety: `raw` is a call-like instruction (checked by the `LLVMIsA*` casts) so
    // `LLVMGetCalledValue` is defined for it.
    let callee = unsafe {
        if LLVMIsACallInst(raw).is_null() && LLVMIsAInvokeInst(raw).is_null() {
            return None;
        }
        LLVMGetCalledValue(raw)
    };
    if callee.is_null() {
        return None;
    }
    let callee = strip_pointer_casts(callee);
    if value_kind(callee) != ValueKind::Function {
        return None;
    }
    // Safety: `callee` is a `Function` value, which is what `FunctionValue` wraps.
    unsafe { FunctionValue::new(callee) }
}

/// Number of call arguments of a call instruction (excluding the callee).
pub(crate) fn call_arg_count(call: ValueRef) -> u32 {
    // Safety: only called on call instructions.
    unsafe { LLVMGetNumArgOperands(call) }
}

/// Whether a function is an intrinsic (`llvm.*`).
pub(crate) fn is_intrinsic(f: FunctionValue<'_>) -> bool {
    // Safety: `f` is a live function.
    unsafe { LLVMGetIntrinsicID(f.as_value_ref()) != 0 }
}

/// Whether a function has a body in this module.
pub(crate) fn is_declaration(f: FunctionValue<'_>) -> bool {
    f.count_basic_blocks() == 0
}

/// Successor blocks of a terminator, in terminator order (duplicates kept).
pub(crate) fn successors<'ctx>(term: InstructionValue<'ctx>) -> Vec<BasicBlock<'ctx>> {
    let raw = term.as_value_ref();
    // Safety: `raw` is a terminator (checked); indexes stay below `LLVMGetNumSuccessors`, and
    // every successor is a live block of the same function.
    unsafe {
        if LLVMIsATerminatorInst(raw).is_null() {
            return Vec::new();
        }
        (0..LLVMGetNumSuccessors(raw))
            .filter_map(|i| BasicBlock::new(LLVMGetSuccessor(raw, i)))
            .collect()
    }
}

/// Raw handle of a block, used as a map key.
pub(crate) fn block_ref(bb: BasicBlock<'_>) -> LLVMBasicBlockRef {
    bb.as_mut_ptr()
}

/// Condition of a conditional `br`.
pub(crate) fn branch_condition(br: ValueRef) -> ValueRef {
    // Safety: only called on conditional branches.
    unsafe { LLVMGetCondition(br) }
}

/// The case values of a `switch`, in case order (successor `i + 1` is taken for case `i`).
pub(crate) fn switch_case_values(switch: ValueRef) -> Vec<ValueRef> {
    // Safety: a switch's operands are (cond, default, val0, dest0, val1, dest1, ...); the loop
    // stays below the operand count.
    unsafe {
        let n = LLVMGetNumOperands(switch) as u32;
        (2..n)
            .step_by(2)
            .map(|i| LLVMGetOperand(switch, i))
            .collect()
    }
}

/// Value of an integer constant (sign-extended), if `v` is one.
pub(crate) fn const_int(v: ValueRef) -> Option<i64> {
    // Safety: `LLVMConstIntGetSExtValue` is only called on `ConstantInt`s.
    unsafe { (!LLVMIsAConstantInt(v).is_null()).then(|| LLVMConstIntGetSExtValue(v)) }
}

/// Type of a value.
pub(crate) fn type_of(v: ValueRef) -> LLVMTypeRef {
    // Safety: every live value has a type.
    unsafe { LLVMTypeOf(v) }
}

/// Kind of a type.
pub(crate) fn type_kind(ty: LLVMTypeRef) -> LLVMTypeKind {
    // Safety: `ty` is a live type of the module's context.
    unsafe { LLVMGetTypeKind(ty) }
}

/// Address space of a pointer type.
pub(crate) fn pointer_address_space(ty: LLVMTypeRef) -> u32 {
    // Safety: only called on pointer types.
    unsafe { LLVMGetPointerAddressSpace(ty) }
}

/// Store size in bytes of `ty` under the module's data layout.
pub(crate) fn store_size(module: LLVMModuleRef, ty: LLVMTypeRef) -> u64 {
    // Safety: the data layout is owned by the module (not freed here) and `ty` is sized: callers
    // only pass types of loaded/stored values, which LLVM requires to be sized.
    unsafe { LLVMStoreSizeOfType(LLVMGetModuleDataLayout(module), ty) }
}

/// Whether a type is a fixed or scalable vector.
pub(crate) fn is_vector(ty: LLVMTypeRef) -> bool {
    matches!(
        type_kind(ty),
        LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind
    )
}

/// Whether a type is a scalable vector (its size is unknown at compile time).
pub(crate) fn is_scalable_vector(ty: LLVMTypeRef) -> bool {
    type_kind(ty) == LLVMTypeKind::LLVMScalableVectorTypeKind
}

/// The `store` instructions whose address is exactly `slot`.
pub(crate) fn stores_to(slot: ValueRef) -> Vec<ValueRef> {
    users(slot)
        .into_iter()
        .filter(|&u| opcode(u) == Some(LLVMOpcode::LLVMStore) && operand(u, 1) == Some(slot))
        .collect()
}

/// The indices of an `insertvalue` or `extractvalue` instruction.
pub(crate) fn aggregate_indices(v: ValueRef) -> Vec<u32> {
    // Safety: only called on `insertvalue`/`extractvalue` instructions (checked by opcode by
    // the caller), for which LLVM returns a pointer to `LLVMGetNumIndices` indices owned by the
    // instruction; they are copied out immediately.
    unsafe {
        let n = LLVMGetNumIndices(v) as usize;
        let p = LLVMGetIndices(v);
        if p.is_null() || n == 0 {
            return Vec::new();
        }
        std::slice::from_raw_parts(p, n).to_vec()
    }
}

/// The first instruction of `bb` after PHIs, EH pads and leading `alloca`s (where a block hook
/// goes). Keeping the entry block's allocas in front preserves the usual "static allocas first"
/// shape that later optimisation expects.
pub(crate) fn first_insertion_point(
    bb: inkwell::basic_block::BasicBlock<'_>,
) -> Option<InstructionValue<'_>> {
    let mut inst = bb.get_first_instruction();
    while let Some(i) = inst {
        match i.get_opcode() {
            InstructionOpcode::Phi | InstructionOpcode::LandingPad | InstructionOpcode::Alloca => {
                inst = i.get_next_instruction()
            }
            InstructionOpcode::CatchPad | InstructionOpcode::CleanupPad => {
                return i.get_next_instruction()
            }
            InstructionOpcode::CatchSwitch => return None,
            _ => return Some(i),
        }
    }
    None
}

/// Whether a call runs a hook or instrumented code when the program runs: every call but the
/// intrinsics that record nothing (`llvm.memcpy` and its kind are ranged accesses, recorded by
/// a hook; indirect calls and inline assembly count as hooks).
pub(crate) fn runs_a_hook(call: inkwell::values::InstructionValue<'_>) -> bool {
    match called_function(call) {
        Some(f) if is_intrinsic(f) => {
            let name = function_name(f);
            ["llvm.memcpy", "llvm.memmove", "llvm.memset"]
                .iter()
                .any(|p| name.starts_with(p))
        }
        _ => true,
    }
}

/// The offset in bytes a `getelementptr` whose indices are all constants adds to its pointer
/// (`None` for a variable index or a vector step).
pub(crate) fn constant_gep_offset(
    gep: LLVMValueRef,
    data_layout: LLVMTargetDataRef,
) -> Option<i64> {
    // Safety: `gep` is a live GEP instruction or constant expression (checked by opcode); its
    // source element type and the types it steps through are sized (LLVM requires it of GEP
    // operands), and struct indices are in range (the verifier requires it).
    unsafe {
        let operands = LLVMGetNumOperands(gep) as u32;
        let mut ty: LLVMTypeRef = LLVMGetGEPSourceElementType(gep);
        let first = const_int(operand(gep, 1)?)?;
        let mut offset = first.wrapping_mul(LLVMABISizeOfType(data_layout, ty) as i64);
        for i in 2..operands {
            let index = const_int(operand(gep, i)?)?;
            match type_kind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let field = u32::try_from(index).ok()?;
                    offset =
                        offset.wrapping_add(LLVMOffsetOfElement(data_layout, ty, field) as i64);
                    ty = LLVMStructGetTypeAtIndex(ty, field);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    ty = LLVMGetElementType(ty);
                    let step = LLVMABISizeOfType(data_layout, ty) as i64;
                    offset = offset.wrapping_add(index.wrapping_mul(step));
                }
                _ => return None,
            }
        }
        Some(offset)
    }
}
