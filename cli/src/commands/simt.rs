//! `rda-report simt`: SIMT data-reuse-degree analysis. The worksharing loops of an rdtools trace
//! become GPU kernels (iteration i is thread i), or kernels come from a GPU text trace; one of
//! the thesis's six scenarios turns their blocks into MI streams, and the command prints the
//! DS-vs-RD characteristic (tables, JSON, CSV) and draws it as SVG.

use crate::exit::usage;
use crate::output::{emit, OutputArgs, Table};
use anyhow::{Context, Result};
use rdsimt::gpu_text::{read_gpu_text_file, write_gpu_text_header, write_gpu_text_kernel};
use rdsimt::openmp::{for_each_launch, KernelLaunch, MiScope, SimtConfig, SkippedLoop};
use rdsimt::scenario::StreamLabel;
use rdsimt::{
    run_scenario, DsHistogram, Granularity, Kernel, Scenario, ScenarioConfig, SchedulePolicy,
};
use serde::Serialize;
use std::path::{Path, PathBuf};

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
#[derive(clap::Args, Debug)]
#[command(
    long_about = crate::terms::long_about(
        "SIMT data reuse degree (DS vs RD): worksharing-loop iterations of an rdtools trace \
         become GPU threads (or kernels come from a GPU text trace), a scenario turns their \
         blocks into MI streams, and the command reports how much data MIs share at each \
         distance.",
        crate::terms::SIMT,
    ),
    after_help = "Scenarios (thesis section VI):\n  1 blocks serialized      2 within each block      3 all blocks in parallel\n  4 K concurrent blocks    5 LSU-limited clusters, per cluster    6 LSU-limited clusters, aggregated\n\nExamples:\n  rda-report simt app.rdtrace --block 128 --scenario 1\n  rda-report simt app.rdtrace --scenario 4 --k 8 --policy round-robin --plot ds.svg\n  rda-report simt app.rdtrace --scenario 5 --clusters 16 --lsu 16 --mi-scope warp --json\n  rda-report simt kernel.txt --input-format gpu-text --scenario 3 --granularity line:128\n\nMemory: an rdtools trace is read once, all threads merged in stamp order, and each worksharing-loop launch is analysed and dropped as soon as every thread of its team has finished it: memory is the launches in flight (one, when each loop ends before the next starts), about 24 bytes per access of a launch plus its memory instructions (SIMT reuse needs a kernel's address arrays whole: the thesis's MIs merge the threads of a block in lockstep, and scenarios 3-6 interleave its blocks), one decoded chunk per thread, and a few numbers per kernel for the report; never the trace length. A GPU text file is read whole."
)]
pub struct SimtArgs {
    /// Trace file (an rdtools trace, or a GPU text trace with --input-format gpu-text).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Input format.
    #[arg(long, value_enum, default_value_t = SimtInput::Rdtrace)]
    pub input_format: SimtInput,
    /// Scenario 1..6 (see below).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub scenario: u8,
    /// Threads (loop iterations) per block [default: 256]; rdtrace input only.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub block: Option<u64>,
    /// Threads per warp [default: 32]; rdtrace input only.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub warp: Option<u64>,
    /// Whether a warp or a whole block issues an MI [default: block]; rdtrace input only.
    #[arg(long, value_enum)]
    pub mi_scope: Option<ScopeArg>,
    /// Address granularity: `element`, or `line:BYTES` to compare memory elements of BYTES.
    #[arg(long, default_value = "element", value_parser = parse_granularity)]
    pub granularity: Granularity,
    /// Concurrent blocks K of scenario 4 [default: 2].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub k: Option<u64>,
    /// Core clusters of scenarios 5 and 6 [default: 16].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub clusters: Option<u64>,
    /// Load/store units per core cluster in scenarios 5 and 6 [default: 16].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub lsu: Option<u64>,
    /// Block scheduling policy (scenarios 4-6).
    #[arg(long, value_enum, default_value_t = PolicyArg::Sequential)]
    pub policy: PolicyArg,
    /// Only pair MIs at most W apart (bounds time and the histogram's range).
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_rd: Option<u64>,
    /// Analyse only kernel N (0-based, in the order listed); all kernels otherwise.
    #[arg(long, value_name = "N")]
    pub kernel: Option<usize>,
    /// Also count accesses to private (stack) memory; rdtrace input only.
    #[arg(long)]
    pub include_private: bool,
    /// Draw DS vs RD as SVG: FILE.svg for the full range plus FILE-rd1-Z.svg per --zoom.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Upper RD bounds of the zoomed plots.
    #[arg(long, value_delimiter = ',', default_values_t = [400u64, 100])]
    pub zoom: Vec<u64>,
    /// Write the kernels' MI streams in the GPU text format to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_gpu_text: Option<PathBuf>,
    /// Histogram rows in the table (all rows are in --json and --csv).
    #[arg(long, default_value_t = 40)]
    pub limit: usize,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_granularity(s: &str) -> std::result::Result<Granularity, String> {
    Granularity::parse(s).map_err(|e| e.to_string())
}

/// Flags that apply only to some scenarios or inputs (a usage error, exit status 2).
fn check_usage(args: &SimtArgs, scenario: Scenario) -> Result<()> {
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

/// A kernel to analyse, with where it came from.
struct Source {
    kernel: Kernel,
    origin: Option<Origin>,
}

/// The OpenMP loop behind a kernel.
#[derive(Serialize, Clone)]
struct Origin {
    workshare: u32,
    launch: u32,
    function: String,
    location: String,
    first_iteration: i64,
    threads: u64,
    omp_threads: u32,
    accesses: u64,
    unattributed: u64,
}

#[derive(Serialize)]
struct HistogramJson {
    mis: u64,
    lanes: u64,
    total_ds: u64,
    reusing_pairs: u64,
    peak_rd: Option<u64>,
    peak_ds: Option<u64>,
    max_reuse_rd: Option<u64>,
    /// `[[rd, ds, reusing_pairs], …]` for every RD with reuse.
    histogram: Vec<[u64; 3]>,
}

impl HistogramJson {
    fn new(h: &DsHistogram) -> Self {
        HistogramJson {
            mis: h.mis,
            lanes: h.lanes,
            total_ds: h.total_ds(),
            reusing_pairs: h.total_reusing_pairs(),
            peak_rd: h.peak().map(|p| p.0),
            peak_ds: h.peak().map(|p| p.1),
            max_reuse_rd: h.max_reuse_rd(),
            histogram: h.nonzero().map(|(r, d, p)| [r, d, p]).collect(),
        }
    }
}

#[derive(Serialize)]
struct StreamJson {
    label: String,
    blocks: usize,
    #[serde(flatten)]
    histogram: HistogramJson,
}

#[derive(Serialize)]
struct KernelJson {
    index: usize,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<Origin>,
    blocks: usize,
    mis: u64,
    lanes: u64,
    aggregate_blocks: usize,
    scheduler: String,
    streams: Vec<StreamJson>,
    total: HistogramJson,
}

#[derive(Serialize)]
struct ConfigJson {
    block: Option<u64>,
    warp: Option<u64>,
    mi_scope: Option<&'static str>,
    granularity: String,
    k: Option<usize>,
    clusters: Option<usize>,
    lsu: Option<usize>,
    policy: &'static str,
    max_rd: Option<u64>,
}

#[derive(Serialize)]
struct Output {
    input: String,
    input_format: &'static str,
    scenario: u8,
    scenario_description: &'static str,
    config: ConfigJson,
    kernels: Vec<KernelJson>,
    skipped: Vec<SkippedLoop>,
    total: HistogramJson,
}

fn label(l: StreamLabel) -> String {
    match l {
        StreamLabel::Grid => "grid".into(),
        StreamLabel::Block(b) => format!("block {b}"),
        StreamLabel::Cluster(c) => format!("cluster {c}"),
    }
}

impl Source {
    fn of_launch(l: KernelLaunch) -> Self {
        Source {
            origin: Some(Origin {
                workshare: l.workshare,
                launch: l.launch,
                function: l.function,
                location: l.location,
                first_iteration: l.first_iteration,
                threads: l.threads,
                omp_threads: l.omp_threads,
                accesses: l.accesses,
                unattributed: l.unattributed,
            }),
            kernel: l.kernel,
        }
    }
}

/// Hands the kernels the command analyses to `each`, one at a time: a GPU text file is read
/// whole; an rdtools trace is streamed, each worksharing-loop launch handed over once its team
/// has finished it and dropped after `each` returns. Returns the loops that were skipped.
fn load(
    args: &SimtArgs,
    simt: &SimtConfig,
    each: &mut dyn FnMut(Source) -> Result<()>,
) -> Result<Vec<SkippedLoop>> {
    match args.input_format {
        SimtInput::GpuText => {
            for k in read_gpu_text_file(&args.trace)? {
                each(Source {
                    kernel: k.with_granularity(args.granularity),
                    origin: None,
                })?;
            }
            Ok(Vec::new())
        }
        SimtInput::Rdtrace => {
            let trace = crate::tracefile::open(&args.trace, &args.open)?;
            // Errors of the analysis carry their own context; the trace's get this one.
            let mut analysis_failed = false;
            let skipped = for_each_launch(&trace, simt, &mut |l| {
                let r = each(Source::of_launch(l));
                analysis_failed = r.is_err();
                r
            })
            .map_err(|e| {
                if analysis_failed {
                    e
                } else {
                    e.context(format!(
                        "mapping the loops of {} to GPU threads",
                        args.trace.display()
                    ))
                }
            })?;
            for s in &skipped {
                eprintln!(
                    "rda-report: warning: worksharing loop {} at {} skipped: {}",
                    s.workshare, s.location, s.reason
                );
            }
            Ok(skipped)
        }
    }
}

/// Runs `simt`.
pub fn run(args: &SimtArgs) -> Result<()> {
    let scenario = Scenario::from_number(args.scenario).expect("clap checks the range");
    check_usage(args, scenario)?;
    let simt = SimtConfig {
        block_size: args.block.unwrap_or(256) as usize,
        warp_size: args.warp.unwrap_or(32) as usize,
        mi_scope: match args.mi_scope {
            Some(ScopeArg::Warp) => MiScope::Warp,
            _ => MiScope::Block,
        },
        granularity: args.granularity,
        include_private: args.include_private,
    };
    let defaults = ScenarioConfig::default();
    let config = ScenarioConfig {
        scenario,
        concurrent_blocks: args.k.map_or(defaults.concurrent_blocks, |k| k as usize),
        clusters: args.clusters.map_or(defaults.clusters, |c| c as usize),
        lsu: args.lsu.map_or(defaults.lsu, |l| l as usize),
        max_rd: args.max_rd,
        policy: match args.policy {
            PolicyArg::Sequential => SchedulePolicy::Sequential,
            PolicyArg::RoundRobin => SchedulePolicy::RoundRobin,
        },
    };
    let mut export = match &args.export_gpu_text {
        Some(path) => {
            let f = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            let mut w = std::io::BufWriter::new(f);
            write_gpu_text_header(&mut w).with_context(|| format!("writing {}", path.display()))?;
            Some((path, w))
        }
        None => None,
    };
    // Kernels are analysed as they come; only their results are kept.
    let mut kernels: Vec<KernelJson> = Vec::new();
    let mut total = DsHistogram::new(config.max_rd);
    let mut count = 0usize;
    let bar = crate::progress::bar(0, "kernels", args.out.quiet);
    let skipped = load(args, &simt, &mut |s: Source| {
        let index = count;
        count += 1;
        if args.kernel.is_some_and(|n| n != index) {
            return Ok(());
        }
        if let Some((path, w)) = export.as_mut() {
            write_gpu_text_kernel(w, &s.kernel)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        let r = run_scenario(&s.kernel, &config)
            .with_context(|| format!("analysing {}", s.kernel.name))?;
        total.merge(&r.total);
        kernels.push(KernelJson {
            index,
            name: s.kernel.name.clone(),
            origin: s.origin,
            blocks: s.kernel.blocks.len(),
            mis: s.kernel.mis(),
            lanes: s.kernel.lanes(),
            aggregate_blocks: r.aggregate_blocks,
            scheduler: r.scheduler.clone(),
            streams: r
                .streams
                .iter()
                .map(|st| StreamJson {
                    label: label(st.label),
                    blocks: st.blocks,
                    histogram: HistogramJson::new(&st.histogram),
                })
                .collect(),
            total: HistogramJson::new(&r.total),
        });
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some((path, mut w)) = export {
        std::io::Write::flush(&mut w).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(n) = args.kernel.filter(|&n| n >= count) {
        // Not a usage error: the command line is fine, this input has fewer kernels.
        anyhow::bail!(
            "--kernel {n}: {} has {count} kernel(s), numbered from 0",
            args.trace.display(),
        );
    }
    if count == 0 {
        eprintln!(
            "rda-report: warning: {} holds no kernel to analyse (no worksharing loop ran)",
            args.trace.display()
        );
    }
    let clustered = matches!(
        scenario,
        Scenario::ClusterLocal | Scenario::ClusterAggregate
    );
    let from_trace = args.input_format == SimtInput::Rdtrace;
    let output = Output {
        input: args.trace.display().to_string(),
        input_format: if from_trace { "rdtrace" } else { "gpu-text" },
        scenario: scenario.number(),
        scenario_description: scenario.description(),
        config: ConfigJson {
            block: from_trace.then_some(simt.block_size as u64),
            warp: from_trace.then_some(simt.warp_size as u64),
            mi_scope: from_trace.then_some(match simt.mi_scope {
                MiScope::Warp => "warp",
                MiScope::Block => "block",
            }),
            granularity: args.granularity.to_string(),
            k: (scenario == Scenario::ConcurrentBlocks).then_some(config.concurrent_blocks),
            clusters: clustered.then_some(config.clusters),
            lsu: clustered.then_some(config.lsu),
            policy: match config.policy {
                SchedulePolicy::Sequential => "sequential",
                SchedulePolicy::RoundRobin => "round-robin",
            },
            max_rd: config.max_rd,
        },
        kernels,
        skipped,
        total: HistogramJson::new(&total),
    };
    let tables = tables(args, scenario, &output, &total);
    if let Some(p) = &args.plot {
        plots(p, &args.zoom, scenario, &total)?;
    }
    emit(args.out.format(), &output, &tables)
}

fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn tables(args: &SimtArgs, scenario: Scenario, out: &Output, total: &DsHistogram) -> Vec<Table> {
    let mut params = vec![format!("granularity {}", out.config.granularity)];
    if let (Some(b), Some(w), Some(s)) = (out.config.block, out.config.warp, out.config.mi_scope) {
        params.push(format!("block {b}, warp {w}, {s}-scope MIs"));
    }
    if let Some(k) = out.config.k {
        params.push(format!("K = {k}, {}", out.config.policy));
    }
    if let (Some(c), Some(l)) = (out.config.clusters, out.config.lsu) {
        params.push(format!("{c} clusters × {l} LSUs, {}", out.config.policy));
    }
    if let Some(w) = out.config.max_rd {
        params.push(format!("RD ≤ {w}"));
    }
    let mut kt = Table::new([
        "kernel",
        "name",
        "threads",
        "blocks",
        "MIs",
        "lanes",
        "streams",
        "total DS",
        "reusing pairs",
        "peak RD",
        "peak DS",
    ])
    .titled(format!(
        "SIMT data reuse, scenario {} ({}); {}",
        scenario.number(),
        scenario.description(),
        params.join("; ")
    ));
    for k in &out.kernels {
        kt.row([
            k.index.to_string(),
            k.name.clone(),
            opt(k.origin.as_ref().map(|o| o.threads)),
            k.blocks.to_string(),
            k.mis.to_string(),
            k.lanes.to_string(),
            k.streams.len().to_string(),
            k.total.total_ds.to_string(),
            k.total.reusing_pairs.to_string(),
            opt(k.total.peak_rd),
            opt(k.total.peak_ds),
        ]);
    }
    let mut tables = vec![kt];
    if matches!(scenario, Scenario::WithinBlock | Scenario::ClusterLocal) {
        let mut st = Table::new([
            "kernel", "stream", "blocks", "MIs", "lanes", "total DS", "peak RD", "peak DS",
        ])
        .titled("Streams analysed separately");
        let mut shown = 0;
        let mut hidden = 0;
        for k in &out.kernels {
            for s in &k.streams {
                if shown >= args.limit && out_is_table(args) {
                    hidden += 1;
                    continue;
                }
                shown += 1;
                st.row([
                    k.index.to_string(),
                    s.label.clone(),
                    s.blocks.to_string(),
                    s.histogram.mis.to_string(),
                    s.histogram.lanes.to_string(),
                    s.histogram.total_ds.to_string(),
                    opt(s.histogram.peak_rd),
                    opt(s.histogram.peak_ds),
                ]);
            }
        }
        if hidden > 0 {
            st.row([format!(
                "… {hidden} more streams (--json, --csv or --limit)"
            )]);
            let n = st.headers.len();
            if let Some(r) = st.rows.last_mut() {
                r.resize(n, String::new());
            }
        }
        tables.push(st);
    }
    let mut ht = Table::new(["RD", "DS", "reusing pairs"]).titled(format!(
        "DS vs RD ({} MIs analysed{})",
        total.mis,
        if out.kernels.len() > 1 {
            ", sum over kernels"
        } else {
            ""
        }
    ));
    let rows: Vec<(u64, u64, u64)> = total.nonzero().collect();
    let limit = if out_is_table(args) {
        args.limit
    } else {
        usize::MAX
    };
    for &(rd, ds, pairs) in rows.iter().take(limit) {
        ht.row([rd.to_string(), ds.to_string(), pairs.to_string()]);
    }
    if rows.len() > limit {
        ht.row([
            format!("… {} more", rows.len() - limit),
            String::new(),
            String::new(),
        ]);
    }
    ht.row([
        "total".to_string(),
        total.total_ds().to_string(),
        total.total_reusing_pairs().to_string(),
    ]);
    tables.push(ht);
    tables
}

fn out_is_table(args: &SimtArgs) -> bool {
    args.out.format() == crate::output::Format::Table
}

/// Most points drawn for the full range; wider histograms are drawn as per-bin maxima.
const MAX_POINTS: u64 = 2000;

fn plots(path: &Path, zoom: &[u64], scenario: Scenario, h: &DsHistogram) -> Result<()> {
    let last = h.max_reuse_rd().unwrap_or(1).max(1);
    let title = format!("Data reuse characteristic, scenario {}", scenario.number());
    let width = last.div_ceil(MAX_POINTS);
    let mut full = Vec::new();
    let mut rd = 1;
    while rd <= last {
        let hi = (rd + width - 1).min(last);
        let peak = (rd..=hi).map(|r| h.ds_at(r)).max().unwrap_or(0);
        full.push((rd as f64, peak as f64));
        rd = hi + 1;
    }
    let y_label = if width > 1 {
        format!("DS (largest in bins of {width} RDs)")
    } else {
        "DS (summed data reuse degree)".to_string()
    };
    let series = |points| {
        vec![crate::plot::Series {
            name: "DS".into(),
            points,
            dashed: false,
        }]
    };
    crate::plot::write_svg(
        path,
        &crate::plot::line_chart(
            &format!("{title}, full range"),
            "RD (MIs apart)",
            &y_label,
            &series(full),
            None,
        ),
    )?;
    for &z in zoom.iter().filter(|&&z| z >= 1) {
        let points = (1..=z).map(|r| (r as f64, h.ds_at(r) as f64)).collect();
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let zp = path.with_file_name(format!("{stem}-rd1-{z}.svg"));
        crate::plot::write_svg(
            &zp,
            &crate::plot::line_chart(
                &format!("{title}, RD 1..{z}"),
                "RD (MIs apart)",
                "DS (summed data reuse degree)",
                &series(points),
                None,
            ),
        )?;
    }
    Ok(())
}
