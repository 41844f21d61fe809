//! Benchmark: SASMM's promise is to answer "how do the caches behave on 1, 2, 4, 8, 16 cores?"
//! from ONE sequential trace. This compares, per kernel of `test-programs/kernels/`:
//!
//! * exact model: trace one run with OMP_NUM_THREADS=1, then `predict --model exact` for the 5
//!   core counts ([`rdsasmm::predict_exact_many`]);
//! * formula model: the same trace, eq. 5-7 for the 5 core counts ([`rdsasmm::predict_many`]);
//! * ground truth: trace the 5 real runs and simulate each exactly ([`rdsasmm::measure`]);
//!
//! and prints wall time, CPU time (user + system, all threads) and peak memory (max resident set
//! size) of each, plus the largest error
//! of each model against the truth, in one table. Every phase runs in its own child process
//! (this binary re-run with `--phase`), so its peak memory is its own (`wait4` rusage). The
//! target of the exact model: its 5 core counts cost no more than one traced real run plus its
//! `measure` (the column `exact / 1 run`). Run with
//! `cargo bench -p rdsasmm --bench predict_vs_simulate` (builds `rdcc` and the runtime in the
//! same profile if they are missing, unless `SASMM_BENCH_RDCC` names one). Kernel sizes can be scaled with `SASMM_BENCH_SCALE`
//! (default 1 = the sizes below). Wall times on a shared, noisy machine: compare ratios within
//! one run.
//!
//! A second table is set sampling (`predict --set-sample-rate`): per kernel and rate, the exact
//! model's wall time on the sequential trace (all core counts, in this process) against the
//! unsampled one, and the error of the sampled rates against the unsampled rates (mean and
//! largest |difference| in pp over `SASMM_BENCH_SEEDS` seeds, default 4, L1 and L2 global).

use rdsasmm::{
    measure, predict_exact_many, predict_exact_trace, predict_many, ExactConfig, MeasureConfig,
    SasmmConfig, SequentialTrace, SetSampleConfig,
};
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
    // An already built `rdcc` (with its runtime beside it) saves building the LLVM pass in the
    // bench profile: `SASMM_BENCH_RDCC=target/debug/rdcc` (the runtime is optimised there too).
    if let Some(p) = std::env::var_os("SASMM_BENCH_RDCC") {
        return PathBuf::from(p);
    }
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

/// Wall time and peak resident memory (bytes) of one child process.
#[derive(Clone, Copy, Default)]
struct Cost {
    wall: Duration,
    /// User + system CPU time (all threads): on a loaded machine closer to the work done than
    /// the wall time, which includes waiting for a CPU.
    cpu: Duration,
    peak: u64,
}

impl Cost {
    fn add(&mut self, o: Cost) {
        self.wall += o.wall;
        self.cpu += o.cpu;
        self.peak = self.peak.max(o.peak);
    }
}

fn tv(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// Runs `cmd` to completion; its wall time, peak RSS and stdout.
// The child is reaped by `wait4` (which also returns its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_child(cmd: &mut Command) -> (Cost, String) {
    let t = Instant::now();
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.expect("stdout");
    let mut out = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut out).expect("read stdout");
    let mut status = 0;
    // SAFETY: `rusage` is plain data filled in by the kernel; `pid` is our own child, which
    // `std` has not reaped (we never call `wait` on it).
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above: valid out-pointers, our own unreaped child.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let wall = t.elapsed();
    assert!(
        r == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child failed: {cmd:?}"
    );
    (
        Cost {
            wall,
            cpu: tv(ru.ru_utime) + tv(ru.ru_stime),
            peak: ru.ru_maxrss as u64 * 1024,
        },
        out,
    )
}

fn run_traced(exe: &Path, threads: usize, trace: &Path) -> Cost {
    run_child(
        Command::new(exe)
            .env("OMP_NUM_THREADS", threads.to_string())
            .env("OMP_WAIT_POLICY", "passive")
            .env("RDTRACE", trace),
    )
    .0
}

/// A phase run in this child process: prints the rates it computed, one line per core count
/// (`cores l1 l2`).
fn phase(kind: &str, path: &Path) {
    let cfg = SasmmConfig::default();
    match kind {
        "exact" | "formula" => {
            let seq = SequentialTrace::open(path).expect("sequential trace");
            println!("accesses {} 0", seq.accesses.len());
            if kind == "exact" {
                for p in predict_exact_many(&seq, &ExactConfig::default(), &CORES).expect("exact") {
                    let r = p.hierarchies[0].rates;
                    println!("{} {} {}", p.cores, r.l1_hit, r.l2_hit_global);
                }
            } else {
                for p in predict_many(&seq, &cfg, &CORES).expect("formula") {
                    println!("{} {} {}", p.cores, p.l1.hit, p.l2.hit);
                }
            }
        }
        "measure" => {
            let trace = rdtrace::Trace::open(path).expect("real trace");
            let m = measure(
                &trace,
                MeasureConfig {
                    l1: cfg.l1,
                    l2: cfg.l2,
                },
            )
            .expect("measure");
            println!("0 {} {}", m.l1_hit, m.l2_hit_global);
        }
        _ => panic!("unknown phase {kind}"),
    }
}

fn rates(out: &str) -> Vec<(f64, f64)> {
    out.lines()
        .filter(|l| !l.starts_with("accesses"))
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (v[1], v[2])
        })
        .collect()
}

fn mib(b: u64) -> f64 {
    b as f64 / (1 << 20) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--phase") {
        phase(&args[i + 1], Path::new(&args[i + 2]));
        return;
    }
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
        ("colwalk", vec![format!("-DROWS={}", 40 * scale)]),
        ("blockmm", vec![format!("-DN={}", 64 * scale)]),
        ("transpose", vec![format!("-DN={}", 64 * scale)]),
        ("stream", vec![format!("-DN={}", 20480 * scale)]),
        ("lookup", vec![format!("-DKEYS={}", 32768 * scale)]),
        ("dynamic", vec![format!("-DN={}", 384 * scale)]),
    ];
    let rdcc = rdcc();
    let me = std::env::current_exe().expect("bench executable");
    let src_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-programs/kernels");
    let tmp = std::env::temp_dir().join(format!("sasmm-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let cfg = SasmmConfig::default();
    println!("SASMM: predict {CORES:?} cores from one sequential trace (exact model, formula) vs trace + exact simulation of each real run");
    println!(
        "(L1 {} private, L2 {} shared; wall seconds and peak RSS in MiB per phase, each phase its own process;",
        cfg.l1, cfg.l2
    );
    println!(" 'one run' = mean over the 5 core counts of one traced real run + its measure; max err = largest |model - measured| in pp, L1 or L2 global)");
    println!();
    println!(
        "{:<10} {:>9} | {:>7} | {:>7} {:>7} {:>6} | {:>9} {:>7} {:>6} | {:>7} {:>7} {:>6} | {:>7} {:>7} | {:>10} {:>10} {:>7} {:>7}",
        "kernel", "accesses", "seq s", "exact s", "cpu s", "MiB", "formula s", "cpu s", "MiB", "truth s",
        "cpu s", "MiB", "1 run s", "cpu s", "exact/1run", "(cpu)", "err ex", "err fo"
    );
    let (mut tot_exact, mut tot_formula, mut tot_truth, mut tot_one) = (0.0, 0.0, 0.0, 0.0);
    let (mut cpu_exact, mut cpu_formula, mut cpu_truth, mut cpu_one) = (0.0, 0.0, 0.0, 0.0);
    let mut seq_traces = Vec::new();
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

        // SASMM: one sequential trace, five predictions per model.
        // Trace names of one length: the tracing runtime allocates the path on the program's
        // heap, and a longer name can shift the program's arrays by a cache line, which changes
        // set-indexed behaviour (the exact model then sees other set conflicts than the run).
        let trace_path = |m: usize| tmp.join(format!("{kernel}.{m:02}.rdtrace"));
        let seq_path = trace_path(0);
        let seq_cost = run_traced(&exe, 1, &seq_path);
        let phase_cmd = |kind: &str, path: &Path| {
            let mut c = Command::new(&me);
            c.arg("--phase").arg(kind).arg(path);
            c
        };
        let (exact_cost, exact_out) = run_child(&mut phase_cmd("exact", &seq_path));
        let (formula_cost, formula_out) = run_child(&mut phase_cmd("formula", &seq_path));
        let (exact, formula) = (rates(&exact_out), rates(&formula_out));
        let accesses: u64 = exact_out
            .lines()
            .find_map(|l| l.strip_prefix("accesses "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("access count");

        // Ground truth: five real traces, five exact simulations.
        let mut truth = Cost::default();
        let (mut err_exact, mut err_formula) = (0.0f64, 0.0f64);
        for (k, &m) in CORES.iter().enumerate() {
            let path = trace_path(m);
            truth.add(run_traced(&exe, m, &path));
            let (c, out) = run_child(&mut phase_cmd("measure", &path));
            truth.add(c);
            let (l1, l2) = rates(&out)[0];
            err_exact = err_exact
                .max((exact[k].0 - l1).abs())
                .max((exact[k].1 - l2).abs());
            err_formula = err_formula
                .max((formula[k].0 - l1).abs())
                .max((formula[k].1 - l2).abs());
            let _ = std::fs::remove_file(&path);
        }
        seq_traces.push((kernel, seq_path.clone()));
        let one_run = truth.wall.as_secs_f64() / CORES.len() as f64;
        let one_cpu = truth.cpu.as_secs_f64() / CORES.len() as f64;
        let e = exact_cost.wall.as_secs_f64();
        let ec = exact_cost.cpu.as_secs_f64();
        tot_exact += e;
        tot_formula += formula_cost.wall.as_secs_f64();
        tot_truth += truth.wall.as_secs_f64();
        tot_one += one_run;
        cpu_exact += ec;
        cpu_formula += formula_cost.cpu.as_secs_f64();
        cpu_truth += truth.cpu.as_secs_f64();
        cpu_one += one_cpu;
        println!(
            "{:<10} {:>9} | {:>7.3} | {:>7.3} {:>7.3} {:>6.1} | {:>9.3} {:>7.3} {:>6.1} | {:>7.3} {:>7.3} {:>6.1} | {:>7.3} {:>7.3} | {:>9.2}x {:>9.2}x {:>7.2} {:>7.2}",
            kernel,
            accesses,
            seq_cost.wall.as_secs_f64(),
            e,
            ec,
            mib(exact_cost.peak),
            formula_cost.wall.as_secs_f64(),
            formula_cost.cpu.as_secs_f64(),
            mib(formula_cost.peak),
            truth.wall.as_secs_f64(),
            truth.cpu.as_secs_f64(),
            mib(truth.peak),
            one_run,
            one_cpu,
            e / one_run,
            ec / one_cpu,
            100.0 * err_exact,
            100.0 * err_formula
        );
    }
    println!(
        "total wall: exact predict {tot_exact:.3} s, formula predict {tot_formula:.3} s, 5 real runs traced + measured {tot_truth:.3} s, one run + measure {tot_one:.3} s; exact / one run = {:.2}x, formula / exact = {:.2}x",
        tot_exact / tot_one,
        tot_formula / tot_exact
    );
    println!(
        "total cpu:  exact predict {cpu_exact:.3} s, formula predict {cpu_formula:.3} s, 5 real runs traced + measured {cpu_truth:.3} s, one run + measure {cpu_one:.3} s; exact / one run = {:.2}x, formula / exact = {:.2}x",
        cpu_exact / cpu_one,
        cpu_formula / cpu_exact
    );
    set_sampling(&seq_traces);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The exact model with every set and with set samples: wall time and rates of all core counts.
fn exact_timed(trace: &rdtrace::Trace, sample: Option<SetSampleConfig>) -> (f64, Vec<(f64, f64)>) {
    let cfg = ExactConfig {
        set_sample: sample,
        ..ExactConfig::default()
    };
    let t = Instant::now();
    let rates = CORES
        .iter()
        .map(|&m| {
            let p = predict_exact_trace(trace, &cfg, m).expect("exact model");
            let r = p.hierarchies[0].rates;
            (r.l1_hit, r.l2_hit_global)
        })
        .collect();
    (t.elapsed().as_secs_f64(), rates)
}

/// Set sampling table: speed-up and error against the unsampled exact model per kernel.
fn set_sampling(seq_traces: &[(&&str, PathBuf)]) {
    let seeds: u64 = std::env::var("SASMM_BENCH_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let cfg = ExactConfig::default();
    println!();
    println!(
        "Set sampling of the exact model (L1 {} with {} sets, L2 {}; all {} core counts one after another, wall s; error vs unsampled over {seeds} seeds, pp)",
        cfg.l1[0],
        cfg.l1[0].sets(),
        cfg.l2[0],
        CORES.len()
    );
    println!(
        "{:<10} {:>6} | {:>8} {:>8} {:>7} | {:>8} {:>8} | {:>8} {:>8}",
        "kernel", "rate", "full s", "sample s", "speed", "L1 mean", "L1 max", "L2 mean", "L2 max"
    );
    for (kernel, path) in seq_traces {
        let trace = rdtrace::Trace::open(path).expect("sequential trace");
        let (full_s, full) = exact_timed(&trace, None);
        for rate in [0.25, 0.0625] {
            let (mut secs, mut sum1, mut max1, mut sum2, mut max2, mut n) =
                (0.0, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0);
            for seed in 0..seeds {
                let (s, sampled) = exact_timed(&trace, Some(SetSampleConfig { rate, seed }));
                secs += s;
                for (a, b) in sampled.iter().zip(&full) {
                    let (e1, e2) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                    sum1 += e1;
                    sum2 += e2;
                    max1 = max1.max(e1);
                    max2 = max2.max(e2);
                    n += 1.0;
                }
            }
            let secs = secs / seeds as f64;
            println!(
                "{:<10} {:>6} | {:>8.3} {:>8.3} {:>6.2}x | {:>8.2} {:>8.2} | {:>8.2} {:>8.2}",
                kernel,
                format!("1/{}", (1.0 / rate) as u32),
                full_s,
                secs,
                full_s / secs,
                100.0 * sum1 / n,
                100.0 * max1,
                100.0 * sum2 / n,
                100.0 * max2
            );
        }
    }
}
