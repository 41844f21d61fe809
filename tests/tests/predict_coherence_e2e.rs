//! End to end for issue 29 point 2 (predicted coherence misses) and point 3 for `predict
//! --model exact` (the 3C split of the predicted misses).
//!
//! SASMM predicts from a one-thread trace, so the programs here run the same code on any number
//! of threads (`test-programs/coherence/ws_*.c`; the turn-taking programs of `coherence_e2e`
//! depend on the thread number and cannot run on one thread). Each program's header derives
//! the counts below. The sequential traces run with `OMP_NUM_THREADS=1`, the real ones with 2
//! and 4 threads, `OMP_WAIT_POLICY=passive` and `RDTRACE_STAMP_EVERY=1` (stamps at every block,
//! so `measure`'s merge puts every block where it ran).
//!
//! Predicted (exact model, round-robin interleaving, L1 8K:8:64, L2 128K:16:64), derived:
//! - `ws_counters` unpadded, NT = m counters in one line: 2 (m − 1) false-sharing misses per
//!   round (the lockstep puts every core's load before any store), padded: none.
//! - `ws_reduction`: m true-sharing misses per round, m (ROUNDS − 1) in all (the first
//!   round's adds are compulsory; a shared variable read at the region's end may add one), no
//!   false sharing.
//! - `ws_producer_consumer`: 64 (ROUNDS − 1) true-sharing misses, plus at most a few
//!   elsewhere (the loop's shared bookkeeping).
//! - Everywhere, with `--3c`: compulsory + capacity + conflict + coherence = the predicted
//!   misses, exactly, for the L1 (all cores, and each core) and the L2.
//!
//! Validated against `measure` on the real runs (the measured side is the same write-invalidate
//! rule on the run's own interleaving). Bounds, and why:
//! - `ws_producer_consumer`: the barriers fix the order completely, so model and run see the
//!   same sequence: within 1 % (measured: 6337 vs 6338 at 2 threads, 6337 vs 6340 at 4).
//! - `ws_reduction`: each thread misses once per round unless it was the last to add in the
//!   round before and is first again: measured ∈ [(T − 1) ROUNDS, T ROUNDS], the model T ROUNDS:
//!   predicted / measured ∈ [1, T / (T − 1)] (≤ 2 at 2 threads, ≤ 4/3 at 4), plus 1 % slack.
//!   (Measured: 1377 vs 1999 at 2 threads; 3996 vs 3997 at 4, where a round's 4 threads on the
//!   2 CPUs rarely repeat the last adder.)
//! - `ws_counters` unpadded: real updates, one per thread per round, that come one at a time
//!   give measured ∈ [(T − 1) ROUNDS, T ROUNDS]; the model's lockstep gives 2 (T − 1) ROUNDS:
//!   predicted / measured ∈ [1, 2] at T = 2 and [1.5, 2] at T = 4 (measured: 4000 vs 2953,
//!   11998 vs 7996). Two threads running at once on the 2 CPUs can split an update (another
//!   thread's store between a load and its store), which adds misses up to the lockstep's, so
//!   the bound asserted is [1, 2] at both, with 1 % slack. Padded: 0 and 0.
//! - An ordinary kernel (`kernels/jacobi2d.c`, rows split over threads, neighbours' boundary
//!   rows read after they were written): few coherence misses, and the error per 1000
//!   references is below 1 (measured: 0.12 at 2 threads, 0.31 at 4).
//!
//! A 2-CPU machine runs 4 threads two at a time, but every bound above holds for any order the
//! barriers allow, so the 4-thread figures are not weakened by the coarse interleaving
//! MISSION.md section 5 warns of (the programs synchronise every round).

use rdtools_e2e::{program, rda_report_json, rdcc};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const COUNTER_ROUNDS: u64 = 2000;
const REDUCTION_ROUNDS: u64 = 1000;
const PC_ROUNDS: u64 = 100;
const PC_LINES: u64 = 64;

use rdtools_e2e::count as int;

/// Builds `rel` (under test-programs/) into `dir`.
fn build(dir: &Path, rel: &str, flags: &[&str]) -> PathBuf {
    let exe = dir.join(rel.replace('/', "_"));
    let mut all = vec!["-fopenmp", "-O2", "-g"];
    all.extend_from_slice(flags);
    rdcc(&[program(rel)], &all, &exe);
    exe
}

/// Runs `exe args` traced with `threads` threads into `dir/name.rdtrace`.
fn run(dir: &Path, exe: &Path, args: &[&str], threads: usize, name: &str) -> PathBuf {
    let trace = dir.join(format!("{name}.rdtrace"));
    let out = rdtools_e2e::output_traced(
        Command::new(exe)
            .args(args)
            .env("OMP_NUM_THREADS", threads.to_string())
            .env("OMP_WAIT_POLICY", "passive")
            .env("RDTRACE_STAMP_EVERY", "1")
            .env("RDTRACE_QUIET", "1"),
        &trace,
    );
    assert!(
        out.status.success(),
        "{} {args:?}: {}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    trace
}

/// `predict --json --3c` at `cores`: the row of that core count.
fn predict(seq: &Path, cores: usize) -> Value {
    let rows = rda_report_json(&[
        "predict",
        seq.to_str().unwrap(),
        "--cores",
        &cores.to_string(),
        "--3c",
        "--json",
        "-q",
    ]);
    let row = rows[0].clone();
    assert_eq!(int(&row, "cores"), cores as u64);
    check_split(&row);
    row
}

/// The 3C split adds up to the predicted misses, for all cores, each core and the L2; the
/// coherence counts split into true and false sharing.
fn check_split(row: &Value) {
    let four = |k: &Value| {
        int(k, "compulsory") + int(k, "capacity") + int(k, "conflict") + int(k, "coherence")
    };
    let l1 = &row["l1_miss_classes"];
    let (mut refs, mut hits, mut l2_hits, mut coherence) = (0, 0, 0, 0);
    for c in row["per_core"].as_array().expect("per_core") {
        let k = &c["l1_miss_classes"];
        assert_eq!(four(k), int(c, "l1_misses"), "core: {c}");
        assert_eq!(
            int(k, "coherence"),
            int(k, "true_sharing") + int(k, "false_sharing")
        );
        assert_eq!(int(&c["l1_coherence"], "coherence"), int(k, "coherence"));
        refs += int(c, "references");
        hits += int(c, "l1_hits");
        l2_hits += int(c, "l2_hits");
        coherence += int(k, "coherence");
    }
    assert_eq!(refs, int(row, "references"), "{row}");
    assert_eq!(four(l1), refs - hits, "L1: {row}");
    assert_eq!(int(l1, "coherence"), coherence);
    assert_eq!(int(&row["l1_coherence"], "coherence"), coherence);
    let l2 = &row["l2_miss_classes"];
    assert_eq!(four(l2), refs - hits - l2_hits, "L2: {row}");
    assert_eq!(
        int(l2, "coherence"),
        0,
        "the shared L2 is never invalidated"
    );
}

/// `validate --json` of `seq` against one real run of `cores` threads: the row's coherence.
fn validate(seq: &Path, cores: usize, real: &Path) -> Value {
    let v = rda_report_json(&[
        "validate",
        "--seq",
        seq.to_str().unwrap(),
        "--real",
        &format!("{cores}={}", real.display()),
        "--json",
        "-q",
    ]);
    let c = v["rows"][0]["coherence"].clone();
    // The error is stated both ways, and agrees with the two sides.
    let (p, m) = (&c["predicted"], &c["measured"]);
    let per = |x: &Value| x["coherence_per_1000"].as_f64().unwrap();
    let abs = c["abs_error_per_1000"].as_f64().unwrap();
    assert!((abs - (per(p) - per(m)).abs()).abs() < 1e-9, "{c}");
    if int(m, "coherence") > 0 {
        let rel = c["rel_error"].as_f64().unwrap();
        let want = (int(p, "coherence") as f64 - int(m, "coherence") as f64).abs()
            / int(m, "coherence") as f64;
        assert!((rel - want).abs() < 1e-9, "{c}");
    }
    c
}

/// Predicted over measured coherence misses.
fn ratio(c: &Value) -> f64 {
    int(&c["predicted"], "coherence") as f64 / int(&c["measured"], "coherence").max(1) as f64
}

#[test]
fn unpadded_counters_predict_false_sharing_and_padded_none() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(dir.path(), "coherence/ws_counters.c", &[]);
    for m in [2usize, 4] {
        let nt = m.to_string();
        let seq = run(dir.path(), &exe, &[&nt], 1, &format!("u{m}-seq"));
        let real = run(dir.path(), &exe, &[&nt], m, &format!("u{m}-real"));
        let row = predict(&seq, m);
        let k = &row["l1_coherence"];
        // 2 (m - 1) per round, the first round's loads compulsory instead.
        let want = 2 * (m as u64 - 1) * COUNTER_ROUNDS;
        let got = int(k, "coherence");
        assert!(
            got <= want && got + 2 * m as u64 >= want,
            "m = {m}: {got} vs {want}: {row}"
        );
        assert_eq!(int(k, "false_sharing"), got, "all false sharing: {row}");
        let c = validate(&seq, m, &real);
        let r = ratio(&c);
        assert!(
            (0.99..=2.0 * 1.01).contains(&r),
            "m = {m}: predicted / measured = {r}: {c}"
        );

        let seq = run(dir.path(), &exe, &[&nt, "padded"], 1, &format!("p{m}-seq"));
        let real = run(dir.path(), &exe, &[&nt, "padded"], m, &format!("p{m}-real"));
        let row = predict(&seq, m);
        assert_eq!(int(&row["l1_coherence"], "coherence"), 0, "{row}");
        let c = validate(&seq, m, &real);
        assert_eq!(int(&c["measured"], "coherence"), 0, "{c}");
        assert_eq!(int(&c["predicted"], "coherence"), 0, "{c}");
    }
}

#[test]
fn a_shared_reduction_predicts_true_sharing() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(dir.path(), "coherence/ws_reduction.c", &[]);
    let seq = run(dir.path(), &exe, &[], 1, "seq");
    for m in [2usize, 4] {
        let real = run(dir.path(), &exe, &[], m, &format!("real{m}"));
        let row = predict(&seq, m);
        let k = &row["l1_coherence"];
        let want = m as u64 * (REDUCTION_ROUNDS - 1);
        assert!(
            (want..=want + 2).contains(&int(k, "true_sharing")),
            "{want}: {row}"
        );
        assert_eq!(int(k, "false_sharing"), 0, "{row}");
        let c = validate(&seq, m, &real);
        let r = ratio(&c);
        let high = m as f64 / (m as f64 - 1.0);
        assert!(
            (0.99..=high * 1.01).contains(&r),
            "m = {m}: predicted / measured = {r}: {c}"
        );
        assert_eq!(int(&c["measured"], "false_sharing"), 0, "{c}");
    }
}

#[test]
fn producer_consumer_predicts_the_consumers_true_sharing_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(dir.path(), "coherence/ws_producer_consumer.c", &[]);
    let seq = run(dir.path(), &exe, &[], 1, "seq");
    let want = PC_LINES * (PC_ROUNDS - 1);
    for m in [2usize, 4] {
        let real = run(dir.path(), &exe, &[], m, &format!("real{m}"));
        let row = predict(&seq, m);
        let k = &row["l1_coherence"];
        let got = int(k, "true_sharing");
        assert!(
            (want..=want + 2 * PC_ROUNDS / 10).contains(&got),
            "{got} vs {want}: {row}"
        );
        // The consumer (core 1) has them; the producer (core 0) none at its stores.
        let core1 = &row["per_core"][1]["l1_coherence"];
        assert!(int(core1, "true_sharing") >= want, "{row}");
        let c = validate(&seq, m, &real);
        let r = ratio(&c);
        assert!((0.99..=1.01).contains(&r), "m = {m}: {r}: {c}");
    }
}

#[test]
fn an_ordinary_kernel_has_few_coherence_misses_and_a_small_error() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(dir.path(), "kernels/jacobi2d.c", &["-DN=96", "-DTSTEPS=3"]);
    let seq = run(dir.path(), &exe, &[], 1, "seq");
    for m in [2usize, 4] {
        let real = run(dir.path(), &exe, &[], m, &format!("real{m}"));
        let row = predict(&seq, m);
        let per = row["l1_coherence"]["coherence_per_1000"].as_f64().unwrap();
        assert!(per > 0.0 && per < 5.0, "{row}");
        let c = validate(&seq, m, &real);
        let err = c["abs_error_per_1000"].as_f64().unwrap();
        assert!(err < 1.0, "m = {m}: {c}");
    }
}
