//! `rda-report predict | measure | validate`: the SASMM multicore cache model.
//!
//! * `predict` — L1/L2 hit rates for several core counts from ONE sequential trace, by the
//!   exact model (set-aware LRU on the mimicked traces, [`rdsasmm::exact`]) or the paper's
//!   formula (eq. 5–7); several cache configurations and a miss-ratio curve in one call.
//! * `measure` — ground truth of a real threaded run: exact LRU simulation (private L1 per
//!   thread, shared L2), real PRD/CRD.
//! * `validate` — measured, exact model and formula side by side with absolute errors and the
//!   error decomposition, as a table, JSON and an SVG plot.
//!
//! Hit rates are fractions in JSON and percentages in tables, per cache-line reference, under
//! one set of names ([`rdsasmm::HitRates`]): `l1_hit`, `l2_hit_global` (1 − L2 misses /
//! references, cachegrind's convention; `l2_hit` is an alias), `l2_hit_local` (L2 hits / L2
//! accesses) and misses per 1000 references `l1_mpka`, `l2_mpka`.

use crate::exit::usage;
use crate::output::{emit, OutputArgs, Table};
use crate::tracefile::OpenArgs;
use anyhow::{bail, Context, Result};
use rdcachesim::CacheConfig;
use rdsasmm::exact::default_mrc_sizes;
use rdsasmm::{
    measure, predict_many_trace, BbWeighting, ExactConfig, ExactPrediction, HitRates, Interleave,
    MeasureConfig, Measurement, OffsetPolicy, Prediction, SasmmConfig, StaticSplit,
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

/// Which model computes the hit rates.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelArg {
    /// Exact set-associative LRU on the mimicked traces (per-set stack distances).
    Exact,
    /// The paper's stack-distance formula (eq. 5-7) over the sampled profile (Alg. 3, eq. 4).
    Formula,
}

impl ModelArg {
    fn name(self) -> &'static str {
        match self {
            ModelArg::Exact => "exact",
            ModelArg::Formula => "formula",
        }
    }
}

/// Cache flags of `predict`: each may be repeated.
#[derive(clap::Args, Debug, Clone)]
pub struct MultiCacheArgs {
    /// Private L1 per core as SIZE:WAYS:LINE (WAYS may be `full`); repeat (or separate by
    /// commas) for several configurations.
    #[arg(long, default_value = "8K:8:64", value_delimiter = ',', value_parser = parse_cache)]
    pub l1: Vec<CacheConfig>,
    /// Shared L2 as SIZE:WAYS:LINE; repeat for several. Every L1 x L2 pair is predicted.
    #[arg(long, default_value = "128K:16:64", value_delimiter = ',', value_parser = parse_cache)]
    pub l2: Vec<CacheConfig>,
}

/// Model flags shared by `predict` and `validate`.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
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
    /// The model: `exact` simulates set-indexed LRU caches on the mimicked traces (no eq. 5
    /// approximation, no sampling); `formula` is the paper's eq. 5-7 (the sampling flags above
    /// apply to it only).
    #[arg(long, value_enum, default_value_t = ModelArg::Exact)]
    pub model: ModelArg,
}

impl ModelArgs {
    /// The formula model's configuration for one L1/L2 pair.
    pub fn config(&self, l1: CacheConfig, l2: CacheConfig) -> Result<SasmmConfig> {
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

    fn exact_config(&self, l1: &[CacheConfig], l2: &[CacheConfig]) -> Result<ExactConfig> {
        let c = self.config(l1[0], l2[0])?;
        Ok(ExactConfig {
            l1: l1.to_vec(),
            l2: l2.to_vec(),
            mimic: c.mimic,
            interleave: c.interleave,
            mrc: Vec::new(),
        })
    }
}

const RATES_HELP: &str = "Rates are per cache-line reference (an access that straddles two lines is two references): \
L1 hit = L1 hits / references; L2 global hit = 1 - L2 misses / references (l2_hit in JSON is an alias); \
L2 local hit = L2 hits / L2 accesses (the L1 misses); MPKA = misses per 1000 references.";

/// Arguments of `predict`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = format!("{RATES_HELP}\n\nThe exact model (default) simulates a private set-associative LRU L1 per core and a shared, \
non-inclusive L2 on the traces SASMM mimics from the sequential run (Alg. 1-2), from per-set stack distances; \
`--model formula` applies the paper's eq. 5-7 to the sampled reuse profile instead.\n\n\
Examples:\n  OMP_NUM_THREADS=1 RDTRACE=seq.rdtrace ./app\n  rda-report predict seq.rdtrace --cores 1,2,4,8,16 --l1 8K:8:64 --l2 128K:16:64 --json\n  \
rda-report predict seq.rdtrace --l1 8K:8:64 --l1 32K:8:64 --l2 128K:16:64 --l2 1M:16:64\n  \
rda-report predict seq.rdtrace --cores 1,4 --mrc\n  rda-report predict seq.rdtrace --model formula\n\n\
Memory: the exact model streams the trace, one pass per core count (as many at once as there are CPUs): per core count the \
simulated caches' LRU stacks (bounded by the cache sizes) and the largest parallel section of the run (the accesses between two \
synchronisation points of one parallel region, 16 bytes each); serial code is never held. `--model formula` streams the trace \
once for the block counts, then once per core count and cache pair (as many at once as there are CPUs), each holding one LRU \
stack per core and one shared (distinct lines), \
exact histograms (distinct distances), per-block counters, the sampled windows' ranks (8 bytes per sampled window: the sample \
rate times the run's windows, at least --min-samples per block) and the largest parallel section.")
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
    pub caches: MultiCacheArgs,
    /// Also print a miss-ratio curve: private caches (first L1's ways and line) and a shared
    /// cache (first L2's) of 1 KiB, 2 KiB, ... up to 4x the largest L2. JSON becomes
    /// {"predictions": [...], "mrc": [...]}.
    #[arg(long)]
    pub mrc: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `measure`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = format!("{RATES_HELP}\n\nPer-thread rows are ordered by OpenMP thread number. `--csv` prints the \
one hit-rate table (one CSV table per stream); `--csv-dir DIR` writes every table as its own file.\n\n\
Examples:\n  OMP_NUM_THREADS=4 RDTRACE=t4.rdtrace ./app\n  rda-report measure t4.rdtrace --l1 8K:8:64 --l2 128K:16:64\n  \
rda-report measure t4.rdtrace --csv-dir out/\n\n\
Memory: the simulated caches, one reuse stack per thread and one over all threads (distinct lines), and one decoded chunk per \
thread (the events are merged in stamp order as they are read).")
)]
pub struct MeasureArgs {
    /// Trace of a real run (any number of threads).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub caches: CacheArgs,
    /// Write each table as a CSV file into this directory (levels.csv, profile_model.csv).
    #[arg(long, value_name = "DIR")]
    pub csv_dir: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `validate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = format!("{RATES_HELP}\n\nShows, per core count and level, the measured rate, the exact model and the formula, \
and the error decomposition: the formula applied to the real run's own reuse profile (the formula's error alone), \
the formula on the mimicked trace's exact profile, and the exact model (the mimicking's error alone).\n\n\
Example:\n  rda-report validate --seq seq.rdtrace --real 1=t1.rdtrace --real 2=t2.rdtrace --real 4=t4.rdtrace --plot sasmm.svg\n\n\
Memory: both models stream the sequential trace as `predict` does (see its --help: stacks, sampled windows' ranks and the \
largest parallel section), plus `measure`'s bound for each real run.")
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
    pub caches: CacheArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Also write an SVG plot of hit rate vs cores (models dashed, measured solid).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// One core count and hierarchy of `predict`'s JSON.
#[derive(Serialize)]
struct PredictRow {
    model: &'static str,
    cores: usize,
    l1_cache: String,
    l2_cache: String,
    #[serde(flatten)]
    rates: HitRates,
    /// Old name of `l2_hit_local`.
    l2_local_hit: f64,
    l1_hit_per_core: Vec<f64>,
    references: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    l1_hit_exact_profile: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l2_hit_exact_profile: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l1_hit_paper_weights: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l2_hit_paper_weights: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shared_references: Option<u64>,
}

impl PredictRow {
    fn formula(p: &Prediction, cfg: &SasmmConfig) -> Self {
        let rates = HitRates::from_global(p.l1.hit, p.l2.hit);
        PredictRow {
            model: "formula",
            cores: p.cores,
            l1_cache: cfg.l1.to_string(),
            l2_cache: cfg.l2.to_string(),
            rates,
            l2_local_hit: p.l2_local_hit,
            l1_hit_per_core: p.l1_per_core.clone(),
            references: p.l1.references,
            l1_hit_exact_profile: Some(p.l1.hit_exact_profile),
            l2_hit_exact_profile: Some(p.l2.hit_exact_profile),
            l1_hit_paper_weights: Some(p.l1.hit_paper_weights),
            l2_hit_paper_weights: Some(p.l2.hit_paper_weights),
            shared_references: Some(p.l2.references),
        }
    }

    fn exact(p: &ExactPrediction, k: usize) -> Self {
        let h = &p.hierarchies[k];
        PredictRow {
            model: "exact",
            cores: p.cores,
            l1_cache: h.l1.to_string(),
            l2_cache: h.l2.to_string(),
            rates: h.rates,
            l2_local_hit: h.rates.l2_hit_local,
            l1_hit_per_core: h.l1_hit_per_core.clone(),
            references: h.references,
            l1_hit_exact_profile: None,
            l2_hit_exact_profile: None,
            l1_hit_paper_weights: None,
            l2_hit_paper_weights: None,
            shared_references: None,
        }
    }
}

/// One point of `predict --mrc`'s curve.
#[derive(Serialize)]
struct MrcRow {
    model: &'static str,
    cores: usize,
    size: u64,
    private_cache: String,
    shared_cache: String,
    private_miss_ratio: f64,
    shared_miss_ratio: f64,
}

#[derive(Serialize)]
struct PredictWithMrc<'a> {
    predictions: &'a [PredictRow],
    mrc: &'a [MrcRow],
}

fn pct(x: f64) -> String {
    format!("{:.2}", 100.0 * x)
}

/// Where `predict` reads the sequential run from.
pub enum SeqSource<'a> {
    /// An open trace file: both models stream it (the exact model one pass per core count,
    /// memory bounded by the caches and the largest parallel section; the formula model one
    /// pass for the block counts and one per core count, memory bounded by the footprint and
    /// the sample).
    File(&'a rdtrace::Trace),
    /// The exact model's predictions, already computed in one pass over a stream (`live
    /// --predict`) with [`exact_config_for`]'s configuration.
    Exact(Vec<ExactPrediction>),
}

fn check_cores(cores: &[usize]) -> Result<()> {
    if cores.is_empty() || cores.contains(&0) {
        return Err(usage("--cores needs core counts of at least 1"));
    }
    Ok(())
}

fn exact_source(
    source: &SeqSource<'_>,
    cfg: &ExactConfig,
    cores: &[usize],
) -> Result<Vec<ExactPrediction>> {
    check_cores(cores)?;
    match source {
        SeqSource::Exact(preds) => Ok(preds.clone()),
        // The flags were checked before; what remains are the trace's own errors (not
        // sequential, no accesses), which name the file.
        SeqSource::File(trace) => Ok(rdsasmm::predict_exact_many_trace(trace, cfg, cores)?),
    }
}

/// The exact model's configuration `predict` uses for these flags (with the miss-ratio curve's
/// sizes when `with_mrc`).
pub fn exact_config_for(
    model: &ModelArgs,
    caches: &MultiCacheArgs,
    with_mrc: bool,
) -> Result<ExactConfig> {
    check_predict_flags(model, caches)?;
    let mut cfg = model.exact_config(&caches.l1, &caches.l2)?;
    if with_mrc {
        cfg.mrc = default_mrc_sizes(&caches.l2);
    }
    Ok(cfg)
}

/// The formula's miss-ratio curve: eq. 7 over the exact profiles of the mimicked traces (PRD
/// for the private caches, CRD for the shared one) at every size.
fn formula_mrc(
    p: &Prediction,
    l1: &CacheConfig,
    l2: &CacheConfig,
    sizes: &[u64],
) -> Result<Vec<MrcRow>> {
    use rdsasmm::model::Profile;
    let mut prd = rdengines::Histogram::new_exact();
    for h in &p.prd {
        prd.merge(h);
    }
    let (prd, crd) = (
        Profile::from_histogram(&prd),
        Profile::from_histogram(&p.crd),
    );
    sizes
        .iter()
        .map(|&size| {
            let private = rdsasmm::exact::resized(l1, size)?;
            let shared = rdsasmm::exact::resized(l2, size)?;
            Ok(MrcRow {
                model: "formula",
                cores: p.cores,
                size,
                private_cache: private.to_string(),
                shared_cache: shared.to_string(),
                private_miss_ratio: 1.0 - prd.hit_rate(&private),
                shared_miss_ratio: 1.0 - crd.hit_rate(&shared),
            })
        })
        .collect()
}

fn run_predict(a: &PredictArgs) -> Result<()> {
    check_predict_flags(&a.model, &a.caches)?;
    let trace = crate::tracefile::open(&a.trace, &a.open)?;
    emit_predictions(
        &a.trace.display().to_string(),
        &SeqSource::File(&trace),
        &a.model,
        &a.caches,
        &a.cores,
        a.mrc,
        a.out.format(),
    )
}

/// Checks `predict`'s model and cache flags before any trace is read (usage errors).
pub fn check_predict_flags(model: &ModelArgs, caches: &MultiCacheArgs) -> Result<()> {
    let (l1s, l2s) = (&caches.l1, &caches.l2);
    if l1s.is_empty() || l2s.is_empty() {
        return Err(usage("--l1 and --l2 need at least one cache each"));
    }
    model.config(l1s[0], l2s[0]).map(|_| ())
}

/// Predicts for every core count and prints `predict`'s report (shared with `live --predict`,
/// so both print the same report for the same run). `source` names the trace in the title.
pub fn emit_predictions(
    source: &str,
    seq: &SeqSource<'_>,
    model: &ModelArgs,
    caches: &MultiCacheArgs,
    cores: &[u16],
    with_mrc: bool,
    format: crate::output::Format,
) -> Result<()> {
    check_predict_flags(model, caches)?;
    let (l1s, l2s) = (&caches.l1, &caches.l2);
    let cores: Vec<usize> = cores.iter().map(|&m| m as usize).collect();
    let sizes = if with_mrc {
        default_mrc_sizes(l2s)
    } else {
        Vec::new()
    };
    let mut rows: Vec<PredictRow> = Vec::new();
    let mut mrc: Vec<MrcRow> = Vec::new();
    match model.model {
        ModelArg::Exact => {
            let cfg = exact_config_for(model, caches, with_mrc)?;
            let preds = exact_source(seq, &cfg, &cores)?;
            for p in &preds {
                rows.extend((0..p.hierarchies.len()).map(|k| PredictRow::exact(p, k)));
                mrc.extend(p.mrc.iter().map(|pt| MrcRow {
                    model: "exact",
                    cores: p.cores,
                    size: pt.size,
                    private_cache: pt.private.to_string(),
                    shared_cache: pt.shared.to_string(),
                    private_miss_ratio: pt.private_miss_ratio,
                    shared_miss_ratio: pt.shared_miss_ratio,
                }));
            }
        }
        ModelArg::Formula => {
            let SeqSource::File(trace) = seq else {
                bail!("the formula model reads the sequential trace twice and needs it as a file");
            };
            check_cores(&cores)?;
            let mut configs = Vec::new();
            for l1 in l1s {
                for l2 in l2s {
                    configs.push(model.config(*l1, *l2)?);
                }
            }
            let by_pair = predict_many_trace(trace, &configs, &cores)?;
            // Core-count-major like the exact model's rows.
            for (m, _) in cores.iter().enumerate() {
                for (cfg, preds) in configs.iter().zip(&by_pair) {
                    rows.push(PredictRow::formula(&preds[m], cfg));
                }
                if with_mrc {
                    mrc.extend(formula_mrc(&by_pair[0][m], &l1s[0], &l2s[0], &sizes)?);
                }
            }
        }
    }
    let mut t = Table::new([
        "cores",
        "L1",
        "L2",
        "L1 hit %",
        "L2 hit % (global)",
        "L2 hit % (local)",
        "L1 MPKA",
        "L2 MPKA",
        "references",
    ])
    .titled(format!(
        "SASMM prediction ({} model) from {} (private L1, shared L2; rates per cache-line reference, MPKA = misses per 1000 references)",
        model.model.name(),
        source,
    ));
    for r in &rows {
        t.row([
            r.cores.to_string(),
            r.l1_cache.clone(),
            r.l2_cache.clone(),
            pct(r.rates.l1_hit),
            pct(r.rates.l2_hit_global),
            pct(r.rates.l2_hit_local),
            format!("{:.2}", r.rates.l1_mpka),
            format!("{:.2}", r.rates.l2_mpka),
            r.references.to_string(),
        ]);
    }
    let mut tables = vec![t];
    if model.model == ModelArg::Formula {
        let mut f = Table::new(["cores", "L1", "L2", "L1 % exact PRD", "L2 % exact CRD"])
            .titled("Eq. 7 over the exact (unsampled) profiles of the mimicked traces");
        for r in &rows {
            f.row([
                r.cores.to_string(),
                r.l1_cache.clone(),
                r.l2_cache.clone(),
                pct(r.l1_hit_exact_profile.unwrap_or(0.0)),
                pct(r.l2_hit_exact_profile.unwrap_or(0.0)),
            ]);
        }
        tables.push(f);
    }
    if with_mrc {
        let mut c = Table::new([
            "cores",
            "size",
            "private cache",
            "private miss %",
            "shared cache",
            "shared miss %",
        ])
        .titled(format!(
            "Miss-ratio curve ({} model): private caches over each core's trace, one shared cache over the interleaved trace",
            model.model.name()
        ));
        for r in &mrc {
            c.row([
                r.cores.to_string(),
                r.size.to_string(),
                r.private_cache.clone(),
                pct(r.private_miss_ratio),
                r.shared_cache.clone(),
                pct(r.shared_miss_ratio),
            ]);
        }
        tables.push(c);
        let json = PredictWithMrc {
            predictions: &rows,
            mrc: &mrc,
        };
        return emit(format, &json, &tables);
    }
    emit(format, &rows, &tables)
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

fn mpka(misses: u64, refs: u64) -> String {
    if refs == 0 {
        "0.00".into()
    } else {
        format!("{:.2}", 1000.0 * misses as f64 / refs as f64)
    }
}

fn run_measure(a: &MeasureArgs) -> Result<()> {
    let (l1, l2) = a.caches.parse()?;
    let m = measure_file(&a.trace, &a.open, l1, l2)?;
    let mut t = Table::new([
        "level",
        "omp thread",
        "accesses",
        "hits",
        "misses",
        "hit %",
        "misses per 1000 refs",
    ])
    .titled(format!(
        "Exact LRU simulation of {} ({} threads; L1 {l1} private, L2 {l2} shared; rates per cache-line reference)",
        a.trace.display(),
        m.threads
    ));
    for i in m.threads_by_omp_number() {
        let s = &m.l1_per_thread[i];
        t.row([
            format!("L1 thread {i}"),
            m.omp_thread
                .get(i)
                .copied()
                .flatten()
                .map_or("-".to_string(), |o| o.to_string()),
            s.accesses.to_string(),
            s.hits.to_string(),
            s.misses().to_string(),
            pct(s.hit_rate()),
            mpka(s.misses(), s.accesses),
        ]);
    }
    let l1_hits: u64 = m.l1_per_thread.iter().map(|s| s.hits).sum();
    t.row([
        "L1 all".to_string(),
        "-".into(),
        m.references.to_string(),
        l1_hits.to_string(),
        (m.references - l1_hits).to_string(),
        pct(m.l1_hit),
        mpka(m.references - l1_hits, m.references),
    ]);
    t.row([
        "L2 (local)".to_string(),
        "-".into(),
        m.l2.accesses.to_string(),
        m.l2.hits.to_string(),
        m.l2.misses().to_string(),
        pct(m.l2_hit_local),
        mpka(m.l2.misses(), m.references),
    ]);
    t.row([
        "L2 (global)".to_string(),
        "-".into(),
        m.references.to_string(),
        (m.references - m.l2.misses()).to_string(),
        m.l2.misses().to_string(),
        pct(m.l2_hit_global),
        mpka(m.l2.misses(), m.references),
    ]);
    let mut p = Table::new(["profile", "model hit %"])
        .titled("Stack-distance model (eq. 5-7) on the real profiles");
    p.row(["L1 from real PRD".to_string(), pct(m.l1_hit_from_prd)]);
    p.row(["L2 from real CRD".to_string(), pct(m.l2_hit_from_crd)]);
    if let Some(dir) = &a.csv_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, table) in [("levels.csv", &t), ("profile_model.csv", &p)] {
            let path = dir.join(name);
            std::fs::write(&path, table.render_csv())
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    let json = MeasureJson {
        trace: a.trace.display().to_string(),
        l1: l1.to_string(),
        l2: l2.to_string(),
        m: &m,
    };
    match a.out.format() {
        // One CSV table per stream: the hit-rate table (the rest is in --csv-dir and --json).
        crate::output::Format::Csv => emit(a.out.format(), &json, &[t]),
        f => emit(f, &json, &[t, p]),
    }
}

/// Picks one rate.
type RateOf = fn(&HitRates) -> f64;
/// Picks one error.
type ErrorOf = fn(&Errors) -> f64;

/// Absolute errors of one model against the measured run.
#[derive(Serialize, Clone, Copy, Default)]
struct Errors {
    l1: f64,
    l2_global: f64,
    l2_local: f64,
}

impl Errors {
    fn of(p: &HitRates, m: &HitRates) -> Self {
        Errors {
            l1: (p.l1_hit - m.l1_hit).abs(),
            l2_global: (p.l2_hit_global - m.l2_hit_global).abs(),
            l2_local: (p.l2_hit_local - m.l2_hit_local).abs(),
        }
    }
}

/// One row of `validate`'s JSON.
#[derive(Serialize)]
struct ValidateRow {
    cores: usize,
    /// The model chosen by `--model`.
    predicted: PredictRow,
    exact: PredictRow,
    formula: PredictRow,
    measured: MeasuredRow,
    /// Errors of the chosen model (old keys).
    l1_abs_error: f64,
    l2_abs_error: f64,
    l2_local_abs_error: f64,
    errors: ErrorDecomposition,
}

/// Where the error comes from.
#[derive(Serialize, Clone, Copy, Default)]
struct ErrorDecomposition {
    /// Exact model: mimicked traces simulated exactly — the mimicking (Alg. 1-2) alone.
    exact: Errors,
    /// The formula as `predict --model formula` runs it (sampled profile of the mimicked trace).
    formula: Errors,
    /// The formula over the mimicked traces' exact profiles (no sampling).
    formula_mimicked_profile: Errors,
    /// The formula over the real run's own PRD/CRD: the formula's error alone.
    formula_real_profile: Errors,
}

#[derive(Serialize)]
struct MeasuredRow {
    trace: String,
    threads: usize,
    #[serde(flatten)]
    rates: HitRates,
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
    model: &'static str,
    rows: Vec<ValidateRow>,
    l1_mean_abs_error: f64,
    l2_mean_abs_error: f64,
    l2_local_mean_abs_error: f64,
    mean_errors: ErrorDecomposition,
}

fn mean_errors(rows: &[ValidateRow], f: impl Fn(&ErrorDecomposition) -> Errors) -> Errors {
    let n = rows.len().max(1) as f64;
    let mut e = Errors::default();
    for r in rows {
        let x = f(&r.errors);
        e.l1 += x.l1 / n;
        e.l2_global += x.l2_global / n;
        e.l2_local += x.l2_local / n;
    }
    e
}

fn run_validate(a: &ValidateArgs) -> Result<()> {
    let (l1, l2) = a.caches.parse()?;
    let cfg = a.model.config(l1, l2)?;
    let ecfg = a.model.exact_config(&[l1], &[l2])?;
    let mut reals = a.real.clone();
    reals.sort_by_key(|r| r.0);
    let seq = crate::tracefile::open(&a.seq, &a.open)?;
    let cores: Vec<usize> = reals.iter().map(|r| r.0).collect();
    check_cores(&cores)?;
    // Both models stream the sequential trace; their errors name the file.
    let formula = predict_many_trace(&seq, std::slice::from_ref(&cfg), &cores)?
        .pop()
        .expect("one configuration");
    let exact = rdsasmm::predict_exact_many_trace(&seq, &ecfg, &cores)?;
    let mut rows = Vec::new();
    for (((m, path), p), e) in reals.iter().zip(&formula).zip(&exact) {
        let meas = measure_file(path, &a.open, cfg.l1, cfg.l2)?;
        if meas.threads != *m {
            eprintln!(
                "rda-report: warning: {} has {} threads with accesses, labelled {m} cores",
                path.display(),
                meas.threads
            );
        }
        let mr = meas.rates();
        let f = PredictRow::formula(p, &cfg);
        let x = PredictRow::exact(e, 0);
        let errors = ErrorDecomposition {
            exact: Errors::of(&x.rates, &mr),
            formula: Errors::of(&f.rates, &mr),
            formula_mimicked_profile: Errors::of(
                &HitRates::from_global(p.l1.hit_exact_profile, p.l2.hit_exact_profile),
                &mr,
            ),
            formula_real_profile: Errors::of(
                &HitRates::from_global(meas.l1_hit_from_prd, meas.l2_hit_from_crd),
                &mr,
            ),
        };
        let chosen = match a.model.model {
            ModelArg::Exact => errors.exact,
            ModelArg::Formula => errors.formula,
        };
        let predicted = match a.model.model {
            ModelArg::Exact => PredictRow::exact(e, 0),
            ModelArg::Formula => PredictRow::formula(p, &cfg),
        };
        rows.push(ValidateRow {
            cores: *m,
            predicted,
            exact: x,
            formula: f,
            l1_abs_error: chosen.l1,
            l2_abs_error: chosen.l2_global,
            l2_local_abs_error: chosen.l2_local,
            errors,
            measured: MeasuredRow {
                trace: path.display().to_string(),
                threads: meas.threads,
                rates: mr,
                l2_local_hit: meas.l2_local_hit,
                l1_hit_from_prd: meas.l1_hit_from_prd,
                l2_hit_from_crd: meas.l2_hit_from_crd,
                references: meas.references,
            },
        });
    }
    let mean_all = ErrorDecomposition {
        exact: mean_errors(&rows, |e| e.exact),
        formula: mean_errors(&rows, |e| e.formula),
        formula_mimicked_profile: mean_errors(&rows, |e| e.formula_mimicked_profile),
        formula_real_profile: mean_errors(&rows, |e| e.formula_real_profile),
    };
    let chosen = match a.model.model {
        ModelArg::Exact => mean_all.exact,
        ModelArg::Formula => mean_all.formula,
    };
    let json = ValidateJson {
        seq: a.seq.display().to_string(),
        l1: cfg.l1.to_string(),
        l2: cfg.l2.to_string(),
        model: a.model.model.name(),
        l1_mean_abs_error: chosen.l1,
        l2_mean_abs_error: chosen.l2_global,
        l2_local_mean_abs_error: chosen.l2_local,
        mean_errors: mean_all,
        rows,
    };
    let mut t = Table::new([
        "cores",
        "level",
        "measured %",
        "exact %",
        "exact err (pp)",
        "formula %",
        "formula err (pp)",
        "formula on real profile %",
        "its err (pp)",
    ])
    .titled(format!(
        "SASMM vs exact simulation of the real runs (L1 {} private, L2 {} shared; seq trace {}; rates per cache-line reference)",
        cfg.l1,
        cfg.l2,
        a.seq.display()
    ));
    for r in &json.rows {
        let real_profile =
            HitRates::from_global(r.measured.l1_hit_from_prd, r.measured.l2_hit_from_crd);
        let levels: [(&str, RateOf); 3] = [
            ("L1", |h| h.l1_hit),
            ("L2 global", |h| h.l2_hit_global),
            ("L2 local", |h| h.l2_hit_local),
        ];
        for (name, get) in levels {
            let meas = get(&r.measured.rates);
            t.row([
                r.cores.to_string(),
                name.into(),
                pct(meas),
                pct(get(&r.exact.rates)),
                pct((get(&r.exact.rates) - meas).abs()),
                pct(get(&r.formula.rates)),
                pct((get(&r.formula.rates) - meas).abs()),
                pct(get(&real_profile)),
                pct((get(&real_profile) - meas).abs()),
            ]);
        }
    }
    let mut s = Table::new([
        "level",
        "exact model",
        "formula (sampled)",
        "formula, mimicked exact profile",
        "formula, real profile",
    ])
    .titled(
        "Mean absolute error (pp) over core counts. Decomposition: the exact model's error is the \
         mimicking (Alg. 1-2) alone; the formula on the real run's own profile is the formula's \
         error alone",
    );
    let e = &json.mean_errors;
    let levels: [(&str, ErrorOf); 3] = [
        ("L1", |x| x.l1),
        ("L2 global", |x| x.l2_global),
        ("L2 local", |x| x.l2_local),
    ];
    for (name, get) in levels {
        s.row([
            name.to_string(),
            pct(get(&e.exact)),
            pct(get(&e.formula)),
            pct(get(&e.formula_mimicked_profile)),
            pct(get(&e.formula_real_profile)),
        ]);
    }
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
                series("L1 exact model", true, &|r| r.exact.rates.l1_hit),
                series("L1 formula", true, &|r| r.formula.rates.l1_hit),
                series("L1 measured", false, &|r| r.measured.rates.l1_hit),
                series("L2 exact model", true, &|r| r.exact.rates.l2_hit_global),
                series("L2 formula", true, &|r| r.formula.rates.l2_hit_global),
                series("L2 measured", false, &|r| r.measured.rates.l2_hit_global),
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
