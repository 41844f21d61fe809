//! The reference encoder that tests compare [`ChunkEncoder::append`] against (tests only).

use super::encode::ext_value;
use super::*;
use crate::raw::*;

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
                TAG_LOOP_RUN => {
                    let (m, r) = ((e.aux() & 0xff) as usize, (e.aux() >> 8) as usize);
                    let accesses = events.get(i + 1..i + 1 + m);
                    let strides = events.get(i + 1 + m..i + 1 + m + r);
                    let whole = accesses
                        .is_some_and(|a| a.iter().all(|a| a.tag() == TAG_ACCESS && a.aux() == 0))
                        && strides.is_some_and(|x| x.iter().all(|x| x.tag() == TAG_EXT));
                    if !whole {
                        // Not all its records: skipped like an unknown record.
                        i += 1;
                        continue;
                    }
                    flush_run(out, &mut run);
                    out.push(OP_LOOP_RUN);
                    put_varint(out, zigzag(id.wrapping_sub(p.prev_br) as i32 as i64));
                    put_varint(out, e.value);
                    p.prev_br = id;
                    for a in &events[i + 1..i + 1 + m] {
                        let expected = p.expected_mi();
                        let (predicted, _) = p.access(a.id(), |_| a.value);
                        put_varint(out, zigzag(a.id().wrapping_sub(expected) as i32 as i64));
                        put_varint(out, zigzag(a.value.wrapping_sub(predicted) as i64));
                    }
                    for x in &events[i + 1 + m..i + 1 + m + r] {
                        put_varint(out, zigzag(x.value as i64));
                    }
                    i += m + r;
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
