//! End to end for the region of interest (issue 25, part 4).
//!
//! `test-programs/roi/roi_kernel.c` spends most of its run in `setup()` (2 * SETUP_REPS * N =
//! 32768 stores, four times the kernel), then runs `kernel()` (one `parallel for`: N loads of
//! `a` and N stores of `b`, N = 4096) and a serial checksum (N loads). Traced with
//! `RDTRACE_ROI=kernel`, or built with `-DUSE_MARKERS` (the `RDTRACE_START()`/`RDTRACE_STOP()`
//! markers of `rdtrace.h` around the call), at 1 and 4 threads:
//! - the output equals the native build's (the markers build natively too: they compile to
//!   nothing without rdcc);
//! - the kernel line holds exactly N loads and N stores, the setup and checksum lines none, and
//!   nothing else is recorded but the outlined body's few accesses to its own loop bounds;
//! - `check` finds no violation (every traced run goes through it), `info` says what the trace
//!   holds;
//! - `predict` at 1 core equals `measure` of the 1-thread ROI trace, count for count, and the
//!   model's 4-core L1 rate from the 1-thread ROI trace is within 2 points of the measured
//!   4-thread ROI run.
//!
//! Also: C++ and Fortran functions named the way their sources name them, and a name that
//! selects nothing warns and records nothing.

use rdtools_e2e::{
    counts, line_of, mem_instrs_at, program, rda_report, rda_report_json, rdcc, run_traced, tools,
    workspace,
};
use rdtrace::Trace;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SRC: &str = "roi/roi_kernel.c";
const N: usize = 4096;
const SETUP_REPS: usize = 4;

/// How the region of interest is selected.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Select {
    /// `RDTRACE_ROI=kernel`, plain build.
    Env,
    /// `-DUSE_MARKERS`: the markers around the call.
    Markers,
    /// Neither: the whole run.
    Whole,
}

fn native_output(dir: &Path) -> String {
    let exe = dir.join("native");
    let include = workspace().join("runtime/include");
    let include = include.to_str().unwrap();
    build(
        Path::new("clang-19"),
        SRC,
        &["-fopenmp", "-O1", "-DUSE_MARKERS", "-I", include],
        &exe,
    );
    let run = Command::new(&exe)
        .env("OMP_NUM_THREADS", "2")
        .output()
        .unwrap();
    assert!(run.status.success());
    String::from_utf8(run.stdout).unwrap()
}

/// Builds and traces the program; returns the trace path and the program's stdout and stderr.
fn traced(dir: &Path, select: Select, threads: usize) -> (PathBuf, String, String) {
    let name = format!("{select:?}-{threads}");
    let exe = dir.join(&name);
    let mut flags = vec!["-fopenmp", "-O1"];
    if select == Select::Markers {
        flags.push("-DUSE_MARKERS");
    }
    rdcc(&[program(SRC)], &flags, &exe);
    let trace = dir.join(format!("{name}.rdtrace"));
    let t = threads.to_string();
    let mut env = vec![("OMP_NUM_THREADS", t.as_str())];
    if select == Select::Env {
        env.push(("RDTRACE_ROI", "kernel"));
    }
    let out = run_traced(&exe, &trace, &env);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        trace,
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Recorded accesses of the memory instructions at the line of `SRC` containing `needle`.
fn accesses_at(trace: &Trace, needle: &str) -> usize {
    let c = counts(trace);
    mem_instrs_at(trace, "roi_kernel.c", line_of(SRC, needle))
        .iter()
        .map(|mi| c.accesses.get(mi).map_or(0, Vec::len))
        .sum()
}

fn total_accesses(trace: &Trace) -> usize {
    counts(trace).accesses.values().map(Vec::len).sum()
}

#[test]
fn the_trace_holds_exactly_the_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let native = native_output(dir.path());
    assert!(native.starts_with("checksum "), "{native}");

    // The whole run, for scale: the setup is four times the kernel.
    let (whole, out, _) = traced(dir.path(), Select::Whole, 4);
    assert_eq!(out, native);
    let whole = Trace::open(&whole).unwrap();
    assert!(whole.roi.is_none());
    assert_eq!(accesses_at(&whole, "setup store a"), SETUP_REPS * N);
    assert_eq!(accesses_at(&whole, "setup store b"), SETUP_REPS * N);
    assert_eq!(accesses_at(&whole, "kernel access"), 2 * N);
    assert_eq!(accesses_at(&whole, "checksum load"), N);

    for select in [Select::Env, Select::Markers] {
        for threads in [1, 4] {
            let what = format!("{select:?} at {threads} threads");
            let (path, out, _) = traced(dir.path(), select, threads);
            assert_eq!(out, native, "{what}");
            let trace = Trace::open(&path).unwrap();
            let roi = trace
                .roi
                .as_ref()
                .unwrap_or_else(|| panic!("{what}: no ROI"));
            match select {
                Select::Env => assert_eq!(roi.functions, vec!["kernel"], "{what}"),
                _ => assert!(roi.markers && roi.functions.is_empty(), "{what}"),
            }
            assert_eq!(accesses_at(&trace, "kernel access"), 2 * N, "{what}");
            assert_eq!(accesses_at(&trace, "setup store a"), 0, "{what}");
            assert_eq!(accesses_at(&trace, "setup store b"), 0, "{what}");
            assert_eq!(accesses_at(&trace, "checksum load"), 0, "{what}");
            // Besides the kernel line: the outlined body's loads of its bounds and arguments,
            // a handful per thread.
            let other = total_accesses(&trace) - 2 * N;
            assert!(
                other <= 16 * threads,
                "{what}: {other} accesses besides the kernel"
            );
            // Every recorded thread ran the kernel (threads that never record do not appear).
            assert_eq!(trace.threads.len(), threads, "{what}");

            let info = rda_report_json(&["info", path.to_str().unwrap(), "--json"]);
            let r = &info["region_of_interest"];
            assert_eq!(
                r["markers"],
                Value::Bool(select == Select::Markers),
                "{info}"
            );
            if select == Select::Env {
                assert_eq!(
                    r["selected_functions"],
                    serde_json::json!(["kernel", "kernel.omp_outlined"]),
                    "{info}"
                );
            }
            let (ok, text, _) = rda_report(&["info", path.to_str().unwrap()]);
            assert!(ok && text.contains("region of interest"), "{text}");
        }
    }
}

use rdtools_e2e::count as int;

#[test]
fn predict_on_the_roi_trace_equals_and_models_measure() {
    let dir = tempfile::tempdir().unwrap();
    let (one, _, _) = traced(dir.path(), Select::Env, 1);
    let one = one.to_str().unwrap();
    let predicted = rda_report_json(&["predict", one, "--cores", "1", "--json"]);
    let p = &predicted[0]["per_core"][0];
    let measured = rda_report_json(&["measure", one, "--json"]);
    let m = &measured["per_thread"][0];
    for key in ["references", "l1_hits", "l2_accesses", "l2_hits"] {
        assert_eq!(int(p, key), int(m, key), "{key}: predict {p} measure {m}");
    }
    assert!(int(p, "references") >= 2 * N as u64);

    // Parallel sections inside the ROI: the model mimics 4 cores from the 1-thread ROI trace.
    let (four, _, _) = traced(dir.path(), Select::Env, 4);
    let predicted = rda_report_json(&["predict", one, "--cores", "4", "--json"]);
    let measured = rda_report_json(&["measure", four.to_str().unwrap(), "--json"]);
    let (p, m) = (
        predicted[0]["l1_hit"].as_f64().unwrap(),
        measured["l1_hit"].as_f64().unwrap(),
    );
    assert!(
        (p - m).abs() < 0.02,
        "4 cores: predicted L1 {p}, measured {m}"
    );
}

/// Recorded accesses per source line of `file` (a file name), for the lines containing each
/// needle of `src`.
fn line_counts(trace: &Path, src: &str, needles: &[&str]) -> Vec<usize> {
    let t = Trace::open(trace).unwrap();
    let c = counts(&t);
    let file = Path::new(src).file_name().unwrap().to_str().unwrap();
    needles
        .iter()
        .map(|needle| {
            mem_instrs_at(&t, file, line_of(src, needle))
                .iter()
                .map(|mi| c.accesses.get(mi).map_or(0, Vec::len))
                .sum()
        })
        .collect()
}

/// Runs `exe` traced into `trace` with `roi` (none: the whole run) and 4 threads.
fn run_roi(exe: &Path, trace: &Path, roi: Option<&str>) {
    let mut env = vec![("OMP_NUM_THREADS", "4")];
    if let Some(r) = roi {
        env.push(("RDTRACE_ROI", r));
    }
    let out = run_traced(exe, trace, &env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn build(driver: &Path, src: &str, flags: &[&str], exe: &Path) {
    let out = Command::new(driver)
        .args(flags)
        .arg(program(src))
        .arg("-o")
        .arg(exe)
        .current_dir(exe.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn cxx_and_fortran_functions_are_named_as_in_their_sources() {
    let dir = tempfile::tempdir().unwrap();
    // C++: `sim::Particles::step` (inlined into main at -O2: its parallel region, written in
    // it, is what runs of it), by its qualified and by its own name. The STEP line's accesses
    // are all the whole run's; the constructor's and the reductions' are gone.
    const CXX: &str = "cxx/particles.cpp";
    let lines = ["/* STEP */", "/* INIT_X */", "/* SUM */"];
    let exe = dir.path().join("particles");
    build(&tools().rdcxx, CXX, &["-fopenmp", "-O2"], &exe);
    let whole = dir.path().join("whole.rdtrace");
    run_roi(&exe, &whole, None);
    let all = line_counts(&whole, CXX, &lines);
    assert!(all.iter().all(|&n| n > 0), "{all:?}");
    for name in ["sim::Particles::step", "step"] {
        let trace = dir.path().join("p.rdtrace");
        run_roi(&exe, &trace, Some(name));
        assert_eq!(line_counts(&trace, CXX, &lines), [all[0], 0, 0], "{name}");
    }

    // Fortran: a module procedure by its own name. Its loop's accesses are the whole run's;
    // init's, summary's and the main program's whole-array copy are gone.
    const F90: &str = "fortran/heat.f90";
    let lines = [
        "v(i) = 0.25_dp",
        "u(i) = real(mod(7 * i, 64), dp)",
        "total = total + u(i)",
        "    b = a",
    ];
    let exe = dir.path().join("heat");
    build(&tools().rdflang, F90, &["-fopenmp", "-O1"], &exe);
    let whole = dir.path().join("heat-whole.rdtrace");
    run_roi(&exe, &whole, None);
    let all = line_counts(&whole, F90, &lines);
    assert!(all.iter().all(|&n| n > 0), "{all:?}");
    let trace = dir.path().join("heat.rdtrace");
    run_roi(&exe, &trace, Some("step"));
    assert_eq!(line_counts(&trace, F90, &lines), [all[0], 0, 0, 0]);
}

#[test]
fn a_name_that_selects_nothing_warns_and_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("k");
    rdcc(&[program(SRC)], &["-fopenmp", "-O1"], &exe);
    let trace = dir.path().join("k.rdtrace");
    let out = Command::new(&exe)
        .env("RDTRACE", &trace)
        .env("RDTRACE_ROI", "kernl")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no function of the program is named kernl"),
        "{stderr}"
    );
    let t = Trace::open(&trace).unwrap();
    assert_eq!(total_accesses(&t), 0);
    let info = rda_report_json(&["info", trace.to_str().unwrap(), "--json"]);
    assert_eq!(
        info["region_of_interest"]["selected_functions"],
        serde_json::json!([])
    );
    // Analyses read it like any other trace.
    let (ok, _, err) = rda_report(&["histogram", trace.to_str().unwrap()]);
    assert!(ok, "{err}");
}
