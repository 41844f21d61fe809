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
//! | `0x4d` | gap | — |
//! | `0x4e` | loop run | `z(br - prev_br)`, `count << 1 \| exit`, then per memory instruction of the loop's block as `0x40` |
//! | `0x80-0xbf` | block with `bb = prev_bb + 1 + (b & 0x3f) - 32` | — |
//! | `0xc0-0xff` | branch with `outcome = (b >> 5) & 1`, `br = prev_br + (b & 0x1f) - 16` | — |

mod decode;
mod encode;
#[cfg(test)]
mod loop_run_tests;
mod loop_runs;
mod out;
mod periods;
mod predictor;
mod records;
#[cfg(test)]
mod reference;
mod to_raw;

pub use decode::{
    ChunkDecoder, DecodeError, DerivedAccesses, EventBounds, ImpliedBlocks, MAX_RANGE_LEN,
};
pub use encode::{append_room, ChunkEncoder, MAX_BYTES_PER_RECORD};
pub use loop_runs::LoopRuns;
pub use to_raw::to_raw;

pub(super) const RUN_MAX: u32 = 64;
pub(super) const OP_ACCESS: u8 = 0x40;
pub(super) const OP_RANGE: u8 = 0x41;
pub(super) const OP_BLOCK: u8 = 0x42;
pub(super) const OP_BRANCH: u8 = 0x43;
pub(super) const OP_FORK: u8 = 0x44;
pub(super) const OP_JOIN: u8 = 0x45;
pub(super) const OP_REGION_ENTER: u8 = 0x46;
pub(super) const OP_REGION_EXIT: u8 = 0x47;
pub(super) const OP_WS_INIT: u8 = 0x48;
pub(super) const OP_WS_NEXT: u8 = 0x49;
pub(super) const OP_WS_FINI: u8 = 0x4a;
pub(super) const OP_BARRIER: u8 = 0x4b;
pub(super) const OP_STAMP: u8 = 0x4c;
pub(super) const OP_GAP: u8 = 0x4d;
pub(super) const OP_LOOP_RUN: u8 = 0x4e;

#[inline(always)]
pub(super) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

#[inline(always)]
pub(super) fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
#[inline(always)]
pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::raw::*;

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
            implied: Default::default(),
            derived: Default::default(),
            loop_runs: Default::default(),
        }
    }

    pub(super) fn decode_err(payload: &[u8]) -> DecodeError {
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
