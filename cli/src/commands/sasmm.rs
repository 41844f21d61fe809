//! `rda-report predict | measure | validate`: the SASMM multicore cache model.
//!
//! * `predict` — L1/L2 hit rates for several core counts from ONE sequential trace.
//! * `measure` — ground truth of a real threaded run: exact LRU simulation (private L1 per
//!   thread, shared L2), real PRD/CRD.
//! * `validate` — both side by side with absolute errors, as a table, JSON and an SVG plot.
//!
//! Hit rates are fractions in JSON and percentages in tables. The L2 hit rate is global
//! (1 − L2 misses / references, cachegrind's convention and what eq. 7 over the CRD estimates);
//! the local rate (hits per L2 access) is printed next to it.

use crate::exit::usage;
use crate::output::{emit, OutputArgs, Table};
use crate::tracefile::OpenArgs;
use anyhow::{Context, Result};
use rdcachesim::CacheConfig;
use rdsasmm::{
    measure, predict_many, BbWeighting, Interleave, MeasureConfig, Measurement, OffsetPolicy,
    Prediction, SasmmConfig, SequentialTrace, StaticSplit,
};
use serde::Serialize;
use std::path::PathBuf;

/// The SASMM subcommands (flattened into the top-level command list).
#[derive(clap::Subcommand, Debug)]
pub enum SasmmCommand {
    /// SASMM: predict L1/L2 hit rates on m cores from one sequential trace.
    Predict(PredictArgs),
    /// Measured L1/L2 hit rates of a real threaded run (exact LRU simulation).
    Measure(MeasureArgs),
    /// SASMM predictions next to measured hit rates of real runs, with errors.
    Validate(ValidateArgs),
}

/// Cache geometry flags.
#[derive(clap::Args, Debug, Clone)]
pub struct CacheArgs {
    /// Private L1 per core as SIZE:WAYS:LINE (WAYS may be `full`).
    #[arg(long, default_value = "8K:8:64", value_parser = parse_cache)]
    pub l1: CacheConfig,
    /// Shared L2 as SIZE:WAYS:LINE.
    #[arg(long, default_value = "128K:16:64", value_parser = parse_cache)]
    pub l2: CacheConfig,
}

fn parse_cache(s: &str) -> Result<CacheConfig, String> {
    CacheConfig::parse(s).map_err(|e| e.to_string())
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!("`{s}` is not a fraction in (0, 1]")),
    }
}

fn parse_real(s: &str) -> Result<(usize, PathBuf), String> {
    let (m, p) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected CORES=TRACE"))?;
    match m.trim().parse::<usize>() {
        Ok(m) if m >= 1 && !p.is_empty() => Ok((m, PathBuf::from(p))),
        _ => Err(format!("`{s}`: expected CORES=TRACE with CORES at least 1")),
    }
}

impl CacheArgs {
    fn parse(&self) -> Result<(CacheConfig, CacheConfig)> {
        Ok((self.l1, self.l2))
    }
}

/// Interleaving choice.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterleaveArg {
    /// Round-robin, one access per core in turn.
    Rr,
    /// Uniform random core per access (seeded).
    Uniform,
}

/// Offset policy choice.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffsetArg {
    /// Offset every reference of parallel code on cores > 0 except shared-variable accesses.
    Paper,
    /// Offset only references classed private by the pass.
    Private,
}

/// Unchunked static split.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitArg {
    /// n/m each, first n%m threads one more (libomp default here).
    Balanced,
    /// ceil(n/m) each.
    Greedy,
}

/// Block weighting of eq. 4.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightingArg {
    /// Instance counts of the mimicked traces.
    Mimicked,
    /// The paper's eq. 1 (L2) and eq. 2-3 (L1).
    Paper,
}

/// Model flags shared by `predict` and `validate`.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    #[command(flatten)]
    pub caches: CacheArgs,
    /// Interleaving of the shared trace (SASMM Alg. 2).
    #[arg(long, value_enum, default_value_t = InterleaveArg::Rr)]
    pub interleave: InterleaveArg,
    /// Seed for uniform interleaving and window sampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which references of cores > 0 get a per-core address offset (SASMM Alg. 1).
    #[arg(long, value_enum, default_value_t = OffsetArg::Private)]
    pub offset_policy: OffsetArg,
    /// Override the chunk of every worksharing loop (iterations dealt round-robin).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk: Option<u64>,
    /// How unchunked static loops are split.
    #[arg(long, value_enum, default_value_t = SplitArg::Balanced)]
    pub split: SplitArg,
    /// Fraction of each block's windows sampled for P(D|BB) (SASMM Alg. 3); 1 samples all.
    #[arg(long, default_value_t = 0.01, value_parser = parse_fraction)]
    pub sample_rate: f64,
    /// Sample at least this many windows per block (when it has that many).
    #[arg(long, default_value_t = 32)]
    pub min_samples: u64,
    /// Block weights of eq. 4.
    #[arg(long, value_enum, default_value_t = WeightingArg::Mimicked)]
    pub weighting: WeightingArg,
}

impl ModelArgs {
    /// The model configuration these flags describe.
    pub fn config(&self) -> Result<SasmmConfig> {
        let (l1, l2) = self.caches.parse()?;
        let mut c = SasmmConfig {
            l1,
            l2,
            ..SasmmConfig::default()
        };
        c.interleave = match self.interleave {
            InterleaveArg::Rr => Interleave::RoundRobin,
            InterleaveArg::Uniform => Interleave::Uniform { seed: self.seed },
        };
        c.mimic.offset_policy = match self.offset_policy {
            OffsetArg::Paper => OffsetPolicy::Paper,
            OffsetArg::Private => OffsetPolicy::Private,
        };
        c.mimic.split = match self.split {
            SplitArg::Balanced => StaticSplit::Balanced,
            SplitArg::Greedy => StaticSplit::Greedy,
        };
        c.mimic.chunk = self.chunk;
        c.profile.sample_rate = self.sample_rate;
        c.profile.min_samples = self.min_samples;
        c.profile.seed = self.seed;
        c.profile.weighting = match self.weighting {
            WeightingArg::Mimicked => BbWeighting::Mimicked,
            WeightingArg::Paper => BbWeighting::Paper,
        };
        // Flag values the model would refuse are usage errors, found before any trace is read.
        if c.mimic.chunk == Some(0) {
            return Err(usage("--chunk must be at least 1"));
        }
        c.profile.validate().map_err(|e| usage(e.to_string()))?;
        Ok(c)
    }
}

/// Arguments of `predict`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  OMP_NUM_THREADS=1 RDTRACE=seq.rdtrace ./app\n  rda-report predict seq.rdtrace --cores 1,2,4,8,16 --l1 8K:8:64 --l2 128K:16:64 --json"
)]
pub struct PredictArgs {
    /// Trace of a sequential run (OMP_NUM_THREADS=1).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Core counts to predict.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16", value_parser = clap::value_parser!(u16).range(1..))]
    pub cores: Vec<u16>,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `measure`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  OMP_NUM_THREADS=4 RDTRACE=t4.rdtrace ./app\n  rda-report measure t4.rdtrace --l1 8K:8:64 --l2 128K:16:64"
)]
pub struct MeasureArgs {
    /// Trace of a real run (any number of threads).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub caches: CacheArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `validate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rda-report validate --seq seq.rdtrace --real 1=t1.rdtrace --real 2=t2.rdtrace --real 4=t4.rdtrace --plot sasmm.svg"
)]
pub struct ValidateArgs {
    /// Trace of a sequential run (the model's input).
    #[arg(long)]
    pub seq: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// A real run as CORES=TRACE (repeat for each core count).
    #[arg(long = "real", value_name = "CORES=TRACE", required = true, value_parser = parse_real)]
    pub real: Vec<(usize, PathBuf)>,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Also write an SVG plot of hit rate vs cores (predicted dashed, measured solid).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// One core count of `predict`'s JSON.
#[derive(Serialize)]
struct PredictRow {
    cores: usize,
    l1_hit: f64,
    l2_hit: f64,
    l2_local_hit: f64,
    l1_hit_exact_profile: f64,
    l2_hit_exact_profile: f64,
    l1_hit_paper_weights: f64,
    l2_hit_paper_weights: f64,
    l1_hit_per_core: Vec<f64>,
    references: u64,
    shared_references: u64,
}

impl PredictRow {
    fn new(p: &Prediction) -> Self {
        PredictRow {
            cores: p.cores,
            l1_hit: p.l1.hit,
            l2_hit: p.l2.hit,
            l2_local_hit: p.l2_local_hit,
            l1_hit_exact_profile: p.l1.hit_exact_profile,
            l2_hit_exact_profile: p.l2.hit_exact_profile,
            l1_hit_paper_weights: p.l1.hit_paper_weights,
            l2_hit_paper_weights: p.l2.hit_paper_weights,
            l1_hit_per_core: p.l1_per_core.clone(),
            references: p.l1.references,
            shared_references: p.l2.references,
        }
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}", 100.0 * x)
}

fn open_seq(path: &std::path::Path, open: &OpenArgs) -> Result<SequentialTrace> {
    let trace = crate::tracefile::open(path, open)?;
    // The model's errors already name the file.
    Ok(SequentialTrace::from_trace(&trace)?)
}

fn predict_all(
    seq: &SequentialTrace,
    cfg: &SasmmConfig,
    cores: &[usize],
) -> Result<Vec<Prediction>> {
    if cores.is_empty() || cores.contains(&0) {
        return Err(usage("--cores needs core counts of at least 1"));
    }
    predict_many(seq, cfg, cores).context("predicting")
}

fn run_predict(a: &PredictArgs) -> Result<()> {
    let cfg = a.model.config()?;
    let seq = open_seq(&a.trace, &a.open)?;
    emit_predictions(
        &a.trace.display().to_string(),
        &seq,
        &cfg,
        &a.cores,
        a.out.format(),
    )
}

/// Predicts for every core count and prints `predict`'s report (shared with `live --predict`,
/// so both print the same report for the same run). `source` names the trace in the title.
pub fn emit_predictions(
    source: &str,
    seq: &SequentialTrace,
    cfg: &SasmmConfig,
    cores: &[u16],
    format: crate::output::Format,
) -> Result<()> {
    let cores: Vec<usize> = cores.iter().map(|&m| m as usize).collect();
    let preds = predict_all(seq, cfg, &cores)?;
    let rows: Vec<PredictRow> = preds.iter().map(PredictRow::new).collect();
    let mut t = Table::new([
        "cores",
        "L1 hit %",
        "L2 hit % (global)",
        "L2 hit % (local)",
        "L1 % exact PRD",
        "L2 % exact CRD",
        "references",
    ])
    .titled(format!(
        "SASMM prediction from {source} (L1 {} private, L2 {} shared)",
        cfg.l1, cfg.l2
    ));
    for r in &rows {
        t.row([
            r.cores.to_string(),
            pct(r.l1_hit),
            pct(r.l2_hit),
            pct(r.l2_local_hit),
            pct(r.l1_hit_exact_profile),
            pct(r.l2_hit_exact_profile),
            r.references.to_string(),
        ]);
    }
    emit(format, &rows, &[t])
}

/// `measure`'s JSON.
#[derive(Serialize)]
struct MeasureJson<'a> {
    trace: String,
    l1: String,
    l2: String,
    #[serde(flatten)]
    m: &'a Measurement,
}

fn measure_file(
    path: &std::path::Path,
    open: &OpenArgs,
    l1: CacheConfig,
    l2: CacheConfig,
) -> Result<Measurement> {
    let trace = crate::tracefile::open(path, open)?;
    measure(&trace, MeasureConfig { l1, l2 })
        .with_context(|| format!("measuring {}", path.display()))
}

fn run_measure(a: &MeasureArgs) -> Result<()> {
    let (l1, l2) = a.caches.parse()?;
    let m = measure_file(&a.trace, &a.open, l1, l2)?;
    let mut t = Table::new(["level", "accesses", "hits", "hit %"]).titled(format!(
        "Exact LRU simulation of {} ({} threads; L1 {l1} private, L2 {l2} shared)",
        a.trace.display(),
        m.threads
    ));
    for (i, s) in m.l1_per_thread.iter().enumerate() {
        t.row([
            format!("L1 thread {i}"),
            s.accesses.to_string(),
            s.hits.to_string(),
            pct(s.hit_rate()),
        ]);
    }
    let l1_hits: u64 = m.l1_per_thread.iter().map(|s| s.hits).sum();
    t.row([
        "L1 all".to_string(),
        m.references.to_string(),
        l1_hits.to_string(),
        pct(m.l1_hit),
    ]);
    t.row([
        "L2 (local)".to_string(),
        m.l2.accesses.to_string(),
        m.l2.hits.to_string(),
        pct(m.l2_local_hit),
    ]);
    t.row([
        "L2 (global)".to_string(),
        m.references.to_string(),
        (m.references - m.l2.misses()).to_string(),
        pct(m.l2_hit),
    ]);
    let mut p = Table::new(["profile", "model hit %"])
        .titled("Stack-distance model (eq. 5-7) on the real profiles");
    p.row(["L1 from real PRD".to_string(), pct(m.l1_hit_from_prd)]);
    p.row(["L2 from real CRD".to_string(), pct(m.l2_hit_from_crd)]);
    let json = MeasureJson {
        trace: a.trace.display().to_string(),
        l1: l1.to_string(),
        l2: l2.to_string(),
        m: &m,
    };
    emit(a.out.format(), &json, &[t, p])
}

/// One row of `validate`'s JSON.
#[derive(Serialize)]
struct ValidateRow {
    cores: usize,
    predicted: PredictRow,
    measured: MeasuredRow,
    l1_abs_error: f64,
    l2_abs_error: f64,
    l2_local_abs_error: f64,
}

#[derive(Serialize)]
struct MeasuredRow {
    trace: String,
    threads: usize,
    l1_hit: f64,
    l2_hit: f64,
    l2_local_hit: f64,
    l1_hit_from_prd: f64,
    l2_hit_from_crd: f64,
    references: u64,
}

#[derive(Serialize)]
struct ValidateJson {
    seq: String,
    l1: String,
    l2: String,
    rows: Vec<ValidateRow>,
    l1_mean_abs_error: f64,
    l2_mean_abs_error: f64,
    l2_local_mean_abs_error: f64,
}

fn run_validate(a: &ValidateArgs) -> Result<()> {
    let cfg = a.model.config()?;
    let mut reals = a.real.clone();
    reals.sort_by_key(|r| r.0);
    let seq = open_seq(&a.seq, &a.open)?;
    let cores: Vec<usize> = reals.iter().map(|r| r.0).collect();
    let preds = predict_all(&seq, &cfg, &cores)?;
    let mut rows = Vec::new();
    for ((m, path), p) in reals.iter().zip(&preds) {
        let meas = measure_file(path, &a.open, cfg.l1, cfg.l2)?;
        if meas.threads != *m {
            eprintln!(
                "rda-report: warning: {} has {} threads with accesses, labelled {m} cores",
                path.display(),
                meas.threads
            );
        }
        rows.push(ValidateRow {
            cores: *m,
            predicted: PredictRow::new(p),
            l1_abs_error: (p.l1.hit - meas.l1_hit).abs(),
            l2_abs_error: (p.l2.hit - meas.l2_hit).abs(),
            l2_local_abs_error: (p.l2_local_hit - meas.l2_local_hit).abs(),
            measured: MeasuredRow {
                trace: path.display().to_string(),
                threads: meas.threads,
                l1_hit: meas.l1_hit,
                l2_hit: meas.l2_hit,
                l2_local_hit: meas.l2_local_hit,
                l1_hit_from_prd: meas.l1_hit_from_prd,
                l2_hit_from_crd: meas.l2_hit_from_crd,
                references: meas.references,
            },
        });
    }
    let mean =
        |f: fn(&ValidateRow) -> f64| rows.iter().map(f).sum::<f64>() / rows.len().max(1) as f64;
    let json = ValidateJson {
        seq: a.seq.display().to_string(),
        l1: cfg.l1.to_string(),
        l2: cfg.l2.to_string(),
        l1_mean_abs_error: mean(|r| r.l1_abs_error),
        l2_mean_abs_error: mean(|r| r.l2_abs_error),
        l2_local_mean_abs_error: mean(|r| r.l2_local_abs_error),
        rows,
    };
    let mut t = Table::new([
        "cores",
        "level",
        "predicted %",
        "measured %",
        "abs error (pp)",
    ])
    .titled(format!(
        "SASMM vs exact simulation (L1 {} private, L2 {} shared; seq trace {})",
        cfg.l1,
        cfg.l2,
        a.seq.display()
    ));
    for r in &json.rows {
        t.row([
            r.cores.to_string(),
            "L1".into(),
            pct(r.predicted.l1_hit),
            pct(r.measured.l1_hit),
            pct(r.l1_abs_error),
        ]);
        t.row([
            r.cores.to_string(),
            "L2".into(),
            pct(r.predicted.l2_hit),
            pct(r.measured.l2_hit),
            pct(r.l2_abs_error),
        ]);
        t.row([
            r.cores.to_string(),
            "L2 local".into(),
            pct(r.predicted.l2_local_hit),
            pct(r.measured.l2_local_hit),
            pct(r.l2_local_abs_error),
        ]);
    }
    let mut s =
        Table::new(["level", "mean abs error (pp)"]).titled("Mean absolute error over core counts");
    s.row(["L1".to_string(), pct(json.l1_mean_abs_error)]);
    s.row(["L2".to_string(), pct(json.l2_mean_abs_error)]);
    s.row(["L2 local".to_string(), pct(json.l2_local_mean_abs_error)]);
    if let Some(path) = &a.plot {
        use crate::plot::{line_chart, write_svg, Series};
        let series = |name: &str, dashed: bool, f: &dyn Fn(&ValidateRow) -> f64| Series {
            name: name.to_string(),
            points: json
                .rows
                .iter()
                .map(|r| (r.cores as f64, 100.0 * f(r)))
                .collect(),
            dashed,
        };
        let svg = line_chart(
            &format!("SASMM: hit rate vs cores (L1 {}, L2 {})", cfg.l1, cfg.l2),
            "cores",
            "hit rate (%)",
            &[
                series("L1 predicted", true, &|r| r.predicted.l1_hit),
                series("L1 measured", false, &|r| r.measured.l1_hit),
                series("L2 predicted", true, &|r| r.predicted.l2_hit),
                series("L2 measured", false, &|r| r.measured.l2_hit),
            ],
            Some(100.0),
        );
        write_svg(path, &svg)?;
    }
    emit(a.out.format(), &json, &[t, s])
}

/// Runs a SASMM subcommand.
pub fn run(cmd: SasmmCommand) -> Result<()> {
    match cmd {
        SasmmCommand::Predict(a) => run_predict(&a),
        SasmmCommand::Measure(a) => run_measure(&a),
        SasmmCommand::Validate(a) => run_validate(&a),
    }
}
