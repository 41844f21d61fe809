//! Every numeric flag of `rda-report` has a range, stated in its `--help`; a value outside it
//! (negative, zero where it must be positive, too large, not a number) is a usage error, exit
//! status 2, whose message names the flag and what it accepts: never a panic, an abort on an
//! absurd allocation or a machine overloaded by threads. Garbage input (`/dev/zero` as a GPU
//! text trace) is a failure (1) with a clear message and bounded memory.
//!
//! (`info` and `dump` are not covered here: their flags are another change's.)

use rdtools_e2e::{program, rdcc, run_traced, tools};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Runs `rda-report args…` under a 4 GiB address-space limit (an absurd allocation fails
/// instead of swapping); returns (exit status, stderr).
fn run(args: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args);
    // SAFETY: setrlimit only changes limits of the child between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 4 << 30,
                rlim_max: 4 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code().unwrap_or(-1), err)
}

/// Asserts a usage error (2) whose message contains every one of `needles`, and no panic.
fn usage(args: &[&str], needles: &[&str]) {
    let (code, err) = run(args);
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "rda-report {args:?} crashed:\n{err}"
    );
    assert_eq!(code, 2, "rda-report {args:?}: status {code}\n{err}");
    for n in needles {
        assert!(err.contains(n), "rda-report {args:?}: no {n:?} in:\n{err}");
    }
    assert!(
        !err.contains("tip: to pass"),
        "rda-report {args:?}: clap's tip instead of the range:\n{err}"
    );
}

/// A small two-thread trace and a sequential one of the same program, built once: `(omp,
/// seq)` (their directory is kept for the whole test process).
fn traces() -> (&'static Path, &'static Path) {
    static T: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    let t = T.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("prog");
        rdcc(
            &[program("nested/team_of_one.c")],
            &["-fopenmp", "-O1"],
            &exe,
        );
        let omp = dir.path().join("omp.rdtrace");
        assert!(run_traced(&exe, &omp, &[("OMP_NUM_THREADS", "2")])
            .status
            .success());
        let seq = dir.path().join("seq.rdtrace");
        assert!(run_traced(&exe, &seq, &[("OMP_NUM_THREADS", "1")])
            .status
            .success());
        (dir, omp, seq)
    });
    (&t.1, &t.2)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn thread_counts_are_bounded() {
    let (omp, _) = traces();
    let t = s(omp);
    let rule = "--threads must be an integer from 1 to 1024";
    for v in ["0", "1025", "100000", "20000", "-1", "many"] {
        usage(&["histogram", t, "--threads", v], &[rule]);
        usage(
            &["histogram", t, "--engine", "hprda", "--threads", v],
            &[rule],
        );
        usage(&["live", "--threads", v, "--", "true"], &[rule]);
    }
    // The bound is in --help.
    let o = Command::new(&tools().rda_report)
        .args(["histogram", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.contains("Worker threads for parallel engines (1 to 1024)"),
        "{help}"
    );
    // In range: fine.
    let (code, err) = run(&["histogram", t, "--engine", "parda", "--threads", "4"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn line_sizes_say_what_is_wrong() {
    let (omp, _) = traces();
    let t = s(omp);
    let rule = "--line must be a power of two between 1 and 4096";
    for v in ["-1", "0", "48", "8192", "99999999999", "x"] {
        usage(&["histogram", t, "--line", v], &[rule]);
        usage(&["paths", t, "--line", v], &[rule]);
        usage(&["live", "--line", v, "--", "true"], &[rule]);
    }
    usage(
        &["histogram", t, "--line", "48"],
        &["48 is not a power of two"],
    );
    usage(
        &["histogram", t, "--line", "-1"],
        &["\"-1\" is not a number of bytes"],
    );
}

#[test]
fn simt_sizes_cannot_allocate_absurdly() {
    let (omp, _) = traces();
    let t = s(omp);
    usage(
        &["simt", t, "--block", "4294967295"],
        &["--block must be an integer from 1 to 65536"],
    );
    usage(&["simt", t, "--block", "0"], &["--block must be"]);
    usage(&["simt", t, "--block", "-5"], &["--block must be"]);
    usage(
        &["simt", t, "--warp", "5000"],
        &["--warp must be an integer from 1 to 1024"],
    );
    usage(
        &["simt", t, "--scenario", "4", "--k", "18446744073709551615"],
        &["--k must be an integer from 1 to 65536"],
    );
    usage(
        &[
            "simt",
            t,
            "--scenario",
            "5",
            "--clusters",
            "18446744073709551615",
        ],
        &["--clusters must be an integer from 1 to 4096"],
    );
    usage(
        &["simt", t, "--scenario", "5", "--lsu", "0"],
        &["--lsu must be an integer from 1 to 4096"],
    );
    usage(
        &["simt", t, "--zoom", "18446744073709551615"],
        &["--zoom must be an integer from 1 to 1048576"],
    );
    usage(
        &["simt", t, "--scenario", "-1"],
        &["--scenario must be an integer from 1 to 6"],
    );
    usage(&["simt", t, "--max-rd", "0"], &["--max-rd must be"]);
    usage(&["simt", t, "--limit", "-1"], &["--limit must be"]);
    usage(&["simt", t, "--kernel", "-1"], &["--kernel must be"]);
    usage(&["simt", t, "--granularity", "line:0"], &["line:0"]);
    usage(
        &["simt", t, "--granularity", "line:4294967296"],
        &["BYTES from 1 to 1073741824"],
    );
    usage(
        &[
            "html",
            t,
            "-o",
            "/tmp/x.html",
            "--simt",
            "1",
            "--simt-block",
            "4294967295",
        ],
        &["--simt-block must be an integer from 1 to 65536"],
    );
    // The largest block is fine (a block holds at most the loop's iterations).
    let (code, err) = run(&["simt", t, "--block", "65536"]);
    assert_eq!(code, 0, "{err}");
}

/// `/dev/zero` as a GPU text trace: a clear failure (1) at once, not a 4 GiB line.
#[test]
fn garbage_gpu_text_is_refused_with_bounded_memory() {
    let (code, err) = run(&["simt", "--input-format", "gpu-text", "/dev/zero"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("/dev/zero:1: the line holds a NUL byte: binary data, not a GPU text trace"),
        "{err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{err}"
    );
    // So is a PARDA text input.
    let (code, err) = run(&[
        "histogram",
        "/dev/zero",
        "--input-format",
        "parda-text",
        "--line",
        "1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not a PARDA text file"), "{err}");
}

#[test]
fn engine_and_sampling_flags_are_bounded() {
    let (omp, _) = traces();
    let t = s(omp);
    usage(
        &["histogram", t, "--st", "0"],
        &["--st must be an integer from 1 to 65536"],
    );
    usage(
        &["histogram", t, "--nb", "-3"],
        &["--nb must be an integer from 1 to 1024"],
    );
    usage(
        &[
            "histogram",
            t,
            "--engine",
            "hprda",
            "--st",
            "65536",
            "--nb",
            "1024",
        ],
        &["more than 16777216 references per thread block"],
    );
    usage(
        &["histogram", t, "--bound", "0"],
        &["--bound must be an integer from 1 to"],
    );
    usage(
        &["histogram", t, "--chunk", "0"],
        &["--chunk must be an integer from 1 to"],
    );
    usage(
        &["histogram", t, "--chunk", "18446744073709551615"],
        &["--chunk must be an integer from 1 to 1073741824"],
    );
    usage(
        &["histogram", t, "--sample-rate", "-0.5"],
        &["--sample-rate must be a fraction in (0, 1]"],
    );
    usage(
        &["histogram", t, "--sample-max-blocks", "0"],
        &["--sample-max-blocks must be"],
    );
    usage(
        &["histogram", t, "--sample-seed", "-1"],
        &["--sample-seed must be an integer from 0"],
    );
    usage(
        &["live", "--parda-chunk", "0", "--", "true"],
        &["--parda-chunk must be"],
    );
    usage(
        &["live", "--shards-rate", "-1", "--", "true"],
        &["--shards-rate must be a fraction"],
    );
    usage(
        &["live", "--bound", "-1", "--", "true"],
        &["--bound must be"],
    );
}

#[test]
fn model_and_cache_flags_are_bounded() {
    let (omp, seq) = traces();
    let (t, q) = (s(omp), s(seq));
    let cores = "--cores must be an integer from 1 to 1024";
    usage(&["predict", q, "--cores", "0,2"], &[cores]);
    usage(&["predict", q, "--cores", "-1"], &[cores]);
    usage(&["predict", q, "--cores", "1,65535"], &[cores]);
    usage(
        &["live", "--predict", "--cores", "2000", "--", "true"],
        &[cores],
    );
    usage(
        &["predict", q, "--chunk", "-4"],
        &["--chunk must be an integer from 1 to"],
    );
    usage(
        &["predict", q, "--sample-rate", "2"],
        &["--sample-rate must be a fraction in (0, 1]"],
    );
    usage(
        &["predict", q, "--min-samples", "-1"],
        &["--min-samples must be"],
    );
    usage(
        &["predict", q, "--seed", "-1"],
        &["--seed must be an integer from 0"],
    );
    usage(
        &["predict", q, "--set-sample-rate", "0"],
        &["--set-sample-rate must be a fraction"],
    );
    // Caches: at most 16 Mi lines each, lines at most 4096 bytes.
    for cmd in [&["predict", q][..], &["measure", t], &["annotate", t]] {
        let mut a = cmd.to_vec();
        a.extend(["--l2", "1024G:16:64"]);
        usage(&a, &["a simulated cache holds at most 16777216 lines"]);
    }
    usage(
        &["predict", q, "--l1", "64G:full:64"],
        &["at most 16777216 lines"],
    );
    // Every core's L1 counts: many cores of a large L1 are refused before any allocation.
    usage(
        &["predict", q, "--cores", "1024", "--l1", "1G:8:64"],
        &["would simulate", "cache lines at once"],
    );
    usage(
        &["validate", "--seq", q, "--real", "1025=x.rdtrace"],
        &["CORES from 1 to 1024"],
    );
}

#[test]
fn other_analysis_flags_are_bounded() {
    let (omp, _) = traces();
    let t = s(omp);
    usage(
        &["annotate", t, "--context", "18446744073709551615"],
        &["--context must be an integer from 0 to 1000"],
    );
    usage(&["annotate", t, "--top", "-1"], &["--top must be"]);
    usage(
        &["check", t, "--limit", "-1"],
        &["--limit must be an integer from 0 to"],
    );
    usage(
        &["paths", t, "--history", "1,-2"],
        &["--history lengths must be integers from 1 to 56"],
    );
    usage(
        &["paths", t, "--history", "57"],
        &["--history lengths must be integers from 1 to 56"],
    );
    usage(
        &["paths", t, "--drop-below", "-1"],
        &["--drop-below must be a fraction in [0, 1)"],
    );
    usage(
        &["paths", t, "--min-frequency", "0"],
        &["--min-frequency must be a fraction in (0, 1]"],
    );
    usage(&["paths", t, "--squash", "0"], &["--squash must be"]);
    usage(
        &["paths", t, "--long-threshold", "0"],
        &["--long-threshold must be"],
    );
    usage(&["paths", t, "--instr", "-1"], &["--instr must be"]);
    usage(&["paths", t, "--top", "-1"], &["--top must be"]);
    for bad in ["0", "-1", "lots", "1099511627777"] {
        usage(
            &["paths", t, "--max-paths", bad],
            &["--max-paths must be an integer from 1 to 2^40, or unlimited"],
        );
    }
    usage(
        &["paths", t, "--instr", "0", "--plot-history", "99"],
        &["--history lengths must be"],
    );
    usage(
        &[
            "paths-predict",
            "--train",
            "a:1",
            "--train",
            "b:2",
            "--validate",
            "c:1e300",
        ],
        &["at most 1e15"],
    );
    usage(
        &[
            "paths-predict",
            "--train",
            "a:1",
            "--train",
            "b:2",
            "--validate",
            "c:3",
            "--overlap",
            "-0.1",
        ],
        &["--overlap must be a fraction in [0, 1]"],
    );
    usage(
        &["html", t, "-o", "/tmp/x.html", "--max-paths", "0"],
        &["--max-paths must be"],
    );
    usage(
        &["html", t, "-o", "/tmp/x.html", "--top", "0"],
        &["--top must be an integer from 1 to 1000"],
    );
}
