//! What the end chunk needs, kept ready so that writing it allocates nothing (it may be written
//! from a fatal-signal handler that interrupted `malloc` while the allocator's lock was held).
//!
//! - Per-thread event counts live in segments of atomics indexed by thread index. A segment is
//!   allocated when the first thread of its range registers (registration may allocate); the
//!   owner of a thread state publishes its count at every flush; a thread's count stays after it
//!   exits, whoever reuses its state. Readers only load pointers and atomics.
//! - The end record's payload (the postcard encoding of [`rdtrace::chunk::ExitInfo`]) is
//!   written by hand into a buffer that registration grows ahead of need (old buffers are
//!   leaked, never freed, so a handler that loaded one can always use it).

use rdtrace::chunk::ExitReason;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// Thread indices per count segment.
const SEG: usize = 4096;
/// Segments: thread indices `0..SEG * NSEG` keep their counts (16.7 million threads).
const NSEG: usize = 4096;

static COUNTS: [AtomicPtr<AtomicU64>; NSEG] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; NSEG];

/// Thread indices handed out so far (the end record has one count per index).
pub static THREAD_INDICES: AtomicU32 = AtomicU32::new(0);

/// Longest postcard varint of a `u64`.
const VARINT_MAX: usize = 10;
/// Bytes of the end record besides the counts: reason (variant + i32), end time, vector length.
const FIXED_BYTES: usize = 5 + 5 + VARINT_MAX + 5;

/// The end-record buffer (leaked); only [`end_payload`] writes into it, once.
struct EndBuf {
    ptr: *mut u8,
    len: usize,
}
static END_BUF: AtomicPtr<EndBuf> = AtomicPtr::new(std::ptr::null_mut());
/// Serialises registrations' growth of the counts and of [`END_BUF`] (never taken on the
/// signal path).
static GROW: Mutex<()> = Mutex::new(());

/// Hands out the next thread index and makes room for its count and its share of the end
/// record. Call only where allocating is allowed (thread registration).
pub fn new_thread_index() -> u32 {
    let _g = GROW.lock().unwrap_or_else(|e| e.into_inner());
    let thread = THREAD_INDICES.load(Ordering::Relaxed);
    let seg = thread as usize / SEG;
    if seg < NSEG && COUNTS[seg].load(Ordering::Acquire).is_null() {
        let fresh: Box<[AtomicU64]> = (0..SEG).map(|_| AtomicU64::new(0)).collect();
        COUNTS[seg].store(Box::leak(fresh).as_mut_ptr(), Ordering::Release);
    }
    let need = FIXED_BYTES + VARINT_MAX * (thread as usize + 1);
    let cur = END_BUF.load(Ordering::Acquire);
    // Safety: buffers are leaked, never freed.
    let have = if cur.is_null() {
        0
    } else {
        // SAFETY: a non-null `END_BUF` points to a leaked buffer, never freed.
        unsafe { &*cur }.len
    };
    if have < need {
        let bytes = Box::leak(vec![0u8; need.next_power_of_two().max(256)].into_boxed_slice());
        let buf = EndBuf {
            ptr: bytes.as_mut_ptr(),
            len: bytes.len(),
        };
        END_BUF.store(Box::into_raw(Box::new(buf)), Ordering::Release);
    }
    // Published last: an index counted by the end record always has its room.
    THREAD_INDICES.store(thread + 1, Ordering::Release);
    thread
}

/// The count slot of `thread`, if its segment exists. Signal-safe.
pub fn slot(thread: u32) -> Option<&'static AtomicU64> {
    let (seg, at) = (thread as usize / SEG, thread as usize % SEG);
    let p = COUNTS.get(seg)?.load(Ordering::Acquire);
    // Safety: segments are SEG atomics, leaked, never freed.
    (!p.is_null()).then(|| unsafe { &*p.add(at) })
}

/// Appends `v` as a postcard varint at `out[*at..]`.
fn put_varint(out: &mut [u8], at: &mut usize, mut v: u64) {
    while v >= 0x80 {
        out[*at] = (v as u8) | 0x80;
        *at += 1;
        v >>= 7;
    }
    out[*at] = v as u8;
    *at += 1;
}

/// Writes the end record (`ExitInfo { reason, end_time, events_recorded }`, postcard) into the
/// preallocated buffer and returns it with the total event count and the number of threads.
/// Allocates nothing; call once (from the finish path).
pub fn end_payload(reason: ExitReason, end_time: u64) -> (&'static [u8], u64, u32) {
    let p = END_BUF.load(Ordering::Acquire);
    let bytes: &'static mut [u8] = if p.is_null() {
        // No thread ever registered: room for zero counts.
        static mut EMPTY: [u8; FIXED_BYTES] = [0; FIXED_BYTES];
        // Safety: only the single finish call writes it.
        unsafe { &mut *std::ptr::addr_of_mut!(EMPTY) }
    } else {
        // Safety: leaked, never freed; only this single call writes into it (growers replace
        // the pointer, they never write into a published buffer).
        unsafe { std::slice::from_raw_parts_mut((*p).ptr, (*p).len) }
    };
    let threads = THREAD_INDICES.load(Ordering::Acquire);
    let count = |t: u32| slot(t).map_or(0, |c| c.load(Ordering::Acquire));
    let (n, total, threads) = encode(bytes, reason, end_time, threads, count);
    (&bytes[..n], total, threads)
}

/// Encodes the end record with `count(t)` for threads `0..threads` into `out` (fewer threads
/// if they would not fit); returns the bytes used, the total count and the threads written.
fn encode(
    out: &mut [u8],
    reason: ExitReason,
    end_time: u64,
    threads: u32,
    count: impl Fn(u32) -> u64,
) -> (usize, u64, u32) {
    let threads = threads.min(((out.len() - FIXED_BYTES) / VARINT_MAX) as u32);
    let mut at = 0;
    // Serde's externally tagged enum: variant index, then the i32 (zigzag) of `Signal`.
    match reason {
        ExitReason::Exit => put_varint(out, &mut at, 0),
        ExitReason::Signal(sig) => {
            put_varint(out, &mut at, 1);
            put_varint(out, &mut at, ((sig << 1) ^ (sig >> 31)) as u32 as u64);
        }
    }
    put_varint(out, &mut at, end_time);
    put_varint(out, &mut at, threads as u64);
    let mut total = 0u64;
    for t in 0..threads {
        let k = count(t);
        total = total.wrapping_add(k);
        put_varint(out, &mut at, k);
    }
    (at, total, threads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdtrace::chunk::{postcard_bytes, ExitInfo};

    /// The hand-written encoding is postcard's, byte for byte, for both reasons and for counts
    /// of every varint length.
    #[test]
    fn end_record_matches_postcard() {
        let counts = [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX];
        for reason in [
            ExitReason::Exit,
            ExitReason::Signal(11),
            ExitReason::Signal(-5),
            ExitReason::Signal(i32::MIN),
        ] {
            for end_time in [0u64, 1 << 40, u64::MAX] {
                for n in 0..=counts.len() {
                    let mut out = vec![0u8; FIXED_BYTES + VARINT_MAX * n];
                    let (used, total, threads) =
                        encode(&mut out, reason, end_time, n as u32, |t| counts[t as usize]);
                    let expected = postcard_bytes(&ExitInfo {
                        reason,
                        end_time,
                        events_recorded: counts[..n].to_vec(),
                    });
                    assert_eq!(&out[..used], &expected[..], "{reason:?} {end_time} {n}");
                    assert_eq!(threads as usize, n);
                    let sum = counts[..n].iter().fold(0u64, |a, &k| a.wrapping_add(k));
                    assert_eq!(total, sum);
                }
            }
        }
    }

    /// A buffer too small for every thread holds a well-formed record of the first ones.
    #[test]
    fn too_many_threads_are_cut_not_overrun() {
        let mut out = vec![0u8; FIXED_BYTES + VARINT_MAX * 2];
        let (used, _, threads) = encode(&mut out, ExitReason::Exit, 7, 5, |_| u64::MAX);
        assert_eq!(threads, 2);
        let expected = postcard_bytes(&ExitInfo {
            reason: ExitReason::Exit,
            end_time: 7,
            events_recorded: vec![u64::MAX; 2],
        });
        assert_eq!(&out[..used], &expected[..]);
    }

    /// Registration publishes a slot for each new index, and the buffer always has room for
    /// every published index.
    #[test]
    fn indices_get_slots_and_room() {
        let a = new_thread_index();
        let b = new_thread_index();
        assert!(b > a);
        slot(b).unwrap().store(1000, Ordering::Relaxed);
        assert_eq!(slot(b).unwrap().load(Ordering::Relaxed), 1000);
        let p = END_BUF.load(Ordering::Acquire);
        let threads = THREAD_INDICES.load(Ordering::Acquire) as usize;
        // Safety: leaked, never freed.
        assert!(unsafe { &*p }.len >= FIXED_BYTES + VARINT_MAX * threads);
    }
}
