//! The page's path-analysis section: multi-pattern instructions and their paths.

use super::args::HtmlArgs;
use super::{MAX_PATHS, MAX_PATH_INSTRS, MAX_SEQUENCES};
use crate::html;
use crate::output::Table;
use anyhow::Result;

/// The section; its progress bar is drawn among `bars` (it runs beside the annotation).
pub(super) fn paths(
    trace: &rdtrace::Trace,
    args: &HtmlArgs,
    bars: &indicatif::MultiProgress,
) -> Result<String> {
    use crate::commands::paths::{
        explain_paths, history_text, patterns_text, profile_with_bar, separation_text,
        shown_history, verdict, SequenceText,
    };
    let analysis = crate::commands::paths::AnalysisArgs {
        history: args.history.clone(),
        line: args.caches.l1.line,
        squash: None,
        min_frequency: None,
        drop_below: 0.01,
        long_threshold: 1024,
        max_paths: args.max_paths,
    };
    let cfg = analysis.config();
    let bar = crate::progress::bar_in(bars, 0, "paths", args.quiet);
    let prof = profile_with_bar(trace, &cfg, bar)?;
    let report = rdpaths::analyse(&prof);
    let meta = &trace.meta;
    let loc = |mi: u32| meta.format_loc(meta.mem_instrs.get(mi as usize).and_then(|m| m.loc));
    let t = crate::commands::paths::history_table(
        &report,
        format!(
            "{} of {} instructions with reuse have multiple patterns ({:.2} %)",
            report.multi_pattern, report.instructions_analysed, report.multi_pattern_pct
        ),
    );
    let mut s = html::note(
        "Which branch histories (paths) lead to which locality patterns of an instruction. Terms \
         are defined at the end of the page.",
    );
    s.push_str(&html::table(&t, true));
    let mut multi: Vec<_> = report
        .instructions
        .iter()
        .filter(|i| i.has_multiple_patterns())
        .collect();
    multi.sort_by_key(|i| std::cmp::Reverse(i.references));
    multi.truncate(MAX_PATH_INSTRS);
    if multi.is_empty() {
        s.push_str(&html::note("No instruction has more than one pattern."));
        return Ok(s);
    }
    let mut headers = vec![
        "mi".to_string(),
        "location".into(),
        "references".into(),
        "patterns".into(),
    ];
    headers.extend(cfg.histories.iter().map(|n| format!("path{n}")));
    let mut t = Table::new(headers).titled(format!(
        "Multi-pattern instructions (the {} with most references; yes: separated by paths)",
        multi.len()
    ));
    for ins in &multi {
        let mut row = vec![
            ins.mi.to_string(),
            loc(ins.mi),
            ins.references.to_string(),
            patterns_text(&ins.patterns),
        ];
        row.extend(cfg.histories.iter().map(|&n| verdict(ins, n).to_string()));
        t.row(row);
    }
    s.push_str(&html::table(&t, true));
    let text = SequenceText::new(meta);
    for ins in &multi {
        let Some(n) = shown_history(ins, &cfg.histories) else {
            continue;
        };
        let Some(h) = ins.histories.iter().find(|h| h.n == n) else {
            continue;
        };
        let mut paths: Vec<_> = h.paths.iter().collect();
        paths.sort_by_key(|p| std::cmp::Reverse(p.references));
        let mut t = Table::new([
            "path (oldest..newest)",
            "references",
            "patterns",
            "branches behind the bits (BIT@file:line, oldest first; references)",
        ])
        .titled(format!(
            "mi {} at {}: paths of {n} bits ({}{})",
            ins.mi,
            loc(ins.mi),
            separation_text(h.differentiable),
            if paths.len() > MAX_PATHS {
                format!("; {} of {} paths shown", MAX_PATHS, paths.len())
            } else {
                String::new()
            }
        ));
        let sequences = explain_paths(&prof, ins.mi, n);
        for p in paths.iter().take(MAX_PATHS) {
            let seqs = sequences.get(&p.key).map_or(&[][..], Vec::as_slice);
            let mut branches: Vec<String> = seqs
                .iter()
                .take(MAX_SEQUENCES)
                .map(|&(b, r)| format!("{} ({r})", text.of(b)))
                .collect();
            if seqs.len() > MAX_SEQUENCES {
                branches.push(format!("… {} more", seqs.len() - MAX_SEQUENCES));
            }
            t.row([
                history_text(p.key, n),
                p.references.to_string(),
                patterns_text(&p.patterns),
                branches.join("; "),
            ]);
        }
        s.push_str(&html::table(&t, true));
    }
    Ok(s)
}
