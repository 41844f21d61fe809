//! The `--json` documents of `paths` and `paths-predict`.

use rdpaths::analysis::InstructionPaths;
use rdpaths::predict::PredictionReport;
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct InstructionJson<'a> {
    pub(super) location: String,
    pub(super) kind: &'static str,
    #[serde(flatten)]
    pub(super) paths: &'a InstructionPaths,
    /// With --explain-paths: the branch sequences behind each path of the shown history.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) explained_paths: Vec<ExplainedPath>,
}

/// One path with the branch sequences (oldest first, `BIT@file:line`) that produce its bits.
#[derive(Serialize)]
pub(super) struct ExplainedPath {
    pub(super) history: u32,
    pub(super) path: String,
    /// `[[sequence, references], …]`, most references first.
    pub(super) branches: Vec<(String, u64)>,
}

#[derive(Serialize)]
pub(super) struct PathsJson<'a> {
    pub(super) trace: String,
    pub(super) history: &'a [u32],
    pub(super) squash: String,
    pub(super) min_frequency: Option<f64>,
    pub(super) drop_below: f64,
    #[serde(flatten)]
    pub(super) report: PathsReportJson<'a>,
}

#[derive(Serialize)]
pub(super) struct PathsReportJson<'a> {
    pub(super) line: u32,
    pub(super) long_threshold: u64,
    pub(super) accesses: u64,
    pub(super) references: u64,
    pub(super) cold: u64,
    pub(super) threads: u32,
    pub(super) instructions_analysed: u64,
    pub(super) multi_pattern: u64,
    pub(super) multi_pattern_pct: f64,
    /// `--max-paths` (null: unlimited).
    pub(super) path_limit: Option<u64>,
    /// Records kept with a shortened window because the limit was reached.
    pub(super) shortened_records: u64,
    pub(super) summary: &'a [rdpaths::analysis::HistorySummary],
    pub(super) instructions: Vec<InstructionJson<'a>>,
}

#[derive(Serialize)]
pub(super) struct PredictJson<'a> {
    pub(super) train: Vec<(String, f64)>,
    pub(super) validate: (String, f64),
    pub(super) line: u32,
    #[serde(flatten)]
    pub(super) report: &'a PredictionReport,
}
