//! A trace file's events chunks as a [`ChunkSource`] for the one stamp-order merge, and the
//! merged iterator over them ([`Trace::merged`], [`Trace::source`]).

use super::*;

/// One thread of a [`FileSource`].
pub(super) struct FileThread {
    pub(super) thread: u32,
    pub(super) start_time: u64,
    pub(super) chunks: Vec<EventChunkRef>,
    pub(super) next: usize,
}

/// A trace file's events chunks, each thread's in sequence order, as a [`ChunkSource`]: every
/// chunk is known up front, so it never waits.
pub struct FileSource<'t> {
    pub(super) reader: ChunkReader<'t>,
    pub(super) threads: Vec<FileThread>,
}

impl ChunkSource for FileSource<'_> {
    fn slots(&self) -> usize {
        self.threads.len()
    }

    fn thread_of(&self, slot: usize) -> u32 {
        self.threads[slot].thread
    }

    fn start_time_of(&self, slot: usize) -> u64 {
        self.threads[slot].start_time
    }

    fn next_chunk(&mut self, slot: usize, events: &mut Vec<Event>) -> Result<Pull> {
        let t = &mut self.threads[slot];
        let Some(c) = t.chunks.get(t.next) else {
            return Ok(Pull::End);
        };
        t.next += 1;
        self.reader.visit_chunk(c, events)?;
        Ok(Pull::Chunk)
    }

    fn read_more(&mut self, _held: u64) -> Result<()> {
        Ok(())
    }

    fn finished(&self) -> bool {
        true
    }
}

/// Iterator over `(thread, event)` in reconstructed global order; see [`Trace::merged`].
pub struct MergedEvents<'t> {
    pub(super) source: FileSource<'t>,
    pub(super) merge: Merge,
}

impl Iterator for MergedEvents<'_> {
    type Item = Result<(u32, Event)>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.merge.next(&mut self.source).transpose()
    }
}
