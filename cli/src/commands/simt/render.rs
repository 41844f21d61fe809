//! `simt`'s tables and SVG plots.

use super::args::SimtArgs;
use super::json::Output;
use crate::output::Table;
use anyhow::Result;
use rdsimt::{DsHistogram, Scenario};
use std::path::Path;

fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

pub(super) fn tables(
    args: &SimtArgs,
    scenario: Scenario,
    out: &Output,
    total: &DsHistogram,
) -> Vec<Table> {
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
            k.name_demangled.clone().unwrap_or_else(|| k.name.clone()),
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

pub(super) fn plots(path: &Path, zoom: &[u64], scenario: Scenario, h: &DsHistogram) -> Result<()> {
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
