//! The calling thread's thread-local variables: its record cursor, block countdown and loop-run
//! expansion (defined
//! in `tls.c`, reached through `extern` functions), which state it records into (`CURRENT`, and
//! `PAUSED` while it is outside the region of interest), and the discard areas that take the
//! inline records of a thread that does not record.

use super::ThreadState;
use rdtrace::raw::RawEvent;
use std::cell::Cell;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

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

/// Records one discard area takes: the slack a hook promises, twice.
const DISCARD_RECORDS: usize = rdtrace::abi::INLINE_SLACK_RECORDS * 2;

/// Discard areas: threads take them in turn (wrapping around), so that threads outside the
/// region of interest do not all store into the same cache lines. With one shared area, bfs on
/// four OpenMP threads outside the region of interest ran 17x slower than natively on two CPUs
/// (the cores took the area's lines from each other at every store), against 3.7x on one thread.
const DISCARD_AREAS: usize = 64;

/// Where inline records of untraced threads go (never read): one area per thread, see
/// [`DISCARD_AREAS`] (4 MiB of zeroed memory, of which only the areas threads use are touched).
/// Its element type makes it `RECORD_ALIGN`-aligned, as the pass's stores require.
pub(super) static mut DISCARD: [[RawEvent; DISCARD_RECORDS]; DISCARD_AREAS] =
    [[RawEvent { head: 0, value: 0 }; DISCARD_RECORDS]; DISCARD_AREAS];
const _: () = assert!(std::mem::align_of::<[RawEvent; 1]>() == rdtrace::abi::RECORD_ALIGN as usize);

/// The discard area the next thread takes.
static NEXT_DISCARD_AREA: AtomicUsize = AtomicUsize::new(0);

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
    /// The calling thread's area of [`DISCARD`] (`usize::MAX` until it first discards).
    static DISCARD_AREA: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Points the calling thread's cursor at its discard area (rewinding it).
pub(super) fn discard_records() {
    // No allocation and no lock: signal handlers get here too.
    let area = DISCARD_AREA.with(|a| {
        if a.get() == usize::MAX {
            a.set(NEXT_DISCARD_AREA.fetch_add(1, Ordering::Relaxed) % DISCARD_AREAS);
        }
        a.get()
    });
    // Safety: `area` is in bounds; our own thread's TLS cursor; the areas are only ever
    // garbage (written by any thread, never read).
    unsafe {
        let at = std::ptr::addr_of_mut!(DISCARD[area]).cast::<RawEvent>();
        (*__rdt_cursor_address()).store(at, Ordering::Relaxed)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calling thread's cursor after `discard_records`, twice (it rewinds to the same
    /// area), as an offset in records from the start of [`DISCARD`].
    fn discard_offset() -> usize {
        let cursor = || {
            discard_records();
            // Safety: our own thread's TLS cursor.
            unsafe { (*__rdt_cursor_address()).load(Ordering::Relaxed) as usize }
        };
        let first = cursor();
        assert_eq!(cursor(), first, "a thread rewinds to its own area");
        let start = std::ptr::addr_of!(DISCARD) as usize;
        (first - start) / std::mem::size_of::<RawEvent>()
    }

    /// Threads that discard write to areas of their own (a shared one had the cores take its
    /// lines from each other at every store), each with the whole slack twice before its end.
    #[test]
    fn threads_discard_into_areas_of_their_own() {
        let offsets: Vec<usize> = (0..8)
            .map(|_| std::thread::spawn(discard_offset))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| t.join().unwrap())
            .collect();
        let mut distinct = offsets.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), offsets.len(), "{offsets:?}");
        for &o in &offsets {
            assert_eq!(o % DISCARD_RECORDS, 0, "{offsets:?}");
            assert!(o + DISCARD_RECORDS <= DISCARD_RECORDS * DISCARD_AREAS);
        }
    }
}
