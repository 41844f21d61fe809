//! Traced run versus native run of the benchmark programs in `test-programs/bench/`: the same
//! source at `-O2`, built once with `clang-19` and once with `rdcc`. Prints wall-clock slowdown
//! and trace bytes per memory access and per event, in one table from one run. Two regular
//! kernels (few, long blocks), a pointer chase, and `app_mix.c`: interpreter, hash table and
//! tree code with many small blocks and calls, where block records weigh most; a C++
//! shortest-path code (inlined `std::` containers, pointer chasing); a matrix multiply sized at
//! run time (strides only the running program knows); three array kernels (STREAM, a Jacobi
//! sweep, a transpose); and a Fortran OpenMP heat solver (flang's loops, OpenMP's default of one
//! thread per CPU). Each program is also built with
//! `--rd-no-loop-runs`, so the table shows what recording constant-stride loops in runs saves,
//! side by side in the same run.
//!
//!
//! A second table says where each traced run's CPU time went, from the runtime's exit line
//! (`/proc/self/task` at exit): the busiest program thread and the busiest of the background
//! writer's workers, with the default workers (one per CPU, 2 to 8) and with eight. On a
//! machine with a CPU for every thread a traced run lasts about as long as its busiest thread,
//! so the larger of the two is what the run would take there ("bound"), measured on a machine
//! with fewer CPUs too (where the wall time is the total CPU time over the CPUs instead).
//!
//! A third table times each traced build outside its region of interest (`RDTRACE_ROI` naming
//! no function: every record goes to the thread's discard area): what a program's setup phase
//! costs when only its kernel is analysed.
//!
//! `cargo bench -p rdtools-e2e --bench trace_overhead`; `RD_BENCH_QUICK=1` shrinks the inputs
//! (about 10x) for a smoke run.

use rdtools_e2e::{program, rdcc, tools};
use rdtrace::{EventVisitor, Trace};
use std::process::Command;
use std::time::{Duration, Instant};

struct Case {
    name: &'static str,
    source: &'static str,
    defines: &'static [&'static str],
    quick: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "stencil (regular)",
        source: "bench/stencil.c",
        defines: &[],
        quick: &["-DN=1024", "-DT=3"],
    },
    Case {
        name: "matmul (regular)",
        source: "bench/matmul.c",
        defines: &[],
        quick: &["-DN=200"],
    },
    Case {
        name: "matmul, run-time n",
        source: "bench/matmul_dyn.c",
        defines: &[],
        quick: &[],
    },
    Case {
        name: "pointer chase (irregular)",
        source: "bench/pointer_chase.c",
        defines: &[],
        quick: &["-DSTEPS=10000000L"],
    },
    Case {
        name: "app mix (branchy, calls)",
        source: "bench/app_mix.c",
        defines: &[],
        quick: &[
            "-DROUNDS=1",
            "-DVM_N=5000",
            "-DKEYS=50000",
            "-DTREE_N=40000",
        ],
    },
    Case {
        name: "C++ graph (templates)",
        source: "bench/graph_paths.cpp",
        defines: &[],
        quick: &["-DNODES=20000"],
    },
    Case {
        name: "STREAM (array sweeps)",
        source: "kernels/stream.c",
        defines: &["-DN=4000000", "-DREPS=10"],
        quick: &["-DN=2000000", "-DREPS=5"],
    },
    Case {
        name: "jacobi2d (stencil)",
        source: "kernels/jacobi2d.c",
        defines: &["-DN=2000", "-DTSTEPS=10"],
        quick: &["-DN=1000", "-DTSTEPS=5"],
    },
    Case {
        name: "transpose (strided)",
        source: "kernels/transpose.c",
        defines: &["-DN=4000", "-DREPS=4"],
        quick: &["-DN=2000", "-DREPS=2"],
    },
    Case {
        name: "heat2d (Fortran, OpenMP)",
        source: "bench/heat2d.f90",
        defines: &["-cpp", "-fopenmp", "-DN=2000", "-DSTEPS=20"],
        quick: &["-cpp", "-fopenmp", "-DN=1000", "-DSTEPS=10"],
    },
];

#[derive(Default)]
struct Count {
    accesses: u64,
}

impl EventVisitor for Count {
    fn access(&mut self, _mi: u32, _addr: u64, _len: u64) {
        self.accesses += 1;
    }
}

fn time_run(cmd: &mut Command) -> (Duration, Vec<u8>) {
    let t = Instant::now();
    let out = cmd.output().expect("program runs");
    let d = t.elapsed();
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    (d, out.stdout)
}

/// CPU seconds of the busiest program thread and the busiest writer worker of one traced run
/// of `exe` with `RDTRACE_WRITERS=writers` (`None`: the default), and the workers, from the
/// runtime's exit line ("CPU s: busiest program thread P, busiest of N writer workers W").
fn busiest_threads(
    exe: &std::path::Path,
    trace: &std::path::Path,
    writers: Option<&str>,
) -> (f64, f64, usize) {
    let mut cmd = Command::new(exe);
    cmd.env("RDTRACE", trace).env_remove("RDTRACE_QUIET");
    if let Some(w) = writers {
        cmd.env("RDTRACE_WRITERS", w);
    }
    let out = cmd.output().expect("program runs");
    assert!(out.status.success(), "{cmd:?} failed");
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("rdtrace: CPU s: busiest program thread "))
        .unwrap_or_else(|| panic!("no CPU line from the runtime in {err}"));
    let words: Vec<&str> = line
        .split([' ', ',', ';'])
        .filter(|w| !w.is_empty())
        .collect();
    // "P busiest of N writer workers W ..."
    let number = |i: usize| words[i].parse::<f64>().unwrap_or_else(|_| panic!("{line}"));
    (number(0), number(6), number(3) as usize)
}

fn best_of(n: usize, mut f: impl FnMut() -> (Duration, Vec<u8>)) -> (Duration, Vec<u8>) {
    (0..n).map(|_| f()).min_by_key(|r| r.0).unwrap()
}

fn main() {
    let quick = std::env::var("RD_BENCH_QUICK").is_ok_and(|v| v != "0");
    let dir = tempfile::tempdir().unwrap();
    let _ = tools();
    println!(
        "{:<26} {:>12} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10} {:>11} {:>10}",
        "program",
        "accesses",
        "native s",
        "traced s",
        "slowdown",
        "no runs s",
        "slowdown",
        "trace MiB",
        "B/access",
        "B/event"
    );
    let mut cpu_rows = Vec::new();
    let mut outside_rows = Vec::new();
    for case in CASES {
        let defines = if quick { case.quick } else { case.defines };
        let src = program(case.source);
        let native = dir
            .path()
            .join(format!("{}-native", case.source.replace('/', "_")));
        let traced = dir
            .path()
            .join(format!("{}-traced", case.source.replace('/', "_")));
        // The native build: clang-19, clang++-19 for C++, flang-19 for Fortran.
        let compiler = if case.source.ends_with(".f90") {
            "flang-new-19"
        } else if case.source.ends_with(".cpp") {
            "clang++-19"
        } else {
            "clang-19"
        };
        let st = Command::new(compiler)
            .arg("-O2")
            .args(defines)
            .arg(&src)
            .arg("-o")
            .arg(&native)
            .status()
            .unwrap();
        assert!(st.success(), "{compiler} failed on {}", src.display());
        let mut flags = vec!["-O2"];
        flags.extend_from_slice(defines);
        if case.source.ends_with(".cpp") {
            // rdcc links like clang: C++ needs its standard library named.
            flags.push("-lstdc++");
        }
        rdcc(std::slice::from_ref(&src), &flags, &traced);
        let every_iteration = traced.with_extension("every-iteration");
        flags.push("--rd-no-loop-runs");
        rdcc(std::slice::from_ref(&src), &flags, &every_iteration);
        let trace_path = dir.path().join("t.rdtrace");
        let run = |exe: &std::path::Path| {
            time_run(
                Command::new(exe)
                    .env("RDTRACE", &trace_path)
                    .env("RDTRACE_QUIET", "1"),
            )
        };
        let (t_native, out_native) = best_of(3, || time_run(&mut Command::new(&native)));
        let (t_every, out_every) = best_of(2, || run(&every_iteration));
        let (t_traced, out_traced) = best_of(2, || run(&traced));
        assert_eq!(
            out_native, out_traced,
            "traced program must compute the same result"
        );
        assert_eq!(out_native, out_every, "so must the build without loop runs");
        let bytes = std::fs::metadata(&trace_path).unwrap().len();
        let trace = Trace::open(&trace_path).unwrap();
        let mut c = Count::default();
        for t in trace.thread_indices() {
            trace.visit_thread(t, &mut c).unwrap();
        }
        let events = trace.total_events();
        cpu_rows.push((
            case.name,
            busiest_threads(&traced, &trace_path, None),
            busiest_threads(&traced, &trace_path, Some("8")),
        ));
        let (t_outside, out_outside) = best_of(2, || {
            time_run(
                Command::new(&traced)
                    .env("RDTRACE", &trace_path)
                    .env("RDTRACE_QUIET", "1")
                    .env("RDTRACE_ROI", "rdtools_bench_no_such_function"),
            )
        });
        assert_eq!(out_native, out_outside, "and the run outside the region");
        outside_rows.push((case.name, t_native, t_outside));
        println!(
            "{:<26} {:>12} {:>9.3} {:>9.3} {:>8.1}x {:>10.3} {:>9.1}x {:>10.1} {:>11.3} {:>10.3}",
            case.name,
            c.accesses,
            t_native.as_secs_f64(),
            t_traced.as_secs_f64(),
            t_traced.as_secs_f64() / t_native.as_secs_f64(),
            t_every.as_secs_f64(),
            t_every.as_secs_f64() / t_native.as_secs_f64(),
            bytes as f64 / (1 << 20) as f64,
            bytes as f64 / c.accesses.max(1) as f64,
            bytes as f64 / events.max(1) as f64,
        );
    }
    println!(
        "(targets: slowdown <= 10x on every program and <= 5x on stencil, <= 2 bytes per access on the regular programs)"
    );
    println!();
    println!(
        "{:<26} {:>8} {:>10} {:>10} {:>8} {:>8} {:>10} {:>10} {:>8}",
        "CPU s of busiest threads",
        "workers",
        "program",
        "writer",
        "bound",
        "workers",
        "program",
        "writer",
        "bound"
    );
    for (name, default, eight) in cpu_rows {
        let cells =
            |(p, w, n): (f64, f64, usize)| format!("{n:>8} {p:>10.2} {w:>10.2} {:>8.2}", p.max(w));
        println!("{name:<26} {} {}", cells(default), cells(eight));
    }
    println!(
        "(default workers, then RDTRACE_WRITERS=8; bound: the busiest thread, what the traced run would take with a CPU for every thread)"
    );
    println!();
    println!(
        "{:<26} {:>9} {:>12} {:>9}",
        "outside the region", "native s", "outside s", "slowdown"
    );
    for (name, native, outside) in outside_rows {
        let (n, o) = (native.as_secs_f64(), outside.as_secs_f64());
        println!("{name:<26} {n:>9.3} {o:>12.3} {:>8.1}x", o / n);
    }
    println!("(the traced build with RDTRACE_ROI naming no function: nothing recorded)");
}
