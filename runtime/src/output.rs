//! The trace file: opened once, written chunk by chunk under a spin lock that signal handlers
//! can also take (with a bounded wait, so a crash inside a write cannot hang the handler; the
//! lock is never forced or released on another thread's behalf).
//!
//! The target may be a pipe (`RDTRACE=fd:N`, or a FIFO path): the trace then becomes a live
//! stream. Writes to a full pipe block, which is the back-pressure of live analysis: the writer
//! thread waits, its bounded buffer pool runs dry, and traced threads wait for a buffer, so a
//! slow reader slows the program instead of losing events or growing memory. If the reader goes
//! away, the write fails with `EPIPE` (SIGPIPE is blocked around our writes and the pending one
//! consumed), tracing stops and the program runs on.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

static FD: AtomicI32 = AtomicI32::new(-1);
static WRITE_LOCK: AtomicBool = AtomicBool::new(false);
/// Kernel thread id of the lock's holder (0: none).
static WRITE_OWNER: AtomicU64 = AtomicU64::new(0);
static WRITE_FAILED: AtomicBool = AtomicBool::new(false);
static STREAM: AtomicBool = AtomicBool::new(false);

/// Whether the target is a stream (not a regular file): the stream format variant applies.
pub fn is_stream() -> bool {
    STREAM.load(Ordering::Relaxed)
}

/// Uses the open descriptor `fd` (`RDTRACE=fd:N`). Fails when it is not open for writing.
pub fn use_fd(fd: i32) -> Result<(), std::io::Error> {
    // Safety: fcntl on an integer descriptor has no memory-safety preconditions.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if flags & libc::O_ACCMODE == libc::O_RDONLY {
        return Err(std::io::Error::other(
            "the descriptor is not open for writing",
        ));
    }
    // Programs the traced program starts must not keep the reader's pipe open.
    // Safety: as above.
    unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    set_fd(fd);
    Ok(())
}

fn set_fd(fd: i32) {
    // Safety: st is a valid out-pointer; fstat only writes it.
    let regular = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFREG
    };
    STREAM.store(!regular, Ordering::Relaxed);
    FD.store(fd, Ordering::Release);
}

/// Opens (creates, truncates) the trace file. Returns the OS error on failure.
pub fn open(path: &std::ffi::CStr) -> Result<(), std::io::Error> {
    // Safety: path is NUL-terminated; flags and mode are plain integers.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC,
            0o644,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    set_fd(fd);
    Ok(())
}

/// Forgets the file in a forked child: the descriptor is the parent's file, and nothing the
/// child does (thread chunks, its exit's end chunk) may land in it. The child's copy of the
/// descriptor stays open (closing it would not affect the parent, but the program may not expect
/// a descriptor to vanish); it is close-on-exec.
pub fn detach() {
    FD.store(-1, Ordering::Release);
}

/// Whether a trace file is open.
pub fn is_open() -> bool {
    FD.load(Ordering::Acquire) >= 0
}

/// Takes the write lock, waiting at most `max_spins` tries; false when it was not taken.
/// The lock is only ever released by the thread that took it: a signal handler that cannot get
/// it gives up writing (the trace then ends at the last whole chunk) rather than write into, or
/// unlock, another thread's chunk. A handler that interrupted its own thread's write gives up at
/// once: that write will never finish, so waiting is pointless and appending would corrupt it.
fn lock(max_spins: u64) -> bool {
    let me = crate::os_tid();
    let mut spins = 0u64;
    while WRITE_LOCK
        .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        if WRITE_OWNER.load(Ordering::Relaxed) == me {
            return false;
        }
        spins += 1;
        if spins > max_spins {
            return false;
        }
        std::hint::spin_loop();
        if spins.is_multiple_of(1024) {
            std::thread::yield_now();
        }
    }
    WRITE_OWNER.store(me, Ordering::Relaxed);
    true
}

/// Releases the lock taken by [`lock`] on this thread.
fn unlock() {
    WRITE_OWNER.store(0, Ordering::Relaxed);
    WRITE_LOCK.store(false, Ordering::Release);
}

/// Appends whole chunks to the file. `from_signal` bounds the wait for the lock.
pub fn write_all(bytes: &[u8], from_signal: bool) {
    write_parts(&[bytes], from_signal);
}

/// Appends the parts back to back under one hold of the lock, so they stay contiguous.
/// From a signal handler, writes nothing if the lock cannot be had within a bounded wait.
pub fn write_parts(parts: &[&[u8]], from_signal: bool) {
    let fd = FD.load(Ordering::Acquire);
    if fd < 0 || WRITE_FAILED.load(Ordering::Relaxed) {
        return;
    }
    if !lock(if from_signal { 50_000_000 } else { u64::MAX }) {
        return;
    }
    let stream = is_stream();
    // Safety: sigset_t is plain data initialised by sigemptyset; pthread_sigmask is
    // async-signal-safe.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    if stream {
        // SAFETY: as above: plain-data signal sets, async-signal-safe calls.
        unsafe {
            let mut block: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut block);
            libc::sigaddset(&mut block, libc::SIGPIPE);
            libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old);
        }
    }
    for part in parts {
        if !write_one(fd, part, from_signal) {
            break;
        }
    }
    if stream {
        // Safety: as above; the zero timeout makes sigtimedwait only consume a SIGPIPE that our
        // own failed write left pending (when the program itself did not block SIGPIPE).
        unsafe {
            if libc::sigismember(&old, libc::SIGPIPE) == 0 {
                let mut pipe: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut pipe);
                libc::sigaddset(&mut pipe, libc::SIGPIPE);
                let zero = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                if WRITE_FAILED.load(Ordering::Relaxed) {
                    libc::sigtimedwait(&pipe, std::ptr::null_mut(), &zero);
                }
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
    }
    unlock();
}

/// Writes all of `bytes`; false after a write error (reported once).
fn write_one(fd: i32, bytes: &[u8], from_signal: bool) -> bool {
    let mut rest = bytes;
    while !rest.is_empty() {
        // Safety: rest points to rest.len() readable bytes.
        let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if n < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            // Disk full or similar: report once, stop writing, keep the program running.
            if !WRITE_FAILED.swap(true, Ordering::Relaxed) {
                if from_signal {
                    // No formatting (allocation) in a signal handler.
                    crate::diag("writing the trace failed; the trace ends at the last whole chunk");
                } else {
                    crate::diag(&format!(
                        "writing the trace failed ({err}); the trace ends at the last whole chunk"
                    ));
                }
            }
            return false;
        }
        rest = &rest[n as usize..];
    }
    true
}
