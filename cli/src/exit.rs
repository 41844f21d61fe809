//! Exit status, decided in one place: 0 success, 1 failure (unreadable or corrupt input, I/O),
//! 2 usage error. Commands return a [`UsageError`] (through `anyhow`) for flags that do not fit
//! together or are out of range; clap's own parse errors are 2 too (`run_args` returns clap's
//! status before a command runs). Below `main` only `live` calls `process::exit`, to end with
//! the traced program's own status once its report is out (and clap exits for errors in the
//! options of its analyses, before the program runs).

use std::fmt;

/// Exit status of a run that succeeded.
pub const SUCCESS: i32 = 0;
/// Exit status of a run that failed (bad input, I/O).
pub const FAILURE: i32 = 1;
/// Exit status of a command line that cannot be run as given (clap's status for its errors).
pub const USAGE: i32 = 2;

/// A command line that cannot be run as given, whatever the input: flags that conflict, or a
/// flag value out of its range. (A value that names something the input lacks, such as a kernel
/// or instruction number past the trace's, is a failure, status 1.)
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// A usage error as an `anyhow::Error` (`return Err(usage(...))`).
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// Whether one error of a chain is a usage error: ours, or an analysis library's report that
/// its configuration (built only from flags) is invalid.
fn is_usage(e: &(dyn std::error::Error + 'static)) -> bool {
    e.is::<UsageError>()
        || is_reported_usage(e)
        || matches!(
            e.downcast_ref::<rdpaths::PathsError>(),
            Some(rdpaths::PathsError::Config(_))
        )
        || matches!(
            e.downcast_ref::<rdsimt::SimtError>(),
            Some(rdsimt::SimtError::InvalidConfig(_))
        )
}

/// A failure that another MPI rank has reported: this process exits with the same status
/// (2 for a usage error, else 1) without printing it again.
#[cfg(feature = "mpi")]
#[derive(Debug)]
pub struct ReportedElsewhere {
    /// Whether the failure is a usage error.
    pub usage: bool,
}

#[cfg(feature = "mpi")]
impl std::fmt::Display for ReportedElsewhere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("failed on another rank")
    }
}

#[cfg(feature = "mpi")]
impl std::error::Error for ReportedElsewhere {}

/// Whether the error was already reported by another process (an MPI rank).
#[cfg(feature = "mpi")]
fn is_reported(e: &(dyn std::error::Error + 'static)) -> bool {
    e.is::<ReportedElsewhere>()
}

/// Whether another process reported this error as a usage error.
#[cfg(feature = "mpi")]
fn is_reported_usage(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<ReportedElsewhere>()
        .is_some_and(|r| r.usage)
}

/// Whether another process reported this error as a usage error (never, without MPI).
#[cfg(not(feature = "mpi"))]
fn is_reported_usage(_: &(dyn std::error::Error + 'static)) -> bool {
    false
}

/// Whether the error was already reported by another process (never, without MPI).
#[cfg(not(feature = "mpi"))]
fn is_reported(_: &(dyn std::error::Error + 'static)) -> bool {
    false
}

/// The exit status for a command's result: [`USAGE`] when a usage error is anywhere in the
/// error's chain, [`FAILURE`] for any other error.
pub fn status_of(result: &anyhow::Result<()>) -> i32 {
    match result {
        Ok(()) => SUCCESS,
        Err(e) if e.chain().any(is_usage) => USAGE,
        Err(_) => FAILURE,
    }
}

/// Prints the error of a failed command (with a hint for usage errors) and returns the status.
pub fn report(result: anyhow::Result<()>) -> i32 {
    let status = status_of(&result);
    if let Err(e) = result {
        if e.chain().any(is_reported) {
            // Another MPI rank has printed the one message of this failure.
            return status;
        }
        eprintln!("rda-report: error: {e:#}");
        if status == USAGE {
            eprintln!("For more information, try '--help'.");
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn usage_errors_map_to_2_even_with_context_and_others_to_1() {
        assert_eq!(status_of(&Ok(())), 0);
        assert_eq!(status_of(&Err(usage("--k applies to scenario 4 only"))), 2);
        let wrapped: anyhow::Result<()> = Err(usage("bad flag")).context("running simt");
        assert_eq!(status_of(&wrapped), 2);
        let io: anyhow::Result<()> = Err(std::io::Error::from(std::io::ErrorKind::NotFound).into());
        assert_eq!(status_of(&io), 1);
        assert_eq!(status_of(&Err(anyhow::anyhow!("corrupt chunk"))), 1);
        let paths: anyhow::Result<()> = Err(rdpaths::PathsError::Config("history".into()).into());
        assert_eq!(status_of(&paths), 2);
        let simt: anyhow::Result<()> =
            Err(rdsimt::SimtError::InvalidConfig("K".into())).context("scenario 4");
        assert_eq!(status_of(&simt), 2);
    }
}
