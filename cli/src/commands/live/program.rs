//! The traced program: started with its trace on a pipe (`RDTRACE=fd:N`), and `live`'s exit
//! with its status once every report is out. One start and one exit for every form of `live`
//! (the histogram and `--predict` flags and the `live ANALYSIS` subcommands).

use super::os::{pipe, signal_name};
use anyhow::{Context, Result};
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};

/// Starts `command` (program and arguments) with the write end of a new pipe as its trace, and
/// returns it with the read end. `sequential`: the analysis needs a sequential run (SASMM's
/// prediction), so `OMP_NUM_THREADS=1` unless the caller's environment sets it.
///
/// From here on `live` ignores SIGINT and SIGQUIT: Ctrl-C reaches the whole process group, the
/// program's runtime flushes and re-raises, and `live` stays to print what was analysed (as
/// `time` and shells do while they wait).
pub(super) fn start(command: &[OsString], sequential: bool) -> Result<(Child, File)> {
    let (read_fd, write_fd) = pipe()?;
    // A larger pipe lets the writer hand over a whole compressed chunk without waiting.
    // Safety: fcntl on our own descriptor; failure only leaves the default size.
    unsafe { libc::fcntl(read_fd, libc::F_SETPIPE_SZ, 1 << 20) };
    // Safety: read_fd is our open read end, owned from here on by the File (closed on every
    // return below).
    let read = unsafe { File::from_raw_fd(read_fd) };
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..])
        .env("RDTRACE", format!("fd:{write_fd}"))
        .env_remove("RDTRACE_TEE");
    if sequential && std::env::var_os("OMP_NUM_THREADS").is_none() {
        cmd.env("OMP_NUM_THREADS", "1");
    }
    // Safety: between fork and exec only async-signal-safe calls (fcntl, signal).
    unsafe {
        cmd.pre_exec(move || {
            // The write end goes to the program; our read end does not.
            libc::fcntl(write_fd, libc::F_SETFD, 0);
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGQUIT, libc::SIG_DFL);
            Ok(())
        });
    }
    // Safety: setting a disposition to SIG_IGN.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGQUIT, libc::SIG_IGN);
    }
    let spawned = cmd.spawn();
    // Safety: closing our copy of the write end, so the pipe ends when the program does.
    unsafe { libc::close(write_fd) };
    let child = spawned.with_context(|| format!("cannot run {}", command[0].to_string_lossy()))?;
    Ok((child, read))
}

/// Ends `live` with the program's status, after its reports: the program's exit code, or
/// 128 + N after saying on stderr that it died by signal N (as a shell reports it).
pub(super) fn exit_with(status: ExitStatus) -> ! {
    let _ = std::io::stdout().flush();
    let code = match (status.code(), status.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => {
            eprintln!(
                "rda-report: the program died by signal {sig} ({}); the report covers what it traced until then",
                signal_name(sig)
            );
            128 + sig
        }
        _ => 1,
    };
    std::process::exit(code);
}
