//! Errors of the trace crate.

use std::path::PathBuf;

/// Everything that can go wrong reading or writing a trace.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// An I/O error on a named file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file does not start with the trace magic.
    #[error("{path}: not an rdtools trace (bad magic at offset 0)")]
    NotATrace {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by a newer or too old version of the format.
    #[error("{path}: trace format version {found} is not supported; this build reads versions {oldest}..={current}")]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// Oldest version this build reads.
        oldest: u32,
        /// Version this build writes.
        current: u32,
    },
    /// A chunk failed its checks.
    #[error("{path}: corrupt chunk at offset {offset}: {what}")]
    CorruptChunk {
        /// The file.
        path: PathBuf,
        /// Byte offset of the chunk header.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A warning, turned into an error by [`crate::reader::OpenOptions::strict`].
    #[error("{0} (strict reading: warnings are errors)")]
    Strict(String),
    /// Metadata that does not decode or does not fit together.
    #[error("bad metadata: {0}")]
    BadMetadata(String),
}

/// Shorthand result type.
pub type Result<T, E = TraceError> = std::result::Result<T, E>;
