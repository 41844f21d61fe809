//! flang-19 specifics: which modules flang wrote, and the array data its runtime moves.
//!
//! flang lowers some whole-array statements to calls into its runtime instead of loops: an
//! assignment to an allocatable (`a = b`, `a = b + 1` through a temporary) becomes
//! `_FortranAAssign(Descriptor &to, const Descriptor &from, const char *file, int line)`, and
//! transformational intrinsics such as `RESHAPE` or `CSHIFT` become calls that fill a result
//! descriptor. The runtime is not instrumented, so the pass records that traffic at the call
//! site: each array argument the callee reads is one `TransferRead` memory instruction, the
//! array it writes one `TransferWrite` (`fortran_runtime::runtime_transfer`). Their events are ranged accesses
//! (`__rdt_access_range`) computed from the descriptor by a helper the pass defines in the
//! module ([`insert_array_accesses`]): the source is read before the call (the callee may free a
//! temporary it is given), the destination after it (the callee may allocate or reallocate an
//! allocatable left-hand side). Other runtime entry points that walk arrays (`MATMUL`, the
//! reductions, array I/O) are listed as not traced (`fortran_runtime::untraced_runtime_call`);
//! `docs/deviations.md` says what is approximate.
//!
//! The descriptor is flang 19's `CFI_cdesc_t` (`flang/ISO_Fortran_binding.h`, which
//! `Fortran::runtime::Descriptor` starts with): `base_addr` (pointer, offset 0), `elem_len`
//! (`size_t`, 8), `version` (`int`, 16, `CFI_VERSION` = 20180515), `rank` (`u8`, 20), `type`,
//! `attribute`, `f18Addendum` (21-23), then `dim[rank]` from offset 24, 24 bytes each:
//! `lower_bound`, `extent` (-1 for assumed size), `sm` (byte stride).

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::Builder;
use inkwell::module::{Linkage, Module};
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use rdtrace::abi::IdKind;
use rdtrace::meta::AccessKind;

use crate::error::PassError;
use crate::hooks::{position_after, position_before, Hooks};
use crate::ids::ModuleLayout;

/// `CFI_VERSION` of flang 19's `ISO_Fortran_binding.h`, stored in every initialised descriptor.
pub(crate) const CFI_VERSION: u64 = 20180515;
/// `CFI_MAX_RANK`.
pub(crate) const CFI_MAX_RANK: u64 = 15;
/// Byte offsets of the descriptor fields the helper reads.
const OFFSET_ELEM_LEN: u64 = 8;
const OFFSET_VERSION: u64 = 16;
const OFFSET_RANK: u64 = 20;
const OFFSET_DIM: u64 = 24;
const DIM_SIZE: u64 = 24;
const DIM_OFFSET_EXTENT: u64 = 8;
const DIM_OFFSET_SM: u64 = 16;

/// Name of the helper the pass defines (internal) in modules that call a `fortran_runtime::runtime_transfer`
/// entry point: `void (i32 global_mem_instr_id, ptr descriptor)`.
pub(crate) const ARRAY_ACCESS_HELPER: &str = "__rdt_fortran_array_access";

/// Whether flang wrote the module: its MLIR module is always named `FIRModule`, which becomes
/// the LLVM module's identifier and source file name.
pub(crate) fn is_flang_module(module: &Module<'_>) -> bool {
    let source = module.get_source_file_name().to_string_lossy().into_owned();
    let name = module.get_name().to_string_lossy().into_owned();
    source == "FIRModule" || name == "FIRModule"
}

/// Inserts the ranged accesses of every descriptor memory site (see the module docs): a call
/// of the helper before the runtime call for reads, after it for the write. Defines the helper
/// when the module has such sites.
pub(crate) fn insert_array_accesses<'ctx>(
    module: &Module<'ctx>,
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
) -> Result<(), PassError> {
    if !layout.mem_sites.iter().any(|s| s.descriptor) {
        return Ok(());
    }
    let helper = define_helper(module, hooks)?;
    for (mi, site) in layout.mem_sites.iter().enumerate() {
        if !site.descriptor {
            continue;
        }
        match site.kind {
            AccessKind::TransferWrite => position_after(builder, site.inst),
            _ => position_before(builder, site.inst),
        }
        let id = hooks.global_id(builder, IdKind::MemInstr, mi as u32)?;
        // Safety: the descriptor arguments of the runtime entry points are pointers.
        let desc = unsafe { PointerValue::new(site.ptr) };
        builder.build_direct_call(helper, &[id.into(), desc.into()], "")?;
    }
    Ok(())
}

/// Defines `void __rdt_fortran_array_access(i32 mi, ptr desc)`: records the elements `desc`
/// describes as `__rdt_access_range(mi, ...)` calls, one per contiguous run in array element
/// order. Leading dimensions whose stride continues the run are merged into it (a contiguous
/// array is one range); each combination of the remaining dimensions' indexes is one run.
/// Nothing is recorded for a null or uninitialised descriptor, a null base address, an empty
/// array or an assumed-size one.
fn define_helper<'ctx>(
    module: &Module<'ctx>,
    hooks: &Hooks<'ctx>,
) -> Result<FunctionValue<'ctx>, PassError> {
    let ctx = module.get_context();
    let (i8t, i32t, i64t) = (ctx.i8_type(), ctx.i32_type(), ctx.i64_type());
    let ptr = ctx.ptr_type(AddressSpace::default());
    let ty = ctx.void_type().fn_type(&[i32t.into(), ptr.into()], false);
    if let Some(existing) = module.get_function(ARRAY_ACCESS_HELPER) {
        return Err(PassError::SymbolClash {
            name: ARRAY_ACCESS_HELPER.into(),
            found: existing.get_type().print_to_string().to_string(),
        });
    }
    let f = module.add_function(ARRAY_ACCESS_HELPER, ty, Some(Linkage::Internal));
    for attr in ["nounwind", "noinline"] {
        let kind = Attribute::get_named_enum_kind_id(attr);
        f.add_attribute(AttributeLoc::Function, ctx.create_enum_attribute(kind, 0));
    }
    let mi = f.get_nth_param(0).expect("mi").into_int_value();
    let desc = f.get_nth_param(1).expect("desc").into_pointer_value();

    // A builder of its own: the instrumentation builder carries the debug location of the
    // instruction it instruments, which must not leak into this function.
    let b = ctx.create_builder();
    let block = |name: &str| ctx.append_basic_block(f, name);
    let entry = block("entry");
    let header = block("header");
    let merge_cond = block("merge.cond");
    let merge_body = block("merge.body");
    let merge_check = block("merge.check");
    let merge_next = block("merge.next");
    let single = block("single");
    let count_cond = block("count.cond");
    let count_body = block("count.body");
    let count_next = block("count.next");
    let runs_cond = block("runs.cond");
    let offset_cond = block("offset.cond");
    let offset_body = block("offset.body");
    let emit = block("emit");
    let done = block("done");

    let c64 = |v: u64| i64t.const_int(v, false);
    let at = |base: PointerValue<'ctx>, offset: IntValue<'ctx>, name: &str| {
        // Safety: every offset stays inside the descriptor: its header, or `dim[k]` with
        // k < rank <= CFI_MAX_RANK.
        unsafe { b.build_in_bounds_gep(i8t, base, &[offset], name) }
    };
    let dim_field =
        |k: IntValue<'ctx>, field: u64, name: &str| -> Result<IntValue<'ctx>, PassError> {
            let scaled = b.build_int_mul(k, c64(DIM_SIZE), "dim.off")?;
            let off = b.build_int_add(scaled, c64(OFFSET_DIM + field), "field.off")?;
            let p = at(desc, off, "field.ptr")?;
            Ok(b.build_load(i64t, p, name)?.into_int_value())
        };

    b.position_at_end(entry);
    let null_desc = b.build_is_null(desc, "desc.null")?;
    b.build_conditional_branch(null_desc, done, header)?;

    b.position_at_end(header);
    let base = b.build_load(ptr, desc, "base")?.into_pointer_value();
    let elem_len = b
        .build_load(i64t, at(desc, c64(OFFSET_ELEM_LEN), "elem.ptr")?, "elem")?
        .into_int_value();
    let version = b
        .build_load(
            i32t,
            at(desc, c64(OFFSET_VERSION), "version.ptr")?,
            "version",
        )?
        .into_int_value();
    let rank8 = b
        .build_load(i8t, at(desc, c64(OFFSET_RANK), "rank.ptr")?, "rank8")?
        .into_int_value();
    let rank = b.build_int_z_extend(rank8, i64t, "rank")?;
    let has_base = b.build_is_not_null(base, "has.base")?;
    let is_cfi = b.build_int_compare(
        IntPredicate::EQ,
        version,
        i32t.const_int(CFI_VERSION, false),
        "is.cfi",
    )?;
    let rank_ok = b.build_int_compare(IntPredicate::ULE, rank, c64(CFI_MAX_RANK), "rank.ok")?;
    let valid = b.build_and(b.build_and(has_base, is_cfi, "v1")?, rank_ok, "valid")?;
    b.build_conditional_branch(valid, merge_cond, done)?;

    // Merge leading dimensions into the contiguous run: while dimension k continues it (its
    // stride is the run's length, or it has one element), run *= extent.
    b.position_at_end(merge_cond);
    let k = b.build_phi(i64t, "k")?;
    let run = b.build_phi(i64t, "run")?;
    let (k_v, run_v) = (
        k.as_basic_value().into_int_value(),
        run.as_basic_value().into_int_value(),
    );
    let more = b.build_int_compare(IntPredicate::ULT, k_v, rank, "k.more")?;
    b.build_conditional_branch(more, merge_body, single)?;

    b.position_at_end(merge_body);
    let extent = dim_field(k_v, DIM_OFFSET_EXTENT, "extent")?;
    let stride = dim_field(k_v, DIM_OFFSET_SM, "sm")?;
    let nonempty = b.build_int_compare(IntPredicate::SGT, extent, c64(0), "nonempty")?;
    b.build_conditional_branch(nonempty, merge_check, done)?;

    b.position_at_end(merge_check);
    let one = b.build_int_compare(IntPredicate::EQ, extent, c64(1), "one")?;
    let continues = b.build_int_compare(IntPredicate::EQ, stride, run_v, "continues")?;
    let merges = b.build_or(one, continues, "merges")?;
    b.build_conditional_branch(merges, merge_next, count_cond)?;

    b.position_at_end(merge_next);
    let k_next = b.build_int_add(k_v, c64(1), "k.next")?;
    let run_next = b.build_int_mul(run_v, extent, "run.next")?;
    b.build_unconditional_branch(merge_cond)?;
    k.add_incoming(&[(&c64(0), header), (&k_next, merge_next)]);
    run.add_incoming(&[(&elem_len, header), (&run_next, merge_next)]);

    // Every dimension merged: one range.
    b.position_at_end(single);
    b.build_direct_call(
        hooks.access_range,
        &[mi.into(), base.into(), run_v.into()],
        "",
    )?;
    b.build_unconditional_branch(done)?;

    // Dimensions k.. index the runs: their number is the product of their extents.
    b.position_at_end(count_cond);
    let j = b.build_phi(i64t, "j")?;
    let runs = b.build_phi(i64t, "runs")?;
    let (j_v, runs_v) = (
        j.as_basic_value().into_int_value(),
        runs.as_basic_value().into_int_value(),
    );
    let more = b.build_int_compare(IntPredicate::ULT, j_v, rank, "j.more")?;
    b.build_conditional_branch(more, count_body, runs_cond)?;

    b.position_at_end(count_body);
    let extent_j = dim_field(j_v, DIM_OFFSET_EXTENT, "extent.j")?;
    let nonempty = b.build_int_compare(IntPredicate::SGT, extent_j, c64(0), "nonempty.j")?;
    b.build_conditional_branch(nonempty, count_next, done)?;

    b.position_at_end(count_next);
    let j_next = b.build_int_add(j_v, c64(1), "j.next")?;
    let runs_next = b.build_int_mul(runs_v, extent_j, "runs.next")?;
    b.build_unconditional_branch(count_cond)?;
    j.add_incoming(&[(&k_v, merge_check), (&j_next, count_next)]);
    runs.add_incoming(&[(&c64(1), merge_check), (&runs_next, count_next)]);

    // Run r: its index in each outer dimension is a digit of r in the mixed radix of their
    // extents (the first outer dimension varies fastest, Fortran's element order).
    b.position_at_end(runs_cond);
    let r = b.build_phi(i64t, "r")?;
    let r_v = r.as_basic_value().into_int_value();
    let more = b.build_int_compare(IntPredicate::ULT, r_v, runs_v, "r.more")?;
    b.build_conditional_branch(more, offset_cond, done)?;

    b.position_at_end(offset_cond);
    let d = b.build_phi(i64t, "d")?;
    let q = b.build_phi(i64t, "q")?;
    let offset = b.build_phi(i64t, "offset")?;
    let (d_v, q_v, offset_v) = (
        d.as_basic_value().into_int_value(),
        q.as_basic_value().into_int_value(),
        offset.as_basic_value().into_int_value(),
    );
    let more = b.build_int_compare(IntPredicate::ULT, d_v, rank, "d.more")?;
    b.build_conditional_branch(more, offset_body, emit)?;

    b.position_at_end(offset_body);
    let extent_d = dim_field(d_v, DIM_OFFSET_EXTENT, "extent.d")?;
    let stride_d = dim_field(d_v, DIM_OFFSET_SM, "sm.d")?;
    let index = b.build_int_unsigned_rem(q_v, extent_d, "index")?;
    let q_next = b.build_int_unsigned_div(q_v, extent_d, "q.next")?;
    let step = b.build_int_mul(index, stride_d, "step")?;
    let offset_next = b.build_int_add(offset_v, step, "offset.next")?;
    let d_next = b.build_int_add(d_v, c64(1), "d.next")?;
    b.build_unconditional_branch(offset_cond)?;
    d.add_incoming(&[(&k_v, runs_cond), (&d_next, offset_body)]);
    q.add_incoming(&[(&r_v, runs_cond), (&q_next, offset_body)]);
    offset.add_incoming(&[(&c64(0), runs_cond), (&offset_next, offset_body)]);

    b.position_at_end(emit);
    // Safety: `offset` is the byte offset of an element of the array from its base address
    // (negative for negative strides, hence no `inbounds`).
    let addr = unsafe { b.build_gep(i8t, base, &[offset_v], "run.addr")? };
    b.build_direct_call(
        hooks.access_range,
        &[mi.into(), addr.into(), run_v.into()],
        "",
    )?;
    let r_next = b.build_int_add(r_v, c64(1), "r.next")?;
    b.build_unconditional_branch(runs_cond)?;
    r.add_incoming(&[(&c64(0), count_cond), (&r_next, emit)]);

    b.position_at_end(done);
    b.build_return(None)?;
    Ok(f)
}
