//! PARDA over MPI (issue 16) against `fast` and threaded `parda`, one table from one run.
//!
//! The stream is the engines' benchmark workload (`rdengines::workload`: half a cyclic sweep
//! over M/2 lines, half a skewed random choice among M lines; M = 2^20) written as a PARDA
//! binary file (8 bytes a reference) and analysed by `rda-report histogram FILE --input-format
//! parda-binary --line 1` with `--engine fast`, `--engine parda --threads 2` and
//! `mpirun -np P … --engine parda-mpi` for P = 1, 2, 4 (local ranks, shared-memory transport,
//! `--oversubscribe`). Columns: wall seconds (process start to exit, including MPI start-up),
//! references per second, speed-up over `fast`, payload bytes sent per rank and peak RSS per
//! rank (from `--mpi-stats`; for the single-process engines, wait4's peak RSS), and CPU
//! seconds (user + system, all ranks; the work apart from waiting on a loaded machine). Every histogram
//! is checked to equal `fast`'s. Single runs, in the order of the table, on a shared machine.
//!
//! `cargo bench -p rdtools-e2e --features mpi --bench parda_mpi`; `PARDA_MPI_BENCH_REFS=N`
//! sets the trace length (default 10^8).

use rdengines::workload::Workload;
use rdtools_e2e::tools;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// What one run cost.
struct Cost {
    wall: Duration,
    /// User + system CPU seconds of the process and the children it reaped (mpirun's ranks):
    /// on a loaded machine, the work done apart from the waiting.
    cpu: f64,
    stdout: String,
    /// Peak RSS of the largest process waited for, bytes.
    peak_rss: u64,
}

/// Runs `cmd`, returning its wall and CPU time, stdout and peak RSS (wait4).
fn run(cmd: &mut Command) -> Cost {
    let out = tempfile::NamedTempFile::new().unwrap();
    let c = rdtools_e2e::run_measured(cmd.stdout(out.reopen().unwrap()).stderr(Stdio::inherit()));
    Cost {
        wall: c.wall,
        cpu: c.cpu_s,
        stdout: std::fs::read_to_string(out.path()).unwrap(),
        peak_rss: c.peak_rss_kib * 1024,
    }
}

/// The histogram part of a `--json` report (engine name and exactness aside).
fn histogram_part(json: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    serde_json::json!([v["total"], v["cold"], v["overflow"], v["histogram"]])
}

fn mib(b: u64) -> String {
    format!("{:.0}", b as f64 / (1 << 20) as f64)
}

fn main() {
    let n: u64 = std::env::var("PARDA_MPI_BENCH_REFS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000_000);
    let m = 1u64 << 20;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("trace.bin");
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        let mut gen = Workload::new(m, 1);
        let mut buf = vec![0u64; 1 << 16];
        let mut left = n;
        while left > 0 {
            let k = left.min(buf.len() as u64) as usize;
            gen.fill(&mut buf[..k]);
            for b in &buf[..k] {
                w.write_all(&b.to_le_bytes()).unwrap();
            }
            left -= k as u64;
        }
    }
    let rda = &tools().rda_report;
    let path = file.to_str().unwrap();
    let base = [
        "histogram",
        path,
        "--input-format",
        "parda-binary",
        "--line",
        "1",
        "--json",
    ];
    println!(
        "parda-mpi benchmark: {n} references over M = {m} blocks (PARDA binary, {} MiB)",
        mib(8 * n)
    );
    println!(
        "machine: {} CPUs (shared with other work: timings are noisy)",
        std::thread::available_parallelism().map_or(1, |p| p.get())
    );
    println!();
    println!(
        "{:<22} {:>8} {:>8} {:>12} {:>9} {:>24} {:>24}",
        "engine",
        "wall s",
        "CPU s",
        "refs/s",
        "speed-up",
        "MiB sent per rank",
        "peak RSS MiB per rank"
    );
    let fast = run(Command::new(rda).args(base).args(["--engine", "fast"]));
    let want = histogram_part(&fast.stdout);
    let fast_wall = fast.wall.as_secs_f64();
    let row = |name: &str, c: &Cost, sent: &str, rss: &str| {
        let t = c.wall.as_secs_f64();
        println!(
            "{name:<22} {t:>8.2} {:>8.2} {:>12.3e} {:>8.2}x {sent:>24} {rss:>24}",
            c.cpu,
            n as f64 / t,
            fast_wall / t
        );
    };
    row("fast", &fast, "-", &mib(fast.peak_rss));
    let parda = run(Command::new(rda)
        .args(base)
        .args(["--engine", "parda", "--threads", "2"]));
    assert_eq!(
        histogram_part(&parda.stdout),
        want,
        "parda differs from fast"
    );
    row("parda (2 threads)", &parda, "-", &mib(parda.peak_rss));
    for np in [1, 2, 4] {
        let stats = dir.path().join(format!("stats{np}.json"));
        let c = run(Command::new("mpirun")
            .args([
                "--oversubscribe",
                "--bind-to",
                "none",
                "--mca",
                "btl",
                "self,vader",
                "--mca",
                "pml",
                "ob1",
                "-np",
            ])
            .arg(np.to_string())
            .arg(rda)
            .args(base)
            .args(["--engine", "parda-mpi", "--mpi-stats"])
            .arg(&stats)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none"));
        assert_eq!(
            histogram_part(&c.stdout),
            want,
            "parda-mpi -np {np} differs from fast"
        );
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        let ranks = s["per_rank"].as_array().unwrap();
        let list = |key: &str| {
            ranks
                .iter()
                .map(|r| mib(r[key].as_u64().unwrap()))
                .collect::<Vec<_>>()
                .join("/")
        };
        row(
            &format!("parda-mpi (P = {np})"),
            &c,
            &list("bytes_sent"),
            &list("peak_rss_bytes"),
        );
    }
}
