//! `simt`'s command line and the checks of flags that apply only to some scenarios.

use crate::commands::flags::{int_in, FOUR_G};
use crate::exit::usage;
use crate::output::OutputArgs;
use anyhow::Result;
use rdsimt::{Granularity, Scenario};
use std::path::PathBuf;

/// Most threads per block (`--block`, `html --simt-block`).
pub const MAX_BLOCK: u64 = 1 << 16;
/// Most threads per warp (`--warp`).
pub const MAX_WARP: u64 = 1 << 10;
/// Most concurrent blocks of scenario 4 (`--k`).
pub const MAX_K: u64 = 1 << 16;
/// Most core clusters and load/store units per cluster (`--clusters`, `--lsu`).
pub const MAX_CLUSTERS: u64 = 1 << 12;
/// Largest RD of a zoomed plot (`--zoom`): a plot has a point per RD.
pub const MAX_ZOOM: u64 = 1 << 20;

/// Largest memory element of `--granularity line:BYTES`.
pub const MAX_ELEMENT: u64 = 1 << 30;

/// `--max-rd`: a window of MIs, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RdWindow(pub Option<u64>);

impl RdWindow {
    /// The analysis's default, [`rdsimt::DEFAULT_MAX_RD`].
    pub const DEFAULT: RdWindow = RdWindow(Some(rdsimt::DEFAULT_MAX_RD));
}

impl std::fmt::Display for RdWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(w) => write!(f, "{w}"),
            None => f.write_str("unlimited"),
        }
    }
}

/// Parses `--max-rd`: 1 to 2^32, or `unlimited`.
fn parse_max_rd(s: &str) -> Result<RdWindow, String> {
    if s == "unlimited" {
        return Ok(RdWindow(None));
    }
    int_in("--max-rd", 1u64, FOUR_G)(s)
        .map(|w| RdWindow(Some(w)))
        .map_err(|_| "--max-rd must be an integer from 1 to 4294967296, or unlimited".to_string())
}

/// What the input file is.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimtInput {
    /// An rdtools trace: worksharing loops are mapped to GPU threads.
    Rdtrace,
    /// A GPU text trace (docs/simt-trace-format.md).
    GpuText,
}

/// Which threads issue an MI together.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeArg {
    /// The threads of a warp.
    Warp,
    /// All threads of a block.
    Block,
}

/// Block scheduling policy.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyArg {
    /// Blocks in grid order fill each array of concurrent slots (the thesis's policy).
    Sequential,
    /// Blocks dealt round-robin over the arrays; each slot runs a contiguous range of blocks.
    RoundRobin,
}

/// Arguments of `simt`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    long_about = crate::terms::long_about(
        "SIMT data reuse degree (DS vs RD): worksharing-loop iterations of an rdtools trace \
         become GPU threads (or kernels come from a GPU text trace), a scenario turns their \
         blocks into MI streams, and the command reports how much data MIs share at each \
         distance.\n\nA loop's kernel is named after its function, C++ and Fortran names \
         readable (`Particles::step(double).omp_outlined (particles.cpp:86:1) workshare 0 \
         launch 0`; C names as they are). --json keeps the linker symbol in a kernel's `name` \
         and `origin.function` and adds `name_demangled` and `origin.function_demangled` where \
         the readable form differs.",
        crate::terms::SIMT,
    ),
    after_help = "Scenarios (thesis section VI):\n  1 blocks serialized      2 within each block      3 all blocks in parallel\n  4 K concurrent blocks    5 LSU-limited clusters, per cluster    6 LSU-limited clusters, aggregated\n\nExamples:\n  rda-report simt app.rdtrace --block 128 --scenario 1\n  rda-report simt app.rdtrace --scenario 4 --k 8 --policy round-robin --plot ds.svg\n  rda-report simt app.rdtrace --scenario 5 --clusters 16 --lsu 16 --mi-scope warp --json\n  rda-report simt kernel.txt --input-format gpu-text --scenario 3 --granularity line:128\n\nMemory: an rdtools trace is read once, all threads merged in stamp order, and each worksharing-loop launch is analysed and dropped as soon as every thread of its team has finished it (with two CPUs or more, while the next launch is read: reading, building a launch's MIs and analysing them run on three threads): memory is the launches in flight (three, when each loop ends before the next starts: one being read, one built, one analysed; with nested parallel regions, those of every inner team at once, held until the team joins when its workers could be another team's), about 12 bytes per access of a launch (and 16 per loop iteration) plus its memory instructions (8 bytes per lane) and, with a window, each CPU's occurrences of a window of MIs (scenarios 1 and 3 analyse segments of the stream on all CPUs) (SIMT reuse needs a kernel's address arrays whole: the thesis's MIs merge the threads of a block in lockstep, and scenarios 3-6 interleave its blocks), one decoded chunk per thread, and a few numbers per kernel for the report; never the trace length. A GPU text file is read one kernel at a time: memory is its largest kernel (and a line at most 16 MiB). From a stream (`-`, a pipe): the same, plus the compressed chunks the merge in stamp order holds until every thread's next event is known; a trace file piped in does not say when a thread is done, so that can be the whole compressed trace until the input ends.\n\nTime: unlike a reuse histogram, the DS-vs-RD histogram counts every pair of MIs that share an address (thesis definition 2), so each access visits the earlier MIs of its kernel that touched its address: a kernel whose addresses many of its MIs share (a lookup table, a frontier, a shared counter) costs up to the square of its MIs per address. So by default only pairs at most 4096 MIs apart are counted (--max-rd; the histogram's range ends there), and with a window the MI stream of scenario 1 is cut into segments analysed on all CPUs at once (each also holding the occurrences of the window before it: the same histogram): a table lookup kernel with 4 threads (8*10^6 accesses, one launch) takes 3.0 s with that window on two CPUs (4.2 s on one) and 9.9 s with --max-rd unlimited, the thesis's full characteristic (its reuse histogram: 0.7 s)."
)]
pub struct SimtArgs {
    /// Trace file (an rdtools trace, or a GPU text trace with --input-format gpu-text); `-` reads standard input, and a pipe or FIFO is read as a stream too (one pass, the same report).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Input format.
    #[arg(long, value_enum, default_value_t = SimtInput::Rdtrace)]
    pub input_format: SimtInput,
    /// Scenario 1 to 6 (see below).
    #[arg(long, default_value_t = 1, value_parser = int_in("--scenario", 1u8, 6), allow_negative_numbers = true)]
    pub scenario: u8,
    /// Threads (loop iterations) per block, 1 to 65536 [default: 256]; rdtrace input only.
    #[arg(long, value_parser = int_in("--block", 1u64, MAX_BLOCK), allow_negative_numbers = true)]
    pub block: Option<u64>,
    /// Threads per warp, 1 to 1024 [default: 32]; rdtrace input only.
    #[arg(long, value_parser = int_in("--warp", 1u64, MAX_WARP), allow_negative_numbers = true)]
    pub warp: Option<u64>,
    /// Whether a warp or a whole block issues an MI [default: block]; rdtrace input only.
    #[arg(long, value_enum)]
    pub mi_scope: Option<ScopeArg>,
    /// Address granularity: `element`, or `line:BYTES` to compare memory elements of BYTES (1 to
    /// 2^30).
    #[arg(long, default_value = "element", value_parser = parse_granularity)]
    pub granularity: Granularity,
    /// Concurrent blocks K of scenario 4, 1 to 65536 [default: 2].
    #[arg(long, value_parser = int_in("--k", 1u64, MAX_K), allow_negative_numbers = true)]
    pub k: Option<u64>,
    /// Core clusters of scenarios 5 and 6, 1 to 4096 [default: 16].
    #[arg(long, value_parser = int_in("--clusters", 1u64, MAX_CLUSTERS), allow_negative_numbers = true)]
    pub clusters: Option<u64>,
    /// Load/store units per core cluster in scenarios 5 and 6, 1 to 4096 [default: 16].
    #[arg(long, value_parser = int_in("--lsu", 1u64, MAX_CLUSTERS), allow_negative_numbers = true)]
    pub lsu: Option<u64>,
    /// Block scheduling policy (scenarios 4-6).
    #[arg(long, value_enum, default_value_t = PolicyArg::Sequential)]
    pub policy: PolicyArg,
    /// Only pair MIs at most W apart: bounds the time (each access visits the earlier MIs of
    /// its address within W) and the histogram's range. `unlimited` pairs every MI of a stream
    /// (the thesis's full characteristic; a kernel whose MIs share a table costs the square of
    /// its MIs per address). 1 to 2^32, or `unlimited`.
    #[arg(long, value_name = "W|unlimited", default_value_t = RdWindow::DEFAULT, value_parser = parse_max_rd,
          allow_negative_numbers = true)]
    pub max_rd: RdWindow,
    /// Analyse only kernel N (0-based, in the order listed; 0 to 2^32); all kernels otherwise.
    #[arg(long, value_name = "N", value_parser = int_in("--kernel", 0usize, FOUR_G as usize),
          allow_negative_numbers = true)]
    pub kernel: Option<usize>,
    /// Also count accesses to private (stack) memory; rdtrace input only.
    #[arg(long)]
    pub include_private: bool,
    /// Draw DS vs RD as SVG: FILE.svg for the full range plus FILE-rd1-Z.svg per --zoom.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Upper RD bounds of the zoomed plots (each 1 to 2^20).
    #[arg(long, value_delimiter = ',', default_values_t = [400u64, 100],
          value_parser = int_in("--zoom", 1u64, MAX_ZOOM), allow_hyphen_values = true)]
    pub zoom: Vec<u64>,
    /// Write the kernels' MI streams in the GPU text format to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_gpu_text: Option<PathBuf>,
    /// Histogram rows in the table (all rows are in --json and --csv; 0 to 2^32).
    #[arg(long, default_value_t = 40, value_parser = int_in("--limit", 0usize, FOUR_G as usize),
          allow_negative_numbers = true)]
    pub limit: usize,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_granularity(s: &str) -> std::result::Result<Granularity, String> {
    let g = Granularity::parse(s).map_err(|e| e.to_string())?;
    match g {
        Granularity::Line(bytes) if bytes > MAX_ELEMENT => Err(format!(
            "`{s}`: --granularity line:BYTES must have BYTES from 1 to {MAX_ELEMENT}"
        )),
        g => Ok(g),
    }
}

/// Flags that apply only to some scenarios or inputs (a usage error, exit status 2).
pub(super) fn check_usage(args: &SimtArgs, scenario: Scenario) -> Result<()> {
    let n = scenario.number();
    if let Some(w) = warp_without_effect(args) {
        eprintln!("rda-report: warning: {w}");
    }
    if args.k.is_some() && scenario != Scenario::ConcurrentBlocks {
        return Err(usage(format!(
            "--k applies to scenario 4 only (this is scenario {n})"
        )));
    }
    let clustered = matches!(
        scenario,
        Scenario::ClusterLocal | Scenario::ClusterAggregate
    );
    if (args.clusters.is_some() || args.lsu.is_some()) && !clustered {
        return Err(usage(format!(
            "--clusters and --lsu apply to scenarios 5 and 6 only (this is scenario {n})"
        )));
    }
    if args.input_format == SimtInput::GpuText
        && (args.block.is_some()
            || args.warp.is_some()
            || args.mi_scope.is_some()
            || args.include_private)
    {
        return Err(usage(
            "--block, --warp, --mi-scope and --include-private map OpenMP loops to GPU threads; \
             a GPU text trace already has its blocks and MIs",
        ));
    }
    Ok(())
}

/// The warning for `--warp` given while MIs are issued per block (it then changes nothing).
fn warp_without_effect(args: &SimtArgs) -> Option<&'static str> {
    (args.warp.is_some()
        && args.input_format == SimtInput::Rdtrace
        && args.mi_scope != Some(ScopeArg::Warp))
    .then_some("--warp has no effect without --mi-scope warp: MIs are issued by whole blocks")
}
