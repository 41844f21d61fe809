//! A state's raw buffers: making a state, the buffer being filled and the owner's cursor into
//! it, and the `busy` lock under which records are encoded or a chunk is closed.

use super::{payload_capacity, writer, ThreadState, RAW_BUFFERS_PER_LANE};
use crate::config;
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::RawEvent;
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

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

impl ThreadState {
    pub(super) fn new() -> ThreadState {
        let cfg = config::get();
        let slack = rdtrace::abi::INLINE_SLACK_RECORDS;
        let (count, lanes, first_lane) = if writer::running() {
            let lanes = writer::lanes_for_new_thread();
            (
                RAW_BUFFERS_PER_LANE * lanes,
                lanes,
                writer::claim_lanes(lanes),
            )
        } else {
            (1, 1, 0)
        };
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
            first_lane,
            thread: AtomicU32::new(0),
            seq: AtomicU32::new(0),
            open_buffers: AtomicU32::new(0),
            open_events: AtomicU64::new(0),
            recorded: AtomicU64::new(0),
            stamp_left: Cell::new(1),
            armed: Cell::new(1),
            sparse_stamps: Cell::new(false),
            park_word: AtomicU64::new(0),
            parked: Cell::new(false),
            worker: Cell::new(false),
            idle: Cell::new(false),
            encoders: (0..lanes)
                .map(|_| {
                    UnsafeCell::new(ChunkEncoder::new(
                        crate::total_mem_instrs(),
                        payload_capacity(),
                    ))
                })
                .collect(),
            compressor: UnsafeCell::new(None),
        }
    }

    /// The buffer being filled.
    pub(super) fn events(&self) -> &[RawEvent] {
        &self.bufs[self.cur_buf.load(Ordering::Acquire)]
    }

    fn base(&self) -> *mut RawEvent {
        self.events().as_ptr() as *mut RawEvent
    }

    /// The owner's TLS cursor; `None` before registration and after the owner exited.
    pub(super) fn cursor_var(&self) -> Option<&AtomicPtr<RawEvent>> {
        let p = self.cursor.load(Ordering::Acquire);
        // Safety: set at registration to the owner's TLS cursor, which lives as long as the
        // owner; cleared (under `busy`) before the owner's thread-local storage goes away.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// Records in the buffer, from the cursor.
    pub(super) fn len(&self) -> usize {
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
    pub(super) fn reset_cursor(&self) {
        if !self.saved_cursor.load(Ordering::Acquire).is_null() {
            self.saved_cursor.store(self.base(), Ordering::Release);
        } else if let Some(cursor) = self.cursor_var() {
            cursor.store(self.base(), Ordering::Release);
        }
    }

    pub(super) fn lock(&self, from_signal: bool) -> bool {
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

    /// Makes `bufs[i]` the buffer being filled (the cursor is reset by the caller).
    pub(super) fn use_buffer(&self, i: usize) {
        self.cur_buf.store(i, Ordering::Release);
        // Safety: `threshold` < the buffer's length.
        let limit = unsafe { self.bufs[i].as_ptr().add(self.threshold) };
        self.limit.store(limit as *mut RawEvent, Ordering::Release);
    }
}
