//! Turning a buffer of raw records into one written chunk: encode, compress (unless called
//! from a signal handler), frame, write.

use crate::{config, output};
use rdtrace::chunk::{frame_chunk, ChunkKind};
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::RawEvent;

/// Reusable encoding state; after warm-up, writing a chunk allocates nothing.
pub struct Flusher {
    encoder: ChunkEncoder,
    frame: Vec<u8>,
    zstd: Option<zstd::bulk::Compressor<'static>>,
}

impl Flusher {
    /// A flusher for buffers of `cap` records.
    pub fn new(cap: usize) -> Flusher {
        let level = config::get().zstd_level;
        Flusher {
            // Worst case is ~31 bytes per record; reserve generously so that a flush from a
            // signal handler does not need to grow the buffers.
            encoder: ChunkEncoder::new(crate::total_mem_instrs(), cap * 12),
            frame: Vec::with_capacity(cap * 12),
            zstd: (level > 0)
                .then(|| zstd::bulk::Compressor::new(level).ok())
                .flatten(),
        }
    }

    /// Encodes `events` and writes them as chunk `seq` of `thread`. `from_signal`: no
    /// compression, no growing of tables, bounded lock waits.
    pub fn write(&mut self, thread: u32, seq: u32, events: &[RawEvent], from_signal: bool) {
        if !from_signal {
            self.encoder.reserve_mem_instrs(crate::total_mem_instrs());
        }
        let (payload, count) = self.encoder.encode(events);
        let zstd = if from_signal {
            None
        } else {
            self.zstd.as_mut()
        };
        frame_chunk(
            &mut self.frame,
            ChunkKind::Events,
            thread,
            seq,
            payload,
            count,
            zstd,
        );
        output::write_all(&self.frame, from_signal);
    }
}
