//! Declarations of the runtime hooks ([`rdtrace::abi`]) and the code that calls them.
//!
//! Every hook takes *global* ids: at each call site the pass loads the module's base for the
//! id kind from the `[7 x i32]` base table ([`abi::MODULE_BASES_GLOBAL`], filled by the runtime
//! in `__rdt_register_module` before any other code of the module runs) and adds the
//! module-local id. Inserted calls carry the debug location of the instruction they instrument,
//! so debuggers and profilers attribute them to the right source line.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::llvm_sys::core::LLVMSetCurrentDebugLocation2;
use inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicTypeEnum, FunctionType};
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValueEnum, FunctionValue, GlobalValue,
    InstructionValue, IntValue, PointerValue,
};
use inkwell::AddressSpace;
use rdtrace::abi::{self, IdKind};

use crate::error::PassError;

macro_rules! hook_fns {
    ($( $(#[$doc:meta])* $konst:ident, $field:ident : $sym:ident ( $($p:ident : $t:ty),* ); )*) => {
        /// One declared function per hook of [`rdtrace::for_each_hook!`], named after the table's
        /// field name (generated from the table, so the pass cannot drift from the runtime).
        pub(crate) struct HookFns<'ctx> {
            $( pub $field: FunctionValue<'ctx>, )*
        }

        impl<'ctx> HookFns<'ctx> {
            /// Declares every hook with the table's C parameter types, returning `void`.
            fn declare(
                module: &Module<'ctx>,
                ty: impl Fn(abi::AbiType) -> BasicTypeEnum<'ctx>,
            ) -> Result<Self, PassError> {
                let void = module.get_context().void_type();
                Ok(HookFns {
                    $( $field: {
                        let params = [$(ty(<$t as abi::AbiParam>::TYPE).into()),*];
                        declare_function(
                            module,
                            abi::$konst,
                            void.fn_type(&params, false),
                            Declared::Hook,
                        )?
                    }, )*
                })
            }
        }
    };
}

rdtrace::for_each_hook!(hook_fns);

/// The declared hooks of one module plus its base table.
pub(crate) struct Hooks<'ctx> {
    ctx: ContextRef<'ctx>,
    /// `[7 x i32]` base table.
    pub bases: GlobalValue<'ctx>,
    /// `[3 x i64]` table of inline record heads (see [`Hooks::record_head`]).
    pub heads: GlobalValue<'ctx>,
    /// The hooks, one field per entry of the ABI table (also reachable through `Deref`).
    pub fns: HookFns<'ctx>,
    /// `omp_get_thread_num` (declared when absent).
    pub omp_get_thread_num: FunctionValue<'ctx>,
    /// `omp_get_num_threads` (declared when absent).
    pub omp_get_num_threads: FunctionValue<'ctx>,
}

/// The id kinds of inline records and their tags, in the order of the module's head table
/// ([`abi::RECORD_HEADS_GLOBAL`]): entry k is `raw::head_of(tag, base of kind)`, filled by the
/// module constructor right after the runtime filled the base table (see `crate::embed`).
pub(crate) const HEAD_KINDS: [(IdKind, u8); 3] = [
    (IdKind::Block, rdtrace::raw::TAG_BLOCK),
    (IdKind::MemInstr, rdtrace::raw::TAG_ACCESS),
    (IdKind::Branch, rdtrace::raw::TAG_BRANCH),
];

impl<'ctx> Hooks<'ctx> {
    /// Declares every hook with its C signature and `nounwind`, and creates the base table.
    pub(crate) fn declare(module: &Module<'ctx>) -> Result<Self, PassError> {
        let ctx = module.get_context();
        let i32t: BasicTypeEnum = ctx.i32_type().into();
        let i64t: BasicTypeEnum = ctx.i64_type().into();
        let ptr: BasicTypeEnum = ctx.ptr_type(AddressSpace::default()).into();
        let fns = HookFns::declare(module, |t| match t {
            abi::AbiType::I32 => i32t,
            abi::AbiType::I64 => i64t,
            abi::AbiType::Ptr => ptr,
        })?;
        // Called once per INLINE_BLOCKS_BETWEEN_HOOKS blocks at most: `cold` keeps the call
        // and its spills off the blocks' hot path.
        let cold = Attribute::get_named_enum_kind_id("cold");
        fns.block_countdown
            .add_attribute(AttributeLoc::Function, ctx.create_enum_attribute(cold, 0));
        let bases_ty = ctx.i32_type().array_type(IdKind::COUNT as u32);
        let bases = module.add_global(bases_ty, None, abi::MODULE_BASES_GLOBAL);
        bases.set_linkage(Linkage::Internal);
        bases.set_initializer(&bases_ty.const_zero());
        bases.set_alignment(4);
        let heads_ty = ctx.i64_type().array_type(HEAD_KINDS.len() as u32);
        let heads = module.add_global(heads_ty, None, abi::RECORD_HEADS_GLOBAL);
        heads.set_linkage(Linkage::Internal);
        heads.set_initializer(&heads_ty.const_zero());
        heads.set_alignment(8);

        let thread_query = ctx.i32_type().fn_type(&[], false);
        Ok(Self {
            ctx,
            bases,
            heads,
            fns,
            omp_get_thread_num: declare_function(
                module,
                "omp_get_thread_num",
                thread_query,
                Declared::OmpQuery,
            )?,
            omp_get_num_threads: declare_function(
                module,
                "omp_get_num_threads",
                thread_query,
                Declared::OmpQuery,
            )?,
        })
    }

    /// `i32` type of the context.
    pub(crate) fn i32(&self) -> inkwell::types::IntType<'ctx> {
        self.ctx.i32_type()
    }

    /// `i64` type of the context.
    pub(crate) fn i64(&self) -> inkwell::types::IntType<'ctx> {
        self.ctx.i64_type()
    }

    /// Emits `load bases[kind] + local`, the global id of a module-local id.
    pub(crate) fn global_id(
        &self,
        builder: &Builder<'ctx>,
        kind: IdKind,
        local: u32,
    ) -> Result<IntValue<'ctx>, PassError> {
        let i32t = self.ctx.i32_type();
        let base = builder
            .build_load(i32t, self.base_slot(kind), "rdt.base")?
            .into_int_value();
        Ok(builder.build_int_add(base, i32t.const_int(local as u64, false), "rdt.id")?)
    }

    /// Emits `load heads[kind] + local`: the first word of an inline record of `kind` (a
    /// block, access or branch record) for the module-local id `local`, which is
    /// `raw::head_of(tag, global id)` (see [`HEAD_KINDS`]). One load and one add, where the
    /// global id and its tag cost the traced code a load, an add and an `or` with a 64-bit
    /// constant per record.
    pub(crate) fn record_head(
        &self,
        builder: &Builder<'ctx>,
        kind: IdKind,
        local: u32,
    ) -> Result<IntValue<'ctx>, PassError> {
        let i64t = self.ctx.i64_type();
        let at = HEAD_KINDS
            .iter()
            .position(|&(k, _)| k == kind)
            .ok_or_else(|| PassError::Build(format!("no inline record head for {kind:?}")))?;
        let head = builder
            .build_load(i64t, self.head_slot(at), "rdt.hbase")?
            .into_int_value();
        Ok(builder.build_int_add(head, i64t.const_int(local as u64, false), "rdt.head")?)
    }

    /// The base table's entry for `kind` (a constant `getelementptr`).
    pub(crate) fn base_slot(&self, kind: IdKind) -> PointerValue<'ctx> {
        table_entry(
            self.bases,
            self.ctx.i32_type(),
            IdKind::COUNT,
            kind as usize,
        )
    }

    /// The head table's entry `at` (the kind at `HEAD_KINDS[at]`).
    pub(crate) fn head_slot(&self, at: usize) -> PointerValue<'ctx> {
        table_entry(self.heads, self.ctx.i64_type(), HEAD_KINDS.len(), at)
    }

    /// Declares `__thread void *__rdt_cursor` (defined by the runtime) and returns it.
    pub(crate) fn cursor_global(&self, module: &Module<'ctx>) -> GlobalValue<'ctx> {
        let ptr = self.ctx.ptr_type(AddressSpace::default());
        tls_global(module, abi::CURSOR_TLS, ptr.into())
    }

    /// Declares `__thread int32_t __rdt_blocks_free` (defined by the runtime) and returns it.
    pub(crate) fn countdown_global(&self, module: &Module<'ctx>) -> GlobalValue<'ctx> {
        tls_global(module, abi::COUNTDOWN_TLS, self.ctx.i32_type().into())
    }

    /// Declares `__thread int64_t __rdt_expanded` (defined by the runtime) and returns it.
    pub(crate) fn expanded_global(&self, module: &Module<'ctx>) -> GlobalValue<'ctx> {
        tls_global(module, abi::EXPANDED_TLS, self.ctx.i64_type().into())
    }

    /// Calls a hook with `args`.
    pub(crate) fn call(
        &self,
        builder: &Builder<'ctx>,
        hook: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<(), PassError> {
        builder.build_direct_call(hook, args, "")?;
        Ok(())
    }

    /// Calls an `int32_t (void)` OpenMP query and returns its result.
    pub(crate) fn call_query(
        &self,
        builder: &Builder<'ctx>,
        query: FunctionValue<'ctx>,
        name: &str,
    ) -> Result<IntValue<'ctx>, PassError> {
        // Called through its pointer with our own prototype, so a K&R-style declaration of the
        // same function in the module (`i32 (...)`) does not make the call ill-typed.
        let ty = self.ctx.i32_type().fn_type(&[], false);
        let call = builder.build_indirect_call(
            ty,
            query.as_global_value().as_pointer_value(),
            &[],
            name,
        )?;
        match call.try_as_basic_value().basic() {
            Some(BasicValueEnum::IntValue(v)) => Ok(v),
            _ => Err(PassError::Build(format!(
                "@{name} does not return an integer"
            ))),
        }
    }
}

/// Entry `at` of `table`, a `[len x elem]` global, as a constant `getelementptr`.
fn table_entry<'ctx>(
    table: GlobalValue<'ctx>,
    elem: inkwell::types::IntType<'ctx>,
    len: usize,
    at: usize,
) -> PointerValue<'ctx> {
    assert!(at < len, "entry {at} of a table of {len}");
    let table_ty = elem.array_type(len as u32);
    let (zero, index) = (elem.const_zero(), elem.const_int(at as u64, false));
    // Safety: both indexes are in bounds of the `[len x elem]` table (asserted above).
    unsafe {
        table
            .as_pointer_value()
            .const_in_bounds_gep(table_ty, &[zero, index])
    }
}

impl<'ctx> std::ops::Deref for Hooks<'ctx> {
    type Target = HookFns<'ctx>;
    fn deref(&self) -> &HookFns<'ctx> {
        &self.fns
    }
}

/// Positions `builder` before `anchor` and gives new instructions `anchor`'s debug location.
pub(crate) fn position_before<'ctx>(builder: &Builder<'ctx>, anchor: InstructionValue<'ctx>) {
    builder.position_before(&anchor);
    // Safety: the builder and instruction are live; a null location (no `!dbg`) clears the
    // builder's current location, which is what we want for such instructions.
    unsafe {
        LLVMSetCurrentDebugLocation2(
            builder.as_mut_ptr(),
            LLVMInstructionGetDebugLoc(anchor.as_value_ref()),
        )
    };
}

/// Positions `builder` right after the non-terminator `anchor`, with `anchor`'s debug location.
pub(crate) fn position_after<'ctx>(builder: &Builder<'ctx>, anchor: InstructionValue<'ctx>) {
    let next = anchor
        .get_next_instruction()
        .expect("a non-terminator has a successor");
    builder.position_before(&next);
    // Safety: as in `position_before`.
    unsafe {
        LLVMSetCurrentDebugLocation2(
            builder.as_mut_ptr(),
            LLVMInstructionGetDebugLoc(anchor.as_value_ref()),
        )
    };
}

/// What a declared function is, which decides how strictly an existing declaration is checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Declared {
    /// A runtime hook: exact ABI type, `nounwind`.
    Hook,
    /// An OpenMP query: any existing declaration is accepted, since it is called through its
    /// pointer with the right prototype (see [`Hooks::call_query`]).
    OmpQuery,
}

/// Declares `name` with type `ty`, or reuses an existing declaration.
fn declare_function<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    ty: FunctionType<'ctx>,
    what: Declared,
) -> Result<FunctionValue<'ctx>, PassError> {
    let f = match module.get_function(name) {
        Some(existing) if what == Declared::Hook && existing.get_type() != ty => {
            return Err(PassError::SymbolClash {
                name: name.to_string(),
                found: existing.get_type().print_to_string().to_string(),
            });
        }
        Some(existing) => existing,
        None if module.get_global(name).is_some() => {
            return Err(PassError::SymbolClash {
                name: name.to_string(),
                found: "a global variable".into(),
            });
        }
        None => module.add_function(name, ty, Some(Linkage::External)),
    };
    if what == Declared::Hook {
        // The hooks never throw; saying so keeps calls to them out of EH tables.
        let kind = Attribute::get_named_enum_kind_id("nounwind");
        let nounwind = module.get_context().create_enum_attribute(kind, 0);
        f.add_attribute(AttributeLoc::Function, nounwind);
    }
    Ok(f)
}

/// Module name for error messages.
pub(crate) fn module_label(module: &Module<'_>) -> String {
    let source = module.get_source_file_name().to_string_lossy().into_owned();
    if source.is_empty() {
        module.get_name().to_string_lossy().into_owned()
    } else {
        source
    }
}

/// The module's declaration of the runtime's thread-local `name` of type `ty` (an external
/// `thread_local` global), added on first use.
fn tls_global<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    ty: BasicTypeEnum<'ctx>,
) -> GlobalValue<'ctx> {
    if let Some(g) = module.get_global(name) {
        return g;
    }
    let g = module.add_global(ty, None, name);
    g.set_thread_local(true);
    g.set_linkage(Linkage::External);
    g
}
