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

mod args;
mod os;

pub use args::*;

use super::histogram::{
    emit_report, engine_config, granularity, BlockFeeder, EngineChoice, HistogramReport,
    PerThreadFeeders,
};
use super::sasmm::{
    check_predict_flags, emit_predictions, exact_config_for, stream_sequential, ModelArg, SeqSource,
};
use anyhow::{bail, Context, Result};
use os::{peak_rss_kib, pipe, signal_name};
use rdengines::{make_engine, Histogram, SampleStats};
use rdtrace::LiveTrace;
use std::io::{BufReader, Read, Write};
use std::os::fd::FromRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::Command;

/// What the analysis produced.
enum Analysed {
    Histogram {
        all: Histogram,
        per_thread: Vec<(u32, Histogram)>,
        sampling: Option<SampleStats>,
    },
    /// The exact model's predictions, made while the stream was read.
    PredictExact(Vec<rdsasmm::ExactPrediction>),
    /// The formula model reads the run twice: the stream was spooled to this trace file (the
    /// tee copy, or a temporary file removed with the guard).
    PredictSpooled(PathBuf, Option<TempFile>),
}

/// A file removed when dropped.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `live`: never returns on success (exits with the program's status).
pub fn run(a: &LiveArgs) -> Result<()> {
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
    let (read_fd, write_fd) = pipe()?;
    // A larger pipe lets the writer hand over a whole compressed chunk without waiting.
    // Safety: fcntl on our own descriptor; failure only leaves the default size.
    unsafe { libc::fcntl(read_fd, libc::F_SETPIPE_SZ, 1 << 20) };
    let mut cmd = Command::new(&a.command[0]);
    cmd.args(&a.command[1..])
        .env("RDTRACE", format!("fd:{write_fd}"))
        .env_remove("RDTRACE_TEE");
    if a.predict && std::env::var_os("OMP_NUM_THREADS").is_none() {
        cmd.env("OMP_NUM_THREADS", "1");
    }
    // Safety: between fork and exec only async-signal-safe calls (fcntl, signal).
    unsafe {
        cmd.pre_exec(move || {
            // The write end goes to the program; our read end does not.
            libc::fcntl(write_fd, libc::F_SETFD, 0);
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGQUIT, libc::SIG_DFL);
            Ok(())
        });
    }
    // Ctrl-C reaches the whole process group: the program's runtime flushes and re-raises, and
    // we stay to print what was analysed (as `time` and shells do while they wait).
    // Safety: setting a disposition to SIG_IGN.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGQUIT, libc::SIG_IGN);
    }
    let spawned = cmd.spawn();
    // Safety: closing our copy of the write end, so the pipe ends when the program does.
    unsafe { libc::close(write_fd) };
    let mut child =
        spawned.with_context(|| format!("cannot run {}", a.command[0].to_string_lossy()))?;
    // Safety: read_fd is our open read end, owned from here on by the File.
    let input = BufReader::with_capacity(1 << 20, unsafe { std::fs::File::from_raw_fd(read_fd) });
    let analysed = analyse(a, input, tee.as_deref());
    // The read end is closed now (dropped with the analysis): if the analysis stopped early,
    // the program's writes fail instead of blocking, and it runs to its end untraced.
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
        Analysed::PredictExact(preds) => {
            print_predictions(a, &SeqSource::Exact(preds))?;
        }
        Analysed::PredictSpooled(path, temp) => {
            let options = rdtrace::OpenOptions {
                max_touched: a.max_touched,
                ..Default::default()
            };
            let trace = rdtrace::Trace::open_with(&path, options)?;
            print_predictions(a, &SeqSource::File(&trace))?;
            drop(temp);
        }
    }
    let _ = std::io::stdout().flush();
    let code = match (status.code(), status.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => {
            eprintln!(
                "rda-report: the program died by signal {sig} ({}); the report covers what it traced until then",
                signal_name(sig)
            );
            128 + sig
        }
        _ => 1,
    };
    std::process::exit(code);
}

/// Checks every file `live` will write (the tee copy, `--output`, `--plot`, and the spool file
/// of `--predict --model formula` without a tee copy) before the program starts: a usage error
/// (exit status 2) names the first that cannot be written, and the program is not run.
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
    if a.predict && a.model.model == ModelArg::Formula && tee.is_none() {
        check_writable(
            "the spool file of --model formula (in $TMPDIR)",
            &spool_path(),
        )?;
    }
    Ok(())
}

/// Where `--predict --model formula` spools the stream without a tee copy.
fn spool_path() -> PathBuf {
    std::env::temp_dir().join(format!("rda-report-live-{}.rdtrace", std::process::id()))
}

fn print_predictions(a: &LiveArgs, source: &SeqSource<'_>) -> Result<()> {
    let title = format!("live run of {}", a.command[0].to_string_lossy());
    emit_predictions(&title, source, &a.model, &a.caches, &a.cores, a.mrc, &a.out)
}

/// Reads the stream to its end and runs the chosen analysis.
fn analyse(a: &LiveArgs, input: impl Read, tee: Option<&std::path::Path>) -> Result<Analysed> {
    // The formula model reads the run twice: without a tee copy, the stream is spooled to a
    // temporary trace file (compressed chunks, as a tee copy), never held in memory.
    let mut spool = None;
    if a.predict && a.model.model == ModelArg::Formula && tee.is_none() {
        let path = spool_path();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .with_context(|| format!("creating the spool file {}", path.display()))?;
        spool = Some((TempFile(path), file));
    }
    let tee_writer: Option<Box<dyn Write>> = match (tee, &spool) {
        (Some(p), _) => Some(Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        ))),
        (None, Some((_, file))) => Some(Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            file.try_clone()
                .context("opening the spool file for writing")?,
        ))),
        (None, None) => None,
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
        let spooled = spool
            .map(|(temp, _)| (temp.0.clone(), Some(temp)))
            .or_else(|| tee.map(|p| (p.to_path_buf(), None)));
        analyse_predict(a, &mut live, spooled)
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
    let mut sampling: Option<SampleStats> = None;
    if a.per_thread {
        // Each thread's chunks are analysed as soon as they arrive in sequence order.
        let mut feeders = PerThreadFeeders::default();
        let mut events = Vec::new();
        while let Some(t) = live.next_thread_chunk(&mut events)? {
            feeders.chunk(t, &events, &new_feeder)?;
        }
        // The same threads, order and sum as `histogram --per-thread` of the same run.
        let exact = make_engine(kind, &cfg).is_exact();
        let (all, per_thread) =
            feeders.finish(&live.thread_indices(), exact, &new_feeder, &mut sampling)?;
        Ok(Analysed::Histogram {
            all,
            per_thread,
            sampling,
        })
    } else {
        let mut f = new_feeder()?;
        while let Some((_, e)) = live.next_merged()? {
            e.visit(&mut f);
        }
        let (all, s) = f.finish_sampled()?;
        super::histogram::sampling::accumulate(&mut sampling, s);
        Ok(Analysed::Histogram {
            all,
            per_thread: Vec::new(),
            sampling,
        })
    }
}

/// `--predict`: the exact model runs on the stream as it arrives (one [`rdsasmm::ExactRun`]
/// per core count, fed the sequential trace's fragments); the formula model reads the spooled
/// copy afterwards (`spooled`: its path, and the guard of a temporary one).
fn analyse_predict(
    a: &LiveArgs,
    live: &mut LiveTrace<'_>,
    spooled: Option<(PathBuf, Option<TempFile>)>,
) -> Result<Analysed> {
    let name = std::path::Path::new("<pipe>");
    match (a.model.model, spooled) {
        (ModelArg::Formula, Some((path, temp))) => {
            stream_sequential(live, name, None, &a.cores)?;
            Ok(Analysed::PredictSpooled(path, temp))
        }
        _ => {
            let cfg = exact_config_for(&a.model, &a.caches, a.mrc)?;
            let preds = stream_sequential(live, name, Some(&cfg), &a.cores)?;
            Ok(Analysed::PredictExact(preds))
        }
    }
}
