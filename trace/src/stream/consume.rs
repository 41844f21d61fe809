//! Consuming the chunks read: decoding each thread's chunks in sequence order, either per
//! thread as they arrive or through the stamp-order merge, for which the stream is the
//! [`ChunkSource`].

use super::floor::ENDED;
use super::{LiveTrace, StoredChunk};
use crate::error::{Result, TraceError};
use crate::event::{Event, EventVisitor};
use crate::source::{ChunkSource, Pull};
use crate::work::Touching;

impl LiveTrace<'_> {
    /// Decodes chunk `c` into `v`; refuses it when the trace's accesses then touch more than
    /// the bound allows for the bytes read so far (see [`crate::work`]).
    fn decode(&mut self, c: &StoredChunk, v: &mut impl EventVisitor) -> Result<u64> {
        let mut touching = Touching::new(v);
        let n = self
            .decoding
            .decode(&c.header, &c.stored, &self.bounds, c.events, &mut touching)
            .map_err(|bad| self.corrupt(c.offset, bad.what))?;
        touching.add_to(&mut self.stats.touched);
        self.stats.touched.trace_bytes = self.stats.bytes_read;
        if self.max_touched.exceeded(&self.stats.touched) {
            return Err(TraceError::TooMuchWork {
                path: self.name.clone(),
                touched: self.stats.touched,
                limit: self.max_touched,
            });
        }
        self.pending_bytes -= c.stored.len() as u64;
        self.pending_events -= n;
        Ok(n)
    }

    /// Takes the next chunk of thread slot `i` in sequence order, if it is here (after the end
    /// of input, skipping gaps with a warning, as the offline reader does).
    fn take_next(&mut self, i: usize) -> Option<StoredChunk> {
        let finished = self.finished;
        let th = &mut self.threads[i];
        if let Some(c) = th.pending.remove(&th.next_seq) {
            th.next_seq += 1;
            return Some(c);
        }
        if finished {
            let (&seq, _) = th.pending.iter().next()?;
            let c = th.pending.remove(&seq)?;
            let w = format!(
                "{}: thread {} chunk at offset {} has sequence number {seq} where {} was expected; events are missing",
                self.name.display(),
                th.id,
                c.offset,
                th.next_seq
            );
            th.next_seq = seq + 1;
            self.warnings.push(w);
            return Some(c);
        }
        None
    }

    /// Decodes the next chunk of some thread whose earlier chunks have all been decoded, into
    /// `events` (cleared first), reading input as needed. Returns the thread, or `None` at the
    /// end. Threads' chunks interleave as they arrive; each thread's come in sequence order, so
    /// a per-thread analysis never waits for another thread. Not to be mixed with
    /// [`LiveTrace::next_merged`].
    pub fn next_thread_chunk(&mut self, events: &mut Vec<Event>) -> Result<Option<u32>> {
        events.clear();
        loop {
            for i in 0..self.threads.len() {
                if self.threads[i].pending.is_empty() {
                    continue;
                }
                if let Some(c) = self.take_next(i) {
                    self.decode(&c, events)?;
                    return Ok(Some(self.threads[i].id));
                }
            }
            if !self.read_chunk()? && self.threads.iter().all(|th| th.pending.is_empty()) {
                return Ok(None);
            }
        }
    }

    /// The floor of thread slot `i` when it applies now: the stream is trusted, and the floor
    /// was taken after the chunks the reader has decoded (none of the thread's events is
    /// missing).
    fn floor_of(&self, i: usize) -> Option<u64> {
        let th = &self.threads[i];
        match th.floor {
            Some((seq, time)) if self.floors_trusted && seq == th.next_seq => Some(time),
            _ => None,
        }
    }

    /// The next `(thread, event)` of the run in the order [`crate::Trace::merged`] gives for the
    /// same trace (the same [`Merge`](crate::merge::Merge)), reading input as needed; `None` at
    /// the end. See the module documentation of [`crate::stream`] for how far it may lag. Not to
    /// be mixed with [`LiveTrace::next_thread_chunk`].
    #[inline]
    pub fn next_merged(&mut self) -> Result<Option<(u32, Event)>> {
        if let Some(next) = self.merge.next_in_segment() {
            return Ok(Some(next));
        }
        // The merge reads from `self`: take it out meanwhile (once a segment, not an event).
        let mut merge = std::mem::take(&mut self.merge);
        let next = merge.next(self);
        self.merge = merge;
        next
    }
}

/// The stream as the merge's source: a thread waits while its next chunk has not arrived,
/// with its floor when one applies.
impl ChunkSource for LiveTrace<'_> {
    fn slots(&self) -> usize {
        self.threads.len()
    }

    fn thread_of(&self, slot: usize) -> u32 {
        self.threads[slot].id
    }

    fn start_time_of(&self, slot: usize) -> u64 {
        self.threads[slot].start_time
    }

    fn next_chunk(&mut self, slot: usize, events: &mut Vec<Event>) -> Result<Pull> {
        if let Some(c) = self.take_next(slot) {
            self.decode(&c, events)?;
            return Ok(Pull::Chunk);
        }
        let th = &self.threads[slot];
        let ended = th.floor == Some((th.next_seq, ENDED)) && th.pending.is_empty();
        if self.finished || ended {
            return Ok(Pull::End);
        }
        Ok(Pull::Wait(self.floor_of(slot)))
    }

    fn read_more(&mut self, held: u64) -> Result<()> {
        self.read_chunk_held(held)?;
        Ok(())
    }

    fn finished(&self) -> bool {
        self.finished
    }
}
