//! The background writer: encodes the raw buffers traced threads hand over, then compresses and
//! writes each finished chunk, on threads of its own, so traced threads neither encode nor
//! compress nor make system calls per buffer (encoding and compression off the hot path).
//!
//! `RDTRACE_WRITERS` workers (`rdtrace-writer-N`; by default one per CPU, 2 to 8:
//! `config::default_writers`) share the work by chunk: the owner of a thread numbers its chunks
//! at hand-off, and chunk `seq` goes to the thread's lane `seq % lanes`, whose worker
//! ([`lane_of`]) takes the chunk's jobs from its own FIFO queue, encodes them into the thread's
//! encoder of that lane, then compresses and writes the chunk. Every chunk starts the predictor
//! afresh, so a thread's consecutive chunks are encoded at once: one encoder had been the traced
//! run's critical path (the program and zstd waited for it more than half the run). A thread
//! gets its lanes when its state is made ([`lanes_for_new_thread`], [`claim_lanes`]): up to
//! four while the workers outnumber the threads, and consecutive workers after the previous
//! thread's, so the threads of a parallel program have workers of their own where the machine
//! has the CPUs: encoding and compressing cost the writer about three times what recording
//! costs the program. One worker takes a lane's jobs in order, so each chunk is whole and in
//! order; chunks of one thread may reach the file out of sequence order (readers order them by
//! `seq`).
//!
//! Memory is bounded: each thread has [`super::RAW_BUFFERS_PER_LANE`] raw buffers per lane,
//! so at most all of them but one are queued; a thread with none free waits for the writer to
//! give one back (back-pressure). Each worker keeps one spare payload buffer and its slot owns
//! one, swapped with the payload of each chunk it ends.
//!
//! Exit drains the queues. A signal handler cannot rely on the writer: a worker may be blocked
//! in an allocator whose lock the crashing thread holds (zstd allocates a larger workspace the
//! first time a chunk needs one). So the handler takes over ([`take_over`]): it waits (bounded)
//! while a worker is encoding a buffer (that allocates nothing and takes no lock), then writes
//! the chunk each worker ended and has not begun writing (a compare-and-swap on the worker's
//! [`Slot`] decides, so it is written exactly once), then encodes the queued buffers itself,
//! writing uncompressed each chunk a job closes. The workers allocate nothing while they hold
//! the queue lock (the queues are sized for every buffer at start-up), so the handler can get
//! that lock.

use super::registry::LIVE;
use super::{ThreadState, MAX_LANES_PER_THREAD, MIN_LANES_PER_THREAD, RAW_BUFFERS_PER_LANE};
use crate::config::MAX_WRITERS;
use crate::flusher::{write_raw_chunk, Compressor};
use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU8, AtomicUsize, Ordering};
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
    /// Close the chunk after these records (full, thread end, exit, parking).
    pub close: bool,
    /// Sequence number of the thread's chunk the records belong to.
    pub seq: u32,
    /// The worker that takes the job: [`lane_of`] the thread state's lanes and `seq`.
    pub lane: usize,
}

/// The worker of chunk `seq` of a thread whose lane 0 is worker `first_lane` and that has
/// `lanes` lanes: its lane `seq % lanes`, lane `i` being worker `first_lane + i` modulo the
/// workers. Fixed for a (thread state, lane) pair, so one worker takes all of a lane's jobs,
/// in order.
pub fn lane_of(first_lane: usize, lanes: usize, seq: u32) -> usize {
    let workers = WORKERS.load(Ordering::Relaxed).max(1);
    (first_lane + seq as usize % lanes.max(1)) % workers
}

/// Lanes for a thread state being made now: the workers over the threads expected to record at
/// once, from [`MIN_LANES_PER_THREAD`] to [`MAX_LANES_PER_THREAD`] (and no more than the
/// workers, but two). The threads expected: those live now and this one, and in a program
/// with OpenMP regions at least the first number of `OMP_NUM_THREADS`, or as many as the
/// workers when it is not set (libomp then starts a thread per CPU). So a sequential run's one
/// thread (SASMM's input) gets up to four lanes, and the threads of a parallel region two each.
/// A thread keeps its lanes: the first thread of a program without regions that starts threads
/// of its own shares some of its four workers with them.
pub fn lanes_for_new_thread() -> usize {
    let workers = WORKERS.load(Ordering::Relaxed).max(1);
    let mut threads = LIVE.load(Ordering::Relaxed) + 1;
    if crate::has_parallel_regions() {
        threads = threads.max(crate::config::get().omp_threads.unwrap_or(workers));
    }
    (workers / threads.max(1))
        .clamp(MIN_LANES_PER_THREAD, MAX_LANES_PER_THREAD)
        .min(workers.max(MIN_LANES_PER_THREAD))
}

/// The worker of the lane 0 of a thread state taking `lanes` lanes: the one after the previous
/// state's last lane, so the states' lanes take the workers in turn.
pub fn claim_lanes(lanes: usize) -> usize {
    let workers = WORKERS.load(Ordering::Relaxed).max(1);
    NEXT_LANE.fetch_add(lanes, Ordering::Relaxed) % workers
}

/// Threads that may live while each fills all its raw buffers (see
/// `ThreadState::usable_buffers`): as many as the workers give two lanes of their own, and at
/// least two (with two workers, two threads sharing them kept them busier with all eight).
pub fn threads_with_all_buffers() -> usize {
    (WORKERS.load(Ordering::Relaxed) / MIN_LANES_PER_THREAD).max(2)
}

/// The next lane [`claim_lanes`] hands out (modulo the workers).
static NEXT_LANE: AtomicUsize = AtomicUsize::new(0);

// Safety: the state pointer is never freed, and the buffer it names is not written by its owner
// until the writer (or the signal handler) has encoded it and set its free bit.
unsafe impl Send for Job {}

struct Shared {
    /// Each worker's jobs.
    queues: [VecDeque<Job>; MAX_WRITERS],
    /// The worker waits for a job.
    idle: [bool; MAX_WRITERS],
}

static SHARED: Mutex<Shared> = Mutex::new(Shared {
    queues: [const { VecDeque::new() }; MAX_WRITERS],
    idle: [false; MAX_WRITERS],
});
/// The workers started (0 before [`start`]).
static WORKERS: AtomicUsize = AtomicUsize::new(0);
/// Signalled for a worker when its queue has jobs for it.
static READY: [Condvar; MAX_WRITERS] = [const { Condvar::new() }; MAX_WRITERS];
/// Signalled when the writer gives a buffer back or finishes a job, if anyone waits.
static PROGRESS: Condvar = Condvar::new();
/// Threads waiting on [`PROGRESS`].
static WAITERS: AtomicUsize = AtomicUsize::new(0);
/// Jobs queued or being processed.
static PENDING: AtomicUsize = AtomicUsize::new(0);
static RUNNING: AtomicBool = AtomicBool::new(false);
/// What each worker is doing: [`IDLE`] or [`ENCODING`].
static STAGES: [AtomicU8; MAX_WRITERS] = [const { AtomicU8::new(IDLE) }; MAX_WRITERS];
/// Not encoding (waiting, or compressing and writing a chunk it published in its slot).
const IDLE: u8 = 0;
/// The worker took a job and encodes its records (no allocation, no lock, no wait: bounded
/// time), publishing the chunk it may end in its slot.
const ENCODING: u8 = 1;
/// A signal handler has taken over: the writer takes no more jobs.
static TAKEN_OVER: AtomicBool = AtomicBool::new(false);

/// A chunk a worker ended, on its way through compression: its state goes [`EMPTY`] ->
/// [`COMPRESSING`] -> [`WRITING`] -> [`EMPTY`] (the worker), or COMPRESSING -> [`CLAIMED`] (a
/// signal handler, which then writes the chunk raw). Both leaving moves are compare-and-swaps, so
/// exactly one side writes the chunk. The payload's description is published before the state
/// becomes COMPRESSING; the buffer is never freed (it becomes the worker's spare), and nothing
/// writes it while a handler may read it.
struct Slot {
    /// [`EMPTY`], [`COMPRESSING`], [`WRITING`] or [`CLAIMED`].
    state: AtomicU32,
    payload: AtomicPtr<u8>,
    len: AtomicUsize,
    count: AtomicU32,
    thread: AtomicU32,
    seq: AtomicU32,
    /// The payload buffer the slot owns: the worker swaps in each chunk it ends while the slot
    /// is EMPTY; a signal handler reads it after.
    buf: UnsafeCell<Vec<u8>>,
}

// Safety: `buf` is written by its worker only while the slot is EMPTY, which a handler leaves
// alone; the handler only reads it, after the worker published COMPRESSING.
unsafe impl Sync for Slot {}

impl Slot {
    const fn new() -> Slot {
        Slot {
            state: AtomicU32::new(EMPTY),
            payload: AtomicPtr::new(std::ptr::null_mut()),
            len: AtomicUsize::new(0),
            count: AtomicU32::new(0),
            thread: AtomicU32::new(0),
            seq: AtomicU32::new(0),
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

/// No chunk: the worker may end one.
const EMPTY: u32 = 0;
/// The worker ended a chunk and compresses it (it may allocate, so it may be stuck).
const COMPRESSING: u32 = 2;
/// The worker is writing it (no allocation; only the file lock and `write`).
const WRITING: u32 = 3;
/// A signal handler writes the chunk instead; the worker drops its frame.
const CLAIMED: u32 = 4;

/// Each worker's slot.
static SLOTS: [Slot; MAX_WRITERS] = [const { Slot::new() }; MAX_WRITERS];

/// Queued buffers that wake a waiting worker. A thread with k lanes short of free buffers has
/// all its usable buffers but one in flight (at least `RAW_BUFFERS_PER_LANE / 2` per lane, less
/// one), so one of its lanes has at least this many queued or its worker is encoding one: it
/// always has a worker working for it.
const WAKE_AT: usize = 2;
const _: () = assert!(WAKE_AT >= 1 && RAW_BUFFERS_PER_LANE / 2 >= WAKE_AT);
/// Most jobs ever queued on one worker: every thread's buffers (a queue never needs to grow).
const MAX_JOBS: usize = RAW_BUFFERS_PER_LANE * MAX_LANES_PER_THREAD * super::MAX_THREADS + 4;

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
    let workers = crate::config::get().writers.clamp(1, MAX_WRITERS);
    for queue in &mut lock().queues[..workers] {
        queue.reserve(MAX_JOBS);
    }
    for slot in &SLOTS[..workers] {
        // Safety: no writer thread runs yet; nothing else touches the slots.
        unsafe { *slot.buf.get() = Vec::with_capacity(super::payload_capacity()) };
    }
    WORKERS.store(workers, Ordering::Release);
    let ok = (0..workers).all(|lane| {
        std::thread::Builder::new()
            .name(format!("rdtrace-writer-{lane}"))
            .spawn(move || run(lane))
            .is_ok()
    });
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

/// Queues a buffer for the worker of its chunk; false (not queued) once a signal handler has
/// taken over. Wakes a waiting worker only once [`WAKE_AT`] buffers are queued for it, or for a
/// job that closes a chunk, so a worker that keeps up costs one wake-up (a system call) per few
/// buffers, not one per buffer.
pub fn submit(job: Job) -> bool {
    let mut s = lock();
    if TAKEN_OVER.load(Ordering::SeqCst) {
        return false;
    }
    PENDING.fetch_add(1, Ordering::AcqRel);
    let (lane, close) = (job.lane, job.close);
    s.queues[lane].push_back(job);
    if s.idle[lane] && (close || s.queues[lane].len() >= WAKE_AT) {
        s.idle[lane] = false;
        READY[lane].notify_one();
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

/// Signal-handler version of [`drain`], allocating nothing: stops the workers from taking
/// more jobs, waits (bounded, about a second) while they encode a buffer, writes the chunk each
/// is compressing unless it is already writing it (then waits, bounded, for that write), then
/// encodes the queued buffers here, writing uncompressed each chunk a job closes (the open
/// chunks are written by [`super::flush_all`] with the buffers being filled). Gives up (those
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
    // No worker can take another job now. Encoding ends by itself (it never waits).
    for stage in &STAGES {
        while stage.load(Ordering::Acquire) == ENCODING {
            spins += 1;
            if timed_out(spins) {
                return;
            }
            std::hint::spin_loop();
        }
    }
    // The chunks the workers ended: write each here unless its worker has begun writing it (it
    // may be stuck in the allocator while compressing), else let it finish. Their order in the
    // file does not matter (readers order a thread's chunks by number).
    for slot in &SLOTS {
        if slot
            .state
            .compare_exchange(COMPRESSING, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            write_raw_chunk(
                slot.thread.load(Ordering::Acquire),
                slot.seq.load(Ordering::Acquire),
                slot.payload(),
                slot.count.load(Ordering::Acquire),
                true,
            );
        } else {
            while slot.state.load(Ordering::Acquire) == WRITING && !timed_out(spins) {
                spins += 1;
                std::hint::spin_loop();
            }
        }
    }
    // The buffers handed over but not yet encoded, each lane in order: into the chunk each
    // belongs to, which no one else touches now.
    for queue in &mut guard.queues {
        while let Some(job) = queue.pop_front() {
            // Safety: states are never freed.
            unsafe { &*job.state }.flush_job_from_signal(&job);
            PENDING.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Worker `lane`: encodes its queue's jobs; compresses and writes each chunk a job ends.
fn run(lane: usize) {
    let slot = &SLOTS[lane];
    let stage = &STAGES[lane];
    let mut spare = Vec::with_capacity(super::payload_capacity());
    let mut compressor = Compressor::new(super::max_payload_bytes());
    loop {
        let job = {
            let mut s = lock();
            loop {
                if !TAKEN_OVER.load(Ordering::SeqCst) {
                    if let Some(j) = s.queues[lane].pop_front() {
                        stage.store(ENCODING, Ordering::SeqCst);
                        break j;
                    }
                }
                s.idle[lane] = true;
                s = READY[lane].wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        // Safety: states are never freed.
        let state = unsafe { &*job.state };
        let Some((payload, count, thread)) = state.encode_job(&job, &mut spare) else {
            stage.store(IDLE, Ordering::SeqCst);
            state.job_done();
            PENDING.fetch_sub(1, Ordering::SeqCst);
            wake(state);
            continue;
        };
        // Publish the chunk before leaving ENCODING, so a handler that takes over from here
        // on finds it in the slot.
        // Safety: the slot is EMPTY, so it is this worker's alone (see `Slot`).
        let buf = unsafe { &mut *slot.buf.get() };
        spare = std::mem::replace(buf, payload);
        slot.payload
            .store(buf.as_ptr() as *mut u8, Ordering::Release);
        slot.len.store(buf.len(), Ordering::Release);
        slot.count.store(count, Ordering::Release);
        slot.thread.store(thread, Ordering::Release);
        slot.seq.store(job.seq, Ordering::Release);
        slot.state.store(COMPRESSING, Ordering::SeqCst);
        stage.store(IDLE, Ordering::SeqCst);
        // The buffer is free already; the job is done once its chunk is written.
        wake(state);
        compressor.compress(thread, job.seq, slot.payload(), count);
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
        slot.state.store(EMPTY, Ordering::SeqCst);
        state.job_done();
        PENDING.fetch_sub(1, Ordering::SeqCst);
        wake(state);
    }
}
