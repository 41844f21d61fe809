//! Helpers shared by the integration tests: running rdcc and clang in a scratch directory.

#![allow(dead_code)] // Each test binary uses a different subset.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub use rdcc::tempdir::TempDir;

/// The rdcc binary cargo built for these tests.
pub fn rdcc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_rdcc"))
}

/// The reference compiler.
pub const CLANG: &str = "clang-19";

/// An rdcc command in `dir`, with none of rdcc's environment variables inherited.
pub fn rdcc(dir: &Path) -> Command {
    let mut command = Command::new(rdcc_path());
    command.current_dir(dir);
    for var in [
        "RDCC_CLANG",
        "RDCC_RUNTIME",
        "RDCC_KEEP_TEMPS",
        "RDCC_VERBOSE",
        "RDTRACE",
    ] {
        command.env_remove(var);
    }
    command
}

/// A clang-19 command in `dir`.
pub fn clang(dir: &Path) -> Command {
    let mut command = Command::new(CLANG);
    command.current_dir(dir);
    command
}

/// Runs a command to completion, panicking if it cannot be started.
pub fn output(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

/// Runs a command and panics with its stderr unless it succeeds; returns stdout.
pub fn success(command: &mut Command) -> String {
    let out = output(command);
    assert!(
        out.status.success(),
        "{command:?} failed with {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// A scratch directory removed at the end of the test.
pub fn scratch() -> TempDir {
    TempDir::new(false).expect("cannot create a scratch directory")
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    path
}

/// Symbols of an object file as `nm` lists them: (type letter, name).
pub fn symbols(object: &Path) -> Vec<(char, String)> {
    let out = success(Command::new("nm").arg(object));
    out.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().rev();
            let name = fields.next()?;
            let kind = fields.next()?.chars().next()?;
            Some((kind, name.to_string()))
        })
        .collect()
}

/// Whether `object` defines a symbol whose name contains `name`.
pub fn defines(symbols: &[(char, String)], name: &str) -> bool {
    symbols
        .iter()
        .any(|(kind, sym)| *kind != 'U' && sym.contains(name))
}

/// Whether `object` references (needs) the undefined symbol `name`.
pub fn references(symbols: &[(char, String)], name: &str) -> bool {
    symbols
        .iter()
        .any(|(kind, sym)| *kind == 'U' && sym == name)
}

/// Makes sure `librdruntime.a` is up to date beside the rdcc binary (where rdcc looks for it)
/// by building the runtime crate into the same target directory, once per test binary.
pub fn ensure_runtime() -> PathBuf {
    static RUNTIME: OnceLock<PathBuf> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let exe = rdcc_path();
            let profile_dir = exe.parent().expect("rdcc has a directory");
            let target_dir = profile_dir
                .parent()
                .expect("profile directory has a parent");
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
            let mut command = Command::new(cargo);
            command
                .args(["build", "--quiet", "-p", "rdruntime"])
                .env("CARGO_TARGET_DIR", target_dir)
                .current_dir(env!("CARGO_MANIFEST_DIR"));
            if profile_dir
                .file_name()
                .is_some_and(|name| name == "release")
            {
                command.arg("--release");
            }
            success(&mut command);
            let runtime = profile_dir.join("librdruntime.a");
            assert!(runtime.is_file(), "cargo built no {}", runtime.display());
            runtime
        })
        .clone()
}

/// The entries of a directory (names only), sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
