//! `rda-report html`: one self-contained HTML page with the run summary, the reuse histogram and
//! miss-ratio curve, per-thread histograms, SASMM predicted vs measured hit rates, the hot source
//! lines, the cache lines with coherence misses (false sharing, with more than one thread), the
//! multi-pattern instructions with their paths, SIMT DS/RD plots and the terms used.
//!
//! The page's size does not depend on the trace length: every table and plot has a bounded
//! number of rows or points (log2 distance bins, at most [`MAX_THREADS`] threads, `--top` lines,
//! [`MAX_PATH_INSTRS`] × [`MAX_PATHS`] paths, [`MAX_SIMT_POINTS`] SIMT points).

mod args;
mod locality;
mod mrc;
mod paths_section;
mod sasmm_section;
mod sharing_section;
mod simt_section;

pub use args::*;

use crate::html::{self, Page};
use anyhow::{bail, Context, Result};
use locality::{hot_lines, reuse, summary, threads};
use paths_section::paths;
use rdannotate::{annotate_with_progress, AnnotateConfig};
use sasmm_section::sasmm;
use sharing_section::false_sharing;
use simt_section::simt;

/// Threads drawn and listed at most.
pub const MAX_THREADS: usize = 64;
/// Threads drawn in the per-thread plot (one line each).
pub const MAX_THREAD_SERIES: usize = 8;
/// Multi-pattern instructions listed at most.
pub const MAX_PATH_INSTRS: usize = 10;
/// Paths listed per instruction at most.
pub const MAX_PATHS: usize = 12;
/// Branch sequences listed per path at most.
pub const MAX_SEQUENCES: usize = 3;
/// Points of the full-range SIMT plot at most.
pub const MAX_SIMT_POINTS: u64 = 400;

fn glossary() -> String {
    let mut s = String::new();
    s.push_str(&html::terms(
        "Source lines, histograms and caches",
        crate::terms::ANNOTATE,
    ));
    s.push_str(&html::terms("Path-based patterns", crate::terms::PATHS));
    s.push_str(&html::terms("SIMT data reuse", crate::terms::SIMT));
    s
}

/// Builds the page (no I/O but reading traces and sources).
pub fn build(args: &HtmlArgs) -> Result<String> {
    crate::commands::annotate::check_line_sizes(&args.caches.l1, &args.caches.l2)?;
    if args.history.is_empty() || args.history.iter().any(|&n| n == 0 || n > 56) {
        bail!("--history needs lengths in 1..=56");
    }
    crate::tracefile::require_files(
        std::iter::once(args.trace.as_path())
            .chain(args.seq.as_deref())
            .chain(args.real.iter().map(|r| r.1.as_path())),
        "html reads the trace once per section",
    )?;
    let trace = crate::tracefile::open(&args.trace, &args.open)?;
    // The path analysis reads the trace again, mostly on one core: it runs beside the
    // annotation (which decodes on the other cores), each with its own bar.
    let bars = indicatif::MultiProgress::new();
    let (a, paths_section) = std::thread::scope(|s| {
        let paths_job = (!args.no_paths).then(|| s.spawn(|| paths(&trace, args, &bars)));
        let bar = crate::progress::bar_in(&bars, trace.total_events(), "annotating", args.quiet);
        let a = annotate_with_progress(
            &trace,
            AnnotateConfig {
                l1: args.caches.l1,
                l2: args.caches.l2,
                false_sharing: (trace.threads.len() > 1).then_some(rdcachesim::SharingConfig {
                    max_lines: crate::commands::annotate::false_sharing::DEFAULT_MAX_LINES,
                    max_sources: 16,
                }),
            },
            |n| bar.set_position(n),
        );
        bar.finish_and_clear();
        let section = paths_job
            .map(|job| job.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .transpose();
        (a, section)
    });
    let a = a.with_context(|| format!("annotating {}", args.trace.display()))?;
    let paths_section = paths_section?;
    let name = std::path::Path::new(&trace.program.program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| trace.program.program.clone());
    let mut page = Page::new(
        &format!("rdtools report: {name}"),
        &format!(
            "{} · {} events · {} threads · L1 {} per thread, L2 {} shared",
            args.trace.display(),
            trace.total_events(),
            trace.threads.len(),
            args.caches.l1,
            args.caches.l2
        ),
    );
    page.section("summary", "Run summary", summary(&trace, &a, args));
    page.section("reuse", "Reuse distances", reuse(&a));
    page.section("threads", "Per-thread reuse", threads(&a));
    if let Some(seq) = &args.seq {
        page.section(
            "sasmm",
            "Predicted vs measured hit rates",
            sasmm(args, seq)?,
        );
    }
    page.section("hot-lines", "Hot source lines", hot_lines(&a, args));
    if trace.threads.len() > 1 {
        page.section(
            "false-sharing",
            "False sharing",
            false_sharing(&a, args.top as usize),
        );
    }
    if let Some(section) = paths_section {
        page.section("paths", "Multi-pattern instructions", section);
    }
    if let Some(n) = args.simt {
        page.section("simt", "SIMT data reuse (DS vs RD)", simt(&trace, args, n)?);
    }
    page.section("terms", "Terms", glossary());
    Ok(page.render())
}

/// Runs `html`.
pub fn run(args: &HtmlArgs) -> Result<()> {
    let page = build(args)?;
    std::fs::write(&args.output, &page)
        .with_context(|| format!("writing {}", args.output.display()))?;
    if !args.quiet {
        eprintln!(
            "rda-report: wrote {} ({} bytes)",
            args.output.display(),
            page.len()
        );
    }
    Ok(())
}
