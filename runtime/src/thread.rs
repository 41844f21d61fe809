//! Per-thread event buffers and the registry that lets exit and signal handlers flush every
//! thread's buffer.
//!
//! Hot path: a thread-local pointer to the thread's [`ThreadState`]; an event is a 16-byte store
//! into a small raw buffer and a length bump. When the raw buffer (a few thousand records, so it
//! is still in cache) is full, the owning thread appends it to the chunk it is encoding; a
//! finished chunk's compact payload goes to the background writer, which compresses and writes
//! it. No allocation once warmed up, no system call on the traced thread.
//!
//! States are never freed: a thread that exits flushes and returns its state to a free list, and
//! a later thread reuses it. That way a handler holding a pointer taken from the registry can
//! never see freed memory.

use crate::flusher::{write_raw_chunk, Compressor};
use crate::{clock, config, writer};
use rdtrace::chunk::{ChunkKind, ThreadInfo};
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::{RawEvent, TAG_STAMP};
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// Most threads that can trace at once; events of further threads are dropped (with a warning).
pub const MAX_THREADS: usize = 4096;

/// A chunk is closed at this many payload bytes even if it has fewer events than configured.
const MAX_CHUNK_BYTES: usize = 4 << 20;

/// Everything one thread needs to record and flush.
pub struct ThreadState {
    /// The raw buffer being filled.
    events: Box<[RawEvent]>,
    /// Valid records in `events`. Written by the owner (Release), read by flushers (Acquire).
    len: AtomicUsize,
    /// Held while records are encoded or a chunk is closed, by the owner or by an exit/signal
    /// flusher.
    busy: AtomicBool,
    /// Whether a live thread owns this state.
    in_use: AtomicBool,
    thread: AtomicU32,
    seq: AtomicU32,
    recorded: AtomicU64,
    /// Blocks until the next stamp (owner only).
    countdown: Cell<u32>,
    /// The chunk being encoded.
    encoder: UnsafeCell<ChunkEncoder>,
    /// Compressor for closing chunks on this thread when there is no writer thread.
    compressor: UnsafeCell<Option<Compressor>>,
}

// Safety: the non-Sync parts (countdown, events, encoder, compressor) are only touched by the
// owner, or by a flusher while it holds `busy`.
unsafe impl Sync for ThreadState {}

static REGISTRY: [AtomicPtr<ThreadState>; MAX_THREADS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_THREADS];
static REGISTERED: AtomicUsize = AtomicUsize::new(0);
static NEXT_THREAD: AtomicU32 = AtomicU32::new(0);
static DROPPED_WARNED: AtomicBool = AtomicBool::new(false);
/// Event counts of threads that have exited (their states may be reused by others).
static FINISHED: std::sync::Mutex<Vec<(u32, u64)>> = std::sync::Mutex::new(Vec::new());
/// Set once the final flush has written the end chunk: later events are not written.
pub static CLOSED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static CURRENT: Cell<*const ThreadState> = const { Cell::new(std::ptr::null()) };
    static EXIT_GUARD: ExitGuard = const { ExitGuard };
}

/// Flushes the thread's buffer when the thread exits (TLS destructor).
struct ExitGuard;

impl Drop for ExitGuard {
    fn drop(&mut self) {
        let s = CURRENT.with(|c| c.replace(std::ptr::null()));
        if s.is_null() {
            return;
        }
        // Safety: states are never freed.
        let s = unsafe { &*s };
        s.flush(false, true);
        let (thread, count) = s.recorded();
        if let Ok(mut done) = FINISHED.lock() {
            done.push((thread, count));
        }
        s.in_use.store(false, Ordering::Release);
    }
}

impl ThreadState {
    fn new() -> ThreadState {
        let cfg = config::get();
        ThreadState {
            events: vec![RawEvent::default(); cfg.buffer_events].into_boxed_slice(),
            len: AtomicUsize::new(0),
            busy: AtomicBool::new(false),
            in_use: AtomicBool::new(true),
            thread: AtomicU32::new(0),
            seq: AtomicU32::new(0),
            recorded: AtomicU64::new(0),
            countdown: Cell::new(1),
            // A regular chunk is well under a byte per event; irregular ones grow the buffer
            // once and keep it.
            encoder: UnsafeCell::new(ChunkEncoder::new(
                crate::total_mem_instrs(),
                cfg.chunk_events * 2,
            )),
            compressor: UnsafeCell::new(None),
        }
    }

    fn lock(&self, from_signal: bool) -> bool {
        let mut spins = 0u64;
        while self
            .busy
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            spins += 1;
            if from_signal && spins > 10_000_000 {
                return false;
            }
            std::hint::spin_loop();
        }
        true
    }

    /// Encodes the raw buffer into the current chunk; closes the chunk when it is full or when
    /// `close` (exit, thread end, signal). Closed chunks go to the writer thread, or are
    /// written here (compressed, or raw from a signal handler).
    pub fn flush(&self, from_signal: bool, close: bool) {
        if !self.lock(from_signal) {
            return;
        }
        if !CLOSED.load(Ordering::Acquire) {
            let n = self.len.load(Ordering::Acquire);
            // Safety: `busy` gives exclusive access to the encoder and compressor.
            let enc = unsafe { &mut *self.encoder.get() };
            if n > 0 {
                if !from_signal {
                    enc.reserve_mem_instrs(crate::total_mem_instrs());
                }
                enc.append(&self.events[..n]);
            }
            let full = enc.chunk_events() as usize >= config::get().chunk_events
                || enc.chunk_bytes() >= MAX_CHUNK_BYTES;
            if (full || close) && enc.chunk_events() > 0 {
                let seq = self.seq.fetch_add(1, Ordering::Relaxed);
                let thread = self.thread.load(Ordering::Relaxed);
                if from_signal {
                    let (payload, count) = enc.finish_chunk();
                    write_raw_chunk(thread, seq, payload, count, true);
                    enc.start_chunk();
                } else if writer::running() {
                    let (payload, count) = enc.take_chunk(writer::take_payload());
                    writer::submit(writer::Job {
                        payload,
                        count,
                        thread,
                        seq,
                    });
                } else {
                    let (payload, count) = enc.finish_chunk();
                    // Safety: as above.
                    let c =
                        unsafe { &mut *self.compressor.get() }.get_or_insert_with(Compressor::new);
                    c.write(thread, seq, payload, count);
                    enc.start_chunk();
                }
            }
        }
        self.len.store(0, Ordering::Release);
        self.busy.store(false, Ordering::Release);
    }

    /// Events recorded so far by the thread that owns (or owned) this state.
    pub fn recorded(&self) -> (u32, u64) {
        (
            self.thread.load(Ordering::Relaxed),
            self.recorded.load(Ordering::Relaxed),
        )
    }

    #[inline(always)]
    fn push_slice(&self, records: &[RawEvent]) {
        let mut n = self.len.load(Ordering::Relaxed);
        if n + records.len() > self.events.len() {
            self.flush(false, false);
            n = 0;
        }
        // Safety: n + records.len() <= capacity (checked above); only the owner writes here,
        // and a concurrent exit flusher reads at most `len` records, which were written before.
        unsafe {
            let dst = self.events.as_ptr().add(n) as *mut RawEvent;
            std::ptr::copy_nonoverlapping(records.as_ptr(), dst, records.len());
        }
        self.len.store(n + records.len(), Ordering::Release);
        self.recorded.set_relaxed_add(1);
    }
}

trait RelaxedAdd {
    fn set_relaxed_add(&self, k: u64);
}

impl RelaxedAdd for AtomicU64 {
    /// Owner-only counter: a load and a store, no locked instruction on the hot path.
    #[inline(always)]
    fn set_relaxed_add(&self, k: u64) {
        self.store(self.load(Ordering::Relaxed) + k, Ordering::Relaxed);
    }
}

/// Finds a free state or makes one, registers it under a new thread index, and writes the
/// thread chunk. Returns null when the registry is full.
#[cold]
fn register_current_thread() -> *const ThreadState {
    crate::ensure_init();
    let thread = NEXT_THREAD.fetch_add(1, Ordering::Relaxed);
    let registered = REGISTERED.load(Ordering::Acquire);
    let mut state: *const ThreadState = std::ptr::null();
    for slot in REGISTRY.iter().take(registered) {
        let p = slot.load(Ordering::Acquire);
        // Safety: states are never freed.
        if !p.is_null()
            && unsafe { &*p }
                .in_use
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            state = p;
            break;
        }
    }
    if state.is_null() {
        writer::THREADS.fetch_add(1, Ordering::Relaxed);
        let idx = REGISTERED.fetch_add(1, Ordering::AcqRel);
        if idx >= MAX_THREADS {
            if !DROPPED_WARNED.swap(true, Ordering::Relaxed) {
                crate::diag(&format!(
                    "more than {MAX_THREADS} threads; events of further threads are not traced"
                ));
            }
            return std::ptr::null();
        }
        let p = Box::into_raw(Box::new(ThreadState::new()));
        REGISTRY[idx].store(p, Ordering::Release);
        state = p;
    }
    // Safety: state is a live, never-freed state now owned by this thread.
    let s = unsafe { &*state };
    s.thread.store(thread, Ordering::Relaxed);
    s.seq.store(0, Ordering::Relaxed);
    s.recorded.store(0, Ordering::Relaxed);
    s.len.store(0, Ordering::Release);
    s.countdown.set(1);
    let info = ThreadInfo {
        thread,
        os_tid: crate::os_tid(),
        start_time: clock::now(),
    };
    crate::write_meta_chunk(
        ChunkKind::Thread,
        thread,
        &rdtrace::chunk::postcard_bytes(&info),
    );
    CURRENT.with(|c| c.set(state));
    // Touching the guard registers its destructor, which flushes at thread exit.
    let _ = EXIT_GUARD.try_with(|_| ());
    state
}

/// The calling thread's state, registering the thread on first use.
#[inline(always)]
fn current() -> Option<&'static ThreadState> {
    let mut p = CURRENT.try_with(|c| c.get()).unwrap_or(std::ptr::null());
    if p.is_null() {
        p = register_current_thread();
        if p.is_null() {
            return None;
        }
    }
    // Safety: states are never freed.
    Some(unsafe { &*p })
}

/// Records one event.
#[inline(always)]
pub fn record(e: RawEvent) {
    if let Some(s) = current() {
        s.push_slice(&[e]);
    }
}

/// Records an event made of several records (kept together in one chunk).
#[inline(always)]
pub fn record_many(records: &[RawEvent]) {
    if let Some(s) = current() {
        s.push_slice(records);
    }
}

/// Records a stamp now.
#[inline(always)]
pub fn stamp() {
    record(RawEvent::new(TAG_STAMP, 0, 0, clock::now()));
}

/// Records a block entry, with a stamp every `stamp_every` blocks.
#[inline(always)]
pub fn record_block(e: RawEvent) {
    if let Some(s) = current() {
        let left = s.countdown.get() - 1;
        if left == 0 {
            s.countdown.set(config::get().stamp_every);
            s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now())]);
        } else {
            s.countdown.set(left);
        }
        s.push_slice(&[e]);
    }
}

/// Flushes every registered thread's buffer (exit and signal paths).
pub fn flush_all(from_signal: bool) {
    let n = REGISTERED.load(Ordering::Acquire).min(MAX_THREADS);
    for slot in REGISTRY.iter().take(n) {
        let p = slot.load(Ordering::Acquire);
        if !p.is_null() {
            // Safety: states are never freed.
            unsafe { &*p }.flush(from_signal, true);
        }
    }
}

/// Events recorded per thread index, for the end chunk.
pub fn recorded_per_thread() -> Vec<u64> {
    let mut out = vec![0u64; NEXT_THREAD.load(Ordering::Relaxed) as usize];
    if let Ok(done) = FINISHED.try_lock() {
        for &(t, k) in done.iter() {
            if let Some(x) = out.get_mut(t as usize) {
                *x = k;
            }
        }
    }
    let n = REGISTERED.load(Ordering::Acquire).min(MAX_THREADS);
    for slot in REGISTRY.iter().take(n) {
        let p = slot.load(Ordering::Acquire);
        // Safety: states are never freed.
        if !p.is_null() && unsafe { &*p }.in_use.load(Ordering::Acquire) {
            // Safety: as above.
            let (t, k) = unsafe { &*p }.recorded();
            if let Some(x) = out.get_mut(t as usize) {
                *x = k;
            }
        }
    }
    out
}
