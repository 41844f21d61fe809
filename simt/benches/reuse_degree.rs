//! DS-vs-RD throughput: the occurrence-list analyzer against the thesis's Algorithm 1 (the
//! O(S²·T) oracle) on the same seeded MI streams, checked equal, then the analyzer alone on
//! longer streams with and without a `--max-rd` window.
//!
//! Run with `cargo bench -p rdsimt`. Environment overrides: `RD_SIMT_BENCH_S` (MIs in the
//! streams both algorithms run, default 1000), `RD_SIMT_BENCH_BIG_S` (MIs for the analyzer-only
//! rows, default 200000; 0 skips them), `RD_SIMT_BENCH_SEED`.

use rdsimt::oracle::dr_analysis;
use rdsimt::{analyze_stream, MemInstr};
use std::time::Instant;

/// xorshift64*: a seeded generator so every run measures the same streams.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn mi(lanes: Vec<u64>) -> MemInstr {
    MemInstr {
        lanes,
        ..Default::default()
    }
}

/// Serialized blocks of a 3-point stencil: per block of `t` threads, loads x[g], x[g+1],
/// x[g+2] and a store y[g].
fn stencil(s: usize, t: u64) -> Vec<MemInstr> {
    let mut v = Vec::with_capacity(s);
    let mut b = 0;
    while v.len() < s {
        let g0 = b * t;
        for k in 0..3 {
            v.push(mi((g0 + k..g0 + k + t).collect()));
        }
        v.push(mi((g0..g0 + t).map(|g| (1 << 40) + g).collect()));
        b += 1;
    }
    v.truncate(s);
    v
}

/// Warps of `t` lanes drawing addresses uniformly from `m` elements (dense, random reuse).
fn uniform(s: usize, t: usize, m: u64, rng: &mut Rng) -> Vec<MemInstr> {
    (0..s)
        .map(|_| mi((0..t).map(|_| rng.below(m)).collect()))
        .collect()
}

/// A gather through an index array: half the lanes hit a hot set of 64 elements.
fn gather(s: usize, t: usize, rng: &mut Rng) -> Vec<MemInstr> {
    (0..s)
        .map(|_| {
            mi((0..t)
                .map(|_| {
                    if rng.below(2) == 0 {
                        rng.below(64)
                    } else {
                        1000 + rng.below(1 << 20)
                    }
                })
                .collect())
        })
        .collect()
}

fn rate(mis: usize, secs: f64) -> String {
    let r = mis as f64 / secs.max(1e-9);
    if r >= 1e6 {
        format!("{:.2} M", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1} k", r / 1e3)
    } else {
        format!("{r:.0}")
    }
}

fn main() {
    let s = env("RD_SIMT_BENCH_S", 1000) as usize;
    let big = env("RD_SIMT_BENCH_BIG_S", 200_000) as usize;
    let mut rng = Rng(env("RD_SIMT_BENCH_SEED", 0x5eed).max(1));
    println!(
        "{:<28} {:>8} {:>6} {:>9} {:<18} {:>10} {:>12} {:>9}",
        "workload", "MIs", "lanes", "max-rd", "algorithm", "seconds", "MIs/s", "speed-up"
    );
    let row =
        |name: &str, st: &[MemInstr], w: Option<u64>, alg: &str, secs: f64, base: Option<f64>| {
            let lanes = st.first().map_or(0, |m| m.lanes.len());
            println!(
                "{:<28} {:>8} {:>6} {:>9} {:<18} {:>10.4} {:>12} {:>9}",
                name,
                st.len(),
                lanes,
                w.map_or("all".to_string(), |w| w.to_string()),
                alg,
                secs,
                rate(st.len(), secs),
                base.map_or(String::new(), |b| format!("{:.0}x", b / secs.max(1e-9)))
            );
        };
    let workloads: Vec<(&str, Vec<MemInstr>)> = vec![
        ("stencil, blocks of 256", stencil(s, 256)),
        (
            "uniform, 32 lanes, 4096 el.",
            uniform(s, 32, 4096, &mut rng),
        ),
        ("gather, 32 lanes, hot set", gather(s, 32, &mut rng)),
    ];
    for (name, st) in &workloads {
        for w in [None, Some(100)] {
            let t = Instant::now();
            let oracle = dr_analysis(st, w);
            let t_oracle = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let fast = analyze_stream(st, w);
            let t_fast = t.elapsed().as_secs_f64();
            assert_eq!(fast, oracle, "analyzer and Algorithm 1 disagree on {name}");
            row(name, st, w, "Algorithm 1 oracle", t_oracle, None);
            row(name, st, w, "occurrence lists", t_fast, Some(t_oracle));
        }
    }
    if big > 0 {
        let big_workloads: Vec<(&str, Vec<MemInstr>)> = vec![
            ("stencil, blocks of 256", stencil(big, 256)),
            (
                "uniform, 32 lanes, 1M el.",
                uniform(big, 32, 1 << 20, &mut rng),
            ),
        ];
        for (name, st) in &big_workloads {
            for w in [None, Some(400)] {
                let t = Instant::now();
                let h = analyze_stream(st, w);
                let secs = t.elapsed().as_secs_f64();
                std::hint::black_box(h.total_ds());
                row(name, st, w, "occurrence lists", secs, None);
            }
        }
    }
}
