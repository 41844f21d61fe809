//! The command lines of `paths` and `paths-predict`.

use crate::output::OutputArgs;
use anyhow::Result;
use rdpaths::{PathConfig, PatternConfig, SquashPeriod};
use std::path::PathBuf;

/// The path-analysis subcommands (flattened into the top level).
#[derive(clap::Subcommand, Debug)]
pub enum PathsCommand {
    /// Path-based reuse: locality patterns per instruction and per branch history, how many
    /// multi-pattern instructions n-bit paths tell apart, history aliasing, short/long mixing.
    #[command(long_about = crate::terms::long_about(
        "Path-based reuse: locality patterns per instruction and per branch history, how many \
         multi-pattern instructions n-bit paths tell apart, history aliasing, short/long mixing \
         (Fang, Carr, Önder, Wang: path-based reuse distance analysis).",
        crate::terms::PATHS,
    ))]
    Paths(PathsArgs),
    /// Predict path-based patterns of a third input from two training runs (curve fitting);
    /// coverage and accuracy per history length.
    #[command(long_about = crate::terms::long_about(
        "Predict path-based patterns of a third input from two training runs (curve fitting of \
         each pattern's min, max, mean and fraction against the input size); coverage and \
         accuracy per history length.",
        crate::terms::PATHS_PREDICT,
    ))]
    PathsPredict(PredictArgs),
}

/// Analysis options shared by both subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalysisArgs {
    /// History lengths in bits (each 1..=56).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub history: Vec<u32>,
    /// Cache-line size in bytes (a power of two).
    #[arg(long, default_value_t = 64)]
    pub line: u32,
    /// Loop squash period l in iterations; default: per loop, line size / element size.
    #[arg(long)]
    pub squash: Option<u32>,
    /// The paper's minimum frequency (section 3.1): a pattern holding this fraction of the
    /// references stops merging bins [default: off; the paper gives no value].
    #[arg(long, value_name = "F")]
    pub min_frequency: Option<f64>,
    /// Not in the paper: drop patterns with less than this fraction of a path's references as
    /// noise (0 keeps all).
    #[arg(
        long,
        visible_alias = "min-fraction",
        default_value_t = 0.01,
        value_name = "F"
    )]
    pub drop_below: f64,
    /// Distances (in lines) from which a pattern counts as long.
    #[arg(long, default_value_t = 1024)]
    pub long_threshold: u64,
}

impl AnalysisArgs {
    pub(crate) fn config(&self) -> PathConfig {
        PathConfig {
            line: self.line,
            histories: self.history.clone(),
            squash: self
                .squash
                .map_or(SquashPeriod::PerLoop, SquashPeriod::Fixed),
            patterns: PatternConfig {
                min_frequency: self.min_frequency,
                drop_below: self.drop_below,
            },
            long_threshold: self.long_threshold,
        }
    }
}

/// Arguments of `paths`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  rda-report paths app.rdtrace\n  rda-report paths app.rdtrace --history 1,2,3,4,8 --line 64 --json\n  rda-report paths app.rdtrace --instr 7 --plot mi7.svg\n\nMemory: one record per (memory instruction, branch-history path) with its distance bins, and one reuse tracker (distinct lines) for the thread being read; threads are read one after another, a chunk at a time."
)]
pub struct PathsArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Show only this memory instruction (and plot it with --plot).
    #[arg(long, value_name = "MI")]
    pub instr: Option<u32>,
    /// Multi-pattern instructions listed in the tables (most references first); 0 = all.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Write an SVG of the distance distribution of --instr, one line per path.
    #[arg(long, value_name = "FILE.svg", requires = "instr")]
    pub plot: Option<PathBuf>,
    /// History length of the plotted paths (default: the shortest that separates the
    /// instruction's patterns, else the longest analysed).
    #[arg(long, value_name = "N")]
    pub plot_history: Option<u32>,
    /// Under each path, list the branches (source lines) its bits came from: one line per
    /// distinct branch sequence, oldest first, as BIT@file:line.
    #[arg(long)]
    pub explain_paths: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// A trace with the data size of its input, written `FILE:SIZE`.
#[derive(Clone, Debug)]
pub struct SizedTrace {
    /// Trace file.
    pub path: PathBuf,
    /// Data size.
    pub size: f64,
}

fn parse_sized(s: &str) -> Result<SizedTrace, String> {
    let (path, size) = s
        .rsplit_once(':')
        .ok_or_else(|| format!("expected FILE:SIZE, got {s:?}"))?;
    let size: f64 = size
        .parse()
        .map_err(|_| format!("{size:?} is not a number (in {s:?})"))?;
    if path.is_empty() || !(size.is_finite() && size > 0.0) {
        return Err(format!(
            "expected FILE:SIZE with a positive size, got {s:?}"
        ));
    }
    Ok(SizedTrace {
        path: PathBuf::from(path),
        size,
    })
}

/// Arguments of `paths-predict`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rda-report paths-predict --train n1000.rdtrace:1000 --train n2000.rdtrace:2000 --validate n8000.rdtrace:8000\n\nMemory: as `paths`, for one trace at a time: one record per (memory instruction, path) and the distinct lines of one thread."
)]
pub struct PredictArgs {
    /// Training run as FILE:SIZE (give exactly two).
    #[arg(long, value_parser = parse_sized, required = true, num_args = 1)]
    pub train: Vec<SizedTrace>,
    /// Validation run as FILE:SIZE.
    #[arg(long, value_parser = parse_sized)]
    pub validate: SizedTrace,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Minimum overlap for a predicted pattern to count as correct.
    #[arg(long, default_value_t = 0.9)]
    pub overlap: f64,
    #[command(flatten)]
    pub out: OutputArgs,
}
