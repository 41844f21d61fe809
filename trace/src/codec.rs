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
    /// Events delivered to the visitor before the bad one (all of them passed every check).
    pub events: u64,
    /// What was wrong.
    pub what: String,
}

/// Largest length a ranged access (memcpy/memmove/memset) may carry: 1 GiB. A longer range is
/// reported as corrupt rather than handed to analyses, which touch every line of a range.
pub const MAX_RANGE_LEN: u64 = 1 << 30;

/// What the metadata allows an event to name. The decoder checks every decoded id, outcome and
/// length against it before the event reaches a visitor, so analyses may index their metadata
/// tables with any id they are given (see `docs/trace-format.md`, "What the reader validates").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventBounds {
    /// Static access size of each memory instruction (0: a ranged instruction, whose length
    /// comes with each event).
    pub mem_instr_sizes: Vec<u32>,
    /// Number of outcomes (successors) of each branch.
    pub branch_outcomes: Vec<u32>,
    /// Number of basic blocks.
    pub blocks: u32,
    /// Number of OpenMP parallel regions.
    pub regions: u32,
    /// Number of worksharing loops.
    pub workshares: u32,
}

impl EventBounds {
    /// The bounds a program's merged metadata sets.
    pub fn of(meta: &crate::meta::ProgramMeta) -> Self {
        EventBounds {
            mem_instr_sizes: meta.mem_instrs.iter().map(|m| m.size).collect(),
            branch_outcomes: meta
                .branches
                .iter()
                .map(|b| b.successors.len() as u32)
                .collect(),
            blocks: meta.blocks.len() as u32,
            regions: meta.regions.len() as u32,
            workshares: meta.workshares.len() as u32,
        }
    }
}

/// Decodes events chunk payloads, validating every event against [`EventBounds`]: an id
/// outside the metadata, a branch outcome the branch does not have, a range longer than
/// [`MAX_RANGE_LEN`] or more events than the chunk header announced are errors, reported
/// before the offending event reaches the visitor.
pub struct ChunkDecoder {
    predictor: Predictor,
}

struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    /// Events delivered so far (for [`DecodeError::events`]).
    count: u64,
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
    /// An id of `kind` that must be below `count`.
    fn id(&mut self, kind: &str, count: u32) -> Result<u32, DecodeError> {
        let id = self.u32()?;
        self.check_id(kind, id, count)
    }
    #[inline(always)]
    fn check_id(&self, kind: &str, id: u32, count: u32) -> Result<u32, DecodeError> {
        if id < count {
            Ok(id)
        } else {
            Err(self.err(&format!(
                "{kind} {id} is not in the metadata ({count} known)"
            )))
        }
    }
    fn err(&self, what: &str) -> DecodeError {
        DecodeError {
            offset: self.pos,
            events: self.count,
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
    /// More than `max_events` events is an error (the header's count bounds the work a corrupt
    /// payload can cause: a run byte stands for up to 64 accesses).
    pub fn decode(
        &mut self,
        payload: &[u8],
        bounds: &EventBounds,
        max_events: u64,
        v: &mut impl EventVisitor,
    ) -> Result<u64, DecodeError> {
        let p = &mut self.predictor;
        p.start_chunk();
        let mut c = Cursor {
            data: payload,
            pos: 0,
            count: 0,
        };
        let sizes = &bounds.mem_instr_sizes;
        let size_of = |c: &Cursor, mi: u32| {
            sizes.get(mi as usize).copied().ok_or_else(|| {
                c.err(&format!(
                    "memory instruction {mi} is not in the metadata ({} known)",
                    sizes.len()
                ))
            })
        };
        while c.pos < payload.len() {
            let b = c.byte()?;
            if c.count >= max_events {
                c.pos -= 1;
                return Err(c.err(&format!(
                    "more events than the {max_events} the chunk header announces"
                )));
            }
            match b {
                0x00..=0x3f => {
                    if c.count + b as u64 >= max_events {
                        c.pos -= 1;
                        return Err(c.err(&format!(
                            "a run of {} accesses overruns the {max_events} events the chunk header announces",
                            b as u64 + 1
                        )));
                    }
                    for _ in 0..=b {
                        let mi = p.expected_mi();
                        // Checked before `access`, which would grow the table to a corrupt id.
                        let len = size_of(&c, mi)? as u64;
                        let (_, addr) = p.access(mi, |predicted| predicted);
                        v.access(mi, addr, len);
                        c.count += 1;
                    }
                    continue;
                }
                OP_ACCESS | OP_RANGE => {
                    let dmi = unzigzag(c.varint()?) as i32 as u32;
                    let mi = p.expected_mi().wrapping_add(dmi);
                    // Ranges may name any instruction (tools write static accesses as ranges).
                    let static_len = size_of(&c, mi)? as u64;
                    let daddr = unzigzag(c.varint()?) as u64;
                    let len = if b == OP_RANGE {
                        let len = c.varint()?;
                        if len > MAX_RANGE_LEN {
                            return Err(c.err(&format!(
                                "ranged access of {len} bytes exceeds the {MAX_RANGE_LEN} byte limit"
                            )));
                        }
                        len
                    } else {
                        static_len
                    };
                    let (_, addr) = p.access(mi, |predicted| predicted.wrapping_add(daddr));
                    v.access(mi, addr, len);
                }
                OP_BLOCK => {
                    let d = unzigzag(c.varint()?) as i32 as u32;
                    let bb = p.prev_bb.wrapping_add(1).wrapping_add(d);
                    p.prev_bb = c.check_id("block", bb, bounds.blocks)?;
                    v.block(bb);
                }
                0x80..=0xbf => {
                    let d = (b & 0x3f) as i32 - 32;
                    let bb = p.prev_bb.wrapping_add(1).wrapping_add(d as u32);
                    p.prev_bb = c.check_id("block", bb, bounds.blocks)?;
                    v.block(bb);
                }
                0xc0..=0xff | OP_BRANCH => {
                    let (br, outcome) = if b == OP_BRANCH {
                        let d = unzigzag(c.varint()?) as i32 as u32;
                        (p.prev_br.wrapping_add(d), c.u32()?)
                    } else {
                        let d = (b & 0x1f) as i32 - 16;
                        (p.prev_br.wrapping_add(d as u32), ((b >> 5) & 1) as u32)
                    };
                    let outcomes = bounds.branch_outcomes.get(br as usize).copied();
                    let Some(outcomes) = outcomes else {
                        return Err(c.err(&format!(
                            "branch {br} is not in the metadata ({} known)",
                            bounds.branch_outcomes.len()
                        )));
                    };
                    if outcome >= outcomes {
                        return Err(c.err(&format!(
                            "branch {br} has {outcomes} successors, the event says outcome {outcome}"
                        )));
                    }
                    p.prev_br = br;
                    v.branch(br, outcome);
                }
                OP_FORK => v.other(Event::Fork {
                    region: c.id("region", bounds.regions)?,
                }),
                OP_JOIN => v.other(Event::Join {
                    region: c.id("region", bounds.regions)?,
                }),
                OP_REGION_EXIT => v.other(Event::RegionExit {
                    region: c.id("region", bounds.regions)?,
                }),
                OP_WS_FINI => v.other(Event::WorkshareFini {
                    ws: c.id("worksharing loop", bounds.workshares)?,
                }),
                OP_REGION_ENTER => {
                    let region = c.id("region", bounds.regions)?;
                    let omp_thread = c.u32()?;
                    let team_size = c.u32()?;
                    if omp_thread >= team_size {
                        return Err(c.err(&format!(
                            "region enter as OpenMP thread {omp_thread} of a team of {team_size}"
                        )));
                    }
                    v.other(Event::RegionEnter {
                        region,
                        omp_thread,
                        team_size,
                    });
                }
                OP_WS_INIT => {
                    let ws = c.id("worksharing loop", bounds.workshares)?;
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
                    let ws = c.id("worksharing loop", bounds.workshares)?;
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
            c.count += 1;
        }
        Ok(c.count)
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
        let bounds = EventBounds {
            mem_instr_sizes: vec![8, 8],
            branch_outcomes: vec![2],
            blocks: 4,
            ..Default::default()
        };
        ChunkDecoder::new(2)
            .decode(bytes, &bounds, 12, &mut events)
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

    /// Bounds of a tiny program: two 8-byte instructions and one ranged one, three blocks, a
    /// two-way branch, one region, one worksharing loop.
    fn small() -> EventBounds {
        EventBounds {
            mem_instr_sizes: vec![8, 8, 0],
            branch_outcomes: vec![2],
            blocks: 3,
            regions: 1,
            workshares: 1,
        }
    }

    fn decode_err(payload: &[u8]) -> DecodeError {
        ChunkDecoder::new(3)
            .decode(payload, &small(), 1000, &mut Vec::new())
            .unwrap_err()
    }

    #[test]
    fn corrupt_ids_are_errors_not_allocations() {
        // An access whose instruction id is far outside the metadata.
        let err = decode_err(&[OP_ACCESS, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00]);
        assert!(err.what.contains("not in the metadata"), "{err:?}");
        let err = decode_err(&[0x4f]);
        assert!(err.what.contains("unknown event opcode 0x4f"), "{err:?}");
        let err = decode_err(&[OP_ACCESS, 0x80]);
        assert!(err.what.contains("ends inside"), "{err:?}");
    }

    /// Issue 10: every id, outcome and length is checked before the visitor sees the event, and
    /// the error says how many good events came before it.
    #[test]
    fn issue10_decoder_rejects_what_the_metadata_does_not_allow() {
        let cases: &[(&[u8], &str)] = &[
            // Block 3 of 3 (short form: prev -1, delta 3 -> 0x80 | 35).
            (&[0x80 | 35], "block 3 is not in the metadata"),
            (&[OP_BLOCK, 0x0a], "block 5 is not in the metadata"),
            // Branch 1 of 1 (short form, br = 0 + 17 - 16).
            (&[0xc0 | 17], "branch 1 is not in the metadata"),
            (&[OP_BRANCH, 0x00, 0x02], "branch 0 has 2 successors"),
            (&[OP_FORK, 0x01], "region 1 is not in the metadata"),
            (&[OP_JOIN, 0x07], "region 7"),
            (&[OP_REGION_EXIT, 0x02], "region 2"),
            (
                &[OP_REGION_ENTER, 0x00, 0x04, 0x04],
                "OpenMP thread 4 of a team of 4",
            ),
            (
                &[OP_REGION_ENTER, 0x00, 0x00, 0x00],
                "OpenMP thread 0 of a team of 0",
            ),
            (&[OP_WS_FINI, 0x01], "worksharing loop 1"),
            (&[OP_WS_NEXT, 0x09, 0, 0, 0], "worksharing loop 9"),
            (&[OP_WS_INIT, 0x03, 0, 0, 0, 0, 0, 0], "worksharing loop 3"),
            // A range by instruction 2 of 2^40 bytes: expected 0, so dmi = z(2) = 4.
            (
                &[OP_RANGE, 0x04, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20],
                "exceeds the 1073741824 byte limit",
            ),
        ];
        for (payload, want) in cases {
            let err = decode_err(payload);
            assert!(err.what.contains(want), "{payload:02x?}: {err:?}");
            assert_eq!(err.events, 0, "{payload:02x?}");
        }
        // Good events before the bad one are delivered and counted.
        let mut events = Vec::new();
        let err = ChunkDecoder::new(3)
            .decode(&[0xa0, 0xa0, 0x80 | 35], &small(), 10, &mut events)
            .unwrap_err();
        assert_eq!(events, vec![Event::Block { bb: 0 }, Event::Block { bb: 1 }]);
        assert_eq!(err.events, 2);
        // A range of exactly the limit is fine.
        let mut events = Vec::new();
        ChunkDecoder::new(3)
            .decode(
                &[OP_RANGE, 0x04, 0x00, 0x80, 0x80, 0x80, 0x80, 0x04],
                &small(),
                1,
                &mut events,
            )
            .unwrap();
        assert_eq!(
            events,
            vec![Event::Access {
                mi: 2,
                addr: 0,
                len: MAX_RANGE_LEN
            }]
        );
    }

    /// Issue 10: a payload cannot make the decoder do more work than the header's event count
    /// (a flipped count or a payload of run bytes would otherwise mean billions of visits).
    #[test]
    fn issue10_event_count_bounds_decoding() {
        // Instruction 0 then a run: 1 + 64 events, header says 10.
        let err = ChunkDecoder::new(3)
            .decode(&[OP_ACCESS, 0, 0x10, 0x3f], &small(), 10, &mut Vec::new())
            .unwrap_err();
        assert!(err.what.contains("overruns the 10 events"), "{err:?}");
        assert_eq!(err.events, 1);
        let err = ChunkDecoder::new(3)
            .decode(&[OP_BARRIER, OP_BARRIER], &small(), 1, &mut Vec::new())
            .unwrap_err();
        assert!(err.what.contains("more events than the 1"), "{err:?}");
    }
}
