//! Metrics of Section 4.2: which instructions have several locality patterns, and whether
//! n-bit branch histories tell them apart.
//!
//! For every history length `n` the records of a [`PathProfile`] are projected onto n-bit keys
//! (the top `n` bits of their window, plus the depth when the stack was shallower) and onto
//! exact n-entry windows (the same bits with the branch of each). Then, per memory instruction:
//!
//! * **multiple patterns** — its distances over all paths form more than one pattern;
//! * **differentiable by n bits** — every n-bit path carries at most one pattern
//!   (See: Section 3.2, "if … the reuse distances for each branch history form at most one
//!   pattern, the branch history can differentiate the multiple patterns");
//! * **not differentiable because of history aliasing** — not differentiable by n bits, but
//!   differentiable by the exact n-entry windows: different paths share the same bits
//!   (See: Section 4.2, Fig. 6 and Tables 1–2; the exact windows play the block traces' role);
//! * **not differentiable, mixing short and long** — not differentiable, and some n-bit path
//!   carries both a pattern below the long threshold and one at or above it (See: Table 3).
//!
//! Percentages are of the instructions with multiple patterns, as in the paper's tables.
//!
//! The paper's own aliasing figure (Section 4.2, Tables 1–2) is defined differently: "for
//! pathn where n < 16, the non-differentiable multiple patterns due to aliasing are those for
//! path16 plus all patterns that can be differentiated by a 16-bit history but not the n-bit
//! history". [`HistorySummary::aliased_paper`] is that count (aliased at 16 bits as above, plus
//! differentiable at 16 but not at n), for n ≤ 16 and profiles of at least 16 bits; the
//! exact-window count stays [`HistorySummary::aliased`].

use crate::bins::Bins;
use crate::history::{window_bits, window_exact_key};
use crate::patterns::{form_patterns, Pattern, PatternConfig};
use crate::profile::PathProfile;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An n-bit branch history: `bits` holds the outcome bits (bit 0 the most recent) and `depth`
/// how many of them exist (`depth < n` when the stack was shallower than `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PathKey {
    /// Outcome bits, most recent in bit 0.
    pub bits: u64,
    /// Number of valid bits.
    pub depth: u32,
}

/// Distances of one instruction along one n-bit path.
#[derive(Clone, Debug)]
pub struct PathDistances {
    /// The path.
    pub key: PathKey,
    /// Finite distances.
    pub bins: Bins,
    /// First touches.
    pub cold: u64,
}

/// Per instruction, its n-bit paths and their distances, sorted by instruction then key.
/// `n == 0` gives one path per instruction (no history: the instruction-based analysis).
pub fn group_by_history(profile: &PathProfile, n: u32) -> BTreeMap<u32, Vec<PathDistances>> {
    let mut map: FxHashMap<(u32, PathKey), (Bins, u64)> = FxHashMap::default();
    for r in &profile.records {
        let key = PathKey {
            bits: window_bits(&r.window, n),
            depth: r.depth.min(n),
        };
        let e = map.entry((r.mi, key)).or_default();
        e.0.merge(&r.bins);
        e.1 += r.cold;
    }
    let mut out: BTreeMap<u32, Vec<PathDistances>> = BTreeMap::new();
    for ((mi, key), (bins, cold)) in map {
        out.entry(mi)
            .or_default()
            .push(PathDistances { key, bins, cold });
    }
    for v in out.values_mut() {
        v.sort_by_key(|p| p.key);
    }
    out
}

/// Per instruction, the distances along each exact n-entry window (keyed by window hash).
fn group_by_exact_window(profile: &PathProfile, n: u32) -> FxHashMap<u32, Vec<Bins>> {
    let mut map: FxHashMap<(u32, u64), Bins> = FxHashMap::default();
    for r in &profile.records {
        let key = window_exact_key(&r.window, r.depth as usize, n);
        map.entry((r.mi, key)).or_default().merge(&r.bins);
    }
    let mut out: FxHashMap<u32, Vec<Bins>> = FxHashMap::default();
    for ((mi, _), bins) in map {
        out.entry(mi).or_default().push(bins);
    }
    out
}

/// One n-bit path of an instruction with its patterns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathPatterns {
    /// The path.
    pub key: PathKey,
    /// References with a finite distance.
    pub references: u64,
    /// First touches.
    pub cold: u64,
    /// Locality patterns along this path.
    pub patterns: Vec<Pattern>,
}

/// How one instruction fares with one history length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstructionHistory {
    /// History length in bits.
    pub n: u32,
    /// Every n-bit path has at most one pattern.
    pub differentiable: bool,
    /// Every exact n-entry window has at most one pattern.
    pub exact_differentiable: bool,
    /// Not differentiable by bits, differentiable by exact windows.
    pub aliased: bool,
    /// Not differentiable, and some path mixes short and long patterns.
    pub mixes_short_long: bool,
    /// The paths, sorted by key.
    pub paths: Vec<PathPatterns>,
}

/// One memory instruction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstructionPaths {
    /// Memory instruction id.
    pub mi: u32,
    /// References with a finite distance.
    pub references: u64,
    /// First touches.
    pub cold: u64,
    /// Patterns over all paths (the instruction-based view).
    pub patterns: Vec<Pattern>,
    /// Per history length (only for instructions with multiple patterns).
    pub histories: Vec<InstructionHistory>,
}

impl InstructionPaths {
    /// Whether the instruction has more than one locality pattern.
    pub fn has_multiple_patterns(&self) -> bool {
        self.patterns.len() > 1
    }
}

/// Program-level figures for one history length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistorySummary {
    /// History length in bits.
    pub n: u32,
    /// Distinct (instruction, n-bit path) pairs over all instructions.
    pub paths: u64,
    /// Multi-pattern instructions differentiable by n-bit paths.
    pub differentiable: u64,
    /// … as a percentage of the multi-pattern instructions.
    pub differentiable_pct: f64,
    /// Multi-pattern instructions not differentiable because of history aliasing.
    pub aliased: u64,
    /// … as a percentage of the multi-pattern instructions.
    pub aliased_pct: f64,
    /// The path paper's aliasing count (Section 4.2): for n < 16, the multi-pattern instructions
    /// aliased at 16 bits plus those differentiable by 16 bits but not by n; for n = 16, those
    /// aliased at 16 bits. `None` for n > 16 or when the profile has fewer than 16 bits.
    pub aliased_paper: Option<u64>,
    /// … as a percentage of the multi-pattern instructions.
    pub aliased_paper_pct: Option<f64>,
    /// Multi-pattern instructions not differentiable with paths mixing short and long.
    pub mixed: u64,
    /// … as a percentage of the multi-pattern instructions.
    pub mixed_pct: f64,
}

/// The result of [`analyse`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathReport {
    /// Cache-line size in bytes.
    pub line: u32,
    /// Long/short threshold in lines.
    pub long_threshold: u64,
    /// Access events.
    pub accesses: u64,
    /// Line references.
    pub references: u64,
    /// First touches.
    pub cold: u64,
    /// Threads profiled.
    pub threads: u32,
    /// Instructions with at least one finite distance.
    pub instructions_analysed: u64,
    /// Instructions with more than one pattern.
    pub multi_pattern: u64,
    /// … as a percentage of the analysed instructions.
    pub multi_pattern_pct: f64,
    /// Per history length, in the order configured.
    pub summary: Vec<HistorySummary>,
    /// Every analysed instruction, by id.
    pub instructions: Vec<InstructionPaths>,
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn mixes(patterns: &[Pattern], threshold: u64) -> bool {
    patterns.iter().any(|p| p.is_short(threshold))
        && patterns.iter().any(|p| !p.is_short(threshold))
}

/// Patterns of each path of one instruction for history length `n`.
pub fn paths_of(paths: &[PathDistances], cfg: &PatternConfig) -> Vec<PathPatterns> {
    paths
        .iter()
        .map(|p| PathPatterns {
            key: p.key,
            references: p.bins.count(),
            cold: p.cold,
            patterns: form_patterns(&p.bins, cfg),
        })
        .collect()
}

/// How each multi-pattern instruction (indices into `instructions`) fares with `n`-bit paths,
/// and the number of distinct (instruction, path) pairs over all instructions.
fn evaluate(
    profile: &PathProfile,
    n: u32,
    multi: &[usize],
    instructions: &[InstructionPaths],
) -> (Vec<InstructionHistory>, u64) {
    let cfg = &profile.config;
    let groups = group_by_history(profile, n);
    let exact = group_by_exact_window(profile, n);
    let paths_total = groups.values().map(|v| v.len() as u64).sum();
    let histories = multi
        .iter()
        .map(|&i| {
            let ins = &instructions[i];
            let paths = paths_of(groups.get(&ins.mi).map_or(&[][..], |v| v), &cfg.patterns);
            let differentiable = paths.iter().all(|p| p.patterns.len() <= 1);
            let exact_differentiable = exact
                .get(&ins.mi)
                .is_none_or(|v| v.iter().all(|b| form_patterns(b, &cfg.patterns).len() <= 1));
            let aliased = !differentiable && exact_differentiable;
            let mixes_short_long =
                !differentiable && paths.iter().any(|p| mixes(&p.patterns, cfg.long_threshold));
            InstructionHistory {
                n,
                differentiable,
                exact_differentiable,
                aliased,
                mixes_short_long,
                paths,
            }
        })
        .collect();
    (histories, paths_total)
}

/// Computes the metrics of Section 4.2 from a profile.
pub fn analyse(profile: &PathProfile) -> PathReport {
    let cfg = &profile.config;
    let threshold = cfg.long_threshold;
    let mut instructions: Vec<InstructionPaths> = group_by_history(profile, 0)
        .into_iter()
        .filter_map(|(mi, paths)| {
            let p = paths.into_iter().next()?;
            if p.bins.is_empty() {
                return None;
            }
            Some(InstructionPaths {
                mi,
                references: p.bins.count(),
                cold: p.cold,
                patterns: form_patterns(&p.bins, &cfg.patterns),
                histories: Vec::new(),
            })
        })
        .collect();
    let multi: Vec<usize> = (0..instructions.len())
        .filter(|&i| instructions[i].has_multiple_patterns())
        .collect();
    let mut summary = Vec::new();
    let m = multi.len() as u64;
    // The history lengths are independent: evaluated side by side on the workspace's thread
    // pool (rayon, as the models' jobs), reported in order.
    let evaluated: Vec<_> = {
        use rayon::prelude::*;
        cfg.histories
            .par_iter()
            .map(|&n| evaluate(profile, n, &multi, &instructions))
            .collect()
    };
    for (&n, (histories, paths_total)) in cfg.histories.iter().zip(evaluated) {
        let diff = histories.iter().filter(|h| h.differentiable).count() as u64;
        let aliased = histories.iter().filter(|h| h.aliased).count() as u64;
        let mixed = histories.iter().filter(|h| h.mixes_short_long).count() as u64;
        for (&i, h) in multi.iter().zip(histories) {
            instructions[i].histories.push(h);
        }
        summary.push(HistorySummary {
            n,
            paths: paths_total,
            differentiable: diff,
            differentiable_pct: pct(diff, m),
            aliased,
            aliased_pct: pct(aliased, m),
            aliased_paper: None,
            aliased_paper_pct: None,
            mixed,
            mixed_pct: pct(mixed, m),
        });
    }
    // See: Section 4.2 — aliasing for pathn, n < 16, is path16's plus the patterns 16 bits
    // differentiate but n bits do not.
    const PAPER_REFERENCE: u32 = 16;
    if profile.max_bits >= PAPER_REFERENCE {
        let reference: Vec<(bool, bool)> =
            match cfg.histories.iter().position(|&n| n == PAPER_REFERENCE) {
                Some(k) => multi
                    .iter()
                    .map(|&i| {
                        let h = &instructions[i].histories[k];
                        (h.differentiable, h.aliased)
                    })
                    .collect(),
                None => evaluate(profile, PAPER_REFERENCE, &multi, &instructions)
                    .0
                    .iter()
                    .map(|h| (h.differentiable, h.aliased))
                    .collect(),
            };
        for (k, s) in summary.iter_mut().enumerate() {
            if s.n > PAPER_REFERENCE {
                continue;
            }
            let count = multi
                .iter()
                .zip(&reference)
                .filter(|(&i, &(diff16, aliased16))| {
                    aliased16 || (diff16 && !instructions[i].histories[k].differentiable)
                })
                .count() as u64;
            s.aliased_paper = Some(count);
            s.aliased_paper_pct = Some(pct(count, m));
        }
    }
    let analysed = instructions.len() as u64;
    let m = multi.len() as u64;
    PathReport {
        line: cfg.line,
        long_threshold: threshold,
        accesses: profile.accesses,
        references: profile.references,
        cold: profile.cold,
        threads: profile.threads,
        instructions_analysed: analysed,
        multi_pattern: m,
        multi_pattern_pct: pct(m, analysed),
        summary,
        instructions,
    }
}
