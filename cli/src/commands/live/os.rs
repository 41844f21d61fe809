//! What `live` asks of the operating system: the trace pipe, signal names, its own peak RSS.

use anyhow::{Context, Result};

/// This process's peak resident set size (`VmHWM` in /proc/self/status), in KiB.
pub(super) fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A pipe whose both ends are close-on-exec (the program gets the write end explicitly).
pub(super) fn pipe() -> Result<(i32, i32)> {
    let mut fds = [0i32; 2];
    // Safety: fds is a valid out-array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error()).context("creating the trace pipe");
    }
    Ok((fds[0], fds[1]))
}

/// The usual name of a signal number.
pub(super) fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGPIPE => "SIGPIPE",
        _ => "signal",
    }
}
