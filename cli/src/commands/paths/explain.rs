//! `paths --explain-paths`: the branch sequences behind an instruction's paths.

use super::json::ExplainedPath;
use super::render::{history_text, shown_history};
use rdpaths::analysis::{InstructionPaths, PathKey};
use rdpaths::PathProfile;

/// The explained paths of the history shown for `ins` (none for single-pattern instructions).
pub(super) fn explained(
    profile: &PathProfile,
    meta: &rdtrace::meta::ProgramMeta,
    ins: &InstructionPaths,
    histories: &[u32],
) -> Vec<ExplainedPath> {
    let Some(n) = shown_history(ins, histories) else {
        return Vec::new();
    };
    let Some(h) = ins.histories.iter().find(|h| h.n == n) else {
        return Vec::new();
    };
    h.paths
        .iter()
        .map(|p| ExplainedPath {
            history: n,
            path: history_text(p.key, n),
            branches: explain_path(profile, meta, ins.mi, n, p.key),
        })
        .collect()
}

/// Branch sequences behind one n-bit path of instruction `mi`: each distinct sequence of the
/// `n` most recent history entries that gives the path's bits, oldest first, as
/// `BIT@file:line` (the branch's source line), with the references made under it. More than
/// one sequence for one path is history aliasing.
pub(crate) fn explain_path(
    profile: &PathProfile,
    meta: &rdtrace::meta::ProgramMeta,
    mi: u32,
    n: u32,
    key: PathKey,
) -> Vec<(String, u64)> {
    use std::collections::BTreeMap;
    let mut seqs: BTreeMap<Vec<u32>, u64> = BTreeMap::new();
    for r in profile.records.iter().filter(|r| r.mi == mi) {
        let k = PathKey {
            bits: rdpaths::history::window_bits(&r.window, n),
            depth: r.depth.min(n),
        };
        if k != key {
            continue;
        }
        let take = (n as usize).min(r.depth as usize).min(r.window.len());
        *seqs.entry(r.window[..take].to_vec()).or_default() += r.bins.count() + r.cold;
    }
    let branch_loc = |br: u32| {
        meta.branches
            .get(br as usize)
            .and_then(|b| b.loc)
            .filter(|l| l.line > 0)
            .map_or(format!("br{br}"), |l| {
                let file = meta.files.get(l.file as usize).map_or("?", String::as_str);
                let base = std::path::Path::new(file)
                    .file_name()
                    .map_or(file.to_string(), |f| f.to_string_lossy().into_owned());
                format!("{base}:{}", l.line)
            })
    };
    let mut out: Vec<(String, u64)> = seqs
        .into_iter()
        .map(|(entries, refs)| {
            // Entries are most recent first; print oldest first, as the path string does.
            let text = entries
                .iter()
                .rev()
                .map(|&e| format!("{}@{}", e & 1, branch_loc(e >> 1)))
                .collect::<Vec<_>>()
                .join(" ");
            (
                if text.is_empty() {
                    "(no branch yet)".into()
                } else {
                    text
                },
                refs,
            )
        })
        .collect();
    out.sort_by_key(|o| std::cmp::Reverse(o.1));
    out
}
