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

/// Standard output diverted to an anonymous memory file while an analysis reads the pipe: the
/// analysis prints its report when the trace ends, which can be before the program's last
/// output (the C library flushes `stdout` after the runtime has closed the trace), and `live`
/// prints every report after the program's output. The program keeps the real standard
/// output (it was started before). Dropping the capture restores standard output and prints
/// what was captured.
pub(super) struct StdoutCapture {
    saved: std::os::fd::OwnedFd,
    captured: std::fs::File,
}

impl StdoutCapture {
    /// Diverts file descriptor 1 (and so `std::io::stdout`) until the capture is dropped.
    pub(super) fn start() -> Result<StdoutCapture> {
        use std::io::Write;
        use std::os::fd::FromRawFd;
        std::io::stdout()
            .flush()
            .context("flushing standard output")?;
        // Safety: memfd_create with a NUL-terminated name; the descriptor is owned below.
        let fd =
            unsafe { libc::memfd_create(c"rda-report-live-report".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error()).context("creating the report buffer");
        }
        // Safety: fd is our new descriptor.
        let captured = unsafe { std::fs::File::from_raw_fd(fd) };
        // Safety: duplicating descriptor 1, owned below.
        let saved = unsafe { libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3) };
        if saved < 0 {
            return Err(std::io::Error::last_os_error()).context("saving standard output");
        }
        // Safety: saved is our new descriptor.
        let saved = unsafe { std::os::fd::OwnedFd::from_raw_fd(saved) };
        // Safety: dup2 between two open descriptors.
        if unsafe { libc::dup2(fd, 1) } < 0 {
            return Err(std::io::Error::last_os_error()).context("diverting standard output");
        }
        Ok(StdoutCapture { saved, captured })
    }
}

impl Drop for StdoutCapture {
    fn drop(&mut self) {
        use std::io::{Seek, Write};
        use std::os::fd::AsRawFd;
        let _ = std::io::stdout().flush();
        // Safety: dup2 between two open descriptors.
        unsafe { libc::dup2(self.saved.as_raw_fd(), 1) };
        if self.captured.rewind().is_ok() {
            let mut out = std::io::stdout().lock();
            let _ = std::io::copy(&mut self.captured, &mut out);
            let _ = out.flush();
        }
    }
}
