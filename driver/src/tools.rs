//! Finding the tools rdcc runs and links: clang and the runtime library.
//!
//! - clang: `RDCC_CLANG` (a path, or a name looked up on `PATH`), else `clang-19` on `PATH`, else
//!   `/usr/lib/llvm-19/bin/clang`.
//! - runtime: `RDCC_RUNTIME` (path to `librdruntime.a`), else `librdruntime.a` beside the rdcc
//!   executable (where cargo puts both), else `../lib/librdruntime.a` relative to the executable
//!   (an installed tree with `bin/` and `lib/`).

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// Environment variable naming the clang to use.
pub const CLANG_ENV: &str = "RDCC_CLANG";
/// Environment variable naming the runtime library to link.
pub const RUNTIME_ENV: &str = "RDCC_RUNTIME";
/// The clang rdcc looks for on `PATH`.
pub const DEFAULT_CLANG_NAME: &str = "clang-19";
/// Where Debian installs LLVM 19's clang.
pub const FALLBACK_CLANG: &str = "/usr/lib/llvm-19/bin/clang";
/// File name of the runtime library.
pub const RUNTIME_FILE_NAME: &str = "librdruntime.a";
/// System libraries the runtime (a Rust static library) needs at link time.
pub const RUNTIME_SYSTEM_LIBS: &[&str] = &["-lpthread", "-ldl", "-lm"];

/// Environment variable naming the flang to use for Fortran sources.
pub const FLANG_ENV: &str = "RDCC_FLANG";
/// The flang rdcc looks for on `PATH`.
pub const DEFAULT_FLANG_NAME: &str = "flang-new-19";
/// Where Debian installs LLVM 19's flang (package `flang-19`).
pub const FALLBACK_FLANG: &str = "/usr/lib/llvm-19/bin/flang-new";
/// Libraries a program with Fortran objects links: flang's runtime (which also defines the
/// `main` that calls a Fortran main program) and what it needs.
pub const FORTRAN_RUNTIME_LIBS: &[&str] = &["-lFortranRuntime", "-lFortranDecimal", "-lm"];

/// Finds the flang that compiles Fortran sources.
pub fn find_flang() -> Result<PathBuf> {
    find_flang_with(env::var_os(FLANG_ENV), env::var_os("PATH"))
}

/// [`find_flang`] with its environment given explicitly.
pub fn find_flang_with(flang_env: Option<OsString>, path_env: Option<OsString>) -> Result<PathBuf> {
    find_compiler(
        FLANG_ENV,
        flang_env,
        path_env,
        DEFAULT_FLANG_NAME,
        FALLBACK_FLANG,
    )?
    .with_context(|| {
        format!(
            "cannot find flang to compile Fortran: set {FLANG_ENV}, put {DEFAULT_FLANG_NAME} on \
             PATH, or install Debian's flang-19 (bash scripts/setup.sh does)"
        )
    })
}

/// The directory with flang's runtime libraries: `lib/` beside the `bin/` of the real flang
/// (`/usr/bin/flang-new-19` is a link into `/usr/lib/llvm-19/bin`).
pub fn fortran_runtime_dir(flang: &Path) -> PathBuf {
    let real = flang.canonicalize().unwrap_or_else(|_| flang.to_path_buf());
    real.parent()
        .and_then(Path::parent)
        .map(|prefix| prefix.join("lib"))
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/lib"))
}

/// Finds the clang to run.
pub fn find_clang() -> Result<PathBuf> {
    find_clang_with(env::var_os(CLANG_ENV), env::var_os("PATH"))
}

/// [`find_clang`] with its environment given explicitly.
pub fn find_clang_with(clang_env: Option<OsString>, path_env: Option<OsString>) -> Result<PathBuf> {
    find_compiler(
        CLANG_ENV,
        clang_env,
        path_env,
        DEFAULT_CLANG_NAME,
        FALLBACK_CLANG,
    )?
    .with_context(|| {
        format!(
            "cannot find clang: set {CLANG_ENV}, put {DEFAULT_CLANG_NAME} on PATH, or install \
             LLVM 19 in /usr/lib/llvm-19"
        )
    })
}

/// A compiler named by the environment variable `var` (a path, or a name looked up on `PATH`),
/// else `default` on `PATH`, else `fallback`; `None` when neither is there. A variable that
/// names a missing compiler is an error.
fn find_compiler(
    var: &str,
    value: Option<OsString>,
    path_env: Option<OsString>,
    default: &str,
    fallback: &str,
) -> Result<Option<PathBuf>> {
    if let Some(named) = value.filter(|value| !value.is_empty()) {
        let named = PathBuf::from(named);
        if named.components().count() > 1 {
            if named.is_file() {
                return Ok(Some(named));
            }
            bail!("{var} names {}, which does not exist", named.display());
        }
        return search_path(&named, path_env.as_deref())
            .map(Some)
            .with_context(|| format!("{var} names {}, which is not on PATH", named.display()));
    }
    if let Some(found) = search_path(Path::new(default), path_env.as_deref()) {
        return Ok(Some(found));
    }
    let fallback = Path::new(fallback);
    Ok(fallback.is_file().then(|| fallback.to_path_buf()))
}

/// Looks `name` up in the directories of a `PATH` value.
fn search_path(name: &Path, path_env: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    env::split_paths(path_env?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Finds the runtime library to link.
pub fn find_runtime() -> Result<PathBuf> {
    let exe = env::current_exe().context("cannot locate the rdcc executable")?;
    find_runtime_with(env::var_os(RUNTIME_ENV), &exe)
}

/// [`find_runtime`] with its environment and executable path given explicitly.
pub fn find_runtime_with(runtime_env: Option<OsString>, exe: &Path) -> Result<PathBuf> {
    if let Some(runtime) = runtime_env.filter(|value| !value.is_empty()) {
        let runtime = PathBuf::from(runtime);
        if runtime.is_file() {
            return Ok(runtime);
        }
        bail!(
            "{RUNTIME_ENV} names {}, which does not exist",
            runtime.display()
        );
    }
    let candidates = runtime_candidates(exe);
    if let Some(found) = candidates.iter().find(|candidate| candidate.is_file()) {
        return Ok(found.clone());
    }
    let looked: Vec<String> = candidates.iter().map(|c| c.display().to_string()).collect();
    bail!(
        "cannot find the runtime library {RUNTIME_FILE_NAME}: {RUNTIME_ENV} is not set and it is \
         not at {}; build it with `cargo build -p rdruntime` or set {RUNTIME_ENV}",
        looked.join(" or ")
    )
}

/// The places beside the executable where the runtime may be, in search order.
fn runtime_candidates(exe: &Path) -> Vec<PathBuf> {
    let dir = exe.parent().unwrap_or(Path::new("."));
    vec![
        dir.join(RUNTIME_FILE_NAME),
        dir.join("..").join("lib").join(RUNTIME_FILE_NAME),
    ]
}

/// File name of the region-of-interest marker header.
pub const MARKER_HEADER: &str = "rdtrace.h";

/// The directory holding `rdtrace.h` (the region-of-interest markers) for `-idirafter`: the
/// installed `../include` beside the executable, or the source tree's `runtime/include` for a
/// build in `target/<profile>/`. `None` when neither exists (an `#include <rdtrace.h>` then
/// fails with clang's own message).
pub fn marker_include_dir() -> Option<PathBuf> {
    let exe = env::current_exe().ok()?;
    let dir = exe.parent()?;
    [
        dir.join("..").join("include"),
        dir.join("..").join("..").join("runtime").join("include"),
    ]
    .into_iter()
    .find(|d| d.join(MARKER_HEADER).is_file())
}

/// Asks clang for its version (`19.1.7` from `Debian clang version 19.1.7 (3~deb12u1)`) and
/// returns it with clang's whole `--version` text.
pub fn clang_version(clang: &Path) -> Result<(String, String)> {
    let output = Command::new(clang)
        .arg("--version")
        .output()
        .with_context(|| format!("cannot run clang {}", clang.display()))?;
    if !output.status.success() {
        bail!(
            "{} --version failed with {}",
            clang.display(),
            output.status
        );
    }
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let version = parse_clang_version(&text)
        .with_context(|| format!("cannot read the version of {}", clang.display()))?;
    Ok((version, text))
}

/// Extracts the version number from clang's `--version` text.
pub fn parse_clang_version(text: &str) -> Option<String> {
    let first = text.lines().next()?;
    let rest = &first[first.find("clang version ")? + "clang version ".len()..];
    let version = rest.split_whitespace().next()?;
    Some(version.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_read_from_vendor_banners() {
        assert_eq!(
            parse_clang_version("Debian clang version 19.1.7 (3~deb12u1)\nTarget: x").as_deref(),
            Some("19.1.7")
        );
        assert_eq!(
            parse_clang_version("clang version 19.1.0\n").as_deref(),
            Some("19.1.0")
        );
        assert_eq!(parse_clang_version("gcc (Debian 12.2.0) 12.2.0"), None);
    }
}
