//! `live`'s command line.

use crate::commands::flags::{int_in, MAX_CORES, MAX_THREADS};
use crate::commands::histogram::{
    parse_engine, parse_line, EngineChoice, TableStyle, MAX_BOUND, MAX_CHUNK,
};
use crate::commands::sasmm::{ModelArgs, MultiCacheArgs};
use crate::output::OutputArgs;
use anyhow::Result;
use rdengines::EngineKind;
use std::ffi::OsString;
use std::path::PathBuf;

/// Arguments of `live`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    subcommand_negates_reqs = true,
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "ANALYSIS",
    disable_help_subcommand = true,
    override_usage = "rda-report live [OPTIONS] -- PROGRAM [ARGS]...\n       rda-report live ANALYSIS [OPTIONS] [ANALYSIS [OPTIONS]]... -- PROGRAM [ARGS]...",
    subcommand_help_heading = "Analyses (each takes the options of the offline command of that name)",
    after_help = "Examples:\n  rda-report live -- ./app 1000\n  rda-report live --per-thread --json -- ./omp_app\n  RDTRACE_TEE=app.rdtrace rda-report live --histogram --line 64 -- ./app\n  rda-report live --predict --cores 1,2,4 -- ./omp_app\n  rda-report live --shards-rate 0.01 -- ./app 100000\n  rda-report live measure --l1 32K:8 --json -- ./omp_app\n  rda-report live annotate --top 10 --tee app.rdtrace -- ./app\n  rda-report live check simt --scenario 2 -- ./omp_app\n  rda-report live measure paths --top 5 html -o app.html -- ./omp_app\n  rda-report live measure --help\n\n\
The program's stdout and stderr pass through; rda-report exits with the program's status\n(128 + N when it died by signal N). --predict runs the program with OMP_NUM_THREADS=1\nunless that is set. RDTRACE_TEE=FILE (or --tee FILE) also keeps the trace as a file.\n\n\
`live ANALYSIS [OPTIONS] [ANALYSIS [OPTIONS]]... -- PROGRAM` runs any number of the offline analyses on one \
run, each with the options of the offline command of its name (`rda-report live measure --help` lists them; \
the trace is the program's, so no TRACE argument), and prints for each the report the offline command \
prints for the --tee copy of the same run (the trace's name aside: a streamed analysis reads /dev/fd/N). \
live's own --tee FILE goes after an analysis's name (once); the flags above are for the histogram and \
--predict forms only. Every analysis that reads a stream (histogram, predict, measure, \
annotate, check, simt) reads the run while the program runs, side by side on threads of their own (each reads a copy \
of the pipe's bytes); the others (paths and html, which seek in a file) read the copy of the \
run after the program ends: the --tee file, or a temporary file in $TMPDIR removed \
afterwards. The reports follow the program's output, in command-line order. Flag errors and unwritable outputs are usage errors (exit status 2) before the program \
runs; a failing analysis is an error (1) after it ends.\n\n\
Memory: the reader's pending chunks (bounded by the runtime's buffer pool) plus the analysis's bound: `histogram`'s, or with \
--predict the model's bound as in `predict` (the exact model's caches or the formula model's stacks for every core count \
at once) and at most 128 Ki accesses of a parallel section (a longer \
one goes through a temporary file in $TMPDIR, as in `predict`). `live ANALYSIS`: the offline command's bound for each analysis, the streamed ones \
at the same time; the copy of the run takes disk, not memory."
)]
pub struct LiveArgs {
    /// Reuse-distance histogram, as `histogram` prints it (the default report).
    #[arg(long)]
    pub histogram: bool,
    /// One histogram per thread (as `histogram --per-thread`).
    #[arg(long)]
    pub per_thread: bool,
    /// SASMM hit-rate prediction, as `predict` prints it (needs a sequential run).
    #[arg(long, conflicts_with_all = ["histogram", "per_thread"])]
    pub predict: bool,
    /// Core counts to predict (with --predict; each 1 to 1024).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16",
          value_parser = int_in("--cores", 1u16, MAX_CORES), allow_hyphen_values = true)]
    pub cores: Vec<u16>,
    /// Cache-line size in bytes for the histogram: a power of two from 1 to 4096; 1 compares
    /// byte addresses.
    #[arg(long, default_value_t = 64, value_parser = parse_line, allow_negative_numbers = true)]
    pub line: u32,
    /// Histogram engine (as `histogram --engine`).
    #[arg(long, default_value = "fast", value_parser = parse_cpu_engine)]
    pub engine: EngineKind,
    /// Worker threads for parallel engines (1 to 1024).
    #[arg(long, value_parser = int_in("--threads", 1usize, MAX_THREADS), allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Bound B: distances ≥ B are counted as overflow (1 to 2^48).
    #[arg(long, value_parser = int_in("--bound", 1u64, MAX_BOUND), allow_negative_numbers = true)]
    pub bound: Option<u64>,
    /// References per chunk for PARDA (`histogram --chunk`; 1 to 2^30).
    #[arg(long, value_parser = int_in("--parda-chunk", 1usize, MAX_CHUNK), allow_negative_numbers = true)]
    pub parda_chunk: Option<usize>,
    /// Histogram table layout.
    #[arg(long, value_enum, default_value_t = TableStyle::Log2)]
    pub format: TableStyle,
    /// Also write an SVG bar chart of the histogram's log2 bins.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Keep a copy of the trace in FILE (default: $RDTRACE_TEE); `histogram FILE` then prints
    /// the same report.
    #[arg(long, value_name = "FILE")]
    pub tee: Option<PathBuf>,
    /// Print what the live reader held and its peak memory on stderr at the end.
    #[arg(long)]
    pub stats: bool,
    /// With --predict: also the miss-ratio curve (as `predict --mrc`).
    #[arg(long, requires = "predict")]
    pub mrc: bool,
    /// Stop when the accesses touch more than this many bytes beyond their first 64-byte line
    /// (large loads and stores, memcpy/memset ranges): `auto` (default) allows the largest of
    /// 256 MiB, 8 KiB per byte of trace and 64 B per access; give a size (`64G`) or
    /// `unlimited` for a program of very many large ranges.
    #[arg(long, value_name = "SIZE|auto|unlimited", default_value = "auto",
          value_parser = crate::tracefile::touch_limit)]
    pub max_touched: rdtrace::work::TouchLimit,
    #[command(flatten)]
    pub caches: MultiCacheArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub sample: crate::commands::histogram::sampling::LiveSampleArgs,
    #[command(flatten)]
    pub out: OutputArgs,
    /// An offline analysis to run on the program's trace instead of the histogram (see below).
    #[command(subcommand)]
    pub analysis: Option<LiveAnalysis>,
    /// The program and its arguments (after `--`).
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub command: Vec<OsString>,
}

/// `live ANALYSIS`: the analysis first named; its options, further analyses and the program
/// follow unparsed and are parsed by [`super::analyses`] with each offline command's own
/// arguments, so that every option is the offline command's, declared once.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum LiveAnalysis {
    /// Reuse-distance histogram (as `rda-report histogram`).
    Histogram(AnalysisTail),
    /// SASMM hit-rate prediction (as `rda-report predict`; a sequential run).
    Predict(AnalysisTail),
    /// Measured L1/L2/L3 misses of the threaded run (as `rda-report measure`).
    Measure(AnalysisTail),
    /// Accesses, misses and distances per source line and function (as `rda-report annotate`).
    Annotate(AnalysisTail),
    /// Trace invariants (as `rda-report check`).
    Check(AnalysisTail),
    /// SIMT data reuse degree (as `rda-report simt`).
    Simt(AnalysisTail),
    /// Path-based reuse (as `rda-report paths`; reads the copy of the run).
    Paths(AnalysisTail),
    /// The HTML page (as `rda-report html`; reads the copy of the run).
    Html(AnalysisTail),
}

impl LiveAnalysis {
    /// The analysis's name and what follows it on the command line.
    pub fn parts(&self) -> (&'static str, &[OsString]) {
        match self {
            LiveAnalysis::Histogram(t) => ("histogram", &t.rest),
            LiveAnalysis::Predict(t) => ("predict", &t.rest),
            LiveAnalysis::Measure(t) => ("measure", &t.rest),
            LiveAnalysis::Annotate(t) => ("annotate", &t.rest),
            LiveAnalysis::Check(t) => ("check", &t.rest),
            LiveAnalysis::Simt(t) => ("simt", &t.rest),
            LiveAnalysis::Paths(t) => ("paths", &t.rest),
            LiveAnalysis::Html(t) => ("html", &t.rest),
        }
    }
}

/// Everything after an analysis's name, unparsed (its `--help` included): its options, more
/// analyses, `--` and the program.
#[derive(clap::Args, Debug, Clone)]
#[command(disable_help_flag = true)]
pub struct AnalysisTail {
    /// `[OPTIONS] [ANALYSIS [OPTIONS]]... -- PROGRAM [ARGS]...`
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..,
          value_name = "OPTIONS")]
    pub rest: Vec<OsString>,
}

/// `--engine` for `live`: the CPU engines (a usage error for `hprda-gpu`).
fn parse_cpu_engine(s: &str) -> Result<EngineKind, String> {
    match parse_engine(s)? {
        EngineChoice::Cpu(k) => Ok(k),
        EngineChoice::HpRdaGpu => Err(
            "live runs the CPU engines; keep a copy (--tee FILE) and run `histogram FILE --engine hprda-gpu`".into(),
        ),
        EngineChoice::PardaMpi => Err(
            "live runs the CPU engines; keep a copy (--tee FILE) and run `mpirun -np P rda-report histogram FILE --engine parda-mpi`".into(),
        ),
    }
}
