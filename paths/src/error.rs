//! Errors of the path-based reuse analysis.

/// Everything that can go wrong profiling or predicting.
#[derive(Debug, thiserror::Error)]
pub enum PathsError {
    /// The trace could not be read.
    #[error(transparent)]
    Trace(#[from] rdtrace::TraceError),
    /// A configuration value is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// Profiles that cannot be compared (different line sizes or history lengths).
    #[error("incompatible profiles: {0}")]
    Incompatible(String),
}

/// Shorthand result type.
pub type Result<T, E = PathsError> = std::result::Result<T, E>;
