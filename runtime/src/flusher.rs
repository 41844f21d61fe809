//! Writing a finished chunk payload: compressed and framed normally, or header and payload as
//! they are from a signal handler (no compression context, no allocation).

use crate::{config, output};
use rdtrace::chunk::{chunk_header, frame_chunk, ChunkKind, Codec};

/// Writes an events chunk uncompressed: the header, then the payload (two writes under the file
/// lock, so no buffer has to be allocated or grown).
pub fn write_raw_chunk(thread: u32, seq: u32, payload: &[u8], count: u32, from_signal: bool) {
    let header = chunk_header(
        ChunkKind::Events,
        Codec::Raw,
        thread,
        seq,
        payload,
        payload.len() as u32,
        count,
    );
    output::write_parts(&[&header, payload], from_signal);
}

/// A zstd context and a frame buffer, reused for every chunk it writes.
pub struct Compressor {
    frame: Vec<u8>,
    /// Scratch of `thread::publish_floors` after each chunk of a live stream, reused so that
    /// publishing allocates only while it grows.
    pub floors: Vec<rdtrace::stream::Floor>,
    zstd: Option<zstd::bulk::Compressor<'static>>,
}

impl Compressor {
    /// A compressor at the configured level (level 0: chunks are stored raw) for payloads of
    /// at most `max_payload_bytes`.
    pub fn new(max_payload_bytes: usize) -> Compressor {
        let level = config::get().zstd_level;
        // Room for the largest chunk's compressed frame, so framing never grows it (the writer
        // must not allocate in its steady state; see `writer`).
        let bound = zstd::zstd_safe::compress_bound(max_payload_bytes);
        Compressor {
            frame: Vec::with_capacity(rdtrace::chunk::CHUNK_HEADER_LEN + bound),
            floors: Vec::new(),
            zstd: (level > 0)
                .then(|| zstd::bulk::Compressor::new(level).ok())
                .flatten(),
        }
    }

    /// Compresses, frames and writes one events chunk.
    pub fn write(&mut self, thread: u32, seq: u32, payload: &[u8], count: u32) {
        self.compress(thread, seq, payload, count);
        self.write_compressed();
    }

    /// Compresses and frames one events chunk into the frame buffer (no system call; zstd may
    /// allocate, e.g. when a chunk needs a larger workspace than the ones before it).
    pub fn compress(&mut self, thread: u32, seq: u32, payload: &[u8], count: u32) {
        frame_chunk(
            &mut self.frame,
            ChunkKind::Events,
            thread,
            seq,
            payload,
            count,
            self.zstd.as_mut(),
        );
    }

    /// Writes the chunk framed by [`Compressor::compress`] (allocates nothing).
    pub fn write_compressed(&mut self) {
        output::write_parts(&[&self.frame], false);
    }
}
