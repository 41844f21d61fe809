//! A private temporary directory for the intermediate files of one rdcc run.
//!
//! The directory is created with mode 0700 under the system temp directory and removed with its
//! contents when dropped, unless `RDCC_KEEP_TEMPS=1`, in which case rdcc prints where it is and
//! leaves it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Environment variable that keeps the temporary files when set to `1`.
pub const KEEP_TEMPS_ENV: &str = "RDCC_KEEP_TEMPS";

/// A temporary directory removed on drop (unless kept): a `tempfile::TempDir` (mode 0700) that
/// can be left in place.
#[derive(Debug)]
pub struct TempDir {
    /// `None` only during drop.
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
    keep: bool,
}

impl TempDir {
    /// Creates a fresh private directory; `keep` leaves it in place on drop.
    pub fn new(keep: bool) -> Result<TempDir> {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::Builder::new()
            .prefix(&format!("rdcc-{}-", std::process::id()))
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir()
            .with_context(|| {
                format!(
                    "cannot create a temporary directory in {}",
                    std::env::temp_dir().display()
                )
            })?;
        let path = dir.path().to_path_buf();
        Ok(TempDir {
            dir: Some(dir),
            path,
            keep,
        })
    }

    /// Creates a temporary directory, kept if `RDCC_KEEP_TEMPS=1`.
    pub fn from_env() -> Result<TempDir> {
        TempDir::new(std::env::var_os(KEEP_TEMPS_ENV).is_some_and(|v| v == "1"))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the directory is left in place on drop.
    pub fn is_kept(&self) -> bool {
        self.keep
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        if self.keep {
            let _ = dir.keep();
            eprintln!("rdcc: keeping temporary files in {}", self.path.display());
        }
        // Otherwise `tempfile` removes it; nothing useful can be done about a failure there.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn directory_is_private_and_removed_on_drop() {
        use std::os::unix::fs::PermissionsExt;
        let dir = TempDir::new(false).unwrap();
        let path = dir.path().to_path_buf();
        fs::write(path.join("x"), b"x").unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o700
        );
        drop(dir);
        assert!(!path.exists());
    }

    #[test]
    fn kept_directory_survives_drop() {
        let dir = TempDir::new(true).unwrap();
        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(path.is_dir());
        fs::remove_dir_all(path).unwrap();
    }
}
