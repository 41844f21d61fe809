//! The background writer: compresses and writes finished chunk payloads on its own thread, so
//! traced threads never compress or make system calls (compression off the hot path).
//!
//! Memory is bounded: payload buffers come from a pool of at most `2 × threads + 4`; when the
//! writer falls behind, a producer waits for a buffer to come back (back-pressure) instead of
//! growing the queue. One writer drains one FIFO queue, so each thread's chunks are written in
//! order.
//!
//! Exit drains the queue with a condition variable; a signal handler, which cannot block on
//! locks, spins (bounded) on the pending count while the writer thread keeps working.

use crate::flusher::Compressor;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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

struct Shared {
    queue: VecDeque<Job>,
    free: Vec<Vec<u8>>,
    allocated: usize,
}

static SHARED: Mutex<Shared> = Mutex::new(Shared {
    queue: VecDeque::new(),
    free: Vec::new(),
    allocated: 0,
});
static READY: Condvar = Condvar::new();
static SPACE: Condvar = Condvar::new();
static IDLE: Condvar = Condvar::new();
/// Jobs queued or being written.
static PENDING: AtomicUsize = AtomicUsize::new(0);
static RUNNING: AtomicBool = AtomicBool::new(false);
/// Threads that have ever traced (sizes the buffer pool).
pub static THREADS: AtomicUsize = AtomicUsize::new(0);

/// Whether buffers go to the background writer.
pub fn running() -> bool {
    RUNNING.load(Ordering::Acquire)
}

/// Starts the writer thread; false (inline encoding) when it cannot be started.
pub fn start() -> bool {
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
        let bound = 2 * THREADS.load(Ordering::Relaxed) + 4;
        if s.allocated < bound || !running() {
            s.allocated += 1;
            drop(s);
            return Vec::with_capacity(crate::config::get().chunk_events * 2);
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
        s = IDLE
            .wait_timeout(s, std::time::Duration::from_millis(50))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// Signal-handler version of [`drain`]: spins without locks, for at most about a second.
pub fn spin_drain() {
    let start = crate::clock::now();
    let mut spins = 0u64;
    while PENDING.load(Ordering::Acquire) > 0 && running() && spins < 200_000_000 {
        std::hint::spin_loop();
        spins += 1;
        if spins.is_multiple_of(4096) && crate::clock::now().wrapping_sub(start) > 4_000_000_000 {
            break;
        }
    }
}

fn run() {
    let mut compressor = Compressor::new();
    loop {
        let job = {
            let mut s = lock();
            loop {
                if let Some(j) = s.queue.pop_front() {
                    break j;
                }
                s = READY.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        compressor.write(job.thread, job.seq, &job.payload, job.count);
        let mut s = lock();
        s.free.push(job.payload);
        drop(s);
        PENDING.fetch_sub(1, Ordering::AcqRel);
        SPACE.notify_one();
        IDLE.notify_all();
    }
}
