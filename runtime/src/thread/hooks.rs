//! The hooks' entry points on the traced threads: the calling thread's state, recording
//! records, the flush check, stamps and the block countdown.

use super::registry::register_current_thread;
use super::*;

/// The calling thread's state, registering the thread on first use.
#[inline(always)]
pub(super) fn current() -> Option<&'static ThreadState> {
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
pub(super) fn current_unparked() -> Option<&'static ThreadState> {
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
/// last reset; `stamp_every_alone` while the thread is the only one that may record, see
/// `config::STAMP_EVERY_ALONE`), so the stamps are where a stamp countdown checked at every
/// block would put them; on the entries between (when `stamp_every` is larger than
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
    // A thread alone stamps sparsely (see `config::STAMP_EVERY_ALONE`); once another thread
    // may record (it registered, or a waiting OpenMP worker entered a region) this thread
    // stamps at this hook, at most `BLOCKS_BETWEEN_HOOKS` blocks later, so the merge places its
    // events against the other's as closely as with dense stamps.
    // Whether the thread is alone, asked only when a stamp is due or may be (the registry's
    // counts are shared atomics, left alone on the other hooks).
    let c = config::get();
    let alone = (left == 0 || s.sparse_stamps.get())
        .then(|| c.stamp_every_alone > c.stamp_every && registry::active_threads() <= 1);
    match alone {
        Some(alone) if left == 0 || !alone => {
            s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now())]);
            s.sparse_stamps.set(alone);
            s.stamp_left.set(if alone {
                c.stamp_every_alone
            } else {
                c.stamp_every
            });
        }
        _ => s.stamp_left.set(left),
    }
    s.check_with_runs();
    s.arm();
}
