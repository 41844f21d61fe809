//! Per-thread event buffers and the registry that lets exit and signal handlers flush every
//! thread's buffer.
//!
//! Hot path: instrumented code appends 16-byte records at the thread-local cursor
//! `__rdt_cursor` (see `tls.c`) without a call; hooks append through the same cursor. After any
//! hook returns the buffer has room for `INLINE_SLACK_RECORDS` more records, which is why the
//! pass calls `__rdt_check` after calls and inside long blocks. Block entries are inline too:
//! each decrements the thread-local countdown `__rdt_blocks_free` and calls
//! `__rdt_block_countdown` ([`countdown_zero`]) when it runs out, at most every
//! `INLINE_BLOCKS_BETWEEN_HOOKS` blocks; that hook writes the stamps due every
//! `RDTRACE_STAMP_EVERY` blocks (by default sparser while the thread is the only one, see
//! `config::STAMP_EVERY_ALONE`), flushes, rewinds the discard buffer and registers new threads.
//!
//! Double-buffered hand-off: each thread owns [`RAW_BUFFERS_PER_LANE`] raw buffers per lane.
//! When the one being filled is full, the owner queues it for the background writer (a
//! [`writer::Job`]) and goes on in a free one. The owner decides at hand-off where chunks end
//! (after [`chunk_buffers`] buffers, at `RDTRACE_CHUNK_EVENTS` events, or when it closes one)
//! and numbers them; chunk `seq` goes to the thread's lane `seq % lanes` (2 to
//! [`MAX_LANES_PER_THREAD`] lanes, chosen when the state is made), a worker of the writer
//! ([`writer::lane_of`]: the threads' lanes spread over the `RDTRACE_WRITERS` workers), which
//! encodes its buffers into the thread's encoder of that lane, gives each buffer back, then
//! compresses and writes the chunk. So a thread's consecutive chunks are encoded on several
//! threads at once (each chunk starts the predictor afresh), several threads' chunks on as many
//! workers as the machine has CPUs for, and the program, encoding and compression overlap; the
//! traced thread only swaps a pointer. At most all buffers but one per thread are in flight:
//! when none is free the owner waits for the writer (back-pressure). While the writer runs,
//! only its workers (or, after [`writer::take_over`], a fatal-signal handler) touch a thread's
//! encoders. Without the writer (`RDTRACE_WRITER=0`) the owner encodes and compresses its one
//! buffer itself. No
//! allocation once warmed up, no system call per event.
//!
//! States are never freed: a thread that exits flushes and returns its state to a free list, and
//! a later thread reuses it. That way a handler holding a pointer taken from the registry can
//! never see freed memory.
//!
//! The signal path allocates nothing: each encoder's payload buffer has room for the worst-case
//! encoding of a whole chunk's raw buffers ([`payload_capacity`]), records whose instruction
//! the predictor table does not cover yet are cut, and event counts live in preallocated slots
//! ([`crate::endframe`]).
//!
//! This module holds the state's type, the sizes of its buffers and the guard that flushes at
//! thread exit. Its children: `local` (the calling thread's thread-locals), `buffers` (making a
//! state, its cursor and its lock), `flush` (handing buffers over to the writer), `encode`
//! (encoding and closing chunks), `owner` (the owner's hot path, parking); `hooks`, `floors`,
//! `recording` and `registry` build on them, and `writer` is the background writer.

mod buffers;
mod encode;
mod floors;
mod flush;
mod hooks;
mod local;
mod owner;
mod recording;
mod registry;
pub(crate) mod writer;

pub use floors::{idle_if_worker, park_if_worker, publish_floors, set_worker};
pub use hooks::{check, countdown_zero, record, record_block, record_many, stamp};
pub use recording::sync_recording;
pub use registry::flush_all;

use floors::write_floors;
use local::{
    __rdt_cursor_address, countdown_var, discard_records, BLOCKS_BETWEEN_HOOKS, CURRENT, PAUSED,
    ROI_OFF, UNTRACED,
};
// For the doc links here and in `recording`.
#[cfg(doc)]
use local::DISCARD;

use crate::flusher::Compressor;
use crate::{clock, config};
use rdtrace::chunk::{ChunkKind, ThreadInfo};
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::{RawEvent, TAG_GAP, TAG_STAMP};
use rdtrace::stream::Floor;
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// Most threads that can trace at once; events of further threads are dropped (with a warning).
pub const MAX_THREADS: usize = 4096;

/// Raw buffers per lane of a thread with the background writer (one being filled, the others
/// in flight to the writer or free): a thread with k lanes has k times this many, enough for k
/// consecutive chunks (four buffers each by default) to be in flight at once, so that all its
/// lanes' workers encode while the program runs (with two lanes and four buffers, the second
/// lane mostly waited: traced bfs and Lua's interpreter ran 13-14 % slower). Only while each
/// thread's lanes are workers of its own, though ([`writer::threads_with_all_buffers`]): with more threads,
/// other threads' chunks keep the workers busy, and each thread uses the first half
/// ([`ThreadState::usable_buffers`]). The lowest free buffer is filled next, so a thread whose
/// writer keeps up touches only the first few.
pub const RAW_BUFFERS_PER_LANE: usize = 4;

/// Fewest lanes of a thread with the background writer (see [`writer::lanes_for_new_thread`]).
pub const MIN_LANES_PER_THREAD: usize = 2;

/// Most lanes of a thread: a thread that records alone on a machine with CPUs to spare gives
/// its chunks to this many workers (a sequential run's single thread recorded faster than two
/// workers encoded and compressed: `perf` of bfs, the busiest of two workers 1.93 CPU s
/// against the program thread's 1.44; of the C++ program, 0.84 against 0.42).
pub const MAX_LANES_PER_THREAD: usize = 4;

const _: () = assert!(
    RAW_BUFFERS_PER_LANE * MAX_LANES_PER_THREAD <= 32,
    "`free` is a u32"
);

/// [`writer::Job::buf`] of a job that hands over no records (it only closes the chunk).
pub const NO_BUFFER: usize = usize::MAX;

/// Most worst-case payload bytes of one chunk's raw buffers: [`chunk_buffers`] stays below it
/// (but is at least one buffer).
const MAX_CHUNK_BYTES: usize = 8 << 20;

/// Records in one raw buffer, with its guard: the most one job or flush encodes.
fn buffer_records() -> usize {
    config::get().buffer_events + 2 * rdtrace::abi::INLINE_SLACK_RECORDS
}

/// Raw buffers after which a chunk closes: enough for `RDTRACE_CHUNK_EVENTS` events (the events
/// rule closes it there too), but no more than [`MAX_CHUNK_BYTES`] of worst-case encoding
/// holds, and at least one. Counted at hand-off, so the chunk's end is known before its
/// buffers are encoded (see [`ThreadState::chunk_full_after`]).
pub(super) fn chunk_buffers() -> u32 {
    let cfg = config::get();
    let wanted = cfg.chunk_events.div_ceil(cfg.buffer_events);
    let fit = MAX_CHUNK_BYTES / rdtrace::codec::append_room(buffer_records());
    wanted.min(fit).max(1) as u32
}

/// Capacity of every chunk payload buffer (the encoders', the writer's spares and its slots'):
/// the worst-case encoding of [`chunk_buffers`] whole raw buffers appended one by one
/// ([`rdtrace::codec::append_room`] each, and a run byte each). A chunk never holds more, so
/// neither the writer nor a signal handler allocates for encoding.
pub fn payload_capacity() -> usize {
    let buffers = chunk_buffers() as usize;
    rdtrace::codec::append_room(buffers * buffer_records()) + 2 * buffers
}

/// Most payload bytes of one chunk.
pub fn max_payload_bytes() -> usize {
    payload_capacity()
}

/// Everything one thread needs to record and flush.
pub struct ThreadState {
    /// The raw buffers (one without the writer): `buffer_events` records plus the inline slack
    /// each. The one being filled is `bufs[cur_buf]`.
    bufs: Box<[Box<[RawEvent]>]>,
    /// Index of the buffer being filled (changed by a flusher under `busy`).
    cur_buf: AtomicUsize,
    /// `threshold` records into the buffer being filled: hooks flush when the cursor passes it
    /// (one compare on the hot path). Changed with `cur_buf`.
    limit: AtomicPtr<RawEvent>,
    /// Bit `i` set: `bufs[i]` is free (neither being filled nor in flight to the writer). The
    /// flusher clears bits under `busy`, the writer sets them after encoding.
    free: AtomicU32,
    /// Jobs of this state queued for the writer or being processed by it.
    pending: AtomicU32,
    /// Bumped by the writer when the owner may go on ([`writer::wait_for_state`]): the owner
    /// sleeps on it, so the writer wakes that one thread, not every waiting thread.
    wake_word: AtomicU32,
    /// Records after which a hook flushes.
    threshold: usize,
    /// Address of the owning thread's `__rdt_cursor`: the next free record of `events`.
    /// Written by the owner (inline code and hooks), read by flushers.
    cursor: AtomicPtr<AtomicPtr<RawEvent>>,
    /// While the owner is outside the region of interest ([`recording::set_recording`]):
    /// where its cursor was (its TLS cursor then points at [`DISCARD`]); null while it records.
    /// Changed under `busy`, so a flusher sees either the cursor or this.
    saved_cursor: AtomicPtr<RawEvent>,
    /// Held while records are encoded or a chunk is closed, by the owner or by an exit/signal
    /// flusher.
    busy: AtomicBool,
    /// Whether a live thread owns this state.
    in_use: AtomicBool,
    /// The writer's worker of the state's lane 0; lane `i` is `first_lane + i` modulo the
    /// workers ([`writer::lane_of`]). Fixed when the state is made.
    first_lane: usize,
    thread: AtomicU32,
    /// The open chunk's sequence number: chunks handed over (or written without the writer) so
    /// far. Advanced under `busy` when a chunk closes.
    seq: AtomicU32,
    /// Raw buffers in the open chunk (under `busy`).
    open_buffers: AtomicU32,
    /// Events the open chunk's buffers decode to, at most: records plus what their loop runs
    /// stand for (under `busy`).
    open_events: AtomicU64,
    /// Events encoded, from every lane (published in the thread's end-record slot).
    recorded: AtomicU64,
    /// Blocks until the next stamp, counted from the block entry at which the countdown was
    /// last armed (owner only; see [`ThreadState::arm`]).
    stamp_left: Cell<u32>,
    /// What the thread-local countdown was last armed with: `stamp_left` minus it plus the
    /// countdown's value is the number of blocks until the next stamp (owner only).
    armed: Cell<u32>,
    /// Whether the last stamp was spaced for a thread alone (owner only; see
    /// `config::STAMP_EVERY_ALONE`).
    sparse_stamps: Cell<bool>,
    /// Live streams: nonzero while the owner is parked (see [`park_if_worker`]); packs the
    /// thread index and the number of chunks it had handed over, so a reader of this word
    /// always sees a consistent pair.
    park_word: AtomicU64,
    /// Owner's copy of "parked" (no atomic load on the hot path).
    parked: Cell<bool>,
    /// Whether the owner's latest region entry was as an OpenMP worker (thread number > 0).
    worker: Cell<bool>,
    /// Whether the owner is an OpenMP worker between regions (counted in `registry::IDLE`).
    idle: Cell<bool>,
    /// The chunk encoders, one per lane (one without the writer):
    /// chunk `seq` is built in `encoders[seq % len]`.
    encoders: Box<[UnsafeCell<ChunkEncoder>]>,
    /// Compressor for closing chunks on this thread when there is no writer thread.
    compressor: UnsafeCell<Option<Compressor>>,
}

// Safety: the non-Sync parts (stamp_left, armed, sparse_stamps, parked, worker, idle) are only
// touched by the owner; the encoders and compressor by the owner or a flusher holding `busy` when
// there is no writer, else an encoder by the writer's worker of its lane while it processes one of
// this state's jobs, or by a fatal-signal handler after `writer::take_over` has stopped the writer;
// the raw buffers' records are written by the owner into `bufs[cur_buf]` only and read by whoever
// encodes them after a hand-off.
unsafe impl Sync for ThreadState {}

/// Set once the final flush has written the end chunk: later events are not written.
pub static CLOSED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static EXIT_GUARD: ExitGuard = const { ExitGuard };
}

/// Flushes the thread's buffer when the thread exits (TLS destructor).
struct ExitGuard;

impl Drop for ExitGuard {
    fn drop(&mut self) {
        let mut s = CURRENT.with(|c| c.replace(std::ptr::null()));
        if s == ROI_OFF {
            s = PAUSED.with(|p| p.replace(std::ptr::null()));
        }
        if s.is_null() || s == UNTRACED {
            return;
        }
        // Safety: states are never freed.
        let s = unsafe { &*s };
        s.flush(false, true);
        if crate::output::is_stream() {
            // The floor below must come after the thread's last chunk. (Otherwise the thread
            // does not wait for the writer: its state is reused only once its jobs are done,
            // see `register_current_thread`.)
            s.wait_idle();
            // The thread writes no more chunks: tell a live reader not to wait for it.
            s.park_word.store(0, Ordering::SeqCst);
            s.parked.set(false);
            let thread = s.thread.load(Ordering::Relaxed);
            write_floors(&[Floor {
                thread,
                next_seq: s.seq.load(Ordering::Relaxed),
                time: rdtrace::stream::ENDED,
            }]);
        }
        // Detach: code that still runs on this thread (later TLS destructors) must not write
        // into a buffer another thread may get, and flushers must not read dying TLS. Its next
        // block entry takes the countdown hook (which registers it again, as any hook would).
        discard_records();
        countdown_var().set(1);
        if s.lock(false) {
            s.cursor.store(std::ptr::null_mut(), Ordering::Release);
            s.saved_cursor
                .store(std::ptr::null_mut(), Ordering::Release);
            s.busy.store(false, Ordering::Release);
        }
        // The thread's count stays in its slot (published by every flush).
        s.set_idle(false);
        registry::LIVE.fetch_sub(1, Ordering::Relaxed);
        s.in_use.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests;
