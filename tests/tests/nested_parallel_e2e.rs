//! End to end for nested parallelism and teams of one: every analysis (`check`, `simt`,
//! `paths`, `predict`, `annotate`, `measure`, `histogram`) on traces of the programs in
//! `test-programs/nested/`, at 1, 2 and 4 OpenMP threads, several runs each (thread timing
//! differs between runs).
//!
//! - `nested_simt.c`: an outer `parallel num_threads(2)` whose body runs two inner `parallel
//!   for` loops (static, then dynamic); nesting is off, so libomp serializes each inner region to
//!   a team of one on each outer thread, and the two outer threads run the same inner loop at
//!   the same time (this made `simt` panic with "launch exists": both teams' parts were taken
//!   for one launch). Repeated 3 times: 2 loops x 2 teams x 3 = 12 launches (6 with
//!   `OMP_THREAD_LIMIT=1`: one outer thread).
//! - `nested_active.c`: the same with `omp_set_max_active_levels(2)` and inner teams of two, so
//!   up to four threads run at once: again 12 launches, each with two OpenMP threads (which
//!   worker went with which master is matched from the stamps, see `rdsimt::openmp`; the
//!   launches' shapes are exact, so they are what is asserted).
//! - `team_of_one.c`: `parallel for num_threads(1)` and `parallel num_threads(1)` with a
//!   dynamic `omp for` between loops of the default team: 4 launches, the middle two by one
//!   thread.
//!
//! Asserted: every command (and `info`) exits 0 and prints no panic; `check` finds no
//! violation; `simt` maps every launch of the inner loops to a kernel of all N = 256 iterations
//! whose memory instructions are the loop's shared accesses (as the programs' header comments
//! count them; with two active inner teams of two, their sum over the launches of a loop),
//! run by the team the program asks for (one thread per launch in a sequential run), numbered
//! 0, 1, ... per loop with no launch twice; the histogram, measurement and annotation count
//! the same accesses. `predict` models a
//! sequential run: it exits 0 on a trace where one thread recorded events (a run with
//! `OMP_THREAD_LIMIT=1`, every region a team of one, nested ones included) and exits 1 saying
//! it needs a sequential run on the others.

use rdtools_e2e::{program, rdcc, run_traced, tools};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Iterations of every loop (the programs' default).
const N: u64 = 256;
/// Runs per thread count.
const RUNS: usize = 3;

/// Runs `rda-report args…`; returns (exit status, stdout, stderr), after checking that it did
/// not panic.
fn report(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(
        !err.contains("panicked"),
        "rda-report {args:?} panicked:\n{err}"
    );
    (o.status.code().unwrap_or(-1), out, err)
}

/// `rda-report args… --json`, which must succeed.
fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = report(&a);
    assert_eq!(code, 0, "rda-report {a:?} failed:\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("rda-report {a:?}: {e}\n{out}"))
}

fn int(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// What a program's traces must show.
struct Expect {
    /// Per worksharing loop id: its launches, its launches in a run with `OMP_THREAD_LIMIT=1`
    /// (one outer thread), its shared memory instructions per iteration, and the OpenMP
    /// threads of each launch when the run is not sequential (`None`: as many as
    /// OMP_NUM_THREADS gives).
    loops: &'static [(u64, u64, u64, usize, Option<u64>)],
    /// Whether each launch's accesses are those of its own team: not when two inner teams of
    /// more than one thread run at once (the trace does not say which worker went with which
    /// master; two launches may hold each other's worker's part), then only the sum over the
    /// launches of a loop is.
    exact_parts: bool,
}

/// Builds `test-programs/nested/{name}.c` at -O1 into `dir`.
fn build(name: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(name);
    rdcc(
        &[program(&format!("nested/{name}.c"))],
        &["-fopenmp", "-O1"],
        &exe,
    );
    exe
}

/// Threads that recorded events (what `predict` calls a sequential run: one).
fn threads_with_events(trace: &str) -> usize {
    let i = json(&["info", trace]);
    i["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| int(&t["events"]) > 0)
        .count()
}

/// Every analysis on one trace, with the assertions of the module docs.
fn analyse(trace: &str, expect: &Expect, limited: bool) {
    let sequential = threads_with_events(trace) == 1;
    // check: no violation.
    let c = json(&["check", trace]);
    assert_eq!(int(&c["violations_total"]), 0, "{trace}: {c}");

    // simt: every launch of every loop, all N iterations, its memory instructions.
    let s = json(&["simt", trace]);
    let kernels = s["kernels"].as_array().unwrap();
    let mut seen = BTreeSet::new();
    for &(ws, launches, limited_launches, mis, team) in expect.loops {
        let launches = if limited { limited_launches } else { launches };
        let of_loop: Vec<&Value> = kernels
            .iter()
            .filter(|k| int(&k["origin"]["workshare"]) == ws)
            .collect();
        assert_eq!(
            of_loop.len() as u64,
            launches,
            "{trace}: launches of loop {ws}: {of_loop:#?}"
        );
        let accesses: u64 = of_loop.iter().map(|k| int(&k["origin"]["accesses"])).sum();
        assert_eq!(accesses, launches * mis as u64 * N, "{trace}: loop {ws}");
        for k in &of_loop {
            let o = &k["origin"];
            assert!(
                seen.insert((ws, int(&o["launch"]))),
                "{trace}: loop {ws} launch {} listed twice",
                o["launch"]
            );
            assert_eq!(int(&k["lanes"]), int(&o["accesses"]), "{trace}: {k}");
            assert!(int(&o["threads"]) <= N, "{trace}: {k}");
            if expect.exact_parts || sequential {
                assert_eq!(int(&o["threads"]), N, "{trace}: {k}");
                assert_eq!(int(&k["mis"]), mis as u64, "{trace}: {k}");
                assert_eq!(int(&o["accesses"]), mis as u64 * N, "{trace}: {k}");
            }
            let omp_threads = int(&o["omp_threads"]);
            match team {
                _ if sequential => assert_eq!(omp_threads, 1, "{trace}: {k}"),
                Some(t) => assert_eq!(omp_threads, t, "{trace}: {k}"),
                None => assert!((1..=4).contains(&omp_threads), "{trace}: {k}"),
            }
        }
        let numbers: BTreeSet<u64> = of_loop
            .iter()
            .map(|k| int(&k["origin"]["launch"]))
            .collect();
        assert_eq!(numbers, (0..launches).collect(), "{trace}: loop {ws}");
    }
    assert!(s["skipped"].as_array().unwrap().is_empty(), "{trace}: {s}");

    // histogram (merged and per thread), measure and annotate count the same accesses.
    let h = json(&["histogram", trace]);
    let total = int(&h["total"]);
    assert!(total > 0);
    let per = json(&["histogram", trace, "--per-thread"]);
    assert_eq!(int(&per["total"]), total, "{trace}: {per}");
    let m = json(&["measure", trace]);
    assert_eq!(int(&m["references"]), total, "{trace}");
    let a = json(&["annotate", trace]);
    assert_eq!(int(&a["total"]["references"]), total, "{trace}");

    // paths: the same accesses.
    let p = json(&["paths", trace]);
    assert_eq!(int(&p["references"]), total, "{trace}");

    // predict: a sequential run only.
    let (code, out, err) = report(&["predict", trace, "--cores", "1,2,4"]);
    if sequential {
        assert_eq!(code, 0, "{trace}: predict failed:\n{err}");
        assert!(out.contains("SASMM prediction"), "{out}");
    } else {
        assert_eq!(code, 1, "{trace}: predict on a threaded run:\n{out}\n{err}");
        assert!(
            err.contains("needs the trace of a sequential run"),
            "{trace}: {err}"
        );
    }
}

/// Builds `name`, traces it at 1, 2 and 4 threads ([`RUNS`] runs each) and once with
/// `OMP_THREAD_LIMIT=1` (a sequential run), and analyses every trace.
fn every_analysis(name: &str, expect: &Expect) {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(name, dir.path());
    // (label, environment); the last run has OMP_THREAD_LIMIT=1.
    let mut runs: Vec<(String, Vec<(&str, &str)>)> = Vec::new();
    for threads in ["1", "2", "4"] {
        for run in 0..RUNS {
            runs.push((
                format!("{threads}-{run}"),
                vec![("OMP_NUM_THREADS", threads)],
            ));
        }
    }
    runs.push((
        "limited".into(),
        vec![("OMP_NUM_THREADS", "1"), ("OMP_THREAD_LIMIT", "1")],
    ));
    let mut sequential = 0;
    for (label, env) in runs {
        let trace = dir.path().join(format!("{name}.{label}.rdtrace"));
        let out = run_traced(&exe, &trace, &env);
        assert!(
            out.status.success(),
            "{name} {label}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(&format!("{name} n={N}")), "{stdout}");
        let t = trace.to_str().unwrap();
        analyse(t, expect, label == "limited");
        sequential += usize::from(threads_with_events(t) == 1);
    }
    assert!(sequential >= 1, "{name}: no sequential trace was analysed");
}

#[test]
fn nested_teams_of_one_in_every_analysis() {
    every_analysis(
        "nested_simt",
        &Expect {
            loops: &[(0, 6, 3, 3, Some(1)), (1, 6, 3, 2, Some(1))],
            exact_parts: true,
        },
    );
}

#[test]
fn nested_active_teams_in_every_analysis() {
    every_analysis(
        "nested_active",
        &Expect {
            loops: &[(0, 6, 3, 3, Some(2)), (1, 6, 3, 2, Some(2))],
            exact_parts: false,
        },
    );
}

#[test]
fn teams_of_one_in_every_analysis() {
    every_analysis(
        "team_of_one",
        &Expect {
            loops: &[
                (0, 1, 1, 2, None),
                (1, 1, 1, 3, Some(1)),
                (2, 1, 1, 3, Some(1)),
                (3, 1, 1, 3, None),
            ],
            exact_parts: true,
        },
    );
}
