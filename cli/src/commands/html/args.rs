//! `html`'s command line.

use crate::commands::flags::{parse_real, CacheArgs};
use std::path::PathBuf;

/// Arguments of `html`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  rda-report html app.rdtrace -o report.html --source-dir .\n  rda-report html t4.rdtrace -o report.html --seq seq.rdtrace --real 1=t1.rdtrace --real 4=t4.rdtrace\n  rda-report html app.rdtrace -o report.html --simt 1 --simt-block 128\n\nMemory: the sum of the sections' bounds (see each command's --help): reuse stacks over the distinct lines, path records, the SASMM exact model as `predict` streams it, and the SIMT kernels as `simt` holds them; the page itself is bounded."
)]
pub struct HtmlArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Output HTML file.
    #[arg(short, long, value_name = "FILE.html")]
    pub output: PathBuf,
    /// Show the hottest source lines of files found under DIR.
    #[arg(long, value_name = "DIR")]
    pub source_dir: Option<PathBuf>,
    /// L1 and L2 geometry (both with the same line size).
    #[command(flatten)]
    pub caches: CacheArgs,
    /// Source lines and functions listed.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub top: u64,
    /// Sequential trace for the SASMM prediction (with --real).
    #[arg(long, requires = "real")]
    pub seq: Option<PathBuf>,
    /// A real run as CORES=TRACE, measured with the exact simulator (repeat per core count).
    #[arg(long = "real", value_name = "CORES=TRACE", requires = "seq", value_parser = parse_real)]
    pub real: Vec<(usize, PathBuf)>,
    /// Add the SIMT DS-vs-RD plots of this scenario (1..6, defaults otherwise).
    #[arg(long, value_name = "SCENARIO", value_parser = clap::value_parser!(u8).range(1..=6))]
    pub simt: Option<u8>,
    /// Threads per block for --simt.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub simt_block: u64,
    /// Leave out the path-based pattern analysis (it reads the trace once more).
    #[arg(long)]
    pub no_paths: bool,
    /// History lengths of the path analysis.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub history: Vec<u32>,
    /// Hide progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}
