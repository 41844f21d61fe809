//! The command lines of `paths` and `paths-predict`.

use crate::commands::flags::{fraction, int_in, line_size, Ends, FOUR_G};
use crate::output::OutputArgs;
use anyhow::Result;
use rdpaths::{PathConfig, PatternConfig, SquashPeriod};
use std::path::PathBuf;

/// The path-analysis subcommands (flattened into the top level).
#[derive(clap::Subcommand, Debug, Clone)]
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
    /// History lengths in bits (each 1 to 56).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32",
          value_parser = parse_history, allow_hyphen_values = true)]
    pub history: Vec<u32>,
    /// Cache-line size in bytes: a power of two from 1 to 4096.
    #[arg(long, default_value_t = 64, value_parser = parse_paths_line, allow_negative_numbers = true)]
    pub line: u32,
    /// Loop squash period l in iterations (1 to 2^32 - 1); default: per loop, line size /
    /// element size.
    #[arg(long, value_parser = int_in("--squash", 1u32, u32::MAX), allow_negative_numbers = true)]
    pub squash: Option<u32>,
    /// The paper's minimum frequency (section 3.1): a pattern holding this fraction of the
    /// references stops merging bins (0 < F <= 1) [default: off; the paper gives no value].
    #[arg(long, value_name = "F", value_parser = fraction("--min-frequency", Ends::AboveZero),
          allow_negative_numbers = true)]
    pub min_frequency: Option<f64>,
    /// Not in the paper: drop patterns with less than this fraction of a path's references as
    /// noise (0 <= F < 1; 0 keeps all).
    #[arg(
        long,
        visible_alias = "min-fraction",
        default_value_t = 0.01,
        value_name = "F",
        value_parser = fraction("--drop-below", Ends::BelowOne),
        allow_negative_numbers = true
    )]
    pub drop_below: f64,
    /// Distances (in lines) from which a pattern counts as long (1 to 2^48).
    #[arg(long, default_value_t = 1024, value_parser = int_in("--long-threshold", 1u64, 1 << 48),
          allow_negative_numbers = true)]
    pub long_threshold: u64,
    /// Paths kept whole: past this many (instruction, branch-window) records, a new path keeps
    /// only its most recent branches (those of the longest shorter --history length with room
    /// left; each has half the room of the one above), so memory stays bounded (about 250 MiB
    /// of paths at the default with 32-bit histories, at most twice that); its references then
    /// count for the shorter histories only and show as "beyond --max-paths" for the longer
    /// ones. `unlimited` keeps every path whole (the exact analysis, memory growing with the
    /// trace on branchy code). 1 to 2^40, or `unlimited`.
    #[arg(long, value_name = "N|unlimited", default_value_t = crate::commands::paths::PathLimit::DEFAULT, value_parser = parse_max_paths,
          allow_negative_numbers = true)]
    pub max_paths: PathLimit,
}

/// `--max-paths`: a number of records, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathLimit(pub Option<u64>);

impl PathLimit {
    /// The analysis's default, [`rdpaths::profile::DEFAULT_MAX_PATHS`].
    pub const DEFAULT: PathLimit = PathLimit(Some(rdpaths::profile::DEFAULT_MAX_PATHS));
}

impl std::fmt::Display for PathLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("unlimited"),
        }
    }
}

/// Parses `--max-paths`: 1 to 2^40, or `unlimited`.
pub(crate) fn parse_max_paths(s: &str) -> Result<PathLimit, String> {
    if s == "unlimited" {
        return Ok(PathLimit(None));
    }
    int_in("--max-paths", 1u64, 1 << 40)(s)
        .map(|n| PathLimit(Some(n)))
        .map_err(|_| "--max-paths must be an integer from 1 to 2^40, or unlimited".to_string())
}

/// Parses one `--history` length: 1 to [`rdpaths::history::MAX_HISTORY_BITS`].
pub(crate) fn parse_history(s: &str) -> Result<u32, String> {
    int_in("--history", 1u32, rdpaths::history::MAX_HISTORY_BITS)(s).map_err(|_| {
        format!(
            "--history lengths must be integers from 1 to {}",
            rdpaths::history::MAX_HISTORY_BITS
        )
    })
}

/// Parses `paths --line`.
fn parse_paths_line(s: &str) -> Result<u32, String> {
    line_size("--line", s)
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
            max_paths: self.max_paths.0,
        }
    }
}

/// Arguments of `paths`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Examples:\n  rda-report paths app.rdtrace\n  rda-report paths app.rdtrace --history 1,2,3,4,8 --line 64 --json\n  rda-report paths app.rdtrace --instr 7 --plot mi7.svg\n  rda-report paths app.rdtrace --max-paths unlimited\n\nMemory and time: one record per (memory instruction, branch-history path) with its distance bins, and one reuse tracker (distinct lines) for the thread being read; threads are read one after another, a chunk at a time. Unlike a histogram, every access looks up its record among all paths seen, and on branchy code (interpreters, hash tables, searches) the 32-branch windows rarely repeat, so the records grow with the trace: --max-paths bounds them (the longer histories then report the share of references beyond the limit), --max-paths unlimited gives the exact analysis at any memory cost."
)]
pub struct PathsArgs {
    /// Trace file (a file: the analysis reads one thread after another, so not `-` or a pipe).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Show only this memory instruction (and plot it with --plot; 0 to 2^32 - 1, and below
    /// the program's count).
    #[arg(long, value_name = "MI", value_parser = int_in("--instr", 0u32, u32::MAX), allow_negative_numbers = true)]
    pub instr: Option<u32>,
    /// Multi-pattern instructions listed in the tables (most references first; 0 to 2^32);
    /// 0 = all.
    #[arg(long, default_value_t = 20, value_parser = int_in("--top", 0usize, FOUR_G as usize),
          allow_negative_numbers = true)]
    pub top: usize,
    /// Write an SVG of the distance distribution of --instr, one line per path.
    #[arg(long, value_name = "FILE.svg", requires = "instr")]
    pub plot: Option<PathBuf>,
    /// History length of the plotted paths (1 to 56; default: the shortest that separates the
    /// instruction's patterns, else the longest analysed).
    #[arg(long, value_name = "N", value_parser = parse_history, allow_negative_numbers = true)]
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
    if path.is_empty() || !(size.is_finite() && size > 0.0 && size <= MAX_SIZE) {
        return Err(format!(
            "expected FILE:SIZE with a size above 0 and at most 1e15, got {s:?}"
        ));
    }
    Ok(SizedTrace {
        path: PathBuf::from(path),
        size,
    })
}

/// Largest input size of `--train` and `--validate` (the fits stay finite).
const MAX_SIZE: f64 = 1e15;

/// Arguments of `paths-predict`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Example:\n  rda-report paths-predict --train n1000.rdtrace:1000 --train n2000.rdtrace:2000 --validate n8000.rdtrace:8000\n\nMemory: as `paths`, for one trace at a time: one record per (memory instruction, path) and the distinct lines of one thread."
)]
pub struct PredictArgs {
    /// Training run as FILE:SIZE (give exactly two; 0 < SIZE <= 1e15).
    #[arg(long, value_parser = parse_sized, required = true, num_args = 1, allow_hyphen_values = true)]
    pub train: Vec<SizedTrace>,
    /// Validation run as FILE:SIZE (0 < SIZE <= 1e15).
    #[arg(long, value_parser = parse_sized, allow_hyphen_values = true)]
    pub validate: SizedTrace,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Minimum overlap for a predicted pattern to count as correct (0 <= F <= 1).
    #[arg(long, default_value_t = 0.9, value_parser = fraction("--overlap", Ends::Both),
          allow_negative_numbers = true)]
    pub overlap: f64,
    #[command(flatten)]
    pub out: OutputArgs,
}
