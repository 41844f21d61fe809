//! `rda-report live` end to end (issue 9): programs built with `rdcc` run under `live`; the
//! report equals the offline report of the same run's tee copy, the program's output and exit
//! status pass through, and a long run streams through bounded memory without a file.

use rdtools_e2e::{check_invariants, live, program, rdcc, tools};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Builds `rel` with `flags` into `dir/name`.
fn build(dir: &Path, rel: &str, flags: &[&str], name: &str) -> PathBuf {
    let exe = dir.join(name);
    rdcc(&[program(rel)], flags, &exe);
    exe
}

/// Builds basic/omp_reduction.c (`-O2 -fopenmp`) into `dir/omp`.
fn build_omp_reduction(dir: &Path) -> PathBuf {
    build(dir, "basic/omp_reduction.c", &["-O2", "-fopenmp"], "omp")
}

/// Splits `live`'s stdout into the program's output and the JSON report (which starts at the
/// first line that is just `{` or `[`; the programs here print no such line).
fn split_report(stdout: &[u8]) -> (String, serde_json::Value) {
    let s = String::from_utf8_lossy(stdout).into_owned();
    let at = s
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain(std::iter::once(0))
        .filter(|&i| s[i..].starts_with("{\n") || s[i..].starts_with("[\n"))
        .min()
        .unwrap_or_else(|| panic!("no JSON report in {s:?}"));
    let json = serde_json::from_str(&s[at..]).unwrap_or_else(|e| panic!("{e}: {}", &s[at..]));
    (s[..at].to_string(), json)
}

fn offline(args: &[&str]) -> serde_json::Value {
    let o = Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "rda-report {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// `live <report> --json` equals the offline command's JSON on the tee copy of the same run,
/// and the program's stdout comes through before the report. Returns live's output.
fn check_same_report(
    exe: &Path,
    env: &[(&str, &str)],
    live_args: &[&str],
    offline_cmd: &str,
    offline_args: &[&str],
    expect_stdout: &str,
) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let tee = dir.path().join("tee.rdtrace");
    let tee_s = tee.to_str().unwrap();
    let mut env = env.to_vec();
    env.push(("RDTRACE_TEE", tee_s));
    let mut args = live_args.to_vec();
    args.push("--json");
    let out = live(dir.path(), &args, exe, &[], &env);
    check_invariants(&tee);
    let (program_out, live_json) = split_report(&out.stdout);
    assert_eq!(program_out, expect_stdout);
    let mut off = vec![offline_cmd, tee_s];
    off.extend_from_slice(offline_args);
    off.push("--json");
    assert_eq!(live_json, offline(&off), "live {live_args:?} vs {off:?}");
    out
}

#[test]
fn serial_program_live_equals_histogram_of_the_tee_trace() {
    let dir = tempfile::tempdir().unwrap();
    // Scalar code, so every element access is one reference (see serial_loop.c).
    let exe = build(
        dir.path(),
        "basic/serial_loop.c",
        &["-O2", "-fno-vectorize", "-fno-slp-vectorize"],
        "serial",
    );
    // serial_loop.c: N = 4096 doubles written once, read twice; the sums are 0.5 * (0 + ... +
    // 4095) = 4193280 each.
    let out = check_same_report(
        &exe,
        &[],
        &["--histogram"],
        "histogram",
        &[],
        "4193280.0 4193280.0\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let (_, json) = split_report(&out.stdout);
    // 512 lines: 512 cold misses, 2 * 512 first touches per read sweep at distance 511.
    assert_eq!(json["cold"], 512);
    assert_eq!(json["total"], 3 * 4096);
    // The same for per-thread output and another line size.
    check_same_report(
        &exe,
        &[],
        &["--per-thread", "--line", "8"],
        "histogram",
        &["--per-thread", "--line", "8"],
        "4193280.0 4193280.0\n",
    );
}

#[test]
fn openmp_program_live_equals_histogram_with_1_and_4_threads() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build_omp_reduction(dir.path());
    for threads in ["1", "4"] {
        let env = [("OMP_NUM_THREADS", threads)];
        // omp_reduction.c: sum of (i % 100) over i < 10000 = 100 * 4950.
        let out = check_same_report(&exe, &env, &[], "histogram", &[], "sum=495000\n");
        assert_eq!(out.status.code(), Some(0));
        check_same_report(
            &exe,
            &env,
            &["--per-thread"],
            "histogram",
            &["--per-thread"],
            "sum=495000\n",
        );
    }
}

/// A number before `key` in `live --stats`'s line ("... and 1234 events; ...").
fn stat_before(stderr: &str, key: &str) -> u64 {
    let at = stderr
        .find(key)
        .unwrap_or_else(|| panic!("no {key:?} in {stderr}"));
    let digits: String = stderr[..at]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

#[test]
fn idle_openmp_workers_do_not_hold_the_live_merge_back() {
    // omp_serial_phase.c: 4 threads run a parallel loop, then the master alone walks 3 * 10^6
    // steps (at least 3 * 10^6 accesses) while the workers wait in libomp. The workers park at
    // region exit and the writer publishes floors for them, so the merge keeps up with the
    // master: the reader holds at most about two chunks per thread (a chunk closes after the
    // raw buffer that takes it to the default 65536 events, so it has at most one buffer of
    // 65536 records and the inline slack more), far less than the walk.
    let dir = tempfile::tempdir().unwrap();
    let exe = build(
        dir.path(),
        "live/omp_serial_phase.c",
        &["-O2", "-fopenmp"],
        "omp_serial",
    );
    let run_dir = tempfile::tempdir().unwrap();
    let tee = run_dir.path().join("tee.rdtrace");
    let out = live(
        run_dir.path(),
        &["--json", "--stats"],
        &exe,
        &["3000000"],
        &[
            ("OMP_NUM_THREADS", "4"),
            ("RDTRACE_TEE", tee.to_str().unwrap()),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let (program_out, json) = split_report(&out.stdout);
    assert!(program_out.ends_with(" 6.0\n"), "{program_out:?}");
    assert!(json["total"].as_u64().unwrap() >= 3_000_000);
    let held = stat_before(&stderr, "events; peak RSS");
    let floors = stat_before(&stderr, "floor chunks");
    assert!(floors > 0, "{stderr}");
    assert!(
        held <= 4 * 2 * (65536 + 65536 + 4096),
        "held {held} events: {stderr}"
    );
    // And the merge is still the offline one.
    assert_eq!(
        json,
        offline(&["histogram", tee.to_str().unwrap(), "--json"])
    );
}

#[test]
fn live_predict_equals_predict_of_the_tee_trace() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build_omp_reduction(dir.path());
    // OMP_NUM_THREADS is left unset: `live --predict` runs the program sequentially itself.
    check_same_report(
        &exe,
        &[],
        &["--predict", "--cores", "1,2,4"],
        "predict",
        &["--cores", "1,2,4"],
        "sum=495000\n",
    );
    // Set sampling reaches the live model too, with the same sets as offline.
    let sampled = [
        "--cores",
        "1,2",
        "--set-sample-rate",
        "0.25",
        "--set-sample-seed",
        "3",
    ];
    let mut live_args = vec!["--predict"];
    live_args.extend(sampled);
    let out = check_same_report(&exe, &[], &live_args, "predict", &sampled, "sum=495000\n");
    let (_, json) = split_report(&out.stdout);
    assert!(
        json.as_array()
            .unwrap()
            .iter()
            .all(|r| r["set_sample_rate"].as_f64() == Some(0.25)),
        "{json}"
    );
}

#[test]
fn live_predict_formula_equals_predict_of_the_tee_trace_and_needs_no_copy() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(
        dir.path(),
        "basic/omp_reduction.c",
        &["-O2", "-fopenmp"],
        "omp",
    );
    // The formula model reads the stream in one pass, as `predict` reads the tee copy.
    let flags = ["--predict", "--cores", "1,2,4", "--model", "formula"];
    check_same_report(
        &exe,
        &[],
        &flags,
        "predict",
        &["--cores", "1,2,4", "--model", "formula"],
        "sum=495000\n",
    );
    // Without a tee copy nothing goes to $TMPDIR (no parallel section is long enough to be
    // spilled): a directory that does not exist is no error.
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("missing");
    let mut args = flags.to_vec();
    args.push("--json");
    let out = live(
        dir.path(),
        &args,
        &exe,
        &[],
        &[("TMPDIR", missing.to_str().unwrap())],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let (program_out, json) = split_report(&out.stdout);
    assert_eq!(program_out, "sum=495000\n");
    let rows = json.as_array().unwrap();
    let cores: Vec<u64> = rows.iter().map(|r| r["cores"].as_u64().unwrap()).collect();
    assert_eq!(cores, [1, 2, 4]);
    assert!(rows.iter().all(|r| r["model"] == "formula"), "{json}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn crashing_program_reports_what_it_traced_and_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(dir.path(), "basic/crash.c", &["-O2"], "crash");
    let out = check_same_report(&exe, &[], &[], "histogram", &[], "");
    // SIGSEGV is 11: live exits with 128 + 11 after the report.
    assert_eq!(out.status.code(), Some(128 + 11));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("died by signal 11 (SIGSEGV)"),
        "stderr: {stderr}"
    );
    // crash.c: the stores to a[0..=N/2] (N = 200000, 4-byte ints, 16 per line) were traced:
    // at least 100001 references.
    let (_, json) = split_report(&out.stdout);
    assert!(json["total"].as_u64().unwrap() >= 100_001, "{json}");
}

#[test]
fn exit_codes_and_output_pass_through() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(
        dir.path(),
        "live/exit_code.c",
        &["-O2", "-fno-vectorize", "-fno-slp-vectorize"],
        "exit_code",
    );
    for (arg, code) in [("0", 0), ("3", 3)] {
        let out = live(dir.path(), &["--json"], &exe, &[arg], &[]);
        assert_eq!(out.status.code(), Some(code));
        let (program_out, json) = split_report(&out.stdout);
        // exit_code.c: the sum of 0..4095 is 4095 * 4096 / 2.
        assert_eq!(program_out, "out 8386560\n");
        assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("err {arg}\n")));
        // exit_code.c: 4096 ints = 256 lines stored then loaded, plus the loads of argv[1] and
        // of `stderr`, each on a line of its own.
        assert_eq!(json["cold"], 256 + 2);
        assert_eq!(json["total"], 2 * 4096 + 2);
    }
}

#[test]
fn usage_and_failures_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    // No program: a usage error.
    let o = Command::new(&tools().rda_report)
        .args(["live", "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A program not built with rdcc writes no trace: a failure, after it ran.
    let o = live(dir.path(), &[], Path::new("/bin/true"), &[], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("wrote no trace"));
    // A program that does not exist.
    let o = live(dir.path(), &[], Path::new("/nonexistent/prog"), &[], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot run"));
}

/// Runs the long walk under `live --stats` in an empty directory and checks the histogram by
/// reasoning, the reader's peak RSS and that no file was written. Returns (peak RSS KiB, bytes
/// through the pipe).
fn long_walk(steps: u64) -> (u64, u64) {
    let build_dir = tempfile::tempdir().unwrap();
    let exe = build(build_dir.path(), "live/chase.c", &["-O2"], "chase");
    let run_dir = tempfile::tempdir().unwrap();
    let steps_s = steps.to_string();
    let out = live(
        run_dir.path(),
        &["--json", "--stats"],
        &exe,
        &[&steps_s],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let (_, json) = split_report(&out.stdout);
    // chase.c with NODES = 2^14: references NODES + steps + 1, cold NODES + 1, and at least
    // steps - NODES at distance NODES - 1, nothing farther.
    let nodes = 1u64 << 14;
    assert_eq!(json["total"].as_u64().unwrap(), nodes + steps + 1);
    assert_eq!(json["cold"].as_u64().unwrap(), nodes + 1);
    let hist = json["histogram"].as_array().unwrap();
    let last = hist.last().unwrap();
    assert_eq!(last[0].as_u64().unwrap(), nodes - 1);
    assert!(last[1].as_u64().unwrap() >= steps - nodes);
    // Nothing written: the run directory is still empty.
    let left: Vec<_> = std::fs::read_dir(run_dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files written: {left:?}");
    let field = |key: &str| -> u64 {
        let at = stderr
            .find(key)
            .unwrap_or_else(|| panic!("no {key:?} in {stderr}"));
        let before: String = stderr[..at]
            .chars()
            .rev()
            .skip_while(|c| c.is_whitespace())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let after: String = stderr[at + key.len()..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        if key.ends_with("RSS") {
            after.parse().unwrap()
        } else {
            before.chars().rev().collect::<String>().parse().unwrap()
        }
    };
    let rss_kib = field("peak RSS");
    let bytes = field("bytes read");
    eprintln!("{steps} steps: {bytes} bytes through the pipe, analysis peak RSS {rss_kib} KiB");
    assert!(rss_kib < 300 * 1024, "peak RSS {rss_kib} KiB");
    (rss_kib, bytes)
}

#[test]
fn a_long_run_streams_in_bounded_memory_and_writes_no_file() {
    // 4 * 10^6 steps: about 2 MB through the pipe; the same code path as the 10^9 run below.
    long_walk(4_000_000);
}

#[test]
#[ignore = "slow: ~1300 s for 10^9 accesses on a loaded 2-core machine; run with --ignored"]
fn a_billion_accesses_stream_in_bounded_memory_and_write_no_file() {
    let (_, bytes) = long_walk(1_000_000_000);
    // A trace this long does not fit in the reader's memory: it must have streamed.
    assert!(bytes > 300 << 20, "only {bytes} bytes");
}

/// The tee copy of a live OpenMP run is a trace like any other and must keep the invariants
/// `rda-report check` checks (every e2e trace goes through it). It does not yet: in stream mode
/// each worker's second event is a stamp earlier than its first (by about 5 * 10^5 TSC ticks
/// with 4 threads of omp_reduction.c), and in omp_serial_phase.c again later in the run; found when the e2e tests began checking
/// tee copies (issue 15).
#[test]
fn tee_copy_of_an_openmp_stream_keeps_the_trace_invariants() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build_omp_reduction(dir.path());
    let tee = dir.path().join("tee.rdtrace");
    let out = live(
        dir.path(),
        &["--json"],
        &exe,
        &[],
        &[
            ("OMP_NUM_THREADS", "4"),
            ("RDTRACE_TEE", tee.to_str().unwrap()),
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    check_invariants(&tee);
}
