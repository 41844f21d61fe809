//! The compact wire encoding of an events chunk (before compression), and its decoder.
//!
//! Every chunk is self-contained: the predictor state below starts empty at the beginning of
//! each chunk, so a chunk decodes without its predecessors (a truncated or partly corrupt file
//! keeps every whole chunk readable, and chunks can be decoded in parallel).
//!
//! Predictor state: the previous block id, memory-instruction id, branch id and stamp, and per
//! memory instruction its last address, last stride and the instruction that followed it last
//! time. The *expected* instruction is the one that followed the previous instruction last time
//! (the previous + 1 when unknown; instruction 0 at the start of a chunk). An access is
//! *predicted* when it is by the expected instruction at last address + last stride; runs of up
//! to 64 predicted accesses take one byte. Regular loops therefore encode in about
//! one byte per loop iteration plus the block and branch bytes, which zstd then compresses
//! further.
//!
//! | first byte  | meaning | operands (LEB128 varints; `z` = zigzag) |
//! |-------------|---------|----------|
//! | `0x00-0x3f` | run of `b+1` predicted accesses | — |
//! | `0x40` | access | `z(mi - expected_mi)`, `z(addr - last[mi] - stride[mi])` |
//! | `0x41` | ranged access | as `0x40`, then `len` |
//! | `0x42` | block | `z(bb - prev_bb - 1)` |
//! | `0x43` | branch | `z(br - prev_br)`, `outcome` |
//! | `0x44` | fork | `region` |
//! | `0x45` | join | `region` |
//! | `0x46` | region enter | `region`, `omp_thread`, `team_size` |
//! | `0x47` | region exit | `region` |
//! | `0x48` | worksharing init | `ws`, `z(schedule)`, `z(lower)`, `z(upper)`, `z(stride)`, `z(incr)`, `z(chunk)` |
//! | `0x49` | dispatch next | `ws`, `more` (0/1), `z(lower)`, `z(upper)` |
//! | `0x4a` | worksharing fini | `ws` |
//! | `0x4b` | barrier | — |
//! | `0x4c` | stamp | `z(time - prev_time)` |
//! | `0x80-0xbf` | block with `bb = prev_bb + 1 + (b & 0x3f) - 32` | — |
//! | `0xc0-0xff` | branch with `outcome = (b >> 5) & 1`, `br = prev_br + (b & 0x1f) - 16` | — |

use crate::event::{Event, EventVisitor};
use crate::raw::*;

const RUN_MAX: u32 = 64;
const OP_ACCESS: u8 = 0x40;
const OP_RANGE: u8 = 0x41;
const OP_BLOCK: u8 = 0x42;
const OP_BRANCH: u8 = 0x43;
const OP_FORK: u8 = 0x44;
const OP_JOIN: u8 = 0x45;
const OP_REGION_ENTER: u8 = 0x46;
const OP_REGION_EXIT: u8 = 0x47;
const OP_WS_INIT: u8 = 0x48;
const OP_WS_NEXT: u8 = 0x49;
const OP_WS_FINI: u8 = 0x4a;
const OP_BARRIER: u8 = 0x4b;
const OP_STAMP: u8 = 0x4c;

/// Per-memory-instruction predictor entry; `generation` says which chunk it belongs to, so the
/// table never has to be cleared between chunks.
#[derive(Clone, Copy, Default)]
struct Prediction {
    generation: u32,
    /// The instruction that followed this one last time, plus one (0: not seen yet).
    next_plus_one: u32,
    last: u64,
    stride: u64,
}

/// Predictor state shared by encoder and decoder (the same rules on both sides).
struct Predictor {
    table: Vec<Prediction>,
    generation: u32,
    prev_bb: u32,
    prev_mi: u32,
    expected_mi: u32,
    prev_br: u32,
    prev_time: u64,
}

impl Predictor {
    fn new(mem_instrs: usize) -> Self {
        Predictor {
            table: vec![Prediction::default(); mem_instrs],
            generation: 0,
            prev_bb: u32::MAX,
            prev_mi: u32::MAX,
            expected_mi: 0,
            prev_br: 0,
            prev_time: 0,
        }
    }

    fn start_chunk(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: stale entries could look current, so clear them once every 2^32 chunks.
            self.table
                .iter_mut()
                .for_each(|p| *p = Prediction::default());
            self.generation = 1;
        }
        self.prev_bb = u32::MAX;
        self.prev_mi = u32::MAX;
        self.expected_mi = 0;
        self.prev_br = 0;
        self.prev_time = 0;
    }

    /// The predicted address of `mi` (0 when not yet seen in this chunk).
    #[inline(always)]
    fn entry(&mut self, mi: u32) -> &mut Prediction {
        let i = mi as usize;
        if i >= self.table.len() {
            // Only for modules registered after the encoder was sized (dlopen); amortised.
            self.table
                .resize((i + 1).next_power_of_two(), Prediction::default());
        }
        let generation = self.generation;
        let e = &mut self.table[i];
        if e.generation != generation {
            *e = Prediction {
                generation,
                ..Prediction::default()
            };
        }
        e
    }

    /// The instruction expected to access next (cached; see [`Predictor::access`]).
    #[inline(always)]
    fn expected_mi(&self) -> u32 {
        self.expected_mi
    }

    /// One access by `mi`: `actual(predicted)` gives the real address (the encoder knows it, the
    /// decoder adds the coded delta). Learns the stride, the successor of the previous
    /// instruction, and the next expected instruction, with one table lookup for `mi`.
    #[inline(always)]
    fn access(&mut self, mi: u32, actual: impl FnOnce(u64) -> u64) -> (u64, u64) {
        if self.prev_mi != u32::MAX {
            // The previous entry was touched in this chunk, so it is current: no generation check.
            let prev = self.prev_mi as usize;
            self.table[prev].next_plus_one = mi.wrapping_add(1);
        }
        let e = self.entry(mi);
        let predicted = e.last.wrapping_add(e.stride);
        let addr = actual(predicted);
        // A first sighting in this chunk has no stride yet.
        e.stride = if e.last == 0 {
            0
        } else {
            addr.wrapping_sub(e.last)
        };
        e.last = addr;
        let expected = match e.next_plus_one {
            0 => mi.wrapping_add(1),
            n => n - 1,
        };
        self.expected_mi = expected;
        self.prev_mi = mi;
        (predicted, addr)
    }
}

#[inline(always)]
fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

#[inline(always)]
fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[inline(always)]
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The value of the EXT record at `at`, if there is one.
#[inline(always)]
fn ext_value(events: &[RawEvent], at: usize) -> Option<u64> {
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
    pub fn append(&mut self, events: &[RawEvent]) {
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
            if e.head == (TAG_ACCESS as u64) << 56 | p.expected_mi as u64 {
                let generation = p.generation;
                let mut expected = p.expected_mi;
                let mut prev = p.prev_mi;
                let table = &mut p.table[..];
                let mut j = i;
                while j < events.len() {
                    let e = events[j];
                    if e.head != (TAG_ACCESS as u64) << 56 | expected as u64 {
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

/// Why a payload failed to decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset in the (decompressed) payload.
    pub offset: usize,
    /// What was wrong.
    pub what: String,
}

/// Decodes events chunk payloads. `mem_instr_sizes[mi]` gives each instruction's static access
/// size (from the metadata); an id outside the table is an error (the trace and its metadata
/// disagree).
pub struct ChunkDecoder {
    predictor: Predictor,
}

struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    #[inline(always)]
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or_else(|| self.err("payload ends inside an event"))?;
        self.pos += 1;
        Ok(b)
    }
    #[inline(always)]
    fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift == 63 && b > 1 {
                return Err(self.err("varint overflows 64 bits"));
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
            shift += 7;
            if shift > 63 {
                return Err(self.err("varint longer than 10 bytes"));
            }
        }
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| self.err("id does not fit 32 bits"))
    }
    fn err(&self, what: &str) -> DecodeError {
        DecodeError {
            offset: self.pos,
            what: what.to_string(),
        }
    }
}

impl ChunkDecoder {
    /// A decoder sized for `mem_instrs` memory instructions.
    pub fn new(mem_instrs: usize) -> Self {
        ChunkDecoder {
            predictor: Predictor::new(mem_instrs),
        }
    }

    /// Decodes a payload, calling the visitor for every event; returns the number of events.
    pub fn decode(
        &mut self,
        payload: &[u8],
        mem_instr_sizes: &[u32],
        v: &mut impl EventVisitor,
    ) -> Result<u64, DecodeError> {
        let p = &mut self.predictor;
        p.start_chunk();
        let mut c = Cursor {
            data: payload,
            pos: 0,
        };
        let mut count = 0u64;
        let size_of = |c: &Cursor, mi: u32| {
            mem_instr_sizes
                .get(mi as usize)
                .copied()
                .ok_or_else(|| c.err(&format!("memory instruction {mi} is not in the metadata")))
        };
        while c.pos < payload.len() {
            let b = c.byte()?;
            match b {
                0x00..=0x3f => {
                    for _ in 0..=b {
                        let mi = p.expected_mi();
                        // Checked before `access`, which would grow the table to a corrupt id.
                        let len = size_of(&c, mi)? as u64;
                        let (_, addr) = p.access(mi, |predicted| predicted);
                        v.access(mi, addr, len);
                        count += 1;
                    }
                    continue;
                }
                OP_ACCESS | OP_RANGE => {
                    let dmi = unzigzag(c.varint()?) as i32 as u32;
                    let mi = p.expected_mi().wrapping_add(dmi);
                    let static_len = size_of(&c, mi)? as u64;
                    let daddr = unzigzag(c.varint()?) as u64;
                    let (_, addr) = p.access(mi, |predicted| predicted.wrapping_add(daddr));
                    let len = if b == OP_RANGE {
                        c.varint()?
                    } else {
                        static_len
                    };
                    v.access(mi, addr, len);
                }
                OP_BLOCK => {
                    let d = unzigzag(c.varint()?) as i32 as u32;
                    p.prev_bb = p.prev_bb.wrapping_add(1).wrapping_add(d);
                    v.block(p.prev_bb);
                }
                0x80..=0xbf => {
                    let d = (b & 0x3f) as i32 - 32;
                    p.prev_bb = p.prev_bb.wrapping_add(1).wrapping_add(d as u32);
                    v.block(p.prev_bb);
                }
                0xc0..=0xff => {
                    let d = (b & 0x1f) as i32 - 16;
                    p.prev_br = p.prev_br.wrapping_add(d as u32);
                    v.branch(p.prev_br, ((b >> 5) & 1) as u32);
                }
                OP_BRANCH => {
                    let d = unzigzag(c.varint()?) as i32 as u32;
                    p.prev_br = p.prev_br.wrapping_add(d);
                    let outcome = c.u32()?;
                    v.branch(p.prev_br, outcome);
                }
                OP_FORK => v.other(Event::Fork { region: c.u32()? }),
                OP_JOIN => v.other(Event::Join { region: c.u32()? }),
                OP_REGION_EXIT => v.other(Event::RegionExit { region: c.u32()? }),
                OP_WS_FINI => v.other(Event::WorkshareFini { ws: c.u32()? }),
                OP_REGION_ENTER => {
                    let region = c.u32()?;
                    let omp_thread = c.u32()?;
                    let team_size = c.u32()?;
                    v.other(Event::RegionEnter {
                        region,
                        omp_thread,
                        team_size,
                    });
                }
                OP_WS_INIT => {
                    let ws = c.u32()?;
                    let schedule = unzigzag(c.varint()?) as i32;
                    let mut vals = [0i64; 5];
                    for x in vals.iter_mut() {
                        *x = unzigzag(c.varint()?);
                    }
                    let [lower, upper, stride, incr, chunk] = vals;
                    v.other(Event::WorkshareInit {
                        ws,
                        schedule,
                        lower,
                        upper,
                        stride,
                        incr,
                        chunk,
                    });
                }
                OP_WS_NEXT => {
                    let ws = c.u32()?;
                    let more = c.varint()? != 0;
                    let lower = unzigzag(c.varint()?);
                    let upper = unzigzag(c.varint()?);
                    v.other(Event::WorkshareNext {
                        ws,
                        more,
                        lower,
                        upper,
                    });
                }
                OP_BARRIER => v.other(Event::Barrier),
                OP_STAMP => {
                    p.prev_time = p.prev_time.wrapping_add(unzigzag(c.varint()?) as u64);
                    v.other(Event::Stamp { time: p.prev_time });
                }
                other => {
                    c.pos -= 1;
                    return Err(c.err(&format!("unknown event opcode 0x{other:02x}")));
                }
            }
            count += 1;
        }
        Ok(count)
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
            Event::Stamp { time } => out.push(RawEvent::new(TAG_STAMP, 0, 0, time)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of `docs/trace-format.md`: two iterations of a loop block with two
    /// strided accesses, then a third iteration that is fully predicted.
    #[test]
    fn worked_example_bytes() {
        let mut raw = Vec::new();
        for i in 0..3u64 {
            raw.push(RawEvent::new(TAG_BLOCK, 0, 3, 0));
            raw.push(RawEvent::new(TAG_ACCESS, 0, 0, 0x1000 + 8 * i));
            raw.push(RawEvent::new(TAG_ACCESS, 0, 1, 0x2000 + 8 * i));
            raw.push(RawEvent::new(TAG_BRANCH, 0, 0, 0));
        }
        let mut enc = ChunkEncoder::new(2, 64);
        let (bytes, count) = enc.encode(&raw);
        assert_eq!(count, 12);
        assert_eq!(
            bytes,
            [
                0xa3, 0x40, 0x00, 0x80, 0x40, 0x40, 0x00, 0x80, 0x80, 0x01,
                0xd0, // iteration 0
                0x9f, 0x40, 0x03, 0x10, 0x40, 0x00, 0x10, 0xd0, // iteration 1
                0x9f, 0x01, 0xd0, // iteration 2: a run of two predicted accesses
            ]
        );
        let mut events = Vec::new();
        ChunkDecoder::new(2)
            .decode(bytes, &[8, 8], &mut events)
            .unwrap();
        assert_eq!(events.len(), 12);
        assert_eq!(
            events[10],
            Event::Access {
                mi: 1,
                addr: 0x2010,
                len: 8
            }
        );
    }

    #[test]
    fn appending_in_pieces_equals_encoding_at_once() {
        let mut raw = Vec::new();
        for i in 0..500u64 {
            raw.push(RawEvent::new(TAG_BLOCK, 0, (i % 3) as u32, 0));
            raw.push(RawEvent::new(TAG_ACCESS, 0, (i % 2) as u32, 0x1000 + 8 * i));
            raw.push(RawEvent::new(TAG_ACCESS_RANGE, 0, 2, 0x9000 + i));
            raw.push(RawEvent::new(TAG_EXT, 0, 0, 24));
            raw.push(RawEvent::new(TAG_BRANCH, 0, 0, i % 2));
        }
        let mut whole = ChunkEncoder::new(3, 64);
        let (bytes, n) = whole.encode(&raw);
        let (bytes, n) = (bytes.to_vec(), n);
        let mut pieces = ChunkEncoder::new(3, 64);
        // Cut only between events (a ranged access and its EXT record stay together).
        for part in raw.chunks(5) {
            pieces.append(part);
        }
        let (payload, count) = pieces.take_chunk(Vec::new());
        assert_eq!((payload, count), (bytes, n));
        assert_eq!(pieces.chunk_events(), 0, "take_chunk starts a new chunk");
    }

    #[test]
    fn corrupt_ids_are_errors_not_allocations() {
        // An access whose instruction id is far outside the metadata.
        let payload = [OP_ACCESS, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00];
        let err = ChunkDecoder::new(2)
            .decode(&payload, &[8, 8], &mut Vec::new())
            .unwrap_err();
        assert!(err.what.contains("not in the metadata"), "{err:?}");
        let err = ChunkDecoder::new(2)
            .decode(&[0x4f], &[8], &mut Vec::new())
            .unwrap_err();
        assert!(err.what.contains("unknown event opcode 0x4f"), "{err:?}");
        let err = ChunkDecoder::new(2)
            .decode(&[OP_ACCESS, 0x80], &[8], &mut Vec::new())
            .unwrap_err();
        assert!(err.what.contains("ends inside"), "{err:?}");
    }
}
