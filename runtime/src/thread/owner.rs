//! The owner's hot path on its own state: appending records at the cursor, the threshold check,
//! arming the block countdown for the next stamp, and parking and unparking (live streams).

use super::floors::pack_park;
use super::local::{countdown_var, expanded_var, BLOCKS_BETWEEN_HOOKS};
use super::registry;
use super::ThreadState;
use crate::{clock, config};
use rdtrace::raw::{RawEvent, TAG_STAMP};
use std::sync::atomic::Ordering;

/// How many events per record of the buffer threshold a buffer's loop runs may stand for
/// before the buffer is handed over: a chunk then decodes to at most a few times the events of
/// one without loop runs (readers hold a chunk's events), while array kernels still hand over
/// few, large buffers (at 1 per record, STREAM's trace took 2.5 times the bytes and a matrix
/// multiply traced a third slower, in per-chunk costs).
const EXPANDED_PER_THRESHOLD: usize = 4;

impl ThreadState {
    /// Whether `records` more records would take the cursor `cur` past the limit.
    #[inline(always)]
    fn past_limit(&self, cur: *mut RawEvent, records: usize) -> bool {
        (cur as usize).wrapping_add(records * std::mem::size_of::<RawEvent>())
            > self.limit.load(Ordering::Relaxed) as usize
    }

    #[inline(always)]
    pub(super) fn push_slice(&self, records: &[RawEvent]) {
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
    /// starts the thread's next segment (see [`park_if_worker`](super::park_if_worker)).
    #[cold]
    pub(super) fn unpark(&self) {
        self.park_word.store(0, Ordering::SeqCst);
        self.parked.set(false);
        let now = clock::now_ordered();
        self.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, now)]);
        self.reset_stamp_countdown(config::get().stamp_every);
    }

    /// Marks the owner as an OpenMP worker between regions or not, keeping `registry::IDLE`.
    /// Owner only.
    pub(super) fn set_idle(&self, idle: bool) {
        if self.idle.get() != idle {
            self.idle.set(idle);
            if idle {
                registry::IDLE.fetch_add(1, Ordering::Relaxed);
            } else {
                registry::IDLE.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// The next stamp is due at the `n`th block entry from now: arms the countdown for it.
    /// Owner only.
    pub(super) fn reset_stamp_countdown(&self, n: u32) {
        self.stamp_left.set(n);
        self.arm();
    }

    /// Sets the thread-local countdown to the blocks until the next stamp, but at most
    /// [`BLOCKS_BETWEEN_HOOKS`], so the countdown hook also keeps the free-space promise
    /// (see `rdtrace::abi::INLINE_BLOCKS_BETWEEN_HOOKS`). Owner only.
    pub(super) fn arm(&self) {
        let k = self.stamp_left.get().clamp(1, BLOCKS_BETWEEN_HOOKS);
        self.armed.set(k);
        countdown_var().set(k as i32);
    }

    /// Closes the chunk and parks (live streams, see [`park_if_worker`](super::park_if_worker)).
    pub(super) fn park(&self) {
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
    pub(super) fn check(&self) {
        if let Some(cursor) = self.cursor_var() {
            if self.past_limit(cursor.load(Ordering::Relaxed), 0) {
                self.flush(false, false);
            }
        }
    }

    /// [`ThreadState::check`], flushing also when the buffer's loop runs stand for
    /// [`EXPANDED_PER_THRESHOLD`] times as many events as the threshold
    /// (`rdtrace::abi::EXPANDED_TLS`). For the countdown hook, which runs at least every
    /// `INLINE_BLOCKS_BETWEEN_HOOKS` blocks: often enough for the runs, and the check after
    /// every call stays one compare.
    pub(super) fn check_with_runs(&self) {
        if let Some(cursor) = self.cursor_var() {
            let expanded = expanded_var();
            if self.past_limit(cursor.load(Ordering::Relaxed), 0)
                || expanded.get() >= (EXPANDED_PER_THRESHOLD * self.threshold) as i64
            {
                // The flush takes the count (and sets it back to zero) for the chunk's events.
                self.flush(false, false);
            }
        }
    }
}
