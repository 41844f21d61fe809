//! Errors of the trace crate.

use std::path::PathBuf;

/// Everything that can go wrong reading or writing a trace.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// An I/O error on a named file. (The OS error is part of the message, not a separate
    /// `source`, so that a printed error chain names it once.)
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The file does not start with the trace magic.
    #[error("{path}: not an rdtools trace (bad magic at offset 0)")]
    NotATrace {
        /// The file.
        path: PathBuf,
    },
    /// The path is not a regular file (a pipe, FIFO, socket or device): [`crate::Trace`] seeks
    /// and checks lengths against the file's size, which such a file does not have.
    #[error("{path}: not a regular file (a pipe, FIFO or device): read it as a stream (rdtrace::LiveTrace), or save it to a file first")]
    NotAFile {
        /// The path.
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
    /// Wide accesses touch more bytes beyond their first line than the bound allows (see
    /// [`crate::work`]): a crafted or damaged trace asking for hours of work, or a genuine one
    /// of very many large ranges.
    #[error(
        "{path}: wide accesses (large loads or stores, memcpy/memset ranges) touch {} beyond \
         their first 64-byte line in {} of trace ({} accesses), over the bound of {} ({}); \
         every analysis visits each line, and a few KB of trace can ask for hours of work this \
         way. If the trace is genuine, raise the bound with --max-touched SIZE or lift it with --max-touched unlimited",
        crate::work::human_bytes(touched.beyond_first_line),
        crate::work::human_bytes(touched.trace_bytes),
        touched.accesses,
        crate::work::human_bytes(limit.bound(touched.trace_bytes, touched.accesses).unwrap_or(u64::MAX)),
        limit.describe()
    )]
    TooMuchWork {
        /// The file or stream.
        path: PathBuf,
        /// What was counted when the bound was exceeded.
        touched: crate::work::Touched,
        /// The bound in force.
        limit: crate::work::TouchLimit,
    },
    /// A trace opened with [`crate::reader::OpenOptions::defer_validation`] met what the
    /// validation at open would have judged (a damaged chunk, the touch bound exceeded): open
    /// it again without deferral to read it under those verdicts.
    #[error("{path}: {why}; the trace must be read again with its events validated at open")]
    Revalidate {
        /// The file.
        path: PathBuf,
        /// What was found.
        why: String,
    },
    /// Metadata that does not decode or does not fit together.
    #[error("bad metadata: {0}")]
    BadMetadata(String),
}

/// Shorthand result type.
pub type Result<T, E = TraceError> = std::result::Result<T, E>;

impl TraceError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, error: std::io::Error) -> TraceError {
        TraceError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}
