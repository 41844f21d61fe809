//! The background writer: encodes the raw buffers traced threads hand over, then compresses and
//! writes each finished chunk, on threads of its own, so traced threads neither encode nor
//! compress nor make system calls per buffer (encoding and compression off the hot path).
//!
//! Two threads form a pipeline: the *encoder* (`rdtrace-writer`) turns buffers into chunk
//! payloads, and the *compressor* (`rdtrace-compress`) compresses and writes each chunk the
//! encoder ends, while the encoder goes on with the next buffers (on branchy code the writer's
//! time splits about 60/40 between encoding and zstd, and the writer is what a traced run waits
//! for). They meet at two [`Slot`]s used in turn: the encoder takes a job only when the slot its
//! chunk would go to is free, so handing a chunk over never waits; the compressor empties the
//! slots in the order they were filled, so each thread's chunks are written in sequence.
//!
//! Memory is bounded: each thread has [`super::RAW_BUFFERS`] raw buffers, so at most
//! that many minus one per thread are queued; a thread with none free waits for the writer to
//! give one back (back-pressure). The encoder keeps one spare payload buffer and each slot owns
//! one, swapped with the payload of each chunk it ends. One encoder drains one FIFO queue, so
//! each thread's buffers are encoded, and its chunks written, in order.
//!
//! Exit drains the queue and the slots. A signal handler cannot rely on the writer: the
//! compressor may be blocked in an allocator whose lock the crashing thread holds (zstd
//! allocates a larger workspace the first time a chunk needs one). So the handler takes over
//! ([`take_over`]): it waits (bounded) while the encoder is encoding a buffer (that allocates
//! nothing and takes no lock), then writes the slots' chunks, oldest first, each unless the
//! compressor has already begun writing it (a compare-and-swap on the slot's state decides, so
//! it is written exactly once), then encodes and writes the queued buffers itself,
//! uncompressed, in queue order. The encoder allocates nothing while it holds the queue lock
//! (the queue is sized for every buffer at start-up), so the handler can get that lock.

use super::ThreadState;
use crate::flusher::{write_raw_chunk, Compressor};
use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
use std::sync::{Condvar, Mutex};

/// A raw buffer handed to the writer.
pub struct Job {
    /// The thread's state (states are never freed).
    pub state: *const ThreadState,
    /// Which of the state's raw buffers ([`super::NO_BUFFER`]: none, the job only closes
    /// the chunk).
    pub buf: usize,
    /// Records in the buffer.
    pub n: usize,
    /// Close the chunk after these records (thread end, exit, parking).
    pub close: bool,
}

// Safety: the state pointer is never freed, and the buffer it names is not written by its owner
// until the writer (or the signal handler) has encoded it and set its free bit.
unsafe impl Send for Job {}

struct Shared {
    queue: VecDeque<Job>,
    /// The writer waits for a job.
    idle: bool,
}

static SHARED: Mutex<Shared> = Mutex::new(Shared {
    queue: VecDeque::new(),
    idle: false,
});
static READY: Condvar = Condvar::new();
/// Signalled when the writer gives a buffer back or finishes a job, if anyone waits.
static PROGRESS: Condvar = Condvar::new();
/// Threads waiting on [`PROGRESS`].
static WAITERS: AtomicUsize = AtomicUsize::new(0);
/// Jobs queued or being processed.
static PENDING: AtomicUsize = AtomicUsize::new(0);
static RUNNING: AtomicBool = AtomicBool::new(false);
/// What the encoder is doing: [`IDLE`] or [`ENCODING`].
static STAGE: AtomicU8 = AtomicU8::new(IDLE);
/// No job in flight.
const IDLE: u8 = 0;
/// The encoder took a job and encodes its records (no allocation, no lock, no wait: bounded
/// time), handing over the chunk it may end.
const ENCODING: u8 = 1;
/// A signal handler has taken over: the writer takes no more jobs.
static TAKEN_OVER: AtomicBool = AtomicBool::new(false);

/// A chunk the encoder ended, on its way through the compressor: its state goes
/// [`EMPTY`] -> [`FULL`] (the encoder) -> [`COMPRESSING`] -> [`WRITING`] -> [`EMPTY`] (the
/// compressor), or FULL/COMPRESSING -> [`CLAIMED`] (a signal handler, which then writes the
/// chunk raw). Both leaving moves are compare-and-swaps, so exactly one side writes the chunk.
/// The payload's description is published before the state becomes FULL; the buffer is never
/// freed (it becomes the encoder's spare), and nothing writes it while a handler may read it.
struct Slot {
    /// [`EMPTY`], [`FULL`], [`COMPRESSING`], [`WRITING`] or [`CLAIMED`] (a `u32`: the two
    /// threads sleep on it).
    state: AtomicU32,
    /// Handoff number: the slots' chunks are written in this order.
    order: AtomicU64,
    payload: AtomicPtr<u8>,
    len: AtomicUsize,
    count: AtomicU32,
    thread: AtomicU32,
    seq: AtomicU32,
    /// The state whose job ended the chunk: that job is done once the chunk is written.
    owner: AtomicPtr<ThreadState>,
    /// The payload buffer the slot owns: the encoder's while the slot is EMPTY (it swaps in
    /// each chunk it ends), read by the compressor and a signal handler after.
    buf: UnsafeCell<Vec<u8>>,
}

// Safety: `buf` is written by the encoder only while the slot is EMPTY, which the compressor
// and a handler leave alone; they only read it, after the encoder published FULL.
unsafe impl Sync for Slot {}

impl Slot {
    const fn new() -> Slot {
        Slot {
            state: AtomicU32::new(EMPTY),
            order: AtomicU64::new(0),
            payload: AtomicPtr::new(std::ptr::null_mut()),
            len: AtomicUsize::new(0),
            count: AtomicU32::new(0),
            thread: AtomicU32::new(0),
            seq: AtomicU32::new(0),
            owner: AtomicPtr::new(std::ptr::null_mut()),
            buf: UnsafeCell::new(Vec::new()),
        }
    }

    /// The published payload (valid while the slot is not EMPTY).
    fn payload(&self) -> &[u8] {
        // Safety: see `Slot`: published before FULL, never freed, not written until EMPTY.
        unsafe {
            std::slice::from_raw_parts(
                self.payload.load(Ordering::Acquire),
                self.len.load(Ordering::Acquire),
            )
        }
    }
}

/// The slot is free for the encoder.
const EMPTY: u32 = 0;
/// The encoder handed a chunk over.
const FULL: u32 = 1;
/// The compressor is compressing it (it may allocate, so it may be stuck).
const COMPRESSING: u32 = 2;
/// The compressor is writing it (no allocation; only the file lock and `write`).
const WRITING: u32 = 3;
/// A signal handler writes the chunk instead; the compressor drops its frame.
const CLAIMED: u32 = 4;

/// The two slots, used in turn (handoff number modulo 2).
static SLOTS: [Slot; 2] = [Slot::new(), Slot::new()];

/// Queued buffers that wake a waiting writer: fewer than a thread's buffers in flight, so a
/// thread short of free buffers always has the writer working for it.
const WAKE_AT: usize = super::RAW_BUFFERS - 2;
const _: () = assert!(WAKE_AT >= 1 && WAKE_AT < super::RAW_BUFFERS);
/// Most jobs ever queued: every thread's buffers (the queue never needs to grow).
const MAX_JOBS: usize = super::RAW_BUFFERS * super::MAX_THREADS + 4;

/// Whether buffers go to the background writer.
pub fn running() -> bool {
    RUNNING.load(Ordering::Acquire)
}

/// Whether a fatal-signal handler has taken the writer over.
pub fn taken_over() -> bool {
    TAKEN_OVER.load(Ordering::SeqCst)
}

/// Starts the writer's threads; false (inline encoding) when they cannot be started.
pub fn start() -> bool {
    lock().queue.reserve(MAX_JOBS);
    for slot in &SLOTS {
        // Safety: no writer thread runs yet; nothing else touches the slots.
        unsafe { *slot.buf.get() = Vec::with_capacity(super::payload_capacity()) };
    }
    let spawn = |name: &str, f: fn()| {
        std::thread::Builder::new()
            .name(name.into())
            .spawn(f)
            .is_ok()
    };
    // Without its compressor the encoder would wait for the slots forever: start it first.
    let ok = spawn("rdtrace-compress", compress_run) && spawn("rdtrace-writer", run);
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

/// Queues a buffer for the writer; false (not queued) once a signal handler has taken over.
/// Wakes a waiting writer only once [`WAKE_AT`] buffers are queued, or for a job that closes a
/// chunk, so a writer that keeps up costs one wake-up (a system call) per few buffers, not one
/// per buffer.
pub fn submit(job: Job) -> bool {
    let mut s = lock();
    if TAKEN_OVER.load(Ordering::SeqCst) {
        return false;
    }
    PENDING.fetch_add(1, Ordering::AcqRel);
    let close = job.close;
    s.queue.push_back(job);
    if s.idle && (close || s.queue.len() >= WAKE_AT) {
        s.idle = false;
        READY.notify_one();
    }
    true
}

/// Waits until `done()` holds, woken by the writer's progress (bounded waits, so a missed
/// wake-up only costs a few milliseconds).
fn wait_for_progress(done: impl Fn() -> bool) {
    WAITERS.fetch_add(1, Ordering::SeqCst);
    let mut s = lock();
    while !done() && running() {
        s = PROGRESS
            .wait_timeout(s, std::time::Duration::from_millis(5))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    drop(s);
    WAITERS.fetch_sub(1, Ordering::SeqCst);
}

/// Waits, as the owner of a thread state, until `done()` holds, sleeping on the state's wake
/// word (bounded waits). The writer wakes exactly this thread when its state lets it go on
/// ([`wake`]): a condition variable shared by all threads woke every waiting thread at every
/// job, and 4096 threads under back-pressure then spent the machine on wake-ups and on the
/// queue lock (minutes for `many_threads.c`).
pub fn wait_for_state(word: &AtomicU32, done: impl Fn() -> bool) {
    wait_on(word, |_| done() || !running());
}

/// Sleeps until `done` holds for `word`'s value, woken by whoever changes the word and wakes it
/// ([`futex_wake`]). The timeout is only a safety net (a signal handler's take-over wakes no
/// one): it backs off, since thousands of waiters each timing out every few milliseconds would
/// take the CPUs from the writer they wait for.
fn wait_on(word: &AtomicU32, done: impl Fn(u32) -> bool) {
    let mut timeout = std::time::Duration::from_millis(2);
    loop {
        // Read the word before the condition: a wake after this read changes the word, so the
        // wait below returns at once instead of sleeping through it.
        let seen = word.load(Ordering::SeqCst);
        if done(seen) {
            return;
        }
        futex_wait(word, seen, timeout);
        timeout = (timeout * 2).min(std::time::Duration::from_millis(100));
    }
}

/// Sleeps while `*word == seen`, at most `timeout` (Linux futex; a plain sleep elsewhere).
fn futex_wait(word: &AtomicU32, seen: u32, timeout: std::time::Duration) {
    #[cfg(target_os = "linux")]
    {
        let ts = libc::timespec {
            tv_sec: timeout.as_secs() as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // Safety: `word` is a live, aligned u32 for the duration of the call; the kernel only
        // reads it. Errors (EAGAIN: the word changed; EINTR; ETIMEDOUT) all mean "look again".
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                word.as_ptr(),
                libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                seen,
                &ts as *const libc::timespec,
            )
        };
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (word, seen);
        std::thread::sleep(timeout.min(std::time::Duration::from_millis(1)));
    }
}

/// Wakes every thread sleeping on `word` in [`futex_wait`].
fn futex_wake(word: &AtomicU32) {
    #[cfg(target_os = "linux")]
    // Safety: as in `futex_wait`; FUTEX_WAKE does not touch the word.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            i32::MAX,
        )
    };
    #[cfg(not(target_os = "linux"))]
    let _ = word;
}

/// Wakes whoever waits for the job just done: the state's owner once the state lets it go on
/// ([`ThreadState::may_go_on`], through its wake word), and the threads in [`drain`] once the
/// queue is empty. (Waiters also wake by themselves after a bounded wait.)
fn wake(state: &ThreadState) {
    if state.may_go_on() {
        state.wake_word().fetch_add(1, Ordering::SeqCst);
        futex_wake(state.wake_word());
    }
    if WAITERS.load(Ordering::SeqCst) > 0 && PENDING.load(Ordering::SeqCst) == 0 {
        let _s = lock();
        PROGRESS.notify_all();
    }
}

/// A thread that finds the writer taken over by a fatal-signal handler waits here, holding
/// nothing the handler needs, until the handler ends the process.
pub fn wait_for_the_end() -> ! {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// Waits until everything queued so far has been written (exit path).
pub fn drain() {
    wait_for_progress(|| PENDING.load(Ordering::SeqCst) == 0);
}

/// Signal-handler version of [`drain`], allocating nothing: stops the writer from taking more
/// jobs, waits (bounded, about a second) while it encodes a buffer, writes the chunk it is
/// compressing unless it is already writing it (then waits, bounded, for that write), then
/// encodes and writes every queued buffer here, uncompressed, in queue order. Gives up (those
/// chunks are lost, the trace ends before them) if the queue lock cannot be had within the same
/// bound. Threads that flush later wait for the end of the process ([`wait_for_the_end`])
/// without queueing, so their buffers stay for [`super::flush_all`].
pub fn take_over() {
    if !running() {
        return;
    }
    TAKEN_OVER.store(true, Ordering::SeqCst);
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
    // The writer cannot take another job now. Encoding ends by itself (it never waits).
    while STAGE.load(Ordering::Acquire) == ENCODING {
        spins += 1;
        if timed_out(spins) {
            return;
        }
        std::hint::spin_loop();
    }
    // The chunks handed to the compressor come first in their threads' sequences, oldest
    // first: write each here unless the compressor has begun writing it (it may be stuck in
    // the allocator while compressing), else let it finish.
    let mut oldest_first = [0usize, 1];
    oldest_first.sort_unstable_by_key(|&i| SLOTS[i].order.load(Ordering::Acquire));
    for slot in oldest_first.map(|i| &SLOTS[i]) {
        loop {
            let state = slot.state.load(Ordering::Acquire);
            match state {
                FULL | COMPRESSING => {
                    let claimed = slot
                        .state
                        .compare_exchange(state, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok();
                    if claimed {
                        write_raw_chunk(
                            slot.thread.load(Ordering::Acquire),
                            slot.seq.load(Ordering::Acquire),
                            slot.payload(),
                            slot.count.load(Ordering::Acquire),
                            true,
                        );
                        break;
                    }
                }
                WRITING => {
                    while slot.state.load(Ordering::Acquire) == WRITING && !timed_out(spins) {
                        spins += 1;
                        std::hint::spin_loop();
                    }
                    break;
                }
                _ => break,
            }
        }
    }
    // The buffers handed over but not yet encoded, in order: into their thread's chunk, which
    // no one else touches now.
    while let Some(job) = guard.queue.pop_front() {
        // Safety: states are never freed.
        unsafe { &*job.state }.flush_job_from_signal(job.buf, job.n);
        PENDING.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The encoder thread.
fn run() {
    let mut spare = Vec::with_capacity(super::payload_capacity());
    // Handoff number of the next chunk this thread ends.
    let mut next = 0u64;
    loop {
        // The slot the next chunk goes to must be free before a job is taken, so that handing
        // the chunk over never waits while ENCODING (a signal handler waits for that stage).
        let slot = &SLOTS[(next % 2) as usize];
        wait_on(&slot.state, |s| s == EMPTY);
        let job = {
            let mut s = lock();
            loop {
                if !TAKEN_OVER.load(Ordering::SeqCst) {
                    if let Some(j) = s.queue.pop_front() {
                        STAGE.store(ENCODING, Ordering::SeqCst);
                        break j;
                    }
                }
                s.idle = true;
                s = READY.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        // Safety: states are never freed.
        let state = unsafe { &*job.state };
        let ended = state.encode_job(job.buf, job.n, job.close, &mut spare);
        match ended {
            Some((payload, count, thread, seq)) => {
                // Safety: the slot is EMPTY, so it is the encoder's alone (see `Slot`).
                let buf = unsafe { &mut *slot.buf.get() };
                spare = std::mem::replace(buf, payload);
                slot.payload
                    .store(buf.as_ptr() as *mut u8, Ordering::Release);
                slot.len.store(buf.len(), Ordering::Release);
                slot.count.store(count, Ordering::Release);
                slot.thread.store(thread, Ordering::Release);
                slot.seq.store(seq, Ordering::Release);
                slot.owner
                    .store(job.state as *mut ThreadState, Ordering::Release);
                slot.order.store(next, Ordering::Release);
                slot.state.store(FULL, Ordering::SeqCst);
                futex_wake(&slot.state);
                next += 1;
                STAGE.store(IDLE, Ordering::SeqCst);
                // The job is done once the compressor has written its chunk; its buffer is
                // free already.
                wake(state);
            }
            None => {
                STAGE.store(IDLE, Ordering::SeqCst);
                state.job_done();
                PENDING.fetch_sub(1, Ordering::SeqCst);
                wake(state);
            }
        }
    }
}

/// The compressor thread: compresses and writes the slots' chunks in handoff order.
fn compress_run() {
    let mut compressor = Compressor::new(super::max_payload_bytes());
    let mut next = 0u64;
    loop {
        let slot = &SLOTS[(next % 2) as usize];
        wait_on(&slot.state, |s| s != EMPTY);
        if slot
            .state
            .compare_exchange(FULL, COMPRESSING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // A signal handler claimed the chunk and the process is ending.
            wait_for_the_end();
        }
        compressor.compress(
            slot.thread.load(Ordering::Acquire),
            slot.seq.load(Ordering::Acquire),
            slot.payload(),
            slot.count.load(Ordering::Acquire),
        );
        let ours = slot
            .state
            .compare_exchange(COMPRESSING, WRITING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if !ours {
            // A signal handler wrote the chunk and the process is ending.
            wait_for_the_end();
        }
        compressor.write_compressed();
        if crate::output::is_stream() {
            // Tells the reader which parked threads cannot produce events before now.
            super::publish_floors(&mut compressor.floors);
        }
        // Safety: states are never freed.
        let owner = unsafe { &*slot.owner.load(Ordering::Acquire) };
        slot.state.store(EMPTY, Ordering::SeqCst);
        futex_wake(&slot.state);
        next += 1;
        owner.job_done();
        PENDING.fetch_sub(1, Ordering::SeqCst);
        wake(owner);
    }
}
