//! Locating (and building) the tools: the workspace, `test-programs/`, `rdcc`, its other
//! names, `rda-report` and the runtime; compiling with `rdcc`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace root.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A file under `test-programs/`.
pub fn program(rel: &str) -> PathBuf {
    workspace().join("test-programs").join(rel)
}

/// The built tools of the profile these tests were built in.
pub struct Tools {
    /// Path of `rdcc`.
    pub rdcc: PathBuf,
    /// `rdc++`: rdcc as a drop-in clang++ (a link to rdcc, made here if missing).
    pub rdcxx: PathBuf,
    /// `rdflang`: rdcc as a drop-in flang (a link to rdcc).
    pub rdflang: PathBuf,
    /// `rdclang`: rdcc under a name with "clang" in it (a link to rdcc).
    pub rdclang: PathBuf,
    /// Path of `rda-report`.
    pub rda_report: PathBuf,
}

/// Set (to anything) by `scripts/test.sh`, which builds the whole workspace with the tests'
/// features before it runs them: the tools are then used as built, without a `cargo build`
/// per test process.
pub const PREBUILT_ENV: &str = "RDTOOLS_E2E_PREBUILT";

/// Finds the tools next to the test binary (`target/<profile>/`). Unless [`PREBUILT_ENV`] says
/// they were built already, builds them once per test process first: `cargo test` does not
/// rebuild binaries of other packages, and a stale `rdcc` would test old code (a no-op when
/// they are up to date).
pub fn tools() -> &'static Tools {
    static TOOLS: OnceLock<Tools> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let mut dir = std::env::current_exe().unwrap();
        dir.pop(); // deps
        dir.pop(); // <profile>
        if std::env::var_os(PREBUILT_ENV).is_none() {
            build_tools(&dir);
        }
        for tool in ["rdcc", "rda-report", "librdruntime.a"] {
            assert!(
                dir.join(tool).exists(),
                "{} is missing: build the workspace first (or unset {PREBUILT_ENV})",
                dir.join(tool).display()
            );
        }
        // rdcc's other names are links to it, as `scripts/aliases.sh` makes them.
        let alias = |name: &str| {
            let link = dir.join(name);
            if std::fs::read_link(&link).is_err() {
                let _ = std::fs::remove_file(&link);
                // Several test processes may race here; one of them makes the link.
                let _ = std::os::unix::fs::symlink("rdcc", &link);
            }
            link
        };
        alias("rdclang++");
        Tools {
            rdcxx: alias("rdc++"),
            rdflang: alias("rdflang"),
            rdclang: alias("rdclang"),
            rdcc: dir.join("rdcc"),
            rda_report: dir.join("rda-report"),
        }
    })
}

/// `cargo build`s rdcc, rda-report and the runtime into `dir` (`target/<profile>/`) with the
/// features this test build has.
fn build_tools(dir: &Path) {
    let mut cmd = Command::new(env!("CARGO"));
    // Into the target directory this test binary lives in, whatever CARGO_TARGET_DIR says.
    cmd.current_dir(workspace())
        .env("CARGO_TARGET_DIR", dir.parent().expect("target dir"))
        .args([
            "build",
            "-q",
            "-p",
            "rdcc",
            "-p",
            "rda-report",
            "-p",
            "rdruntime",
        ]);
    if dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    // Same features as this test build, or the build below would replace a GPU-enabled
    // rda-report by one without `hprda-gpu`.
    if cfg!(feature = "gpu") {
        cmd.args(["--features", "rda-report/gpu"]);
    }
    if cfg!(feature = "mpi") {
        cmd.args(["--features", "rda-report/mpi"]);
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "building the tools failed");
}

/// Compiles `sources` with `rdcc flags… -o out`; panics with clang's diagnostics on failure.
pub fn rdcc(sources: &[PathBuf], flags: &[&str], out: &Path) {
    let o = Command::new(&tools().rdcc)
        .args(flags)
        .args(sources)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "rdcc {flags:?} {sources:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
