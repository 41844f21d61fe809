//! `rda-report histogram --engine hprda-gpu` and `gpu-info` end to end (feature `gpu`; runs
//! on lavapipe, which `scripts/setup.sh` installs — without an adapter these tests fail).
#![cfg(feature = "gpu")]

use rdtools_e2e::*;
use std::process::{Command, Output};

fn report(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = report(args, &[]);
    assert!(
        o.status.success(),
        "rda-report {args:?} failed (run scripts/setup.sh for lavapipe): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// On a real OpenMP program's trace, merged and per thread, hprda-gpu gives exactly hprda's
/// histogram for several ST/NB settings, with and without the adjustment.
#[test]
fn gpu_engine_equals_cpu_hprda_on_a_real_trace() {
    let (_dir, tp) = trace_program(
        "kernels/matmul.c",
        &["-fopenmp", "-O1", "-DN=24"],
        &[("OMP_NUM_THREADS", "2")],
    );
    let t = tp.to_str().unwrap();
    for (st, nb) in [("64", "4"), ("2048", "64"), ("7", "3")] {
        for extra in [&[][..], &["--no-adjust"][..], &["--per-thread"][..]] {
            let mut args = vec!["histogram", t, "--json", "--st", st, "--nb", nb];
            args.extend_from_slice(extra);
            let mut cpu_args = args.clone();
            cpu_args.extend(["--engine", "hprda"]);
            let mut gpu_args = args.clone();
            gpu_args.extend(["--engine", "hprda-gpu"]);
            let (c, g) = (json(&cpu_args), json(&gpu_args));
            assert_eq!(g["engine"], "hprda-gpu");
            assert_eq!(g["exact"], false);
            for key in ["histogram", "cold", "total", "overflow", "threads"] {
                assert_eq!(g[key], c[key], "{key} differs for {args:?}");
            }
            assert!(c["total"].as_u64().unwrap() > 10_000);
        }
    }
}

#[test]
fn gpu_info_lists_an_adapter() {
    let v = json(&["gpu-info", "--json"]);
    let list = v.as_array().expect("a list of adapters");
    assert!(!list.is_empty());
    assert!(list
        .iter()
        .all(|a| a["name"].as_str().is_some_and(|n| !n.is_empty())));
}

/// No Vulkan driver: a clear error and exit status 1, not a panic.
#[test]
fn no_adapter_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let addrs = dir.path().join("a.txt");
    std::fs::write(&addrs, "0x10\n0x20\n0x10\n").unwrap();
    let a = addrs.to_str().unwrap();
    // The Vulkan loader finds no driver manifest at all.
    let none = [
        ("VK_ICD_FILENAMES", "/nonexistent/icd.json"),
        ("VK_DRIVER_FILES", "/nonexistent/icd.json"),
    ];
    for args in [
        &["gpu-info"][..],
        &[
            "histogram",
            a,
            "--input-format",
            "parda-text",
            "--engine",
            "hprda-gpu",
        ][..],
    ] {
        let o = report(args, &none);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("no GPU adapter found"), "{err}");
        assert!(err.contains("mesa-vulkan-drivers"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // An adapter name that matches nothing: exit 1, and the available adapters are named.
    let o = report(
        &[
            "histogram",
            a,
            "--input-format",
            "parda-text",
            "--engine",
            "hprda-gpu",
            "--adapter",
            "no-such-gpu",
        ],
        &[],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no GPU adapter matches \"no-such-gpu\""),
        "{err}"
    );
}
