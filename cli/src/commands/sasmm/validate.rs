//! `validate`: measured, exact model and formula side by side, with errors and a plot.

use super::args::{ModelArg, ValidateArgs};
use super::json::{
    CoherenceCounts, CoherenceValidation, ErrorDecomposition, Errors, L3Validation, MeasuredRow,
    PredictRow, ValidateJson, ValidateRow,
};
use super::measure_run::measure_file;
use super::predict::check_cores;
use super::predict_tables::pct;
use crate::exit::usage;
use crate::output::Table;
use anyhow::Result;
use rdsasmm::predict_both_many_trace;
use rdsasmm::HitRates;

/// Picks one rate.
type RateOf = fn(&HitRates) -> f64;
/// Picks one error.
type ErrorOf = fn(&Errors) -> f64;

pub(super) fn mean_errors(
    rows: &[ValidateRow],
    f: impl Fn(&ErrorDecomposition) -> Errors,
) -> Errors {
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

/// `measure --l3`'s simulation of the real run `path`: private L1 and L2 per thread, the shared
/// L3 `l3` ([`measure_file`] with two levels).
fn measure_three_levels(
    path: &std::path::Path,
    open: &crate::tracefile::OpenArgs,
    l1: rdcachesim::CacheConfig,
    l2: rdcachesim::CacheConfig,
    l3: rdcachesim::CacheConfig,
) -> Result<rdsasmm::Measurement> {
    use anyhow::Context;
    let trace = crate::tracefile::open(path, open)?;
    let config = rdsasmm::MeasureConfig { l1, l2 };
    rdsasmm::measure_with(&trace, config, rdsasmm::MeasureOptions { l3: Some(l3) })
        .with_context(|| format!("measuring {}", path.display()))
}

pub(super) fn run_validate(a: &ValidateArgs) -> Result<()> {
    let (l1, l2) = a.caches.parse()?;
    if a.l3.is_some() {
        if a.model.model == ModelArg::Formula {
            return Err(usage(
                "--l3 (three levels) validates the exact model; the formula has one shared level",
            ));
        }
        if l2.line != l1.line {
            return Err(usage(format!(
                "with --l3 the L2 is private and must have the L1's line size ({} bytes, not {})",
                l1.line, l2.line
            )));
        }
    }
    if a.model.set_sample_rate.is_some() {
        return Err(usage(
            "validate measures the models' own error; --set-sample-rate is for predict and live --predict",
        ));
    }
    super::predict::check_spill_env()?;
    let cfg = a.model.config(l1, l2)?;
    let ecfg = a.model.exact_config(&[l1], &[l2], a.l3)?;
    let mut reals = a.real.clone();
    reals.sort_by_key(|r| r.0);
    let labels: Vec<u16> = reals.iter().map(|r| r.0 as u16).collect();
    let caches = super::MultiCacheArgs {
        l1: vec![l1],
        l2: vec![l2],
        l3: a.l3,
        machine: None,
    };
    super::predict::check_simulated_lines(&labels, &caches)?;
    crate::tracefile::require_files(
        std::iter::once(a.seq.as_path()).chain(reals.iter().map(|r| r.1.as_path())),
        "validate streams the sequential trace file through both models and reads each real run's file beside them",
    )?;
    let seq = crate::tracefile::open(&a.seq, &a.open)?;
    let cores: Vec<usize> = reals.iter().map(|r| r.0).collect();
    check_cores(&cores)?;
    // Both models stream the sequential trace (their errors name the file; the exact model
    // beside the formula model's pass) while the real runs are measured beside them,
    // each a pass over its own file; errors in that order.
    let (formula, measured) = std::thread::scope(|s| {
        let measuring = s.spawn(|| {
            reals
                .iter()
                .map(|(_, path)| match a.l3 {
                    None => measure_file(path, &a.open, cfg.l1, cfg.l2),
                    Some(l3) => measure_three_levels(path, &a.open, cfg.l1, cfg.l2, l3),
                })
                .collect::<Result<Vec<_>>>()
        });
        let models = predict_both_many_trace(&seq, std::slice::from_ref(&cfg), &ecfg, &cores);
        let measured = measuring
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (models, measured)
    });
    let (mut formula, exact) = formula?;
    let formula = formula.pop().expect("one configuration");
    let measured = measured?;
    let mut rows = Vec::new();
    for ((((m, path), p), e), meas) in reals.iter().zip(&formula).zip(&exact).zip(measured) {
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
        // Coherence: the exact model's L1 coherence misses against the measured run's (the
        // formula has none, whatever --model says).
        let coherence = CoherenceValidation::of(
            CoherenceCounts::of(&meas.levels[0].counts.misses, meas.references),
            x.l1_coherence.unwrap_or_default(),
        );
        let l3 = match (meas.l3_hit_global, meas.l3_hit_local, x.l3) {
            (Some(g), Some(l), Some(e)) => {
                Some(L3Validation::of((g, l), (e.l3_hit_global, e.l3_hit_local)))
            }
            _ => None,
        };
        rows.push(ValidateRow {
            l3,
            cores: *m,
            predicted,
            exact: x,
            formula: f,
            l1_abs_error: chosen.l1,
            l2_abs_error: chosen.l2_global,
            l2_local_abs_error: chosen.l2_local,
            errors,
            coherence,
            measured: MeasuredRow {
                trace: path.display().to_string(),
                threads: meas.threads,
                rates: mr,
                l2_local_hit: meas.l2_local_hit,
                l1_hit_from_prd: meas.l1_hit_from_prd,
                l2_hit_from_crd: meas.l2_hit_from_crd,
                references: meas.references,
                per_thread: meas.per_thread.clone(),
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
        l3: a.l3.map(|c| c.to_string()),
        model: a.model.model.name(),
        l1_mean_abs_error: chosen.l1,
        l2_mean_abs_error: chosen.l2_global,
        l2_local_mean_abs_error: chosen.l2_local,
        mean_errors: mean_all,
        coherence_mean_abs_error_per_1000: rows
            .iter()
            .map(|r| r.coherence.abs_error_per_1000)
            .sum::<f64>()
            / rows.len().max(1) as f64,
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
        "SASMM vs exact simulation of the real runs (L1 {} private, {}; seq trace {}; rates per cache-line reference)",
        cfg.l1,
        match a.l3 {
            None => format!("L2 {} shared", cfg.l2),
            Some(l3) => format!(
                "L2 {} private, L3 {l3} shared; the formula's L2 is shared, not the private L2 measured",
                cfg.l2
            ),
        },
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
        // Three levels: the L3, measured against the exact model (the formula has none).
        if let Some(v) = &r.l3 {
            let rates = [
                ("L3 global", v.measured_global, v.exact_global),
                ("L3 local", v.measured_local, v.exact_local),
            ];
            for (name, meas, exact) in rates {
                let none = || "-".to_string();
                t.row([
                    r.cores.to_string(),
                    name.into(),
                    pct(meas),
                    pct(exact),
                    pct((exact - meas).abs()),
                    none(),
                    none(),
                    none(),
                    none(),
                ]);
            }
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
    // Model core c runs what OpenMP thread c runs (static chunk c), so each core is set beside
    // the real thread of that number.
    let mut per_core = Table::new([
        "cores",
        "core",
        "measured L1 hit %",
        "exact %",
        "exact err (pp)",
        "formula %",
        "formula err (pp)",
    ])
    .titled("Per core: L1 hit rate of model core c and of the real run's OpenMP thread c");
    for r in &json.rows {
        for (c, x) in r.exact.per_core.iter().enumerate() {
            let measured = r
                .measured
                .per_thread
                .iter()
                .find(|t| t.omp_thread == Some(c as u32))
                .map(|t| t.rates.rates.l1_hit);
            let exact = x.l1().1;
            let formula = r.formula.per_core.get(c).map(|f| f.l1().1);
            let err = |model: Option<f64>| match (model, measured) {
                (Some(p), Some(m)) => pct((p - m).abs()),
                _ => "-".to_string(),
            };
            per_core.row([
                r.cores.to_string(),
                c.to_string(),
                measured.map_or("-".to_string(), pct),
                pct(exact),
                err(Some(exact)),
                formula.map_or("-".to_string(), pct),
                err(formula),
            ]);
        }
    }
    let mut coh = Table::new([
        "cores",
        "measured coherence",
        "(true / false)",
        "per 1000 refs",
        "exact model",
        "(true / false)",
        "per 1000 refs",
        "abs err per 1000",
        "rel err %",
    ])
    .titled(if a.model.no_coherence {
        "L1 coherence misses, measured vs exact model (--no-coherence: the model predicts none)"
    } else {
        "L1 coherence misses, measured (the real run's interleaving) vs exact model (write-invalidate on the mimicked, \
         finely interleaved trace; the formula has none)"
    });
    for r in &json.rows {
        let (m, p) = (&r.coherence.measured, &r.coherence.predicted);
        coh.row([
            r.cores.to_string(),
            m.coherence.to_string(),
            format!("{} / {}", m.true_sharing, m.false_sharing),
            format!("{:.2}", m.coherence_per_1000),
            p.coherence.to_string(),
            format!("{} / {}", p.true_sharing, p.false_sharing),
            format!("{:.2}", p.coherence_per_1000),
            format!("{:.2}", r.coherence.abs_error_per_1000),
            r.coherence
                .rel_error
                .map_or("-".to_string(), |e| format!("{:.1}", 100.0 * e)),
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
    a.out.emit(&json, &[t, per_core, s, coh])
}
