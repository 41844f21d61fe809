//! `rda-report histogram`: reuse-distance histogram of a trace (or of a PARDA-style address
//! file) with any engine.

mod args;
mod engine;
mod feed;
mod json;
#[cfg(feature = "mpi")]
pub mod parda_mpi;
mod render;
pub mod sampling;

pub use args::*;
pub use engine::*;
pub use feed::*;
pub use render::*;

use crate::exit::usage;
use anyhow::Result;
use rdengines::{Histogram, SampleStats};

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
            let trace = match crate::tracefile::open_input(&args.trace, &args.open)? {
                crate::tracefile::Input::File(t) => t,
                mut stream => {
                    // A stream: merged as it comes, or each thread's chunks as they arrive.
                    let all = if args.per_thread {
                        let mut feeders = PerThreadFeeders::default();
                        stream.for_each_thread_chunk(|t, events| {
                            feeders.chunk(t, events, &new_feeder)
                        })?;
                        let threads = stream.thread_indices();
                        let (all, p) =
                            feeders.finish(&threads, exact, &new_feeder, &mut sampling)?;
                        per_thread = p;
                        all
                    } else {
                        let mut f = new_feeder()?;
                        for r in stream.merged()? {
                            r?.1.visit(&mut f);
                        }
                        let (h, s) = f.finish_sampled()?;
                        sampling::accumulate(&mut sampling, s);
                        h
                    };
                    stream.finish()?;
                    return emit_report(
                        &HistogramReport::of(args, kind, sampling),
                        &all,
                        &per_thread,
                    );
                }
            };
            let bar = crate::progress::bar(trace.stored_events(), "analysing", args.out.quiet);
            if args.per_thread {
                let mut reader = trace.chunk_reader()?;
                let mut all = Histogram::new_exact();
                all.exact = exact;
                for t in trace.thread_indices() {
                    let mut f = new_feeder()?;
                    for c in trace.event_chunks().iter().filter(|c| c.thread == t) {
                        reader.visit_chunk(c, &mut f)?;
                        bar.inc(c.events as u64);
                    }
                    let (h, s) = f.finish_sampled()?;
                    add_stats(s);
                    all.merge(&h);
                    per_thread.push((t, h));
                }
                all
            } else {
                let mut f = new_feeder()?;
                if trace.thread_indices().len() <= 1 {
                    feed_in_parallel(&trace, &mut f, |n| bar.inc(n))?;
                } else {
                    trace.visit_merged(&mut f, |n| bar.inc(n))?;
                }
                let (h, s) = f.finish_sampled()?;
                add_stats(s);
                h
            }
        }
    };
    emit_report(
        &HistogramReport::of(args, kind, sampling),
        &all,
        &per_thread,
    )
}
