//! Benchmark: SASMM's promise is to answer "how do the caches behave on 1, 2, 4, 8, 16 cores?"
//! from ONE sequential trace. This compares, per kernel of `test-programs/kernels/`:
//!
//! * SASMM: trace one run with OMP_NUM_THREADS=1, then predict the 5 core counts
//!   ([`rdsasmm::predict`]);
//! * ground truth: trace the 5 real runs and simulate each exactly ([`rdsasmm::measure`]);
//!
//! and prints both wall times, their ratio, and the largest prediction error seen, in one table.
//! Run with `cargo bench -p rdsasmm --bench predict_vs_simulate` (builds `rdcc` and the runtime
//! in the same profile if they are missing). Kernel sizes can be scaled with `SASMM_BENCH_SCALE`
//! (default 1 = the sizes below).

use rdsasmm::{measure, predict, MeasureConfig, SasmmConfig, SequentialTrace};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CORES: [usize; 5] = [1, 2, 4, 8, 16];

fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf()
}

fn rdcc() -> PathBuf {
    let dir = profile_dir();
    let rdcc = dir.join("rdcc");
    if !rdcc.exists() || !dir.join("librdruntime.a").exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "-p", "rdcc", "-p", "rdruntime"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        if let Some(t) = dir.parent() {
            cmd.env("CARGO_TARGET_DIR", t);
        }
        assert!(
            cmd.status().expect("cargo build").success(),
            "building rdcc failed"
        );
    }
    rdcc
}

fn run_traced(exe: &Path, threads: usize, trace: &Path) -> Duration {
    let t = Instant::now();
    let out = Command::new(exe)
        .env("OMP_NUM_THREADS", threads.to_string())
        .env("OMP_WAIT_POLICY", "passive")
        .env("RDTRACE", trace)
        .output()
        .expect("running kernel");
    assert!(out.status.success(), "{} failed", exe.display());
    t.elapsed()
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let scale: u64 = std::env::var("SASMM_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let kernels: Vec<(&str, Vec<String>)> = vec![
        (
            "jacobi2d",
            vec![format!("-DN={}", 96 * scale), "-DTSTEPS=3".into()],
        ),
        ("matmul", vec![format!("-DN={}", 48 * scale)]),
        ("lu", vec![format!("-DN={}", 64 * scale)]),
        (
            "reduction",
            vec![format!("-DN={}", 16384 * scale * scale), "-DREPS=4".into()],
        ),
        ("conv2d", vec![format!("-DN={}", 128 * scale)]),
        (
            "bfs",
            vec![
                format!("-DNODES={}", 4096 * scale * scale),
                "-DDEGREE=6".into(),
            ],
        ),
    ];
    let rdcc = rdcc();
    let src_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-programs/kernels");
    let tmp = std::env::temp_dir().join(format!("sasmm-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let cfg = SasmmConfig::default();
    println!("SASMM: predict {CORES:?} cores from one sequential trace vs trace + exact simulation of each real run");
    println!(
        "(L1 {} private, L2 {} shared; times in seconds, wall clock)",
        cfg.l1, cfg.l2
    );
    println!();
    println!(
        "{:<10} {:>10} {:>9} {:>9} {:>9} {:>11} {:>9} {:>9} {:>7} {:>12}",
        "kernel",
        "accesses",
        "seq trace",
        "predict",
        "SASMM",
        "real traces",
        "simulate",
        "truth",
        "ratio",
        "max err (pp)"
    );
    let (mut total_sasmm, mut total_truth) = (0.0, 0.0);
    for (kernel, defs) in &kernels {
        let exe = tmp.join(kernel);
        let st = Command::new(&rdcc)
            .args(["-fopenmp", "-O2"])
            .args(defs)
            .arg(src_dir.join(format!("{kernel}.c")))
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("rdcc");
        assert!(st.success(), "rdcc {kernel} failed");

        // SASMM: one sequential trace, five predictions.
        let seq_path = tmp.join(format!("{kernel}.seq.rdtrace"));
        let seq_trace_time = run_traced(&exe, 1, &seq_path);
        let t = Instant::now();
        let seq = SequentialTrace::open(&seq_path).expect("sequential trace");
        let preds: Vec<_> = CORES
            .iter()
            .map(|&m| predict(&seq, &cfg, m).expect("predict"))
            .collect();
        let predict_time = t.elapsed();

        // Ground truth: five real traces, five exact simulations.
        let mut real_trace_time = Duration::ZERO;
        let mut simulate_time = Duration::ZERO;
        let mut max_err: f64 = 0.0;
        for (&m, p) in CORES.iter().zip(&preds) {
            let path = tmp.join(format!("{kernel}.{m}.rdtrace"));
            real_trace_time += run_traced(&exe, m, &path);
            let t = Instant::now();
            let trace = rdtrace::Trace::open(&path).expect("real trace");
            let meas = measure(
                &trace,
                MeasureConfig {
                    l1: cfg.l1,
                    l2: cfg.l2,
                },
            )
            .expect("measure");
            simulate_time += t.elapsed();
            max_err = max_err
                .max((p.l1.hit - meas.l1_hit).abs())
                .max((p.l2.hit - meas.l2_hit).abs());
        }
        let sasmm = (seq_trace_time + predict_time).as_secs_f64();
        let truth = (real_trace_time + simulate_time).as_secs_f64();
        total_sasmm += sasmm;
        total_truth += truth;
        println!(
            "{:<10} {:>10} {:>9.3} {:>9.3} {:>9.3} {:>11.3} {:>9.3} {:>9.3} {:>6.2}x {:>12.2}",
            kernel,
            seq.accesses.len(),
            seq_trace_time.as_secs_f64(),
            predict_time.as_secs_f64(),
            sasmm,
            real_trace_time.as_secs_f64(),
            simulate_time.as_secs_f64(),
            truth,
            truth / sasmm,
            100.0 * max_err
        );
    }
    println!(
        "{:<10} {:>10} {:>9} {:>9} {:>9.3} {:>11} {:>9} {:>9.3} {:>6.2}x",
        "total",
        "",
        "",
        "",
        total_sasmm,
        "",
        "",
        total_truth,
        total_truth / total_sasmm
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
