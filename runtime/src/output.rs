//! The trace file: opened once, written chunk by chunk under a spin lock that signal handlers
//! can also take (with a bounded wait, so a crash inside a write cannot hang the handler; the
//! lock is never forced or released on another thread's behalf).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

static FD: AtomicI32 = AtomicI32::new(-1);
static WRITE_LOCK: AtomicBool = AtomicBool::new(false);
/// Kernel thread id of the lock's holder (0: none).
static WRITE_OWNER: AtomicU64 = AtomicU64::new(0);
static WRITE_FAILED: AtomicBool = AtomicBool::new(false);

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
    FD.store(fd, Ordering::Release);
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
    for part in parts {
        if !write_one(fd, part, from_signal) {
            break;
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
