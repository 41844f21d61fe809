//! The page's SIMT section: reuse degree of the worksharing loops as GPU kernels.

use super::args::HtmlArgs;
use super::MAX_SIMT_POINTS;
use crate::html;
use crate::output::Table;
use crate::plot::{self, Series};
use anyhow::{Context, Result};

pub(super) fn simt(trace: &rdtrace::Trace, args: &HtmlArgs, scenario: u8) -> Result<String> {
    use rdsimt::openmp::{for_each_launch, MiScope, SimtConfig};
    use rdsimt::{run_scenario, DsHistogram, Granularity, Scenario, ScenarioConfig};
    let sc = Scenario::from_number(scenario).expect("clap checks the range");
    let simt = SimtConfig {
        block_size: args.simt_block as usize,
        warp_size: 32,
        mi_scope: MiScope::Block,
        granularity: Granularity::Element,
        include_private: false,
    };
    let config = ScenarioConfig {
        scenario: sc,
        max_rd: Some(rdsimt::DEFAULT_MAX_RD),
        ..ScenarioConfig::default()
    };
    let mut total = DsHistogram::new(config.max_rd);
    let mut t = Table::new([
        "kernel",
        "location",
        "GPU threads",
        "MIs",
        "total DS",
        "reusing pairs",
        "peak RD",
        "peak DS",
    ])
    .titled(format!(
        "Kernels (worksharing loops, {} threads per block, RD ≤ {}), scenario {}: {}",
        args.simt_block,
        rdsimt::DEFAULT_MAX_RD,
        sc.number(),
        sc.description()
    ));
    // Each launch is analysed as it comes and dropped (see `simt`).
    let mut analysis_failed = false;
    let mut launches = 0usize;
    let skipped = for_each_launch(trace, &simt, &mut |l| -> Result<()> {
        launches += 1;
        analysis_failed = true;
        let name = crate::commands::simt::kernel_name_demangled(&l.kernel.name, Some(&l.function))
            .unwrap_or_else(|| l.kernel.name.clone());
        let r = run_scenario(&l.kernel, &config).with_context(|| format!("analysing {name}"))?;
        analysis_failed = false;
        t.row([
            name,
            l.location.clone(),
            l.threads.to_string(),
            r.total.mis.to_string(),
            r.total.total_ds().to_string(),
            r.total.total_reusing_pairs().to_string(),
            r.total.peak().map_or("-".into(), |p| p.0.to_string()),
            r.total.peak().map_or("-".into(), |p| p.1.to_string()),
        ]);
        total.merge(&r.total);
        Ok(())
    })
    .map_err(|e| {
        if analysis_failed {
            e
        } else {
            e.context("mapping loops to GPU threads")
        }
    })?;
    let last = total.max_reuse_rd().unwrap_or(1).max(1);
    let width = last.div_ceil(MAX_SIMT_POINTS);
    let mut full = Vec::new();
    let mut rd = 1;
    while rd <= last {
        let hi = (rd + width - 1).min(last);
        let peak = (rd..=hi).map(|r| total.ds_at(r)).max().unwrap_or(0);
        full.push((rd as f64, peak as f64));
        rd = hi + 1;
    }
    let zoom_to = last.min(100);
    let zoom: Vec<(f64, f64)> = (1..=zoom_to)
        .map(|r| (r as f64, total.ds_at(r) as f64))
        .collect();
    let series = |points| {
        vec![Series {
            name: "DS".into(),
            points,
            dashed: false,
        }]
    };
    let y_full = if width > 1 {
        format!("DS (largest in bins of {width} RDs)")
    } else {
        "DS (summed data reuse degree)".into()
    };
    let full_svg = plot::line_chart(
        &format!(
            "Data reuse characteristic, scenario {}, full range",
            sc.number()
        ),
        "RD (MIs apart)",
        &y_full,
        &series(full),
        None,
    );
    let zoom_svg = plot::line_chart(
        &format!("Scenario {}, RD 1..{zoom_to}", sc.number()),
        "RD (MIs apart)",
        "DS (summed data reuse degree)",
        &series(zoom),
        None,
    );
    let mut s = html::note(
        "Worksharing-loop iterations become GPU threads; DS (data reuse degree) summed over MI \
         pairs at each RD (MIs apart). Terms are defined at the end of the page.",
    );
    for sk in &skipped {
        s.push_str(&format!(
            "<p class=\"warn\">loop {} at {} skipped: {}</p>",
            sk.workshare,
            html::esc(&sk.location),
            html::esc(&sk.reason)
        ));
    }
    if launches == 0 {
        s.push_str(&html::note(
            "The trace holds no worksharing loop to analyse.",
        ));
        return Ok(s);
    }
    s.push_str(&html::plots(&[full_svg, zoom_svg], false));
    s.push_str(&html::table(&t, true));
    Ok(s)
}
