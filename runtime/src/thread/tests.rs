//! The signal path's per-record room bound, against the encoder.

use rdtrace::codec::ChunkEncoder;
use rdtrace::codec::MAX_BYTES_PER_RECORD as MAX_ENCODED_RECORD_BYTES;
use rdtrace::raw::*;

/// The signal path's room estimate holds: no mix of records (extreme ids and values,
/// multi-record events, runs of predicted accesses) encodes to more than
/// `MAX_ENCODED_RECORD_BYTES` per record plus the run bytes at the two ends.
#[test]
fn encoding_never_exceeds_the_per_record_bound() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..200 {
        let mut records = Vec::new();
        while records.len() < 4000 {
            let r = rnd();
            let id = if r & 1 == 0 {
                (r >> 8) as u32
            } else {
                (r >> 8) as u32 % 4
            };
            let v = if r & 2 == 0 {
                rnd()
            } else {
                0x1000 + 8 * records.len() as u64
            };
            match (r >> 2) % 12 {
                0..=3 => records.push(RawEvent::new(TAG_ACCESS, 0, id % 64, v)),
                4 => {
                    records.push(RawEvent::new(TAG_ACCESS_RANGE, 0, id % 64, v));
                    records.push(RawEvent::new(TAG_EXT, 0, 0, rnd()));
                }
                5 => records.push(RawEvent::new(TAG_BLOCK, 0, id, 0)),
                6 => records.push(RawEvent::new(TAG_BRANCH, 0, id, v)),
                7 => records.push(RawEvent::new(TAG_REGION_ENTER, 0, id, v)),
                8 => {
                    records.push(RawEvent::new(TAG_WS_INIT, (r >> 40) as u32, id, v));
                    for _ in 0..4 {
                        records.push(RawEvent::new(TAG_EXT, 0, 0, rnd()));
                    }
                }
                9 => {
                    records.push(RawEvent::new(TAG_WS_NEXT, 1, id, v));
                    records.push(RawEvent::new(TAG_EXT, 0, 0, rnd()));
                }
                10 => records.push(RawEvent::new(TAG_STAMP, 0, 0, v)),
                _ => records.push(RawEvent::new(TAG_FORK, 0, id, 0)),
            }
        }
        let mut enc = ChunkEncoder::new(64, 1 << 20);
        // Split like buffers: the bound must hold for each append into an open chunk.
        let split = 1 + round * 17 % records.len();
        let (a, b) = records.split_at(split);
        for part in [a, b] {
            let before = enc.chunk_bytes();
            enc.append(part);
            assert!(enc.chunk_bytes() - before <= MAX_ENCODED_RECORD_BYTES * part.len() + 2);
        }
        let (payload, _) = enc.finish_chunk();
        assert!(payload.len() <= MAX_ENCODED_RECORD_BYTES * records.len() + 2);
    }
}
