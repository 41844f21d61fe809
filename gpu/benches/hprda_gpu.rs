//! Benchmark: refs/s of `hprda-gpu` (on whatever Vulkan adapter is found — lavapipe on the
//! project's machines) against the CPU `hprda` and the exact `fast` engine, on the benchmark
//! workload (`rdengines::workload`), side by side in one run. Prints a table.
//!
//! `cargo bench -p rdgpu --bench hprda_gpu`. Environment: `RD_BENCH_N` (references, default
//! 4 000 000), `RD_BENCH_M` (lines, default 200 000), `RD_BENCH_THREADS` (CPU hprda threads,
//! default 2), `RD_BENCH_ST` / `RD_BENCH_NB` (default 2048 / 64), `RD_BENCH_ADAPTER`.

use rdengines::workload::Workload;
use rdengines::{histogram_error, FastEngine, Histogram, HpRdaConfig, HpRdaEngine, ReuseEngine};
use rdgpu::{GpuContext, GpuHpRdaEngine};
use std::time::Instant;

fn env<T: std::str::FromStr>(k: &str, d: T) -> T {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".into())
}

/// Feeds the trace in 64 Ki pieces (as `rda-report` does) and times process + finish.
fn time(mut e: Box<dyn ReuseEngine>, trace: &[u64]) -> (f64, Histogram) {
    let t0 = Instant::now();
    for p in trace.chunks(1 << 16) {
        e.process(p);
    }
    let h = e.finish();
    (t0.elapsed().as_secs_f64(), h)
}

fn main() {
    let n: usize = env("RD_BENCH_N", 4_000_000);
    let m: u64 = env("RD_BENCH_M", 200_000);
    let threads: usize = env("RD_BENCH_THREADS", 2);
    let st: usize = env("RD_BENCH_ST", 2048);
    let nb: usize = env("RD_BENCH_NB", 64);
    let adapter = std::env::var("RD_BENCH_ADAPTER").ok();
    let mut trace = vec![0u64; n];
    Workload::new(m, 42).fill(&mut trace);
    let cfg = HpRdaConfig {
        st,
        nb,
        threads,
        ..HpRdaConfig::default()
    };
    let t0 = Instant::now();
    let ctx = match GpuContext::new(adapter.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hprda_gpu bench: {e}");
            std::process::exit(1);
        }
    };
    let setup = t0.elapsed().as_secs_f64();
    let info = ctx.adapter().clone();
    let gpu = GpuHpRdaEngine::with_context(ctx, cfg, None).expect("engine");
    let gpu_batch = gpu.batch_refs();
    println!(
        "hprda-gpu benchmark: workload N = {n} refs over M = {m} lines (seed 42), ST = {st}, NB = {nb}, \
         adjustment on; adapter: {} ({}, {}); device set-up + shader compile {setup:.2}s (not in the table); \
         GPU batch {gpu_batch} refs; CPU hprda threads = {threads}; {} cores; load average {}",
        info.name,
        info.device_type,
        info.driver,
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        loadavg()
    );
    println!("(the machine is shared and noisy: compare rows of one run, not across runs)\n");
    let (tf, exact) = time(Box::new(FastEngine::new()), &trace);
    let (tc, hc) = time(Box::new(HpRdaEngine::new(cfg, None)), &trace);
    let (tg, hg) = time(Box::new(gpu), &trace);
    println!(
        "| {:<28} | {:>8} | {:>12} | {:>10} | {:>15} | {:<18} |",
        "engine", "wall s", "refs/s", "vs fast", "error vs fast %", "result"
    );
    println!(
        "|{:-<30}|{:->10}|{:->14}|{:->12}|{:->17}|{:-<20}|",
        "", "", "", "", "", ""
    );
    let row = |name: &str, t: f64, h: &Histogram, note: &str| {
        println!(
            "| {:<28} | {:>8.3} | {:>12.0} | {:>9.2}x | {:>15.4} | {:<18} |",
            name,
            t,
            n as f64 / t,
            tf / t,
            histogram_error(&exact, h),
            note
        );
    };
    row("fast (exact, 1 thread)", tf, &exact, "exact");
    row(&format!("hprda (CPU, {threads} threads)"), tc, &hc, "");
    row(
        &format!("hprda-gpu ({})", info.device_type),
        tg,
        &hg,
        if hg == hc {
            "== CPU hprda"
        } else {
            "DIFFERS from CPU"
        },
    );
    println!("\nload average at end: {}", loadavg());
}
