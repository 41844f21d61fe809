//! `predict`: hit rates for several core counts from one sequential trace (also `live --predict`).

use super::args::{stream_limits, ModelArg, ModelArgs, MultiCacheArgs, PredictArgs};
use super::json::{MrcRow, PredictRow, PredictWithMrc};
use super::predict_tables::{coherence_tables, l3_table, pct};
use crate::exit::usage;
use crate::output::Table;
use anyhow::{bail, Result};
use rdcachesim::CacheConfig;
use rdsasmm::exact::default_mrc_sizes;
use rdsasmm::{predict_many_trace, ExactConfig, ExactPrediction, Prediction, SasmmConfig};

/// Where `predict` reads the sequential run from.
pub enum SeqSource<'a> {
    /// An open trace file: both models stream it (the exact model in one pass for every core
    /// count, memory bounded by the caches and the spill threshold of a parallel section; the
    /// formula model in one pass for every core count and cache pair, memory bounded by the
    /// footprint and the sample).
    File(&'a rdtrace::Trace),
    /// The exact model's predictions, already computed in one pass over a stream (`live
    /// --predict`) with [`exact_config_for`]'s configuration.
    Exact(Vec<ExactPrediction>),
    /// The formula model's predictions, already computed in one pass over a stream with
    /// [`formula_configs`]' configurations: by configuration, then core count.
    Formula(Vec<Vec<Prediction>>),
}

pub(super) fn check_cores(cores: &[usize]) -> Result<()> {
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
        SeqSource::Formula(_) => bail!("the formula model's predictions are not the exact model's"),
    }
}

/// The formula model's configurations `predict` uses for these flags: one per L1 and L2 pair,
/// L1s first.
pub fn formula_configs(model: &ModelArgs, caches: &MultiCacheArgs) -> Result<Vec<SasmmConfig>> {
    let mut configs = Vec::new();
    for l1 in &caches.l1 {
        for l2 in &caches.l2 {
            configs.push(model.config(*l1, *l2)?);
        }
    }
    Ok(configs)
}

/// The model `predict` streams a run through with these flags.
pub fn stream_model_for(
    model: &ModelArgs,
    caches: &MultiCacheArgs,
    with_mrc: bool,
) -> Result<StreamModel> {
    Ok(match model.model {
        ModelArg::Exact => StreamModel::Exact(exact_config_for(model, caches, with_mrc)?),
        ModelArg::Formula => {
            check_predict_flags(model, caches)?;
            StreamModel::Formula(formula_configs(model, caches)?)
        }
    })
}

/// The exact model's configuration `predict` uses for these flags (with the miss-ratio curve's
/// sizes when `with_mrc`).
pub fn exact_config_for(
    model: &ModelArgs,
    caches: &MultiCacheArgs,
    with_mrc: bool,
) -> Result<ExactConfig> {
    check_predict_flags(model, caches)?;
    let mut cfg = model.exact_config(&caches.l1, &caches.l2, caches.l3)?;
    if with_mrc {
        // The curve's shared caches are the shared level's: the L3 when there is one.
        cfg.mrc = default_mrc_sizes(caches.l3.as_slice().get(..1).unwrap_or(&caches.l2));
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
                private_set_sample_rate: None,
                shared_set_sample_rate: None,
            })
        })
        .collect()
}

/// Most cache lines the exact model simulates at once over all core counts (each core count's
/// private L1s and shared L2s; its passes may run at the same time): 2^27 lines, about 1 GiB of
/// state.
pub const MAX_SIMULATED_LINES: u64 = 1 << 27;

/// Checks that `--cores` and the caches need at most [`MAX_SIMULATED_LINES`] simulated lines
/// (a usage error otherwise: every core of every core count has its own L1s).
pub fn check_simulated_lines(cores: &[u16], caches: &MultiCacheArgs) -> Result<()> {
    let mut l1: u64 = caches.l1.iter().map(|c| c.lines()).sum();
    let mut l2: u64 = caches.l2.iter().map(|c| c.lines()).sum();
    if let Some(l3) = caches.l3 {
        // Three levels: every core has the L2 too; the L3 is the shared level.
        l1 += l2;
        l2 = l3.lines();
    }
    let total: u64 = cores
        .iter()
        .map(|&m| (m as u64).saturating_mul(l1).saturating_add(l2))
        .fold(0u64, u64::saturating_add);
    if total > MAX_SIMULATED_LINES {
        return Err(usage(format!(
            "--cores and --l1/--l2 would simulate {total} cache lines at once (each core count's \
             cores each have every L1); at most {MAX_SIMULATED_LINES}: ask for fewer or smaller caches"
        )));
    }
    Ok(())
}

pub(super) fn run_predict(a: &PredictArgs) -> Result<()> {
    let caches = a.caches.resolved()?;
    check_predict_flags(&a.model, &caches)?;
    check_simulated_lines(&a.cores, &caches)?;
    let title = a.trace.display().to_string();
    let emit = |seq: &SeqSource<'_>| {
        emit_predictions(&title, seq, &a.model, &caches, &a.cores, a.mrc, &a.out)
    };
    if crate::tracefile::is_stream(&a.trace) {
        // Either model streams the run, one pass for every core count at once.
        let crate::tracefile::Input::Stream(mut s) =
            crate::tracefile::open_input(&a.trace, &a.open)?
        else {
            unreachable!("a stream opens as a stream");
        };
        let model = stream_model_for(&a.model, &caches, a.mrc)?;
        let streamed = stream_sequential(&mut s.live, &a.trace, &model, &a.cores)?;
        crate::tracefile::Input::Stream(s).finish()?;
        return emit(&streamed);
    }
    let trace = crate::tracefile::open(&a.trace, &a.open)?;
    emit(&SeqSource::File(&trace))
}

/// Checks `RDTOOLS_SPILL_ACCESSES` (the models' spill threshold) before any trace is read: a
/// value that is not a number is a usage error.
pub fn check_spill_env() -> Result<()> {
    stream_limits().map(|_| ())
}

/// Checks `predict`'s model and cache flags and the spill threshold before any trace is read
/// (usage errors).
pub fn check_predict_flags(model: &ModelArgs, caches: &MultiCacheArgs) -> Result<()> {
    check_spill_env()?;
    let (l1s, l2s) = (&caches.l1, &caches.l2);
    if l1s.is_empty() || l2s.is_empty() {
        return Err(usage("--l1 and --l2 need at least one cache each"));
    }
    if caches.l3.is_some() {
        if model.model != ModelArg::Exact {
            return Err(usage(
                "--l3 (three levels) needs the exact model; the formula has one shared level",
            ));
        }
        if l1s.len() != 1 || l2s.len() != 1 {
            return Err(usage("with --l3 give one --l1 and one (private) --l2"));
        }
        if l2s[0].line != l1s[0].line {
            return Err(usage(format!(
                "with --l3 the L2 is private and must have the L1's line size ({} bytes, not {})",
                l1s[0].line, l2s[0].line
            )));
        }
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
    out: &crate::output::OutputArgs,
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
                    private_set_sample_rate: pt.private_sample_rate,
                    shared_set_sample_rate: pt.shared_sample_rate,
                }));
            }
        }
        ModelArg::Formula => {
            check_cores(&cores)?;
            let configs = formula_configs(model, caches)?;
            let by_pair = match seq {
                SeqSource::File(trace) => predict_many_trace(trace, &configs, &cores)?,
                SeqSource::Formula(by_pair) => by_pair.clone(),
                SeqSource::Exact(_) => bail!("the exact model's predictions are not the formula's"),
            };
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
    // Set sampling is stated where the numbers are: in each title, and per row in the JSON.
    let sampled = |rates: &mut dyn Iterator<Item = Option<f64>>| {
        let mut rates: Vec<f64> = rates.flatten().collect();
        rates.sort_by(f64::total_cmp);
        rates.dedup();
        match rates.as_slice() {
            [] => String::new(),
            [r] => format!(
                " [set-sampled: {} % of the sets simulated, references scaled; approximate]",
                pct(*r)
            ),
            [lo, .., hi] => format!(
                " [set-sampled: {} % to {} % of the sets simulated, references scaled; approximate]",
                pct(*lo),
                pct(*hi)
            ),
        }
    };
    let rows_sampled = sampled(&mut rows.iter().map(|r| r.set_sample_rate));
    let mrc_sampled = sampled(
        &mut mrc
            .iter()
            .flat_map(|r| [r.private_set_sample_rate, r.shared_set_sample_rate]),
    );
    let three = caches.l3.is_some();
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
        "SASMM prediction ({} model) from {} ({}; rates per cache-line reference, MPKA = misses per 1000 references){}",
        model.model.name(),
        source,
        if three {
            "private L1 and L2, shared L3 below"
        } else {
            "private L1, shared L2"
        },
        rows_sampled,
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
    let mut per_core = Table::new([
        "cores",
        "L1",
        "L2",
        "core",
        "references",
        "L1 hit %",
        "L1 MPKA",
        "L2 hit % (local, of its L1 misses)",
    ])
    .titled(match model.model {
        ModelArg::Exact if three => "Per core: each core's private L1, and the lookups of its private L2 its L1 misses cause (its L3 accesses: below)",
        ModelArg::Exact => "Per core: each core's private L1, and the shared-L2 accesses its L1 misses cause",
        ModelArg::Formula => "Per core: eq. 7 on each core's exact PRD (weighted by references: the exact-profile rate; no per-core L2 in the formula)",
    });
    for r in &rows {
        for c in &r.per_core {
            let (core, l1_hit, references) = c.l1();
            per_core.row([
                r.cores.to_string(),
                r.l1_cache.clone(),
                r.l2_cache.clone(),
                core.to_string(),
                references.to_string(),
                pct(l1_hit),
                format!("{:.2}", 1000.0 * (1.0 - l1_hit)),
                c.l2_local().map_or("-".to_string(), pct),
            ]);
        }
    }
    let mut tables = vec![t, per_core];
    if three {
        tables.push(l3_table(&rows));
    }
    match model.model {
        ModelArg::Exact => tables.extend(coherence_tables(&rows, model)),
        // One core has no coherence to miss: say so only where the exact model would count.
        ModelArg::Formula if rows.iter().any(|r| r.cores > 1) => {
            eprintln!("rda-report: note: {FORMULA_COHERENCE}")
        }
        ModelArg::Formula => {}
    }
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
            "Miss-ratio curve ({} model): private caches over each core's trace, one shared cache over the interleaved trace{}",
            model.model.name(),
            mrc_sampled,
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
        return out.emit(&json, &tables);
    }
    out.emit(&rows, &tables)
}

/// What `predict --model formula` says of coherence (also in `--help`).
pub const FORMULA_COHERENCE: &str = "the formula model (eq. 5-7) predicts no coherence misses \
(its reuse profiles do not say which core wrote a line last); --model exact (the default) \
estimates them";

/// The events of a sequential run, pulled chunk by chunk from a stream (every thread's, as
/// they arrive; the threads seen are counted).
struct ThreadEvents<'a, 'b> {
    live: &'a mut rdtrace::LiveTrace<'b>,
    buf: Vec<rdtrace::Event>,
    pos: usize,
    threads: std::collections::BTreeSet<u32>,
    error: Option<rdtrace::TraceError>,
    /// Modules registered when the metadata was taken.
    modules: usize,
}

impl Iterator for ThreadEvents<'_, '_> {
    type Item = rdtrace::Event;

    fn next(&mut self) -> Option<rdtrace::Event> {
        loop {
            if let Some(&e) = self.buf.get(self.pos) {
                self.pos += 1;
                return Some(e);
            }
            self.pos = 0;
            match self.live.next_thread_chunk(&mut self.buf) {
                Ok(Some(_)) if self.live.meta.modules.len() != self.modules => {
                    self.error = Some(crate::tracefile::late_module());
                    return None;
                }
                Ok(Some(t)) => {
                    self.threads.insert(t);
                }
                Ok(None) => return None,
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            }
        }
    }
}

/// The model a stream is run through ([`stream_sequential`]).
pub enum StreamModel {
    /// The exact model with this configuration (one [`rdsasmm::ExactRun`] per core count).
    Exact(ExactConfig),
    /// The formula model with these configurations ([`rdsasmm::FormulaRuns`]).
    Formula(Vec<SasmmConfig>),
}

/// One pass over a sequential run read from a stream (`predict` on a stream, `live
/// --predict`): `model`'s predictions for every core count of `cores`, made as the chunks
/// arrive (the runs fed the fragments). Fails, naming the trace `name`, when more than one
/// thread produced events or there is no access. The metadata is taken once the first events
/// chunk is here (the runtime writes every module before any event).
pub fn stream_sequential(
    live: &mut rdtrace::LiveTrace<'_>,
    name: &std::path::Path,
    model: &StreamModel,
    cores: &[u16],
) -> Result<SeqSource<'static>> {
    while !live.is_finished() && live.stats().event_chunks == 0 {
        live.read_chunk()?;
    }
    let meta = live.meta.clone();
    let mut events = ThreadEvents {
        live,
        buf: Vec::new(),
        pos: 0,
        threads: Default::default(),
        error: None,
        modules: meta.modules.len(),
    };
    let cores: Vec<usize> = cores.iter().map(|&m| m as usize).collect();
    let (accesses, predictions) = match model {
        StreamModel::Exact(cfg) => {
            // Which accesses write (for coherence), as the file path reads it.
            let writes = rdsasmm::write_table(&meta);
            let mut runs = cores
                .iter()
                .map(|&m| Ok(rdsasmm::ExactRun::new(cfg, m)?.with_writes(writes.clone())))
                .collect::<rdsasmm::Result<Vec<_>>>()?;
            let n = rdsasmm::SequentialTrace::stream_events(
                &meta,
                &mut events,
                cfg.limits,
                &mut |fragment| rdsasmm::exact::feed_all(&mut runs, fragment),
            );
            let preds = runs.into_iter().map(rdsasmm::ExactRun::finish).collect();
            (n, SeqSource::Exact(preds))
        }
        StreamModel::Formula(configs) => {
            let blocks = rdsasmm::SequentialTrace::block_ids(&meta);
            let mut runs = rdsasmm::FormulaRuns::new(configs, &cores, blocks)?;
            let limits = configs.first().map_or_else(Default::default, |c| c.limits);
            let n = rdsasmm::SequentialTrace::stream_events(
                &meta,
                &mut events,
                limits,
                &mut |fragment| runs.feed(fragment),
            );
            (n, SeqSource::Formula(runs.finish()))
        }
    };
    if let Some(e) = events.error {
        return Err(e.into());
    }
    if events.threads.len() > 1 {
        return Err(rdsasmm::SasmmError::NotSequential {
            path: name.to_path_buf(),
            threads: events.threads.len(),
        }
        .into());
    }
    if accesses? == 0 {
        return Err(rdsasmm::SasmmError::Empty {
            path: name.to_path_buf(),
        }
        .into());
    }
    Ok(predictions)
}
