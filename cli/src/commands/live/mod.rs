//! `rda-report live`: runs a program built with `rdcc` and analyses its trace while it runs,
//! streamed through a pipe (`RDTRACE=fd:N`), with no trace file.
//!
//! The program inherits stdin, stdout and stderr; the report is printed after it ends and is
//! the report `histogram` / `predict` print for a trace of the same run (the same rendering
//! code). `live` exits with the program's status, or with 128 + N after saying that the
//! program died by signal N. A slow analysis slows the program down (a full pipe blocks the
//! runtime's writer, whose bounded buffer pool then blocks traced threads); nothing is lost and
//! neither side's memory grows with the trace (see `rdtrace::stream` for the merge's delay
//! bound).
//!
//! `live ANALYSIS...` ([`every`]) runs the offline analyses themselves (`measure`, `annotate`,
//! `check`, `simt`, `paths`, `html`, `histogram`, `predict`) on the run: [`analyses`] parses
//! each with the offline command's own arguments, and each reads the pipe or the copy of the
//! run ([`spool`]) as a trace path. [`program`] starts the program and ends with its status for
//! both forms.

mod analyses;
mod args;
mod every;
mod fanout;
mod os;
mod program;
mod spool;

pub use args::*;

use super::histogram::{
    emit_report, engine_config, granularity, BlockFeeder, EngineChoice, HistogramAnalysis,
    HistogramReport,
};
use super::sasmm::{
    check_predict_flags, emit_predictions, stream_model_for, stream_sequential, SeqSource,
};
use anyhow::{bail, Context, Result};
use os::peak_rss_kib;
use rdengines::{make_engine, Histogram, SampleStats};
use rdtrace::LiveTrace;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// What the analysis produced.
enum Analysed {
    Histogram {
        all: Histogram,
        per_thread: Vec<(u32, Histogram)>,
        sampling: Option<SampleStats>,
    },
    /// The model's predictions, made while the stream was read.
    Predicted(SeqSource<'static>),
}

/// Runs `live`: never returns on success (exits with the program's status).
pub fn run(a: &LiveArgs) -> Result<()> {
    if let Some(first) = &a.analysis {
        return every::run(analyses::parse(first)?);
    }
    let tee = a
        .tee
        .clone()
        .or_else(|| std::env::var_os("RDTRACE_TEE").map(PathBuf::from));
    check_outputs(a, tee.as_deref())?;
    if a.predict {
        // Bad model flags are usage errors before the program runs.
        check_predict_flags(&a.model, &a.caches)?;
        super::sasmm::check_simulated_lines(&a.cores, &a.caches)?;
        if a.sample.get().enabled() {
            return Err(crate::exit::usage(
                "--shards-rate and --shards-max-blocks sample the histogram, not --predict",
            ));
        }
    } else {
        // So are bad sampling flags.
        a.sample
            .get()
            .engine(EngineChoice::Cpu(a.engine), a.bound)?;
    }
    let (mut child, read_end) = program::start(&a.command, a.predict)?;
    let input = BufReader::with_capacity(1 << 20, &read_end);
    let analysed = analyse(a, input, tee.as_deref());
    if analysed.is_ok() {
        os::drain(&read_end);
    }
    drop(read_end);
    // The read end is closed now: if the analysis failed, the program's writes fail instead of
    // blocking, and it runs to its end untraced.
    let status = child.wait().context("waiting for the program")?;
    let report = match analysed {
        Ok(r) => r,
        Err(e) => {
            let _ = std::io::stdout().flush();
            return Err(e.context(format!(
                "analysing the trace of {}",
                a.command[0].to_string_lossy()
            )));
        }
    };
    match report {
        Analysed::Histogram {
            all,
            per_thread,
            sampling,
        } => {
            let r = HistogramReport {
                engine: EngineChoice::Cpu(a.engine),
                line: a.line,
                bound: a.bound,
                per_thread: a.per_thread,
                style: a.format,
                plot: a.plot.as_deref(),
                out: &a.out,
                sampling,
            };
            emit_report(&r, &all, &per_thread)?;
        }
        Analysed::Predicted(source) => print_predictions(a, &source)?,
    }
    program::exit_with(status);
}

/// Checks every file `live` will write (the tee copy, `--output`, `--plot`) before the program
/// starts: a usage error (exit status 2) names the first that cannot be written, and the
/// program is not run.
fn check_outputs(a: &LiveArgs, tee: Option<&std::path::Path>) -> Result<()> {
    use crate::output::check_writable;
    if let Some(t) = tee {
        let flag = if a.tee.is_some() {
            "--tee"
        } else {
            "RDTRACE_TEE"
        };
        check_writable(flag, t)?;
    }
    a.out.check_writable_now()?;
    if let Some(p) = &a.plot {
        check_writable("--plot", p)?;
    }
    Ok(())
}

fn print_predictions(a: &LiveArgs, source: &SeqSource<'_>) -> Result<()> {
    let title = format!("live run of {}", a.command[0].to_string_lossy());
    emit_predictions(&title, source, &a.model, &a.caches, &a.cores, a.mrc, &a.out)
}

/// Reads the stream to its end and runs the chosen analysis.
fn analyse(a: &LiveArgs, input: impl Read, tee: Option<&std::path::Path>) -> Result<Analysed> {
    let tee_writer: Option<Box<dyn Write>> = match tee {
        Some(p) => Some(Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            spool::create_tee(p)?,
        ))),
        None => None,
    };
    let options = rdtrace::OpenOptions {
        max_touched: a.max_touched,
        ..Default::default()
    };
    let mut live = match LiveTrace::with_options(input, "<pipe>", tee_writer, options) {
        Ok(l) => l,
        Err(rdtrace::TraceError::NotATrace { .. }) => {
            bail!("the program wrote no trace (was it built with rdcc?)")
        }
        Err(e) => return Err(e.into()),
    };
    let result = if a.predict {
        let model = stream_model_for(&a.model, &a.caches, a.mrc)?;
        let source = stream_sequential(&mut live, Path::new("<pipe>"), &model, &a.cores)?;
        Ok(Analysed::Predicted(source))
    } else {
        analyse_histogram(a, &mut live)
    };
    for w in live.warnings() {
        eprintln!("rda-report: warning: {w}");
    }
    if a.stats {
        let s = live.stats();
        eprintln!(
            "rda-report: live: {} bytes read from the pipe ({} events chunks, {} floor chunks); \
             held at most {} compressed bytes and {} events; peak RSS {} KiB",
            s.bytes_read,
            s.event_chunks,
            s.floor_chunks,
            s.max_pending_bytes,
            s.max_pending_events,
            peak_rss_kib().map_or("unknown".to_string(), |k| k.to_string())
        );
    }
    result
}

fn analyse_histogram(a: &LiveArgs, live: &mut LiveTrace<'_>) -> Result<Analysed> {
    let kind = a.engine;
    let cfg = engine_config(a.threads, a.bound, a.parda_chunk);
    let gran = granularity(a.line);
    let sample = a.sample.get();
    let new_feeder = || -> Result<BlockFeeder> {
        let engine = match sample.engine(EngineChoice::Cpu(kind), a.bound)? {
            Some(e) => e,
            None => make_engine(kind, &cfg),
        };
        Ok(BlockFeeder::new(engine, gran))
    };
    let exact = make_engine(kind, &cfg).is_exact();
    let mut analysis = HistogramAnalysis::new(&new_feeder, a.per_thread, exact)?;
    if a.per_thread {
        // Each thread's chunks are analysed as soon as they arrive in sequence order.
        let mut events = Vec::new();
        while let Some(t) = live.next_thread_chunk(&mut events)? {
            analysis.thread_chunk(t, &events);
        }
    } else {
        let merged = std::iter::from_fn(|| live.next_merged().transpose());
        rdtrace::analysis::run_merged(merged, &mut analysis, |_| {})?;
    }
    // The same threads, order and sum as `histogram --per-thread` of the same run.
    let run = analysis.finish_stream(&live.thread_indices())?;
    Ok(Analysed::Histogram {
        all: run.all,
        per_thread: run.per_thread,
        sampling: run.sampling,
    })
}
