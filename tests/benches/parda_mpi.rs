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
//! is checked to equal `fast`'s. Every engine writes its report with `--output` (under mpirun,
//! stdout would go through mpirun's forwarding). The engines run in table order, repeated
//! `PARDA_MPI_BENCH_REPS` times (default 3, interleaved); each row is its median-wall run, and
//! the per-rank seconds per step (`--mpi-stats`) of those runs follow the table.
//!
//! `cargo bench -p rdtools-e2e --features mpi --bench parda_mpi`; `PARDA_MPI_BENCH_REFS=N`
//! sets the trace length (default 10^8).

use rdengines::workload::Workload;
use rdtools_e2e::tools;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// What one run cost.
#[derive(Clone)]
struct Cost {
    wall: Duration,
    /// User + system CPU seconds of the process and the children it reaped (mpirun's ranks):
    /// on a loaded machine, the work done apart from the waiting.
    cpu: f64,
    /// Digest of the report's histogram ([`histogram_digest`]).
    histogram: u64,
    /// Peak RSS of the largest process waited for, bytes.
    peak_rss: u64,
}

/// Runs `cmd` with `--output` to a temporary file (so every engine writes its report itself:
/// under mpirun, stdout would go through mpirun's forwarding), returning its wall and CPU
/// time, report and peak RSS (wait4).
fn run(cmd: &mut Command) -> Cost {
    let out = tempfile::NamedTempFile::new().unwrap();
    let c = rdtools_e2e::run_measured(
        cmd.arg("--output")
            .arg(out.path())
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit()),
    );
    Cost {
        wall: c.wall,
        cpu: c.cpu_s,
        histogram: histogram_digest(&std::fs::read_to_string(out.path()).unwrap()),
        peak_rss: c.peak_rss_kib * 1024,
    }
}

/// A digest of the histogram part of a `--json` report (from `"total"` on: the engine's name
/// and exactness aside), so two engines' histograms can be compared without this process
/// holding either: a child's peak RSS (wait4) counts the parent's memory it was spawned from.
fn histogram_digest(json: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let at = json.find("\"total\"").expect("a histogram report");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    json[at..].hash(&mut h);
    h.finish()
}

fn mib(b: u64) -> String {
    format!("{:.0}", b as f64 / (1 << 20) as f64)
}

fn main() {
    let n: u64 = std::env::var("PARDA_MPI_BENCH_REFS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000_000);
    let reps: usize = std::env::var("PARDA_MPI_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
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
    // The engines, run in this order in every repetition (interleaved, so a slow moment of the
    // machine falls on all of them alike); a row shows the run with the median wall time.
    let mut engines: Vec<(String, Option<usize>, Vec<&str>)> = vec![
        ("fast".into(), None, vec!["--engine", "fast"]),
        (
            "parda (2 threads)".into(),
            None,
            vec!["--engine", "parda", "--threads", "2"],
        ),
    ];
    for np in [1, 2, 4] {
        engines.push((
            format!("parda-mpi (P = {np})"),
            Some(np),
            vec!["--engine", "parda-mpi"],
        ));
    }
    let mut runs: Vec<Vec<(Cost, Option<serde_json::Value>)>> = vec![Vec::new(); engines.len()];
    let mut want = None;
    for _ in 0..reps {
        for (k, (name, np, flags)) in engines.iter().enumerate() {
            let stats = dir.path().join("stats.json");
            let mut cmd = match np {
                None => Command::new(rda),
                Some(np) => rdtools_e2e::local_mpirun(*np, &[]),
            };
            cmd.args(base).args(flags);
            if np.is_some() {
                cmd.arg("--mpi-stats").arg(&stats);
            }
            let c = run(&mut cmd);
            let want = *want.get_or_insert(c.histogram);
            assert_eq!(c.histogram, want, "{name} differs from fast");
            let s = np.map(|_| {
                serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&stats).unwrap())
                    .unwrap()
            });
            runs[k].push((c, s));
        }
    }
    let median = |rs: &mut Vec<(Cost, Option<serde_json::Value>)>| {
        rs.sort_by_key(|a| a.0.wall);
        rs.swap_remove(rs.len() / 2)
    };
    let fast_wall = {
        let mut f = runs[0].clone();
        median(&mut f).0.wall.as_secs_f64()
    };
    let mut steps = Vec::new();
    for ((name, np, _), mut rs) in engines.iter().zip(runs) {
        let (c, s) = median(&mut rs);
        let t = c.wall.as_secs_f64();
        let (sent, rss) = match &s {
            None => ("-".to_string(), mib(c.peak_rss)),
            Some(s) => {
                let ranks = s["per_rank"].as_array().unwrap();
                let list = |key: &str| {
                    ranks
                        .iter()
                        .map(|r| mib(r[key].as_u64().unwrap()))
                        .collect::<Vec<_>>()
                        .join("/")
                };
                (list("bytes_sent"), list("peak_rss_bytes"))
            }
        };
        println!(
            "{name:<22} {t:>8.2} {:>8.2} {:>12.3e} {:>8.2}x {sent:>24} {rss:>24}",
            c.cpu,
            n as f64 / t,
            fast_wall / t
        );
        if let (Some(np), Some(s)) = (np, s) {
            steps.push((*np, s));
        }
    }
    println!();
    println!(
        "seconds per step and rank, same runs (waiting included, so idle time shows in its step):"
    );
    for (np, s) in steps {
        for r in s["per_rank"].as_array().unwrap() {
            let t = &r["seconds"];
            println!(
                "  P = {np}, rank {}: read {:.2}  own chunk {:.2}  infinities {:.2}  reduce {:.2}  ({} references, {} infinities received)",
                r["rank"],
                t["read"].as_f64().unwrap(),
                t["own_chunk"].as_f64().unwrap(),
                t["infinities"].as_f64().unwrap(),
                t["reduce"].as_f64().unwrap(),
                r["references"],
                r["received_infinities"],
            );
        }
    }
}
