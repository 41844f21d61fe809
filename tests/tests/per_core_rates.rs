//! End to end for per-core rates (issue 25, part 5): `predict --json` gives each core's L1
//! rates beside the combined ones (`per_core`), `measure --json` each thread's (`per_thread`).
//!
//! `test-programs/per_core/master_setup.c` is built with `rdcc` and traced with one and two
//! threads: inside its parallel region the master thread reads a 1 MiB buffer once (master-only
//! setup, BIG_LINES = 16384 first touches), then every thread sweeps its static share of a small
//! array 16 times (all L1 hits after the first sweep). Its header comment derives the expected
//! behaviour; asserted here:
//! - `predict`, 1 core: the one per-core entry is the combined rates and counts; on every core
//!   count the per-core counts add up to the combined ones, for both models (the formula's per
//!   core `l1_hit`s weighted by references give its exact-profile rate).
//! - `measure`: the per-thread counts add up to the combined counts (references, L1 hits, L2
//!   accesses and hits); one entry per trace thread, with its OpenMP number.
//! - with two threads, thread 0 (OpenMP 0) has at least BIG_LINES L1 misses and an L1 hit rate
//!   below half the worker's, which is above 95 %.

use rdtools_e2e::{build_and_trace, rda_report_json};
use serde_json::Value;
use std::path::Path;

const BIG_LINES: u64 = 16384;

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Equal up to JSON's float round trip (serde_json's parser may be one unit in the last place
/// off; the library tests check the rates bit for bit).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(b.abs()).max(1e-300)
}

use rdtools_e2e::count as int;

/// Traces the program with `threads` OpenMP threads; returns the directory (keep it) and the
/// trace's path.
fn trace(threads: usize) -> (tempfile::TempDir, String) {
    let t = threads.to_string();
    let (_trace, out, dir) = build_and_trace(
        "per_core/master_setup.c",
        &["-fopenmp", "-O2"],
        &[("OMP_NUM_THREADS", &t), ("OMP_WAIT_POLICY", "passive")],
    );
    assert!(
        out.status.success(),
        "master_setup with {threads} threads: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("sum 8192.0 setup 1"),
        "the program's result does not depend on the thread count: {stdout}"
    );
    let path = dir.path().join("prog.rdtrace");
    assert!(Path::new(&path).exists());
    let p = path.to_str().unwrap().to_string();
    (dir, p)
}

/// Checks that the per-core counts of a `predict` row (exact model) add up to its combined
/// counts and that its rates are those of the sums.
fn check_exact_row(row: &Value) {
    let cores = int(row, "cores") as usize;
    let per = row["per_core"].as_array().expect("per_core");
    assert_eq!(per.len(), cores, "{row}");
    assert_eq!(row["per_core_combines_to"], "l1_hit");
    let sum = |k: &str| per.iter().map(|c| int(c, k)).sum::<u64>();
    let (refs, l1_hits, l2_hits) = (sum("references"), sum("l1_hits"), sum("l2_hits"));
    assert_eq!(refs, int(row, "references"), "{row}");
    assert_eq!(sum("l1_misses"), refs - l1_hits);
    assert_eq!(sum("l2_accesses"), refs - l1_hits);
    assert_eq!(sum("l2_misses"), refs - l1_hits - l2_hits);
    // The combined rates are the rates of the summed counts (the same formula).
    let r = refs as f64;
    assert!(close(num(&row["l1_hit"]), l1_hits as f64 / r), "{row}");
    assert!(
        close(num(&row["l1_mpka"]), 1000.0 * (refs - l1_hits) as f64 / r),
        "{row}"
    );
    assert!(
        close(
            num(&row["l2_hit_global"]),
            1.0 - (refs - l1_hits - l2_hits) as f64 / r
        ),
        "{row}"
    );
    // And the reference-weighted combination of the per-core rates.
    let weighted = |k: &str| {
        per.iter()
            .map(|c| int(c, "references") as f64 * num(&c[k]))
            .sum::<f64>()
            / r
    };
    for k in ["l1_hit", "l1_mpka", "l2_hit_global", "l2_mpka"] {
        let (w, all) = (weighted(k), num(&row[k]));
        assert!(
            (w - all).abs() <= 1e-12 * all.abs().max(1.0),
            "{k}: {w} vs {all}"
        );
    }
    for (c, x) in per.iter().enumerate() {
        assert_eq!(int(x, "core"), c as u64);
        assert_eq!(x["l1_hit"], row["l1_hit_per_core"][c], "{row}");
    }
}

#[test]
fn predict_gives_per_core_rates_that_combine_to_the_totals() {
    let (_dir, seq) = trace(1);
    let rows = rda_report_json(&["predict", &seq, "--cores", "1,2,4", "--json", "-q"]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        check_exact_row(row);
    }
    // One core: the one entry is the combined rates and counts.
    let one = &rows[0];
    let c0 = &one["per_core"][0];
    for k in [
        "l1_hit",
        "l2_hit_global",
        "l2_hit",
        "l2_hit_local",
        "l1_mpka",
        "l2_mpka",
        "references",
    ] {
        assert_eq!(c0[k], one[k], "{k}: {one}");
    }
    // On one core the program's master-only setup is all there is besides the sweeps: at least
    // BIG_LINES first touches.
    assert!(int(c0, "l1_misses") >= BIG_LINES, "{c0}");

    // The formula: eq. 7 on each core's exact PRD, weighted by references, is the exact-profile
    // rate; no counts it cannot give.
    let f = rda_report_json(&[
        "predict", &seq, "--cores", "1,2", "--model", "formula", "--json", "-q",
    ]);
    for row in f.as_array().unwrap() {
        assert_eq!(row["per_core_combines_to"], "l1_hit_exact_profile");
        let per = row["per_core"].as_array().unwrap();
        assert_eq!(per.len() as u64, int(row, "cores"));
        let refs: u64 = per.iter().map(|c| int(c, "references")).sum();
        assert_eq!(refs, int(row, "references"));
        let w = per
            .iter()
            .map(|c| int(c, "references") as f64 * num(&c["l1_hit"]))
            .sum::<f64>()
            / refs as f64;
        let all = num(&row["l1_hit_exact_profile"]);
        assert!((w - all).abs() < 1e-12, "{w} vs {all}");
        assert!(per.iter().all(|c| c.get("l1_hits").is_none()), "{row}");
    }
}

/// Checks `measure`'s per-thread counts against its combined counts; returns the entries.
fn check_measure(m: &Value, threads: usize) -> Vec<Value> {
    let per = m["per_thread"].as_array().expect("per_thread").clone();
    assert_eq!(per.len(), threads, "{m}");
    let sum = |k: &str| per.iter().map(|t| int(t, k)).sum::<u64>();
    let l1_hits: u64 = m["l1_per_thread"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| int(s, "hits"))
        .sum();
    assert_eq!(sum("references"), int(m, "references"));
    assert_eq!(sum("l1_hits"), l1_hits);
    assert_eq!(sum("l2_accesses"), int(&m["l2"], "accesses"));
    assert_eq!(sum("l2_hits"), int(&m["l2"], "hits"));
    assert!(close(
        num(&m["l1_hit"]),
        l1_hits as f64 / sum("references") as f64
    ));
    let mut omp: Vec<u64> = per.iter().map(|t| int(t, "omp_thread")).collect();
    omp.sort_unstable();
    assert_eq!(omp, (0..threads as u64).collect::<Vec<_>>(), "{m}");
    per
}

#[test]
fn measure_gives_per_thread_rates_and_the_master_differs() {
    let (_d1, one) = trace(1);
    let m1 = rda_report_json(&["measure", &one, "--json", "-q"]);
    let per = check_measure(&m1, 1);
    for k in [
        "l1_hit",
        "l2_hit_global",
        "l2_hit_local",
        "l1_mpka",
        "l2_mpka",
    ] {
        assert_eq!(per[0][k], m1[k], "{k}");
    }

    let (_d2, two) = trace(2);
    let m2 = rda_report_json(&["measure", &two, "--json", "-q"]);
    let per = check_measure(&m2, 2);
    let by_omp = |n: u64| per.iter().find(|t| int(t, "omp_thread") == n).unwrap();
    let (master, worker) = (by_omp(0), by_omp(1));
    // The master's setup: BIG_LINES first touches, each an L1 and an L2 miss.
    assert!(int(master, "l1_misses") >= BIG_LINES, "{master}");
    assert!(int(master, "l2_misses") >= BIG_LINES, "{master}");
    // The worker: its 32-line share of the array, hit from its second sweep on.
    let (hm, hw) = (num(&master["l1_hit"]), num(&worker["l1_hit"]));
    assert!(hw > 0.95, "worker L1 hit {hw}: {worker}");
    assert!(hm < 0.4 && hm < hw / 2.0, "master {hm} vs worker {hw}");
    assert!(int(worker, "l1_misses") < 200, "{worker}");
    // The prediction from the one-thread trace: its per-core counts add up, and core 0 has at
    // least the setup's misses. (Alg. 1 replicates the parallel code outside worksharing loops
    // on every core, so the model cannot know that the setup is the master's only: its core 1
    // reads the buffer too, right after core 0 in the round-robin, and hits it in the L2.)
    let p = rda_report_json(&["predict", &one, "--cores", "2", "--json", "-q"]);
    let row = &p[0];
    check_exact_row(row);
    assert!(int(&row["per_core"][0], "l1_misses") >= BIG_LINES, "{row}");
    // `validate` carries both.
    let v = rda_report_json(&[
        "validate",
        "--seq",
        &one,
        "--real",
        &format!("2={two}"),
        "--json",
        "-q",
    ]);
    let r = &v["rows"][0];
    assert_eq!(r["measured"]["per_thread"], m2["per_thread"]);
    assert_eq!(r["exact"]["per_core"], row["per_core"]);
}
