//! The subcommands, one module each.

pub mod dump;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod histogram;
pub mod info;
pub mod paths;
pub mod sasmm;
pub mod simt;

use anyhow::Result;

/// All subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Program, threads, event counts by kind, static metadata counts.
    Info(info::InfoArgs),
    /// Events in readable form with source locations.
    Dump(dump::DumpArgs),
    /// Exact reuse-distance histogram.
    Histogram(histogram::HistogramArgs),
    #[command(flatten)]
    Sasmm(sasmm::SasmmCommand),
    #[command(flatten)]
    Paths(paths::PathsCommand),
    #[command(
        about = "SIMT data reuse degree (DS vs RD) of loops mapped to GPU threads, or of GPU traces"
    )]
    Simt(simt::SimtArgs),
    /// GPU adapters available to `histogram --engine hprda-gpu` (build feature `gpu`).
    #[cfg(feature = "gpu")]
    GpuInfo(gpu::GpuInfoArgs),
}

/// Runs a subcommand.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Info(a) => info::run(&a),
        Command::Dump(a) => dump::run(&a),
        Command::Histogram(a) => histogram::run(&a),
        Command::Sasmm(c) => sasmm::run(c),
        Command::Paths(c) => paths::run(c),
        Command::Simt(a) => simt::run(&a),
        #[cfg(feature = "gpu")]
        Command::GpuInfo(a) => gpu::run(&a),
    }
}
