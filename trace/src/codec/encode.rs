//! Raw records to chunk payloads ([`ChunkEncoder`]) and decoded events back to raw records
//! ([`to_raw`]).

use super::predictor::{Prediction, Predictor};
use super::*;
use crate::event::Event;
use crate::raw::*;

/// The value of the EXT record at `at`, if there is one.
#[inline(always)]
pub(super) fn ext_value(events: &[RawEvent], at: usize) -> Option<u64> {
    events
        .get(at)
        .filter(|x| x.tag() == TAG_EXT)
        .map(|x| x.value)
}

/// Encodes buffers of [`RawEvent`]s into chunk payloads. Holds reusable state so encoding a
/// chunk allocates nothing once the output buffer has grown to its working size.
pub struct ChunkEncoder {
    predictor: Predictor,
    out: Vec<u8>,
    /// Predicted accesses not yet written as a run byte.
    run: u32,
    /// Events in the chunk being built.
    count: u32,
}

impl ChunkEncoder {
    /// An encoder sized for `mem_instrs` memory instructions and `bytes` of output.
    pub fn new(mem_instrs: usize, bytes: usize) -> Self {
        let mut e = ChunkEncoder {
            predictor: Predictor::new(mem_instrs),
            out: Vec::with_capacity(bytes),
            run: 0,
            count: 0,
        };
        e.start_chunk();
        e
    }

    /// Makes sure the predictor table covers `mem_instrs` ids (call outside signal handlers).
    pub fn reserve_mem_instrs(&mut self, mem_instrs: usize) {
        if mem_instrs > self.predictor.table.len() {
            self.predictor
                .table
                .resize(mem_instrs, Prediction::default());
        }
    }

    /// Encodes one chunk's raw events; returns the payload and the number of events in it.
    /// A trailing event whose EXT records are missing is dropped (it was being written).
    pub fn encode(&mut self, events: &[RawEvent]) -> (&[u8], u32) {
        self.start_chunk();
        self.append(events);
        self.finish_chunk()
    }

    /// Starts a new chunk: empty payload, fresh predictor state.
    pub fn start_chunk(&mut self) {
        self.out.clear();
        self.predictor.start_chunk();
        self.run = 0;
        self.count = 0;
    }

    /// Events in the chunk so far.
    pub fn chunk_events(&self) -> u32 {
        self.count
    }

    /// Payload bytes of the chunk so far (a pending run adds at most one).
    pub fn chunk_bytes(&self) -> usize {
        self.out.len()
    }

    /// Ends the chunk; returns its payload and event count (valid until the next call).
    pub fn finish_chunk(&mut self) -> (&[u8], u32) {
        if self.run > 0 {
            self.out.push((self.run - 1) as u8);
            self.run = 0;
        }
        (&self.out, self.count)
    }

    /// Ends the chunk and hands its payload over, leaving `replacement` (cleared) in its
    /// place; returns the payload and the event count. Starts the next chunk.
    pub fn take_chunk(&mut self, replacement: Vec<u8>) -> (Vec<u8>, u32) {
        let (_, count) = self.finish_chunk();
        let payload = std::mem::replace(&mut self.out, replacement);
        self.start_chunk();
        (payload, count)
    }

    /// Appends raw events to the chunk being built. Multi-record events must not be split
    /// across calls; a trailing event whose EXT records are missing is dropped.
    ///
    /// Writes at most [`MAX_BYTES_PER_RECORD`] bytes per record plus one pending run byte; the
    /// payload buffer is grown to that first, which never allocates when the caller sized it for
    /// it (the runtime's signal path relies on that).
    pub fn append(&mut self, events: &[RawEvent]) {
        self.out.reserve(append_room(events.len()));
        let capacity = self.out.capacity();
        let mut w = Out {
            ptr: self.out.as_mut_ptr(),
            len: self.out.len(),
        };
        let p = &mut self.predictor;
        // The scalar predictor state stays in locals while the loop runs and goes back into
        // `p` at the end: read back from memory right after its narrower stores (the period
        // check compares all of it at every block) it stalled on store-to-load forwarding, a
        // quarter of the encoder's time on branchy code. Same rules as `Predictor::access`.
        let generation = p.generation;
        let mut run = self.run;
        let mut prev_bb = p.prev_bb;
        let mut prev_br = p.prev_br;
        let mut expected = p.expected_mi;
        let mut prev_mi = p.prev_mi;
        let mut prev_time = p.prev_time;
        // Records consumed that are not events (EXT records, skipped ones): the events of this
        // call are the records consumed less these, so no path counts events one by one.
        let mut not_events = 0usize;
        let mut i = 0;
        let n = events.len();
        // Records below this index have been prefetched (one cache line at a time).
        let mut prefetched = 0;
        // One past the last record that a repeated period may not contain (anything but block
        // and branch records and plain predicted accesses with a known last address, see
        // `access_event`): a candidate period starting at `s` is "clean" when this is at most
        // `s`. An index rather than a flag, so that all the candidates below share it and an
        // access costs one conditional move, not one update per candidate.
        let mut dirty_end = 0usize;
        // The candidate periods (see `repeat_periods`), each with where it starts, the head of
        // the record that anchors it, the payload length and the scalar predictor state there:
        // one for the last block record, and one for the last record of each branch slot (see
        // `BRANCH_ANCHORS`). Separate ones: a loop body with a block and a branch record, or
        // with two branch records, would reset a shared anchor twice per iteration and never
        // see the same head twice in a row. A block's period starts at its record (state before
        // the record); a branch's starts right after its record (state after it, with no run
        // pending), so that the stamps the runtime writes at block entries, which follow the
        // branch into the block, fall between periods where `repeat_periods` absorbs them. The
        // heads start as `u64::MAX`, which no block or branch record has: no candidate yet.
        let mut bb_start = 0usize;
        let mut bb_head = u64::MAX;
        let mut bb_out = 0;
        let mut bb_state = (0, 0, 0, 0, 0);
        let mut br_anchors = [BranchAnchor::default(); BRANCH_ANCHORS];
        // Repeats the clean period `events[$start..$at]`, which wrote the payload from `$out`
        // on, as often as the records after it allow (see `repeat_periods`); goes on after the
        // last repetition (`continue`) if there was one, else falls through.
        macro_rules! try_repeat {
            ($start:expr, $at:expr, $out:expr) => {{
                let (start, at, out): (usize, usize, usize) = ($start, $at, $out);
                let mut pattern = [0u8; MAX_PERIOD_BYTES];
                let len = w.len - out;
                // Safety: these payload bytes were written above.
                let written = unsafe { std::slice::from_raw_parts(w.ptr.add(out), len) };
                pattern[..len].copy_from_slice(written);
                p.prev_time = prev_time;
                let next;
                (next, w) = repeat_periods(events, start, at, (&pattern, len), p, run, w);
                prev_time = p.prev_time;
                if next > at {
                    i = next;
                    // No candidate may reach back over the repetitions (the stamps among
                    // them are not clean).
                    dirty_end = next;
                    continue;
                }
            }};
        }
        macro_rules! flush_run {
            () => {
                if run > 0 {
                    w.byte((run - 1) as u8);
                    run = 0;
                }
            };
        }
        // One access by `$id` at `$addr` through the predictor (`Predictor::access` on the
        // locals); gives the instruction that was expected, the predicted address and the
        // instruction's last address before this access (0 when not seen in this chunk).
        macro_rules! access {
            ($id:expr, $addr:expr) => {{
                let (id, addr): (u32, u64) = ($id, $addr);
                if id as usize >= p.table.len() {
                    // Only for modules registered after the encoder was sized (dlopen).
                    grow_table(p, id);
                }
                if prev_mi != u32::MAX {
                    // Touched in this chunk, so current: no generation check.
                    p.table[prev_mi as usize].next_plus_one = id.wrapping_add(1);
                }
                let ent = &mut p.table[id as usize];
                if ent.generation != generation {
                    *ent = Prediction {
                        generation,
                        ..Prediction::default()
                    };
                }
                let predicted = ent.last.wrapping_add(ent.stride);
                // A first sighting in this chunk has no stride yet.
                ent.stride = if ent.last == 0 {
                    0
                } else {
                    addr.wrapping_sub(ent.last)
                };
                let last = ent.last;
                ent.last = addr;
                let was_expected = expected;
                expected = match ent.next_plus_one {
                    0 => id.wrapping_add(1),
                    n => n - 1,
                };
                prev_mi = id;
                (was_expected, predicted, last)
            }};
        }
        // A `TAG_ACCESS` record at `i` (see the loop below).
        macro_rules! access_event {
            ($e:expr, $id:expr) => {{
                let (e, id): (RawEvent, u32) = ($e, $id);
                // Predicted or explicit, one path (a separate loop for runs of predicted
                // accesses tested each unpredicted access twice). A plain record (aux 0) with
                // a known last address at last + stride is predicted and keeps a period clean
                // (see `repeat_periods`); otherwise it is predicted when at a nonzero
                // prediction, and makes the period unclean either way. Same bytes as
                // `append_reference`, which tests compare.
                let (was_expected, predicted, last) = access!(id, e.value);
                let plain = e.head >> 32 == ACCESS_HIGH_WORD;
                let at_prediction = id == was_expected && e.value == predicted;
                let fast = at_prediction && plain && last != 0;
                if !fast {
                    dirty_end = i + 1;
                }
                if fast || (at_prediction && predicted != 0) {
                    run += 1;
                    if run == RUN_MAX {
                        flush_run!();
                    }
                } else {
                    flush_run!();
                    w.byte(OP_ACCESS);
                    w.varint(zigzag(id.wrapping_sub(was_expected) as i32 as i64));
                    w.varint(zigzag(e.value.wrapping_sub(predicted) as i64));
                }
            }};
        }
        // A `TAG_BLOCK` record at `i` (may repeat periods and `continue`).
        macro_rules! block_event {
            ($e:expr, $id:expr) => {{
                let (e, id): (RawEvent, u32) = ($e, $id);
                let state = (run, prev_bb, prev_br, expected, prev_mi);
                if bb_head == e.head
                    && dirty_end <= bb_start
                    && bb_state == state
                    && w.len - bb_out <= MAX_PERIOD_BYTES
                    && i - bb_start <= MAX_PERIOD
                {
                    try_repeat!(bb_start, i, bb_out);
                }
                bb_start = i;
                bb_head = e.head;
                bb_out = w.len;
                bb_state = state;
                flush_run!();
                let d = id.wrapping_sub(prev_bb.wrapping_add(1)) as i32;
                if (-32..32).contains(&d) {
                    w.byte(0x80 | (d + 32) as u8);
                } else {
                    w.byte(OP_BLOCK);
                    w.varint(zigzag(d as i64));
                }
                prev_bb = id;
            }};
        }
        // A `TAG_BRANCH` record at `i` (may repeat periods and `continue`).
        macro_rules! branch_event {
            ($e:expr, $id:expr) => {{
                let (e, id): (RawEvent, u32) = ($e, $id);
                flush_run!();
                let d = id.wrapping_sub(prev_br) as i32;
                if e.value <= 1 && (-16..16).contains(&d) {
                    w.byte(0xc0 | (e.value as u8) << 5 | (d + 16) as u8);
                } else {
                    w.byte(OP_BRANCH);
                    w.varint(zigzag(d as i64));
                    w.varint(e.value);
                }
                prev_br = id;
                // The state after the record (no run pending, `prev_br` is this id).
                let state = (prev_bb, expected, prev_mi);
                let slot = id as usize % BRANCH_ANCHORS;
                let a = br_anchors[slot];
                if a.head == e.head
                    && dirty_end <= a.start
                    && a.state == state
                    && w.len - a.out <= MAX_PERIOD_BYTES
                    && i + 1 - a.start <= MAX_PERIOD
                {
                    try_repeat!(a.start, i + 1, a.out);
                }
                br_anchors[slot] = BranchAnchor {
                    head: e.head,
                    start: i + 1,
                    out: w.len,
                    state,
                };
            }};
        }
        while i < n {
            // The records were written by the traced thread on another core: ask for them
            // well ahead (see `PREFETCH_RECORDS`), each line once.
            let ahead = (i + PREFETCH_RECORDS).min(n);
            while prefetched < ahead {
                prefetch_line(events, prefetched);
                prefetched += RECORDS_PER_LINE;
            }
            let e = events[i];
            let tag = e.tag();
            let id = e.id();
            // The three common kinds first, tested on the record's upper word (tag and aux, which
            // the runtime leaves 0 for them), so that the compiler does not fold these tests
            // into the jump table of the `match` below: an indirect jump per record mispredicts
            // on branchy code's irregular mix of kinds.
            let high = e.head >> 32;
            if high == ACCESS_HIGH_WORD {
                access_event!(e, id);
            } else if high == BLOCK_HIGH_WORD {
                block_event!(e, id);
            } else if high == BRANCH_HIGH_WORD {
                branch_event!(e, id);
            } else {
                let ext = |k: usize| ext_value(events, i + k);
                match tag {
                    TAG_ACCESS => access_event!(e, id),
                    TAG_BLOCK => block_event!(e, id),
                    TAG_BRANCH => branch_event!(e, id),
                    TAG_ACCESS_RANGE => {
                        dirty_end = i + 1;
                        let Some(len) = ext(1) else { break };
                        flush_run!();
                        let (was_expected, predicted, _) = access!(id, e.value);
                        w.byte(OP_RANGE);
                        w.varint(zigzag(id.wrapping_sub(was_expected) as i32 as i64));
                        w.varint(zigzag(e.value.wrapping_sub(predicted) as i64));
                        w.varint(len);
                        i += 1;
                        not_events += 1;
                    }
                    TAG_FORK | TAG_JOIN | TAG_REGION_EXIT | TAG_WS_FINI => {
                        dirty_end = i + 1;
                        flush_run!();
                        w.byte(match tag {
                            TAG_FORK => OP_FORK,
                            TAG_JOIN => OP_JOIN,
                            TAG_REGION_EXIT => OP_REGION_EXIT,
                            _ => OP_WS_FINI,
                        });
                        w.varint(id as u64);
                    }
                    TAG_REGION_ENTER => {
                        dirty_end = i + 1;
                        flush_run!();
                        w.byte(OP_REGION_ENTER);
                        w.varint(id as u64);
                        w.varint(e.value >> 32);
                        w.varint(e.value & 0xffff_ffff);
                    }
                    TAG_WS_INIT => {
                        dirty_end = i + 1;
                        let (Some(upper), Some(stride), Some(incr), Some(chunk)) =
                            (ext(1), ext(2), ext(3), ext(4))
                        else {
                            break;
                        };
                        flush_run!();
                        w.byte(OP_WS_INIT);
                        w.varint(id as u64);
                        w.varint(zigzag(aux_to_i32(e.aux()) as i64));
                        for v in [e.value, upper, stride, incr, chunk] {
                            w.varint(zigzag(v as i64));
                        }
                        i += 4;
                        not_events += 4;
                    }
                    TAG_WS_NEXT => {
                        dirty_end = i + 1;
                        let Some(upper) = ext(1) else { break };
                        flush_run!();
                        w.byte(OP_WS_NEXT);
                        w.varint(id as u64);
                        w.varint((e.aux() != 0) as u64);
                        w.varint(zigzag(e.value as i64));
                        w.varint(zigzag(upper as i64));
                        i += 1;
                        not_events += 1;
                    }
                    TAG_BARRIER => {
                        dirty_end = i + 1;
                        flush_run!();
                        w.byte(OP_BARRIER);
                    }
                    TAG_GAP => {
                        dirty_end = i + 1;
                        flush_run!();
                        w.byte(OP_GAP);
                    }
                    TAG_STAMP => {
                        dirty_end = i + 1;
                        flush_run!();
                        w.byte(OP_STAMP);
                        w.varint(zigzag(e.value.wrapping_sub(prev_time) as i64));
                        prev_time = e.value;
                    }
                    // Unknown or stray EXT records are not encodable; skip them rather than
                    // writing garbage (the runtime never produces them).
                    _ => {
                        dirty_end = i + 1;
                        not_events += 1;
                    }
                }
            }
            i += 1;
        }
        assert!(w.len <= capacity, "encoder wrote past its bound");
        // Safety: bytes up to `w.len` are initialised (written above or before this call), and
        // `w.len` is within the capacity (checked above; see `Out`).
        unsafe { self.out.set_len(w.len) };
        self.run = run;
        self.count = self.count.wrapping_add((i - not_events) as u32);
        p.prev_bb = prev_bb;
        p.prev_br = prev_br;
        p.expected_mi = expected;
        p.prev_mi = prev_mi;
        p.prev_time = prev_time;
    }
}

/// Grows the predictor table to cover `id` (cold: only for modules registered after the
/// encoder was sized), as `Predictor::entry` does.
#[cold]
#[inline(never)]
fn grow_table(p: &mut Predictor, id: u32) {
    p.table
        .resize((id as usize + 1).next_power_of_two(), Prediction::default());
}

/// Candidate periods of branches kept at once, by branch id modulo this: a loop body with up to
/// this many branch records (of consecutive ids, as the pass numbers a function's branches)
/// has a candidate for each. Four cost no more per record than one in measurements (the slot
/// is one masked index; the candidates stay in the L1 cache).
const BRANCH_ANCHORS: usize = 4;

/// A candidate period that starts right after a branch record (see `ChunkEncoder::append`).
#[derive(Clone, Copy)]
struct BranchAnchor {
    /// The branch record's head (`u64::MAX`, which no branch record has: none).
    head: u64,
    /// Where the period starts (right after the branch record).
    start: usize,
    /// The payload length there.
    out: usize,
    /// The previous block, expected and previous instruction there.
    state: (u32, u32, u32),
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
const MAX_PERIOD: usize = 32;
/// Most payload bytes of one repeated loop body.
const MAX_PERIOD_BYTES: usize = 64;

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
fn repeat_periods(
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

/// How far ahead (records) the encoder asks for the raw records it is about to read.
const PREFETCH_RECORDS: usize = 128;

/// Records in one 64-byte cache line.
const RECORDS_PER_LINE: usize = 64 / std::mem::size_of::<RawEvent>();

/// Prefetches the cache line of record `at` (which must be in `events`): a hint, with no
/// effect on results.
#[inline(always)]
fn prefetch_line(events: &[RawEvent], at: usize) {
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
fn prefetch_records(events: &[RawEvent], at: usize) {
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

/// Most payload bytes [`ChunkEncoder::append`] writes per raw record (an access: opcode, 5-byte
/// instruction delta, 10-byte address delta; every other event is at most that per record it
/// takes), not counting one run byte pending from before the call.
pub const MAX_BYTES_PER_RECORD: usize = 16;

/// Payload capacity [`ChunkEncoder::append`] needs free for `records` records: at most
/// [`MAX_BYTES_PER_RECORD`] per record, a pending run byte from before the call and the chunk's
/// final run byte, and room for a repeated loop body's fixed-size copy. An append into a payload
/// with this much room never allocates (the runtime's writer and signal paths rely on that).
pub const fn append_room(records: usize) -> usize {
    MAX_BYTES_PER_RECORD * records + 2 + MAX_PERIOD_BYTES
}

/// The upper 32 bits of a plain access record's head: tag [`TAG_ACCESS`], aux 0.
const ACCESS_HIGH_WORD: u64 = head_of(TAG_ACCESS, 0) >> 32;
/// The upper 32 bits of a block record's head as the runtime writes it (aux 0).
const BLOCK_HIGH_WORD: u64 = head_of(TAG_BLOCK, 0) >> 32;
/// The upper 32 bits of a branch record's head as the runtime writes it (aux 0).
const BRANCH_HIGH_WORD: u64 = head_of(TAG_BRANCH, 0) >> 32;

/// Unchecked appends into reserved payload capacity: the encoder reserves [`append_room`]
/// before it writes, so no write needs its own capacity check; `append` asserts the total
/// stayed within it before it sets the length (an overrun would be a bug in that bound, caught
/// by the per-record bound tests).
struct Out {
    ptr: *mut u8,
    len: usize,
}

impl Out {
    #[inline(always)]
    fn byte(&mut self, b: u8) {
        // Safety: within the reserved capacity (see the type's comment).
        unsafe { self.ptr.add(self.len).write(b) };
        self.len += 1;
    }

    /// Appends the first `len` bytes of `b`, copying all of it (one fixed-size copy): the
    /// capacity reserved has [`MAX_PERIOD_BYTES`] to spare for that (see [`append_room`]).
    #[inline(always)]
    fn pattern(&mut self, b: &[u8; MAX_PERIOD_BYTES], len: usize) {
        // Safety: within the reserved capacity (see the type's comment and `append_room`);
        // `b` is not the payload buffer.
        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), self.ptr.add(self.len), b.len()) };
        self.len += len;
    }

    /// LEB128. Values of 2 to 8 bytes (below 2^56) are spread into one 8-byte store without a
    /// loop (their lengths vary from access to access, so a byte loop's exit mispredicts); the
    /// store may write up to 6 bytes past the varint, inside the [`MAX_PERIOD_BYTES`] the
    /// reserved capacity has to spare, and later bytes overwrite them.
    #[inline(always)]
    fn varint(&mut self, mut v: u64) {
        if v < 0x80 {
            self.byte(v as u8);
            return;
        }
        if v < 1 << 56 {
            let n = (64 - v.leading_zeros() as usize).div_ceil(7);
            let mut x = v & 0x7f;
            let mut k = 1;
            while k < 8 {
                x |= (v << k) & (0x7f << (8 * k));
                k += 1;
            }
            x |= 0x8080_8080_8080_8080u64 >> (8 * (9 - n));
            // Safety: within the reserved capacity plus its spare (see above and `Out`).
            unsafe { (self.ptr.add(self.len) as *mut u64).write_unaligned(x.to_le()) };
            self.len += n;
            return;
        }
        while v >= 0x80 {
            self.byte((v as u8) | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }
}

#[cfg(test)]
impl ChunkEncoder {
    /// The encoder before the unchecked-write fast path: every test compares against it.
    pub(super) fn append_reference(&mut self, events: &[RawEvent]) {
        let p = &mut self.predictor;
        let out = &mut self.out;
        let mut run = self.run;
        let mut count = self.count;
        let mut i = 0;
        let flush_run = |out: &mut Vec<u8>, run: &mut u32| {
            if *run > 0 {
                out.push((*run - 1) as u8);
                *run = 0;
            }
        };
        while i < events.len() {
            let e = events[i];
            // Fast path for the common case, a stretch of predicted accesses, with the predictor
            // state in locals (so it stays in registers while the table is written) and one
            // compare of the record head for tag, aux and instruction. Same rules as
            // `Predictor::access`; anything else leaves for the general path below.
            if e.head == crate::raw::head_of(TAG_ACCESS, p.expected_mi) {
                let generation = p.generation;
                let mut expected = p.expected_mi;
                let mut prev = p.prev_mi;
                let table = &mut p.table[..];
                let mut j = i;
                while j < events.len() {
                    let e = events[j];
                    if e.head != crate::raw::head_of(TAG_ACCESS, expected) {
                        break;
                    }
                    let Some(ent) = table.get(expected as usize) else {
                        break;
                    };
                    if ent.generation != generation
                        || ent.last == 0
                        || ent.last.wrapping_add(ent.stride) != e.value
                    {
                        break;
                    }
                    if prev != u32::MAX {
                        table[prev as usize].next_plus_one = expected.wrapping_add(1);
                    }
                    let ent = &mut table[expected as usize];
                    ent.last = e.value;
                    prev = expected;
                    expected = match ent.next_plus_one {
                        0 => prev.wrapping_add(1),
                        n => n - 1,
                    };
                    run += 1;
                    if run == RUN_MAX {
                        out.push((RUN_MAX - 1) as u8);
                        run = 0;
                    }
                    j += 1;
                }
                p.expected_mi = expected;
                p.prev_mi = prev;
                if j > i {
                    count += (j - i) as u32;
                    i = j;
                    continue;
                }
            }
            let tag = e.tag();
            let id = e.id();
            let ext = |k: usize| ext_value(events, i + k);
            match tag {
                TAG_ACCESS => {
                    let expected = p.expected_mi();
                    let (predicted, _) = p.access(id, |_| e.value);
                    if id == expected && e.value == predicted && predicted != 0 {
                        run += 1;
                        if run == RUN_MAX {
                            flush_run(out, &mut run);
                        }
                    } else {
                        flush_run(out, &mut run);
                        out.push(OP_ACCESS);
                        put_varint(out, zigzag(id.wrapping_sub(expected) as i32 as i64));
                        put_varint(out, zigzag(e.value.wrapping_sub(predicted) as i64));
                    }
                }
                TAG_ACCESS_RANGE => {
                    let Some(len) = ext(1) else { break };
                    flush_run(out, &mut run);
                    let expected = p.expected_mi();
                    let (predicted, _) = p.access(id, |_| e.value);
                    out.push(OP_RANGE);
                    put_varint(out, zigzag(id.wrapping_sub(expected) as i32 as i64));
                    put_varint(out, zigzag(e.value.wrapping_sub(predicted) as i64));
                    put_varint(out, len);
                    i += 1;
                }
                TAG_BLOCK => {
                    flush_run(out, &mut run);
                    let d = id.wrapping_sub(p.prev_bb.wrapping_add(1)) as i32;
                    if (-32..32).contains(&d) {
                        out.push(0x80 | (d + 32) as u8);
                    } else {
                        out.push(OP_BLOCK);
                        put_varint(out, zigzag(d as i64));
                    }
                    p.prev_bb = id;
                }
                TAG_BRANCH => {
                    flush_run(out, &mut run);
                    let d = id.wrapping_sub(p.prev_br) as i32;
                    if e.value <= 1 && (-16..16).contains(&d) {
                        out.push(0xc0 | (e.value as u8) << 5 | (d + 16) as u8);
                    } else {
                        out.push(OP_BRANCH);
                        put_varint(out, zigzag(d as i64));
                        put_varint(out, e.value);
                    }
                    p.prev_br = id;
                }
                TAG_FORK | TAG_JOIN | TAG_REGION_EXIT | TAG_WS_FINI => {
                    flush_run(out, &mut run);
                    out.push(match tag {
                        TAG_FORK => OP_FORK,
                        TAG_JOIN => OP_JOIN,
                        TAG_REGION_EXIT => OP_REGION_EXIT,
                        _ => OP_WS_FINI,
                    });
                    put_varint(out, id as u64);
                }
                TAG_REGION_ENTER => {
                    flush_run(out, &mut run);
                    out.push(OP_REGION_ENTER);
                    put_varint(out, id as u64);
                    put_varint(out, e.value >> 32);
                    put_varint(out, e.value & 0xffff_ffff);
                }
                TAG_WS_INIT => {
                    let (Some(upper), Some(stride), Some(incr), Some(chunk)) =
                        (ext(1), ext(2), ext(3), ext(4))
                    else {
                        break;
                    };
                    flush_run(out, &mut run);
                    out.push(OP_WS_INIT);
                    put_varint(out, id as u64);
                    put_varint(out, zigzag(aux_to_i32(e.aux()) as i64));
                    for v in [e.value, upper, stride, incr, chunk] {
                        put_varint(out, zigzag(v as i64));
                    }
                    i += 4;
                }
                TAG_WS_NEXT => {
                    let Some(upper) = ext(1) else { break };
                    flush_run(out, &mut run);
                    out.push(OP_WS_NEXT);
                    put_varint(out, id as u64);
                    put_varint(out, (e.aux() != 0) as u64);
                    put_varint(out, zigzag(e.value as i64));
                    put_varint(out, zigzag(upper as i64));
                    i += 1;
                }
                TAG_BARRIER => {
                    flush_run(out, &mut run);
                    out.push(OP_BARRIER);
                }
                TAG_GAP => {
                    flush_run(out, &mut run);
                    out.push(OP_GAP);
                }
                TAG_STAMP => {
                    flush_run(out, &mut run);
                    out.push(OP_STAMP);
                    put_varint(out, zigzag(e.value.wrapping_sub(p.prev_time) as i64));
                    p.prev_time = e.value;
                }
                // Unknown or stray EXT records are not encodable; skip them rather than
                // writing garbage (the runtime never produces them).
                _ => {
                    i += 1;
                    continue;
                }
            }
            count += 1;
            i += 1;
        }
        self.run = run;
        self.count = count;
    }
}

/// Converts decoded events back to raw records (the inverse of decoding; used by tests and by
/// tools that rewrite traces).
pub fn to_raw(events: &[Event], out: &mut Vec<RawEvent>) {
    for &e in events {
        match e {
            Event::Block { bb } => out.push(RawEvent::new(TAG_BLOCK, 0, bb, 0)),
            Event::Access { mi, addr, len } => {
                // Ranged accesses are written as ranges even when their length equals the
                // static size; the decoder cannot tell, so callers compare lengths, not tags.
                out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, mi, addr));
                out.push(RawEvent::new(TAG_EXT, 0, 0, len));
            }
            Event::Branch { br, outcome } => {
                out.push(RawEvent::new(TAG_BRANCH, 0, br, outcome as u64))
            }
            Event::Fork { region } => out.push(RawEvent::new(TAG_FORK, 0, region, 0)),
            Event::Join { region } => out.push(RawEvent::new(TAG_JOIN, 0, region, 0)),
            Event::RegionEnter {
                region,
                omp_thread,
                team_size,
            } => out.push(RawEvent::new(
                TAG_REGION_ENTER,
                0,
                region,
                (omp_thread as u64) << 32 | team_size as u64,
            )),
            Event::RegionExit { region } => out.push(RawEvent::new(TAG_REGION_EXIT, 0, region, 0)),
            Event::WorkshareInit {
                ws,
                schedule,
                lower,
                upper,
                stride,
                incr,
                chunk,
            } => {
                out.push(RawEvent::new(
                    TAG_WS_INIT,
                    schedule as u32,
                    ws,
                    lower as u64,
                ));
                for v in [upper, stride, incr, chunk] {
                    out.push(RawEvent::new(TAG_EXT, 0, 0, v as u64));
                }
            }
            Event::WorkshareNext {
                ws,
                more,
                lower,
                upper,
            } => {
                out.push(RawEvent::new(TAG_WS_NEXT, more as u32, ws, lower as u64));
                out.push(RawEvent::new(TAG_EXT, 0, 0, upper as u64));
            }
            Event::WorkshareFini { ws } => out.push(RawEvent::new(TAG_WS_FINI, 0, ws, 0)),
            Event::Barrier => out.push(RawEvent::new(TAG_BARRIER, 0, 0, 0)),
            Event::Gap => out.push(RawEvent::new(TAG_GAP, 0, 0, 0)),
            Event::Stamp { time } => out.push(RawEvent::new(TAG_STAMP, 0, 0, time)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Records from a small program-like alphabet: loop iterations (a block, strided accesses
    /// by consecutive instructions, a branch) mixed with random accesses, ranges, OpenMP events
    /// and stamps, so runs, broken predictions, RUN_MAX and every opcode all occur.
    fn records() -> impl Strategy<Value = Vec<RawEvent>> {
        let piece = (0u8..10, 0u32..6, any::<u64>(), 1u64..5);
        proptest::collection::vec(piece, 1..300).prop_map(|pieces| {
            let mut out = Vec::new();
            for (k, (kind, id, v, reps)) in pieces.into_iter().enumerate() {
                match kind {
                    0..=4 => {
                        // `reps * 20` iterations of a loop body: a block, `id % 3` accesses by
                        // consecutive instructions, a branch, with a stamp every 16 blocks as
                        // the runtime records them. Address patterns (`v % 5`): 0 strided;
                        // 1 descending through address 0 (which the predictor treats as "not
                        // seen"); 2 all at address 0; 3 one instruction twice per body, its
                        // addresses first one arithmetic sequence, then advancing by one step
                        // per body (a period that repeats but is not predicted); 4 strided
                        // without the branch, so a run is pending between bodies.
                        let pattern = v % 5;
                        let accesses = if pattern == 3 { 2 } else { id % 3 };
                        for it in 0..reps * 20 {
                            if it % 16 == 15 {
                                out.push(RawEvent::new(TAG_STAMP, 0, 0, v.wrapping_add(it)));
                            }
                            out.push(RawEvent::new(TAG_BLOCK, 0, id, 0));
                            for q in 0..accesses {
                                let (mi, addr) = match pattern {
                                    1 => (q, (8 * 30u64).wrapping_sub(8 * it)),
                                    2 => (q, 0),
                                    3 => {
                                        let step = if it < 10 { 2 * it } else { it + 9 };
                                        (0, 0x4000 + 8 * (step + q as u64))
                                    }
                                    _ => (q, 0x1000 * (q as u64 + 1) + 8 * (q as u64 + 1) * it),
                                };
                                out.push(RawEvent::new(TAG_ACCESS, 0, mi, addr));
                            }
                            if pattern != 4 {
                                out.push(RawEvent::new(TAG_BRANCH, 0, id, (it % 7 == 6) as u64));
                            }
                        }
                    }
                    5 => out.push(RawEvent::new(TAG_ACCESS, 0, id, v % 3 * (v >> 2))),
                    6 => {
                        out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, id, v));
                        out.push(RawEvent::new(TAG_EXT, 0, 0, reps * 8));
                    }
                    7 => {
                        out.push(RawEvent::new(TAG_WS_INIT, (v >> 40) as u32 & 0xff, id, v));
                        for x in 0..4 {
                            out.push(RawEvent::new(TAG_EXT, 0, 0, v.rotate_left(x)));
                        }
                    }
                    8 => out.push(RawEvent::new(TAG_STAMP, 0, 0, k as u64 * 1000 + v % 100)),
                    _ => out.push(RawEvent::new(
                        [TAG_FORK, TAG_JOIN, TAG_BARRIER, TAG_REGION_EXIT, TAG_GAP]
                            [id as usize % 5],
                        0,
                        id,
                        0,
                    )),
                }
            }
            out
        })
    }

    /// A small deterministic generator (xorshift), so that one proptest value describes a whole
    /// loop nest's worth of detail.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Uniform in `0..n`.
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Loops as the instrumentation without block records for blocks entered through recorded
    /// branches writes them, mixed with loops that keep their block records: bodies of up to
    /// four accesses and one to three branches, with or without a block record, branch outcomes
    /// constant, periodic or random, stamps after a branch (where the runtime's block-entry
    /// countdown puts them), before one or anywhere, and accesses strided, at address 0, by one
    /// instruction twice, irregular now and then, or ranged; between loops, single records of
    /// every kind. So the candidate periods of `append` (blocks and branches) start, repeat,
    /// break off at every kind of record and meet buffer boundaries.
    fn loops() -> impl Strategy<Value = Vec<RawEvent>> {
        proptest::collection::vec((0u8..8, any::<u64>()), 1..40).prop_map(|pieces| {
            let mut out = Vec::new();
            for (kind, seed) in pieces {
                let mut r = Rng(seed | 1);
                match kind {
                    0..=5 => {
                        let block = match r.below(3) {
                            0 => Some(r.below(4) as u32),
                            _ => None,
                        };
                        let accesses = r.below(5) as u32;
                        let branches = 1 + r.below(3) as u32;
                        let outcomes = r.below(4);
                        let stamps = r.below(4);
                        let addresses = r.below(6);
                        let disturb = r.below(8);
                        let base = r.below(4) * 0x1000;
                        let iterations = 1 + r.below(100);
                        for it in 0..iterations {
                            if stamps == 1 && it % 16 == 15 {
                                out.push(RawEvent::new(TAG_STAMP, 0, 0, seed.wrapping_add(it)));
                            }
                            if let Some(bb) = block {
                                out.push(RawEvent::new(TAG_BLOCK, 0, bb, 0));
                            }
                            for q in 0..accesses {
                                let mi = if addresses == 3 { q / 2 } else { q };
                                let strided = base + 0x100 * (q as u64 + 1) + 8 * it;
                                let addr = match addresses {
                                    1 => 0,
                                    2 => (8 * 40u64).wrapping_sub(8 * it),
                                    4 if r.below(16) == 0 => r.next() >> 20,
                                    _ => strided,
                                };
                                if disturb == 0 && it % 23 == 22 && q == 0 {
                                    out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, mi, addr));
                                    out.push(RawEvent::new(TAG_EXT, 0, 0, 8 + it % 3));
                                } else {
                                    out.push(RawEvent::new(TAG_ACCESS, 0, mi, addr));
                                }
                            }
                            for b in 0..branches {
                                let outcome = match outcomes {
                                    0 => 0,
                                    1 => (b == 0) as u64,
                                    2 => (it % 5 == 4) as u64,
                                    _ => r.below(2),
                                };
                                if stamps == 2 && it % 7 == 6 && b == branches - 1 {
                                    out.push(RawEvent::new(TAG_STAMP, 0, 0, it * 3));
                                }
                                let br = b + (block.unwrap_or(0) & 1);
                                out.push(RawEvent::new(TAG_BRANCH, 0, br, outcome));
                                if stamps == 3 && r.below(8) == 0 {
                                    out.push(RawEvent::new(TAG_STAMP, 0, 0, r.next() >> 40));
                                }
                            }
                            if disturb == 1 && it % 31 == 30 {
                                out.push(RawEvent::new(TAG_BARRIER, 0, 0, 0));
                            }
                        }
                    }
                    6 => out.push(RawEvent::new(TAG_STAMP, 0, 0, seed >> 30)),
                    _ => out.push(RawEvent::new(
                        [TAG_ACCESS, TAG_BRANCH, TAG_BLOCK, TAG_GAP][r.below(4) as usize],
                        0,
                        r.below(4) as u32,
                        r.below(3) * 0x2000,
                    )),
                }
            }
            out
        })
    }

    /// Encodes `raw` cut into pieces of `piece` records (moved past EXT records) with the fast
    /// encoder and the reference one; both payloads and event counts.
    fn both(raw: &[RawEvent], piece: usize) -> ((Vec<u8>, u32), (Vec<u8>, u32)) {
        let mut fast = ChunkEncoder::new(4, 16);
        let mut slow = ChunkEncoder::new(4, 16);
        let mut at = 0;
        while at < raw.len() {
            let mut end = (at + piece).min(raw.len());
            while end < raw.len() && raw[end].tag() == TAG_EXT {
                end += 1;
            }
            let before = fast.chunk_bytes();
            fast.append(&raw[at..end]);
            assert!(fast.chunk_bytes() - before <= MAX_BYTES_PER_RECORD * (end - at) + 1);
            slow.append_reference(&raw[at..end]);
            at = end;
        }
        let (a, n) = fast.finish_chunk();
        let a = (a.to_vec(), n);
        let (b, m) = slow.finish_chunk();
        (a, (b.to_vec(), m))
    }

    /// A loop without block records (three strided accesses and a branch, a stamp after every
    /// 16th branch, where the runtime puts them) repeats its branch's period and writes the
    /// same bytes as the reference encoder, whole or in pieces.
    #[test]
    fn branch_periods_without_block_records() {
        let mut raw = Vec::new();
        for it in 0..1000u64 {
            for q in 0..3u64 {
                raw.push(RawEvent::new(
                    TAG_ACCESS,
                    0,
                    q as u32,
                    0x1000 * (q + 1) + 8 * it,
                ));
            }
            raw.push(RawEvent::new(TAG_BRANCH, 0, 2, 0));
            if it % 16 == 15 {
                raw.push(RawEvent::new(TAG_STAMP, 0, 0, 100 * it));
            }
        }
        for piece in [raw.len(), 1000, 7] {
            let (fast, slow) = both(&raw, piece);
            assert_eq!(fast, slow, "pieces of {piece}");
        }
    }

    /// An access at address 0 in a repeated period makes the next period's access by the same
    /// instruction a first sighting, which forgets the stride: the repetition must stop there
    /// (it once went on, writing a run where the reference writes the access).
    #[test]
    fn periods_stop_at_address_zero() {
        for block in [false, true] {
            let mut raw = Vec::new();
            for it in 0..60u64 {
                if block {
                    raw.push(RawEvent::new(TAG_BLOCK, 0, 1, 0));
                }
                let addr = (8 * 40u64).wrapping_sub(8 * it);
                raw.push(RawEvent::new(TAG_ACCESS, 0, 0, addr));
                raw.push(RawEvent::new(TAG_BRANCH, 0, 0, 0));
            }
            let (fast, slow) = both(&raw, raw.len());
            assert_eq!(fast, slow, "block records: {block}");
        }
    }

    proptest! {
        /// The fast encoder writes the reference encoder's bytes for loops with and without
        /// block records (see `loops`), whole or in pieces of any size.
        #[test]
        fn branch_and_block_periods_equal_the_reference(raw in loops(), piece in 1usize..5000) {
            let (fast, slow) = both(&raw, piece);
            prop_assert_eq!(fast, slow);
        }

        /// The fast encoder writes exactly the bytes of the straightforward one, whatever the
        /// records and wherever a buffer boundary falls (between events), within the
        /// per-record bound.
        #[test]
        fn fast_append_equals_the_reference(raw in records(), cut in any::<prop::sample::Index>()) {
            // A cut between events: not before an EXT record.
            let mut at = cut.index(raw.len() + 1);
            while at < raw.len() && raw[at].tag() == TAG_EXT {
                at += 1;
            }
            let mut fast = ChunkEncoder::new(4, 16);
            let mut slow = ChunkEncoder::new(4, 16);
            for part in [&raw[..at], &raw[at..]] {
                let before = fast.chunk_bytes();
                fast.append(part);
                prop_assert!(fast.chunk_bytes() - before <= MAX_BYTES_PER_RECORD * part.len() + 1);
                slow.append_reference(part);
                prop_assert_eq!(fast.chunk_bytes(), slow.chunk_bytes());
            }
            let (a, n) = fast.finish_chunk();
            let (a, n) = (a.to_vec(), n);
            let (b, m) = slow.finish_chunk();
            prop_assert_eq!(n, m);
            prop_assert_eq!(a, b.to_vec());
        }
    }
}
