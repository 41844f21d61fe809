//! `html`'s command line.

use crate::commands::flags::{int_in, parse_real, CacheArgs};
use crate::commands::simt::MAX_BLOCK;
use std::path::PathBuf;

/// Arguments of `html`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Examples:\n  rda-report html app.rdtrace -o report.html --source-dir .\n  rda-report html t4.rdtrace -o report.html --seq seq.rdtrace --real 1=t1.rdtrace --real 4=t4.rdtrace\n  rda-report html app.rdtrace -o report.html --simt 1 --simt-block 128\n\nMemory: the sum of the sections' bounds (see each command's --help): reuse stacks over the distinct lines, path records, the SASMM exact model as `predict` streams it, and the SIMT kernels as `simt` holds them; the page itself is bounded.\n\nTime: the sum of its sections, each one pass of its own over the trace (paths' record lookups are the slowest, see `rda-report paths --help`), run side by side on the CPUs there are."
)]
pub struct HtmlArgs {
    /// Trace file (a file: html reads it once per section, so not `-` or a pipe).
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
    /// Source lines and functions listed (1 to 1000).
    #[arg(long, default_value_t = 25, value_parser = int_in("--top", 1u64, 1000), allow_negative_numbers = true)]
    pub top: u64,
    /// Sequential trace for the SASMM prediction (with --real).
    #[arg(long, requires = "real")]
    pub seq: Option<PathBuf>,
    /// A real run as CORES=TRACE (CORES 1 to 1024), measured with the exact simulator (repeat
    /// per core count).
    #[arg(long = "real", value_name = "CORES=TRACE", requires = "seq", value_parser = parse_real)]
    pub real: Vec<(usize, PathBuf)>,
    /// Add the SIMT DS-vs-RD plots of this scenario (1 to 6, `simt`'s defaults otherwise,
    /// RD up to 4096 MIs).
    #[arg(long, value_name = "SCENARIO", value_parser = int_in("--simt", 1u8, 6), allow_negative_numbers = true)]
    pub simt: Option<u8>,
    /// Threads per block for --simt (1 to 65536).
    #[arg(long, default_value_t = 256, value_parser = int_in("--simt-block", 1u64, MAX_BLOCK),
          allow_negative_numbers = true)]
    pub simt_block: u64,
    /// Leave out the path-based pattern analysis (it reads the trace once more).
    #[arg(long)]
    pub no_paths: bool,
    /// History lengths of the path analysis (each 1 to 56).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32",
          value_parser = crate::commands::paths::parse_history, allow_hyphen_values = true)]
    pub history: Vec<u32>,
    /// Paths the path analysis keeps whole (as `paths --max-paths`: 1 to 2^40, or
    /// `unlimited`).
    #[arg(long, value_name = "N|unlimited", default_value_t = crate::commands::paths::PathLimit::DEFAULT,
          value_parser = crate::commands::paths::parse_max_paths,
          allow_negative_numbers = true)]
    pub max_paths: crate::commands::paths::PathLimit,
    /// Hide progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}
