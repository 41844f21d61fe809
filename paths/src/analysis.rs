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
use crate::keys::InstructionKeys;
pub use crate::keys::PathKey;
use crate::patterns::{form_patterns, Pattern, PatternConfig};
use crate::profile::PathProfile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// The records of each instruction (indices into [`PathProfile::records`]), by instruction.
pub fn records_by_instruction(profile: &PathProfile) -> BTreeMap<u32, Vec<u32>> {
    let mut out: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (r, rec) in profile.records.iter().enumerate() {
        out.entry(rec.mi).or_default().push(r as u32);
    }
    out
}

/// One instruction's n-bit paths (from its `records`) with their distances, sorted by key.
/// Records shortened past the path limit that hold fewer than `n` entries are left out
/// ([`crate::profile::PathRecord::projects_to`]).
pub fn instruction_paths(profile: &PathProfile, records: &[u32], n: u32) -> Vec<PathDistances> {
    if n == 0 {
        return no_history(profile, records).into_iter().collect();
    }
    let keyed = InstructionKeys::bits(profile, records).by_path(n);
    let mut out: Vec<PathDistances> = Vec::new();
    for (key, r) in keyed {
        let rec = &profile.records[r as usize];
        match out.last_mut() {
            Some(p) if p.key == key => {
                p.bins.merge(&rec.bins);
                p.cold += rec.cold;
            }
            _ => out.push(PathDistances {
                key,
                bins: rec.bins.clone(),
                cold: rec.cold,
            }),
        }
    }
    out
}

/// One instruction's distances on the one path of no history, which every record lies on:
/// its records merged as they come (no window read, nothing sorted); `None` without records.
fn no_history(profile: &PathProfile, records: &[u32]) -> Option<PathDistances> {
    let mut recs = records.iter().map(|&r| &profile.records[r as usize]);
    let first = recs.next()?;
    let mut p = PathDistances {
        key: PathKey { bits: 0, depth: 0 },
        bins: first.bins.clone(),
        cold: first.cold,
    };
    for rec in recs {
        p.bins.merge(&rec.bins);
        p.cold += rec.cold;
    }
    Some(p)
}

/// One instruction's n-bit paths (its records `keyed` by path) with their patterns, sorted by
/// key: [`paths_of`] over [`instruction_paths`] without copying the distances of a path that
/// has one record (most paths of the longest histories).
fn path_patterns(
    profile: &PathProfile,
    keyed: &[(PathKey, u32)],
    cfg: &PatternConfig,
) -> Vec<PathPatterns> {
    let mut scratch = Bins::new();
    keyed
        .chunk_by(|a, b| a.0 == b.0)
        .map(|run| {
            let (bins, cold) = match run {
                [(_, r)] => {
                    let rec = &profile.records[*r as usize];
                    (&rec.bins, rec.cold)
                }
                _ => {
                    scratch.clear();
                    let mut cold = 0;
                    for &(_, r) in run {
                        let rec = &profile.records[r as usize];
                        scratch.merge(&rec.bins);
                        cold += rec.cold;
                    }
                    (&scratch, cold)
                }
            };
            PathPatterns {
                key: run[0].0,
                references: bins.count(),
                cold,
                patterns: form_patterns(bins, cfg),
            }
        })
        .collect()
}

/// Per instruction, its n-bit paths and their distances, sorted by instruction then key.
/// `n == 0` gives one path per instruction (no history: the instruction-based analysis).
pub fn group_by_history(profile: &PathProfile, n: u32) -> BTreeMap<u32, Vec<PathDistances>> {
    records_by_instruction(profile)
        .into_iter()
        .map(|(mi, records)| (mi, instruction_paths(profile, &records, n)))
        .collect()
}

/// Whether every exact window of one instruction (its records `keyed` by window) carries at
/// most one pattern (the windows' distances merged one window at a time into one scratch
/// distribution).
fn exact_windows_differentiable(
    profile: &PathProfile,
    keyed: &[(u64, u32)],
    cfg: &PatternConfig,
) -> bool {
    let mut scratch = Bins::new();
    for run in keyed.chunk_by(|a, b| a.0 == b.0) {
        let bins = match run {
            [(_, r)] => &profile.records[*r as usize].bins,
            _ => {
                scratch.clear();
                for &(_, r) in run {
                    scratch.merge(&profile.records[r as usize].bins);
                }
                &scratch
            }
        };
        if form_patterns(bins, cfg).len() > 1 {
            return false;
        }
    }
    true
}

/// Number of distinct paths among records `keyed` by path.
fn count_paths(keyed: &[(PathKey, u32)]) -> u64 {
    keyed.chunk_by(|a, b| a.0 == b.0).count() as u64
}

/// References of one instruction on no known n-bit path (shortened records).
fn unclassified(profile: &PathProfile, records: &[u32], n: u32) -> u64 {
    records
        .iter()
        .map(|&r| &profile.records[r as usize])
        .filter(|rec| !rec.projects_to(n))
        .map(|rec| rec.references())
        .sum()
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
    /// References on no known n-bit path (their records were shortened past the path limit,
    /// [`crate::PathConfig::max_paths`]); the verdicts above are over the other references.
    pub unclassified: u64,
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
    /// aliased at 16 bits. `None` for n > 16 or when the profile has fewer than 16 bits. It
    /// rests on the 16-bit verdicts, so it is exact only when the 16-bit summary has no
    /// [`HistorySummary::unclassified`] references.
    pub aliased_paper: Option<u64>,
    /// … as a percentage of the multi-pattern instructions.
    pub aliased_paper_pct: Option<f64>,
    /// Multi-pattern instructions not differentiable with paths mixing short and long.
    pub mixed: u64,
    /// … as a percentage of the multi-pattern instructions.
    pub mixed_pct: f64,
    /// Line references on no known n-bit path (records shortened past the path limit).
    pub unclassified: u64,
    /// … as a percentage of all line references.
    pub unclassified_pct: f64,
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
    /// The path limit the profile was collected with ([`crate::PathConfig::max_paths`]).
    pub path_limit: Option<u64>,
    /// Records kept with a shortened window because the limit was reached.
    pub shortened_records: u64,
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

/// How one instruction (its `records`, `keys`) fares with `n`-bit paths, `n` the `k`-th
/// length of the keys' exact windows.
fn history_of(
    profile: &PathProfile,
    records: &[u32],
    keys: &InstructionKeys,
    k: usize,
    n: u32,
) -> InstructionHistory {
    let cfg = &profile.config;
    let paths = path_patterns(profile, &keys.by_path(n), &cfg.patterns);
    let differentiable = paths.iter().all(|p| p.patterns.len() <= 1);
    let exact_differentiable =
        exact_windows_differentiable(profile, &keys.by_exact_window(k), &cfg.patterns);
    let aliased = !differentiable && exact_differentiable;
    let mixes_short_long =
        !differentiable && paths.iter().any(|p| mixes(&p.patterns, cfg.long_threshold));
    InstructionHistory {
        n,
        differentiable,
        exact_differentiable,
        aliased,
        mixes_short_long,
        unclassified: unclassified(profile, records, n),
        paths,
    }
}

/// The history length the paper's aliasing figure refers to (Section 4.2).
const PAPER_REFERENCE: u32 = 16;

/// One job of [`analyse`]'s second step: one instruction, every history length (its records
/// keyed once for all of them, [`InstructionKeys`]).
enum Job {
    /// A multi-pattern instruction's verdicts for the configured lengths, and for 16 bits when
    /// 16 is not configured but the paper's aliasing figure needs it.
    Multi { ins: usize },
    /// The number of paths and unclassified references per length of any other instruction.
    Count { group: usize },
}

/// What a [`Job`] found.
enum Found {
    /// Per configured length, and the 16-bit (differentiable, aliased) when computed apart.
    Multi(Vec<InstructionHistory>, Option<(bool, bool)>),
    /// Per configured length: paths, unclassified references.
    Count(Vec<(u64, u64)>),
}

/// Computes the metrics of Section 4.2 from a profile.
///
/// Works one instruction at a time (its records grouped by path, its paths' distances merged
/// into fresh distributions and dropped once its patterns are formed), so the analysis adds
/// about the largest instruction's share of the profile to the memory (with its records' keys
/// for every length, `keys::InstructionKeys`), not a copy of the profile per history length.
/// Instructions are independent jobs on the workspace's thread pool (rayon, as the models'
/// jobs), a multi-pattern instruction's history lengths jobs within its own; reported in
/// order.
pub fn analyse(profile: &PathProfile) -> PathReport {
    use rayon::prelude::*;
    let cfg = &profile.config;
    let groups: Vec<(u32, Vec<u32>)> = records_by_instruction(profile).into_iter().collect();
    // Step 1: every instruction's patterns over all its paths (the instruction-based view).
    let base: Vec<Option<InstructionPaths>> = groups
        .par_iter()
        .map(|(mi, records)| {
            let p = no_history(profile, records)?;
            if p.bins.is_empty() {
                return None;
            }
            Some(InstructionPaths {
                mi: *mi,
                references: p.bins.count(),
                cold: p.cold,
                patterns: form_patterns(&p.bins, &cfg.patterns),
                histories: Vec::new(),
            })
        })
        .collect();
    let group_of: Vec<usize> = (0..groups.len()).filter(|&g| base[g].is_some()).collect();
    let mut instructions: Vec<InstructionPaths> = base.into_iter().flatten().collect();
    let multi: Vec<usize> = (0..instructions.len())
        .filter(|&i| instructions[i].has_multiple_patterns())
        .collect();
    let reference_configured = cfg.histories.iter().position(|&n| n == PAPER_REFERENCE);
    let with_reference = profile.max_bits >= PAPER_REFERENCE;

    // Step 2: per (instruction, history length), a multi-pattern instruction's verdict or any
    // other instruction's path count.
    let mut jobs = Vec::new();
    let mut is_multi = vec![false; groups.len()];
    for &i in &multi {
        is_multi[group_of[i]] = true;
        jobs.push(Job::Multi { ins: i });
    }
    for (group, _) in groups.iter().enumerate().filter(|&(g, _)| !is_multi[g]) {
        jobs.push(Job::Count { group });
    }
    // The lengths with exact keys: the configured ones, then 16 when computed apart.
    let mut exact_lengths = cfg.histories.clone();
    let separate_reference = with_reference && reference_configured.is_none();
    if separate_reference {
        exact_lengths.push(PAPER_REFERENCE);
    }
    let found: Vec<Found> = jobs
        .par_iter()
        .map(|job| match *job {
            Job::Multi { ins } => {
                let records = &groups[group_of[ins]].1;
                let keys = InstructionKeys::with_exact(profile, records, &exact_lengths);
                let mut histories: Vec<InstructionHistory> = exact_lengths
                    .par_iter()
                    .enumerate()
                    .map(|(k, &n)| history_of(profile, records, &keys, k, n))
                    .collect();
                let reference = separate_reference
                    .then(|| histories.pop().expect("the reference length was added"))
                    .map(|h| (h.differentiable, h.aliased));
                Found::Multi(histories, reference)
            }
            Job::Count { group } => {
                let records = &groups[group].1;
                let keys = InstructionKeys::bits(profile, records);
                Found::Count(
                    cfg.histories
                        .iter()
                        .map(|&n| {
                            (
                                count_paths(&keys.by_path(n)),
                                unclassified(profile, records, n),
                            )
                        })
                        .collect(),
                )
            }
        })
        .collect();

    let mut paths_total = vec![0u64; cfg.histories.len()];
    let mut unclassified_total = vec![0u64; cfg.histories.len()];
    let mut reference: Vec<(bool, bool)> = Vec::new();
    for (job, found) in jobs.iter().zip(found) {
        match (job, found) {
            (&Job::Multi { ins }, Found::Multi(histories, reference16)) => {
                for (k, h) in histories.iter().enumerate() {
                    paths_total[k] += h.paths.len() as u64;
                    unclassified_total[k] += h.unclassified;
                }
                instructions[ins].histories = histories;
                reference.extend(reference16);
            }
            (Job::Count { .. }, Found::Count(counts)) => {
                for (k, (paths, lost)) in counts.into_iter().enumerate() {
                    paths_total[k] += paths;
                    unclassified_total[k] += lost;
                }
            }
            _ => unreachable!("each job finds its own kind"),
        }
    }
    if let (true, Some(k)) = (with_reference, reference_configured) {
        reference = multi
            .iter()
            .map(|&i| {
                let h = &instructions[i].histories[k];
                (h.differentiable, h.aliased)
            })
            .collect();
    }

    let m = multi.len() as u64;
    let mut summary = Vec::new();
    for (k, &n) in cfg.histories.iter().enumerate() {
        let count = |f: fn(&InstructionHistory) -> bool| {
            multi
                .iter()
                .filter(|&&i| f(&instructions[i].histories[k]))
                .count() as u64
        };
        let (diff, aliased, mixed) = (
            count(|h| h.differentiable),
            count(|h| h.aliased),
            count(|h| h.mixes_short_long),
        );
        summary.push(HistorySummary {
            n,
            paths: paths_total[k],
            differentiable: diff,
            differentiable_pct: pct(diff, m),
            aliased,
            aliased_pct: pct(aliased, m),
            aliased_paper: None,
            aliased_paper_pct: None,
            mixed,
            mixed_pct: pct(mixed, m),
            unclassified: unclassified_total[k],
            unclassified_pct: pct(unclassified_total[k], profile.references),
        });
    }
    // See: Section 4.2 — aliasing for pathn, n < 16, is path16's plus the patterns 16 bits
    // differentiate but n bits do not.
    if with_reference {
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
    PathReport {
        line: cfg.line,
        long_threshold: cfg.long_threshold,
        accesses: profile.accesses,
        references: profile.references,
        cold: profile.cold,
        threads: profile.threads,
        instructions_analysed: analysed,
        multi_pattern: m,
        multi_pattern_pct: pct(m, analysed),
        path_limit: cfg.max_paths,
        shortened_records: profile.shortened_records(),
        summary,
        instructions,
    }
}
