//! Every analysis command on the same traces, against `histogram` (issue 26: each command within
//! 2x the histogram's wall time): the bench programs are traced once (one thread, and the
//! stencil with four), then each command runs `RUNS` times, interleaved, and the table gives the
//! median wall time, accesses per second, CPU seconds, peak RSS and the ratio to `histogram`'s
//! median on the same trace, from one run of this benchmark.
//!
//! `formula` is `predict --model formula`; `html` writes its page to /dev/null.
//!
//! `cargo bench -p rdtools-e2e --bench commands`; `RD_BENCH_QUICK=1` shrinks the inputs (about
//! 10x) and runs each command once.

use rdtools_e2e::{program, rdcc, run_measured, tools, ChildCost};
use rdtrace::{EventVisitor, Trace};
use std::path::Path;
use std::process::{Command, Stdio};

/// Commands timed on every trace: (label, command, arguments after the trace path).
const COMMANDS: &[(&str, &str, &[&str])] = &[
    ("histogram", "histogram", &[]),
    ("measure", "measure", &[]),
    ("predict", "predict", &["--cores", "1,2,4"]),
    (
        "formula",
        "predict",
        &["--cores", "1,2,4", "--model", "formula"],
    ),
    ("annotate", "annotate", &[]),
    ("paths", "paths", &[]),
    ("simt", "simt", &[]),
    ("check", "check", &[]),
    ("html", "html", &["-o", "/dev/null"]),
];

struct Accesses(u64);

impl EventVisitor for Accesses {
    fn access(&mut self, _mi: u32, _addr: u64, _len: u64) {
        self.0 += 1;
    }
}

fn time(trace: &Path, command: &str, args: &[&str]) -> ChildCost {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.arg(command)
        .arg(trace)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    run_measured(&mut cmd)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::var_os("RD_BENCH_QUICK").is_some();
    let runs = if quick { 1 } else { 3 };
    let _ = tools();
    let dir = tempfile::tempdir().unwrap();
    // (name, source, defines, quick defines, threads)
    type Case<'a> = (&'a str, &'a str, &'a [&'a str], &'a [&'a str], &'a str);
    const APP_MIX: &[&str] = &[
        "-DROUNDS=1",
        "-DVM_N=5000",
        "-DKEYS=50000",
        "-DTREE_N=40000",
    ];
    const APP_MIX_QUICK: &[&str] = &["-DROUNDS=1", "-DVM_N=500", "-DKEYS=5000", "-DTREE_N=4000"];
    let cases: &[Case] = &[
        (
            "stencil",
            "bench/stencil.c",
            &[],
            &["-DN=1024", "-DT=3"],
            "1",
        ),
        (
            "stencil",
            "bench/stencil.c",
            &[],
            &["-DN=1024", "-DT=3"],
            "4",
        ),
        ("matmul", "bench/matmul.c", &["-DN=200"], &["-DN=100"], "1"),
        ("app_mix", "bench/app_mix.c", APP_MIX, APP_MIX_QUICK, "1"),
    ];
    println!(
        "{:<12} {:>3} {:>10} {:<10} {:>9} {:>10} {:>8} {:>9} {:>8}",
        "program", "thr", "accesses", "command", "wall s", "acc/s", "cpu s", "RSS MiB", "x hist"
    );
    for (name, src, defines, quick_defines, threads) in cases {
        let exe = dir.path().join(format!("{name}-{threads}"));
        let mut flags = vec!["-fopenmp", "-O2"];
        flags.extend_from_slice(if quick { quick_defines } else { defines });
        rdcc(&[program(src)], &flags, &exe);
        let trace = dir.path().join(format!("{name}-{threads}.rdtrace"));
        let out = Command::new(&exe)
            .env("RDTRACE", &trace)
            .env("RDTRACE_QUIET", "1")
            .env("OMP_NUM_THREADS", threads)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(out.success(), "{name} failed");
        let t = Trace::open(&trace).unwrap();
        let mut n = Accesses(0);
        for th in t.thread_indices() {
            t.visit_thread(th, &mut n).unwrap();
        }
        // Interleaved: run r of every command, then run r + 1.
        let mut costs: Vec<Vec<ChildCost>> = vec![Vec::new(); COMMANDS.len()];
        for _ in 0..runs {
            for (i, (_, command, args)) in COMMANDS.iter().enumerate() {
                costs[i].push(time(&trace, command, args));
            }
        }
        let wall = |c: &[ChildCost]| median(c.iter().map(|c| c.wall.as_secs_f64()).collect());
        let hist = wall(&costs[0]);
        for (i, (label, _, _)) in COMMANDS.iter().enumerate() {
            let w = wall(&costs[i]);
            let cpu = median(costs[i].iter().map(|c| c.cpu_s).collect());
            let rss = costs[i].iter().map(|c| c.peak_rss_kib).max().unwrap_or(0);
            println!(
                "{:<12} {:>3} {:>10} {:<10} {:>9.2} {:>10.3e} {:>8.2} {:>9.1} {:>8.2}",
                name,
                threads,
                n.0,
                label,
                w,
                n.0 as f64 / w,
                cpu,
                rss as f64 / 1024.0,
                w / hist
            );
        }
    }
}
