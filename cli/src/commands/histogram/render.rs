//! Printing a histogram report (tables, CSV, JSON, SVG), shared by `histogram` and `live`.

use super::args::{HistogramArgs, TableStyle};
use super::engine::EngineChoice;
use super::json::{HistogramJson, Output};
use crate::output::{percent, Format, OutputArgs, Table};
use anyhow::Result;
use rdengines::{Histogram, SampleStats};
use std::path::Path;

/// The log2 table of a histogram.
pub fn log2_table(title: &str, h: &Histogram) -> Table {
    let total = h.total();
    let mut t = Table::new(["distance", "references", "%", "cumulative %"]).titled(title);
    let mut cum = 0;
    for (lo, hi, n) in h.log2_bins() {
        cum += n;
        let label = if hi - lo <= 1 {
            lo.to_string()
        } else {
            format!("{lo}-{}", hi - 1)
        };
        t.row([label, n.to_string(), percent(n, total), percent(cum, total)]);
    }
    if h.overflow > 0 {
        cum += h.overflow;
        t.row([
            format!(">={}", h.bound.unwrap_or(0)),
            h.overflow.to_string(),
            percent(h.overflow, total),
            percent(cum, total),
        ]);
    }
    cum += h.cold;
    t.row([
        "inf (cold)".to_string(),
        h.cold.to_string(),
        percent(h.cold, total),
        percent(cum, total),
    ]);
    t.row([
        "total".to_string(),
        total.to_string(),
        String::new(),
        String::new(),
    ]);
    t
}

/// PARDA's table layout: one row per exact distance, then overflow and infinity.
pub fn parda_table(h: &Histogram) -> Table {
    let total = h.total();
    let mut t = Table::new(["Dist", "Refs", "Refs(%)", "Cum_Ref", "Cum_Ref(%)"]);
    let mut cum = 0;
    for (&d, &n) in &h.counts {
        cum += n;
        t.row([
            d.to_string(),
            n.to_string(),
            percent(n, total),
            cum.to_string(),
            percent(cum, total),
        ]);
    }
    if h.overflow > 0 {
        cum += h.overflow;
        t.row([
            "#OVFL".to_string(),
            h.overflow.to_string(),
            percent(h.overflow, total),
            cum.to_string(),
            percent(cum, total),
        ]);
    }
    cum += h.cold;
    t.row([
        "#INF".to_string(),
        h.cold.to_string(),
        percent(h.cold, total),
        cum.to_string(),
        percent(cum, total),
    ]);
    t
}

/// How a histogram report is printed: what `histogram` and `live` share, so both print the
/// same report for the same run.
pub struct HistogramReport<'a> {
    /// The engine that computed the histograms.
    pub engine: EngineChoice,
    /// Block size in bytes.
    pub line: u32,
    /// The engine's bound, if any.
    pub bound: Option<u64>,
    /// Whether `all` is the sum of per-thread histograms (else the merged order's).
    pub per_thread: bool,
    /// Table layout.
    pub style: TableStyle,
    /// Where to write the SVG chart, if anywhere.
    pub plot: Option<&'a Path>,
    /// Output format and destination.
    pub out: &'a OutputArgs,
    /// What SHARDS sampling did, when the histograms are sampled.
    pub sampling: Option<SampleStats>,
}

impl<'a> HistogramReport<'a> {
    /// The report `histogram` prints for its flags `args`, computed by `engine`.
    pub fn of(
        args: &'a HistogramArgs,
        engine: EngineChoice,
        sampling: Option<SampleStats>,
    ) -> Self {
        HistogramReport {
            engine,
            line: args.line,
            bound: args.bound,
            per_thread: args.per_thread,
            style: args.format,
            plot: args.plot.as_deref(),
            out: &args.out,
            sampling,
        }
    }
}

/// Prints the histogram report: tables, CSV or JSON, and the optional plot.
pub fn emit_report(
    r: &HistogramReport<'_>,
    all: &Histogram,
    per_thread: &[(u32, Histogram)],
) -> Result<()> {
    let kind = r.engine;
    let output = Output {
        engine: kind.to_string(),
        exact: all.exact,
        sampled: r.sampling.is_some(),
        sampling: r.sampling.clone(),
        line: r.line,
        bound: r.bound,
        all: HistogramJson::new(None, all),
        threads: per_thread
            .iter()
            .map(|(t, h)| HistogramJson::new(Some(*t), h))
            .collect(),
    };
    let mut tables = Vec::new();
    match r.style {
        TableStyle::Parda => tables.push(parda_table(all)),
        TableStyle::Log2 => {
            let what = if r.per_thread {
                "sum of per-thread histograms"
            } else {
                "all threads, merged order"
            };
            let sampled = match &r.sampling {
                Some(s) => format!(
                    ", SHARDS sample at R={} scaled to the full trace ({} of {} references)",
                    s.final_rate, s.sampled_references, s.references
                ),
                None => String::new(),
            };
            tables.push(log2_table(
                &format!(
                    "Reuse distances in {}-byte blocks ({what}), engine {kind}{sampled}",
                    r.line
                ),
                all,
            ));
            for (t, h) in per_thread {
                tables.push(log2_table(&format!("Thread {t}"), h));
            }
        }
    }
    if let Some(p) = r.plot {
        let bins = all.log2_bins();
        let mut labels: Vec<String> = bins
            .iter()
            .map(|&(lo, hi, _)| {
                if hi - lo <= 1 {
                    lo.to_string()
                } else {
                    format!("{lo}-{}", hi - 1)
                }
            })
            .collect();
        let mut values: Vec<f64> = bins.iter().map(|b| b.2 as f64).collect();
        labels.push("cold".into());
        values.push(all.cold as f64);
        let svg = crate::plot::bar_chart(
            &format!("Reuse-distance histogram ({} B blocks, {kind})", r.line),
            "reuse distance (distinct blocks)",
            "references",
            &labels,
            &values,
        );
        crate::plot::write_svg(p, &svg)?;
    }
    if r.out.format() == Format::Table && r.sampling.is_some() && !all.exact {
        eprintln!("rda-report: note: the histogram is estimated from a SHARDS sample");
    } else if r.out.format() == Format::Table && !all.exact {
        eprintln!("rda-report: note: engine {kind} is approximate");
    }
    r.out.emit(&output, &tables)
}
