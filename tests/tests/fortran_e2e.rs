//! Fortran OpenMP programs end to end (issue 25, part 2): `rdcc` compiles `.f90` sources with
//! flang-19 and instruments them like C. `test-programs/fortran/heat.f90` must print what the
//! native flang build prints at 1 and 4 threads, its trace must pass the invariant checker,
//! `rda-report info` must count its parallel regions and worksharing loops, `annotate` must
//! name its source lines, and the whole-array assignment `b = a` (a `_FortranAAssign` call) must
//! be in the trace as ranged accesses. `sections.f90` checks those ranges for non-contiguous
//! sources: one per contiguous run, in element order.

use rdtools_e2e::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const HEAT: &str = "fortran/heat.f90";
const SECTIONS: &str = "fortran/sections.f90";
/// What heat.f90 prints (its header comment), whatever the number of threads.
const HEAT_OUTPUT: &str = "heat n 4096 steps 10\nchecksum 128937.596924\nhot 1917\n";
/// heat.f90's `n` and `steps`.
const N: u64 = 4096;
const STEPS: u64 = 10;

/// Builds `rel` with `rdcc flags…` into `dir/name`. Runs in `dir`, since flang writes the
/// `.mod` file of each module it compiles into the working directory.
fn build(rel: &str, flags: &[&str], dir: &Path, name: &str) -> PathBuf {
    let exe = dir.join(name);
    let out = Command::new(&tools().rdcc)
        .args(flags)
        .arg(program(rel))
        .arg("-o")
        .arg(&exe)
        .current_dir(dir)
        .output()
        .unwrap();
    success_stdout(out, &format!("rdcc {flags:?} {rel}"));
    exe
}

/// Builds `rel` into a fresh directory, runs it traced with `env`, and returns the trace, the
/// program's standard output and the directory (keep it alive).
fn build_and_trace_in_dir(
    rel: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (rdtrace::Trace, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(rel, flags, dir.path(), "prog");
    let path = dir.path().join("prog.rdtrace");
    let out = run_traced(&exe, &path, env);
    let stdout = success_stdout(out, rel);
    (rdtrace::Trace::open(&path).unwrap(), stdout, dir)
}

/// Builds `rel` natively with flang-19, as a user would without rdtools, and returns its output.
fn native_output(rel: &str, dir: &Path, threads: &str) -> String {
    let exe = dir.join("native");
    let out = Command::new("flang-new-19")
        .args(["-fopenmp", "-O2"])
        .arg(program(rel))
        .arg("-o")
        .arg(&exe)
        .current_dir(dir)
        .output()
        .expect("flang-new-19 runs");
    success_stdout(out, "flang-new-19");
    let out = Command::new(&exe)
        .env("OMP_NUM_THREADS", threads)
        .output()
        .unwrap();
    success_stdout(out, "the native build")
}

/// Ranged accesses per memory instruction, in each thread's order: `mi -> [(addr, len)]`.
#[derive(Default)]
struct Ranges(BTreeMap<u32, Vec<(u64, u64)>>);

impl rdtrace::EventVisitor for Ranges {
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.0.entry(mi).or_default().push((addr, len));
    }
}

fn ranges(trace: &rdtrace::Trace) -> Ranges {
    let mut r = Ranges::default();
    for t in trace.thread_indices() {
        trace.visit_thread(t, &mut r).unwrap();
    }
    r
}

/// The one memory instruction of `kind` on the line of `src` that contains `needle`.
fn mem_instr(
    trace: &rdtrace::Trace,
    src: &str,
    needle: &str,
    kind: rdtrace::meta::AccessKind,
) -> u32 {
    let file = Path::new(src).file_name().unwrap().to_str().unwrap();
    let ids: Vec<u32> = mem_instrs_at(trace, file, line_of(src, needle))
        .into_iter()
        .filter(|&m| trace.meta.mem_instrs[m as usize].kind == kind)
        .collect();
    assert_eq!(ids.len(), 1, "{needle} {kind:?}: {ids:?}");
    ids[0]
}

#[test]
fn fortran_makefile_flags_build_through_rdflang() {
    // What Fortran makefiles pass besides optimisation: preprocessing, the source form, a
    // module directory (flang writes heat_mod.mod there, not in the working directory),
    // implicit none. rdflang must take them as flang does: they reach flang's front end only.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("mods")).unwrap();
    let exe = dir.path().join("heat");
    let out = Command::new(&tools().rdflang)
        .args([
            "-O2",
            "-fopenmp",
            "-cpp",
            "-ffree-form",
            "-fimplicit-none",
            "-J",
            "mods",
        ])
        .arg(program(HEAT))
        .arg("-o")
        .arg(&exe)
        .current_dir(dir.path())
        .output()
        .unwrap();
    success_stdout(out, "rdflang with makefile flags");
    assert!(dir.path().join("mods/heat_mod.mod").exists());
    assert!(!dir.path().join("heat_mod.mod").exists());
    let trace = dir.path().join("heat.rdtrace");
    let out = run_traced(&exe, &trace, &[("OMP_NUM_THREADS", "2")]);
    assert_eq!(success_stdout(out, "traced heat"), HEAT_OUTPUT);
}

#[test]
fn heat_traced_output_equals_native_at_1_and_4_threads() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(HEAT, &["-fopenmp", "-O2", "-g"], dir.path(), "heat");
    for threads in ["1", "4"] {
        let native = native_output(HEAT, dir.path(), threads);
        assert_eq!(native, HEAT_OUTPUT, "native at {threads} threads");
        // run_traced also runs the invariant checker on the trace.
        let trace = dir.path().join(format!("heat{threads}.rdtrace"));
        let out = run_traced(&exe, &trace, &[("OMP_NUM_THREADS", threads)]);
        assert_eq!(
            success_stdout(out, "traced heat"),
            native,
            "{threads} threads"
        );
        let t = rdtrace::Trace::open(&trace).unwrap();
        assert_eq!(t.threads.len(), threads.parse::<usize>().unwrap());
    }
}

#[test]
fn heat_trace_checks_and_reports() {
    let (_, out, dir) = build_and_trace_in_dir(
        HEAT,
        &["-fopenmp", "-O2", "-g"],
        &[("OMP_NUM_THREADS", "4")],
    );
    assert_eq!(out, HEAT_OUTPUT);
    let trace = dir.path().join("prog.rdtrace");
    let path = trace.to_str().unwrap();

    let (ok, out, err) = rda_report(&["check", path]);
    assert!(ok, "rda-report check: {out}{err}");

    // Three parallel regions (init, step, summary), each with its worksharing loop.
    let info = rda_report_json(&["info", "--json", path]);
    let statics = &info["static_counts"];
    assert_eq!(statics["outlined_functions"], 3, "{statics}");
    assert_eq!(statics["regions"], 3, "{statics}");
    assert_eq!(statics["workshares"], 3, "{statics}");
    let events = &info["events"];
    assert_eq!(events["region_enters"], events["region_exits"], "{events}");
    assert!(events["workshare_inits"].as_u64().unwrap() >= 4 * (STEPS + 2));
    assert!(
        events["workshare_nexts"].as_u64().unwrap() > 0,
        "summary's dynamic schedule hands out chunks: {events}"
    );

    // annotate attributes accesses to lines of heat.f90: the stencil and the assignment.
    let (ok, out, err) = rda_report(&["annotate", path]);
    assert!(ok, "rda-report annotate: {err}");
    for needle in ["v(i) = 0.25_dp", "    b = a"] {
        let at = format!("heat.f90:{}", line_of(HEAT, needle));
        assert!(out.contains(&at), "{at} not in annotate:\n{out}");
    }
}

/// `b = a` runs `STEPS` times; each time the pass records `a` read and `b` written as one range
/// of `N` doubles each (both arrays are contiguous): exactly the elements the stencil wrote.
#[test]
fn heat_whole_array_assignment_is_in_the_trace() {
    use rdtrace::meta::AccessKind;
    let (trace, out, _dir) = build_and_trace_in_dir(
        HEAT,
        &["-fopenmp", "-O2", "-g"],
        &[("OMP_NUM_THREADS", "2")],
    );
    assert_eq!(out, HEAT_OUTPUT);
    let read = mem_instr(&trace, HEAT, "    b = a", AccessKind::TransferRead);
    let write = mem_instr(&trace, HEAT, "    b = a", AccessKind::TransferWrite);
    let r = ranges(&trace);
    let bytes = N * 8;
    for mi in [read, write] {
        let got = &r.0[&mi];
        assert_eq!(got.len() as u64, STEPS, "mi {mi}: one range per step");
        assert!(got.iter().all(|&(_, len)| len == bytes), "mi {mi}: {got:?}");
        let starts: std::collections::BTreeSet<u64> = got.iter().map(|&(a, _)| a).collect();
        assert_eq!(starts.len(), 1, "the same array every step: {starts:?}");
    }
    // The source is `a`, which the stencil stores to: its range covers exactly those stores
    // (plus the two ends, written in serial code).
    let stencil = mem_instr(&trace, HEAT, "v(i) = 0.25_dp", AccessKind::Store);
    let stored = &r.0[&stencil];
    let (lo, hi) = stored.iter().fold((u64::MAX, 0), |(lo, hi), &(a, len)| {
        (lo.min(a), hi.max(a + len))
    });
    let a = r.0[&read][0].0;
    assert_eq!((lo, hi), (a + 8, a + bytes - 8), "stencil stores inside a");
    assert_ne!(r.0[&write][0].0, a, "b is another array");
}

/// `a = b(1:n:2)`, `c = w(1:2, :)` and `e = b(n:1:-1)`: the source of each is one range per
/// contiguous run, in Fortran element order; the allocated destination is one range.
#[test]
fn sections_are_recorded_run_by_run() {
    use rdtrace::meta::AccessKind;
    let (trace, out, _dir) = build_and_trace_in_dir(SECTIONS, &["-O2", "-g"], &[]);
    assert_eq!(out, "sections 16.0 129.0 8.0\n");
    let r = ranges(&trace);
    let runs = |needle: &str, kind| r.0[&mem_instr(&trace, SECTIONS, needle, kind)].clone();
    let relative = |v: &[(u64, u64)]| -> Vec<(i64, u64)> {
        v.iter()
            .map(|&(a, len)| (a as i64 - v[0].0 as i64, len))
            .collect()
    };

    let strided = runs("a = b(1:n:2)", AccessKind::TransferRead);
    assert_eq!(relative(&strided), [(0, 8), (16, 8), (32, 8), (48, 8)]);
    let rows = runs("c = w(1:2, :)", AccessKind::TransferRead);
    assert_eq!(relative(&rows), [(0, 16), (32, 16), (64, 16)]);
    let reversed = runs("e = b(n:1:-1)", AccessKind::TransferRead);
    let expected: Vec<(i64, u64)> = (0..8).map(|k| (-8 * k, 8)).collect();
    assert_eq!(relative(&reversed), expected);
    // b(1:n:2) starts at b(1), b(n:1:-1) at b(n).
    assert_eq!(reversed[0].0, strided[0].0 + 7 * 8);

    for (needle, bytes) in [
        ("a = b(1:n:2)", 4 * 8),
        ("c = w(1:2, :)", 6 * 8),
        ("e = b(n:1:-1)", 8 * 8),
    ] {
        let written = runs(needle, AccessKind::TransferWrite);
        assert_eq!(written.len(), 1, "{needle}: {written:?}");
        assert_eq!(written[0].1, bytes, "{needle}");
    }
}
