//! `paths --explain-paths`: the branch sequences behind an instruction's paths.

use super::json::ExplainedPath;
use super::render::{history_text, shown_history};
use rdpaths::analysis::{InstructionPaths, PathKey};
use rdpaths::PathProfile;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

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
    let mut sequences = explain_paths(profile, ins.mi, n);
    let text = SequenceText::new(meta);
    h.paths
        .iter()
        .map(|p| ExplainedPath {
            history: n,
            path: history_text(p.key, n),
            branches: sequences
                .remove(&p.key)
                .unwrap_or_default()
                .into_iter()
                .map(|(entries, refs)| (text.of(entries), refs))
                .collect(),
        })
        .collect()
}

/// Branch sequences behind each n-bit path of instruction `mi`: each distinct sequence of the
/// `n` most recent history entries that gives the path's bits (most recent first, as the
/// profile keeps them; [`SequenceText`] prints one), with the references made under it, most
/// references first. More than one sequence for one path is history aliasing. Records kept
/// with fewer than `n` entries (past `--max-paths`) are on no n-bit path and left out.
pub(crate) fn explain_paths(
    profile: &PathProfile,
    mi: u32,
    n: u32,
) -> HashMap<PathKey, Vec<(&[u32], u64)>> {
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
    let mut out: HashMap<PathKey, Vec<(&[u32], u64)>> = HashMap::new();
    for ((key, entries), refs) in seqs {
        out.entry(key).or_default().push((entries, refs));
    }
    for v in out.values_mut() {
        // Stable: equal counts keep the sequences' order.
        v.sort_by_key(|o| std::cmp::Reverse(o.1));
    }
    out
}

/// Prints branch sequences as `BIT@file:line ...` (each branch's source line, `brN` without
/// one), oldest first as the path string is; the locations are made once per branch, and a
/// sequence is printed only when shown (an instruction of a branchy program has hundreds of
/// thousands).
pub(crate) struct SequenceText {
    locations: Vec<String>,
}

impl SequenceText {
    /// The locations of a program's branches.
    pub(crate) fn new(meta: &rdtrace::meta::ProgramMeta) -> Self {
        let locations = meta
            .branches
            .iter()
            .enumerate()
            .map(|(br, b)| {
                b.loc.filter(|l| l.line > 0).map_or(format!("br{br}"), |l| {
                    let file = meta.files.get(l.file as usize).map_or("?", String::as_str);
                    let base = std::path::Path::new(file)
                        .file_name()
                        .map_or(file.to_string(), |f| f.to_string_lossy().into_owned());
                    format!("{base}:{}", l.line)
                })
            })
            .collect();
        SequenceText { locations }
    }

    /// One sequence (history entries, most recent first), printed oldest first.
    pub(crate) fn of(&self, entries: &[u32]) -> String {
        if entries.is_empty() {
            return "(no branch yet)".into();
        }
        let mut text = String::new();
        for &e in entries.iter().rev() {
            if !text.is_empty() {
                text.push(' ');
            }
            let br = e >> 1;
            match self.locations.get(br as usize) {
                Some(loc) => write!(text, "{}@{loc}", e & 1),
                None => write!(text, "{}@br{br}", e & 1),
            }
            .expect("writing to a string");
        }
        text
    }
}
