//! The pass on real flang-19 `-fopenmp` output (`omp_fortran.f90` compiled at `-O0 -g` and
//! `-O2 -g`): OpenMP regions and worksharing loops as flang's OpenMPIRBuilder lowers them,
//! source lines where flang leaves instructions without one, shared/private classes, and the
//! ranged accesses recorded around `_FortranAAssign`, the runtime call flang lowers whole-array
//! assignments to.

mod common;

use std::process::Command;

use common::*;
use inkwell::context::Context;
use inkwell::module::Linkage;
use inkwell::values::InstructionOpcode;
use rdpass::{instrument_module, PassConfig};
use rdtrace::abi;
use rdtrace::meta::{AccessKind, ModuleMeta, VarClass, WorkshareKind};
use rdtrace::Schedule;

const INPUTS: [&str; 2] = ["omp_fortran_O0.ll", "omp_fortran_O2.ll"];
const OUTLINED: [&str; 4] = [
    "_QMkernelsPscale..omp_par",
    "_QMkernelsPdyn..omp_par",
    "_QMkernelsPtotal..omp_par",
    "_QMkernelsPphases..omp_par",
];
/// The helper the pass defines to turn a descriptor into ranged accesses.
const ARRAY_ACCESS_HELPER: &str = "__rdt_fortran_array_access";

/// The line of `omp_fortran.f90` that contains `needle`.
fn line(needle: &str) -> u32 {
    let text = std::fs::read_to_string(ir_path("omp_fortran.f90")).unwrap();
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in omp_fortran.f90")) as u32
        + 1
}

/// `(kind, class)` of the memory instructions on `line`, in parallel code or not.
fn accesses_at(m: &ModuleMeta, line: u32, parallel: bool) -> Vec<(AccessKind, VarClass)> {
    m.mem_instrs
        .iter()
        .filter(|mi| m.blocks[mi.block as usize].parallel == parallel)
        .filter(|mi| mi.loc.is_some_and(|l| l.line == line))
        .map(|mi| (mi.kind, mi.class))
        .collect()
}

#[test]
fn instrumented_flang_modules_verify_and_compile() {
    let dir = tempfile::tempdir().unwrap();
    let clang = Command::new("clang-19").arg("--version").output().is_ok();
    for name in INPUTS {
        for inline_records in [false, true] {
            let ctx = Context::create();
            let module = load(&ctx, name);
            let cfg = PassConfig {
                inline_records,
                ..PassConfig::default()
            };
            instrument_module(&module, &cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
            module
                .verify()
                .unwrap_or_else(|e| panic!("{name}: {}", e.to_string()));
            if !clang {
                eprintln!("clang-19 not found: skipping the compile check");
                continue;
            }
            let bc = dir.path().join(format!("{name}.{inline_records}.bc"));
            assert!(module.write_bitcode_to_path(&bc));
            let out = Command::new("clang-19")
                .arg("-c")
                .arg(&bc)
                .arg("-o")
                .arg(dir.path().join("out.o"))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn instrumenting_twice_gives_identical_bitcode() {
    for name in INPUTS {
        let bitcode = || {
            let ctx = Context::create();
            let (module, _) = instrument(&ctx, name);
            module.write_bitcode_to_memory().as_slice().to_vec()
        };
        assert!(bitcode() == bitcode(), "{name}");
    }
}

#[test]
fn outlined_and_parallel_functions() {
    for name in INPUTS {
        let ctx = Context::create();
        let (_, report) = instrument(&ctx, name);
        for f in &report.meta.functions {
            let outlined = OUTLINED.contains(&f.name.as_str());
            assert_eq!(f.outlined, outlined, "{name}: {}", f.name);
            // The reduction callback handed to `__kmpc_reduce` runs on the team's threads.
            let parallel = outlined || f.name == ".omp.reduction.func";
            assert_eq!(f.parallel, parallel, "{name}: {}", f.name);
        }
    }
}

#[test]
fn regions_and_fork_hooks() {
    for name in INPUTS {
        let input_ctx = Context::create();
        let input = load(&input_ctx, name);
        let forks = count_calls(&input, "__kmpc_fork_call");
        let ctx = Context::create();
        let (module, report) = instrument(&ctx, name);
        let m = &report.meta;
        let outlined: Vec<&str> = m
            .regions
            .iter()
            .map(|r| m.functions[r.outlined_function as usize].name.as_str())
            .collect();
        assert_eq!(outlined, OUTLINED, "{name}");
        for r in &m.regions {
            let fork_fn = &m.functions[m.blocks[r.fork_block as usize].function as usize];
            assert!(!fork_fn.parallel, "{name}: forked from serial code");
            assert!(r.loc.is_some(), "{name}: fork location");
            // The OpenMPIRBuilder passes the shared variables in one struct.
            assert_eq!(r.shared_args.len(), 1, "{name}");
        }
        assert_eq!(count_calls(&module, abi::OMP_FORK), forks, "{name}");
        assert_eq!(count_calls(&module, abi::OMP_JOIN), forks, "{name}");
        for f in OUTLINED {
            assert_eq!(
                count_calls_in(&module, f, abi::OMP_REGION_ENTER),
                1,
                "{name}: {f}"
            );
            let rets = module
                .get_function(f)
                .unwrap()
                .get_basic_blocks()
                .iter()
                .filter(|bb| bb.get_terminator().unwrap().get_opcode() == InstructionOpcode::Return)
                .count();
            assert_eq!(
                count_calls_in(&module, f, abi::OMP_REGION_EXIT),
                rets,
                "{name}: {f}"
            );
        }
    }
}

/// Regression test for flang's block layout: its OpenMPIRBuilder appends every loop body after
/// the code that follows the loop, so in `phases` the static chunked construct's loop comes
/// before the guided one's iteration loop, and the loop after an init in layout order is
/// another construct's. Each worksharing loop's loop (and location) must lie in its construct.
#[test]
fn worksharing_loops_static_dynamic_guided_and_chunked() {
    // (first line, last line) of each construct, from its directive to its `end do`.
    let span = |directive: &str, body: &str| {
        let first = line(directive);
        let body = line(body);
        (first, body + 1)
    };
    let constructs = [
        span("!$omp parallel do schedule(static)", "a(i) = a(i) * f"),
        span(
            "!$omp parallel do schedule(dynamic, 4)",
            "a(i) = a(i) + b(i)",
        ),
        span("!$omp parallel do reduction(+:s)", "s = s + a(i)"),
        span("!$omp do schedule(guided)", "b(i) = t + 1"),
        span("!$omp do schedule(static, 8)", "a(i) = b(i) - a(i)"),
    ];
    let nonmonotonic = |s: Schedule| Some(s.nonmonotonic().0);
    for name in INPUTS {
        let input_ctx = Context::create();
        let input = load(&input_ctx, name);
        let ctx = Context::create();
        let (module, report) = instrument(&ctx, name);
        let m = &report.meta;
        let kinds: Vec<WorkshareKind> = m.workshares.iter().map(|w| w.kind).collect();
        use WorkshareKind::{Dispatch, Static};
        assert_eq!(
            kinds,
            [Static, Dispatch, Static, Dispatch, Static],
            "{name}"
        );
        let schedules: Vec<Option<i32>> = m.workshares.iter().map(|w| w.schedule).collect();
        assert_eq!(
            schedules,
            [
                Some(Schedule::STATIC.0),
                nonmonotonic(Schedule::DYNAMIC_CHUNKED),
                Some(Schedule::STATIC.0),
                nonmonotonic(Schedule::GUIDED_CHUNKED),
                Some(Schedule::STATIC_CHUNKED.0),
            ],
            "{name}"
        );
        assert_eq!(m.workshares[1].chunk, Some(4), "{name}");
        assert_eq!(m.workshares[4].chunk, Some(8), "{name}");
        for (w, &(first, last)) in m.workshares.iter().zip(&constructs) {
            assert!(m.functions[w.function as usize].parallel, "{name}");
            let l = w.loop_id.expect("the worksharing loop is found");
            let lp = &m.loops[l as usize];
            assert_eq!(lp.function, w.function, "{name}");
            let in_construct = |loc: Option<rdtrace::meta::SourceLoc>| {
                loc.is_some_and(|loc| (first..=last).contains(&loc.line))
            };
            assert!(
                in_construct(lp.loc),
                "{name}: loop at {:?}, construct {first}..={last}",
                lp.loc
            );
            assert!(
                in_construct(w.loc),
                "{name}: init at {:?}, construct {first}..={last}",
                w.loc
            );
        }
        // Dispatch loops: the chosen loop runs one chunk's iterations, inside the chunk loop.
        for w in [&m.workshares[1], &m.workshares[3]] {
            let lp = &m.loops[w.loop_id.unwrap() as usize];
            assert!(lp.parent.is_some(), "{name}: inside the chunk loop");
        }

        assert_eq!(count_calls(&module, abi::OMP_FOR_INIT), 5, "{name}");
        assert_eq!(
            count_calls(&module, abi::OMP_DISPATCH_NEXT),
            count_calls(&input, "__kmpc_dispatch_next_4u"),
            "{name}"
        );
        // flang ends dispatch loops without `__kmpc_dispatch_deinit`: only static loops have a
        // fini (the trace then ends a dispatch loop with its last `WorkshareNext`).
        assert_eq!(count_calls(&input, "__kmpc_dispatch_deinit"), 0, "{name}");
        assert_eq!(
            count_calls(&module, abi::OMP_FOR_FINI),
            count_calls(&input, "__kmpc_for_static_fini"),
            "{name}"
        );
        assert_eq!(
            count_calls(&module, abi::OMP_BARRIER),
            count_calls(&input, "__kmpc_barrier"),
            "{name}"
        );
    }
}

#[test]
fn hooks_follow_the_libomp_calls_they_report() {
    for name in INPUTS {
        let ctx = Context::create();
        let (module, _) = instrument(&ctx, name);
        let insts = instructions(&module);
        let after = |runtime: &str, hook: &str| {
            let mut seen = 0;
            for (i, inst) in insts.iter().enumerate() {
                if callee_name(*inst).as_deref() == Some(runtime) {
                    seen += 1;
                    let next_hook = insts[i + 1..]
                        .iter()
                        .filter_map(|&n| callee_name(n))
                        .find(|n| n.starts_with("__rdt_") || n.starts_with("__kmpc_"));
                    assert_eq!(next_hook.as_deref(), Some(hook), "{name}: after {runtime}");
                }
            }
            assert!(seen > 0, "{name}: no {runtime}");
        };
        // flang calls the unsigned (`4u`) entry points.
        after("__kmpc_for_static_init_4u", abi::OMP_FOR_INIT);
        after("__kmpc_dispatch_init_4u", abi::OMP_FOR_INIT);
        after("__kmpc_dispatch_next_4u", abi::OMP_DISPATCH_NEXT);
        after("__kmpc_for_static_fini", abi::OMP_FOR_FINI);
        after("__kmpc_barrier", abi::OMP_BARRIER);
        after("__kmpc_fork_call", abi::OMP_JOIN);
    }
}

#[test]
fn shared_arrays_through_the_struct_argument_and_private_locals() {
    for name in INPUTS {
        let ctx = Context::create();
        let (_, report) = instrument(&ctx, name);
        let m = &report.meta;
        // scale(): `a(i) = a(i) * f`, the array reached through the descriptor pointer that
        // the outlined function loads from its struct argument.
        let scale = accesses_at(m, line("a(i) = a(i) * f"), true);
        assert!(
            scale.contains(&(AccessKind::Load, VarClass::Shared))
                && scale.contains(&(AccessKind::Store, VarClass::Shared)),
            "{name}: {scale:?}"
        );
        assert!(
            scale
                .iter()
                .all(|&(k, c)| k == AccessKind::Load || c == VarClass::Shared),
            "{name}: the only store is to the shared array: {scale:?}"
        );
        // total(): the reduction's private copy lives in an alloca of the outlined function.
        let total = accesses_at(m, line("s = s + a(i)"), true);
        assert!(
            total.contains(&(AccessKind::Load, VarClass::Shared)),
            "{name}: a(i): {total:?}"
        );
        assert!(
            total.contains(&(AccessKind::Store, VarClass::Private)),
            "{name}: private copy of s: {total:?}"
        );
        let explain = report
            .explain
            .iter()
            .find(|l| l.contains("omp_fortran.f90") && l.contains("shared variable argument"))
            .expect("an access through the struct argument");
        assert!(explain.contains("..omp_par"), "{explain}");
    }
    // `t`, private in `phases`, is an alloca of the outlined function at -O0 (a register at -O2).
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "omp_fortran_O0.ll");
    let t = accesses_at(&report.meta, line("t = a(i) * 2"), true);
    assert!(t.contains(&(AccessKind::Store, VarClass::Private)), "{t:?}");
}

/// flang attaches no location to much of the code its OpenMPIRBuilder writes (loop control,
/// the reduction); the pass gives those instructions the location of the code that dominates
/// them, so only the reduction callback, which has no debug info at all, stays without one.
#[test]
fn every_memory_instruction_has_a_source_line() {
    for name in INPUTS {
        let ctx = Context::create();
        let (_, report) = instrument(&ctx, name);
        let m = &report.meta;
        for (i, mi) in m.mem_instrs.iter().enumerate() {
            let f = &m.functions[m.blocks[mi.block as usize].function as usize];
            if f.name == ".omp.reduction.func" {
                continue;
            }
            assert!(
                mi.loc.is_some_and(|l| l.line > 0),
                "{name}: mi {i} in {} has no line",
                f.name
            );
        }
        assert_eq!(m.files, ["omp_fortran.f90"], "{name}");
        // flang names every module `FIRModule`; the source file names it instead.
        assert_eq!(m.name, "omp_fortran.f90", "{name}");
        assert!(m.loops.iter().all(|l| l.loc.is_some()), "{name}");
        assert!(m.workshares.iter().all(|w| w.loc.is_some()), "{name}");
    }
}

#[test]
fn whole_array_assignments_are_ranged_accesses() {
    for name in INPUTS {
        let input_ctx = Context::create();
        let input = load(&input_ctx, name);
        let assigns = count_calls(&input, "_FortranAAssign");
        assert!(
            assigns >= 3,
            "{name}: x = y, y = x(100:1:-1), p = matmul(...)"
        );
        let ctx = Context::create();
        let (module, report) = instrument(&ctx, name);
        let m = &report.meta;
        for needle in ["x = y", "y = x(100:1:-1)"] {
            let at = accesses_at(m, line(needle), false);
            let transfers: Vec<_> = at
                .iter()
                .filter(|(k, _)| matches!(k, AccessKind::TransferRead | AccessKind::TransferWrite))
                .collect();
            assert_eq!(
                transfers,
                [
                    &(AccessKind::TransferRead, VarClass::Shared),
                    &(AccessKind::TransferWrite, VarClass::Shared)
                ],
                "{name}: {needle}"
            );
        }
        assert!(m
            .mem_instrs
            .iter()
            .filter(|mi| mi.kind == AccessKind::TransferWrite)
            .all(|mi| mi.size == 0 && !mi.vector));

        // One helper call per side of each assignment: the source before the call, the
        // destination after it (the runtime may allocate it).
        let helper = module.get_function(ARRAY_ACCESS_HELPER).expect("helper");
        assert_eq!(helper.get_linkage(), Linkage::Internal);
        assert_eq!(
            count_calls(&module, ARRAY_ACCESS_HELPER),
            2 * assigns,
            "{name}"
        );
        let insts = instructions(&module);
        for (i, inst) in insts.iter().enumerate() {
            if callee_name(*inst).as_deref() != Some("_FortranAAssign") {
                continue;
            }
            let calls = |range: &mut dyn Iterator<Item = &inkwell::values::InstructionValue>| {
                range
                    .filter_map(|&n| callee_name(n))
                    .find(|n| !n.starts_with("llvm.") && n != abi::CHECK)
            };
            assert_eq!(
                calls(&mut insts[..i].iter().rev()).as_deref(),
                Some(ARRAY_ACCESS_HELPER),
                "{name}: before the call"
            );
            assert_eq!(
                calls(&mut insts[i + 1..].iter()).as_deref(),
                Some(ARRAY_ACCESS_HELPER),
                "{name}: after the call"
            );
        }

        // MATMUL stays a runtime call whose traffic is not recorded, and explain says so.
        let matmul = report
            .explain
            .iter()
            .find(|l| l.contains("_FortranAMatmulReal8Real8"))
            .expect("explain line for MATMUL");
        assert!(matmul.contains("not traced"), "{matmul}");
    }
}
