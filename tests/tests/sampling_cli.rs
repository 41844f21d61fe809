//! SHARDS sampling through `rda-report histogram` (`--sample-rate`, `--sample-max-blocks`) and
//! `live` (`--shards-rate`): exact at R = 1 on a real trace, scaled estimates on a known trace,
//! the JSON says the report is sampled, bad flags are usage errors.

use rdtools_e2e::*;
use std::process::Command;

fn json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = rda_report(args);
    assert!(ok, "rda-report {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// The JSON report after the program's own output (`sum=...`) on live's stdout.
fn live_json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = rda_report(args);
    assert!(ok, "rda-report {args:?} failed: {err}");
    let at = out.find("\n{").map(|i| i + 1).unwrap_or(0);
    serde_json::from_str(&out[at..]).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn status(args: &[&str]) -> i32 {
    Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap()
        .status
        .code()
        .expect("exited, not killed by a signal")
}

#[test]
fn rate_one_equals_the_exact_histogram_on_a_real_trace() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("p");
    rdcc(
        &[program("basic/omp_reduction.c")],
        &["-fopenmp", "-O1", "-DN=20000"],
        &exe,
    );
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("OMP_NUM_THREADS", "2")])
        .status
        .success());
    let t = tp.to_str().unwrap();
    for per_thread in [false, true] {
        let mut base = vec!["histogram", t, "--json"];
        if per_thread {
            base.push("--per-thread");
        }
        let exact = json(&base);
        let mut args = base.clone();
        args.extend(["--sample-rate", "1"]);
        let s = json(&args);
        assert_eq!(s["histogram"], exact["histogram"]);
        assert_eq!(s["cold"], exact["cold"]);
        assert_eq!(s["total"], exact["total"]);
        assert_eq!(exact["sampled"], serde_json::Value::Bool(false));
        assert_eq!(s["sampled"], serde_json::Value::Bool(true));
        assert_eq!(s["exact"], serde_json::Value::Bool(true));
        assert_eq!(s["sampling"]["sampled_references"], exact["total"]);
        assert_eq!(s["sampling"]["references"], exact["total"]);
    }
}

/// A cyclic address file: M lines, L rounds (cold M, M·(L-1) reuses at distance M-1). A sample
/// of K ~ Binomial(M, R) blocks gives cold K/R (sd sqrt(M(1-R)/R)) and one reuse distance
/// floor((K-1)/R) (mean about M - 1/R, the same sd).
#[test]
fn sampled_histogram_of_a_cyclic_file_is_scaled_to_the_full_trace() {
    let dir = tempfile::tempdir().unwrap();
    let (m, l, rate) = (20_000u64, 4u64, 0.1f64);
    let bin = dir.path().join("c.bin");
    let bytes: Vec<u8> = (0..l)
        .flat_map(|_| 0..m)
        .flat_map(|b| (b * 64).to_le_bytes())
        .collect();
    std::fs::write(&bin, bytes).unwrap();
    let b = bin.to_str().unwrap();
    let v = json(&[
        "histogram",
        b,
        "--input-format",
        "parda-binary",
        "--sample-rate",
        "0.1",
        "--no-sample-adjust",
        "--json",
    ]);
    let sd = (m as f64 * (1.0 - rate) / rate).sqrt();
    assert_eq!(v["sampled"], serde_json::Value::Bool(true));
    assert_eq!(v["exact"], serde_json::Value::Bool(false));
    let cold = v["cold"].as_f64().unwrap();
    assert!((cold - m as f64).abs() <= 4.0 * sd + 1.0, "cold {cold}");
    let h = v["histogram"].as_array().unwrap();
    assert_eq!(h.len(), 1, "one reuse distance: {h:?}");
    let d = h[0][0].as_f64().unwrap();
    assert!(
        (d - (m as f64 - 1.0 / rate)).abs() <= 4.0 * sd + 1.0,
        "distance {d}"
    );
    let reuses = h[0][1].as_f64().unwrap();
    let want = (m * (l - 1)) as f64;
    assert!(
        (reuses - want).abs() <= 4.0 * sd * (l - 1) as f64 + 1.0,
        "reuses {reuses}"
    );
    assert_eq!(
        v["sampling"]["references"].as_u64(),
        Some(m * l),
        "the sampler saw every reference"
    );
    // SHARDS_adj (default): the estimated total is the file's references (one rounding per
    // bucket: cold, the one distance, the first bucket).
    let adj = json(&[
        "histogram",
        b,
        "--input-format",
        "parda-binary",
        "--sample-rate",
        "0.1",
        "--json",
    ]);
    assert!(adj["total"].as_u64().unwrap().abs_diff(m * l) <= 3);
    // Fixed size: never more than S blocks tracked; the rate drops to about S/M.
    let fixed = json(&[
        "histogram",
        b,
        "--input-format",
        "parda-binary",
        "--sample-max-blocks",
        "500",
        "--json",
    ]);
    let s = &fixed["sampling"];
    assert!(s["sampled_blocks"].as_u64().unwrap() <= 500);
    let r = s["final_rate"].as_f64().unwrap();
    assert!(
        r > 0.5 * 500.0 / m as f64 && r < 2.0 * 500.0 / m as f64,
        "{r}"
    );
}

#[test]
fn bad_sampling_flags_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("a.bin");
    std::fs::write(&bin, 64u64.to_le_bytes()).unwrap();
    let b = bin.to_str().unwrap();
    let base = ["histogram", b, "--input-format", "parda-binary"];
    for extra in [
        &["--sample-rate", "0"][..],
        &["--sample-rate", "2"],
        &["--sample-rate", "0.5", "--engine", "olken"],
        &["--sample-max-blocks", "0"],
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        assert_eq!(status(&args), 2, "{args:?}");
    }
    // live: refused before the program runs.
    assert_eq!(
        status(&["live", "--predict", "--shards-rate", "0.1", "--", "true"]),
        2
    );
    assert_eq!(status(&["live", "--shards-rate", "7", "--", "true"]), 2);
}

#[test]
fn live_sampled_at_rate_one_equals_live_exact() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("p");
    rdcc(
        &[program("basic/omp_reduction.c")],
        &["-O1", "-DN=5000"],
        &exe,
    );
    let e = exe.to_str().unwrap();
    let exact = live_json(&["live", "--json", "--", e]);
    let s = live_json(&["live", "--json", "--shards-rate", "1", "--", e]);
    assert_eq!(s["histogram"], exact["histogram"]);
    assert_eq!(s["sampled"], serde_json::Value::Bool(true));
    let low = live_json(&["live", "--json", "--shards-rate", "0.5", "--", e]);
    assert_eq!(low["sampled"], serde_json::Value::Bool(true));
    assert!(
        low["sampling"]["sampled_references"].as_u64() < low["sampling"]["references"].as_u64()
    );
}
