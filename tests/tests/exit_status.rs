//! `rda-report`'s exit status for every command: 0 success, 1 failure (missing, unreadable or
//! corrupt input, or an input lacking what a flag names), 2 usage error (clap's parse errors,
//! and flags that conflict or are out of range, which the commands return as usage errors and
//! `main` maps to 2).

use rdtools_e2e::*;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Runs `rda-report args...`; returns the exit status and stderr.
fn status(args: &[&str]) -> (i32, String) {
    let o = Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().expect("exited, not killed by a signal"),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn expect(code: i32, args: &[&str]) {
    let (got, err) = status(args);
    assert_eq!(got, code, "rda-report {args:?}\n{err}");
    if code != 0 {
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("error"),
            "no error message for {args:?}: {err}"
        );
    }
}

/// A directory holding: `seq.rdtrace` (serial loop, one thread), `omp.rdtrace` (OpenMP vecadd,
/// one kernel), `garbage.rdtrace` (not a trace) and `addrs.txt` (a PARDA text input).
fn fixtures() -> &'static (tempfile::TempDir, PathBuf) {
    static F: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_path_buf();
        for (src, flags, name) in [
            ("basic/serial_loop.c", &["-O1", "-g"][..], "seq"),
            ("simt/vecadd.c", &["-O1", "-g", "-fopenmp"][..], "omp"),
        ] {
            let exe = d.join(name);
            rdcc(&[program(src)], flags, &exe);
            let out = run_traced(
                &exe,
                &d.join(format!("{name}.rdtrace")),
                &[("OMP_NUM_THREADS", "1")],
            );
            assert!(out.status.success());
        }
        std::fs::write(
            d.join("garbage.rdtrace"),
            b"this is not a trace at all\n".repeat(20),
        )
        .unwrap();
        std::fs::write(d.join("addrs.txt"), "0x10\n0x20\n0x10\n").unwrap();
        (dir, d)
    })
}

fn f(name: &str) -> String {
    fixtures().1.join(name).to_str().unwrap().to_string()
}

const MISSING: &str = "/nonexistent/dir/missing.rdtrace";

/// Every command fails with 1 on a missing file and on a file that is not a trace.
#[test]
fn missing_and_corrupt_inputs_fail_with_1() {
    let garbage = f("garbage.rdtrace");
    for input in [MISSING, garbage.as_str()] {
        let real = format!("1={input}");
        let train1 = format!("{input}:1000");
        let train2 = format!("{input}:2000");
        let val = format!("{input}:4000");
        let cases: Vec<Vec<&str>> = vec![
            vec!["info", input],
            vec!["dump", input, "--limit", "5"],
            vec!["histogram", input],
            vec!["predict", input, "--cores", "1,2"],
            vec!["measure", input],
            vec!["validate", "--seq", input, "--real", &real],
            vec!["paths", input],
            vec![
                "paths-predict",
                "--train",
                &train1,
                "--train",
                &train2,
                "--validate",
                &val,
            ],
            vec!["simt", input],
        ];
        for args in cases {
            expect(1, &args);
        }
    }
    // PARDA inputs too.
    expect(1, &["histogram", MISSING, "--input-format", "parda-text"]);
    // A well-formed command line asking for what this input lacks is a failure, not a usage
    // error: an instruction or kernel number past the trace's.
    let seq = f("seq.rdtrace");
    let omp = f("omp.rdtrace");
    expect(1, &["paths", &seq, "--instr", "99999"]);
    expect(1, &["simt", &omp, "--kernel", "99"]);
}

/// Usage errors are 2 for every command: clap's (missing or malformed arguments), and those the
/// commands find (conflicting flags, a flag value that does not fit the input).
#[test]
fn usage_errors_exit_with_2() {
    let seq = f("seq.rdtrace");
    let omp = f("omp.rdtrace");
    let addrs = f("addrs.txt");
    let cases: Vec<Vec<&str>> = vec![
        // clap
        vec!["info"],
        vec!["info", &seq, "--bogus"],
        vec!["dump", &seq, "--limit", "many"],
        vec!["histogram", &seq, "--line", "48"],
        vec!["histogram", &seq, "--engine", "nope"],
        vec!["predict", &seq, "--l1", "8K:8"],
        vec!["measure"],
        vec!["measure", &seq, "--l2", "huge"],
        vec!["validate", "--seq", &seq],
        vec!["validate", "--seq", &seq, "--real", "0=x.rdtrace"],
        vec!["paths", &seq, "--history", "99"],
        vec!["paths-predict", "--validate", "x:1"],
        vec!["simt", &omp, "--scenario", "9"],
        vec!["no-such-command"],
        // found by the commands
        vec![
            "histogram",
            &addrs,
            "--input-format",
            "parda-text",
            "--per-thread",
        ],
        vec!["predict", &seq, "--cores", "0,2"],
        vec!["predict", &seq, "--chunk", "0"],
        vec!["measure", &omp, "--l1", "0:8:64"],
        vec![
            "paths-predict",
            "--train",
            "a.rdtrace:1",
            "--validate",
            "b.rdtrace:2",
        ],
        vec!["simt", &omp, "--scenario", "1", "--k", "4"],
        vec!["simt", &omp, "--scenario", "2", "--clusters", "2"],
        vec!["simt", &omp, "--block", "0"],
    ];
    for args in cases {
        expect(2, &args);
    }
}

/// The same commands succeed with 0 on good inputs (help and version too).
#[test]
fn good_runs_exit_with_0() {
    let seq = f("seq.rdtrace");
    let omp = f("omp.rdtrace");
    let addrs = f("addrs.txt");
    let real = format!("1={omp}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["--version"],
        vec!["info", &seq],
        vec!["dump", &seq, "--limit", "5"],
        vec!["histogram", &seq],
        vec!["histogram", &addrs, "--input-format", "parda-text"],
        vec!["predict", &seq, "--cores", "1,2"],
        vec!["measure", &omp],
        vec!["validate", "--seq", &seq, "--real", &real],
        vec!["paths", &seq],
        vec!["simt", &omp],
    ];
    for args in cases {
        expect(0, &args);
    }
}

/// `--output FILE` writes exactly what the command prints on stdout without it, for every
/// command that prints a report (and then prints nothing); a missing directory is a usage error
/// (2) before any work, and a file that cannot be created a failure (1) naming the file.
#[test]
fn output_writes_the_report_to_a_file() {
    let seq = f("seq.rdtrace");
    let omp = f("omp.rdtrace");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let out_s = out.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["info", &seq, "--json"],
        vec!["dump", &seq, "--limit", "5"],
        vec!["dump", &seq, "--limit", "5", "--json"],
        vec!["histogram", &seq, "--json"],
        vec!["histogram", &seq, "--csv"],
        vec!["predict", &seq, "--cores", "1,2", "--json"],
        vec!["measure", &omp],
        vec!["paths", &seq, "--json"],
        vec!["simt", &omp, "--json"],
        vec!["annotate", &seq],
        vec!["check", &seq, "--json"],
    ];
    for args in cases {
        let plain = Command::new(&tools().rda_report)
            .args(&args)
            .output()
            .unwrap();
        assert!(plain.status.success(), "{args:?}");
        assert!(!plain.stdout.is_empty(), "{args:?} printed nothing");
        let _ = std::fs::remove_file(&out);
        let to_file = Command::new(&tools().rda_report)
            .args(&args)
            .args(["--output", out_s])
            .output()
            .unwrap();
        assert!(to_file.status.success(), "{args:?} --output");
        assert!(to_file.stdout.is_empty(), "{args:?} --output also printed");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            plain.stdout,
            "{args:?}: the file differs from stdout"
        );
    }
    // A directory that does not exist, or a directory as the file: usage errors (2), found
    // before any analysis runs.
    let (code, err) = status(&["histogram", &seq, "--output", "/nonexistent/dir/out.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("directory /nonexistent/dir does not exist"),
        "{err}"
    );
    let (code, err) = status(&["info", &seq, "--output", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a directory"), "{err}");
    // A file the system will not create (even for root, /proc takes no new files): a failure
    // (1) when the report is written, naming the file.
    let (code, err) = status(&["info", &seq, "--output", "/proc/rdtools-report.json"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("/proc/rdtools-report.json"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `predict` spills a long parallel section to `$TMPDIR`: spilling everything
/// (`RDTOOLS_SPILL_ACCESSES=0`) prints the same report as holding it, an unusable `$TMPDIR` is
/// a failure (1) that names the temporary file, and a threshold that is not a number is a
/// usage error (2) naming the variable, never a panic.
#[test]
fn predict_spills_to_tmpdir_and_reports_its_failures() {
    let omp = f("omp.rdtrace");
    let run = |env: &[(&str, &str)], model: &str| {
        let o = Command::new(&tools().rda_report)
            .args([
                "predict", &omp, "--cores", "1,3", "--model", model, "--json",
            ])
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!err.contains("panicked"), "{err}");
        (o.status.code().unwrap(), o.stdout, err)
    };
    for model in ["exact", "formula"] {
        let (code, held, err) = run(&[], model);
        assert_eq!(code, 0, "{err}");
        let (code, spilled, err) = run(&[("RDTOOLS_SPILL_ACCESSES", "0")], model);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            held, spilled,
            "--model {model}: spilling changed the report"
        );
        let (code, _, err) = run(
            &[
                ("RDTOOLS_SPILL_ACCESSES", "0"),
                ("TMPDIR", "/nonexistent/rdtools-tmp"),
            ],
            model,
        );
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("temporary file"), "{err}");
        let (code, _, err) = run(&[("RDTOOLS_SPILL_ACCESSES", "lots")], model);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("RDTOOLS_SPILL_ACCESSES=lots"), "{err}");
    }
}
