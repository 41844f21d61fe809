//! End to end for issue 29's last point: `predict --l3`, the exact model with three levels (a
//! private L1 and L2 per core, one shared L3), as `measure --l3` simulates a real run.
//!
//! - On one thread the mimicked trace is the sequential run itself, so `predict --l3 --cores 1`
//!   must give `measure --l3`'s counts exactly: references, L1, private-L2 and L3 accesses and
//!   hits, and with `--3c` every level's miss classes.
//! - On two cores, per-thread counters in one line (`coherence/ws_counters.c`): every L1
//!   coherence miss finds the line gone from the core's private L2 too (the other core's write
//!   invalidated both, and the line is never evicted), so the private L2s have exactly as many
//!   coherence misses as the L1s, and those are served by the L3, which is never invalidated.

use rdtools_e2e::count as int;
use rdtools_e2e::{program, rda_report_json, rdcc};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Small caches, so that every level both hits and misses on the kernels here.
const L1: &str = "1K:2:64";
const L2: &str = "4K:4:64";
const L3: &str = "64K:16:64";

/// Builds `rel` (under test-programs/) with `flags` into `dir` and runs it on one thread with
/// `args`: its trace.
fn sequential_trace(dir: &Path, rel: &str, flags: &[&str], args: &[&str]) -> PathBuf {
    let exe = dir.join(rel.replace('/', "_"));
    let mut all = vec!["-fopenmp", "-O2", "-g"];
    all.extend_from_slice(flags);
    rdcc(&[program(rel)], &all, &exe);
    let trace = dir.join("seq.rdtrace");
    let out = rdtools_e2e::output_traced(
        Command::new(&exe)
            .args(args)
            .env("OMP_NUM_THREADS", "1")
            .env("RDTRACE_QUIET", "1"),
        &trace,
    );
    assert!(out.status.success(), "{rel}: {out:?}");
    trace
}

/// `predict --l3 --3c --json` at `cores`: the one row.
fn predict_l3(seq: &Path, cores: usize) -> Value {
    let rows = rda_report_json(&[
        "predict",
        seq.to_str().unwrap(),
        "--cores",
        &cores.to_string(),
        "--l1",
        L1,
        "--l2",
        L2,
        "--l3",
        L3,
        "--3c",
        "--json",
        "-q",
    ]);
    assert_eq!(rows.as_array().unwrap().len(), 1, "{rows}");
    let row = rows[0].clone();
    assert_eq!(row["l2_cache"], L2);
    assert_eq!(row["l3_cache"], L3);
    row
}

/// The four classes of a miss split, as one tuple.
fn classes(k: &Value) -> (u64, u64, u64, u64, u64, u64) {
    (
        int(k, "compulsory"),
        int(k, "capacity"),
        int(k, "conflict"),
        int(k, "coherence"),
        int(k, "true_sharing"),
        int(k, "false_sharing"),
    )
}

#[test]
fn predict_l3_on_one_thread_equals_measure_l3() {
    let dir = tempfile::tempdir().unwrap();
    let seq = sequential_trace(
        dir.path(),
        "kernels/jacobi2d.c",
        &["-DN=48", "-DTSTEPS=2"],
        &[],
    );
    let p = predict_l3(&seq, 1);
    let m = rda_report_json(&[
        "measure",
        seq.to_str().unwrap(),
        "--l1",
        L1,
        "--l2",
        L2,
        "--l3",
        L3,
        "--json",
        "-q",
    ]);
    assert_eq!(m["l3_cache"], L3);
    let (pc, mt) = (&p["per_core"][0], &m["per_thread"][0]);
    // L1 and private L2, count for count.
    for key in [
        "references",
        "l1_hits",
        "l1_misses",
        "l2_accesses",
        "l2_hits",
        "l2_misses",
    ] {
        assert_eq!(int(pc, key), int(mt, key), "{key}: {pc} vs {mt}");
    }
    assert_eq!(int(&p, "references"), int(&m, "references"));
    assert_eq!(int(&m["l2"], "accesses"), int(pc, "l2_accesses"));
    assert_eq!(int(&m["l2"], "hits"), int(pc, "l2_hits"));
    // The shared L3.
    assert_eq!(int(&p, "l3_accesses"), int(&m["l3"], "accesses"));
    assert_eq!(int(&p, "l3_hits"), int(&m["l3"], "hits"));
    assert_eq!(int(pc, "l3_accesses"), int(&m["l3"], "accesses"));
    for key in [
        "l1_hit",
        "l2_hit_global",
        "l2_hit_local",
        "l3_hit_global",
        "l3_hit_local",
    ] {
        let (a, b) = (p[key].as_f64().unwrap(), m[key].as_f64().unwrap());
        assert!((a - b).abs() < 1e-12, "{key}: {a} vs {b}");
    }
    // Every level's misses, class for class (`measure`'s `levels`: L1, private L2, L3).
    let levels = m["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3, "{m}");
    for (level, key) in levels
        .iter()
        .zip(["l1_miss_classes", "l2_miss_classes", "l3_miss_classes"])
    {
        assert_eq!(classes(&p[key]), classes(level), "{key}: {level}");
    }
    // Each level hits and misses here, so the comparison says something about each.
    for (hits, accesses) in [("l1_hits", "references"), ("l2_hits", "l2_accesses")] {
        assert!(
            int(pc, hits) > 0 && int(pc, hits) < int(pc, accesses),
            "{pc}"
        );
    }
    assert!(int(&p, "l3_hits") > 0 && int(&p, "l3_misses") > 0, "{p}");
}

#[test]
fn unpadded_counters_lose_the_line_from_both_private_levels() {
    let dir = tempfile::tempdir().unwrap();
    let seq = sequential_trace(dir.path(), "coherence/ws_counters.c", &[], &["2"]);
    let p = predict_l3(&seq, 2);
    let (l1, l2) = (&p["l1_coherence"], &p["l2_coherence"]);
    // 2 (m - 1) = 2 false-sharing misses per round at the L1 (see ws_counters.c), and the
    // same at each private L2.
    assert!(int(l1, "false_sharing") >= 2 * 1999, "{p}");
    assert_eq!(int(l2, "coherence"), int(l1, "coherence"), "{p}");
    assert_eq!(int(l2, "false_sharing"), int(l1, "false_sharing"), "{p}");
    for c in p["per_core"].as_array().unwrap() {
        assert_eq!(
            int(&c["l2_coherence"], "coherence"),
            int(&c["l1_coherence"], "coherence"),
            "{c}"
        );
        // Each core's L3 accesses are its private-L2 misses.
        assert_eq!(int(c, "l3_accesses"), int(c, "l2_misses"), "{c}");
    }
    // The 3C split adds up at the private L2 and the L3; the L3 is never invalidated.
    let four = |k: &Value| {
        int(k, "compulsory") + int(k, "capacity") + int(k, "conflict") + int(k, "coherence")
    };
    let l2_misses: u64 = p["per_core"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| int(c, "l2_misses"))
        .sum();
    assert_eq!(four(&p["l2_miss_classes"]), l2_misses, "{p}");
    assert_eq!(four(&p["l3_miss_classes"]), int(&p, "l3_misses"), "{p}");
    assert_eq!(int(&p["l3_miss_classes"], "coherence"), 0, "{p}");
}
