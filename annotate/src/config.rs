//! What an annotation run is given (the simulated caches, the false-sharing bounds) and the
//! errors it can end with.

use rdcachesim::{CacheConfig, SharingConfig};
use serde::Serialize;

/// Errors of an annotation run.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// The trace could not be read.
    #[error(transparent)]
    Trace(#[from] rdtrace::TraceError),
    /// The L1 and L2 line sizes differ (distances are counted at one line size).
    #[error("L1 line size {l1} differs from L2 line size {l2}; annotate needs one line size")]
    LineSizes {
        /// L1 line size.
        l1: u32,
        /// L2 line size.
        l2: u32,
    },
}

/// The simulated caches; reuse distances are counted in lines of the L1's line size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AnnotateConfig {
    /// Private L1 per thread.
    pub l1: CacheConfig,
    /// Shared L2.
    pub l2: CacheConfig,
    /// Record the cache lines with coherence misses (the false-sharing view) within these
    /// bounds; `None`: do not.
    pub false_sharing: Option<SharingConfig>,
}

impl Default for AnnotateConfig {
    /// The SASMM paper's caches (8 KiB 8-way L1, 128 KiB 16-way L2, 64-byte lines), the same
    /// defaults as `rda-report measure`.
    fn default() -> Self {
        AnnotateConfig {
            l1: CacheConfig::default(),
            l2: CacheConfig::paper_l2(),
            false_sharing: None,
        }
    }
}
