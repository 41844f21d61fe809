//! The background writer: encodes, compresses and writes full buffers on its own thread, so a
//! traced thread only fills buffers and hands them over (compression off the hot path).
//!
//! Memory is bounded: buffers come from a pool of at most `2 × threads + 4`; when the writer
//! falls behind, a producer waits for a buffer to come back (back-pressure) instead of growing
//! the queue. One writer drains one FIFO queue, so each thread's chunks are written in order.
//!
//! Exit drains the queue with a condition variable; a signal handler, which cannot block on
//! locks, spins (bounded) on the pending count while the writer thread keeps working.

use crate::flusher::Flusher;
use rdtrace::raw::RawEvent;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// A full buffer waiting to be written.
pub struct Job {
    /// The buffer (returned to the pool after writing).
    pub buffer: Box<[RawEvent]>,
    /// Valid records.
    pub len: usize,
    /// Thread index.
    pub thread: u32,
    /// Chunk sequence number of that thread.
    pub seq: u32,
}

struct Shared {
    queue: VecDeque<Job>,
    free: Vec<Box<[RawEvent]>>,
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

/// An empty buffer of `cap` records: from the pool, newly allocated while under the bound, or
/// after waiting for the writer to return one.
pub fn take_buffer(cap: usize) -> Box<[RawEvent]> {
    let mut s = lock();
    loop {
        if let Some(b) = s.free.pop() {
            if b.len() == cap {
                return b;
            }
            s.allocated -= 1;
            continue;
        }
        let bound = 2 * THREADS.load(Ordering::Relaxed) + 4;
        if s.allocated < bound || !running() {
            s.allocated += 1;
            drop(s);
            return vec![RawEvent::default(); cap].into_boxed_slice();
        }
        s = SPACE.wait(s).unwrap_or_else(|e| e.into_inner());
    }
}

/// Queues a full buffer for writing.
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
        if spins % 4096 == 0 && crate::clock::now().wrapping_sub(start) > 4_000_000_000 {
            break;
        }
    }
}

fn run() {
    // The writer's own encoder; sized again per job since modules may register late.
    let mut flusher: Option<Flusher> = None;
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
        let f = flusher.get_or_insert_with(|| Flusher::new(job.buffer.len()));
        f.write(job.thread, job.seq, &job.buffer[..job.len], false);
        let mut s = lock();
        s.free.push(job.buffer);
        drop(s);
        PENDING.fetch_sub(1, Ordering::AcqRel);
        SPACE.notify_one();
        IDLE.notify_all();
    }
}
