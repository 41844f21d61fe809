//! Errors of the SASMM model.

use std::path::PathBuf;

/// Everything that can go wrong building or evaluating the model.
#[derive(Debug, thiserror::Error)]
pub enum SasmmError {
    /// The trace could not be read.
    #[error(transparent)]
    Trace(#[from] rdtrace::TraceError),
    /// SASMM needs the trace of a run with one thread.
    #[error("{path}: SASMM needs the trace of a sequential run (OMP_NUM_THREADS=1), but {threads} threads recorded events")]
    NotSequential {
        /// The trace.
        path: PathBuf,
        /// Threads with events.
        threads: usize,
    },
    /// The trace holds no memory accesses.
    #[error("{path}: the trace holds no memory accesses")]
    Empty {
        /// The trace.
        path: PathBuf,
    },
    /// The temporary file of a parallel section too long to hold could not be written or read.
    #[error("temporary file of a spilled parallel section (set TMPDIR to a disk with room): {0}")]
    Spill(#[source] std::io::Error),
    /// A configuration value is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
}

/// Result alias.
pub type Result<T, E = SasmmError> = std::result::Result<T, E>;
