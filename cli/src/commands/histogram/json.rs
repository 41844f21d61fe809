//! `histogram --json`'s document.

use rdengines::{Histogram, SampleStats};
use serde::Serialize;

/// One histogram in the JSON output.
#[derive(Serialize)]
pub struct HistogramJson {
    /// Thread index for per-thread output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// All references.
    pub total: u64,
    /// First touches.
    pub cold: u64,
    /// References at distance ≥ bound.
    pub overflow: u64,
    /// `[[distance, count], …]` for every finite distance that occurred.
    pub histogram: Vec<[u64; 2]>,
    /// `[[lower, upper_exclusive, count], …]` log2 bins.
    pub log2: Vec<[u64; 3]>,
}

impl HistogramJson {
    /// Converts a histogram.
    pub fn new(thread: Option<u32>, h: &Histogram) -> Self {
        HistogramJson {
            thread,
            total: h.total(),
            cold: h.cold,
            overflow: h.overflow,
            histogram: h.counts.iter().map(|(&d, &n)| [d, n]).collect(),
            log2: h
                .log2_bins()
                .into_iter()
                .map(|(a, b, n)| [a, b, n])
                .collect(),
        }
    }
}

/// The whole `histogram --json` document.
#[derive(Serialize)]
pub(super) struct Output {
    pub(super) engine: String,
    pub(super) exact: bool,
    /// Whether the histogram is estimated from a SHARDS sample (scaled to the full trace).
    pub(super) sampled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) sampling: Option<SampleStats>,
    pub(super) line: u32,
    pub(super) bound: Option<u64>,
    #[serde(flatten)]
    pub(super) all: HistogramJson,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) threads: Vec<HistogramJson>,
}
