//! Issue 16: every command runs in memory bounded by the program's footprint, not by the trace
//! length. `test-programs/basic/long_sweeps.c` reads the same 512 lines S times, so its trace
//! grows linearly with S while distinct lines, instructions, paths and threads stay fixed.
//! Each command runs as a child process and its peak resident set comes from `wait4`'s
//! `ru_maxrss` for that child alone.
//!
//! The always-run test compares S and 4S (the sweep count is the program's argument; the test
//! checks the traces differ by 4x): a command that held the trace (the old `dump` kept every
//! row, about 500 bytes each; the old `predict --model formula`, `validate` and `live
//! --predict` 16 bytes per access plus the windows; the old `simt` 24 bytes per access of every
//! launch, each sweep being one) would grow by hundreds of MiB (dump) or tens of MiB between
//! the two, far beyond the margin. The ignored test is the issues' literal bound (16 and 26): every
//! command on traces of at least 10^8 events under 200 MiB, and `paths` and `html` on 10^8 events
//! of branchy code, whose paths grow with the trace, under 512 MiB at the default --max-paths
//! (issue 26). It takes minutes, so a plain `cargo
//! test` skips it; `scripts/test.sh` (CI) runs it: `cargo test -p rdtools-e2e --features gpu,mpi
//! --test streaming_memory -- --ignored hundred_million_events_stay_under_200_mib`.

use rdtools_e2e::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Builds `long_sweeps.c` once into `dir` at `-O{opt}` and traces it with `sweeps` sweeps on
/// `threads` threads; `one_section`: all sweeps in one `parallel for`.
fn trace_with(dir: &Path, sweeps: u64, opt: u8, threads: u32, one_section: bool) -> PathBuf {
    let exe = dir.join(format!("long_sweeps_o{opt}"));
    if !exe.exists() {
        rdcc(
            &[program("basic/long_sweeps.c")],
            &[&format!("-O{opt}"), "-fopenmp"],
            &exe,
        );
    }
    let path = dir.join(format!("s{sweeps}_o{opt}_t{threads}_{one_section}.rdtrace"));
    let out = Command::new(&exe)
        .arg(sweeps.to_string())
        .args(one_section.then_some("one"))
        .env("RDTRACE", &path)
        .env("RDTRACE_QUIET", "1")
        // Quarter-size buffers and chunks: the sweeps are loop runs, so a default buffer
        // stands for up to 4 x 65536 events, a default chunk holds 262144, and the short trace
        // would not fill the readers' pipelines (a few chunks in flight), which is what the
        // comparison needs.
        .env("RDTRACE_BUFFER_EVENTS", "16384")
        .env("RDTRACE_CHUNK_EVENTS", "65536")
        .env("OMP_NUM_THREADS", threads.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    check_invariants(&path);
    path
}

/// The sequential trace at `-O2` (what every command but `simt` reads).
fn trace(dir: &Path, sweeps: u64) -> PathBuf {
    trace_with(dir, sweeps, 2, 1, false)
}

/// The sequential trace at `-O2` of all sweeps in one parallel section (what `predict` spills).
fn one_section_trace(dir: &Path, sweeps: u64) -> PathBuf {
    trace_with(dir, sweeps, 2, 1, true)
}

/// Runs `rda-report args…` with its output discarded; returns its peak RSS in KiB.
fn peak_rss_kib(args: &[&str]) -> u64 {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    run_measured(&mut cmd).peak_rss_kib
}

/// The commands the issue names, on the trace `t` of `exe` run with `sweeps` sweeps (`live`
/// runs the program itself); `simt` reads `omp`, a two-thread `-O1` trace (at `-O2` the
/// reduction loop's iterations are not recognised and no access reaches a kernel).
fn commands<'a>(t: &'a str, exe: &'a str, sweeps: &'a str, omp: &'a str) -> Vec<Vec<&'a str>> {
    let real = format!("1={t}").leak();
    vec![
        vec!["dump", t, "--limit", "1000000000000"],
        vec!["dump", t, "--limit", "1000000000000", "--json"],
        vec!["info", t, "-q"],
        vec!["histogram", t, "-q"],
        vec!["measure", t, "-q"],
        vec!["predict", t, "--cores", "1,2", "-q"],
        vec!["predict", t, "--cores", "1,2", "--model", "formula", "-q"],
        vec!["validate", "--seq", t, "--real", real, "-q"],
        vec![
            "live",
            "--predict",
            "--cores",
            "1,2",
            "-q",
            "--",
            exe,
            sweeps,
        ],
        vec![
            "live",
            "--predict",
            "--cores",
            "1,2",
            "--model",
            "formula",
            "-q",
            "--",
            exe,
            sweeps,
        ],
        vec!["paths", t, "-q"],
        vec!["simt", omp, "-q"],
        vec!["annotate", t, "-q"],
        vec!["check", t, "-q"],
        vec!["html", t, "-o", format!("{t}.html").leak(), "-q"],
    ]
}

#[test]
fn peak_memory_does_not_grow_with_the_trace_length() {
    let dir = tempfile::tempdir().unwrap();
    // About 6300 events a sweep (the loop is unrolled 4 times): 0.6 and 2.5 million events.
    let short = trace(dir.path(), 100);
    let long = trace(dir.path(), 400);
    let (s, l) = (short.to_str().unwrap(), long.to_str().unwrap());
    let exe = dir.path().join("long_sweeps_o2");
    let exe = exe.to_str().unwrap();
    let (omp_s, omp_l) = (
        trace_with(dir.path(), 100, 1, 2, false),
        trace_with(dir.path(), 400, 1, 2, false),
    );
    let (omp_s, omp_l) = (omp_s.to_str().unwrap(), omp_l.to_str().unwrap());
    // The traces really differ by 4x (the sweep count is the program's argument).
    let events = |p: &Path| rdtrace::Trace::open(p).unwrap().total_events();
    let (es, el) = (events(&short), events(&long));
    assert!(el > 3 * es && es > 500_000, "{es} and {el} events");
    for (a, b) in commands(s, exe, "100", omp_s)
        .into_iter()
        .zip(commands(l, exe, "400", omp_l))
    {
        let (rs, rl) = (peak_rss_kib(&a), peak_rss_kib(&b));
        eprintln!("{:?}: {rs} KiB at S = 100, {rl} KiB at S = 400", &a[..1]);
        // 4x the events: allow 10 % and 8 MiB of noise (allocator, chunk sizes), far below
        // what holding the extra 1.9 million events would take.
        assert!(
            rl <= rs + rs / 10 + 8 * 1024,
            "{:?} grew from {rs} KiB to {rl} KiB with 4x the trace",
            a
        );
        assert!(rl < 200 * 1024, "{a:?}: {rl} KiB");
    }
    // One parallel section of 0.4 and 1.6 million accesses (Alg. 2 needs all of it to interleave
    // the cores' n-th windows): `predict` spills it to a temporary file instead of holding it,
    // so the longer section takes no more memory; held, the extra 1.2 million accesses would
    // take about 90 MiB.
    let (short, long) = (
        one_section_trace(dir.path(), 100),
        one_section_trace(dir.path(), 400),
    );
    let (s, l) = (short.to_str().unwrap(), long.to_str().unwrap());
    let predict = |t: &str, model: &str| {
        peak_rss_kib(&["predict", t, "--cores", "1,3", "--model", model, "-q"])
    };
    for model in ["exact", "formula"] {
        let (rs, rl) = (predict(s, model), predict(l, model));
        eprintln!("one section, {model}: {rs} KiB at S = 100, {rl} KiB at S = 400");
        assert!(
            rl <= rs + rs / 10 + 8 * 1024,
            "predict --model {model} of one parallel section grew from {rs} KiB to {rl} KiB with 4x the section"
        );
    }
}

#[test]
#[ignore = "10^8 events through every command: minutes; scripts/test.sh (CI) runs it"]
fn hundred_million_events_stay_under_200_mib() {
    let dir = tempfile::tempdir().unwrap();
    // 16 300 sweeps of 6185 events: 1.008 * 10^8 events (the one thread stamps every 256
    // blocks; at every 16, 6246 events a sweep).
    let t = trace(dir.path(), 16_300);
    let events = |p: &Path| rdtrace::Trace::open(p).unwrap().total_events();
    assert!(events(&t) >= 100_000_000, "{}", events(&t));
    // 12 300 sweeps in one parallel for: one parallel section of 5.04 * 10^7 accesses
    // (1.0 * 10^8 events), which `predict` must spill to stay bounded.
    let one = one_section_trace(dir.path(), 12_300);
    assert!(events(&one) >= 100_000_000, "{}", events(&one));
    // What `simt` reads: two threads at -O1 (more events a sweep than at -O2).
    let omp = trace_with(dir.path(), 12_300, 1, 2, false);
    assert!(events(&omp) >= 100_000_000, "{}", events(&omp));
    let (one, t, omp) = (
        one.to_str().unwrap(),
        t.to_str().unwrap(),
        omp.to_str().unwrap(),
    );
    let exe = dir.path().join("long_sweeps_o2");
    let mut runs = vec![
        vec!["predict", one, "--cores", "1,4", "-q"],
        vec!["predict", one, "--cores", "1,4", "--model", "formula", "-q"],
    ];
    // Every command of the always-run test above, on the 10^8-event traces (the JSON dump is
    // the CSV dump's rows in another dress, at a few times its cost: the CSV one stands for both).
    runs.extend(
        commands(t, exe.to_str().unwrap(), "16300", omp)
            .into_iter()
            .filter(|args| !(args[0] == "dump" && args.contains(&"--json"))),
    );
    for args in runs {
        let start = std::time::Instant::now();
        let rss = peak_rss_kib(&args);
        eprintln!(
            "{:?}: {rss} KiB, {:.1} s",
            &args[..args.len().min(2)],
            start.elapsed().as_secs_f64()
        );
        assert!(rss < 200 * 1024, "{args:?}: {rss} KiB");
    }

    // Branchy code, where the path analysis's records grow with the trace (issue 26): four
    // data-dependent branches per iteration (`test-programs/paths/branchy.c`), 9 * 10^6
    // iterations, 1.4 * 10^8 events. `paths` (and `html`, which runs it beside the annotation)
    // keep at most --max-paths whole-window records (2^19, about 250 MiB of paths, the
    // shortened ones at most as many again): under the 512 MiB, where the unbounded
    // analysis grew by about 1.5 KiB per new path (1.6 GB on app_mix's 2.8 * 10^8 accesses).
    let branchy = dir.path().join("branchy");
    rdcc(
        &[program("paths/branchy.c")],
        &["-O1", "-DN=9000000"],
        &branchy,
    );
    let bt = dir.path().join("branchy.rdtrace");
    let out = Command::new(&branchy)
        .env("RDTRACE", &bt)
        .env("RDTRACE_QUIET", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(events(&bt) >= 100_000_000, "{}", events(&bt));
    let bt = bt.to_str().unwrap();
    let html = format!("{bt}.html");
    for args in [vec!["paths", bt, "-q"], vec!["html", bt, "-o", &html, "-q"]] {
        let start = std::time::Instant::now();
        let rss = peak_rss_kib(&args);
        eprintln!(
            "{:?} (branchy): {rss} KiB, {:.1} s",
            &args[..1],
            start.elapsed().as_secs_f64()
        );
        assert!(rss < 512 * 1024, "{args:?}: {rss} KiB");
    }
    // The limit did engage: this run has more paths than it keeps whole.
    let out = Command::new(&tools().rda_report)
        .args(["paths", bt, "-q", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["shortened_records"].as_u64().unwrap() > 0,
        "{}",
        report["summary"]
    );
}
