//! Loop bodies encoded by repetition: the candidate periods [`ChunkEncoder::append`] keeps and
//! [`repeat_periods`], which writes a clean period again for as long as the records repeat it.
//!
//! [`ChunkEncoder::append`]: super::ChunkEncoder::append

use super::out::{Out, MAX_PERIOD_BYTES};
use super::predictor::Predictor;
use super::records::{prefetch_records, ACCESS_HIGH_WORD, PREFETCH_RECORDS};
use super::{zigzag, OP_STAMP};
use crate::raw::{head_of, RawEvent, TAG_STAMP};

/// Candidate periods of branches kept at once, by branch id modulo this: a loop body with up to
/// this many branch records (of consecutive ids, as the pass numbers a function's branches)
/// has a candidate for each. Four cost no more per record than one in measurements (the slot
/// is one masked index; the candidates stay in the L1 cache).
pub(super) const BRANCH_ANCHORS: usize = 4;

/// A candidate period that starts right after a branch record (see `ChunkEncoder::append`).
#[derive(Clone, Copy)]
pub(super) struct BranchAnchor {
    /// The branch record's head (`u64::MAX`, which no branch record has: none).
    pub(super) head: u64,
    /// Where the period starts (right after the branch record).
    pub(super) start: usize,
    /// The payload length there.
    pub(super) out: usize,
    /// The previous block, expected and previous instruction there.
    pub(super) state: (u32, u32, u32),
}

impl Default for BranchAnchor {
    fn default() -> Self {
        BranchAnchor {
            head: u64::MAX,
            start: 0,
            out: 0,
            state: (0, 0, 0),
        }
    }
}

/// Longest loop body, in records, that [`repeat_periods`] repeats.
pub(super) const MAX_PERIOD: usize = 32;

/// Loop bodies encoded by repetition: the encoder just processed the records `events[start..at]` (a
/// *period*: from one record of block `b` to the next record of `b`, or from just after one record
/// of branch `br` to just after the next record of `br`, for loops whose blocks have no records of
/// their own), writing `pattern`; it was clean (block and branch records and predicted accesses
/// only) and left the scalar predictor state (pending run, previous block, branch and instruction,
/// expected instruction) as it found it. Then the next `at - start` records encode to the same
/// bytes again if they repeat the period exactly, except that each access is at its instruction's
/// stride beyond the one a period earlier (neither of them at address 0), and every other record
/// has the value it had a period earlier (a branch its outcome), provided every instruction occurs
/// once per period:
///
/// - each access is then predicted: its instruction is the expected one (same heads, same
///   state), its last address is the one a period earlier and its stride unchanged, so the
///   prediction is that address plus the stride;
/// - so every access adds to the run exactly as before, and block and branch records (same ids,
///   same outcomes, same previous ids) write the same bytes;
/// - and the state at the end is again the same, except the last addresses, which are set at
///   the end, and the successor links, which already hold.
///
/// Stamps between periods (while no run is pending, so a stamp changes no other state; always so
/// after a branch's period, which ends with the branch's record) are encoded as usual. Writes whole
/// periods only; returns where the encoder goes on (`at` when not even one period repeated) and the
/// output cursor (by value, so that the caller keeps its cursor in registers: one in memory put a
/// store-to-load chain on every byte written).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn repeat_periods(
    events: &[RawEvent],
    start: usize,
    at: usize,
    pattern: (&[u8; MAX_PERIOD_BYTES], usize),
    p: &mut Predictor,
    run: u32,
    mut w: Out,
) -> (usize, Out) {
    let period = at - start;
    let n = events.len();
    if at + period > n
        || events[at..at + period]
            .iter()
            .zip(&events[start..at])
            .any(|(a, b)| a.head != b.head)
    {
        return (at, w);
    }
    // Each instruction once per period, not at address 0 (the next period's access would then
    // be its instruction's first sighting, which forgets the stride, see `access_event`; the
    // loop below checks the same of every repeated period); its stride.
    let mut stride = [0u64; MAX_PERIOD];
    let mut access = [false; MAX_PERIOD];
    for t in 0..period {
        let r = events[start + t];
        if r.head >> 32 == ACCESS_HIGH_WORD {
            let mi = r.id();
            let repeated = events[start..start + t].iter().any(|x| x.head == r.head);
            let Some(ent) = p.table.get(mi as usize) else {
                return (at, w);
            };
            if repeated || r.value == 0 {
                return (at, w);
            }
            stride[t] = ent.stride;
            access[t] = true;
        }
    }
    let mut previous = start;
    let mut cur = at;
    loop {
        if run == 0 && cur < n && events[cur].head == head_of(TAG_STAMP, 0) {
            let e = events[cur];
            w.byte(OP_STAMP);
            w.varint(zigzag(e.value.wrapping_sub(p.prev_time) as i64));
            p.prev_time = e.value;
            cur += 1;
        }
        if cur + period > n {
            break;
        }
        // The records were written by the traced thread on another core: ask for them well
        // ahead of the comparison (the hardware prefetcher does not run far enough ahead on
        // lines another core holds modified; this load was most of the writer's time).
        prefetch_records(events, cur + PREFETCH_RECORDS);
        let mut same = true;
        for (((a, b), &stride), &access) in events[cur..cur + period]
            .iter()
            .zip(&events[previous..previous + period])
            .zip(&stride[..period])
            .zip(&access[..period])
        {
            same &= (a.head == b.head)
                & (a.value == b.value.wrapping_add(stride))
                & !(access & (a.value == 0));
        }
        if !same {
            break;
        }
        w.pattern(pattern.0, pattern.1);
        previous = cur;
        cur += period;
    }
    for t in 0..period {
        if access[t] {
            let r = events[previous + t];
            p.table[r.id() as usize].last = r.value;
        }
    }
    (cur, w)
}
