//! Raw records to chunk payloads ([`ChunkEncoder`]): the encoder's hot `append` loop and the
//! payload room it needs.

use super::out::{Out, MAX_PERIOD_BYTES};
use super::periods::{repeat_periods, BranchAnchor, BRANCH_ANCHORS, MAX_PERIOD};
use super::predictor::{Prediction, Predictor};
use super::records::{
    prefetch_line, ACCESS_HIGH_WORD, BLOCK_HIGH_WORD, BRANCH_HIGH_WORD, PREFETCH_RECORDS,
    RECORDS_PER_LINE,
};
use super::*;
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
    pub(super) predictor: Predictor,
    pub(super) out: Vec<u8>,
    /// Predicted accesses not yet written as a run byte.
    pub(super) run: u32,
    /// Events in the chunk being built.
    pub(super) count: u32,
    /// Calls of [`ChunkEncoder::append`] left that skip the candidate periods (see
    /// [`PERIODS_RARE`]).
    pub(super) periods_off_for: u32,
}

/// Below this share of its records repeated as loop bodies (1 / this), a call of
/// [`ChunkEncoder::append`] turns the candidate periods off for the next [`PERIODS_OFF_CALLS`]
/// calls. Keeping them costs a state comparison and update at every block and branch record,
/// and their code in the loop slows it even where it finds nothing; on loops they save
/// re-encoding most records, but on branchy code (an interpreter, searches) bodies rarely
/// repeat within [`MAX_PERIOD`] records, and the loop without them traced Lua's interpreter a
/// tenth faster. The bytes are the same either way (a repetition writes the bytes encoding
/// would), so this only chooses the faster path.
const PERIODS_RARE: usize = 8;

/// Calls that skip the candidate periods after a call where they were rare; then one call
/// looks again.
const PERIODS_OFF_CALLS: u32 = 15;

/// Fewest records a call must have for its share of repeats to count.
const PERIODS_PROBE_RECORDS: usize = 4096;

impl ChunkEncoder {
    /// An encoder sized for `mem_instrs` memory instructions and `bytes` of output.
    pub fn new(mem_instrs: usize, bytes: usize) -> Self {
        let mut e = ChunkEncoder {
            predictor: Predictor::new(mem_instrs),
            out: Vec::with_capacity(bytes),
            run: 0,
            count: 0,
            periods_off_for: 0,
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

    /// Memory instructions the predictor table covers: appending an access by an instruction
    /// beyond these grows the table (allocates).
    pub fn mem_instrs_covered(&self) -> usize {
        self.predictor.table.len()
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
        // Candidate periods on, unless they were rare lately (see `PERIODS_RARE`).
        if self.periods_off_for > 0 {
            self.periods_off_for -= 1;
            self.append_records::<false>(events);
            return;
        }
        let repeated = self.append_records::<true>(events);
        if events.len() >= PERIODS_PROBE_RECORDS && repeated * PERIODS_RARE < events.len() {
            self.periods_off_for = PERIODS_OFF_CALLS;
        }
    }

    /// [`ChunkEncoder::append`] with or without candidate periods (`PERIODS`): two versions,
    /// as the periods' code in the loop slowed the loop down even while unused (a tenth on
    /// Lua's interpreter, probably register pressure). Returns the records that repetitions
    /// covered.
    fn append_records<const PERIODS: bool>(&mut self, events: &[RawEvent]) -> usize {
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
        // The records that repetitions covered.
        let mut repeated = 0usize;
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
                    repeated += next - at;
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
                if PERIODS {
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
                }
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
                if PERIODS {
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
                }
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
                    // A loop run and its `m` access records (see `TAG_LOOP_RUN`): one event.
                    // Without all its access records (a truncated or scribbled buffer) it is
                    // skipped like an unknown record, and the accesses encode as plain ones.
                    TAG_LOOP_RUN if loop_run_records(events, i).is_some() => {
                        let (m, r) = ((e.aux() & 0xff) as usize, (e.aux() >> 8) as usize);
                        dirty_end = i + m + r + 1;
                        flush_run!();
                        w.byte(OP_LOOP_RUN);
                        w.varint(zigzag(id.wrapping_sub(prev_br) as i32 as i64));
                        w.varint(e.value);
                        prev_br = id;
                        for a in &events[i + 1..i + 1 + m] {
                            let (was_expected, predicted, _) = access!(a.id(), a.value);
                            w.varint(zigzag(a.id().wrapping_sub(was_expected) as i32 as i64));
                            w.varint(zigzag(a.value.wrapping_sub(predicted) as i64));
                        }
                        for x in &events[i + 1 + m..i + 1 + m + r] {
                            w.varint(zigzag(x.value as i64));
                        }
                        i += m + r;
                        not_events += m + r;
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
        repeated
    }
}

/// The records that follow the loop-run record at `at` (`events[at]`, a [`TAG_LOOP_RUN`]
/// record whose aux is `m | r << 8`): its `m` access records and `r` stride records, if they
/// are all there as the runtime writes them (plain [`TAG_ACCESS`] records, aux 0, then
/// [`TAG_EXT`] records).
#[inline(always)]
pub(super) fn loop_run_records(
    events: &[RawEvent],
    at: usize,
) -> Option<(&[RawEvent], &[RawEvent])> {
    let aux = events[at].aux() as usize;
    let (m, r) = (aux & 0xff, aux >> 8);
    let accesses = events.get(at + 1..at + 1 + m)?;
    let strides = events.get(at + 1 + m..at + 1 + m + r)?;
    let plain = crate::raw::head_of(TAG_ACCESS, 0) >> 32;
    let whole = accesses.iter().all(|a| a.head >> 32 == plain)
        && strides.iter().all(|x| x.tag() == TAG_EXT);
    whole.then_some((accesses, strides))
}

/// Grows the predictor table to cover `id` (cold: only for modules registered after the
/// encoder was sized), as `Predictor::entry` does.
#[cold]
#[inline(never)]
fn grow_table(p: &mut Predictor, id: u32) {
    p.table
        .resize((id as usize + 1).next_power_of_two(), Prediction::default());
}

/// Most payload bytes [`ChunkEncoder::append`] writes per raw record (an access: opcode, 5-byte
/// instruction delta, 10-byte address delta; every other event is at most that per record it
/// takes: a loop run writes at most 16 bytes for its own record, opcode, 5-byte branch delta
/// and 10-byte count, and 15 per access record after it), not counting one run byte pending
/// from before the call.
pub const MAX_BYTES_PER_RECORD: usize = 16;

/// Payload capacity [`ChunkEncoder::append`] needs free for `records` records: at most
/// [`MAX_BYTES_PER_RECORD`] per record, a pending run byte from before the call and the chunk's
/// final run byte, and room for a repeated loop body's fixed-size copy. An append into a payload
/// with this much room never allocates (the runtime's writer and signal paths rely on that).
pub const fn append_room(records: usize) -> usize {
    MAX_BYTES_PER_RECORD * records + 2 + MAX_PERIOD_BYTES
}

#[cfg(test)]
#[path = "encode_tests.rs"]
mod tests;
