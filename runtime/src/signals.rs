//! Best-effort flush on fatal signals: every thread's buffer is written uncompressed (no
//! allocation, bounded lock waits), the end chunk records the signal, and the default action
//! then runs (the handler is installed with `SA_RESETHAND`, so the signal is re-delivered).

use std::sync::atomic::{AtomicBool, Ordering};

/// Signals after which the trace is flushed.
pub const FATAL_SIGNALS: [libc::c_int; 7] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGFPE,
    libc::SIGILL,
    libc::SIGABRT,
    libc::SIGTERM,
    libc::SIGINT,
];

static IN_HANDLER: AtomicBool = AtomicBool::new(false);

extern "C" fn on_fatal_signal(sig: libc::c_int) {
    if !IN_HANDLER.swap(true, Ordering::AcqRel) {
        crate::finish(rdtrace::chunk::ExitReason::Signal(sig), true);
    }
    // Re-raise: SA_RESETHAND restored the default action, so this ends the process with the
    // right status whether the signal was sent (kill, raise, abort) or caused by a faulting
    // instruction (which would otherwise fault again on return anyway).
    // Safety: raising a signal has no memory-safety preconditions.
    unsafe { libc::raise(sig) };
}

/// Installs the handlers for [`FATAL_SIGNALS`], leaving alone any the program already handles.
pub fn install() {
    for sig in FATAL_SIGNALS {
        // Safety: sigaction structs are plain data; we only read the old action and install a
        // handler with an `extern "C" fn(c_int)` signature.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0
                || old.sa_sigaction != libc::SIG_DFL
            {
                continue;
            }
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_fatal_signal as extern "C" fn(libc::c_int) as usize;
            act.sa_flags = libc::SA_RESETHAND | libc::SA_NODEFER;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}
