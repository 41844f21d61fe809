//! The subcommands, one module each.

pub mod annotate;
pub mod check;
pub mod dump;
pub mod flags;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod histogram;
pub mod html;
pub mod info;
pub mod live;
pub mod machine;
pub mod paths;
pub mod sasmm;
pub mod simt;

use anyhow::Result;

/// All subcommands.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Command {
    /// Program, threads, event counts by kind, static metadata counts.
    Info(info::InfoArgs),
    /// Events in readable form with source locations.
    Dump(dump::DumpArgs),
    /// Exact reuse-distance histogram.
    Histogram(histogram::HistogramArgs),
    /// Run a program and analyse its trace live, through a pipe (no trace file).
    Live(live::LiveArgs),
    #[command(flatten)]
    Sasmm(sasmm::SasmmCommand),
    #[command(flatten)]
    Paths(paths::PathsCommand),
    #[command(
        about = "SIMT data reuse degree (DS vs RD) of loops mapped to GPU threads, or of GPU traces"
    )]
    Simt(simt::SimtArgs),
    /// Accesses, cold misses, reuse distances and simulated cache misses per source line and
    /// function (like cg_annotate).
    Annotate(annotate::AnnotateArgs),
    /// One self-contained HTML page: summary, histograms, miss-ratio curve, hot source lines,
    /// path patterns, SASMM and SIMT plots, and the terms they use.
    Html(html::HtmlArgs),
    /// Trace invariants: ids, stamps, region and worksharing pairs, block successors vs the CFG.
    Check(check::CheckArgs),
    /// A real machine's caches: this machine's from /sys (`host`) or a named CPU preset.
    Machine(machine::MachineArgs),
    /// GPU adapters available to `histogram --engine hprda-gpu` (build feature `gpu`).
    #[cfg(feature = "gpu")]
    GpuInfo(gpu::GpuInfoArgs),
}

/// The report flags of a subcommand, where it prints a report.
fn output_of(cmd: &Command) -> Option<&crate::output::OutputArgs> {
    Some(match cmd {
        Command::Info(a) => &a.out,
        Command::Dump(a) => &a.out,
        // Under mpirun only rank 0 writes the file, possibly on a node of its own.
        Command::Histogram(a) if a.engine == histogram::EngineChoice::PardaMpi => return None,
        Command::Histogram(a) => &a.out,
        Command::Live(a) => &a.out,
        Command::Sasmm(sasmm::SasmmCommand::Predict(a)) => &a.out,
        Command::Sasmm(sasmm::SasmmCommand::Measure(a)) => &a.out,
        Command::Sasmm(sasmm::SasmmCommand::Validate(a)) => &a.out,
        Command::Paths(paths::PathsCommand::Paths(a)) => &a.out,
        Command::Paths(paths::PathsCommand::PathsPredict(a)) => &a.out,
        Command::Simt(a) => &a.out,
        Command::Annotate(a) => &a.out,
        Command::Check(a) => &a.out,
        Command::Html(_) => return None,
        Command::Machine(a) => &a.out,
        #[cfg(feature = "gpu")]
        Command::GpuInfo(a) => &a.out,
    })
}

/// Runs a subcommand. The commands that read their traces through and print only at the end
/// first read them with validation deferred (rdtrace's `OpenOptions::defer_validation`: no
/// whole decode of the trace at open, each chunk checked as the analysis decodes it); where
/// that meets damage or too much work, the command runs again on traces validated at open,
/// so its report, warnings and errors are those of an eager read.
pub fn run(mut cmd: Command) -> Result<()> {
    use crate::tracefile::{Deferral, Warned};
    if let Some(out) = output_of(&cmd) {
        out.check_destination()?;
    }
    let warned = Warned::default();
    let mut deferred = cmd.clone();
    if let Some(open) = deferrable(&mut deferred) {
        open.deferral = Deferral::Deferring(warned.clone());
        match run_once(deferred) {
            Err(e) if needs_revalidation(&e) => {}
            done => return done,
        }
        if let Some(open) = deferrable(&mut cmd) {
            open.deferral = Deferral::Revalidating(warned);
        }
    }
    run_once(cmd)
}

/// The trace-reading flags of a command that may defer validation: one that reads its traces
/// as files (or streams, which validate chunk by chunk anyway) and prints nothing before its
/// analysis ends, so that running it again prints each line once (`info` and `check` read
/// every chunk too; `check`'s damaged chunks are those of the validated read that follows).
/// Not `dump` (it prints as it reads), `live`, and not under MPI (a rank that finds damage
/// would run again alone) or `--salvage`.
fn deferrable(cmd: &mut Command) -> Option<&mut crate::tracefile::OpenArgs> {
    let open = match cmd {
        Command::Info(a) => &mut a.open,
        Command::Histogram(a) if a.engine == histogram::EngineChoice::PardaMpi => return None,
        Command::Histogram(a) => &mut a.open,
        Command::Sasmm(sasmm::SasmmCommand::Predict(a)) => &mut a.open,
        Command::Sasmm(sasmm::SasmmCommand::Measure(a)) => &mut a.open,
        Command::Sasmm(sasmm::SasmmCommand::Validate(a)) => &mut a.open,
        Command::Paths(paths::PathsCommand::Paths(a)) => &mut a.open,
        Command::Paths(paths::PathsCommand::PathsPredict(a)) => &mut a.open,
        Command::Simt(a) => &mut a.open,
        Command::Annotate(a) => &mut a.open,
        Command::Html(a) => &mut a.open,
        Command::Check(a) => &mut a.open,
        _ => return None,
    };
    (!open.salvage).then_some(open)
}

/// Whether `e` says a trace read with deferred validation must be read again validated.
fn needs_revalidation(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        matches!(
            trace_error_in(cause),
            Some(rdtrace::TraceError::Revalidate { .. })
        )
    })
}

/// The trace error `cause` is or forwards: the analyses' error types forward one
/// transparently (its message, not itself as a source), so each is looked into.
fn trace_error_in<'e>(
    cause: &'e (dyn std::error::Error + 'static),
) -> Option<&'e rdtrace::TraceError> {
    if let Some(t) = cause.downcast_ref::<rdtrace::TraceError>() {
        return Some(t);
    }
    if let Some(rdsasmm::SasmmError::Trace(t)) = cause.downcast_ref() {
        return Some(t);
    }
    if let Some(rdpaths::PathsError::Trace(t)) = cause.downcast_ref() {
        return Some(t);
    }
    if let Some(rdannotate::AnnotateError::Trace(t)) = cause.downcast_ref() {
        return Some(t);
    }
    if let Some(rdsimt::SimtError::Trace(t)) = cause.downcast_ref() {
        return Some(t);
    }
    None
}

/// Runs a subcommand once.
fn run_once(cmd: Command) -> Result<()> {
    match cmd {
        Command::Info(a) => info::run(&a),
        Command::Dump(a) => dump::run(&a),
        Command::Histogram(a) => histogram::run(&a),
        Command::Live(a) => live::run(&a),
        Command::Sasmm(c) => sasmm::run(c),
        Command::Paths(c) => paths::run(c),
        Command::Simt(a) => simt::run(&a),
        Command::Annotate(a) => annotate::run(&a),
        Command::Html(a) => html::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Machine(a) => machine::run(&a),
        #[cfg(feature = "gpu")]
        Command::GpuInfo(a) => gpu::run(&a),
    }
}
