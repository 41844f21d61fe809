//! `rda-report histogram`: reuse-distance histogram of a trace (or of a PARDA-style address
//! file) with any engine.

mod analysis;
mod args;
mod engine;
mod feed;
mod json;
#[cfg(feature = "mpi")]
pub mod parda_mpi;
mod render;
pub mod sampling;

pub use analysis::*;
pub use args::*;
pub use engine::*;
pub use feed::*;
pub use render::*;

use crate::exit::usage;
use anyhow::Result;
use rdengines::SampleStats;

/// Runs `histogram`.
pub fn run(args: &HistogramArgs) -> Result<()> {
    let kind = args.engine;
    // Sampling flags are checked first, so that no engine ignores them silently.
    let sample = args.sample.get();
    sample.engine(kind, args.bound)?;
    if kind == EngineChoice::PardaMpi && crate::tracefile::is_stream(&args.trace) {
        return Err(crate::tracefile::needs_a_file(
            &args.trace,
            "parda-mpi ranks each read their own slices of the file",
        ));
    }
    #[cfg(feature = "mpi")]
    if kind == EngineChoice::PardaMpi {
        return parda_mpi::run(args);
    }
    check_st_nb(args.st, args.nb)?;
    let mut cfg = engine_config(args.threads, args.bound, args.chunk);
    cfg.hprda.st = args.st;
    cfg.hprda.nb = args.nb;
    cfg.hprda.adjust = !args.no_adjust;
    let gran = granularity(args.line);
    let adapter = args.adapter.as_deref();
    let new_feeder = || -> Result<BlockFeeder> {
        let engine = match sample.engine(kind, args.bound)? {
            Some(e) => e,
            None => build_engine(kind, &cfg, adapter)?,
        };
        Ok(BlockFeeder::new(engine, gran))
    };
    let mut sampling: Option<SampleStats> = None;
    let mut add_stats = |s| sampling::accumulate(&mut sampling, s);
    let mut per_thread = Vec::new();
    let all = match args.input_format {
        InputFormat::PardaText | InputFormat::PardaBinary => {
            if args.per_thread {
                return Err(usage(
                    "--per-thread needs an rdtools trace, not a PARDA input",
                ));
            }
            let mut f = new_feeder()?;
            if args.input_format == InputFormat::PardaText {
                feed_parda_text(&args.trace, &mut f)?;
            } else {
                feed_parda_binary(&args.trace, &mut f)?;
            }
            let (h, s) = f.finish_sampled()?;
            add_stats(s);
            h
        }
        InputFormat::Rdtrace => {
            let exact = match kind {
                EngineChoice::Cpu(k) => k.is_exact(),
                EngineChoice::HpRdaGpu => false,
                EngineChoice::PardaMpi => true,
            };
            let mut input = crate::tracefile::open_input(&args.trace, &args.open)?;
            let analysis = HistogramAnalysis::new(&new_feeder, args.per_thread, exact)?;
            let run = match &mut input {
                crate::tracefile::Input::File(trace) => {
                    let bar =
                        crate::progress::bar(trace.stored_events(), "analysing", args.out.quiet);
                    rdtrace::analysis::run_digested(trace, analysis, |n| bar.inc(n))??
                }
                stream => run_on_stream(stream, analysis, args.per_thread)?,
            };
            input.finish()?;
            sampling = run.sampling;
            per_thread = run.per_thread;
            run.all
        }
    };
    emit_report(
        &HistogramReport::of(args, kind, sampling),
        &all,
        &per_thread,
    )
}

/// Runs the histogram over a stream: merged in stamp order, or with `per_thread` each chunk as
/// it arrives (threads interleave).
fn run_on_stream(
    stream: &mut crate::tracefile::Input,
    mut analysis: HistogramAnalysis<'_>,
    per_thread: bool,
) -> Result<HistogramRun> {
    if per_thread {
        stream.for_each_thread_chunk(|t, events| {
            analysis.thread_chunk(t, events);
            Ok(())
        })?;
    } else {
        rdtrace::analysis::run_merged(stream.merged()?, &mut analysis, |_| {})?;
    }
    analysis.finish_stream(&stream.thread_indices())
}
