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
        // The candidate period (see `repeat_periods`): where it starts, its first record's
        // head, the payload length and the scalar predictor state there, and whether it has
        // been "clean" so far (only block and branch records and plain predicted accesses with
        // a known last address, see `access_event`).
        let mut anchor = usize::MAX;
        let mut anchor_head = 0u64;
        let mut anchor_out = 0;
        let mut anchor_state = (0, 0, 0, 0, 0);
        let mut clean = false;
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
                clean &= fast;
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
                if clean
                    && anchor_head == e.head
                    && anchor != usize::MAX
                    && anchor_state == state
                    && w.len - anchor_out <= MAX_PERIOD_BYTES
                    && i - anchor <= MAX_PERIOD
                {
                    let mut pattern = [0u8; MAX_PERIOD_BYTES];
                    let len = w.len - anchor_out;
                    // Safety: these payload bytes were written above.
                    pattern[..len].copy_from_slice(unsafe {
                        std::slice::from_raw_parts(w.ptr.add(anchor_out), len)
                    });
                    p.prev_time = prev_time;
                    let next;
                    (next, w) = repeat_periods(events, anchor, i, (&pattern, len), p, run, w);
                    prev_time = p.prev_time;
                    if next > i {
                        i = next;
                        anchor = usize::MAX;
                        continue;
                    }
                }
                anchor = i;
                anchor_head = e.head;
                anchor_out = w.len;
                anchor_state = state;
                clean = true;
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
        // A `TAG_BRANCH` record at `i`.
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
                        clean = false;
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
                        clean = false;
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
                        clean = false;
                        flush_run!();
                        w.byte(OP_REGION_ENTER);
                        w.varint(id as u64);
                        w.varint(e.value >> 32);
                        w.varint(e.value & 0xffff_ffff);
                    }
                    TAG_WS_INIT => {
                        clean = false;
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
                        clean = false;
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
                        clean = false;
                        flush_run!();
                        w.byte(OP_BARRIER);
                    }
                    TAG_GAP => {
                        clean = false;
                        flush_run!();
                        w.byte(OP_GAP);
                    }
                    TAG_STAMP => {
                        clean = false;
                        flush_run!();
                        w.byte(OP_STAMP);
                        w.varint(zigzag(e.value.wrapping_sub(prev_time) as i64));
                        prev_time = e.value;
                    }
                    // Unknown or stray EXT records are not encodable; skip them rather than
                    // writing garbage (the runtime never produces them).
                    _ => {
                        clean = false;
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

/// Longest loop body, in records, that [`repeat_periods`] repeats.
const MAX_PERIOD: usize = 32;
/// Most payload bytes of one repeated loop body.
const MAX_PERIOD_BYTES: usize = 64;

/// Loop bodies encoded by repetition: the encoder just processed the records
/// `events[start..at]` (a *period*: from one record of block `b` to the next record of `b`),
/// writing `pattern`; it was clean (block and branch records and predicted accesses only) and
/// left the scalar predictor state (pending run, previous block, branch and instruction,
/// expected instruction) as it found it. Then the next `at - start` records encode to the same
/// bytes again if they repeat the period exactly, except that each access is at its
/// instruction's stride beyond the one a period earlier (and not at address 0), provided every
/// instruction occurs once per period:
///
/// - each access is then predicted: its instruction is the expected one (same heads, same
///   state), its last address is the one a period earlier and its stride unchanged, so the
///   prediction is that address plus the stride;
/// - so every access adds to the run exactly as before, and block and branch records (same ids,
///   same outcomes, same previous ids) write the same bytes;
/// - and the state at the end is again the same, except the last addresses, which are set at
///   the end, and the successor links, which already hold.
///
/// Stamps between periods (while no run is pending, so a stamp changes no other state) are
/// encoded as usual. Writes whole periods only; returns where the encoder goes on (`at` when
/// not even one period repeated) and the output cursor (by value, so that the caller keeps its
/// cursor in registers: one in memory put a store-to-load chain on every byte written).
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
    // Each instruction once per period; its stride.
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
            if repeated {
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

    proptest! {
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
