//! The OpenMP hooks: region enter and exit, fork and join around `__kmpc_fork_call`, and the
//! worksharing and barrier hooks after the libomp calls that [`crate::openmp`] recognised.

use inkwell::builder::Builder;
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, InstructionOpcode, InstructionValue, IntValue, PointerValue,
};
use rdtrace::abi::IdKind;

use crate::error::PassError;
use crate::hooks::{position_after, position_before, Hooks};
use crate::ids::ModuleLayout;
use crate::ir::{self, ValueRef};
use crate::openmp::{BoundType, OmpAnalysis, RuntimeAction};

pub(super) fn insert_openmp<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    layout: &ModuleLayout<'ctx>,
    omp: &OmpAnalysis<'ctx>,
) -> Result<(), PassError> {
    for &(fork, region) in &omp.forks {
        position_before(builder, fork);
        let id = hooks.global_id(builder, IdKind::Region, region)?;
        hooks.call(builder, hooks.omp_fork, &[id.into()])?;
        position_after(builder, fork);
        let id = hooks.global_id(builder, IdKind::Region, region)?;
        hooks.call(builder, hooks.omp_join, &[id.into()])?;
    }
    for rc in &omp.runtime_calls {
        position_after(builder, rc.call);
        let raw = rc.call.as_value_ref();
        match rc.action {
            RuntimeAction::ForInit { ws } => for_init(builder, hooks, omp, ws)?,
            RuntimeAction::DispatchNext { ws } => {
                let id = hooks.global_id(builder, IdKind::Workshare, ws)?;
                // Safety: `__kmpc_dispatch_next_*` returns `i32`.
                let more = unsafe { IntValue::new(raw) };
                let lower = load_bound(builder, hooks, raw, 3, rc.bounds)?;
                let upper = load_bound(builder, hooks, raw, 4, rc.bounds)?;
                let args = [id.into(), more.into(), lower.into(), upper.into()];
                hooks.call(builder, hooks.omp_dispatch_next, &args)?;
            }
            RuntimeAction::ForFini { ws } => {
                let id = hooks.global_id(builder, IdKind::Workshare, ws)?;
                hooks.call(builder, hooks.omp_for_fini, &[id.into()])?;
            }
            RuntimeAction::Barrier => {
                hooks.call(builder, hooks.omp_barrier, &[])?;
            }
        }
    }
    for (region, r) in omp.regions.iter().enumerate() {
        for bb in &layout.functions[r.function as usize].blocks {
            let Some(term) = bb.get_terminator() else {
                continue;
            };
            if term.get_opcode() == InstructionOpcode::Return {
                position_before(builder, term);
                let id = hooks.global_id(builder, IdKind::Region, region as u32)?;
                hooks.call(builder, hooks.omp_region_exit, &[id.into()])?;
            }
        }
    }
    Ok(())
}

/// `__rdt_omp_region_enter(region, omp_get_thread_num(), omp_get_num_threads())`.
pub(super) fn region_enter<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    anchor: InstructionValue<'ctx>,
    region: u32,
) -> Result<(), PassError> {
    position_before(builder, anchor);
    let tnum = hooks.call_query(builder, hooks.omp_get_thread_num, "rdt.tnum")?;
    let nthreads = hooks.call_query(builder, hooks.omp_get_num_threads, "rdt.nthreads")?;
    let id = hooks.global_id(builder, IdKind::Region, region)?;
    hooks.call(
        builder,
        hooks.omp_region_enter,
        &[id.into(), tnum.into(), nthreads.into()],
    )?;
    Ok(())
}

/// `__rdt_omp_for_init(ws, sched, lower, upper, stride, incr, chunk)` after an init call. For
/// static init the bounds are this thread's, read back from the out-parameters; for dispatch
/// init they are the whole loop's, and the loop increment doubles as the stride.
fn for_init<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    omp: &OmpAnalysis<'ctx>,
    ws: u32,
) -> Result<(), PassError> {
    let w = &omp.workshares[ws as usize];
    let raw = w.call.as_value_ref();
    let id = hooks.global_id(builder, IdKind::Workshare, ws)?;
    let arg = |i| -> Result<IntValue<'ctx>, PassError> {
        // Safety: the scalar parameters of the libomp entry points are integers.
        let v = unsafe { IntValue::new(ir::operand(raw, i).expect("libomp call argument")) };
        Ok(builder.build_int_cast_sign_flag(v, hooks.i64(), w.bounds.signed, "rdt.arg")?)
    };
    // Safety: the schedule parameter is an `i32`.
    let sched = unsafe { IntValue::new(ir::operand(raw, 2).expect("schedule argument")) };
    let sched = builder.build_int_cast_sign_flag(sched, hooks.i32(), true, "rdt.sched")?;
    let (lower, upper, stride, incr, chunk) = match w.kind {
        rdtrace::meta::WorkshareKind::Static => (
            load_bound(builder, hooks, raw, 4, w.bounds)?,
            load_bound(builder, hooks, raw, 5, w.bounds)?,
            load_bound(builder, hooks, raw, 6, w.bounds)?,
            arg(7)?,
            arg(8)?,
        ),
        rdtrace::meta::WorkshareKind::Dispatch => (arg(3)?, arg(4)?, arg(5)?, arg(5)?, arg(6)?),
    };
    let args: [BasicMetadataValueEnum; 7] = [
        id.into(),
        sched.into(),
        lower.into(),
        upper.into(),
        stride.into(),
        incr.into(),
        chunk.into(),
    ];
    hooks.call(builder, hooks.omp_for_init, &args)?;
    Ok(())
}

/// Loads the bound that pointer argument `i` of a libomp call points to, extended to `i64`.
fn load_bound<'ctx>(
    builder: &Builder<'ctx>,
    hooks: &Hooks<'ctx>,
    call: ValueRef,
    i: u32,
    bounds: BoundType,
) -> Result<IntValue<'ctx>, PassError> {
    // Safety: the out-parameters of the libomp entry points are pointers.
    let ptr = unsafe { PointerValue::new(ir::operand(call, i).expect("libomp out-parameter")) };
    let ty = if bounds.bits == 32 {
        hooks.i32()
    } else {
        hooks.i64()
    };
    let v = builder.build_load(ty, ptr, "rdt.bound")?.into_int_value();
    Ok(builder.build_int_cast_sign_flag(v, hooks.i64(), bounds.signed, "rdt.bound64")?)
}
