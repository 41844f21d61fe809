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

/// Reads the trace pipe to its end, discarding what is left, once an analysis is done with it:
/// a reader stops at the end chunk, and a write the runtime still makes after it would fail
/// with a broken pipe (which the runtime reports on stderr) if `live` closed its end first.
/// Returns when the program has closed its end (at its exit).
pub(super) fn drain(mut pipe: &std::fs::File) {
    use std::io::Read;
    let mut buf = [0u8; 1 << 16];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
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
