//! Recognition of the libomp lowering of OpenMP, as clang-19 and flang-19 `-fopenmp` emit it.
//!
//! * A parallel region is a call `__kmpc_fork_call(loc, nargs, microtask, shared...)`; the
//!   microtask (after stripping casts) is the *outlined* function. Outlined functions and every
//!   function they transitively call in this module (directly, or by passing it as a callback,
//!   like the reduction function given to `__kmpc_reduce_nowait`) run in parallel.
//! * The outlined function's parameters are `(ptr gtid, ptr btid, shared...)`. At `-O0 -g` clang
//!   adds a `..._debug__` body that the outlined wrapper calls with the same arguments, stored
//!   to and reloaded from allocas first; [`OmpAnalysis::forwarded_params`] maps the body's
//!   parameters back to the wrapper's so that classification treats both alike. flang's
//!   OpenMPIRBuilder (`F..omp_par`) passes one shared argument, a struct of pointers to the
//!   shared variables that the outlined function loads them from (classified through that
//!   load, see `classify`).
//! * Worksharing loops are the call sites of `__kmpc_for_static_init_{4,4u,8,8u}` (static) and
//!   `__kmpc_dispatch_init_{4,4u,8,8u}` (dynamic, guided, runtime); flang calls the unsigned
//!   ones, with the same arguments. `__kmpc_dispatch_next_*`, `__kmpc_for_static_fini`,
//!   `__kmpc_dispatch_fini_*`, `__kmpc_dispatch_deinit` (clang 19 ends every dispatch loop with
//!   it; flang 19 never calls it) and `__kmpc_barrier` are hooked after they return. The loop a
//!   worksharing init drives is found by dominance, not layout ([`find_workshare_loop`]).

use std::collections::{HashMap, HashSet};

use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use rdtrace::meta::WorkshareKind;

use crate::dominators::Dominators;
use crate::ids::{CallSite, ModuleLayout};
use crate::ir::{self, ValueKind, ValueRef};

/// Integer type of the bounds a worksharing entry point works with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoundType {
    /// 32 or 64.
    pub bits: u32,
    /// Signed (`_4`, `_8`) or unsigned (`_4u`, `_8u`).
    pub signed: bool,
}

/// One parallel region: an outlined function and the first place that forks it.
pub(crate) struct Region<'ctx> {
    /// Function id of the outlined function.
    pub function: u32,
    /// The first `__kmpc_fork_call` that starts it.
    pub fork_call: InstructionValue<'ctx>,
    /// Block id of that call.
    pub fork_block: u32,
    /// Names of the shared-variable arguments.
    pub shared_args: Vec<String>,
}

/// One worksharing loop (an init call site).
pub(crate) struct Workshare<'ctx> {
    /// The `__kmpc_*_init_*` call.
    pub call: InstructionValue<'ctx>,
    /// Function id.
    pub function: u32,
    /// Block id of the call.
    pub block: u32,
    /// Static or dispatch.
    pub kind: WorkshareKind,
    /// Integer type of the bounds.
    pub bounds: BoundType,
    /// Constant schedule, if constant.
    pub schedule: Option<i32>,
    /// Constant chunk, if constant.
    pub chunk: Option<i64>,
    /// The loop the construct drives (best effort, see [`find_workshare_loop`]).
    pub loop_id: Option<u32>,
}

/// What to report after a libomp call returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuntimeAction {
    /// `__kmpc_for_static_init_*` / `__kmpc_dispatch_init_*` of workshare `ws`.
    ForInit { ws: u32 },
    /// `__kmpc_dispatch_next_*` of workshare `ws`.
    DispatchNext { ws: u32 },
    /// End of workshare `ws`.
    ForFini { ws: u32 },
    /// `__kmpc_barrier`.
    Barrier,
}

/// A libomp call the pass hooks.
pub(crate) struct RuntimeCall<'ctx> {
    /// The call.
    pub call: InstructionValue<'ctx>,
    /// What to report after it.
    pub action: RuntimeAction,
    /// Integer type of the bounds, for `DispatchNext` (its out-parameters are loaded).
    pub bounds: BoundType,
}

/// Result of the OpenMP analysis of one module.
pub(crate) struct OmpAnalysis<'ctx> {
    /// Per function id: passed to `__kmpc_fork_call` as the microtask.
    pub outlined: Vec<bool>,
    /// Per function id: runs inside a parallel region.
    pub parallel: Vec<bool>,
    /// Regions by id (one per outlined function, in order of first fork).
    pub regions: Vec<Region<'ctx>>,
    /// Every fork call with its region id.
    pub forks: Vec<(InstructionValue<'ctx>, u32)>,
    /// Worksharing loops by id.
    pub workshares: Vec<Workshare<'ctx>>,
    /// Hooked libomp calls, in module order.
    pub runtime_calls: Vec<RuntimeCall<'ctx>>,
    /// `(function, parameter index)` of a function called by an outlined function with one of
    /// the outlined function's parameters, mapped to `(outlined function, its parameter index)`.
    pub forwarded_params: HashMap<(ValueRef, u32), (ValueRef, u32)>,
    /// Raw values of the outlined functions.
    pub outlined_raw: HashSet<ValueRef>,
}

const FORK_CALL: &str = "__kmpc_fork_call";

/// Analyses the OpenMP structure of the scanned module.
pub(crate) fn analyse<'ctx>(layout: &ModuleLayout<'ctx>) -> OmpAnalysis<'ctx> {
    let nfun = layout.functions.len();
    let mut outlined = vec![false; nfun];
    let mut regions: Vec<Region<'ctx>> = Vec::new();
    let mut forks = Vec::new();
    for call in layout.calls.iter().filter(|c| c.callee_name == FORK_CALL) {
        let Some(micro) = fork_microtask(call).and_then(|f| layout.function_id(f)) else {
            continue; // microtask defined elsewhere: nothing of it can be instrumented here
        };
        outlined[micro as usize] = true;
        let region = match regions.iter().position(|r| r.function == micro) {
            Some(r) => r as u32,
            None => {
                regions.push(Region {
                    function: micro,
                    fork_call: call.inst,
                    fork_block: call.block,
                    shared_args: shared_arg_names(call, layout.functions[micro as usize].func),
                });
                regions.len() as u32 - 1
            }
        };
        forks.push((call.inst, region));
    }

    let parallel = parallel_closure(layout, &outlined);
    let outlined_raw: HashSet<ValueRef> = (0..nfun)
        .filter(|&f| outlined[f])
        .map(|f| layout.functions[f].func.as_value_ref())
        .collect();
    let forwarded_params = forwarded_params(layout, &outlined);
    let (workshares, runtime_calls) = worksharing(layout);
    OmpAnalysis {
        outlined,
        parallel,
        regions,
        forks,
        workshares,
        runtime_calls,
        forwarded_params,
        outlined_raw,
    }
}

/// The microtask argument of a fork call.
fn fork_microtask<'ctx>(call: &CallSite<'ctx>) -> Option<FunctionValue<'ctx>> {
    let micro = ir::strip_pointer_casts(ir::operand(call.inst.as_value_ref(), 2)?);
    if ir::value_kind(micro) != ValueKind::Function {
        return None;
    }
    // Safety: `micro` is a `Function` value, which is what `FunctionValue` wraps.
    unsafe { FunctionValue::new(micro) }
}

/// Names of the shared arguments of a fork: the fork argument's IR name, else the outlined
/// parameter's name, else `argN` with N the outlined parameter index.
fn shared_arg_names(call: &CallSite<'_>, micro: FunctionValue<'_>) -> Vec<String> {
    let raw = call.inst.as_value_ref();
    let nargs = ir::call_arg_count(raw);
    (3..nargs)
        .map(|k| {
            let param_index = k - 1; // fork args 3.. map to outlined params 2..
            let arg_name = ir::operand(raw, k).map(ir::value_name).unwrap_or_default();
            if !arg_name.is_empty() {
                return arg_name;
            }
            let param_name = ir::function_param(micro.as_value_ref(), param_index)
                .map(ir::value_name)
                .unwrap_or_default();
            if !param_name.is_empty() {
                return param_name;
            }
            format!("arg{param_index}")
        })
        .collect()
}

/// Outlined functions plus everything reachable from them through direct calls and function
/// pointers passed as call arguments.
fn parallel_closure(layout: &ModuleLayout<'_>, outlined: &[bool]) -> Vec<bool> {
    let mut parallel = outlined.to_vec();
    let mut work: Vec<u32> = (0..outlined.len() as u32)
        .filter(|&f| outlined[f as usize])
        .collect();
    let mut callees_of: HashMap<u32, Vec<u32>> = HashMap::new();
    for call in &layout.calls {
        let raw = call.inst.as_value_ref();
        let direct = call.callee.and_then(|f| layout.function_id(f));
        // Function pointers handed to a call (callbacks such as reduction functions) may run
        // on the calling thread's behalf, so they inherit its parallel flag.
        let callbacks = (0..ir::call_arg_count(raw)).filter_map(|i| {
            let v = ir::strip_pointer_casts(ir::operand(raw, i)?);
            (ir::value_kind(v) == ValueKind::Function).then_some(v)
        });
        let targets = callees_of.entry(call.function).or_default();
        targets.extend(direct);
        if call.callee_name != FORK_CALL {
            targets.extend(callbacks.filter_map(|v| layout.function_ids.get(&v).copied()));
        }
    }
    while let Some(f) = work.pop() {
        for &g in callees_of.get(&f).map(Vec::as_slice).unwrap_or_default() {
            if !parallel[g as usize] {
                parallel[g as usize] = true;
                work.push(g);
            }
        }
    }
    parallel
}

/// Maps parameters of functions called by outlined functions back to the outlined function's
/// parameters they receive (clang `-O0`: `outlined` forwards its arguments to `..._debug__`).
fn forwarded_params(
    layout: &ModuleLayout<'_>,
    outlined: &[bool],
) -> HashMap<(ValueRef, u32), (ValueRef, u32)> {
    let mut map = HashMap::new();
    for call in layout
        .calls
        .iter()
        .filter(|c| outlined[c.function as usize])
    {
        let Some(callee) = call.callee.filter(|f| layout.function_id(*f).is_some()) else {
            continue;
        };
        let caller = layout.functions[call.function as usize].func.as_value_ref();
        if callee.as_value_ref() == caller {
            continue;
        }
        let raw = call.inst.as_value_ref();
        for j in 0..ir::call_arg_count(raw) {
            let Some(arg) = ir::operand(raw, j) else {
                continue;
            };
            if let Some((f, i)) = forwarded_argument(arg).filter(|(f, _)| *f == caller) {
                map.entry((callee.as_value_ref(), j)).or_insert((f, i));
            }
        }
    }
    map
}

/// The argument a value is a copy of: the argument itself, or a load from an alloca whose only
/// store stores (a copy of) the argument.
fn forwarded_argument(mut v: ValueRef) -> Option<(ValueRef, u32)> {
    for _ in 0..8 {
        match ir::value_kind(v) {
            ValueKind::Argument => return ir::argument_position(v),
            ValueKind::Load => {
                let slot = ir::strip_pointer_casts(ir::operand(v, 0)?);
                if ir::value_kind(slot) != ValueKind::Alloca {
                    return None;
                }
                let stores = crate::ir::stores_to(slot);
                let [only] = stores.as_slice() else {
                    return None;
                };
                v = ir::operand(*only, 0)?;
            }
            _ => return None,
        }
    }
    None
}

/// Parses a worksharing entry point's name into its kind and bound type.
fn worksharing_entry(name: &str) -> Option<(&'static str, BoundType)> {
    let kinds = [
        ("__kmpc_for_static_init_", "static_init"),
        ("__kmpc_dispatch_init_", "dispatch_init"),
        ("__kmpc_dispatch_next_", "dispatch_next"),
        ("__kmpc_dispatch_fini_", "dispatch_fini"),
    ];
    for (prefix, kind) in kinds {
        let Some(suffix) = name.strip_prefix(prefix) else {
            continue;
        };
        let bounds = match suffix {
            "4" => BoundType {
                bits: 32,
                signed: true,
            },
            "4u" => BoundType {
                bits: 32,
                signed: false,
            },
            "8" => BoundType {
                bits: 64,
                signed: true,
            },
            "8u" => BoundType {
                bits: 64,
                signed: false,
            },
            _ => return None,
        };
        return Some((kind, bounds));
    }
    None
}

/// Finds the worksharing init sites and the libomp calls to hook.
fn worksharing<'ctx>(
    layout: &ModuleLayout<'ctx>,
) -> (Vec<Workshare<'ctx>>, Vec<RuntimeCall<'ctx>>) {
    let mut workshares = Vec::new();
    // Position in `layout.calls` of each init, to find "the nearest preceding" one later.
    let mut init_positions: Vec<usize> = Vec::new();
    for (pos, call) in layout.calls.iter().enumerate() {
        let Some((entry, bounds)) = worksharing_entry(&call.callee_name) else {
            continue;
        };
        let raw = call.inst.as_value_ref();
        let (kind, chunk_op) = match entry {
            "static_init" => (WorkshareKind::Static, 8),
            "dispatch_init" => (WorkshareKind::Dispatch, 6),
            _ => continue,
        };
        let schedule = ir::operand(raw, 2)
            .and_then(ir::const_int)
            .map(|s| s as i32);
        let chunk = ir::operand(raw, chunk_op).and_then(ir::const_int);
        workshares.push(Workshare {
            call: call.inst,
            function: call.function,
            block: call.block,
            kind,
            bounds,
            schedule,
            chunk,
            loop_id: None,
        });
        init_positions.push(pos);
    }
    // Loops are matched once every init is known, since each init's loops end at the next one.
    let boundaries: Vec<usize> = (0..layout.calls.len())
        .filter(|&pos| is_construct_boundary(&layout.calls[pos].callee_name))
        .collect();
    let mut dominators: HashMap<u32, Dominators> = HashMap::new();
    for (w, &pos) in workshares.iter_mut().zip(&init_positions) {
        let dom = dominators.entry(w.function).or_insert_with(|| {
            let info = &layout.functions[w.function as usize];
            Dominators::compute(&info.succs, 0)
        });
        w.loop_id = find_workshare_loop(layout, pos, w.kind, &boundaries, dom);
    }

    // The workshare a next/fini call belongs to: same function and kind, the nearest init
    // before it in module order, else the first one in the function.
    let owner = |pos: usize, function: u32, kind: WorkshareKind| -> Option<u32> {
        let candidates: Vec<usize> = (0..workshares.len())
            .filter(|&w| workshares[w].function == function && workshares[w].kind == kind)
            .collect();
        candidates
            .iter()
            .rev()
            .find(|&&w| init_positions[w] < pos)
            .or(candidates.first())
            .map(|&w| w as u32)
    };

    let mut runtime_calls = Vec::new();
    for (pos, call) in layout.calls.iter().enumerate() {
        let name = call.callee_name.as_str();
        let no_bounds = BoundType {
            bits: 64,
            signed: true,
        };
        let (action, bounds) = if let Some((entry, bounds)) = worksharing_entry(name) {
            let ws = |kind| owner(pos, call.function, kind);
            let action = match entry {
                "static_init" | "dispatch_init" => {
                    let w = init_positions
                        .iter()
                        .position(|&p| p == pos)
                        .expect("init site");
                    Some(RuntimeAction::ForInit { ws: w as u32 })
                }
                "dispatch_next" => {
                    ws(WorkshareKind::Dispatch).map(|ws| RuntimeAction::DispatchNext { ws })
                }
                _ => ws(WorkshareKind::Dispatch).map(|ws| RuntimeAction::ForFini { ws }),
            };
            (action, bounds)
        } else if name == "__kmpc_for_static_fini" {
            let action = owner(pos, call.function, WorkshareKind::Static)
                .map(|ws| RuntimeAction::ForFini { ws });
            (action, no_bounds)
        } else if name == "__kmpc_dispatch_deinit" {
            let action = owner(pos, call.function, WorkshareKind::Dispatch)
                .map(|ws| RuntimeAction::ForFini { ws });
            (action, no_bounds)
        } else if name == "__kmpc_barrier" {
            (Some(RuntimeAction::Barrier), no_bounds)
        } else {
            (None, no_bounds)
        };
        if let Some(action) = action {
            runtime_calls.push(RuntimeCall {
                call: call.inst,
                action,
                bounds,
            });
        }
    }
    (workshares, runtime_calls)
}

/// Best effort: the loop a worksharing init drives.
///
/// A construct's loops run after its init and before the next construct boundary (another init,
/// `__kmpc_for_static_fini`, `__kmpc_dispatch_deinit` or a barrier; see [`is_construct_boundary`]),
/// so the candidates are the loops of the init's function that do not contain the init and
/// whose header the init dominates with no boundary call in between (the init is the nearest
/// dominating boundary). Block layout says nothing here: flang's OpenMPIRBuilder appends the
/// bodies of a function's loops after their exits, so a later construct's loop can come before
/// an earlier one's.
///
/// For a dispatch init, the candidate loop that calls `__kmpc_dispatch_next_*` is the chunk
/// loop and the iteration loop is its first inner loop (flang ends a dispatch loop without a
/// boundary call, so a serial loop after it is a candidate too, and must not win by being
/// outermost). Otherwise, or when that finds nothing, the outermost, earliest candidate that
/// calls no `__kmpc_dispatch_next_*` is taken; with vectorised `-O2` code this is the first of
/// the vector/remainder loops. When dominance finds no candidate, the older layout rule decides:
/// the outermost, earliest loop whose header comes at or after the init's block.
fn find_workshare_loop(
    layout: &ModuleLayout<'_>,
    init_pos: usize,
    kind: WorkshareKind,
    boundaries: &[usize],
    dominators: &Dominators,
) -> Option<u32> {
    let init = &layout.calls[init_pos];
    let info = &layout.functions[init.function as usize];
    let local = |call: &CallSite<'_>| (call.block - info.first_block) as usize;
    let init_local = local(init);
    let next_blocks: HashSet<usize> = layout
        .calls
        .iter()
        .filter(|c| {
            c.function == init.function && c.callee_name.starts_with("__kmpc_dispatch_next_")
        })
        .map(local)
        .collect();
    // Boundaries the init dominates: calls after it in its own block, or in blocks it dominates.
    let later: Vec<usize> = boundaries
        .iter()
        .filter(|&&pos| pos != init_pos && layout.calls[pos].function == init.function)
        .map(|&pos| (pos, local(&layout.calls[pos])))
        .filter(|&(pos, b)| {
            if b == init_local {
                pos > init_pos
            } else {
                dominators.dominates(init_local, b)
            }
        })
        .map(|(_, b)| b)
        .collect();
    let loops = &info.loops.loops;
    let calls_next = |l: usize| loops[l].blocks.iter().any(|b| next_blocks.contains(b));
    let outermost_earliest = |ids: &mut dyn Iterator<Item = usize>| {
        ids.min_by_key(|&l| (loops[l].depth, loops[l].header))
    };
    let candidates: Vec<usize> = (0..loops.len())
        .filter(|&l| !loops[l].contains(init_local))
        .filter(|&l| {
            let header = loops[l].header;
            dominators.dominates(init_local, header)
                && !later.iter().any(|&b| dominators.dominates(b, header))
        })
        .collect();
    let found = if candidates.is_empty() {
        outermost_earliest(
            &mut (0..loops.len())
                .filter(|&l| loops[l].header >= init_local && !loops[l].contains(init_local))
                .filter(|&l| !calls_next(l)),
        )
    } else {
        let chunk_loop = (kind == WorkshareKind::Dispatch)
            .then(|| outermost_earliest(&mut candidates.iter().copied().filter(|&l| calls_next(l))))
            .flatten();
        let iteration_loop = chunk_loop.and_then(|c| {
            outermost_earliest(
                &mut candidates
                    .iter()
                    .copied()
                    .filter(|&l| loops[l].parent == Some(c) && !calls_next(l)),
            )
        });
        iteration_loop.or_else(|| {
            outermost_earliest(&mut candidates.iter().copied().filter(|&l| !calls_next(l)))
        })
    };
    found.map(|l| info.first_loop + l as u32)
}

/// Whether a libomp call ends the region of code a preceding worksharing init drives: the init
/// of another construct, the end of a construct, or a barrier.
fn is_construct_boundary(callee: &str) -> bool {
    matches!(
        worksharing_entry(callee),
        Some(("static_init" | "dispatch_init", _))
    ) || matches!(
        callee,
        "__kmpc_for_static_fini" | "__kmpc_dispatch_deinit" | "__kmpc_barrier"
    )
}
