//! `simt --json`'s document.

use super::load::Origin;
use rdsimt::openmp::SkippedLoop;
use rdsimt::scenario::StreamLabel;
use rdsimt::DsHistogram;
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct HistogramJson {
    pub(super) mis: u64,
    pub(super) lanes: u64,
    pub(super) total_ds: u64,
    pub(super) reusing_pairs: u64,
    pub(super) peak_rd: Option<u64>,
    pub(super) peak_ds: Option<u64>,
    pub(super) max_reuse_rd: Option<u64>,
    /// `[[rd, ds, reusing_pairs], …]` for every RD with reuse.
    pub(super) histogram: Vec<[u64; 3]>,
}

impl HistogramJson {
    pub(super) fn new(h: &DsHistogram) -> Self {
        HistogramJson {
            mis: h.mis,
            lanes: h.lanes,
            total_ds: h.total_ds(),
            reusing_pairs: h.total_reusing_pairs(),
            peak_rd: h.peak().map(|p| p.0),
            peak_ds: h.peak().map(|p| p.1),
            max_reuse_rd: h.max_reuse_rd(),
            histogram: h.nonzero().map(|(r, d, p)| [r, d, p]).collect(),
        }
    }
}

#[derive(Serialize)]
pub(super) struct StreamJson {
    pub(super) label: String,
    pub(super) blocks: usize,
    #[serde(flatten)]
    pub(super) histogram: HistogramJson,
}

#[derive(Serialize)]
pub(super) struct KernelJson {
    pub(super) index: usize,
    /// The kernel's name, naming the loop's function by its linker symbol.
    pub(super) name: String,
    /// The same with the function's readable name, when it differs (C++, Fortran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) name_demangled: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) origin: Option<Origin>,
    pub(super) blocks: usize,
    pub(super) mis: u64,
    pub(super) lanes: u64,
    pub(super) aggregate_blocks: usize,
    pub(super) scheduler: String,
    pub(super) streams: Vec<StreamJson>,
    pub(super) total: HistogramJson,
}

#[derive(Serialize)]
pub(super) struct ConfigJson {
    pub(super) block: Option<u64>,
    pub(super) warp: Option<u64>,
    pub(super) mi_scope: Option<&'static str>,
    pub(super) granularity: String,
    pub(super) k: Option<usize>,
    pub(super) clusters: Option<usize>,
    pub(super) lsu: Option<usize>,
    pub(super) policy: &'static str,
    pub(super) max_rd: Option<u64>,
}

#[derive(Serialize)]
pub(super) struct Output {
    pub(super) input: String,
    pub(super) input_format: &'static str,
    pub(super) scenario: u8,
    pub(super) scenario_description: &'static str,
    pub(super) config: ConfigJson,
    pub(super) kernels: Vec<KernelJson>,
    pub(super) skipped: Vec<SkippedLoop>,
    pub(super) total: HistogramJson,
}

pub(super) fn label(l: StreamLabel) -> String {
    match l {
        StreamLabel::Grid => "grid".into(),
        StreamLabel::Block(b) => format!("block {b}"),
        StreamLabel::Cluster(c) => format!("cluster {c}"),
    }
}
