//! Errors of the SIMT analysis crate.

use std::path::PathBuf;

/// Everything that can go wrong building SIMT reference streams or analysing them.
#[derive(Debug, thiserror::Error)]
pub enum SimtError {
    /// The rdtools trace could not be read.
    #[error(transparent)]
    Trace(#[from] rdtrace::TraceError),
    /// An I/O error on a named file.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error (in the message, not a separate `source`: a printed chain
        /// names it once).
        error: std::io::Error,
    },
    /// A GPU text trace that does not follow `docs/simt-trace-format.md`.
    #[error("{source_name}:{line}: {message}")]
    Parse {
        /// File name (or other label) of the input.
        source_name: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A configuration value that cannot be used (zero block size, zero load/store units, ...).
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    /// A trace's worksharing-loop bounds span far more iterations than the trace ran.
    #[error("{0}")]
    BadBounds(String),
    /// A block scheduler returned a schedule that is not a partition of the grid.
    #[error("block scheduler {scheduler} returned an invalid schedule: {what}")]
    BadSchedule {
        /// Name of the scheduler.
        scheduler: String,
        /// What is wrong.
        what: String,
    },
    /// The threads that build and analyse kernels beside the trace's reading could not be
    /// started, or stopped without saying why.
    #[error("the kernels' threads: {0}")]
    Threads(String),
}

/// Shorthand result type.
pub type Result<T, E = SimtError> = std::result::Result<T, E>;
