//! The trace file: opened once, written chunk by chunk under a spin lock that signal handlers
//! can also take (with a bounded wait, so a crash inside a write cannot hang the handler).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static FD: AtomicI32 = AtomicI32::new(-1);
static WRITE_LOCK: AtomicBool = AtomicBool::new(false);
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

/// Whether a trace file is open.
pub fn is_open() -> bool {
    FD.load(Ordering::Acquire) >= 0
}

/// Takes the write lock; after `max_spins` failed tries, goes ahead anyway when `force`
/// (signal handlers: better a possibly interleaved chunk than a hang), else gives up.
fn lock(max_spins: u64, force: bool) -> bool {
    let mut spins = 0u64;
    while WRITE_LOCK
        .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        spins += 1;
        if spins > max_spins {
            return force;
        }
        std::hint::spin_loop();
        if spins.is_multiple_of(1024) {
            std::thread::yield_now();
        }
    }
    true
}

/// Appends whole chunks to the file. `from_signal` bounds the wait for the lock.
pub fn write_all(bytes: &[u8], from_signal: bool) {
    write_parts(&[bytes], from_signal);
}

/// Appends the parts back to back under one hold of the lock, so they stay contiguous.
pub fn write_parts(parts: &[&[u8]], from_signal: bool) {
    let fd = FD.load(Ordering::Acquire);
    if fd < 0 || WRITE_FAILED.load(Ordering::Relaxed) {
        return;
    }
    let locked = lock(if from_signal { 50_000_000 } else { u64::MAX }, from_signal);
    for part in parts {
        if !write_one(fd, part) {
            break;
        }
    }
    if locked {
        WRITE_LOCK.store(false, Ordering::Release);
    }
}

/// Writes all of `bytes`; false after a write error (reported once).
fn write_one(fd: i32, bytes: &[u8]) -> bool {
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
                crate::diag(&format!(
                    "writing the trace failed ({err}); the trace ends at the last whole chunk"
                ));
            }
            return false;
        }
        rest = &rest[n as usize..];
    }
    true
}
