//! Tracing runtime linked (as a static library) into programs built by `rdcc`.
//!
//! It defines the hooks of [`rdtrace::abi`]: module constructors register their metadata, the
//! instrumented code reports blocks, accesses, branches and OpenMP events, and the runtime
//! writes one trace file per run. Records go into a per-thread buffer (no allocation and no
//! system call per event); a full buffer is handed to the background writer thread, which
//! encodes it into the thread's current chunk and compresses and writes each full chunk. Buffers
//! are flushed at thread exit, at `exit()` from any thread, and (uncompressed, best effort) on
//! fatal signals, which also encode and write the buffers still queued for the writer; a crash
//! loses at most each thread's unflushed buffer.
//!
//! Architecture invariant: depends only on `rdtrace` (format) and libc-level crates; nothing
//! here may panic across the C boundary or allocate on the hot path.

mod abi_check;
mod clock;
mod config;
mod cputime;
mod endframe;
mod flusher;
mod output;
mod roi;
mod signals;
mod thread;

use rdtrace::abi::IdKind;
use rdtrace::chunk::{
    chunk_header, file_header, frame_chunk, postcard_bytes, ChunkKind, Codec, ExitReason,
    ModuleRecord, ProgramInfo,
};
use rdtrace::raw::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering};
use std::sync::Mutex;

/// Prints one diagnostic line on stderr, prefixed so users know it is ours. Allocates nothing
/// (one `writev`), so it is usable from a signal handler.
pub(crate) fn diag(msg: &str) {
    let parts: [&[u8]; 3] = [b"rdtrace: ", msg.as_bytes(), b"\n"];
    let iov = parts.map(|p| libc::iovec {
        iov_base: p.as_ptr() as *mut c_void,
        iov_len: p.len(),
    });
    // Safety: three valid buffers written to fd 2.
    unsafe { libc::writev(2, iov.as_ptr(), iov.len() as libc::c_int) };
}

/// Kernel thread id of the caller.
pub(crate) fn os_tid() -> u64 {
    // Safety: gettid has no preconditions.
    unsafe { libc::syscall(libc::SYS_gettid) as u64 }
}

static TOTAL_MEM_INSTRS: AtomicU32 = AtomicU32::new(0);

/// Memory instructions registered so far (sizes the encoders' predictor tables).
pub(crate) fn total_mem_instrs() -> usize {
    TOTAL_MEM_INSTRS.load(Ordering::Relaxed) as usize
}

/// Whether a module registered so far has OpenMP parallel regions.
static HAS_REGIONS: AtomicBool = AtomicBool::new(false);

/// Whether the program has OpenMP parallel regions (in the modules registered so far).
pub(crate) fn has_parallel_regions() -> bool {
    HAS_REGIONS.load(Ordering::Relaxed)
}

const UNINIT: u8 = 0;
const INITIALISING: u8 = 1;
const READY: u8 = 2;
static INIT: AtomicU8 = AtomicU8::new(UNINIT);

/// Opens the trace, writes the header and program chunk, installs exit and signal handlers.
/// Idempotent; concurrent callers wait for the first.
pub(crate) fn ensure_init() {
    if INIT.load(Ordering::Acquire) == READY {
        return;
    }
    if INIT
        .compare_exchange(UNINIT, INITIALISING, Ordering::AcqRel, Ordering::Acquire)
        .is_err()
    {
        while INIT.load(Ordering::Acquire) != READY {
            std::hint::spin_loop();
        }
        return;
    }
    let cfg = config::get();
    let opened = match cfg.fd {
        Some(fd) => output::use_fd(fd),
        None => std::ffi::CString::new(cfg.path.clone())
            .map_err(std::io::Error::other)
            .and_then(|p| output::open(&p)),
    };
    match opened {
        Ok(()) => {
            let version = if output::is_stream() {
                rdtrace::version::STREAM
            } else {
                rdtrace::version::CURRENT
            };
            output::write_all(&file_header(version), false);
            let info = ProgramInfo {
                program: config::program_path(),
                args: config::program_args(),
                pid: std::process::id(),
                start_unix_ms: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64),
                clock: clock::CLOCK_NAME.into(),
                runtime_version: env!("CARGO_PKG_VERSION").into(),
            };
            write_meta_chunk(ChunkKind::Program, 0, &postcard_bytes(&info));
            roi::init_from_env();
            // Safety: registering plain extern "C" fns with atexit and pthread_atfork.
            unsafe {
                libc::atexit(at_exit);
                libc::pthread_atfork(None, None, Some(in_forked_child));
            }
            signals::install();
            if config::get().background_writer {
                thread::writer::start();
            }
        }
        Err(e) => diag(&format!(
            "cannot open trace file {}: {e}; tracing is off",
            cfg.path
        )),
    }
    INIT.store(READY, Ordering::Release);
}

/// Writes a metadata chunk (program, module, thread, end) holding `payload`, compressed.
pub(crate) fn write_meta_chunk(kind: ChunkKind, thread: u32, payload: &[u8]) {
    let mut frame = Vec::with_capacity(payload.len() + 64);
    let mut z = zstd::bulk::Compressor::new(1).ok();
    frame_chunk(&mut frame, kind, thread, 0, payload, 0, z.as_mut());
    output::write_all(&frame, false);
}

/// Flushes everything and writes the end chunk, once. With `from_signal` it allocates
/// nothing and takes no lock without a bounded wait: thread buffers are encoded into their
/// preallocated payload buffers and written raw, and the end record goes into a buffer kept
/// ready by thread registration ([`endframe`]).
pub(crate) fn finish(reason: ExitReason, from_signal: bool) {
    static FINISHED: AtomicU8 = AtomicU8::new(0);
    if FINISHED.swap(1, Ordering::AcqRel) != 0 || !output::is_open() {
        return;
    }
    if from_signal {
        // Write what the writer was given (it may be stuck), then the partial buffers inline,
        // so each thread's chunks still land in sequence order.
        thread::writer::take_over();
        thread::flush_all(true);
    } else {
        // Hand the partial buffers over and wait until everything is in the file, before the
        // end chunk.
        thread::flush_all(false);
        thread::writer::drain();
    }
    thread::CLOSED.store(true, Ordering::Release);
    let (payload, total, threads) = endframe::end_payload(reason, clock::now());
    if from_signal {
        // Uncompressed, framed on the stack: header and payload in one locked write.
        let len = payload.len() as u32;
        let header = chunk_header(ChunkKind::End, Codec::Raw, 0, 0, payload, len, 0);
        output::write_parts(&[&header, payload], true);
    } else {
        write_meta_chunk(ChunkKind::End, 0, payload);
        let (unmatched, never_called) = roi::unused_names();
        if !unmatched.is_empty() {
            diag(&format!(
                "{}: no function of the program is named {} (misspelt, or inlined into every \
                 caller: mark it noinline); nothing it would select was recorded",
                rdtrace::roi::ENV_FUNCTIONS,
                unmatched.join(", ")
            ));
        }
        if !never_called.is_empty() {
            diag(&format!(
                "{}: {} never ran as a call (the compiler inlined it into its callers): only \
                 its parallel regions were recorded; mark it noinline to record all of it",
                rdtrace::roi::ENV_FUNCTIONS,
                never_called.join(", ")
            ));
        }
        if !config::get().quiet {
            diag(&format!(
                "{total} events from {threads} threads written to {}",
                config::get().path
            ));
            if thread::writer::running() {
                if let Some(split) = cputime::busiest_threads() {
                    diag(&cputime::describe(&split));
                }
            }
        }
    }
}

/// A forked child shares the parent's trace file descriptor and has no writer thread: it stops
/// tracing rather than interleave garbage into the parent's file (no events, no thread chunks,
/// and no end chunk when it exits).
extern "C" fn in_forked_child() {
    thread::writer::disable();
    thread::CLOSED.store(true, Ordering::Release);
    output::detach();
}

extern "C" fn at_exit() {
    finish(ExitReason::Exit, false);
}

static MODULES: Mutex<[u32; IdKind::COUNT]> = Mutex::new([0; IdKind::COUNT]);

/// `__rdt_register_module`: see [`rdtrace::abi::REGISTER_MODULE`].
///
/// # Safety
/// `blob` must point to `len` readable bytes and `bases` to `IdKind::COUNT` writable `u32`s.
#[no_mangle]
pub unsafe extern "C" fn __rdt_register_module(blob: *const u8, len: u64, bases: *mut u32) {
    ensure_init();
    // Safety: guaranteed by the caller (the pass-generated constructor).
    let blob = unsafe { std::slice::from_raw_parts(blob, len as usize) };
    let counts = match rdtrace::meta::blob_counts(blob) {
        Ok(c) => c,
        Err(e) => {
            diag(&format!(
                "a module's metadata is unusable ({e}); was it built by a different rdcc?"
            ));
            std::process::abort();
        }
    };
    let mut next = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    let assigned = *next;
    for (i, b) in assigned.iter().enumerate() {
        // Safety: bases has IdKind::COUNT slots.
        unsafe { *bases.add(i) = *b };
        next[i] += counts[i];
    }
    TOTAL_MEM_INSTRS.store(next[IdKind::MemInstr as usize], Ordering::Relaxed);
    HAS_REGIONS.store(next[IdKind::Region as usize] > 0, Ordering::Relaxed);
    roi::add_module(blob, &assigned);
    write_meta_chunk(
        ChunkKind::Module,
        0,
        &postcard_bytes(&ModuleRecord {
            bases: assigned,
            blob: blob.to_vec(),
        }),
    );
}

/// `__rdt_bb`: see [`rdtrace::abi::BASIC_BLOCK`].
#[no_mangle]
pub extern "C" fn __rdt_bb(bb: u32) {
    thread::record_block(RawEvent::new(TAG_BLOCK, 0, bb, 0));
}

/// `__rdt_block_countdown`: see [`rdtrace::abi::BLOCK_COUNTDOWN`].
#[no_mangle]
pub extern "C" fn __rdt_block_countdown() {
    thread::countdown_zero();
}

/// `__rdt_access`: see [`rdtrace::abi::ACCESS`].
#[no_mangle]
pub extern "C" fn __rdt_access(mi: u32, addr: *const c_void) {
    thread::record(RawEvent::new(TAG_ACCESS, 0, mi, addr as u64));
}

/// `__rdt_access_range`: see [`rdtrace::abi::ACCESS_RANGE`].
#[no_mangle]
pub extern "C" fn __rdt_access_range(mi: u32, addr: *const c_void, len: u64) {
    // Readers refuse a single range longer than `MAX_RANGE_LEN` (a hostile length must not make
    // analyses walk or allocate gigabytes), so a longer memcpy/memset is recorded as several
    // consecutive ranges of the same instruction that together cover it.
    let (mut start, mut left) = (addr as u64, len);
    loop {
        let piece = left.min(rdtrace::codec::MAX_RANGE_LEN);
        thread::record_many(&[
            RawEvent::new(TAG_ACCESS_RANGE, 0, mi, start),
            RawEvent::new(TAG_EXT, 0, 0, piece),
        ]);
        left -= piece;
        if left == 0 {
            break;
        }
        start = start.wrapping_add(piece);
    }
}

/// `__rdt_branch`: see [`rdtrace::abi::BRANCH`].
#[no_mangle]
pub extern "C" fn __rdt_branch(br: u32, outcome: u32) {
    thread::record(RawEvent::new(TAG_BRANCH, 0, br, outcome as u64));
}

/// `__rdt_check`: see [`rdtrace::abi::CHECK`].
#[no_mangle]
pub extern "C" fn __rdt_check() {
    thread::check();
}

/// `__rdt_roi_enter`: see [`rdtrace::abi::ROI_ENTER`].
#[no_mangle]
pub extern "C" fn __rdt_roi_enter(function: u32) {
    roi::enter(function);
    thread::sync_recording();
}

/// `__rdt_roi_exit`: see [`rdtrace::abi::ROI_EXIT`].
#[no_mangle]
pub extern "C" fn __rdt_roi_exit(function: u32) {
    roi::exit(function);
    thread::sync_recording();
}

/// `__rdtrace_markers_used`: see [`rdtrace::abi::MARKERS_USED`].
#[no_mangle]
pub extern "C" fn __rdtrace_markers_used() {
    roi::markers_used();
    thread::sync_recording();
}

/// `__rdtrace_start`: see [`rdtrace::abi::MARKER_START`].
#[no_mangle]
pub extern "C" fn __rdtrace_start() {
    roi::set_markers(true);
    thread::sync_recording();
}

/// `__rdtrace_stop`: see [`rdtrace::abi::MARKER_STOP`].
#[no_mangle]
pub extern "C" fn __rdtrace_stop() {
    roi::set_markers(false);
    thread::sync_recording();
}

/// `__rdt_omp_fork`: see [`rdtrace::abi::OMP_FORK`].
#[no_mangle]
pub extern "C" fn __rdt_omp_fork(region: u32) {
    thread::sync_recording();
    roi::fork(region);
    thread::stamp();
    thread::record(RawEvent::new(TAG_FORK, 0, region, 0));
}

/// `__rdt_omp_join`: see [`rdtrace::abi::OMP_JOIN`].
#[no_mangle]
pub extern "C" fn __rdt_omp_join(region: u32) {
    roi::join(region);
    thread::sync_recording();
    thread::stamp();
    thread::record(RawEvent::new(TAG_JOIN, 0, region, 0));
}

/// `__rdt_omp_region_enter`: see [`rdtrace::abi::OMP_REGION_ENTER`].
#[no_mangle]
pub extern "C" fn __rdt_omp_region_enter(region: u32, thread_num: i32, num_threads: i32) {
    thread::sync_recording();
    thread::stamp();
    let v = (thread_num.max(0) as u64) << 32 | num_threads.max(0) as u64;
    thread::record(RawEvent::new(TAG_REGION_ENTER, 0, region, v));
    thread::set_worker(thread_num > 0);
}

/// `__rdt_omp_region_exit`: see [`rdtrace::abi::OMP_REGION_EXIT`].
#[no_mangle]
pub extern "C" fn __rdt_omp_region_exit(region: u32) {
    thread::sync_recording();
    thread::stamp();
    thread::record(RawEvent::new(TAG_REGION_EXIT, 0, region, 0));
    thread::idle_if_worker();
    // A worker now waits in libomp until the next region: in a stream, hand its events over
    // and let the writer publish floors for it meanwhile (see `thread::park`).
    thread::park_if_worker();
}

/// `__rdt_omp_for_init`: see [`rdtrace::abi::OMP_FOR_INIT`].
#[no_mangle]
pub extern "C" fn __rdt_omp_for_init(
    ws: u32,
    schedule: i32,
    lower: i64,
    upper: i64,
    stride: i64,
    incr: i64,
    chunk: i64,
) {
    thread::sync_recording();
    thread::stamp();
    thread::record_many(&[
        RawEvent::new(TAG_WS_INIT, schedule as u32, ws, lower as u64),
        RawEvent::new(TAG_EXT, 0, 0, upper as u64),
        RawEvent::new(TAG_EXT, 0, 0, stride as u64),
        RawEvent::new(TAG_EXT, 0, 0, incr as u64),
        RawEvent::new(TAG_EXT, 0, 0, chunk as u64),
    ]);
}

/// `__rdt_omp_dispatch_next`: see [`rdtrace::abi::OMP_DISPATCH_NEXT`].
#[no_mangle]
pub extern "C" fn __rdt_omp_dispatch_next(ws: u32, more: i32, lower: i64, upper: i64) {
    thread::sync_recording();
    thread::stamp();
    thread::record_many(&[
        RawEvent::new(TAG_WS_NEXT, (more != 0) as u32, ws, lower as u64),
        RawEvent::new(TAG_EXT, 0, 0, upper as u64),
    ]);
}

/// `__rdt_omp_for_fini`: see [`rdtrace::abi::OMP_FOR_FINI`].
#[no_mangle]
pub extern "C" fn __rdt_omp_for_fini(ws: u32) {
    thread::sync_recording();
    thread::stamp();
    thread::record(RawEvent::new(TAG_WS_FINI, 0, ws, 0));
}

/// `__rdt_omp_barrier`: see [`rdtrace::abi::OMP_BARRIER`].
#[no_mangle]
pub extern "C" fn __rdt_omp_barrier() {
    thread::sync_recording();
    thread::stamp();
    thread::record(RawEvent::new(TAG_BARRIER, 0, 0, 0));
}

#[cfg(test)]
mod tests {
    /// The exported names are the ABI's names (a rename on either side must fail here).
    #[test]
    fn hook_names_match_the_abi() {
        use rdtrace::abi::*;
        let ours = [
            (REGISTER_MODULE, "__rdt_register_module"),
            (BASIC_BLOCK, "__rdt_bb"),
            (BLOCK_COUNTDOWN, "__rdt_block_countdown"),
            (ACCESS, "__rdt_access"),
            (ACCESS_RANGE, "__rdt_access_range"),
            (BRANCH, "__rdt_branch"),
            (OMP_FORK, "__rdt_omp_fork"),
            (OMP_JOIN, "__rdt_omp_join"),
            (OMP_REGION_ENTER, "__rdt_omp_region_enter"),
            (OMP_REGION_EXIT, "__rdt_omp_region_exit"),
            (OMP_FOR_INIT, "__rdt_omp_for_init"),
            (OMP_DISPATCH_NEXT, "__rdt_omp_dispatch_next"),
            (OMP_FOR_FINI, "__rdt_omp_for_fini"),
            (OMP_BARRIER, "__rdt_omp_barrier"),
            (ROI_ENTER, "__rdt_roi_enter"),
            (ROI_EXIT, "__rdt_roi_exit"),
            (CHECK, "__rdt_check"),
        ];
        for (abi, defined) in ours {
            assert_eq!(abi, defined);
        }
        assert_eq!(ours.len(), ALL_HOOKS.len());
    }
}
