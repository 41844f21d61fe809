//! End to end for SASMM: every OpenMP kernel of `test-programs/kernels/` is built with `rdcc`,
//! run with OMP_NUM_THREADS = 1, 2, 4, 8 under tracing, and `rda-report validate` compares the
//! model's predictions (from the one-thread trace only) with an exact LRU simulation of each
//! real threaded run (private L1 8K:8:64 per thread, shared L2 128K:16:64, the SASMM paper's
//! setup).
//!
//! Bound asserted: the mean absolute error over all kernels and core counts is at most
//! 1.5 percentage points for L1 and for the (global) L2 hit rate — the goal stated for this
//! model and the paper's headline figure. Measured on the development machine (2 cores):
//! 0.3-0.45 pp (L1) and 0.25-0.35 pp (L2); most of it is the 1 % window sampling of Alg. 3
//! (with every window sampled the one-thread error is the stack-distance model's alone), the
//! rest is real interleaving of 8 threads on 2 CPUs. See the table printed with `--nocapture`.
//! Each single kernel/core-count pair must also be within 5 pp, so one broken kernel cannot hide
//! in a mean.
//!
//! Where `valgrind` and `clang-19` are installed, the one-thread simulation is also checked
//! against cachegrind (the paper's reference tool) on an uninstrumented `-g -O2` build, counting
//! only the accesses of the kernel's own source lines (cachegrind sees the loader and libomp
//! start-up too). Differences come from the reference definition (cachegrind counts an
//! instruction whose access straddles two lines once, we count each line) and from the cache
//! state left by start-up; the bound is 2.5 pp (measured: at most 1.4 pp).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Paths of `rdcc` and `rda-report` (built by the shared helper).
fn tools() -> (PathBuf, PathBuf) {
    let t = rdtools_e2e::tools();
    (t.rdcc.clone(), t.rda_report.clone())
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("test-programs")
        .join("kernels")
}

/// Label, kernel source and the sizes used here: working sets between the L1 and a few times
/// the L2.
const KERNELS: [(&str, &str, &[&str]); 7] = [
    ("jacobi2d", "jacobi2d", &["-DN=96", "-DTSTEPS=3"]),
    ("matmul", "matmul", &["-DN=48"]),
    ("lu", "lu", &["-DN=64"]),
    // schedule(static, 4): with one thread libomp hands out the whole range in one piece, so
    // the model must split the inner iteration loop.
    ("lu-chunk4", "lu", &["-DN=64", "-DCHUNK=4"]),
    ("reduction", "reduction", &["-DN=16384", "-DREPS=4"]),
    ("conv2d", "conv2d", &["-DN=128"]),
    ("bfs", "bfs", &["-DNODES=4096", "-DDEGREE=6"]),
];

const CORES: [usize; 4] = [1, 2, 4, 8];

/// D1 and global LL hit rates of the kernel's own source lines under cachegrind, or `None`
/// when valgrind or clang-19 is not installed.
fn cachegrind(kernel: &str, source: &str, defs: &[&str], dir: &Path) -> Option<(f64, f64)> {
    let have = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("valgrind") || !have("clang-19") {
        return None;
    }
    let src = kernels_dir().join(format!("{source}.c"));
    let exe = dir.join(format!("{kernel}.native"));
    run_ok(
        Command::new("clang-19")
            .args(["-g", "-O2", "-fopenmp"])
            .args(defs)
            .arg(&src)
            .arg("-o")
            .arg(&exe),
        &format!("clang-19 {kernel}"),
    );
    let out = dir.join(format!("{kernel}.cachegrind"));
    run_ok(
        Command::new("valgrind")
            .args([
                "--tool=cachegrind",
                "--cache-sim=yes",
                "--D1=8192,8,64",
                "--LL=131072,16,64",
                "--I1=32768,8,64",
            ])
            .arg(format!("--cachegrind-out-file={}", out.display()))
            .arg(&exe)
            .env("OMP_NUM_THREADS", "1"),
        &format!("cachegrind {kernel}"),
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let mut events: Vec<String> = Vec::new();
    let mut totals: Vec<u64> = Vec::new();
    let mut file = String::new();
    let suffix = format!("{source}.c");
    for line in text.lines() {
        if let Some(e) = line.strip_prefix("events:") {
            events = e.split_whitespace().map(String::from).collect();
            totals = vec![0; events.len()];
        } else if let Some(f) = line
            .strip_prefix("fl=")
            .or(line.strip_prefix("fi="))
            .or(line.strip_prefix("fe="))
        {
            file = f.to_string();
        } else if line.starts_with(|c: char| c.is_ascii_digit()) && file.ends_with(&suffix) {
            for (t, v) in totals.iter_mut().zip(line.split_whitespace().skip(1)) {
                *t += v.parse::<u64>().unwrap();
            }
        }
    }
    let get = |name: &str| {
        totals[events
            .iter()
            .position(|e| e == name)
            .unwrap_or_else(|| panic!("no {name} event"))]
    };
    let refs = (get("Dr") + get("Dw")) as f64;
    assert!(
        refs > 0.0,
        "{kernel}: cachegrind saw no accesses in {suffix} (no debug info?)"
    );
    let d1 = (get("D1mr") + get("D1mw")) as f64;
    let ll = (get("DLmr") + get("DLmw")) as f64;
    Some((1.0 - d1 / refs, 1.0 - ll / refs))
}

fn run_ok(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn sasmm_predictions_match_exact_simulation_of_real_runs() {
    let (rdcc, report) = tools();
    let tmp = tempfile::tempdir().unwrap();
    let mut rows: Vec<(String, usize, f64, f64, f64, f64)> = Vec::new();
    let mut paper_l2 = Vec::new();
    let mut vs_cachegrind = Vec::new();
    let mut predicted_jacobi = None;
    for (kernel, source, defs) in KERNELS {
        let src = kernels_dir().join(format!("{source}.c"));
        let exe = tmp.path().join(kernel);
        run_ok(
            Command::new(&rdcc)
                .args(["-fopenmp", "-O2"])
                .args(defs)
                .arg(&src)
                .arg("-o")
                .arg(&exe),
            &format!("rdcc {kernel}"),
        );
        let mut traces = Vec::new();
        let mut first_output = None;
        for m in CORES {
            let trace = tmp.path().join(format!("{kernel}.{m}.rdtrace"));
            let out = run_ok(
                Command::new(&exe)
                    .env("OMP_NUM_THREADS", m.to_string())
                    // 8 threads share 2 CPUs here: sleeping waiters keep the runs short.
                    .env("OMP_WAIT_POLICY", "passive")
                    .env("RDTRACE", &trace),
                &format!("{kernel} with {m} threads"),
            );
            // Deterministic output whatever the thread count.
            match &first_output {
                None => first_output = Some(out),
                Some(first) => assert_eq!(&out, first, "{kernel}: output changed with {m} threads"),
            }
            traces.push((m, trace));
        }
        let seq = &traces[0].1;
        let validate = |extra: &[&str]| -> Value {
            let mut cmd = Command::new(&report);
            cmd.arg("validate")
                .arg("--seq")
                .arg(seq)
                .arg("--json")
                .arg("-q");
            for (m, t) in &traces {
                cmd.arg("--real").arg(format!("{m}={}", t.display()));
            }
            cmd.args(extra);
            serde_json::from_str(&run_ok(&mut cmd, &format!("validate {kernel}"))).unwrap()
        };
        if kernel == "jacobi2d" {
            // `predict --json`: one object per core count with hit rates as fractions, the same
            // numbers `validate` reports.
            let out = run_ok(
                Command::new(&report).arg("predict").arg(seq).args([
                    "--cores",
                    "1,2,4,8,16",
                    "--json",
                    "-q",
                ]),
                "predict",
            );
            let p: Value = serde_json::from_str(&out).unwrap();
            let list = p.as_array().expect("a JSON list");
            let cores: Vec<u64> = list.iter().map(|o| o["cores"].as_u64().unwrap()).collect();
            assert_eq!(cores, [1, 2, 4, 8, 16]);
            for o in list {
                for key in ["l1_hit", "l2_hit"] {
                    let x = o[key].as_f64().unwrap();
                    assert!(x > 0.0 && x < 1.0, "{key} = {x}");
                }
            }
            predicted_jacobi = Some(list[3]["l1_hit"].as_f64().unwrap());
        }
        let plot = tmp.path().join(format!("{kernel}.svg"));
        let v = validate(&["--plot", plot.to_str().unwrap()]);
        let svg = std::fs::read_to_string(&plot).unwrap();
        assert!(
            svg.contains("stroke-dasharray") && svg.contains("L2 measured"),
            "{kernel}: plot"
        );
        let v_rows = v["rows"].as_array().unwrap();
        assert_eq!(v_rows.len(), CORES.len());
        for r in v_rows {
            let m = r["cores"].as_u64().unwrap() as usize;
            assert_eq!(
                r["measured"]["threads"].as_u64(),
                Some(m as u64),
                "{kernel}: threads"
            );
            let f = |a: &str, b: &str| r[a][b].as_f64().unwrap();
            for x in [
                f("predicted", "l1_hit"),
                f("predicted", "l2_hit"),
                f("measured", "l1_hit"),
            ] {
                assert!(
                    (0.0..=1.0).contains(&x),
                    "{kernel}: hit rate {x} is not a fraction"
                );
            }
            rows.push((
                kernel.to_string(),
                m,
                f("predicted", "l1_hit"),
                f("measured", "l1_hit"),
                f("predicted", "l2_hit"),
                f("measured", "l2_hit"),
            ));
        }
        if let Some((d1, ll)) = cachegrind(kernel, source, defs, tmp.path()) {
            let one = &v_rows[0]["measured"];
            vs_cachegrind.push((
                kernel,
                one["l1_hit"].as_f64().unwrap(),
                d1,
                one["l2_hit"].as_f64().unwrap(),
                ll,
            ));
        }
        if let Some(p8) = predicted_jacobi.take() {
            let v8 = v_rows[3]["predicted"]["l1_hit"].as_f64().unwrap();
            assert_eq!(
                p8, v8,
                "predict and validate disagree for jacobi2d on 8 cores"
            );
        }
        let p = validate(&["--offset-policy", "paper"]);
        paper_l2.push((
            kernel,
            v["l2_mean_abs_error"].as_f64().unwrap(),
            p["l2_mean_abs_error"].as_f64().unwrap(),
        ));
    }

    eprintln!("kernel     cores  L1 pred  L1 meas  L1 err | L2 pred  L2 meas  L2 err   (%, pp)");
    for (k, m, p1, m1, p2, m2) in &rows {
        eprintln!(
            "{k:<10} {m:>5}  {:>7.2}  {:>7.2}  {:>6.2} | {:>7.2}  {:>7.2}  {:>6.2}",
            100.0 * p1,
            100.0 * m1,
            100.0 * (p1 - m1).abs(),
            100.0 * p2,
            100.0 * m2,
            100.0 * (p2 - m2).abs()
        );
    }
    let n = rows.len() as f64;
    let l1 = rows.iter().map(|r| (r.2 - r.3).abs()).sum::<f64>() / n;
    let l2 = rows.iter().map(|r| (r.4 - r.5).abs()).sum::<f64>() / n;
    eprintln!(
        "mean absolute error: L1 {:.3} pp, L2 {:.3} pp",
        100.0 * l1,
        100.0 * l2
    );
    for (k, private, paper) in &paper_l2 {
        eprintln!(
            "{k:<10} L2 mean abs error: offset policy private {:.3} pp, paper {:.3} pp",
            100.0 * private,
            100.0 * paper
        );
    }
    if vs_cachegrind.is_empty() {
        eprintln!("valgrind or clang-19 not installed: cachegrind comparison skipped");
    }
    for (k, l1, d1, l2, ll) in &vs_cachegrind {
        eprintln!(
            "{k:<10} 1 thread: L1 ours {:.2} cachegrind {:.2} | L2 ours {:.2} cachegrind {:.2}",
            100.0 * l1,
            100.0 * d1,
            100.0 * l2,
            100.0 * ll
        );
    }
    for (k, l1, d1, l2, ll) in &vs_cachegrind {
        assert!(
            (l1 - d1).abs() <= 0.025,
            "{k}: L1 simulation {l1:.4} vs cachegrind {d1:.4}"
        );
        assert!(
            (l2 - ll).abs() <= 0.025,
            "{k}: L2 simulation {l2:.4} vs cachegrind {ll:.4}"
        );
    }
    for (k, m, p1, m1, p2, m2) in &rows {
        assert!(
            (p1 - m1).abs() <= 0.05,
            "{k} on {m} cores: L1 predicted {p1:.4}, measured {m1:.4}"
        );
        assert!(
            (p2 - m2).abs() <= 0.05,
            "{k} on {m} cores: L2 predicted {p2:.4}, measured {m2:.4}"
        );
    }
    assert!(
        l1 <= 0.015,
        "mean L1 error {:.3} pp is above 1.5 pp",
        100.0 * l1
    );
    assert!(
        l2 <= 0.015,
        "mean L2 error {:.3} pp is above 1.5 pp",
        100.0 * l2
    );
}
