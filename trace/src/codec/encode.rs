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
            Event::Stamp { time } => out.push(RawEvent::new(TAG_STAMP, 0, 0, time)),
        }
    }
}
