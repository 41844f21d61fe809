//! Reading raw records in the encoder's hot loops: prefetching them ahead of the reads, and
//! the head words that recognise the common kinds in one compare.

use crate::raw::{head_of, RawEvent, TAG_ACCESS, TAG_BLOCK, TAG_BRANCH};

/// How far ahead (records) the encoder asks for the raw records it is about to read.
pub(super) const PREFETCH_RECORDS: usize = 128;

/// Records in one 64-byte cache line.
pub(super) const RECORDS_PER_LINE: usize = 64 / std::mem::size_of::<RawEvent>();

/// Prefetches the cache line of record `at` (which must be in `events`): a hint, with no
/// effect on results.
#[inline(always)]
pub(super) fn prefetch_line(events: &[RawEvent], at: usize) {
    debug_assert!(at < events.len());
    #[cfg(target_arch = "x86_64")]
    // Safety: `at < events.len()` (the caller's loop bound), so the address lies inside
    // `events`; prefetching reads nothing the program can observe.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(events.as_ptr().add(at) as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (events, at);
}

/// Prefetches the two cache lines of records `at..at + 8` (if they are in `events`): a hint,
/// with no effect on results.
#[inline(always)]
pub(super) fn prefetch_records(events: &[RawEvent], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if at + 8 <= events.len() {
        // Safety: `at + 4 < events.len()`, so both addresses lie inside `events`; prefetching
        // reads nothing the program can observe.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = events.as_ptr().add(at) as *const i8;
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.add(64));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (events, at);
}

/// The upper 32 bits of a plain access record's head: tag [`TAG_ACCESS`], aux 0.
pub(super) const ACCESS_HIGH_WORD: u64 = head_of(TAG_ACCESS, 0) >> 32;
/// The upper 32 bits of a block record's head as the runtime writes it (aux 0).
pub(super) const BLOCK_HIGH_WORD: u64 = head_of(TAG_BLOCK, 0) >> 32;
/// The upper 32 bits of a branch record's head as the runtime writes it (aux 0).
pub(super) const BRANCH_HIGH_WORD: u64 = head_of(TAG_BRANCH, 0) >> 32;
