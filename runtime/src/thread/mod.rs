//! Per-thread event buffers and the registry that lets exit and signal handlers flush every
//! thread's buffer.
//!
//! Hot path: instrumented code appends 16-byte records at the thread-local cursor
//! `__rdt_cursor` (see `tls.c`) without a call; hooks append through the same cursor. After any
//! hook returns the buffer has room for `INLINE_SLACK_RECORDS` more records, which is why the
//! pass calls `__rdt_check` after calls and inside long blocks. Block entries are inline too:
//! each decrements the thread-local countdown `__rdt_countdown` and calls
//! `__rdt_block_countdown` ([`countdown_zero`]) when it runs out, at most every
//! `INLINE_BLOCKS_BETWEEN_HOOKS` blocks; that hook writes the stamps due every
//! `RDTRACE_STAMP_EVERY` blocks, flushes, rewinds the discard buffer and registers new threads.
//!
//! Double-buffered hand-off: each thread owns [`RAW_BUFFERS`] raw buffers. When the one being
//! filled is full, the owner queues it for the background writer (a [`writer::Job`]) and goes on
//! in a free one; the writer's encoder thread encodes the buffer into the thread's chunk
//! encoder and gives the buffer back, and its compressor thread compresses and writes each
//! finished chunk. So encoding, compression and the program overlap, and the traced thread only
//! swaps a pointer. At most
//! `RAW_BUFFERS - 1` buffers per thread are in flight: when none is free the owner waits for the
//! writer (back-pressure). While the writer runs, only the writer (or, after
//! [`writer::take_over`], a fatal-signal handler) touches a thread's encoder. Without the writer
//! (`RDTRACE_WRITER=0`) the owner encodes and compresses its one buffer itself. No allocation
//! once warmed up, no system call per event.
//!
//! States are never freed: a thread that exits flushes and returns its state to a free list, and
//! a later thread reuses it. That way a handler holding a pointer taken from the registry can
//! never see freed memory.
//!
//! The signal path allocates nothing: each encoder's payload buffer has room for a whole raw
//! buffer's worst-case encoding ([`payload_capacity`]), chunks are closed before their payload
//! could reach that capacity, records whose instruction the predictor table does not cover yet
//! are cut, and event counts live in preallocated slots ([`crate::endframe`]).

mod floors;
mod hooks;
mod recording;
mod registry;
pub(crate) mod writer;

pub use floors::{park_if_worker, publish_floors, set_worker};
pub use hooks::{check, countdown_zero, record, record_block, record_many, stamp};
pub use recording::sync_recording;
pub use registry::flush_all;

use floors::{pack_park, write_floors};

use crate::flusher::{write_raw_chunk, Compressor};
use crate::{clock, config};
use rdtrace::chunk::{ChunkKind, ThreadInfo};
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::{RawEvent, TAG_ACCESS, TAG_ACCESS_RANGE, TAG_GAP, TAG_STAMP};
use rdtrace::stream::Floor;
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// Most threads that can trace at once; events of further threads are dropped (with a warning).
pub const MAX_THREADS: usize = 4096;

/// Raw buffers per thread with the background writer: one being filled, the others in flight
/// to the writer or free.
pub const RAW_BUFFERS: usize = 4;

/// [`writer::Job::buf`] of a job that hands over no records (it only closes the chunk).
pub const NO_BUFFER: usize = usize::MAX;

/// A chunk is closed at this many payload bytes even if it has fewer events than configured.
const MAX_CHUNK_BYTES: usize = 4 << 20;

/// Records in one raw buffer, with its guard: the most one job or flush encodes.
fn buffer_records() -> usize {
    config::get().buffer_events + 2 * rdtrace::abi::INLINE_SLACK_RECORDS
}

/// Capacity of every chunk payload buffer (the encoders', the writer's spare and its slots'): a chunk of
/// typical density (4 bytes per event, at most [`MAX_CHUNK_BYTES`]) plus the room an append of
/// a whole raw buffer needs ([`rdtrace::codec::append_room`]). Chunks close at
/// [`close_at_bytes`], so appending a buffer to an open chunk never grows its payload: neither
/// the writer nor a signal handler allocates for encoding.
pub fn payload_capacity() -> usize {
    let typical = (config::get().chunk_events * 4).min(MAX_CHUNK_BYTES);
    typical + rdtrace::codec::append_room(buffer_records())
}

/// Most payload bytes of one chunk.
pub fn max_payload_bytes() -> usize {
    payload_capacity()
}

/// Payload bytes at which a chunk closes: a whole raw buffer still fits behind anything below.
fn close_at_bytes() -> usize {
    payload_capacity() - rdtrace::codec::append_room(buffer_records())
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
    thread: AtomicU32,
    seq: AtomicU32,
    recorded: AtomicU64,
    /// Blocks until the next stamp, counted from the block entry at which the countdown was
    /// last armed (owner only; see [`ThreadState::arm`]).
    stamp_left: Cell<u32>,
    /// What the thread-local countdown was last armed with: `stamp_left` minus it plus the
    /// countdown's value is the number of blocks until the next stamp (owner only).
    armed: Cell<u32>,
    /// Memory instructions the encoder's predictor table covers (set by whoever encodes): the
    /// signal path must not encode an access beyond it, which would grow the table.
    table_mem_instrs: AtomicUsize,
    /// Live streams: nonzero while the owner is parked (see [`park_if_worker`]); packs the
    /// thread index and the number of chunks it had handed over, so a reader of this word
    /// always sees a consistent pair.
    park_word: AtomicU64,
    /// Owner's copy of "parked" (no atomic load on the hot path).
    parked: Cell<bool>,
    /// Whether the owner's latest region entry was as an OpenMP worker (thread number > 0).
    worker: Cell<bool>,
    /// The chunk being encoded.
    encoder: UnsafeCell<ChunkEncoder>,
    /// Compressor for closing chunks on this thread when there is no writer thread.
    compressor: UnsafeCell<Option<Compressor>>,
}

// Safety: the non-Sync parts (stamp_left, armed, parked, worker) are only touched by the owner; the
// encoder and compressor by the owner or a flusher holding `busy` when there is no writer, else
// by the writer while it processes one of this state's jobs, or by a fatal-signal handler after
// `writer::take_over` has stopped the writer; the raw buffers' records are written by the owner
// into `bufs[cur_buf]` only and read by whoever encodes them after a hand-off.
unsafe impl Sync for ThreadState {}

/// Set once the final flush has written the end chunk: later events are not written.
pub static CLOSED: AtomicBool = AtomicBool::new(false);

extern "C" {
    /// Address of the calling thread's `__rdt_cursor` (defined in `tls.c`).
    fn __rdt_cursor_address() -> *mut AtomicPtr<RawEvent>;
    /// Address of the calling thread's `__rdt_countdown` (defined in `tls.c`).
    fn __rdt_countdown_address() -> *mut Cell<i32>;
}

/// The calling thread's block countdown (`rdtrace::abi::COUNTDOWN_TLS`).
fn countdown_var() -> &'static Cell<i32> {
    // Safety: the address of our own thread's TLS variable, valid for the thread's life; only
    // this thread (its instrumented code and its hooks) reads or writes it.
    unsafe { &*__rdt_countdown_address() }
}

/// Most blocks between two countdown hooks (see `rdtrace::abi::INLINE_BLOCKS_BETWEEN_HOOKS`).
const BLOCKS_BETWEEN_HOOKS: u32 = rdtrace::abi::INLINE_BLOCKS_BETWEEN_HOOKS as u32;

/// Where inline records of untraced threads go (never read). Its element type makes it
/// `RECORD_ALIGN`-aligned, as the pass's stores require.
static mut DISCARD: [RawEvent; rdtrace::abi::INLINE_SLACK_RECORDS * 2] =
    [RawEvent { head: 0, value: 0 }; rdtrace::abi::INLINE_SLACK_RECORDS * 2];
const _: () = assert!(std::mem::align_of::<[RawEvent; 1]>() == rdtrace::abi::RECORD_ALIGN as usize);

/// `CURRENT` of a thread that could not be registered (registry full): it is not retried on
/// every hook; its records go to [`DISCARD`]. Never dereferenced.
const UNTRACED: *const ThreadState = std::ptr::dangling();

/// `CURRENT` of a thread outside the region of interest ([`recording::set_recording`]): its
/// records go to [`DISCARD`] and its state (if it has one yet) waits in `PAUSED`. Never
/// dereferenced.
const ROI_OFF: *const ThreadState = std::ptr::dangling::<ThreadState>().wrapping_add(1);

thread_local! {
    static CURRENT: Cell<*const ThreadState> = const { Cell::new(std::ptr::null()) };
    /// The state of a thread whose `CURRENT` is [`ROI_OFF`] (null before it first recorded).
    static PAUSED: Cell<*const ThreadState> = const { Cell::new(std::ptr::null()) };
    static EXIT_GUARD: ExitGuard = const { ExitGuard };
}

/// `n` zeroed records, allocated zeroed, so pages a thread never fills are never touched.
fn zeroed_records(n: usize) -> Box<[RawEvent]> {
    let layout = std::alloc::Layout::array::<RawEvent>(n).expect("raw buffer size");
    // Safety: the layout is not empty (n > 0: at least the slack); a record is two integers,
    // for which all-zero bytes are a valid value; the box takes the allocation with its layout.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut RawEvent;
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
    }
}

/// Points the calling thread's cursor at the discard buffer (rewinding it).
fn discard_records() {
    // Safety: our own thread's TLS cursor; the scratch buffer is only ever garbage.
    unsafe {
        (*__rdt_cursor_address()).store(std::ptr::addr_of_mut!(DISCARD).cast(), Ordering::Relaxed)
    };
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
        s.in_use.store(false, Ordering::Release);
    }
}

impl ThreadState {
    fn new() -> ThreadState {
        let cfg = config::get();
        let slack = rdtrace::abi::INLINE_SLACK_RECORDS;
        let count = if writer::running() { RAW_BUFFERS } else { 1 };
        ThreadState {
            // A guard as large as the slack follows each, so that an overrun (a bug in the
            // pass's check placement) is caught by `len` before it reaches other memory.
            bufs: (0..count)
                .map(|_| zeroed_records(cfg.buffer_events + 2 * slack))
                .collect(),
            cur_buf: AtomicUsize::new(0),
            limit: AtomicPtr::new(std::ptr::null_mut()),
            // Buffer 0 is being filled.
            free: AtomicU32::new(((1u32 << count) - 1) & !1),
            pending: AtomicU32::new(0),
            wake_word: AtomicU32::new(0),
            threshold: cfg.buffer_events,
            cursor: AtomicPtr::new(std::ptr::null_mut()),
            saved_cursor: AtomicPtr::new(std::ptr::null_mut()),
            busy: AtomicBool::new(false),
            in_use: AtomicBool::new(true),
            thread: AtomicU32::new(0),
            seq: AtomicU32::new(0),
            recorded: AtomicU64::new(0),
            stamp_left: Cell::new(1),
            armed: Cell::new(1),
            table_mem_instrs: AtomicUsize::new(crate::total_mem_instrs()),
            park_word: AtomicU64::new(0),
            parked: Cell::new(false),
            worker: Cell::new(false),
            encoder: UnsafeCell::new(ChunkEncoder::new(
                crate::total_mem_instrs(),
                payload_capacity(),
            )),
            compressor: UnsafeCell::new(None),
        }
    }

    /// The buffer being filled.
    fn events(&self) -> &[RawEvent] {
        &self.bufs[self.cur_buf.load(Ordering::Acquire)]
    }

    fn base(&self) -> *mut RawEvent {
        self.events().as_ptr() as *mut RawEvent
    }

    /// The owner's TLS cursor; `None` before registration and after the owner exited.
    fn cursor_var(&self) -> Option<&AtomicPtr<RawEvent>> {
        let p = self.cursor.load(Ordering::Acquire);
        // Safety: set at registration to the owner's TLS cursor, which lives as long as the
        // owner; cleared (under `busy`) before the owner's thread-local storage goes away.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// Records in the buffer, from the cursor.
    fn len(&self) -> usize {
        let Some(cursor) = self.cursor_var() else {
            return 0;
        };
        let saved = self.saved_cursor.load(Ordering::Acquire);
        let cur = if saved.is_null() {
            cursor.load(Ordering::Acquire) as usize
        } else {
            saved as usize
        };
        let base = self.base() as usize;
        let n = cur.wrapping_sub(base) / std::mem::size_of::<RawEvent>();
        if cur < base || n > self.events().len() {
            // Not our buffer (the scratch buffer of an untraced thread): nothing to flush.
            return 0;
        }
        if n > self.threshold + rdtrace::abi::INLINE_SLACK_RECORDS {
            // Inline records ran past the slack into the guard: the promise between hooks was
            // broken, and the trace cannot be trusted. Say so loudly rather than write garbage.
            crate::diag(
                "inline trace records overran the thread buffer (missing __rdt_check); aborting",
            );
            std::process::abort();
        }
        n
    }

    /// Empties the buffer.
    fn reset_cursor(&self) {
        if !self.saved_cursor.load(Ordering::Acquire).is_null() {
            self.saved_cursor.store(self.base(), Ordering::Release);
        } else if let Some(cursor) = self.cursor_var() {
            cursor.store(self.base(), Ordering::Release);
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

    /// Hands the raw buffer to the writer thread (which encodes it into the current chunk), or
    /// without a writer encodes it here; the chunk closes when it is full or when `close`
    /// (exit, thread end, signal). Closed chunks are compressed and written by the writer, or
    /// here (compressed, or raw from a signal handler, without allocating).
    pub fn flush(&self, from_signal: bool, close: bool) {
        if !self.lock(from_signal) {
            return;
        }
        if !CLOSED.load(Ordering::Acquire) {
            let n = self.len();
            if from_signal {
                self.flush_from_signal(&self.events()[..n]);
            } else if writer::running() {
                self.hand_off(n, close);
            } else {
                self.flush_normal(n, close);
            }
        }
        self.reset_cursor();
        self.busy.store(false, Ordering::Release);
    }

    /// Queues the buffer being filled (its first `n` records) for the writer and makes a free
    /// buffer the one being filled, waiting for the writer to give one back when none is free.
    /// A job without records is queued only to close the chunk. Called under `busy`.
    ///
    /// Once a fatal-signal handler has taken the writer over, the job is not queued: this
    /// thread lets go of `busy` and waits for the end of the process, so the handler flushes
    /// the buffer in sequence (see [`writer::take_over`]).
    fn hand_off(&self, n: usize, close: bool) {
        if n == 0 && !close {
            return;
        }
        let cur = self.cur_buf.load(Ordering::Relaxed);
        let job = writer::Job {
            state: self as *const ThreadState,
            buf: if n > 0 { cur } else { NO_BUFFER },
            n,
            close,
        };
        self.pending.fetch_add(1, Ordering::SeqCst);
        if !writer::submit(job) {
            self.pending.fetch_sub(1, Ordering::SeqCst);
            self.busy.store(false, Ordering::Release);
            writer::wait_for_the_end();
        }
        if n == 0 {
            return;
        }
        loop {
            let free = self.free.load(Ordering::Acquire);
            if free != 0 {
                let next = free.trailing_zeros() as usize;
                self.free.fetch_and(!(1 << next), Ordering::AcqRel);
                self.use_buffer(next);
                return;
            }
            // Back-pressure: the writer is behind. Wait until it has given back two buffers
            // (or all), so a writer slower than this thread costs a wait per two buffers, not
            // per buffer. (Taken over: the job above is the handler's to write, and this thread
            // holds no record it has not handed over.)
            writer::wait_for_state(&self.wake_word, || self.may_go_on() || writer::taken_over());
            if writer::taken_over() {
                writer::wait_for_the_end();
            }
        }
    }

    /// The word the owner sleeps on while it waits for this state's jobs.
    pub fn wake_word(&self) -> &AtomicU32 {
        &self.wake_word
    }

    /// Whether a thread waiting for this state's jobs may go on: two buffers free, or no job
    /// left (the writer wakes waiters only then).
    pub fn may_go_on(&self) -> bool {
        self.free.load(Ordering::SeqCst).count_ones() >= 2
            || self.pending.load(Ordering::SeqCst) == 0
    }

    /// Makes `bufs[i]` the buffer being filled (the cursor is reset by the caller).
    fn use_buffer(&self, i: usize) {
        self.cur_buf.store(i, Ordering::Release);
        // Safety: `threshold` < the buffer's length.
        let limit = unsafe { self.bufs[i].as_ptr().add(self.threshold) };
        self.limit.store(limit as *mut RawEvent, Ordering::Release);
    }

    /// Whether `records` more records would take the cursor `cur` past the limit.
    #[inline(always)]
    fn past_limit(&self, cur: *mut RawEvent, records: usize) -> bool {
        (cur as usize).wrapping_add(records * std::mem::size_of::<RawEvent>())
            > self.limit.load(Ordering::Relaxed) as usize
    }

    /// Waits until the writer has finished every job of this state (thread exit, parking).
    fn wait_idle(&self) {
        if !writer::running() {
            return;
        }
        writer::wait_for_state(&self.wake_word, || {
            self.pending.load(Ordering::SeqCst) == 0 || writer::taken_over()
        });
        if self.pending.load(Ordering::SeqCst) != 0 {
            writer::wait_for_the_end();
        }
    }

    /// The writer's part of a job: encodes the handed-over records into the current chunk, gives
    /// the buffer back, and when the chunk is full (or the job closes it) ends it, swapping in
    /// `spare` as the next chunk's payload buffer. Returns the ended chunk's payload, event
    /// count, thread index and sequence number. Allocates nothing unless a module was
    /// registered since the predictor table was sized.
    pub fn encode_job(
        &self,
        buf: usize,
        n: usize,
        close: bool,
        spare: &mut Vec<u8>,
    ) -> Option<(Vec<u8>, u32, u32, u32)> {
        // Safety: while the writer runs, only it touches the encoder (this job is in flight).
        let enc = unsafe { &mut *self.encoder.get() };
        if buf != NO_BUFFER {
            self.encode_into(enc, &self.bufs[buf][..n]);
            self.free.fetch_or(1 << buf, Ordering::SeqCst);
        }
        let full = enc.chunk_events() as usize >= config::get().chunk_events
            || enc.chunk_bytes() >= close_at_bytes();
        if (full || close) && enc.chunk_events() > 0 {
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let (payload, count) = enc.take_chunk(std::mem::take(spare));
            return Some((payload, count, self.thread.load(Ordering::Relaxed), seq));
        }
        None
    }

    /// Appends records to the open chunk (ordinary path: may grow the predictor table).
    fn encode_into(&self, enc: &mut ChunkEncoder, records: &[RawEvent]) {
        if records.is_empty() {
            return;
        }
        let mem_instrs = crate::total_mem_instrs();
        enc.reserve_mem_instrs(mem_instrs);
        self.table_mem_instrs
            .fetch_max(mem_instrs, Ordering::Relaxed);
        let before = enc.chunk_events();
        enc.append(records);
        self.count(enc.chunk_events() - before);
    }

    /// Marks the end of the state's jobs: called by the writer after it wrote a job's chunk.
    pub fn job_done(&self) {
        self.pending.fetch_sub(1, Ordering::SeqCst);
    }

    /// Fatal-signal path for a buffer that was queued for the writer: encodes and writes its
    /// records like [`ThreadState::flush`] does for the buffer being filled.
    pub fn flush_job_from_signal(&self, buf: usize, n: usize) {
        let records = match buf {
            NO_BUFFER => &[][..],
            b => &self.bufs[b][..n],
        };
        self.flush_from_signal(records);
    }

    /// Adds `added` events to this thread's count and publishes it for the end record.
    fn count(&self, added: u32) {
        self.recorded.set_relaxed_add(added as u64);
        if let Some(slot) = crate::endframe::slot(self.thread.load(Ordering::Relaxed)) {
            slot.store(self.recorded.load(Ordering::Relaxed), Ordering::Release);
        }
    }

    /// The ordinary flush (owner, thread exit, `exit()`): may allocate.
    fn flush_normal(&self, n: usize, close: bool) {
        // Safety: without a writer, `busy` gives exclusive access to the encoder and compressor.
        let enc = unsafe { &mut *self.encoder.get() };
        self.encode_into(enc, &self.events()[..n]);
        let full = enc.chunk_events() as usize >= config::get().chunk_events
            || enc.chunk_bytes() >= close_at_bytes();
        if (full || close) && enc.chunk_events() > 0 {
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let thread = self.thread.load(Ordering::Relaxed);
            let (payload, count) = enc.finish_chunk();
            // Safety: as above.
            let c = unsafe { &mut *self.compressor.get() }
                .get_or_insert_with(|| Compressor::new(max_payload_bytes()));
            c.write(thread, seq, payload, count);
            if crate::output::is_stream() {
                publish_floors(&mut c.floors);
            }
            enc.start_chunk();
        }
    }

    /// The fatal-signal flush of `records` (at most one raw buffer): encodes and writes raw,
    /// allocating nothing. The open chunk's payload is below [`close_at_bytes`] (ordinary
    /// flushes close it there) and its buffer holds [`payload_capacity`] bytes; when the records
    /// might not fit behind it, it is written first and they go into a fresh chunk, where their
    /// worst case fits.
    fn flush_from_signal(&self, records: &[RawEvent]) {
        // Safety: `busy`, or the handler's take-over of the writer, gives exclusive access to
        // the encoder.
        let enc = unsafe { &mut *self.encoder.get() };
        let covered = self.table_mem_instrs.load(Ordering::Relaxed);
        // An access by an instruction the table does not cover (a module registered since the
        // last ordinary flush, or a clobbered record) would grow the table: the stream ends
        // before it.
        let n = records.len();
        let cut = records
            .iter()
            .position(|r| {
                matches!(r.tag(), TAG_ACCESS | TAG_ACCESS_RANGE) && r.id() as usize >= covered
            })
            .unwrap_or(n);
        let thread = self.thread.load(Ordering::Relaxed);
        let write = |enc: &mut ChunkEncoder| {
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let (payload, count) = enc.finish_chunk();
            write_raw_chunk(thread, seq, payload, count, true);
            enc.start_chunk();
        };
        if enc.chunk_events() > 0
            && enc.chunk_bytes() + rdtrace::codec::append_room(cut) > payload_capacity()
        {
            write(enc);
        }
        if cut > 0 {
            let before = enc.chunk_events();
            enc.append(&records[..cut]);
            self.count(enc.chunk_events() - before);
        }
        if enc.chunk_events() > 0 {
            write(enc);
        }
    }

    #[inline(always)]
    fn push_slice(&self, records: &[RawEvent]) {
        let Some(cursor) = self.cursor_var() else {
            return;
        };
        let mut cur = cursor.load(Ordering::Relaxed);
        if self.past_limit(cur, records.len()) {
            self.flush(false, false);
            cur = cursor.load(Ordering::Relaxed);
        }
        // Safety: len + records.len() <= threshold, and the buffer has INLINE_SLACK_RECORDS
        // more; only the owner writes records, and a concurrent exit flusher reads only up to
        // the cursor, which moves after the records are written.
        unsafe {
            std::ptr::copy_nonoverlapping(records.as_ptr(), cur, records.len());
            cursor.store(cur.add(records.len()), Ordering::Release);
        }
    }

    /// Leaves the parked state: clears the park word, then reads the clock for the stamp that
    /// starts the thread's next segment (see [`park_if_worker`]).
    #[cold]
    fn unpark(&self) {
        self.park_word.store(0, Ordering::SeqCst);
        self.parked.set(false);
        let now = clock::now_ordered();
        self.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, now)]);
        self.reset_stamp_countdown(config::get().stamp_every);
    }

    /// The next stamp is due at the `n`th block entry from now: arms the countdown for it.
    /// Owner only.
    fn reset_stamp_countdown(&self, n: u32) {
        self.stamp_left.set(n);
        self.arm();
    }

    /// Sets the thread-local countdown to the blocks until the next stamp, but at most
    /// [`BLOCKS_BETWEEN_HOOKS`], so the countdown hook also keeps the free-space promise
    /// (see `rdtrace::abi::INLINE_BLOCKS_BETWEEN_HOOKS`). Owner only.
    fn arm(&self) {
        let k = self.stamp_left.get().clamp(1, BLOCKS_BETWEEN_HOOKS);
        self.armed.set(k);
        countdown_var().set(k as i32);
    }

    /// Closes the chunk and parks (live streams, see [`park_if_worker`]).
    fn park(&self) {
        self.flush(false, true);
        self.wait_idle();
        let word = pack_park(
            self.thread.load(Ordering::Relaxed),
            self.seq.load(Ordering::Relaxed),
        );
        self.parked.set(true);
        self.park_word.store(word, Ordering::SeqCst);
        // The next block entry takes the countdown hook, which unparks (a parked thread's next
        // event is a fresh stamp).
        countdown_var().set(1);
    }

    /// Flushes when the buffer is past its threshold (the slack is for inline records).
    #[inline(always)]
    fn check(&self) {
        if let Some(cursor) = self.cursor_var() {
            if self.past_limit(cursor.load(Ordering::Relaxed), 0) {
                self.flush(false, false);
            }
        }
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

#[cfg(test)]
mod tests;
