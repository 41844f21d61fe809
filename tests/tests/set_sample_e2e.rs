//! `predict --set-sample-rate`: the exact model on a random subset of whole cache sets, scaled.
//!
//! The sum-over-sets exactness behind it is a property test in `rdsasmm::exact`; here the
//! command line is checked on a trace whose answer is known without running the model: a cyclic
//! sweep over 4096 consecutive lines gives every set of every power-of-two set count up to 4096
//! the same access pattern, so any set sample has exactly the unsampled rates and 1/rate of
//! the references.

use rdtools_e2e::{rda_report, rda_report_json};
use rdtrace::Event;
use serde_json::Value;
use std::path::Path;

/// 3 sweeps over 4096 lines of 64 bytes, one 8-byte load per line, by one thread (serial code).
fn sweep_trace(path: &Path) {
    let mut module = rdtrace::testing::one_block_module("sweep", 1);
    module.mem_instrs = vec![rdtrace::testing::load8(0, rdtrace::testing::at(0, 10))];
    let sweep = (0..4096u64).map(|l| Event::Access {
        mi: 0,
        addr: 0x4000_0000 + l * 64,
        len: 8,
    });
    let events: Vec<Event> = sweep.clone().chain(sweep.clone()).chain(sweep).collect();
    rdtrace::testing::write_trace(path, &module, &[events]).unwrap();
    rdtools_e2e::check_invariants(path);
}

fn predict(trace: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "predict",
        trace.to_str().unwrap(),
        "--cores",
        "1,2",
        "--json",
    ];
    args.extend_from_slice(extra);
    rda_report_json(&args)
}

#[test]
fn set_sampled_predictions_of_a_uniform_sweep_are_exact_and_scaled() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("sweep.rdtrace");
    sweep_trace(&trace);
    let caches = [
        "--l1",
        "8K:8:64",
        "--l1",
        "32K:8:64",
        "--l2",
        "128K:16:64",
        "--mrc",
    ];
    let full = predict(&trace, &caches);
    let mut with = caches.to_vec();
    with.extend(["--set-sample-rate", "0.01", "--set-sample-seed", "9"]);
    let sampled = predict(&trace, &with);
    let (fr, sr) = (
        full["predictions"].as_array().unwrap(),
        sampled["predictions"].as_array().unwrap(),
    );
    assert_eq!(fr.len(), 2 * 2);
    assert_eq!(sr.len(), fr.len());
    for (f, s) in fr.iter().zip(sr) {
        assert!(
            f.get("set_sample_rate").is_none(),
            "unsampled rows say nothing"
        );
        // 8K:8:64 has 16 sets and 32K:8:64 64, both sharing their set bits with the L2's 128:
        // 0.01 rounds to one set of the L1 (1/16, 1/64).
        let rate = if f["l1_cache"] == "8K:8:64" { 16 } else { 64 };
        assert_eq!(
            s["set_sample_rate"].as_f64(),
            Some(1.0 / rate as f64),
            "{s}"
        );
        for key in ["l1_hit", "l2_hit_global", "l2_hit_local", "l1_hit_per_core"] {
            assert_eq!(s[key], f[key], "{key}: {s} vs {f}");
        }
        assert_eq!(s["references"], f["references"]);
        assert_eq!(f["references"].as_u64(), Some(3 * 4096));
    }
    let (fm, sm) = (
        full["mrc"].as_array().unwrap(),
        sampled["mrc"].as_array().unwrap(),
    );
    assert_eq!(fm.len(), sm.len());
    for (f, s) in fm.iter().zip(sm) {
        assert_eq!(s["private_miss_ratio"], f["private_miss_ratio"]);
        assert_eq!(s["shared_miss_ratio"], f["shared_miss_ratio"]);
        // The curve's own caches are sampled on their own sets; a 1K cache has 2 sets, so it
        // keeps 1 of them, never none.
        let p = s["private_set_sample_rate"].as_f64().unwrap();
        assert!((1.0 / 4096.0..=0.5).contains(&p), "{s}");
    }
    // A rate of 1 keeps every set: the exact report, unchanged.
    let mut one = caches.to_vec();
    one.extend(["--set-sample-rate", "1"]);
    assert_eq!(predict(&trace, &one), full);
    // The table says the numbers are sampled.
    let (ok, table, _) = rda_report(&[
        "predict",
        trace.to_str().unwrap(),
        "--set-sample-rate",
        "0.0625",
    ]);
    assert!(ok);
    assert!(
        table.contains("set-sampled: 6.25 % of the sets simulated"),
        "{table}"
    );
}

#[test]
fn set_sample_flags_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("sweep.rdtrace");
    sweep_trace(&trace);
    let t = trace.to_str().unwrap();
    for args in [
        vec!["predict", t, "--set-sample-rate", "0"],
        vec!["predict", t, "--set-sample-rate", "1.5"],
        vec!["predict", t, "--set-sample-rate", "x"],
        vec![
            "predict",
            t,
            "--model",
            "formula",
            "--set-sample-rate",
            "0.1",
        ],
        vec![
            "validate",
            "--seq",
            t,
            "--real",
            &format!("1={t}"),
            "--set-sample-rate",
            "0.1",
        ],
    ] {
        let out = std::process::Command::new(&rdtools_e2e::tools().rda_report)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("sample"), "{args:?}: {err}");
    }
}
