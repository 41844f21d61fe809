//! OpenMP recognition and shared/private classification on real clang-19 `-fopenmp` output
//! (`omp_loops.c` compiled at `-O0 -g` and `-O2 -g`).

mod common;

use common::*;
use inkwell::context::Context;
use inkwell::values::InstructionOpcode;
use rdtrace::abi;
use rdtrace::meta::{AccessKind, ModuleMeta, VarClass, WorkshareKind};

const OMP_INPUTS: [&str; 2] = ["omp_loops_O0.ll", "omp_loops_O2.ll"];
const OUTLINED: [&str; 4] = [
    "scale.omp_outlined",
    "dyn.omp_outlined",
    "sum.omp_outlined",
    "phases.omp_outlined",
];

/// libomp `kmp_sch_static`, and `kmp_sch_dynamic_chunked` with the nonmonotonic modifier bit
/// that clang sets for `schedule(dynamic, 4)` (OpenMP 5 default).
const SCHED_STATIC: i32 = rdtrace::Schedule::STATIC.0;
const SCHED_DYNAMIC_NONMONOTONIC: i32 = rdtrace::Schedule::DYNAMIC_CHUNKED.nonmonotonic().0;

#[test]
fn outlined_and_parallel_functions() {
    for name in OMP_INPUTS {
        let ctx = Context::create();
        let (_, report) = instrument(&ctx, name);
        for f in &report.meta.functions {
            let outlined = OUTLINED.contains(&f.name.as_str());
            assert_eq!(f.outlined, outlined, "{name}: {}", f.name);
            // Everything clang derived from an outlined region (the -O0 `_debug__` body, the
            // reduction callback) runs in parallel; the serial callers do not.
            let parallel = f.name.contains(".omp_outlined");
            assert_eq!(f.parallel, parallel, "{name}: {}", f.name);
        }
        let parallel_blocks = report.meta.blocks.iter().filter(|b| b.parallel).count();
        assert!(parallel_blocks > 0);
    }
}

#[test]
fn regions_and_fork_hooks() {
    for name in OMP_INPUTS {
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
        assert_eq!(
            outlined, OUTLINED,
            "{name}: one region per outlined function, in fork order"
        );
        let shared: Vec<usize> = m.regions.iter().map(|r| r.shared_args.len()).collect();
        assert_eq!(
            shared,
            vec![3, 3, 3, 2],
            "{name}: (n, a, f), (n, a, b), (n, s, a), (hist, n)"
        );
        for r in &m.regions {
            let fork_fn = &m.functions[m.blocks[r.fork_block as usize].function as usize];
            assert!(!fork_fn.parallel, "{name}: forked from serial code");
            assert!(r.loc.is_some(), "{name}: fork location");
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
            // One query per region entry, besides the program's own calls.
            let own = count_calls_in(&input, f, "omp_get_thread_num");
            assert_eq!(
                count_calls_in(&module, f, "omp_get_thread_num"),
                own + 1,
                "{name}: {f}"
            );
            assert_eq!(
                count_calls_in(&module, f, "omp_get_num_threads"),
                1,
                "{name}: {f}"
            );
        }
    }
}

#[test]
fn region_enter_precedes_the_entry_block_event() {
    let ctx = Context::create();
    let (module, _) = instrument(&ctx, "omp_loops_O0.ll");
    for f in OUTLINED {
        let entry = module
            .get_function(f)
            .unwrap()
            .get_first_basic_block()
            .unwrap();
        let hooks: Vec<String> = entry
            .get_instructions()
            .filter_map(callee_name)
            .filter(|n| n.starts_with("__rdt_"))
            .collect();
        // The region-of-interest hooks come first and last (a thread entering the region of
        // interest must record the region entry; leaving it, the region exit).
        assert_eq!(hooks[0], abi::ROI_ENTER, "{f}: {hooks:?}");
        assert_eq!(hooks[1], abi::OMP_REGION_ENTER, "{f}: {hooks:?}");
        assert_eq!(hooks[2], abi::BASIC_BLOCK, "{f}: {hooks:?}");
        assert_eq!(
            hooks[hooks.len() - 2],
            abi::OMP_REGION_EXIT,
            "{f}: {hooks:?}"
        );
        assert_eq!(hooks.last().unwrap(), abi::ROI_EXIT, "{f}: {hooks:?}");
    }
}

#[test]
fn region_enter_precedes_the_inline_block_entry() {
    // With inline records the entry block's record follows the countdown test: the entry
    // block holds the region-of-interest and region hooks, then the test, and branches to the
    // countdown hook or on to the block record.
    for name in OMP_INPUTS {
        let ctx = Context::create();
        let module = load(&ctx, name);
        let cfg = rdpass::PassConfig {
            inline_records: true,
            ..rdpass::PassConfig::default()
        };
        rdpass::instrument_module(&module, &cfg).unwrap();
        for f in OUTLINED {
            let entry = module
                .get_function(f)
                .unwrap()
                .get_first_basic_block()
                .unwrap();
            let hooks: Vec<String> = entry
                .get_instructions()
                .filter_map(callee_name)
                .filter(|n| n.starts_with("__rdt_"))
                .collect();
            assert_eq!(hooks, [abi::ROI_ENTER, abi::OMP_REGION_ENTER], "{name} {f}");
            // No record is stored before the branch (the block record comes after the hook):
            // the one store is the countdown's decrement.
            let stores = entry
                .get_instructions()
                .filter(|i| i.get_opcode() == InstructionOpcode::Store)
                .count();
            assert_eq!(stores, 1, "{name} {f}");
            let term = entry.get_terminator().unwrap();
            assert_eq!(term.get_opcode(), InstructionOpcode::Br);
            assert_eq!(term.get_num_operands(), 3, "{name} {f}");
        }
    }
}

#[test]
fn worksharing_loops_static_and_dynamic() {
    for name in OMP_INPUTS {
        let input_ctx = Context::create();
        let input = load(&input_ctx, name);
        let ctx = Context::create();
        let (module, report) = instrument(&ctx, name);
        let m = &report.meta;
        let kinds: Vec<WorkshareKind> = m.workshares.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            [
                WorkshareKind::Static,
                WorkshareKind::Dispatch,
                WorkshareKind::Static
            ]
        );
        let schedules: Vec<Option<i32>> = m.workshares.iter().map(|w| w.schedule).collect();
        let dynamic = SCHED_DYNAMIC_NONMONOTONIC;
        assert_eq!(
            schedules,
            [Some(SCHED_STATIC), Some(dynamic), Some(SCHED_STATIC)],
            "{name}"
        );
        assert_eq!(m.workshares[1].chunk, Some(4), "{name}");
        for w in &m.workshares {
            assert!(m.functions[w.function as usize].parallel, "{name}");
            assert_eq!(m.blocks[w.block as usize].function, w.function, "{name}");
            let l = w.loop_id.expect("the worksharing loop is found");
            let lp = &m.loops[l as usize];
            assert_eq!(lp.function, w.function, "{name}");
            assert!(lp.header > w.block, "{name}: the loop follows the init");
            assert!(w.loc.is_some(), "{name}");
        }
        // For the dynamic schedule the chosen loop runs the iterations of one chunk: it is
        // nested inside the dispatch loop.
        let dyn_loop = &m.loops[m.workshares[1].loop_id.unwrap() as usize];
        assert!(
            dyn_loop.parent.is_some(),
            "{name}: dynamic iteration loop is inside the chunk loop"
        );

        assert_eq!(count_calls(&module, abi::OMP_FOR_INIT), 3, "{name}");
        assert_eq!(
            count_calls(&module, abi::OMP_DISPATCH_NEXT),
            count_calls(&input, "__kmpc_dispatch_next_4"),
            "{name}"
        );
        assert_eq!(
            count_calls(&module, abi::OMP_FOR_FINI),
            count_calls(&input, "__kmpc_for_static_fini")
                + count_calls(&input, "__kmpc_dispatch_deinit"),
            "{name}"
        );
        assert_eq!(
            count_calls(&module, abi::OMP_BARRIER),
            count_calls(&input, "__kmpc_barrier"),
            "{name}"
        );
        assert!(
            count_calls(&module, abi::OMP_BARRIER) >= 1,
            "{name}: phases() has a barrier"
        );
    }
}

#[test]
fn hooks_follow_the_libomp_calls_they_report() {
    let ctx = Context::create();
    let (module, _) = instrument(&ctx, "omp_loops_O2.ll");
    let insts = instructions(&module);
    let after = |runtime: &str, hook: &str| {
        for (i, inst) in insts.iter().enumerate() {
            if callee_name(*inst).as_deref() == Some(runtime) {
                let next_hook = insts[i + 1..]
                    .iter()
                    .filter_map(|&n| callee_name(n))
                    .find(|n| n.starts_with("__rdt_") || n.starts_with("__kmpc_"));
                assert_eq!(next_hook.as_deref(), Some(hook), "after {runtime}");
            }
        }
    };
    after("__kmpc_for_static_init_4", abi::OMP_FOR_INIT);
    after("__kmpc_dispatch_init_4", abi::OMP_FOR_INIT);
    after("__kmpc_dispatch_next_4", abi::OMP_DISPATCH_NEXT);
    after("__kmpc_for_static_fini", abi::OMP_FOR_FINI);
    after("__kmpc_dispatch_deinit", abi::OMP_FOR_FINI);
    after("__kmpc_barrier", abi::OMP_BARRIER);
    after("__kmpc_fork_call", abi::OMP_JOIN);
}

/// `(kind, class)` of the memory instructions at `line:col` inside parallel code.
fn parallel_accesses_at(m: &ModuleMeta, line: u32, col: u32) -> Vec<(AccessKind, VarClass)> {
    m.mem_instrs
        .iter()
        .filter(|mi| m.blocks[mi.block as usize].parallel)
        .filter(|mi| mi.loc.is_some_and(|l| l.line == line && l.col == col))
        .map(|mi| (mi.kind, mi.class))
        .collect()
}

fn all_shared(v: &[(AccessKind, VarClass)]) -> bool {
    !v.is_empty() && v.iter().all(|&(_, c)| c == VarClass::Shared)
}

fn all_private(v: &[(AccessKind, VarClass)]) -> bool {
    !v.is_empty() && v.iter().all(|&(_, c)| c == VarClass::Private)
}

#[test]
fn shared_array_and_private_local_at_o0() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "omp_loops_O0.ll");
    let m = &report.meta;
    // scale(): `double t = a[i] * f; a[i] = t;`
    assert!(all_shared(&parallel_accesses_at(m, 13, 16)), "a[i] load");
    assert!(
        all_shared(&parallel_accesses_at(m, 13, 23)),
        "f (shared by reference)"
    );
    assert!(
        all_private(&parallel_accesses_at(m, 13, 12)),
        "t = ... store"
    );
    assert!(all_private(&parallel_accesses_at(m, 14, 12)), "t load");
    assert!(all_shared(&parallel_accesses_at(m, 14, 10)), "a[i] store");
    // dyn(): `a[i] += b[i]`; `i` itself is private.
    assert!(all_shared(&parallel_accesses_at(m, 21, 13)), "b[i]");
    assert!(all_shared(&parallel_accesses_at(m, 21, 10)), "a[i] +=");
    assert!(all_private(&parallel_accesses_at(m, 21, 15)), "i in b[i]");
    // phases(): `int local = omp_get_thread_num(); hist[local % 4] += n;` (atomic)
    assert!(all_private(&parallel_accesses_at(m, 35, 9)), "local = ...");
    let hist = parallel_accesses_at(m, 37, 5);
    assert!(
        hist.contains(&(AccessKind::AtomicRmw, VarClass::Shared)),
        "{hist:?}"
    );

    // The explain line tells how the shared class was derived.
    let line = report
        .explain
        .iter()
        .find(|l| l.contains("omp_loops.c:13:23 load shared"))
        .expect("explain line for f");
    assert!(
        line.contains("shared variable argument %4 of scale.omp_outlined"),
        "{line}"
    );
    assert!(line.contains("of scale.omp_outlined_debug__"), "{line}");
}

#[test]
fn shared_array_and_private_local_at_o2() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "omp_loops_O2.ll");
    let m = &report.meta;
    assert!(
        all_shared(&parallel_accesses_at(m, 13, 16)),
        "a[i] load (scalar and vector)"
    );
    assert!(all_shared(&parallel_accesses_at(m, 14, 10)), "a[i] store");
    let vector = m
        .mem_instrs
        .iter()
        .filter(|mi| mi.vector && m.blocks[mi.block as usize].parallel);
    assert!(vector.clone().count() > 0, "-O2 vectorises scale()");
    assert!(vector
        .clone()
        .all(|mi| mi.size == 16 && mi.class == VarClass::Shared));
    // sum(): the reduction's private copy `s` lives in an alloca of the outlined function.
    assert!(
        all_private(&parallel_accesses_at(m, 28, 7)),
        "private reduction copy"
    );
    let combine = parallel_accesses_at(m, 26, 1);
    assert!(
        combine.contains(&(AccessKind::AtomicRmw, VarClass::Shared)),
        "{combine:?}"
    );
    // The gtid load through the outlined function's first argument is private.
    assert!(report
        .explain
        .iter()
        .any(|l| l.contains("private: thread id argument %0 of scale.omp_outlined")));
}
