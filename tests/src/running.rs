//! Running programs built with `rdcc`: traced (every trace checked against the invariants),
//! under `rda-report live`, or built and traced in one step.

use crate::{program, rdcc, tools};
use rdtrace::Trace;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A two-thread OpenMP trace of `simt/vecadd.c` (a static worksharing loop) in `dir`, in many
/// small chunks of `chunk_events` events: the seed the hostile-input tests damage.
pub fn small_chunk_vecadd_trace(dir: &Path, chunk_events: u32) -> PathBuf {
    vecadd_trace(dir, "seed.rdtrace", 2, chunk_events, 1024)
}

/// A trace `dir/name` of `simt/vecadd.c` on `n` elements (1 to 4096) run with `threads` OpenMP
/// threads, in chunks of `chunk_events` events (the program is built into `dir` once).
pub fn vecadd_trace(dir: &Path, name: &str, threads: u32, chunk_events: u32, n: u32) -> PathBuf {
    let exe = dir.join("vecadd");
    if !exe.exists() {
        rdcc(
            &[program("simt/vecadd.c")],
            &["-O1", "-g", "-fopenmp"],
            &exe,
        );
    }
    let t = dir.join(name);
    let events = chunk_events.to_string();
    let threads = threads.to_string();
    let mut cmd = Command::new(&exe);
    cmd.arg(n.to_string())
        .env("RDTRACE_QUIET", "1")
        .env("OMP_NUM_THREADS", &threads)
        .env("RDTRACE_CHUNK_EVENTS", &events)
        // A chunk holds at least one raw buffer: small buffers, small chunks.
        .env("RDTRACE_BUFFER_EVENTS", &events);
    let o = output_traced(&mut cmd, &t);
    assert!(o.status.success(), "{o:?}");
    t
}

/// Runs `rda-report live <args> -- <exe> <prog_args>` in `cwd` with `env` (the runtime quiet,
/// no trace variables inherited).
pub fn live(
    cwd: &Path,
    args: &[&str],
    exe: &Path,
    prog_args: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.current_dir(cwd)
        .arg("live")
        .args(args)
        .arg("--")
        .arg(exe)
        .args(prog_args)
        .env("RDTRACE_QUIET", "1")
        .env_remove("RDTRACE_TEE")
        .env_remove("RDTRACE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// `report` with every `/dev/fd/N` (the pipe a live analysis read, which reports name as their
/// trace) replaced by `trace`, to compare it with the offline command's report on `trace`.
pub fn with_trace_named(report: &str, trace: &str) -> String {
    let mut out = String::with_capacity(report.len());
    let mut rest = report;
    while let Some(at) = rest.find("/dev/fd/") {
        let digits = rest[at + 8..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        out.push_str(&rest[..at]);
        if digits == 0 {
            out.push_str("/dev/fd/");
        } else {
            out.push_str(trace);
        }
        rest = &rest[at + 8 + digits..];
    }
    out.push_str(rest);
    out
}

/// Runs a program with `RDTRACE=trace` and the given environment; returns its output.
pub fn run_traced(exe: &Path, trace: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.env("RDTRACE_QUIET", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    output_traced(&mut cmd, trace)
}

/// Runs `cmd` (a program built with `rdcc`, arguments and environment set by the caller) with
/// `RDTRACE=trace`, puts the trace through [`check_invariants`] and returns the program's output:
/// the one way e2e tests run a traced program.
pub fn output_traced(cmd: &mut Command, trace: &Path) -> Output {
    let out = cmd
        .env("RDTRACE", trace)
        .output()
        .unwrap_or_else(|e| panic!("running {:?}: {e}", cmd.get_program()));
    check_invariants(trace);
    out
}

/// Runs the trace invariant checker (`rda-report check`'s library, [`rdtrace::check`]) on the
/// trace at `path` and panics with the violations if any invariant is broken. Every trace an e2e
/// test produces goes through it: programs run by [`output_traced`] (and [`run_traced`],
/// [`trace_program`], [`build_and_trace`] on top of it) and the traces tests write with
/// `rdtrace`'s writer, except those made to break an invariant (`check_e2e`) or damaged on
/// purpose (`hostile_traces` mutates traces that passed here); `live_e2e` checks the
/// `RDTRACE_TEE` copies of live runs. A missing or unreadable trace is left to the test (some
/// check exactly that).
pub fn check_invariants(path: &Path) {
    let Ok(trace) = Trace::open(path) else {
        return;
    };
    let report = rdtrace::check::check_trace(&trace, 20)
        .unwrap_or_else(|e| panic!("checking {}: {e}", path.display()));
    assert!(
        report.is_clean(),
        "{}: {} invariant violation(s), first ones: {:#?}",
        path.display(),
        report.violations_total,
        report.violations
    );
}

/// The stdout of a command's `out`put (UTF-8); panics with its status, stdout and stderr unless
/// it succeeded (`what` names the command in the message).
pub fn success_stdout(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed with {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Builds `rel` (under test-programs/) with `flags` into a temp dir, runs it traced with `env`,
/// checks it succeeded, and returns the directory (keep it alive) and the trace's path.
pub fn trace_program(
    rel: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdcc(&[program(rel)], flags, &exe);
    let trace = dir.path().join("prog.rdtrace");
    let out = run_traced(&exe, &trace, env);
    assert!(
        out.status.success(),
        "{rel} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, trace)
}

/// Builds `rel` (under test-programs/) with `flags` into a temp dir, runs it traced with `env`,
/// checks it succeeded, and opens the trace.
pub fn build_and_trace(
    rel: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (Trace, Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdcc(&[program(rel)], flags, &exe);
    let trace_path = dir.path().join("prog.rdtrace");
    let out = run_traced(&exe, &trace_path, env);
    let trace = Trace::open(&trace_path).unwrap();
    (trace, out, dir)
}
