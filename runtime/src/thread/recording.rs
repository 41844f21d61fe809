//! Starting and stopping a thread's recording for the region of interest ([`crate::roi`]).

use super::hooks::current;
use super::*;

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
