//! The background writer: compresses and writes finished chunk payloads on its own thread, so
//! traced threads never compress or make system calls (compression off the hot path).
//!
//! Memory is bounded: payload buffers come from a pool of at most `2 × threads + 4`; when the
//! writer falls behind, a producer waits for a buffer to come back (back-pressure) instead of
//! growing the queue. One writer drains one FIFO queue, so each thread's chunks are written in
//! order.
//!
//! Exit drains the queue with a condition variable. A signal handler cannot rely on the writer:
//! the writer may be blocked in an allocator whose lock the crashing thread holds (zstd
//! allocates a larger workspace the first time a chunk needs one). So the handler takes over
//! ([`take_over`]): the job the writer took is the handler's to write unless the writer has
//! already begun writing it (a compare-and-swap on [`STAGE`] decides, so it is written exactly
//! once), then the handler writes the queued payloads itself, uncompressed, in queue order. The
//! writer allocates nothing while it holds the queue lock (queue and free list are sized for the
//! largest pool at start-up), so the handler can get that lock.

use crate::flusher::{write_raw_chunk, Compressor};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// A finished chunk payload waiting to be written.
pub struct Job {
    /// The encoded payload (its buffer returns to the pool after writing).
    pub payload: Vec<u8>,
    /// Events in the payload.
    pub count: u32,
    /// Thread index.
    pub thread: u32,
    /// Chunk sequence number of that thread.
    pub seq: u32,
}

/// The job the writer has taken off the queue, as a signal handler needs it to write the job
/// in the writer's place.
#[derive(Clone, Copy)]
struct InFlight {
    payload: *const u8,
    len: usize,
    count: u32,
    thread: u32,
    seq: u32,
}

// Safety: the pointer is the writer's payload buffer, which is never freed (it goes back to the
// pool); it is only read, by the handler, while the writer has not returned it (both under the
// queue lock).
unsafe impl Send for InFlight {}

struct Shared {
    queue: VecDeque<Job>,
    free: Vec<Vec<u8>>,
    allocated: usize,
    in_flight: Option<InFlight>,
}

static SHARED: Mutex<Shared> = Mutex::new(Shared {
    queue: VecDeque::new(),
    free: Vec::new(),
    allocated: 0,
    in_flight: None,
});
static READY: Condvar = Condvar::new();
static SPACE: Condvar = Condvar::new();
/// Signalled after each written job ([`drain`] waits on it).
static WRITTEN: Condvar = Condvar::new();
/// Jobs queued or being written.
static PENDING: AtomicUsize = AtomicUsize::new(0);
static RUNNING: AtomicBool = AtomicBool::new(false);
/// What became of the writer's job in flight: [`IDLE`], [`COMPRESSING`], [`WRITING`] or
/// [`CLAIMED`]. The writer moves COMPRESSING -> WRITING and a signal handler COMPRESSING ->
/// CLAIMED, each by compare-and-swap: whoever wins writes the chunk.
static STAGE: AtomicU8 = AtomicU8::new(IDLE);
/// No job in flight (or its chunk is written).
const IDLE: u8 = 0;
/// The writer took a job and is compressing it (it may allocate, so it may be stuck).
const COMPRESSING: u8 = 1;
/// The writer is writing the job's chunk (no allocation; only the file lock and `write`).
const WRITING: u8 = 2;
/// A signal handler writes the job instead; the writer drops its frame.
const CLAIMED: u8 = 3;
/// A signal handler has taken over: the writer takes no more jobs.
static TAKEN_OVER: AtomicBool = AtomicBool::new(false);
/// Most payload buffers in the pool (each thread holds one, at most one more per thread is
/// queued, plus a few): the queue and the free list never need more room than this.
const MAX_BUFFERS: usize = 2 * crate::thread::MAX_THREADS + 4;
/// Threads that have ever traced (sizes the buffer pool).
pub static THREADS: AtomicUsize = AtomicUsize::new(0);

/// Whether buffers go to the background writer.
pub fn running() -> bool {
    RUNNING.load(Ordering::Acquire)
}

/// Starts the writer thread; false (inline encoding) when it cannot be started.
pub fn start() -> bool {
    {
        let mut s = lock();
        s.queue.reserve(MAX_BUFFERS);
        s.free.reserve(MAX_BUFFERS);
    }
    let ok = std::thread::Builder::new()
        .name("rdtrace-writer".into())
        .spawn(run)
        .is_ok();
    RUNNING.store(ok, Ordering::Release);
    ok
}

/// Stops using the writer (a forked child has no writer thread).
pub fn disable() {
    RUNNING.store(false, Ordering::Release);
}

fn lock() -> std::sync::MutexGuard<'static, Shared> {
    SHARED.lock().unwrap_or_else(|e| e.into_inner())
}

/// An empty payload buffer: from the pool, newly allocated while under the bound, or after
/// waiting for the writer to return one.
pub fn take_payload() -> Vec<u8> {
    let mut s = lock();
    loop {
        if let Some(mut b) = s.free.pop() {
            b.clear();
            return b;
        }
        let bound = (2 * THREADS.load(Ordering::Relaxed) + 4).min(MAX_BUFFERS);
        if s.allocated < bound || !running() {
            s.allocated += 1;
            drop(s);
            return Vec::with_capacity(crate::thread::payload_capacity());
        }
        s = SPACE.wait(s).unwrap_or_else(|e| e.into_inner());
    }
}

/// Queues a finished chunk for writing.
pub fn submit(job: Job) {
    PENDING.fetch_add(1, Ordering::AcqRel);
    lock().queue.push_back(job);
    READY.notify_one();
}

/// Waits until everything queued so far has been written (exit path).
pub fn drain() {
    let mut s = lock();
    while PENDING.load(Ordering::Acquire) > 0 && running() {
        s = WRITTEN
            .wait_timeout(s, std::time::Duration::from_millis(50))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// Signal-handler version of [`drain`], allocating nothing: writes the job the writer took
/// unless the writer is already writing it (then waits, bounded, about a second, for that
/// write), then writes every queued payload here, uncompressed, in queue order, and stops the
/// writer from taking more. Gives up (those chunks are lost, the trace ends before them) if the
/// queue lock cannot be had within the same bound.
pub fn take_over() {
    if !running() {
        return;
    }
    TAKEN_OVER.store(true, Ordering::Release);
    let start = crate::clock::now();
    let timed_out = |spins: u64| {
        spins > 200_000_000
            || (spins.is_multiple_of(4096)
                && crate::clock::now().wrapping_sub(start) > 4_000_000_000)
    };
    let mut spins = 0u64;
    let mut guard = loop {
        match SHARED.try_lock() {
            Ok(g) => break g,
            Err(std::sync::TryLockError::Poisoned(e)) => break e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                spins += 1;
                if timed_out(spins) {
                    return;
                }
                std::hint::spin_loop();
            }
        }
    };
    // The writer cannot take another job now. The one it took comes first in its thread's
    // sequence: write it here if the writer has not begun writing it (it may be stuck in the
    // allocator), else let the writer finish.
    if let Some(job) = guard.in_flight {
        match STAGE.compare_exchange(COMPRESSING, CLAIMED, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {
                // Safety: see `InFlight`: the buffer stays allocated, and the writer only reads
                // it (compressing) while the handler does.
                let payload = unsafe { std::slice::from_raw_parts(job.payload, job.len) };
                write_raw_chunk(job.thread, job.seq, payload, job.count, true);
            }
            Err(_) => {
                while STAGE.load(Ordering::Acquire) == WRITING && !timed_out(spins) {
                    spins += 1;
                    std::hint::spin_loop();
                }
            }
        }
    }
    while let Some(job) = guard.queue.pop_front() {
        write_raw_chunk(job.thread, job.seq, &job.payload, job.count, true);
        // Keep the buffer: freeing it would call the allocator.
        guard.free.push(job.payload);
        PENDING.fetch_sub(1, Ordering::AcqRel);
    }
}

fn run() {
    let mut compressor = Compressor::new();
    loop {
        let job = {
            let mut s = lock();
            loop {
                if !TAKEN_OVER.load(Ordering::Acquire) {
                    if let Some(j) = s.queue.pop_front() {
                        s.in_flight = Some(InFlight {
                            payload: j.payload.as_ptr(),
                            len: j.payload.len(),
                            count: j.count,
                            thread: j.thread,
                            seq: j.seq,
                        });
                        STAGE.store(COMPRESSING, Ordering::Release);
                        break j;
                    }
                }
                s = READY.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        compressor.compress(job.thread, job.seq, &job.payload, job.count);
        let ours = STAGE
            .compare_exchange(COMPRESSING, WRITING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if ours {
            compressor.write_compressed();
            STAGE.store(IDLE, Ordering::Release);
            compressor.publish_floors();
        }
        // (Not ours: a signal handler wrote the chunk and the process is ending.)
        let mut s = lock();
        s.in_flight = None;
        s.free.push(job.payload);
        drop(s);
        PENDING.fetch_sub(1, Ordering::AcqRel);
        SPACE.notify_one();
        WRITTEN.notify_all();
    }
}
