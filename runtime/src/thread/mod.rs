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
//! in a free one; the writer encodes the buffer into the thread's chunk encoder, gives the
//! buffer back, and compresses and writes each finished chunk. So encoding and compression
//! overlap with the program, and the traced thread only swaps a pointer. At most
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

pub(crate) mod writer;

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

/// Capacity of every chunk payload buffer (the encoders' and the writer's spare): a chunk of
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
    /// While the owner is outside the region of interest ([`set_recording`]): where its cursor
    /// was (its TLS cursor then points at [`DISCARD`]); null while it records. Changed under
    /// `busy`, so a flusher sees either the cursor or this.
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

static REGISTRY: [AtomicPtr<ThreadState>; MAX_THREADS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_THREADS];
static REGISTERED: AtomicUsize = AtomicUsize::new(0);
static DROPPED_WARNED: AtomicBool = AtomicBool::new(false);
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

/// `CURRENT` of a thread outside the region of interest ([`set_recording`]): its records go to
/// [`DISCARD`] and its state (if it has one yet) waits in `PAUSED`. Never dereferenced.
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

/// Finds a free state or makes one, registers it under a new thread index, and writes the
/// thread chunk. Returns null when the registry is full.
#[cold]
fn register_current_thread() -> *const ThreadState {
    crate::ensure_init();
    let registered = REGISTERED.load(Ordering::Acquire).min(MAX_THREADS);
    let mut state: *const ThreadState = std::ptr::null();
    for slot in REGISTRY.iter().take(registered) {
        let p = slot.load(Ordering::Acquire);
        // Safety: states are never freed.
        if !p.is_null()
            // SAFETY: a non-null slot points to a state, and states are never freed.
            && unsafe { &*p }
                .in_use
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            // SAFETY: as above.
            let candidate = unsafe { &*p };
            // Jobs of its last owner still with the writer use its thread index and sequence
            // counter: not yet (the count only goes down once the owner has left).
            if candidate.pending.load(Ordering::SeqCst) != 0 {
                candidate.in_use.store(false, Ordering::Release);
                continue;
            }
            state = p;
            break;
        }
    }
    if state.is_null() {
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
    let thread = crate::endframe::new_thread_index();
    // Safety: state is a live, never-freed state now owned by this thread.
    let s = unsafe { &*state };
    s.thread.store(thread, Ordering::Relaxed);
    s.seq.store(0, Ordering::Relaxed);
    s.recorded.store(0, Ordering::Relaxed);
    // Safety: returns the address of this thread's TLS cursor, valid for the thread's life.
    let tls = unsafe { __rdt_cursor_address() };
    s.saved_cursor
        .store(std::ptr::null_mut(), Ordering::Release);
    s.cursor.store(tls, Ordering::Release);
    s.use_buffer(s.cur_buf.load(Ordering::Relaxed));
    s.reset_cursor();
    // The first block entry stamps.
    s.reset_stamp_countdown(1);
    s.park_word.store(0, Ordering::SeqCst);
    s.parked.set(false);
    s.worker.set(false);
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
    if crate::output::is_stream() {
        // In a stream a thread's first event is a stamp read after its thread chunk was
        // written, so a live reader never meets a thread with events older than chunks it has
        // already merged (see `rdtrace::stream`).
        s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now_ordered())]);
        s.reset_stamp_countdown(config::get().stamp_every);
    }
    state
}

/// The calling thread's state, registering the thread on first use.
#[inline(always)]
fn current() -> Option<&'static ThreadState> {
    let mut p = CURRENT.try_with(|c| c.get()).unwrap_or(std::ptr::null());
    if p == UNTRACED || p == ROI_OFF {
        // Inline records land in the scratch buffer, which every hook rewinds.
        discard_records();
        return None;
    }
    if p.is_null() {
        if crate::roi::armed() && !crate::roi::wanted() {
            // Outside the region of interest from its start: not registered until it records.
            let _ = CURRENT.try_with(|c| c.set(ROI_OFF));
            discard_records();
            return None;
        }
        p = register_current_thread();
        if p.is_null() {
            // Registry full: remember it, so later hooks do not try again.
            let _ = CURRENT.try_with(|c| c.set(UNTRACED));
            discard_records();
            return None;
        }
    }
    // Safety: states are never freed.
    Some(unsafe { &*p })
}

/// The calling thread's state, unparked (a parked thread's first event is a fresh stamp).
#[inline(always)]
fn current_unparked() -> Option<&'static ThreadState> {
    let s = current()?;
    if s.parked.get() {
        s.unpark();
    }
    Some(s)
}

/// Records one event.
#[inline(always)]
pub fn record(e: RawEvent) {
    if let Some(s) = current_unparked() {
        s.push_slice(&[e]);
    }
}

/// Records an event made of several records (kept together in one chunk).
#[inline(always)]
pub fn record_many(records: &[RawEvent]) {
    if let Some(s) = current_unparked() {
        s.push_slice(records);
    }
}

/// Notes whether the calling thread entered its region as an OpenMP worker.
pub fn set_worker(worker: bool) {
    if let Some(s) = current() {
        s.worker.set(worker);
    }
}

/// Live streams only: a worker that leaves its region closes its chunk and *parks*. Until its
/// next event it records nothing, so the writer may publish the current clock as a floor for
/// it (see [`publish_floors`]); its next event is then a stamp read after it unparked, which
/// is at least every floor published meanwhile. Without parking, a worker idle between
/// regions would hold a live merge back until its next chunk.
pub fn park_if_worker() {
    if !crate::output::is_stream() {
        return;
    }
    let Some(s) = current() else {
        return;
    };
    if !s.worker.get() || s.parked.get() {
        return;
    }
    s.park();
}

/// Brings the calling thread's recording in line with the region of interest
/// ([`crate::roi::wanted`]); one load when no selection is armed.
#[inline]
pub fn sync_recording() {
    if crate::roi::armed() {
        set_recording(crate::roi::wanted());
    }
}

/// Starts or stops the calling thread's recording (the region of interest, [`crate::roi`]).
/// Stopping appends a [`TAG_GAP`] record, sets the cursor aside and points it at [`DISCARD`]
/// (in a live stream the thread also parks, so it does not hold a live merge back while it
/// records nothing); starting puts the cursor back and stamps. A thread that never recorded
/// registers at its first event after starting.
pub fn set_recording(on: bool) {
    let Ok(p) = CURRENT.try_with(|c| c.get()) else {
        return;
    };
    if p == UNTRACED || (p == ROI_OFF) != on {
        return;
    }
    if on {
        let paused = PAUSED.with(|x| x.replace(std::ptr::null()));
        CURRENT.with(|c| c.set(paused));
        if paused.is_null() {
            // Register now, so inline records from here on land in the thread's buffer.
            let _ = current();
            return;
        }
        // Safety: states are never freed.
        let s = unsafe { &*paused };
        if s.lock(false) {
            let saved = s.saved_cursor.swap(std::ptr::null_mut(), Ordering::AcqRel);
            if let Some(cursor) = s.cursor_var() {
                cursor.store(saved, Ordering::Release);
            }
            s.busy.store(false, Ordering::Release);
        }
        if s.parked.get() {
            // A parked thread stamps when it unparks, at its next event (a block entry takes
            // the countdown hook for that; while the thread was off, the hook armed the
            // countdown for the discard buffer).
            countdown_var().set(1);
        } else {
            s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now_ordered())]);
            s.reset_stamp_countdown(config::get().stamp_every);
        }
        return;
    }
    if !p.is_null() {
        // Safety: states are never freed.
        let s = unsafe { &*p };
        // A parked thread (a live stream's worker after its region) has closed its segment at
        // a region exit, and its next events start at a region entry: no gap to mark, and no
        // reason to unpark and park again.
        if !s.parked.get() {
            s.push_slice(&[RawEvent::new(TAG_GAP, 0, 0, 0)]);
            if crate::output::is_stream() {
                s.park();
            }
        }
        if s.lock(false) {
            if let Some(cursor) = s.cursor_var() {
                let at = cursor.load(Ordering::Acquire);
                s.saved_cursor.store(at, Ordering::Release);
            }
            s.busy.store(false, Ordering::Release);
        }
    }
    discard_records();
    PAUSED.with(|x| x.set(p));
    CURRENT.with(|c| c.set(ROI_OFF));
}

const PARKED_BIT: u64 = 1 << 63;

fn pack_park(thread: u32, next_seq: u32) -> u64 {
    PARKED_BIT | ((thread as u64 & 0x7fff_ffff) << 32) | next_seq as u64
}

/// Writes a floor chunk straight to the output.
fn write_floors(floors: &[Floor]) {
    let mut frame = Vec::with_capacity(rdtrace::chunk::CHUNK_HEADER_LEN + 16 * floors.len());
    rdtrace::stream::frame_floors(&mut frame, floors);
    crate::output::write_all(&frame, false);
}

/// Live streams only: publishes the current clock as the floor of every parked thread. The
/// writer calls it after each chunk it writes, so a parked thread holds a live merge back by at
/// most one chunk of another thread.
pub fn publish_floors(scratch: &mut Vec<Floor>) {
    // See: `rdtrace::stream` (delay bound). Read the clock first, then the park words: a
    // thread seen parked unparks later, and reads its next stamp after unparking (both sides
    // use ordered clock reads), so its next stamp is at least `now`.
    let now = clock::now_ordered();
    scratch.clear();
    let n = REGISTERED.load(Ordering::Acquire).min(MAX_THREADS);
    for slot in REGISTRY.iter().take(n) {
        let p = slot.load(Ordering::Acquire);
        if p.is_null() {
            continue;
        }
        // Safety: states are never freed.
        let word = unsafe { &*p }.park_word.load(Ordering::SeqCst);
        if word & PARKED_BIT != 0 {
            scratch.push(Floor {
                thread: ((word >> 32) & 0x7fff_ffff) as u32,
                next_seq: word as u32,
                time: now,
            });
        }
    }
    if !scratch.is_empty() {
        write_floors(scratch);
    }
}

/// `__rdt_check`: flushes when the buffer is past its threshold.
#[inline(always)]
pub fn check() {
    if let Some(s) = current() {
        s.check();
    }
}

/// Records a stamp now.
///
/// The clock is read after the thread state is looked up: registering a thread or unparking a
/// worker in a live stream records a stamp of its own, and a clock read taken before that
/// would land after it with an earlier time (a worker's stamps went back at its first region).
#[inline(always)]
pub fn stamp() {
    if let Some(s) = current_unparked() {
        s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now())]);
    }
}

/// `__rdt_bb` (code built without inline records): counts the block entry on the countdown as
/// inline code does, then records the block.
#[inline(always)]
pub fn record_block(e: RawEvent) {
    let countdown = countdown_var();
    let left = countdown.get().wrapping_sub(1);
    countdown.set(left);
    if left <= 0 {
        countdown_zero();
    }
    if let Some(s) = current_unparked() {
        s.push_slice(&[e]);
    }
}

/// `__rdt_block_countdown`: a block entry left the countdown at zero (or below). Called before
/// the block's record. Writes a stamp every `stamp_every` block entries (the one before a
/// thread's first block when it starts, the one before every `stamp_every`th block after its
/// last reset), so the stamps are where a stamp countdown checked at every block would put
/// them; on the entries between (when `stamp_every` is larger than
/// [`BLOCKS_BETWEEN_HOOKS`]) it only flushes when the buffer is past its threshold. A thread
/// that does not record (outside the region of interest, or not traced) writes nothing: its
/// cursor is rewound to the discard buffer by [`current`], and it is back here within
/// [`BLOCKS_BETWEEN_HOOKS`] blocks to rewind it again.
#[cold]
pub fn countdown_zero() {
    let countdown = countdown_var();
    let Some(s) = current_unparked() else {
        countdown.set(BLOCKS_BETWEEN_HOOKS as i32);
        return;
    };
    let now = countdown.get();
    if now > 0 {
        // Registering or unparking (in `current_unparked`) reset the countdown for this block
        // entry, the first one after the reset: count it.
        countdown.set(now - 1);
        if now > 1 {
            return;
        }
    }
    // The armed entries are used up, this one included.
    let left = s.stamp_left.get().saturating_sub(s.armed.get());
    if left == 0 {
        s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now())]);
        s.stamp_left.set(config::get().stamp_every);
    } else {
        s.stamp_left.set(left);
        s.check();
    }
    s.arm();
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

#[cfg(test)]
mod tests {
    use rdtrace::codec::ChunkEncoder;
    use rdtrace::codec::MAX_BYTES_PER_RECORD as MAX_ENCODED_RECORD_BYTES;
    use rdtrace::raw::*;

    /// The signal path's room estimate holds: no mix of records (extreme ids and values,
    /// multi-record events, runs of predicted accesses) encodes to more than
    /// `MAX_ENCODED_RECORD_BYTES` per record plus the run bytes at the two ends.
    #[test]
    fn encoding_never_exceeds_the_per_record_bound() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..200 {
            let mut records = Vec::new();
            while records.len() < 4000 {
                let r = rnd();
                let id = if r & 1 == 0 {
                    (r >> 8) as u32
                } else {
                    (r >> 8) as u32 % 4
                };
                let v = if r & 2 == 0 {
                    rnd()
                } else {
                    0x1000 + 8 * records.len() as u64
                };
                match (r >> 2) % 12 {
                    0..=3 => records.push(RawEvent::new(TAG_ACCESS, 0, id % 64, v)),
                    4 => {
                        records.push(RawEvent::new(TAG_ACCESS_RANGE, 0, id % 64, v));
                        records.push(RawEvent::new(TAG_EXT, 0, 0, rnd()));
                    }
                    5 => records.push(RawEvent::new(TAG_BLOCK, 0, id, 0)),
                    6 => records.push(RawEvent::new(TAG_BRANCH, 0, id, v)),
                    7 => records.push(RawEvent::new(TAG_REGION_ENTER, 0, id, v)),
                    8 => {
                        records.push(RawEvent::new(TAG_WS_INIT, (r >> 40) as u32, id, v));
                        for _ in 0..4 {
                            records.push(RawEvent::new(TAG_EXT, 0, 0, rnd()));
                        }
                    }
                    9 => {
                        records.push(RawEvent::new(TAG_WS_NEXT, 1, id, v));
                        records.push(RawEvent::new(TAG_EXT, 0, 0, rnd()));
                    }
                    10 => records.push(RawEvent::new(TAG_STAMP, 0, 0, v)),
                    _ => records.push(RawEvent::new(TAG_FORK, 0, id, 0)),
                }
            }
            let mut enc = ChunkEncoder::new(64, 1 << 20);
            // Split like buffers: the bound must hold for each append into an open chunk.
            let split = 1 + round * 17 % records.len();
            let (a, b) = records.split_at(split);
            for part in [a, b] {
                let before = enc.chunk_bytes();
                enc.append(part);
                assert!(enc.chunk_bytes() - before <= MAX_ENCODED_RECORD_BYTES * part.len() + 2);
            }
            let (payload, _) = enc.finish_chunk();
            assert!(payload.len() <= MAX_ENCODED_RECORD_BYTES * records.len() + 2);
        }
    }
}
