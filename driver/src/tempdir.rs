//! A private temporary directory for the intermediate files of one rdcc run.
//!
//! The directory is created with mode 0700 under the system temp directory and removed with its
//! contents when dropped, unless `RDCC_KEEP_TEMPS=1`, in which case rdcc prints where it is and
//! leaves it.

use std::fs;
use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

/// Environment variable that keeps the temporary files when set to `1`.
pub const KEEP_TEMPS_ENV: &str = "RDCC_KEEP_TEMPS";

/// A temporary directory removed on drop (unless kept).
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
    keep: bool,
}

impl TempDir {
    /// Creates a fresh private directory; `keep` leaves it in place on drop.
    pub fn new(keep: bool) -> Result<TempDir> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let base = std::env::temp_dir();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        for attempt in 0..100u32 {
            let serial = COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!("rdcc-{}-{nanos:08x}-{serial}-{attempt}", std::process::id());
            let path = base.join(name);
            match fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(TempDir { path, keep }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!("cannot create a temporary directory in {}", base.display())
                    })
                }
            }
        }
        anyhow::bail!(
            "cannot create a temporary directory in {}: names exhausted",
            base.display()
        )
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
        if self.keep {
            eprintln!("rdcc: keeping temporary files in {}", self.path.display());
        } else {
            // Nothing useful can be done about a failure here; the directory is private.
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
