//! OpenMP workers between regions: idle for the stamp rule (`registry::active_threads`), and
//! in live streams parked at region exit, with floors the writer publishes for them so a live
//! merge is not held back by them.

use super::hooks::current;
use super::registry::{REGISTERED, REGISTRY};
use super::*;

/// Notes whether the calling thread entered its region as an OpenMP worker; a worker that
/// waited between regions records again.
pub fn set_worker(worker: bool) {
    if let Some(s) = current() {
        s.worker.set(worker);
        s.set_idle(false);
    }
}

/// At region exit: a worker now waits in libomp until its next region and records nothing
/// meanwhile, so the other threads need not stamp to be ordered against it (see
/// `registry::active_threads`).
pub fn idle_if_worker() {
    if let Some(s) = current() {
        if s.worker.get() {
            s.set_idle(true);
        }
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

pub(super) const PARKED_BIT: u64 = 1 << 63;

pub(super) fn pack_park(thread: u32, next_seq: u32) -> u64 {
    PARKED_BIT | ((thread as u64 & 0x7fff_ffff) << 32) | next_seq as u64
}

/// Writes a floor chunk straight to the output.
pub(super) fn write_floors(floors: &[Floor]) {
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
