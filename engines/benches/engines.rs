//! Engine benchmark on the seeded synthetic workload (see `rdengines::workload`).
//!
//! Prints, for N = 2·10^7 references over M = 10^6 lines (and, for `fast` and `parda` only, a
//! larger N = 10^8), each engine's throughput, peak heap (from a counting global allocator,
//! reset before each engine; the pre-generated trace is excluded), its ratio to the Olken
//! baseline, PARDA's speed-up over `fast`, and HP-RDA's error against the exact histogram with
//! and without the adjustment step, and SHARDS sampling (rate or fixed size vs speed vs MRC
//! error against the exact histogram).
//!
//! Environment overrides: `RD_BENCH_N`, `RD_BENCH_M`, `RD_BENCH_BIG_N` (0 skips the large run),
//! `RD_BENCH_ENGINES` (comma list of olken,fast,parda,hprda,naive), `RD_BENCH_THREADS`,
//! `RD_BENCH_CHUNK` (default: `rdengines::parda::default_chunk(threads)`), `RD_BENCH_SEED`,
//! `RD_BENCH_BATCH` (references per `process` call), `RD_BENCH_WRITE` (also write the trace as
//! a PARDA binary file there), `RD_BENCH_REPS` (runs of `fast` and
//! `parda` per size; the row shows the run with the shortest wall time, which on a shared
//! machine is the one least disturbed by other jobs).

use rdengines::{
    histogram_error, make_engine, workload::Workload, EngineConfig, EngineKind, Histogram,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// Global allocator that tracks current and peak live heap bytes.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn note_alloc(n: usize) {
    let now = CURRENT.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every method forwards to `System` with the same arguments and only updates counters.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's `alloc` contract is passed on unchanged to `System`.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            note_alloc(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's `alloc_zeroed` contract is passed on unchanged to `System`.
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            note_alloc(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` was allocated by `System` (every allocation goes through it) with `l`.
        unsafe { System.dealloc(p, l) };
        CURRENT.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // SAFETY: `p` was allocated by `System` with `l`; the caller's contract holds for `new`.
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                note_alloc(new - l.size());
            } else {
                CURRENT.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// User + system CPU seconds of this process so far (all threads), from /proc/self/stat;
/// 0 where unavailable. With other jobs on the machine, wall-clock rates understate an engine
/// and CPU time is the steadier measure.
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // `rest` starts at field 3 (state), so field k is at index k - 3. Linux USER_HZ is 100.
    (ticks(11) + ticks(12)) / 100.0
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".into())
}

struct Run {
    label: String,
    n: usize,
    secs: f64,
    cpu: f64,
    peak: usize,
    hist: Histogram,
}

/// Runs one engine over `trace`, feeding `batch` references per `process` call.
fn run(label: &str, kind: EngineKind, cfg: &EngineConfig, trace: &[u64], batch: usize) -> Run {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let c0 = cpu_secs();
    let t0 = Instant::now();
    let mut e = make_engine(kind, cfg);
    for piece in trace.chunks(batch.max(1)) {
        e.process(piece);
    }
    let hist = e.finish();
    let secs = t0.elapsed().as_secs_f64();
    let cpu = cpu_secs() - c0;
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    Run {
        label: label.to_string(),
        n: trace.len(),
        secs,
        cpu,
        peak,
        hist,
    }
}

/// The run with the shortest wall time out of `reps`.
fn best_of(reps: usize, mut f: impl FnMut() -> Run) -> Run {
    (0..reps)
        .map(|_| f())
        .min_by(|a, b| a.secs.total_cmp(&b.secs))
        .expect("reps ≥ 1")
}

fn mib(b: usize) -> String {
    format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
}

/// SHARDS rows: rate (or fixed size) vs speed vs MRC error against the exact histogram.
/// `RD_BENCH_SAMPLE_RATES` (comma list, default `1,0.1,0.01,0.001`) and
/// `RD_BENCH_SAMPLE_SIZES` (fixed-size bounds S, default `8192,65536`).
fn sampling_table(trace: &[u64], exact: &Histogram, bound: Option<u64>) {
    use rdengines::shards::{mrc_mean_abs_error, ShardsConfig, ShardsEngine};
    use rdengines::ReuseEngine;
    let list = |name: &str, default: &str| -> Vec<String> {
        std::env::var(name)
            .unwrap_or_else(|_| default.into())
            .split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    let mut cfgs: Vec<(String, ShardsConfig)> = Vec::new();
    for r in list("RD_BENCH_SAMPLE_RATES", "1,0.1,0.01,0.001") {
        let rate: f64 = r.parse().expect("sampling rate");
        cfgs.push((
            format!("shards R={r}"),
            ShardsConfig {
                rate,
                bound,
                ..ShardsConfig::default()
            },
        ));
    }
    for s in list("RD_BENCH_SAMPLE_SIZES", "8192,65536") {
        let max: usize = s.parse().expect("sample size");
        cfgs.push((
            format!("shards S={max}"),
            ShardsConfig {
                rate: 1.0,
                max_blocks: Some(max),
                bound,
                ..ShardsConfig::default()
            },
        ));
    }
    println!("\n## SHARDS sampling (same trace; MRC error = mean |miss ratio - exact| over 100 LRU sizes up to the largest distance)");
    println!(
        "| {:<18} | {:>10} | {:>8} | {:>10} | {:>10} | {:>12} | {:>10} |",
        "sample", "refs/s", "wall s", "peak heap", "final R", "sampled refs", "MRC MAE"
    );
    println!(
        "|{:-<20}|{:->12}|{:->10}|{:->12}|{:->12}|{:->14}|{:->12}|",
        "", "", "", "", "", "", ""
    );
    for (label, c) in cfgs {
        let base = CURRENT.load(Relaxed);
        PEAK.store(base, Relaxed);
        let t0 = Instant::now();
        let mut e = ShardsEngine::new(c).expect("sampling settings");
        e.process(trace);
        let (h, st) = e.finish_with_stats();
        let secs = t0.elapsed().as_secs_f64();
        let peak = PEAK.load(Relaxed).saturating_sub(base);
        println!(
            "| {:<18} | {:>10} | {:>8.2} | {:>10} | {:>10.5} | {:>12} | {:>10.5} |",
            label,
            format!("{:.2} M", trace.len() as f64 / secs / 1e6),
            secs,
            mib(peak),
            st.final_rate,
            st.sampled_references,
            mrc_mean_abs_error(exact, &h, 100)
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let n: usize = env("RD_BENCH_N", 20_000_000);
    let m: u64 = env("RD_BENCH_M", 1_000_000);
    let big_n: usize = env("RD_BENCH_BIG_N", 100_000_000);
    let threads: usize = env("RD_BENCH_THREADS", 2);
    let seed: u64 = env("RD_BENCH_SEED", 42);
    let batch: usize = env("RD_BENCH_BATCH", 1 << 20);
    let engines: Vec<EngineKind> = std::env::var("RD_BENCH_ENGINES")
        .unwrap_or_else(|_| "olken,fast,parda,hprda".into())
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("engine name"))
        .collect();
    let mut cfg = EngineConfig {
        threads,
        ..EngineConfig::default()
    };
    cfg.chunk = env("RD_BENCH_CHUNK", rdengines::parda::default_chunk(threads));
    let reps: usize = env("RD_BENCH_REPS", 1usize).max(1);

    println!("runs per size for fast and parda: {reps} (best wall kept)");
    println!(
        "rdengines benchmark: workload = 50% cyclic sweep over M/2 lines + 50% ⌊M·u³⌋, seed {seed}; \
         {} cores available; PARDA/HP-RDA threads = {threads}, PARDA chunk = {}",
        rdengines::parda::default_threads(),
        cfg.chunk
    );
    let t0 = Instant::now();
    let mut trace = vec![0u64; n];
    Workload::new(m, seed).fill(&mut trace);
    println!(
        "generated N = {n} refs over M = {m} lines in {:.2}s",
        t0.elapsed().as_secs_f64()
    );
    if let Ok(path) = std::env::var("RD_BENCH_WRITE") {
        // The same trace as a PARDA binary file (little-endian u64 per reference), for timing
        // `rda-report histogram FILE --input-format parda-binary --line 1` end to end.
        let bytes: Vec<u8> = trace.iter().flat_map(|b| b.to_le_bytes()).collect();
        std::fs::write(&path, bytes).expect("writing RD_BENCH_WRITE");
        println!("wrote the trace to {path}");
    }
    println!("load average at start: {}\n", loadavg());

    let mut runs: Vec<Run> = Vec::new();
    let mut hp_runs: Vec<Run> = Vec::new();
    for &k in &engines {
        match k {
            EngineKind::HpRda => {
                let mut c = cfg;
                c.hprda.adjust = true;
                hp_runs.push(run("hprda (adjusted)", k, &c, &trace, batch));
                c.hprda.adjust = false;
                hp_runs.push(run("hprda (no adjustment)", k, &c, &trace, batch));
            }
            EngineKind::Naive if n > 200_000 => println!("(skipping naive: O(N·M) at N = {n})"),
            EngineKind::Fast | EngineKind::Parda => {
                runs.push(best_of(reps, || run(k.as_str(), k, &cfg, &trace, batch)))
            }
            _ => runs.push(run(k.as_str(), k, &cfg, &trace, batch)),
        }
    }
    let exact = runs
        .iter()
        .find(|r| r.label == "fast")
        .or(runs.first())
        .map(|r| r.hist.clone());
    let olken_rate = runs
        .iter()
        .find(|r| r.label == "olken")
        .map(|r| r.n as f64 / r.secs);

    let header = |title: &str| {
        println!("{title}");
        println!(
            "| {:<22} | {:>11} | {:>10} | {:>8} | {:>8} | {:>14} | {:>10} | {:>9} | {:<28} |",
            "engine",
            "N",
            "refs/s",
            "wall s",
            "CPU s",
            "refs/CPU-s",
            "peak heap",
            "vs olken",
            "result"
        );
        println!(
            "|{:-<24}|{:->13}|{:->12}|{:->10}|{:->10}|{:->16}|{:->12}|{:->11}|{:-<30}|",
            "", "", "", "", "", "", "", "", ""
        );
    };
    let row = |r: &Run, olken: Option<f64>, note: String| {
        let rate = r.n as f64 / r.secs;
        let ratio = olken.map_or("n/a".into(), |o| format!("{:.2}x", rate / o));
        let per_cpu = if r.cpu > 0.0 {
            format!("{:.2} M", r.n as f64 / r.cpu / 1e6)
        } else {
            "n/a".into()
        };
        println!(
            "| {:<22} | {:>11} | {:>10} | {:>8.2} | {:>8.2} | {:>14} | {:>10} | {:>9} | {:<28} |",
            r.label,
            r.n,
            format!("{:.2} M", rate / 1e6),
            r.secs,
            r.cpu,
            per_cpu,
            mib(r.peak),
            ratio,
            note
        );
    };
    header(&format!("## N = {n}, M = {m}"));
    for r in runs.iter().chain(&hp_runs) {
        let note = match &exact {
            Some(ex) if r.hist.exact => {
                if &r.hist == ex {
                    "exact, = fast histogram".to_string()
                } else {
                    "EXACT MISMATCH vs fast".to_string()
                }
            }
            Some(ex) => format!("error {:.3}% vs exact", histogram_error(ex, &r.hist)),
            None => String::new(),
        };
        row(r, olken_rate, note);
    }
    if let (Some(f), Some(p)) = (
        runs.iter().find(|r| r.label == "fast"),
        runs.iter().find(|r| r.label == "parda"),
    ) {
        println!(
            "\nPARDA on {threads} threads vs fast alone: {:.2}x wall (CPU s: parda {:.2} = {:.2}x fast's)",
            f.secs / p.secs,
            p.cpu,
            p.cpu / f.cpu.max(1e-9)
        );
    }
    for r in &hp_runs {
        if let Some(ex) = &exact {
            println!(
                "HP-RDA {}: error {:.4}% (paper metric, log2 bins + ∞)",
                r.label,
                histogram_error(ex, &r.hist)
            );
        }
    }
    if let Some(ex) = &exact {
        sampling_table(&trace, ex, cfg.bound);
    }
    drop(trace);

    if big_n > 0 {
        println!();
        let t0 = Instant::now();
        let mut big = vec![0u64; big_n];
        Workload::new(m, seed).fill(&mut big);
        println!("generated N = {big_n} refs in {:.2}s (large run: fast and parda only, olken/hprda skipped for time)", t0.elapsed().as_secs_f64());
        header(&format!("## N = {big_n}, M = {m}"));
        let f = best_of(reps, || run("fast", EngineKind::Fast, &cfg, &big, batch));
        row(&f, olken_rate, "exact".into());
        if engines.contains(&EngineKind::Parda) {
            let p = best_of(reps, || run("parda", EngineKind::Parda, &cfg, &big, batch));
            let note = if p.hist == f.hist {
                "exact, = fast histogram"
            } else {
                "EXACT MISMATCH vs fast"
            };
            row(&p, olken_rate, note.into());
            println!(
                "\nPARDA on {threads} threads vs fast alone (large N): {:.2}x wall (CPU s: parda {:.2} = {:.2}x fast's)",
                f.secs / p.secs,
                p.cpu,
                p.cpu / f.cpu.max(1e-9)
            );
        }
        println!("(vs olken uses the Olken rate measured at N = {n})");
    }
    println!(
        "\nload average at end: {} (wall-clock rates are affected by other jobs on the machine)",
        loadavg()
    );
}
