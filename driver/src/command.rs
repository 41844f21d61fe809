//! Running clang: one place that spawns it, echoes the command when asked, and turns a failed
//! run into [`ClangFailed`] carrying clang's exit status.

use std::ffi::OsStr;
use std::fmt;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};

use crate::personality::Personality;

/// Environment variable that makes rdcc print every command it runs to stderr.
pub const VERBOSE_ENV: &str = "RDCC_VERBOSE";

/// clang ran and failed; its diagnostics are already on stderr, so rdcc adds nothing and exits
/// with [`ClangFailed::status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClangFailed {
    /// The exit status to pass on (1 if clang was killed by a signal).
    pub status: i32,
}

impl fmt::Display for ClangFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clang failed with exit status {}", self.status)
    }
}

impl std::error::Error for ClangFailed {}

/// Builds a clang command with the given arguments.
pub fn clang_command<I, S>(clang: &Path, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(clang);
    command.args(args);
    command
}

/// Builds a clang command in `personality`'s driver mode (clang++ for `rdc++`) with the given
/// arguments.
pub fn compiler_command<I, S>(clang: &Path, personality: Personality, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(clang);
    command.args(personality.clang_mode_args());
    command.args(args);
    command
}

/// Runs a command with inherited stdin/stdout/stderr; a non-zero exit becomes [`ClangFailed`].
pub fn run(mut command: Command) -> Result<()> {
    echo_if_verbose(&command);
    let status = command.status().with_context(|| {
        format!(
            "cannot run clang {}",
            Path::new(command.get_program()).display()
        )
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(ClangFailed {
            status: status.code().unwrap_or(1),
        }
        .into())
    }
}

/// Prints the command to stderr as `rdcc: <command>` when `RDCC_VERBOSE` is set (and not `0`).
pub fn echo_if_verbose(command: &Command) {
    if std::env::var_os(VERBOSE_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
        eprintln!("rdcc: {}", render(command));
    }
}

/// The command as one shell-like line (for `RDCC_VERBOSE`).
pub fn render(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|arg| {
            let arg = arg.to_string_lossy();
            if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c))
            {
                format!("'{}'", arg.replace('\'', r"'\''"))
            } else {
                arg.into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
