//! One thread of an rdtools trace: chunk `g` is trace chunks `[K·g, K·(g+1))` of the thread in
//! sequence order, K trace chunks holding about S events.

use crate::ChunkSource;
use rdengines::Granularity;
use rdtrace::reader::EventChunkRef;
use rdtrace::{EventVisitor, Trace};

/// One thread of an rdtools trace sliced by its chunk index.
pub struct TraceSource<'t> {
    trace: &'t Trace,
    chunks: Vec<EventChunkRef>,
    /// Trace chunks per rank chunk.
    per: usize,
    /// Mean events per trace chunk.
    mean_events: u64,
    gran: Granularity,
}

impl<'t> TraceSource<'t> {
    /// Thread `thread` of `trace` as chunks of about `chunk` events (whole trace chunks).
    pub fn new(trace: &'t Trace, thread: u32, chunk: u64, gran: Granularity) -> Self {
        let chunks: Vec<EventChunkRef> = trace
            .event_chunks()
            .iter()
            .filter(|c| c.thread == thread)
            .copied()
            .collect();
        let events: u64 = chunks.iter().map(|c| c.events as u64).sum();
        let mean = events.div_ceil(chunks.len().max(1) as u64).max(1);
        TraceSource {
            trace,
            chunks,
            per: chunk.div_ceil(mean).max(1) as usize,
            mean_events: mean,
            gran,
        }
    }
}

/// Collects the blocks of every access of a chunk.
struct Blocks<'a> {
    out: &'a mut Vec<u64>,
    gran: Granularity,
}

impl EventVisitor for Blocks<'_> {
    fn access(&mut self, _mi: u32, addr: u64, len: u64) {
        let out = &mut *self.out;
        self.gran.for_each_block(addr, len, |b| out.push(b));
    }
}

impl ChunkSource for TraceSource<'_> {
    fn chunks(&self) -> u64 {
        self.chunks.len().div_ceil(self.per) as u64
    }

    fn chunk_refs(&self) -> u64 {
        // Accesses that span several blocks give more; they only make some sends blocking.
        (self.per as u64).saturating_mul(self.mean_events)
    }

    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String> {
        let start = index as usize * self.per;
        let end = (start + self.per).min(self.chunks.len());
        let mut reader = self.trace.chunk_reader().map_err(|e| e.to_string())?;
        let mut blocks = Blocks {
            out,
            gran: self.gran,
        };
        for c in &self.chunks[start..end] {
            reader
                .visit_chunk(c, &mut blocks)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
