//! The page's SASMM section: predicted against simulated miss ratios.

use super::args::HtmlArgs;
use crate::html;
use crate::output::Table;
use crate::plot::{self, Series};
use anyhow::{Context, Result};

pub(super) fn sasmm(args: &HtmlArgs, seq: &std::path::Path) -> Result<String> {
    use rdsasmm::{measure, predict_exact_many_trace, ExactConfig, MeasureConfig};
    // The exact model (the default of `predict`): set-aware LRU over the mimicked traces.
    let cfg = ExactConfig {
        l1: vec![args.caches.l1],
        l2: vec![args.caches.l2],
        limits: crate::commands::sasmm::stream_limits()?,
        ..ExactConfig::default()
    };
    let seq_trace = crate::tracefile::open(seq, &args.open)?;
    let mut reals = args.real.clone();
    reals.sort_by_key(|r| r.0);
    let cores: Vec<usize> = reals.iter().map(|r| r.0).collect();
    // Streamed: one pass over the file for all core counts, never the whole trace in memory.
    let preds = predict_exact_many_trace(&seq_trace, &cfg, &cores)
        .with_context(|| format!("reading {}", seq.display()))?;
    let mut t = Table::new([
        "cores",
        "L1 hit % predicted",
        "L1 hit % measured",
        "L2 hit % predicted (global)",
        "L2 hit % measured (global)",
        "real trace",
    ])
    .titled(format!(
        "SASMM prediction from {} vs exact simulation of real runs",
        seq.display()
    ));
    let mut s_pred = (Vec::new(), Vec::new());
    let mut s_meas = (Vec::new(), Vec::new());
    for ((m, path), p) in reals.iter().zip(&preds) {
        let p = &p.hierarchies[0].rates;
        let tr = crate::tracefile::open(path, &args.open)?;
        let meas = measure(
            &tr,
            MeasureConfig {
                l1: args.caches.l1,
                l2: args.caches.l2,
            },
        )
        .with_context(|| format!("measuring {}", path.display()))?;
        t.row([
            m.to_string(),
            format!("{:.2}", 100.0 * p.l1_hit),
            format!("{:.2}", 100.0 * meas.l1_hit),
            format!("{:.2}", 100.0 * p.l2_hit_global),
            format!("{:.2}", 100.0 * meas.l2_hit),
            path.display().to_string(),
        ]);
        let x = *m as f64;
        s_pred.0.push((x, 100.0 * p.l1_hit));
        s_pred.1.push((x, 100.0 * p.l2_hit_global));
        s_meas.0.push((x, 100.0 * meas.l1_hit));
        s_meas.1.push((x, 100.0 * meas.l2_hit));
    }
    let series = vec![
        Series {
            name: "L1 measured".into(),
            points: s_meas.0,
            dashed: false,
        },
        Series {
            name: "L1 predicted".into(),
            points: s_pred.0,
            dashed: true,
        },
        Series {
            name: "L2 measured".into(),
            points: s_meas.1,
            dashed: false,
        },
        Series {
            name: "L2 predicted".into(),
            points: s_pred.1,
            dashed: true,
        },
    ];
    let chart = plot::line_chart(
        "Hit rate vs cores (SASMM: dashed predicted, solid measured)",
        "cores",
        "hit rate (%)",
        &series,
        Some(100.0),
    );
    let mut s = html::note(&format!(
        "Predicted: the SASMM model's exact variant (mimicked private traces and interleaved \
         shared trace from the sequential run, simulated with set-aware LRU stack distances; \
         `rda-report predict --model formula` gives the paper's eq. 5-7 instead). Measured: the exact LRU \
         simulator on each real run (private L1 {} per thread, shared L2 {}). L2 rates are global: \
         1 - L2 misses / references.",
        args.caches.l1, args.caches.l2
    ));
    s.push_str(&html::plots(&[chart], false));
    s.push_str(&html::table(&t, true));
    Ok(s)
}
