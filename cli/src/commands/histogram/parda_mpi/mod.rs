//! `rda-report histogram --engine parda-mpi` (build feature `mpi`): PARDA over MPI ranks
//! (`rdmpi`), each rank reading only its own slices of the input through the sources of
//! [`rdmpi::input`] (which documents how PARDA files and traces are sliced). This module maps
//! the flags onto them, turns their errors into one message and an exit status on every rank,
//! and prints the report (and `--mpi-stats`) at rank 0.
//!
//! Any split into consecutive chunks gives the exact histogram (PARDA's Property 4.1), so the
//! approximate line and event counts only balance the work. Run outside `mpirun` the engine
//! runs as a single rank (MPI singleton start).

use super::InputFormat;
use super::{emit_report, granularity, EngineChoice, HistogramArgs, HistogramReport};
use crate::exit::ReportedElsewhere;
use anyhow::Result;
use rdengines::Histogram;
use rdmpi::input::{self, MergedSource, PardaFormat, TraceSource};
use rdmpi::mpi::traits::{Communicator, CommunicatorCollectives};
use rdmpi::{MpiError, MpiPardaConfig, RankStats, Step};
use rdtrace::Trace;
use serde::Serialize;
use std::path::Path;

/// References per rank and phase when `--chunk` is not given: 2^25. A rank never holds its
/// chunk (it reads one source chunk at a time), so larger phases cost no memory and mean fewer
/// local infinities in all; on the benchmark workload P = 2 ran 10 % faster than at 2^23.
pub const DEFAULT_CHUNK: usize = 1 << 25;

/// Ends a failed collective step on every rank: the one rank that reports prints its message
/// *before* a barrier, so that no rank exits (and makes `mpirun` kill the others) before the
/// message is out; every rank then returns a [`ReportedElsewhere`] with the failure's status.
fn stop<C: Communicator>(world: &C, message: Option<String>, usage: bool) -> anyhow::Error {
    if let Some(m) = message {
        eprintln!("rda-report: error: {m}");
        if usage {
            eprintln!("For more information, try '--help'.");
        }
    }
    world.barrier();
    anyhow::Error::new(ReportedElsewhere { usage })
}

/// Maps an MPI run's error: this rank's message printed once, or a silent failure.
fn mpi_error<C: Communicator>(world: &C, e: MpiError) -> anyhow::Error {
    match e {
        MpiError::Failed { .. } => stop(world, Some(e.to_string()), false),
        MpiError::Elsewhere { .. } => stop(world, None, false),
    }
}

/// Runs `histogram` with `--engine parda-mpi` on every rank; rank 0 prints the report.
pub fn run(args: &HistogramArgs) -> Result<()> {
    let universe =
        rdmpi::mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI was already initialised"))?;
    let world = universe.world();
    // Every rank sees the same command line: rank 0 reports a usage error, the others exit
    // with the same status silently.
    let usage_once = |message: String| stop(&world, (world.rank() == 0).then_some(message), true);
    if args.threads.is_some() {
        return Err(usage_once(
            "--threads does not apply to parda-mpi (the ranks are `mpirun -np P`)".into(),
        ));
    }
    let mut cfg = MpiPardaConfig {
        bound: args.bound,
        ..MpiPardaConfig::default()
    };
    let parda = match args.input_format {
        InputFormat::PardaText => Some(PardaFormat::Text),
        InputFormat::PardaBinary => Some(PardaFormat::Binary),
        InputFormat::Rdtrace => None,
    };
    let planned = args.chunk.unwrap_or(DEFAULT_CHUNK) as u64;
    let chunk = input::source_chunk(planned, parda, &mut cfg);
    let gran = granularity(args.line);
    let mut per_thread = Vec::new();
    let mut stats: Vec<Vec<RankStats>> = Vec::new();
    let all = match parda {
        Some(format) => {
            if args.per_thread {
                return Err(usage_once(
                    "--per-thread needs an rdtools trace, not a PARDA input".into(),
                ));
            }
            let mut source = input::open_parda(&world, &args.trace, format, chunk, gran)
                .map_err(|e| mpi_error(&world, e))?;
            let out = rdmpi::run(&world, source.as_mut(), cfg).map_err(|e| mpi_error(&world, e))?;
            out.map(|(h, s)| {
                stats.push(s);
                h
            })
        }
        None => {
            let opened =
                Trace::open_with(&args.trace, args.open.options()).map_err(|e| format!("{e:#}"));
            let trace = rdmpi::agree(&world, opened).map_err(|e| mpi_error(&world, e))?;
            if world.rank() == 0 {
                for w in trace.warnings() {
                    eprintln!("rda-report: warning: {w}");
                }
            }
            let threads = trace.thread_indices();
            if !args.per_thread && threads.len() > 1 {
                // The merged order: windows of stamps found by a collective pre-pass.
                let mut source = MergedSource::open(&world, &trace, chunk, gran)
                    .map_err(|e| mpi_error(&world, e))?;
                let out = rdmpi::run(&world, &mut source, cfg).map_err(|e| mpi_error(&world, e))?;
                let all = out.map(|(h, s)| {
                    stats.push(s);
                    h
                });
                return finish(args, &world, all, &stats, &per_thread);
            }
            let mut all = Histogram::new_exact();
            all.bound = args.bound;
            for t in threads {
                let mut source = TraceSource::new(&trace, t, chunk, gran);
                let out = rdmpi::run(&world, &mut source, cfg).map_err(|e| mpi_error(&world, e))?;
                if let Some((h, s)) = out {
                    all.merge(&h);
                    stats.push(s);
                    per_thread.push((t, h));
                }
            }
            if !args.per_thread {
                per_thread.clear();
            }
            (world.rank() == 0).then_some(all)
        }
    };
    finish(args, &world, all, &stats, &per_thread)
}

/// Rank 0 prints the report (and writes `--mpi-stats`); the other ranks print nothing.
fn finish<C: Communicator>(
    args: &HistogramArgs,
    world: &C,
    all: Option<Histogram>,
    stats: &[Vec<RankStats>],
    per_thread: &[(u32, Histogram)],
) -> Result<()> {
    let Some(all) = all else {
        return Ok(());
    };
    if let Some(path) = &args.mpi_stats {
        write_stats(path, world.size(), stats)?;
    }
    let report = HistogramReport::of(args, EngineChoice::PardaMpi, None);
    emit_report(&report, &all, per_thread)
}

/// Per-rank statistics of `--mpi-stats`, summed over runs (threads with `--per-thread`).
#[derive(Serialize)]
struct StatsJson {
    ranks: i32,
    per_rank: Vec<RankJson>,
}

#[derive(Serialize)]
struct RankJson {
    rank: u32,
    references: u64,
    received_infinities: u64,
    bytes_sent: u64,
    messages: u64,
    phases: u64,
    peak_rss_bytes: u64,
    /// Seconds in each step of the phases (read, own_chunk, infinities, reduce): waiting
    /// included, so a rank's idle time shows in the step it waited in.
    seconds: std::collections::BTreeMap<&'static str, f64>,
}

/// Writes the per-rank statistics as JSON.
fn write_stats(path: &Path, ranks: i32, runs: &[Vec<RankStats>]) -> Result<()> {
    let mut per_rank: Vec<RankJson> = (0..ranks as u32)
        .map(|rank| RankJson {
            rank,
            references: 0,
            received_infinities: 0,
            bytes_sent: 0,
            messages: 0,
            phases: 0,
            peak_rss_bytes: 0,
            seconds: Step::ALL.iter().map(|s| (s.name(), 0.0)).collect(),
        })
        .collect();
    for run in runs {
        for s in run {
            let r = &mut per_rank[s.rank as usize];
            r.references += s.references;
            r.received_infinities += s.received;
            r.bytes_sent += s.bytes_sent;
            r.messages += s.messages;
            r.phases += s.phases;
            r.peak_rss_bytes = r.peak_rss_bytes.max(s.peak_rss);
            for step in Step::ALL {
                *r.seconds.get_mut(step.name()).expect("every step") +=
                    s.step_ns[step as usize] as f64 * 1e-9;
            }
        }
    }
    let json = serde_json::to_string_pretty(&StatsJson { ranks, per_rank })?;
    std::fs::write(path, json + "\n")
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))
}
