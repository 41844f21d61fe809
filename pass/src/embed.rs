//! Embeds the module's metadata blob and registers it at program start.
//!
//! The blob ([`rdtrace::meta::ModuleMeta::to_blob`]) becomes a private constant `[N x i8]`
//! named [`abi::MODULE_BLOB_GLOBAL`]. An internal constructor [`abi::MODULE_CTOR`] calls
//! `__rdt_register_module(blob, N, bases)` and is appended to `llvm.global_ctors` with priority
//! [`abi::MODULE_CTOR_PRIORITY`], so the runtime fills the base table before any hook of the
//! module can run. An existing `llvm.global_ctors` is rebuilt with its entries kept in order.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::Builder;
use inkwell::llvm_sys::core::{
    LLVMGetAggregateElement, LLVMGetArrayLength2, LLVMSetCurrentDebugLocation2,
};
use inkwell::module::{Linkage, Module};
use inkwell::types::{AnyTypeEnum, AsTypeRef};
use inkwell::values::{AsValueRef, BasicValueEnum, StructValue};
use inkwell::AddressSpace;
use rdtrace::abi;

use crate::error::PassError;
use crate::hooks::{Hooks, HEAD_KINDS};

/// Name of LLVM's constructor list.
const GLOBAL_CTORS: &str = "llvm.global_ctors";

/// Adds the blob global, the constructor and its `llvm.global_ctors` entry.
pub(crate) fn embed_metadata<'ctx>(
    module: &Module<'ctx>,
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    blob: &[u8],
) -> Result<(), PassError> {
    let ctx = module.get_context();
    let blob_value = ctx.const_string(blob, false);
    let blob_global = module.add_global(blob_value.get_type(), None, abi::MODULE_BLOB_GLOBAL);
    blob_global.set_linkage(Linkage::Private);
    blob_global.set_constant(true);
    blob_global.set_initializer(&blob_value);
    blob_global.set_alignment(1);

    let ctor_ty = ctx.void_type().fn_type(&[], false);
    let ctor = module.add_function(abi::MODULE_CTOR, ctor_ty, Some(Linkage::Internal));
    let nounwind = Attribute::get_named_enum_kind_id("nounwind");
    ctor.add_attribute(
        AttributeLoc::Function,
        ctx.create_enum_attribute(nounwind, 0),
    );
    let entry = ctx.append_basic_block(ctor, "entry");
    builder.position_at_end(entry);
    // Safety: clears the builder's debug location (null is allowed); the constructor has no
    // debug info, so a location left over from instrumenting a function would be invalid here.
    unsafe { LLVMSetCurrentDebugLocation2(builder.as_mut_ptr(), std::ptr::null_mut()) };
    let len = ctx.i64_type().const_int(blob.len() as u64, false);
    hooks.call(
        builder,
        hooks.register_module,
        &[
            blob_global.as_pointer_value().into(),
            len.into(),
            hooks.bases.as_pointer_value().into(),
        ],
    )?;
    fill_record_heads(&ctx, builder, hooks)?;
    builder.build_return(None)?;

    append_global_ctor(module, ctor.as_global_value().as_pointer_value())
}

/// Stores each inline record kind's tagged base, `raw::head_of(tag, base)`, into the head
/// table (see [`Hooks::record_head`]), from the base table the runtime has just filled.
fn fill_record_heads<'ctx>(
    ctx: &inkwell::context::ContextRef<'ctx>,
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
) -> Result<(), PassError> {
    let (i32t, i64t) = (ctx.i32_type(), ctx.i64_type());
    for (at, &(kind, tag)) in HEAD_KINDS.iter().enumerate() {
        let (base_slot, head_slot) = (hooks.base_slot(kind), hooks.head_slot(at));
        let base = builder
            .build_load(i32t, base_slot, "base")?
            .into_int_value();
        let wide = builder.build_int_z_extend(base, i64t, "basew")?;
        let tagged = i64t.const_int(rdtrace::raw::head_of(tag, 0), false);
        let head = builder.build_or(wide, tagged, "head")?;
        builder.build_store(head_slot, head)?;
    }
    Ok(())
}

/// Appends `{ priority, ctor, null }` to `llvm.global_ctors`, keeping existing entries.
fn append_global_ctor<'ctx>(
    module: &Module<'ctx>,
    ctor: inkwell::values::PointerValue<'ctx>,
) -> Result<(), PassError> {
    let ctx = module.get_context();
    let ptr = ctx.ptr_type(AddressSpace::default());
    let entry_ty = ctx.struct_type(&[ctx.i32_type().into(), ptr.into(), ptr.into()], false);
    let mut entries: Vec<StructValue<'ctx>> = Vec::new();
    if let Some(old) = module.get_global(GLOBAL_CTORS) {
        let AnyTypeEnum::ArrayType(array_ty) = old.get_value_type() else {
            return Err(clash("not an array"));
        };
        if array_ty.get_element_type() != entry_ty.into() {
            return Err(clash("entries are not { i32, ptr, ptr }"));
        }
        if let Some(init) = old.get_initializer() {
            let raw = init.as_value_ref();
            // Safety: `raw` is the constant initialiser of an array-typed global;
            // `LLVMGetAggregateElement` handles constant arrays and zeroinitializer alike, and
            // the index stays below the array length.
            let n = unsafe { LLVMGetArrayLength2(array_ty.as_type_ref()) } as u32;
            for i in 0..n {
                // Safety: see above; each element is a constant `{ i32, ptr, ptr }` struct.
                let element = unsafe { LLVMGetAggregateElement(raw, i) };
                if element.is_null() {
                    return Err(clash("unreadable entry"));
                }
                // Safety: the element type was checked to be the entry struct type.
                entries.push(unsafe { StructValue::new(element) });
            }
        }
        // Safety: `llvm.global_ctors` is only referenced by name (LLVM forbids other uses of
        // appending-linkage globals), so deleting it leaves no dangling uses.
        unsafe { old.delete() };
    }
    let priority = ctx
        .i32_type()
        .const_int(abi::MODULE_CTOR_PRIORITY as u64, false);
    let fields: [BasicValueEnum; 3] = [priority.into(), ctor.into(), ptr.const_null().into()];
    entries.push(entry_ty.const_named_struct(&fields));
    let array = entry_ty.const_array(&entries);
    let global = module.add_global(array.get_type(), None, GLOBAL_CTORS);
    global.set_linkage(Linkage::Appending);
    global.set_initializer(&array);
    Ok(())
}

fn clash(found: &str) -> PassError {
    PassError::SymbolClash {
        name: GLOBAL_CTORS.to_string(),
        found: found.to_string(),
    }
}
