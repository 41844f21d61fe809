//! `paths --explain-paths`: the branch sequences behind an instruction's paths.

use super::json::ExplainedPath;
use super::render::{history_text, shown_history};
use rdpaths::analysis::{InstructionPaths, PathKey};
use rdpaths::PathProfile;
use std::collections::{BTreeMap, HashMap};

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
    let mut sequences = explain_paths(profile, meta, ins.mi, n);
    h.paths
        .iter()
        .map(|p| ExplainedPath {
            history: n,
            path: history_text(p.key, n),
            branches: sequences.remove(&p.key).unwrap_or_default(),
        })
        .collect()
}

/// Branch sequences behind each n-bit path of instruction `mi`: each distinct sequence of the
/// `n` most recent history entries that gives the path's bits, oldest first, as
/// `BIT@file:line` (the branch's source line), with the references made under it, most
/// references first. More than one sequence for one path is history aliasing. Records kept
/// with fewer than `n` entries (past `--max-paths`) are on no n-bit path and left out.
pub(crate) fn explain_paths(
    profile: &PathProfile,
    meta: &rdtrace::meta::ProgramMeta,
    mi: u32,
    n: u32,
) -> HashMap<PathKey, Vec<(String, u64)>> {
    let mut seqs: BTreeMap<(PathKey, &[u32]), u64> = BTreeMap::new();
    for (r, rec) in profile.records.iter().enumerate() {
        if rec.mi != mi || !rec.projects_to(n) {
            continue;
        }
        let window = profile.window(r);
        let key = PathKey {
            bits: rdpaths::history::window_bits(window, n),
            depth: rec.depth.min(n),
        };
        let take = (n as usize).min(rec.depth as usize).min(window.len());
        *seqs.entry((key, &window[..take])).or_default() += rec.references();
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
    let mut out: HashMap<PathKey, Vec<(String, u64)>> = HashMap::new();
    for ((key, entries), refs) in seqs {
        // Entries are most recent first; print oldest first, as the path string does.
        let text = entries
            .iter()
            .rev()
            .map(|&e| format!("{}@{}", e & 1, branch_loc(e >> 1)))
            .collect::<Vec<_>>()
            .join(" ");
        out.entry(key).or_default().push((
            if text.is_empty() {
                "(no branch yet)".into()
            } else {
                text
            },
            refs,
        ));
    }
    for v in out.values_mut() {
        // Stable: equal counts keep the sequences' order.
        v.sort_by_key(|o| std::cmp::Reverse(o.1));
    }
    out
}
