//! Floor chunks: the entries a live stream's writer publishes for parked and exited threads, so
//! that a live merge is not held back by them, and their framing. The format and what an entry
//! promises are in the module documentation of [`crate::stream`].

use crate::chunk::{Codec, CHUNK_HEADER_LEN, CHUNK_MAGIC};

/// Chunk kind byte of a floor chunk (streams only).
pub const FLOOR_KIND: u8 = 6;
/// Bytes per floor entry.
pub const FLOOR_ENTRY_LEN: usize = 16;
/// Floor time of a thread that has ended.
pub const ENDED: u64 = u64::MAX;

/// One floor entry; see the floor chunk format in [`crate::stream`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Floor {
    /// Runtime thread index.
    pub thread: u32,
    /// Number of chunks the thread had handed to the writer when the floor was taken.
    pub next_seq: u32,
    /// Lower bound of the thread's later merge keys ([`ENDED`]: no later chunk).
    pub time: u64,
}

/// Frames a floor chunk holding `floors` into `out` (cleared first).
pub fn frame_floors(out: &mut Vec<u8>, floors: &[Floor]) {
    out.clear();
    out.resize(CHUNK_HEADER_LEN, 0);
    for f in floors {
        out.extend_from_slice(&f.thread.to_le_bytes());
        out.extend_from_slice(&f.next_seq.to_le_bytes());
        out.extend_from_slice(&f.time.to_le_bytes());
    }
    let len = (out.len() - CHUNK_HEADER_LEN) as u32;
    let mut h = [0u8; CHUNK_HEADER_LEN];
    h[..4].copy_from_slice(&CHUNK_MAGIC);
    h[4] = FLOOR_KIND;
    h[5] = Codec::Raw as u8;
    h[16..20].copy_from_slice(&len.to_le_bytes());
    h[20..24].copy_from_slice(&len.to_le_bytes());
    h[24..28].copy_from_slice(&(floors.len() as u32).to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..28]);
    crc.update(&out[CHUNK_HEADER_LEN..]);
    h[28..32].copy_from_slice(&crc.finalize().to_le_bytes());
    out[..CHUNK_HEADER_LEN].copy_from_slice(&h);
}
