//! `histogram`'s command line: the arguments, the input formats and table layouts, `--line`.

use super::engine::{parse_engine, EngineChoice};
use crate::commands::flags::{int_in, MAX_THREADS};
use crate::output::OutputArgs;
use anyhow::Result;
use std::path::PathBuf;

/// What the input file is.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// An rdtools trace.
    Rdtrace,
    /// One address per line in hexadecimal (PARDA's text input; `0x` optional).
    PardaText,
    /// Raw little-endian u64 addresses (PARDA's binary input).
    PardaBinary,
}

/// How the table is laid out.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableStyle {
    /// Log2 bins with percentages.
    Log2,
    /// PARDA's output: `Dist Refs Refs(%) Cum_Ref Cum_Ref(%)` per exact distance.
    Parda,
}

/// Arguments of `histogram`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Examples:\n  rda-report histogram app.rdtrace\n  rda-report histogram app.rdtrace --line 64 --per-thread --json\n  rda-report histogram app.rdtrace --engine parda --threads 2 --plot hist.svg\n  rda-report histogram addrs.txt --input-format parda-text --line 1 --format parda\n  rda-report histogram big.rdtrace --sample-rate 0.01 --json\n  rda-report histogram big.rdtrace --sample-max-blocks 100000\n  mpirun -np 4 rda-report histogram app.rdtrace --engine parda-mpi --bound 65536 --json\n\nMemory: the engine's stack, proportional to the distinct lines (one stack per thread with --per-thread; at most --bound lines with parda --bound; about R times the distinct lines with --sample-rate R, at most S with --sample-max-blocks S; with parda-mpi, each rank its slice's distinct lines), plus one decoded chunk per thread: never the trace length. From a stream (`-`, a pipe): the same, plus the compressed chunks the merge in stamp order holds until every thread's next event is known; a trace file piped in does not say when a thread is done, so that can be the whole compressed trace until the input ends. With --per-thread a stream's chunks are analysed as they arrive (one stack per thread at once)."
)]
pub struct HistogramArgs {
    /// Trace file (or address file with --input-format); `-` reads standard input, and a pipe or FIFO is read as a stream too (one pass, the same report) (not with parda-mpi).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Cache-line size in bytes: a power of two from 1 to 4096; 1 compares byte addresses.
    #[arg(long, default_value_t = 64, value_parser = parse_line, allow_negative_numbers = true)]
    pub line: u32,
    /// One histogram per thread (private reuse) instead of one over all threads merged in
    /// stamp order (concurrent reuse).
    #[arg(long)]
    pub per_thread: bool,
    /// Engine: fast (default, exact), olken (exact, baseline), parda (exact, parallel),
    /// hprda (approximate, parallel), naive (exact, slow; for checking), hprda-gpu (HP-RDA on
    /// a GPU through Vulkan; needs the `gpu` build feature), parda-mpi (exact, PARDA over MPI
    /// ranks started by `mpirun -np P`, each reading only its own slices of the input; needs the
    /// `mpi` build feature; a single rank outside mpirun; see docs/distributed.md).
    #[arg(long, default_value = "fast", value_parser = parse_engine)]
    pub engine: EngineChoice,
    /// HP-RDA (hprda, hprda-gpu): ST, references per thread-local trace (1 to 65536; ST x NB
    /// at most 16777216).
    #[arg(long, default_value_t = rdengines::HpRdaConfig::default().st,
          value_parser = int_in("--st", 1usize, MAX_ST), allow_negative_numbers = true)]
    pub st: usize,
    /// HP-RDA (hprda, hprda-gpu): NB, thread-local traces per thread block (1 to 1024).
    #[arg(long, default_value_t = rdengines::HpRdaConfig::default().nb,
          value_parser = int_in("--nb", 1usize, MAX_NB), allow_negative_numbers = true)]
    pub nb: usize,
    /// HP-RDA (hprda, hprda-gpu): skip the adjustment of formulas (2)-(3).
    #[arg(long)]
    pub no_adjust: bool,
    /// hprda-gpu: adapter to use (substring of its name, see `rda-report gpu-info`).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Worker threads for parallel engines (1 to 1024).
    #[arg(long, value_parser = int_in("--threads", 1usize, MAX_THREADS), allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Bound B: distances ≥ B are counted as overflow (cache-bounded analysis; 1 to 2^48).
    #[arg(long, value_parser = int_in("--bound", 1u64, MAX_BOUND), allow_negative_numbers = true)]
    pub bound: Option<u64>,
    /// References per chunk for PARDA (1 to 2^30; parda-mpi: per rank and phase, planned,
    /// default 33554432).
    #[arg(long, value_parser = int_in("--chunk", 1usize, MAX_CHUNK), allow_negative_numbers = true)]
    pub chunk: Option<usize>,
    /// parda-mpi: write per-rank statistics (references, bytes sent, peak RSS) as JSON.
    #[cfg(feature = "mpi")]
    #[arg(long, value_name = "FILE.json")]
    pub mpi_stats: Option<PathBuf>,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Rdtrace)]
    pub input_format: InputFormat,
    /// Table layout.
    #[arg(long, value_enum, default_value_t = TableStyle::Log2)]
    pub format: TableStyle,
    /// Also write an SVG bar chart of the log2 bins.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub sample: super::sampling::HistogramSampleArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Largest HP-RDA ST (`--st`).
pub const MAX_ST: usize = 1 << 16;
/// Largest HP-RDA NB (`--nb`).
pub const MAX_NB: usize = 1 << 10;
/// Most references in one HP-RDA thread block (ST x NB): its buffers hold them all.
pub const MAX_ST_NB: usize = 1 << 24;
/// Largest `--bound`.
pub const MAX_BOUND: u64 = 1 << 48;
/// Largest PARDA chunk (`--chunk`, `live --parda-chunk`): references a rank buffers.
pub const MAX_CHUNK: usize = 1 << 30;

/// Parses `--line`: a power of two from 1 to 4096 (a usage error otherwise, exit status 2).
pub fn parse_line(s: &str) -> Result<u32, String> {
    crate::commands::flags::line_size("--line", s)
}

/// Checks `--st` x `--nb` (a usage error when a thread block would hold more than
/// [`MAX_ST_NB`] references).
pub fn check_st_nb(st: usize, nb: usize) -> anyhow::Result<()> {
    if st.saturating_mul(nb) > MAX_ST_NB {
        return Err(crate::exit::usage(format!(
            "--st {st} x --nb {nb} is more than {MAX_ST_NB} references per thread block"
        )));
    }
    Ok(())
}
