//! Child processes whose cost is measured (wall time, CPU time, peak RSS from `wait4`) or
//! bounded (`rda-report` on hostile inputs under time and memory limits).

use crate::tools;
use std::process::Command;

/// What a finished child cost, from the kernel's accounting (`wait4`).
#[derive(Clone, Copy, Debug)]
pub struct ChildCost {
    /// Wall time from spawn to exit.
    pub wall: std::time::Duration,
    /// User plus system CPU seconds.
    pub cpu_s: f64,
    /// Peak resident set, KiB (the child's own, or the largest child it reaped).
    pub peak_rss_kib: u64,
}

/// Spawns `cmd` (stdin closed; stdout and stderr as the caller set them), waits for it with
/// `wait4`, asserts it exited with status 0, and returns its wall time, CPU time and peak RSS.
// The child is reaped by `wait4` (which also gives its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn run_measured(cmd: &mut Command) -> ChildCost {
    let t = std::time::Instant::now();
    let child = cmd
        .stdin(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: status and usage are valid out-pointers; the pid is our own unreaped child.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = t.elapsed();
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{cmd:?} failed: status {status:#x}"
    );
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    ChildCost {
        wall,
        cpu_s: secs(usage.ru_utime) + secs(usage.ru_stime),
        peak_rss_kib: usage.ru_maxrss as u64,
    }
}

/// Wall-clock limit of every command on a hostile trace (issue 27).
pub const HOSTILE_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);
/// Address-space limit (`setrlimit(RLIMIT_AS)`) of every command on a hostile trace (issue 27).
pub const HOSTILE_MEM_LIMIT: u64 = 4 << 30;

/// A bounded `rda-report` run that ended as a hostile input allows: exit 0, or exit 1 with an
/// error message.
#[derive(Clone, Debug)]
pub struct BoundedRun {
    /// The exit status: 0 or 1.
    pub code: i32,
    /// Its standard error.
    pub stderr: String,
    /// Wall time from spawn to exit.
    pub wall: std::time::Duration,
    /// Peak resident set, KiB (from `wait4`).
    pub peak_rss_kib: u64,
}

/// Runs `rda-report args…` under [`HOSTILE_TIME_LIMIT`] and [`HOSTILE_MEM_LIMIT`] (set with
/// `setrlimit(RLIMIT_AS)` between fork and exec, with two malloc arenas so that the limit is on
/// what it allocates, not on reserved arenas), standard output discarded. `Err` says why a run
/// is not acceptable: a signal (an abort from a failed allocation included), a panic (101), a
/// usage error (2), a timeout (the child is killed), or exit 1 without an `rda-report: error:`
/// message.
// The child is reaped by `wait4` (which also gives its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn rda_report_bounded<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Result<BoundedRun, String> {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args)
        .env("MALLOC_ARENA_MAX", "2")
        .env("RAYON_NUM_THREADS", "2")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: HOSTILE_MEM_LIMIT,
                rlim_max: HOSTILE_MEM_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = std::time::Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("spawn: {e}"))?;
    let pid = child.id() as i32;
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: status and usage are valid out-pointers; the pid is our own unreaped child.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            return Err(format!("wait4: {}", std::io::Error::last_os_error()));
        }
        if start.elapsed() > HOSTILE_TIME_LIMIT && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let wall = start.elapsed();
    let err = reader.join().unwrap();
    let tail: String = {
        let chars: Vec<char> = err.chars().collect();
        chars[chars.len().saturating_sub(600)..].iter().collect()
    };
    if timed_out {
        return Err(format!(
            "still running after {HOSTILE_TIME_LIMIT:?}: {tail}"
        ));
    }
    let run = |code| BoundedRun {
        code,
        stderr: err.clone(),
        wall,
        peak_rss_kib: usage.ru_maxrss as u64,
    };
    if libc::WIFSIGNALED(status) {
        return Err(format!(
            "killed by signal {}: {tail}",
            libc::WTERMSIG(status)
        ));
    }
    match libc::WEXITSTATUS(status) {
        0 => Ok(run(0)),
        1 if err.contains("rda-report: error:") => Ok(run(1)),
        1 => Err(format!("exit status 1 without an error message: {tail}")),
        c => Err(format!("exit status {c}: {tail}")),
    }
}
