//! Text, tables and plots of path reports (shared with the HTML report).

use crate::output::Table;
use anyhow::Result;
use rdpaths::analysis::{group_by_history, paths_of, InstructionPaths, PathKey};
use rdpaths::{PathProfile, PathReport, Pattern};

/// A history as text: oldest bit first, most recent last; `.` for bits the stack did not have.
pub(crate) fn history_text(key: PathKey, n: u32) -> String {
    (0..n)
        .rev()
        .map(|j| {
            if j >= key.depth {
                '.'
            } else if key.bits >> j & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

pub(crate) fn patterns_text(ps: &[Pattern]) -> String {
    if ps.is_empty() {
        return "-".into();
    }
    ps.iter()
        .map(|p| {
            let range = if p.min == p.max {
                p.min.to_string()
            } else {
                format!("{}..{}", p.min, p.max)
            };
            format!("{range} ({:.0}%)", 100.0 * p.fraction)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn verdict(ins: &InstructionPaths, n: u32) -> &'static str {
    match ins.histories.iter().find(|h| h.n == n) {
        Some(h) if h.differentiable => "yes",
        Some(h) if h.aliased && h.mixes_short_long => "alias+mix",
        Some(h) if h.aliased => "alias",
        Some(h) if h.mixes_short_long => "no+mix",
        Some(_) => "no",
        None => "",
    }
}

/// Whether a history length's paths separate an instruction's patterns, as a table title says it.
pub(crate) fn separation_text(differentiable: bool) -> &'static str {
    if differentiable {
        "they separate the patterns"
    } else {
        "they do not separate the patterns"
    }
}

/// The history length whose paths are shown for an instruction: the shortest that separates
/// its patterns, else the longest analysed.
pub(crate) fn shown_history(ins: &InstructionPaths, histories: &[u32]) -> Option<u32> {
    let mut ns = histories.to_vec();
    ns.sort_unstable();
    ns.iter()
        .copied()
        .find(|&n| ins.histories.iter().any(|h| h.n == n && h.differentiable))
        .or_else(|| ns.last().copied())
}

/// One line per path (the eight with most references, plus all paths together) over the
/// distance bins of one instruction.
pub(super) fn plot_instruction(
    profile: &PathProfile,
    mi: u32,
    n: u32,
    file: &std::path::Path,
    loc: &str,
) -> Result<()> {
    let groups = group_by_history(profile, n);
    let Some(paths) = groups.get(&mi) else {
        anyhow::bail!("--instr {mi}: the instruction made no accesses (nothing to plot)");
    };
    let mut all = rdpaths::bins::Bins::new();
    for p in paths {
        all.merge(&p.bins);
    }
    let mut sorted: Vec<_> = paths.iter().collect();
    sorted.sort_by_key(|p| std::cmp::Reverse(p.bins.count()));
    let points = |b: &rdpaths::bins::Bins| -> Vec<(f64, f64)> {
        b.summaries()
            .iter()
            .map(|s| (s.index as f64, s.count as f64))
            .collect()
    };
    let pats = paths_of(paths, &profile.config.patterns);
    let mut series = vec![crate::plot::Series {
        name: "all paths".into(),
        points: points(&all),
        dashed: true,
    }];
    for p in sorted.iter().take(8) {
        let np = pats
            .iter()
            .find(|q| q.key == p.key)
            .map_or(0, |q| q.patterns.len());
        series.push(crate::plot::Series {
            name: format!("{} ({np} pat.)", history_text(p.key, n)),
            points: points(&p.bins),
            dashed: false,
        });
    }
    let svg = crate::plot::line_chart(
        &format!("mi {mi} ({loc}): reuse distance by {n}-bit path"),
        "distance bin (0: d=0; k≤10: 2^(k-1)..2^k-1; k>10: 1K-wide from (k-10)·1024)",
        "references",
        &series,
        None,
    );
    crate::plot::write_svg(file, &svg)
}

/// The per-history-length summary of multi-pattern instructions (shared by `paths` and the HTML
/// report).
pub(crate) fn history_table(report: &PathReport, title: String) -> Table {
    let mut t = Table::new([
        "history",
        "paths",
        "differentiable %",
        "aliasing % (exact windows)",
        "aliasing % (paper)",
        "short+long %",
    ])
    .titled(title);
    for s in &report.summary {
        t.row([
            format!("path{}", s.n),
            s.paths.to_string(),
            format!("{:.2}", s.differentiable_pct),
            format!("{:.2}", s.aliased_pct),
            s.aliased_paper_pct
                .map_or("-".to_string(), |p| format!("{p:.2}")),
            format!("{:.2}", s.mixed_pct),
        ]);
    }
    t
}
