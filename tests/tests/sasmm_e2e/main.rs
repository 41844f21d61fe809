//! End to end for SASMM: every OpenMP kernel of `test-programs/kernels/` is built with `rdcc`,
//! run with OMP_NUM_THREADS = 1, 2, 4, 8 under tracing, and `rda-report validate` compares the
//! models' predictions (from the one-thread trace only) with an exact LRU simulation of each
//! real threaded run (private L1 8K:8:64 per thread, shared L2 128K:16:64, the SASMM paper's
//! setup).
//!
//! Bounds asserted for the exact model (the default, `predict --model exact`: set-indexed LRU on
//! the mimicked traces), over all kernels and core counts: mean absolute error at most 0.5
//! percentage points for L1 and for the global L2 hit rate, no single kernel/core-count pair
//! above 2 pp, and a mean absolute error of the local L2 hit rate of at most 3 pp. The exact
//! model has no formula or sampling error, so what remains is the mimicking (Alg. 1-2): real
//! threads do not run in SASMM's round-robin lockstep. That shows in the L2 of the `stream` and
//! `lookup` kernels, whose footprints just exceed the L2: the order in which the OS runs the
//! (here up to 8) threads on the 2 CPUs decides which lines are still in L2, so their local L2
//! rates move by up to ~35 pp from run to run (see the comment in `stream.c`), and `jacobi2d`'s
//! and `conv2d`'s by up to ~20 pp at 8 threads. In global L2 terms that reached 2.05 pp once
//! (`stream`, 4 threads, measured local L2 34.8 % vs 7.1 % for the lockstep the model assumes)
//! and 1.88 pp once (`jacobi2d`, 8 threads; 0.47 pp in the run before). So where threads
//! time-share CPUs (more threads than `available_parallelism`), the per-case global L2 bound is
//! half the measured L1 miss rate instead of 2 pp; those cases are counted and printed, and still
//! count in the 0.5 pp means. On a machine with 8 or more CPUs the 2 pp bound applies to all.
//! Measured on the 2-CPU development machine with other builds running, three runs: exact model
//! mean abs error L1 0.02 pp, global L2 0.10-0.18 pp, local L2 1.4-2.3 pp over 52 cases; formula
//! 9.0 / 0.39-0.44 / 7.8-8.2 pp.
//!
//! The formula model's numbers (eq. 5-7, `--model formula`) are printed beside them, not
//! asserted, except that on the original seven kernels its mean errors stay within the 1.5 pp
//! that model was accepted with. The new kernels (column walk with a power-of-two pitch, blocked
//! matrix multiply, transposition, a stream just larger than L2, a shared read-only table,
//! `schedule(dynamic)`) are where the formula errs; their header comments derive the expected
//! behaviour, and the derived facts are asserted below on the measured runs.
//!
//! Where `valgrind` and `clang-19` are installed, the one-thread simulation is also checked
//! against cachegrind (the paper's reference tool) on an uninstrumented `-g -O2` build, counting
//! only the accesses of the kernel's own source lines (cachegrind sees the loader and libomp
//! start-up too). Differences come from the reference definition (cachegrind counts an
//! instruction whose access straddles two lines once, we count each line) and from the cache
//! state left by start-up; the bound is 2.5 pp (measured: at most 1.4 pp).

use rdtools_e2e::tools;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

mod predictions;

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("test-programs")
        .join("kernels")
}

/// Label, kernel source and the sizes used here: working sets between the L1 and a few times
/// the L2.
const KERNELS: [(&str, &str, &[&str]); 13] = [
    ("jacobi2d", "jacobi2d", &["-DN=96", "-DTSTEPS=3"]),
    ("matmul", "matmul", &["-DN=48"]),
    ("lu", "lu", &["-DN=64"]),
    // schedule(static, 4): with one thread libomp hands out the whole range in one piece, so
    // the model must split the inner iteration loop.
    ("lu-chunk4", "lu", &["-DN=64", "-DCHUNK=4"]),
    ("reduction", "reduction", &["-DN=16384", "-DREPS=4"]),
    ("conv2d", "conv2d", &["-DN=128"]),
    ("bfs", "bfs", &["-DNODES=4096", "-DDEGREE=6"]),
    ("colwalk", "colwalk", &[]),
    ("blockmm", "blockmm", &[]),
    ("transpose", "transpose", &[]),
    ("stream", "stream", &[]),
    ("lookup", "lookup", &[]),
    ("dynamic", "dynamic", &[]),
];

/// The kernels the formula model was accepted on (before the exact model).
const ORIGINAL: usize = 7;

/// Hit rates of one kernel/core-count pair: measured, exact model, formula.
#[derive(Clone, Copy, Debug, Default)]
struct Rates {
    l1: f64,
    l2: f64,
    l2_local: f64,
}

impl Rates {
    fn of(v: &Value) -> Rates {
        let f = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("no {k} in {v}"));
        Rates {
            l1: f("l1_hit"),
            l2: f("l2_hit_global"),
            l2_local: f("l2_hit_local"),
        }
    }
}

struct Row {
    kernel: &'static str,
    cores: usize,
    measured: Rates,
    exact: Rates,
    formula: Rates,
}

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
    // The kernel's own file, not one that merely ends the same way (`lookup.c` vs the loader's
    // `dl-lookup.c`).
    let suffix = format!("/{source}.c");
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
    rdtools_e2e::success_stdout(out, what)
}

/// Checks `predict --json` of the jacobi kernel: named rates, several configurations, the
/// miss-ratio curve, and agreement with `validate`.
fn check_predict_json(report: &Path, seq: &Path, validate_exact_8: f64, validate_formula_8: f64) {
    let predict = |extra: &[&str]| -> Value {
        let out = run_ok(
            Command::new(report)
                .arg("predict")
                .arg(seq)
                .args(["--cores", "1,2,4,8,16", "--json", "-q"])
                .args(extra),
            "predict",
        );
        serde_json::from_str(&out).unwrap()
    };
    for (model, expect_8) in [("exact", validate_exact_8), ("formula", validate_formula_8)] {
        let p = predict(&["--model", model]);
        let list = p.as_array().expect("a JSON list");
        let cores: Vec<u64> = list.iter().map(|o| o["cores"].as_u64().unwrap()).collect();
        assert_eq!(cores, [1, 2, 4, 8, 16]);
        for o in list {
            assert_eq!(o["model"], model);
            for key in ["l1_hit", "l2_hit", "l2_hit_global", "l2_hit_local"] {
                let x = o[key].as_f64().unwrap();
                assert!(x > 0.0 && x < 1.0, "{model} {key} = {x}");
            }
            // l2_hit is the global rate; MPKA are the miss rates per 1000 references.
            assert_eq!(o["l2_hit"], o["l2_hit_global"]);
            let mpka1 = o["l1_mpka"].as_f64().unwrap();
            assert!((mpka1 - 1000.0 * (1.0 - o["l1_hit"].as_f64().unwrap())).abs() < 1e-6);
            let mpka2 = o["l2_mpka"].as_f64().unwrap();
            assert!((mpka2 - 1000.0 * (1.0 - o["l2_hit_global"].as_f64().unwrap())).abs() < 1e-6);
        }
        assert_eq!(
            list[3]["l1_hit"].as_f64().unwrap(),
            expect_8,
            "predict and validate disagree for jacobi2d on 8 cores ({model})"
        );
    }
    // Two L1s x two L2s in one call, and the curve. The default configuration's numbers are
    // the same as when asked alone.
    let alone = predict(&[]);
    let multi = predict(&[
        "--l1",
        "8K:8:64",
        "--l1",
        "16K:4:64",
        "--l2",
        "128K:16:64",
        "--l2",
        "64K:8:64",
        "--mrc",
    ]);
    let rows = multi["predictions"].as_array().unwrap();
    assert_eq!(rows.len(), 5 * 4);
    for (m, one) in alone.as_array().unwrap().iter().enumerate() {
        let r = &rows[4 * m];
        assert_eq!(
            (r["l1_cache"].as_str(), r["l2_cache"].as_str()),
            (Some("8K:8:64"), Some("128K:16:64"))
        );
        assert_eq!(r["l1_hit"], one["l1_hit"]);
        assert_eq!(r["l2_hit_local"], one["l2_hit_local"]);
        // The L1 rate does not depend on the L2 behind it.
        assert_eq!(rows[4 * m + 1]["l1_hit"], one["l1_hit"]);
    }
    let mrc = multi["mrc"].as_array().unwrap();
    // 1K .. 512K (4 x the largest L2), for each of the 5 core counts.
    assert_eq!(mrc.len(), 5 * 10);
    for curve in mrc.chunks(10) {
        // Doubling the sets at a fixed associativity (or growing a fully associative cache)
        // keeps LRU's inclusion property: a bigger cache never misses more.
        for w in curve.windows(2) {
            for key in ["private_miss_ratio", "shared_miss_ratio"] {
                let (a, b) = (w[0][key].as_f64().unwrap(), w[1][key].as_f64().unwrap());
                assert!(b <= a + 1e-12, "miss-ratio curve rises: {key} {a} -> {b}");
            }
        }
    }
}

/// `measure --csv` is one table with per-thread rows in OpenMP thread order; `--csv-dir` writes
/// every table.
fn check_measure_csv(report: &Path, trace: &Path, threads: usize, dir: &Path) {
    let csv_dir = dir.join("measure-csv");
    let out = run_ok(
        Command::new(report)
            .arg("measure")
            .arg(trace)
            .arg("--csv")
            .arg("--csv-dir")
            .arg(&csv_dir),
        "measure --csv",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("level,omp thread,"), "{out}");
    assert!(
        !lines.iter().any(|l| l.is_empty()),
        "one table only:\n{out}"
    );
    let omp: Vec<String> = lines[1..=threads]
        .iter()
        .map(|l| l.split(',').nth(1).unwrap().to_string())
        .collect();
    let expect: Vec<String> = (0..threads).map(|t| t.to_string()).collect();
    assert_eq!(omp, expect, "per-thread rows by OpenMP thread number");
    assert_eq!(lines.len(), 1 + threads + 3);
    let levels = std::fs::read_to_string(csv_dir.join("levels.csv")).unwrap();
    assert_eq!(levels, out);
    let profile = std::fs::read_to_string(csv_dir.join("profile_model.csv")).unwrap();
    assert!(profile.starts_with("profile,"));
}
