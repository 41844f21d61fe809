//! The calling thread's thread-local variables: its record cursor, block countdown and loop-run
//! expansion (defined
//! in `tls.c`, reached through `extern` functions), which state it records into (`CURRENT`, and
//! `PAUSED` while it is outside the region of interest), and the discard buffer that takes the
//! inline records of a thread that does not record.

use super::ThreadState;
use rdtrace::raw::RawEvent;
use std::cell::Cell;
use std::sync::atomic::{AtomicPtr, Ordering};

extern "C" {
    /// Address of the calling thread's `__rdt_cursor` (defined in `tls.c`).
    pub(super) fn __rdt_cursor_address() -> *mut AtomicPtr<RawEvent>;
    /// Address of the calling thread's `__rdt_blocks_free` (defined in `tls.c`).
    fn __rdt_blocks_free_address() -> *mut Countdown;
    /// Address of the calling thread's `__rdt_expanded` (defined in `tls.c`).
    fn __rdt_expanded_address() -> *mut Cell<i64>;
}

/// The events the calling thread's loop runs stood for since its buffer was last handed over
/// (`rdtrace::abi::EXPANDED_TLS`).
pub(super) fn expanded_var() -> &'static Cell<i64> {
    // Safety: as for `countdown_var`.
    unsafe { &*__rdt_expanded_address() }
}

/// The calling thread's block countdown (`rdtrace::abi::COUNTDOWN_TLS`).
pub(super) fn countdown_var() -> &'static Countdown {
    // Safety: the address of our own thread's TLS variable, valid for the thread's life; only
    // this thread (its instrumented code and its hooks) reads or writes it.
    unsafe { &*__rdt_blocks_free_address() }
}

/// The block countdown as the runtime reasons about it: the block entries left before one
/// must call the hook, that entry included (1: the next block entry calls it). The variable
/// itself (`rdtrace::abi::COUNTDOWN_TLS`) holds one less, the entries that may pass without
/// the hook, so that the inline code's test is the sign of its decrement (one `dec` of the
/// variable in memory and a jump on the sign flag, see `rdtrace::abi::COUNTDOWN_TLS`).
#[repr(transparent)]
pub(super) struct Countdown(Cell<i32>);

impl Countdown {
    /// The block entries left, the one that calls the hook included.
    pub(super) fn get(&self) -> i32 {
        self.0.get().wrapping_add(1)
    }

    /// Sets the block entries left, the one that calls the hook included.
    pub(super) fn set(&self, left: i32) {
        self.0.set(left.wrapping_sub(1));
    }
}

/// Most blocks between two countdown hooks (see `rdtrace::abi::INLINE_BLOCKS_BETWEEN_HOOKS`).
pub(super) const BLOCKS_BETWEEN_HOOKS: u32 = rdtrace::abi::INLINE_BLOCKS_BETWEEN_HOOKS as u32;

/// Where inline records of untraced threads go (never read). Its element type makes it
/// `RECORD_ALIGN`-aligned, as the pass's stores require.
pub(super) static mut DISCARD: [RawEvent; rdtrace::abi::INLINE_SLACK_RECORDS * 2] =
    [RawEvent { head: 0, value: 0 }; rdtrace::abi::INLINE_SLACK_RECORDS * 2];
const _: () = assert!(std::mem::align_of::<[RawEvent; 1]>() == rdtrace::abi::RECORD_ALIGN as usize);

/// `CURRENT` of a thread that could not be registered (registry full): it is not retried on
/// every hook; its records go to [`DISCARD`]. Never dereferenced.
pub(super) const UNTRACED: *const ThreadState = std::ptr::dangling();

/// `CURRENT` of a thread outside the region of interest
/// ([`recording::set_recording`](super::recording::set_recording)): its records go to
/// [`DISCARD`] and its state (if it has one yet) waits in `PAUSED`. Never dereferenced.
pub(super) const ROI_OFF: *const ThreadState = std::ptr::dangling::<ThreadState>().wrapping_add(1);

thread_local! {
    pub(super) static CURRENT: Cell<*const ThreadState> = const { Cell::new(std::ptr::null()) };
    /// The state of a thread whose `CURRENT` is [`ROI_OFF`] (null before it first recorded).
    pub(super) static PAUSED: Cell<*const ThreadState> = const { Cell::new(std::ptr::null()) };
}

/// Points the calling thread's cursor at the discard buffer (rewinding it).
pub(super) fn discard_records() {
    // Safety: our own thread's TLS cursor; the scratch buffer is only ever garbage.
    unsafe {
        (*__rdt_cursor_address()).store(std::ptr::addr_of_mut!(DISCARD).cast(), Ordering::Relaxed)
    };
}
