//! `rda-report live ANALYSIS... -- PROGRAM` (issue 28 point 3): every offline analysis on a
//! live run. For measure, annotate, check, simt, paths and html (and histogram and predict
//! through the same layer), the report of `live` equals the offline command's report on the
//! `--tee` copy of the same run byte for byte, with OMP_NUM_THREADS=1 and 4; one run feeds
//! several analyses; a usage error stops `live` before the program runs (exit status 2); and
//! `live` exits with the program's status after its reports.
//!
//! The one field that legitimately differs: the trace's name in the reports that show it
//! (measure, annotate, simt and paths JSON `trace`/`input`). An analysis that reads the pipe
//! while the program runs names it `/dev/fd/N`, the offline command names the tee file;
//! [`with_trace_named`] puts the tee file's name in its place before comparing. Analyses that read
//! the copy after the run (paths, html, any second analysis) name the tee file themselves.

use rdtools_e2e::{check_invariants, live, program, rdcc, tools, with_trace_named};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds test-programs/live/omp_every.c (`-O2 -fopenmp`) into `dir/every`.
fn build(dir: &Path) -> PathBuf {
    let exe = dir.join("every");
    rdcc(&[program("live/omp_every.c")], &["-O2", "-fopenmp"], &exe);
    exe
}

/// `rda-report args…` in `cwd`, which must succeed.
fn offline(cwd: &Path, args: &[&str]) {
    let o = Command::new(&tools().rda_report)
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "rda-report {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// One analysis: its name, its options in both runs, and the flag naming its report file.
struct Analysis {
    name: &'static str,
    options: &'static [&'static str],
    output_flag: &'static str,
}

/// The analyses of issue 28 point 3, each with its JSON report where it has one.
const ANALYSES: [Analysis; 6] = [
    Analysis {
        name: "measure",
        options: &["--json"],
        output_flag: "--output",
    },
    Analysis {
        name: "annotate",
        options: &["--json", "--false-sharing"],
        output_flag: "--output",
    },
    Analysis {
        name: "check",
        options: &["--json"],
        output_flag: "--output",
    },
    Analysis {
        name: "simt",
        options: &["--json"],
        output_flag: "--output",
    },
    Analysis {
        name: "paths",
        options: &["--json", "--history", "1,4"],
        output_flag: "--output",
    },
    Analysis {
        name: "html",
        options: &["--top", "10"],
        output_flag: "-o",
    },
];

/// Asserts that live's report file `live_report` equals the offline command's report on `tee`
/// (the trace's name aside, see [`with_trace_named`]).
fn assert_same_report(dir: &Path, a: &Analysis, live_report: &Path, tee: &Path, what: &str) {
    let tee_s = tee.to_str().unwrap();
    let off_report = dir.join(format!("offline-{}", a.name));
    let mut args = vec![a.name, tee_s];
    args.extend_from_slice(a.options);
    args.extend([a.output_flag, off_report.to_str().unwrap()]);
    offline(dir, &args);
    let live_text = std::fs::read_to_string(live_report)
        .unwrap_or_else(|e| panic!("{what}: {}: {e}", live_report.display()));
    let off_text = std::fs::read_to_string(&off_report).unwrap();
    assert!(!off_text.is_empty(), "{what}: empty offline report");
    assert!(
        with_trace_named(&live_text, tee_s) == off_text,
        "{what}: live report differs from `rda-report {args:?}`:\nlive:\n{live_text}\noffline:\n{off_text}"
    );
}

#[test]
fn each_analysis_live_equals_the_offline_command_on_the_tee_copy() {
    let build_dir = tempfile::tempdir().unwrap();
    let exe = build(build_dir.path());
    for threads in ["1", "4"] {
        for a in &ANALYSES {
            let dir = tempfile::tempdir().unwrap();
            let tee = dir.path().join("tee.rdtrace");
            let report = dir.path().join(format!("live-{}", a.name));
            let mut args = vec![a.name];
            args.extend_from_slice(a.options);
            args.extend([
                a.output_flag,
                report.to_str().unwrap(),
                "--tee",
                tee.to_str().unwrap(),
            ]);
            let what = format!("live {args:?} with {threads} thread(s)");
            let out = live(
                dir.path(),
                &args,
                &exe,
                &[],
                &[("OMP_NUM_THREADS", threads)],
            );
            assert_eq!(
                out.status.code(),
                Some(0),
                "{what}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // omp_every.c: sum over i of a[i], the same for every thread count; the report
            // went to its file, so stdout is the program's.
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                "sum 22815\n",
                "{what}"
            );
            check_invariants(&tee);
            assert_same_report(dir.path(), a, &report, &tee, &what);
        }
    }
}

#[test]
fn histogram_and_predict_run_through_the_same_layer() {
    let build_dir = tempfile::tempdir().unwrap();
    let exe = build(build_dir.path());
    let both = [
        Analysis {
            name: "histogram",
            options: &["--json", "--per-thread"],
            output_flag: "--output",
        },
        Analysis {
            name: "predict",
            options: &["--json", "--cores", "1,2,4"],
            output_flag: "--output",
        },
        Analysis {
            name: "predict",
            options: &["--json", "--cores", "1,2", "--model", "formula"],
            output_flag: "--output",
        },
    ];
    for a in &both {
        let dir = tempfile::tempdir().unwrap();
        let tee = dir.path().join("tee.rdtrace");
        let report = dir.path().join("live-report");
        let mut args = vec![a.name];
        args.extend_from_slice(a.options);
        args.extend([
            a.output_flag,
            report.to_str().unwrap(),
            "--tee",
            tee.to_str().unwrap(),
        ]);
        // predict: live sets OMP_NUM_THREADS=1 (unset here) for a sequential run.
        let out = live(dir.path(), &args, &exe, &[], &[]);
        let what = format!("live {args:?}");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_same_report(dir.path(), a, &report, &tee, &what);
    }
}

#[test]
fn several_analyses_share_one_run() {
    let build_dir = tempfile::tempdir().unwrap();
    let exe = build(build_dir.path());
    let dir = tempfile::tempdir().unwrap();
    let tee = dir.path().join("tee.rdtrace");
    let mut args: Vec<String> = Vec::new();
    for a in &ANALYSES {
        args.push(a.name.into());
        args.extend(a.options.iter().map(|s| s.to_string()));
        args.push(a.output_flag.into());
        args.push(
            dir.path()
                .join(format!("live-{}", a.name))
                .display()
                .to_string(),
        );
    }
    args.extend(["--tee".to_string(), tee.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = live(dir.path(), &args, &exe, &[], &[("OMP_NUM_THREADS", "4")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sum 22815\n");
    for a in &ANALYSES {
        let report = dir.path().join(format!("live-{}", a.name));
        assert_same_report(
            dir.path(),
            a,
            &report,
            &tee,
            &format!("one run: {}", a.name),
        );
    }
    // The stream analyses that name their trace read the run while it ran, each from a pipe
    // of its own (not the copy afterwards).
    let mut pipes = Vec::new();
    for name in ["measure", "annotate", "simt"] {
        let text = std::fs::read_to_string(dir.path().join(format!("live-{name}"))).unwrap();
        let at = text
            .find("/dev/fd/")
            .unwrap_or_else(|| panic!("live {name} did not read a pipe:\n{text}"));
        let digits = text[at + 8..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        pipes.push(text[at..at + 8 + digits].to_string());
    }
    pipes.sort();
    pipes.dedup();
    assert_eq!(pipes.len(), 3, "one pipe each: {pipes:?}");
}

#[test]
fn without_a_tee_file_analyses_read_a_temporary_copy_removed_afterwards() {
    let build_dir = tempfile::tempdir().unwrap();
    let exe = build(build_dir.path());
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let check = dir.path().join("check.json");
    let paths = dir.path().join("paths.json");
    let out = live(
        dir.path(),
        &[
            "check",
            "--json",
            "--output",
            check.to_str().unwrap(),
            "paths",
            "--json",
            "--output",
            paths.to_str().unwrap(),
        ],
        &exe,
        &[],
        &[
            ("OMP_NUM_THREADS", "4"),
            ("TMPDIR", tmp.path().to_str().unwrap()),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&check).unwrap()).unwrap();
    assert_eq!(check["violations_total"], 0, "{check}");
    // paths read the spooled copy, named after live's process in $TMPDIR, now removed.
    let paths: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&paths).unwrap()).unwrap();
    let trace = paths["trace"].as_str().unwrap();
    assert!(
        trace.starts_with(&format!("{}/rda-report-live-", tmp.path().display())),
        "{trace}"
    );
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn the_program_status_comes_after_the_report() {
    let build_dir = tempfile::tempdir().unwrap();
    let exe = build(build_dir.path());
    let dir = tempfile::tempdir().unwrap();
    let tee = dir.path().join("tee.rdtrace");
    let tee_s = tee.to_str().unwrap();
    let out = live(
        dir.path(),
        &["measure", "--json", "--tee", tee_s],
        &exe,
        &["3"],
        &[("OMP_NUM_THREADS", "4")],
    );
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The program's line first, then the report (printed once the program has ended).
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = stdout
        .strip_prefix("sum 22815\n")
        .unwrap_or_else(|| panic!("{stdout}"));
    let off = dir.path().join("offline.json");
    offline(
        dir.path(),
        &[
            "measure",
            tee_s,
            "--json",
            "--output",
            off.to_str().unwrap(),
        ],
    );
    assert_eq!(
        with_trace_named(report, tee_s),
        std::fs::read_to_string(&off).unwrap()
    );
}

/// Asserts status 2 with `needle` on stderr, and that `touch marker` never ran.
fn refused(args: &[&str], needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let o = Command::new(&tools().rda_report)
        .arg("live")
        .args(args)
        .arg("--")
        .arg("touch")
        .arg(&marker)
        .env_remove("RDTRACE_TEE")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "live {args:?}: {err}");
    assert!(
        err.contains(needle),
        "live {args:?}: no {needle:?} in: {err}"
    );
    assert!(!marker.exists(), "live {args:?}: the program ran");
}

#[test]
fn usage_errors_stop_live_before_the_program_runs() {
    // An option the offline command does not have, or a value out of its range.
    refused(&["measure", "--bogus"], "--bogus");
    refused(&["annotate", "--context", "5000"], "--context");
    // html needs its -o, as offline.
    refused(&["html"], "--output");
    // A second analysis that does not exist.
    refused(&["check", "--json", "nosuch"], "not an analysis of live");
    // An output that cannot be written, and a tee copy given twice.
    refused(
        &["check", "--output", "/nonexistent/dir/c.json"],
        "does not exist",
    );
    refused(
        &["check", "--tee", "a.rdtrace", "paths", "--tee", "b.rdtrace"],
        "more than once",
    );
    // live's histogram flags do not mix with an analysis.
    refused(&["--json", "measure"], "measure");
    // Flags that conflict in the offline command.
    refused(&["measure", "--machine", "nosuch-cpu"], "nosuch-cpu");
    // No program.
    let o = Command::new(&tools().rda_report)
        .args(["live", "measure", "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no program"));
}

#[test]
fn help_shows_the_offline_options_and_examples() {
    let o = Command::new(&tools().rda_report)
        .args(["live", "measure", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{help}");
    assert!(help.contains("rda-report live measure [OPTIONS]"), "{help}");
    assert!(help.contains("--l1"), "{help}");
    assert!(help.contains("--tee"), "{help}");
    let o = Command::new(&tools().rda_report)
        .args(["live", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "measure",
        "annotate",
        "paths",
        "html",
        "simt",
        "check",
        "live measure paths",
    ] {
        assert!(help.contains(needle), "no {needle:?} in {help}");
    }
}

#[test]
fn a_longer_run_takes_no_more_memory() {
    // long_sweeps.c reads the same 512 lines S times (see tests/tests/streaming_memory.rs): the
    // trace grows 4x from S = 100 to 400 while everything the analyses keep stays fixed. check
    // reads the pipe, measure and paths the spooled copy; live's peak RSS (wait4, which counts
    // the program too) must not grow with the trace.
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("long_sweeps");
    rdcc(
        &[program("basic/long_sweeps.c")],
        &["-O2", "-fopenmp"],
        &exe,
    );
    let peak = |sweeps: &str| {
        let mut cmd = Command::new(&tools().rda_report);
        cmd.args(["live", "check", "-q", "measure", "-q", "paths", "-q", "--"])
            .arg(&exe)
            .arg(sweeps)
            .env("RDTRACE_QUIET", "1")
            .env("OMP_NUM_THREADS", "2")
            .env("TMPDIR", dir.path())
            .stdout(std::process::Stdio::null());
        rdtools_e2e::run_measured(&mut cmd).peak_rss_kib
    };
    let (rs, rl) = (peak("100"), peak("400"));
    eprintln!("live check measure paths: {rs} KiB at S = 100, {rl} KiB at S = 400");
    assert!(
        rl <= rs + rs / 10 + 8 * 1024,
        "live grew from {rs} KiB to {rl} KiB with 4x the trace"
    );
}
