//! The copy of a live run on disk, for analyses that cannot read the pipe: those that seek in a
//! trace file (`live paths`, `live html`). The copy is the `--tee` file when there is one, else
//! a temporary file in `$TMPDIR`, removed when its guard is dropped; both hold the stream's
//! bytes as they came, so an offline command reads the copy as it would read a trace file
//! written by the runtime.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// A file removed when dropped (the temporary copy of a run).
pub(super) struct TempFile(pub(super) PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Where a run is spooled without a tee copy: one file per process, so two concurrent `live`
/// runs never share one.
pub(super) fn spool_path() -> PathBuf {
    std::env::temp_dir().join(format!("rda-report-live-{}.rdtrace", std::process::id()))
}

/// Checks, before the program runs, that the spool file can be written (a usage error naming
/// `$TMPDIR` otherwise), so the run is not lost to an unwritable temporary directory.
pub(super) fn check_spool_writable(what: &str) -> Result<()> {
    crate::output::check_writable(
        &format!("the spool file of {what} (in $TMPDIR)"),
        &spool_path(),
    )
}

/// Creates the spool file (never an existing one: a leftover of a killed run with the same
/// process id is not silently reused) and its removal guard.
pub(super) fn create_spool() -> Result<(TempFile, std::fs::File)> {
    let path = spool_path();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .with_context(|| format!("creating the spool file {}", path.display()))?;
    Ok((TempFile(path), file))
}

/// Creates (or truncates) the tee copy `path`.
pub(super) fn create_tee(path: &Path) -> Result<std::fs::File> {
    std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))
}
