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

impl MergedEvents<'_> {
    /// Visits every remaining event with `v` in the merged order, calling `thread` with the
    /// thread index whenever it changes and `progress` with the number of events visited since
    /// its last call (about every 2^16). A segment's events after its first are visited
    /// straight from the decoded chunk ([`Merge::rest_of_segment`]), not one `Result` at a time.
    pub fn visit_all<V: EventVisitor>(
        &mut self,
        v: &mut V,
        mut thread: impl FnMut(&mut V, u32),
        mut progress: impl FnMut(u64),
    ) -> Result<()> {
        let mut last = None;
        let mut n = 0u64;
        while let Some((t, first)) = self.merge.next(&mut self.source)? {
            if last != Some(t) {
                thread(v, t);
                last = Some(t);
            }
            first.visit(v);
            let (_, rest) = self.merge.rest_of_segment();
            for &e in rest {
                e.visit(v);
            }
            n += 1 + rest.len() as u64;
            if n >= 1 << 16 {
                progress(n);
                n = 0;
            }
        }
        progress(n);
        Ok(())
    }
}

impl Iterator for MergedEvents<'_> {
    type Item = Result<(u32, Event)>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.merge.next(&mut self.source).transpose()
    }
}
