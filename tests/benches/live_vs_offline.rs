//! Live analysis versus offline analysis (issue 9) on the benchmark programs of
//! `test-programs/bench/` (the trace-overhead programs), built once with `rdcc -O2`:
//!
//! * offline: the program writes its trace to disk (`RDTRACE=file`), then
//!   `rda-report histogram file` analyses it;
//! * live: `rda-report live -- program` analyses the trace through a pipe while it runs.
//!
//! One table from one run: total wall time of each way (offline = run + histogram), their
//! ratio, peak RSS of the analysis process (offline: `histogram`; live: `live`, from its
//! `--stats`) and of the traced program, and bytes written to disk. Both reports are checked
//! to be identical. Timings are single runs, interleaved case by case (live, then offline).
//!
//! A second table: several analyses of one run (`measure`, `annotate --false-sharing`, `check`),
//! offline (the traced run to disk, then each command in turn) against `live` running them side
//! by side on the pipe; each live report is checked against the offline command on live's
//! `--tee` copy of the same run.
//!
//! `cargo bench -p rdtools-e2e --bench live_vs_offline`; `RD_BENCH_QUICK=1` shrinks the inputs
//! (about 10x) for a smoke run.

use rdtools_e2e::{program, rdcc, tools, with_trace_named};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

struct Case {
    name: &'static str,
    source: &'static str,
    quick: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "stencil (regular)",
        source: "bench/stencil.c",
        quick: &["-DN=1024", "-DT=3"],
    },
    Case {
        name: "matmul (regular)",
        source: "bench/matmul.c",
        quick: &["-DN=200"],
    },
    Case {
        name: "pointer chase (irregular)",
        source: "bench/pointer_chase.c",
        quick: &["-DSTEPS=10000000L"],
    },
];

/// Runs `cmd` with stdout to `stdout_path` and stderr to `stderr_path`; returns the wall time
/// and the process's own peak RSS in KiB (from wait4, which also covers children it reaped).
fn run(cmd: &mut Command, stdout_path: &Path, stderr_path: &Path) -> (Duration, u64) {
    let c = rdtools_e2e::run_measured(
        cmd.stdout(std::fs::File::create(stdout_path).unwrap())
            .stderr(std::fs::File::create(stderr_path).unwrap()),
    );
    (c.wall, c.peak_rss_kib)
}

/// The `peak RSS N KiB` of `live --stats`.
fn live_rss_kib(stderr: &str) -> u64 {
    let at = stderr.find("peak RSS ").expect("live --stats line") + "peak RSS ".len();
    stderr[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Bytes of all files under `dir`.
fn bytes_under(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}

/// Drops the program's own output lines (before the JSON report).
fn report_only(stdout: &str) -> &str {
    let at = stdout.find("{\n").unwrap_or(0);
    &stdout[at..]
}

fn main() {
    let quick = std::env::var("RD_BENCH_QUICK").is_ok_and(|v| v != "0");
    let dir = tempfile::tempdir().unwrap();
    let rda = &tools().rda_report;
    println!(
        "{:<26} {:>10} {:>10} {:>7} {:>13} {:>13} {:>11} {:>12} {:>11}",
        "program",
        "offline s",
        "live s",
        "ratio",
        "off. RSS MiB",
        "live RSS MiB",
        "prog RSS MiB",
        "off. disk MiB",
        "live disk B"
    );
    for case in CASES {
        let src = program(case.source);
        let exe = dir.path().join(case.source.replace('/', "_"));
        let mut flags = vec!["-O2"];
        if quick {
            flags.extend_from_slice(case.quick);
        }
        rdcc(std::slice::from_ref(&src), &flags, &exe);
        let out = dir.path().join("out");
        let err = dir.path().join("err");

        // Live: an empty working directory shows that nothing reaches the disk.
        let live_dir = tempfile::tempdir().unwrap();
        let (t_live, _) = run(
            Command::new(rda)
                .current_dir(live_dir.path())
                .args(["live", "--json", "--stats", "-q", "--"])
                .arg(&exe)
                .env("RDTRACE_QUIET", "1")
                .env_remove("RDTRACE_TEE"),
            &out,
            &err,
        );
        let live_report = std::fs::read_to_string(&out).unwrap();
        let live_rss = live_rss_kib(&std::fs::read_to_string(&err).unwrap());
        let live_disk = bytes_under(live_dir.path());

        // Offline: trace to disk, then analyse.
        let off_dir = tempfile::tempdir().unwrap();
        let trace = off_dir.path().join("t.rdtrace");
        let (t_run, prog_rss) = run(
            Command::new(&exe)
                .current_dir(off_dir.path())
                .env("RDTRACE", &trace)
                .env("RDTRACE_QUIET", "1"),
            &out,
            &err,
        );
        let (t_hist, off_rss) = run(
            Command::new(rda)
                .args(["histogram", "--json", "-q"])
                .arg(&trace),
            &out,
            &err,
        );
        let off_report = std::fs::read_to_string(&out).unwrap();
        let off_disk = bytes_under(off_dir.path());
        assert_eq!(
            report_only(&live_report),
            off_report,
            "live and offline reports differ for {}",
            case.name
        );
        let t_off = t_run + t_hist;
        println!(
            "{:<26} {:>10.2} {:>10.2} {:>6.2}x {:>13.1} {:>13.1} {:>11.1} {:>12.1} {:>11}",
            case.name,
            t_off.as_secs_f64(),
            t_live.as_secs_f64(),
            t_live.as_secs_f64() / t_off.as_secs_f64(),
            off_rss as f64 / 1024.0,
            live_rss as f64 / 1024.0,
            prog_rss as f64 / 1024.0,
            off_disk as f64 / (1 << 20) as f64,
            live_disk,
        );
    }
    println!(
        "(offline s = traced run to disk + histogram; ratio = live / offline, target <= 1; \
         single runs on a shared, noisy machine)"
    );
    several_analyses(dir.path(), quick);
}

/// The analyses of the second table, with the options both ways use.
const SEVERAL: [(&str, &[&str]); 3] = [
    ("measure", &["--json", "-q"]),
    ("annotate", &["--json", "-q", "--false-sharing"]),
    ("check", &["--json", "-q"]),
];

/// The second table (see the module documentation).
fn several_analyses(dir: &Path, quick: bool) {
    let rda = &tools().rda_report;
    println!(
        "\n{:<26} {:>10} {:>10} {:>7}   (measure + annotate + check)",
        "program", "offline s", "live s", "ratio"
    );
    for case in CASES {
        let exe = dir.join(case.source.replace('/', "_"));
        let mut flags = vec!["-O2", "-fopenmp"];
        if quick {
            flags.extend_from_slice(case.quick);
        }
        rdcc(&[program(case.source)], &flags, &exe);
        let out = dir.join("out");
        let err = dir.join("err");
        let work = tempfile::tempdir().unwrap();
        let tee = work.path().join("tee.rdtrace");
        let mut live = Command::new(rda);
        live.arg("live");
        for (name, options) in SEVERAL {
            live.arg(name).args(options).arg("--output");
            live.arg(work.path().join(format!("live-{name}.json")));
        }
        live.arg("--tee").arg(&tee).arg("--").arg(&exe);
        live.env("RDTRACE_QUIET", "1").env_remove("RDTRACE_TEE");
        let (t_live, _) = run(&mut live, &out, &err);

        let trace = work.path().join("t.rdtrace");
        let (mut t_off, _) = run(
            Command::new(&exe)
                .env("RDTRACE", &trace)
                .env("RDTRACE_QUIET", "1"),
            &out,
            &err,
        );
        for (name, options) in SEVERAL {
            let (t, _) = run(
                Command::new(rda).arg(name).arg(&trace).args(options),
                &out,
                &err,
            );
            t_off += t;
            // The live report is the offline command's on the same run (the pipe's name aside).
            let tee_report = work.path().join(format!("tee-{name}.json"));
            let (_, _) = run(
                Command::new(rda).arg(name).arg(&tee).args(options),
                &tee_report,
                &err,
            );
            let live_text =
                std::fs::read_to_string(work.path().join(format!("live-{name}.json"))).unwrap();
            assert_eq!(
                with_trace_named(&live_text, &tee.display().to_string()),
                std::fs::read_to_string(&tee_report).unwrap(),
                "live {name} of {} differs from {name} of its tee copy",
                case.name
            );
        }
        println!(
            "{:<26} {:>10.2} {:>10.2} {:>6.2}x",
            case.name,
            t_off.as_secs_f64(),
            t_live.as_secs_f64(),
            t_live.as_secs_f64() / t_off.as_secs_f64(),
        );
    }
    println!(
        "(offline s = traced run to disk + the three commands in turn; live: the three side by \
         side on the pipe while the program runs; single runs)"
    );
}
