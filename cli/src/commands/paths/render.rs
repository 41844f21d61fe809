//! Text, tables and plots of path reports (shared with the HTML report).

use crate::output::Table;
use anyhow::Result;
use rdpaths::analysis::{instruction_paths, paths_of, InstructionPaths, PathKey};
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

/// An instruction's verdict for n-bit paths, with `*` when some of its references are beyond
/// `--max-paths` (on no known n-bit path; the verdict is over the others).
pub(crate) fn verdict(ins: &InstructionPaths, n: u32) -> String {
    let Some(h) = ins.histories.iter().find(|h| h.n == n) else {
        return String::new();
    };
    let v = if h.differentiable {
        "yes"
    } else if h.aliased && h.mixes_short_long {
        "alias+mix"
    } else if h.aliased {
        "alias"
    } else if h.mixes_short_long {
        "no+mix"
    } else {
        "no"
    };
    if h.unclassified > 0 {
        format!("{v}*")
    } else {
        v.to_string()
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
    let records: Vec<u32> = (0..profile.records.len() as u32)
        .filter(|&r| profile.records[r as usize].mi == mi)
        .collect();
    if records.is_empty() {
        anyhow::bail!("--instr {mi}: the instruction made no accesses (nothing to plot)");
    }
    let paths = &instruction_paths(profile, &records, n);
    if paths.is_empty() {
        anyhow::bail!(
            "--instr {mi}: all its references are beyond --max-paths at {n} bits (nothing to \
             plot; try a shorter --plot-history or a larger --max-paths)"
        );
    }
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
///
/// When `--max-paths` was reached, a last column gives the share of all line references that
/// are on no known path of that length.
pub(crate) fn history_table(report: &PathReport, title: String) -> Table {
    let limited = report.shortened_records > 0;
    let mut headers = vec![
        "history",
        "paths",
        "differentiable %",
        "aliasing % (exact windows)",
        "aliasing % (paper)",
        "short+long %",
    ];
    if limited {
        headers.push("beyond --max-paths %");
    }
    let mut t = Table::new(headers).titled(title);
    for s in &report.summary {
        let mut row = vec![
            format!("path{}", s.n),
            s.paths.to_string(),
            format!("{:.2}", s.differentiable_pct),
            format!("{:.2}", s.aliased_pct),
            s.aliased_paper_pct
                .map_or("-".to_string(), |p| format!("{p:.2}")),
            format!("{:.2}", s.mixed_pct),
        ];
        if limited {
            row.push(format!("{:.2}", s.unclassified_pct));
        }
        t.row(row);
    }
    t
}
