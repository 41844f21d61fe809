//! The ordering clock shared by all threads.
//!
//! On x86-64 the time-stamp counter: invariant and synchronised across cores on the machines we
//! target, and readable without a system call. Elsewhere `CLOCK_MONOTONIC`, which the vDSO
//! serves without entering the kernel.

/// Name recorded in the trace's program chunk.
#[cfg(target_arch = "x86_64")]
pub const CLOCK_NAME: &str = "tsc";
/// Name recorded in the trace's program chunk.
#[cfg(not(target_arch = "x86_64"))]
pub const CLOCK_NAME: &str = "monotonic-ns";

/// Current clock value.
#[inline(always)]
pub fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // Safety: rdtsc has no preconditions on x86-64.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // Safety: ts is a valid out-pointer.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }
}

/// The clock read after every earlier load and store of this thread is globally visible, and
/// before any later one: what the floor protocol of live streams needs (see
/// `thread::park`). Costs a few tens of cycles; used only when a thread parks or unparks, and by
/// the writer when it publishes floors.
#[inline]
pub fn now_ordered() -> u64 {
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    #[cfg(target_arch = "x86_64")]
    {
        // Safety: lfence and rdtsc have no preconditions on x86-64. MFENCE (the SeqCst fence)
        // then LFENCE keeps RDTSC from running before earlier memory operations; the LFENCE
        // after it keeps later loads from running before it (Intel SDM, RDTSC).
        unsafe {
            core::arch::x86_64::_mm_lfence();
            let t = core::arch::x86_64::_rdtsc();
            core::arch::x86_64::_mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let t = now();
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        t
    }
}
