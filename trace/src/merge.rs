//! The one stamp-order merge of the threads' event streams, over any [`ChunkSource`].
//!
//! Each thread's stream is cut into *segments* at its stamps; a segment's key is its opening
//! stamp's time (the events before a thread's first stamp take the time the thread registered),
//! and segments go out in key order, ties by thread index, a thread's own in sequence. A
//! segment goes out whole: once its first event is out, its thread's events follow up to its
//! next stamp.
//!
//! A segment (key `k`) may go only once no thread can still deliver a smaller key: every known
//! thread outside the heap of waiting segments has its next event decoded, or has ended, or has
//! a floor above `k` ([`Pull::Wait`]`(Some(f))` with `f > k`). A file source never waits, so
//! this is the plain heap merge; a stream waits for input while a thread without a floor has
//! nothing yet (see [`crate::stream`] for the delay bound this gives).

use crate::error::Result;
use crate::event::Event;
use crate::source::{ChunkSource, Pull};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One thread's decoded chunk and the merge's position in it.
#[derive(Default)]
struct Cursor {
    thread: u32,
    events: Vec<Event>,
    pos: usize,
    exhausted: bool,
}

/// Whether a thread has an event ready.
enum Fill {
    Ready,
    Exhausted,
    Stalled(Option<u64>),
}

/// The state of a stamp-order merge; the source is handed to each call, so that its owner can
/// keep reading from it (a stream's metadata, per-thread reading) between calls.
#[derive(Default)]
pub struct Merge {
    /// By source slot.
    cursors: Vec<Cursor>,
    /// Segments ready to go: `(key, thread, slot)`.
    heap: BinaryHeap<Reverse<(u64, u32, usize)>>,
    /// The slot whose segment is going out.
    current: Option<usize>,
    /// Slots neither in the heap, nor current, nor exhausted: their next key is not known yet.
    unknown: Vec<usize>,
}

impl Merge {
    /// A merge that has emitted nothing yet.
    pub fn new() -> Self {
        Merge::default()
    }

    /// Decoded events held and not yet emitted.
    pub fn held(&self) -> u64 {
        self.cursors
            .iter()
            .map(|c| (c.events.len() - c.pos) as u64)
            .sum()
    }

    /// The next `(thread, event)` in stamp order, reading `source` as needed; `None` at the end.
    #[inline]
    pub fn next(&mut self, source: &mut impl ChunkSource) -> Result<Option<(u32, Event)>> {
        match self.next_in_segment() {
            Some(next) => Ok(Some(next)),
            None => self.next_slow(source),
        }
    }

    /// The fast path of [`Merge::next`]: the next event when it continues the current segment
    /// from the decoded chunk, without the source; `None` when [`Merge::next`] has more to do.
    #[inline]
    pub fn next_in_segment(&mut self) -> Option<(u32, Event)> {
        let c = &mut self.cursors[self.current?];
        let e = *c.events.get(c.pos)?;
        if matches!(e, Event::Stamp { .. }) {
            return None;
        }
        c.pos += 1;
        Some((c.thread, e))
    }

    /// The events that continue the current segment in the decoded chunk (up to the thread's
    /// next stamp or the chunk's end), taken all at once: what [`Merge::next_in_segment`] would
    /// return one by one. Empty when there is no current segment.
    #[inline]
    pub fn rest_of_segment(&mut self) -> (u32, &[Event]) {
        let Some(i) = self.current else {
            return (0, &[]);
        };
        let c = &mut self.cursors[i];
        let start = c.pos;
        let len = c.events[start..]
            .iter()
            .position(|e| matches!(e, Event::Stamp { .. }))
            .unwrap_or(c.events.len() - start);
        c.pos = start + len;
        (c.thread, &c.events[start..start + len])
    }

    /// Makes sure slot `i` has a decoded event at its position.
    fn fill(&mut self, i: usize, source: &mut impl ChunkSource) -> Result<Fill> {
        let c = &mut self.cursors[i];
        loop {
            if c.pos < c.events.len() {
                return Ok(Fill::Ready);
            }
            if c.exhausted {
                return Ok(Fill::Exhausted);
            }
            c.events.clear();
            c.pos = 0;
            match source.next_chunk(i, &mut c.events)? {
                Pull::Chunk => {}
                Pull::End => {
                    c.exhausted = true;
                    return Ok(Fill::Exhausted);
                }
                Pull::Wait(floor) => return Ok(Fill::Stalled(floor)),
            }
        }
    }

    fn take(&mut self, i: usize) -> (u32, Event) {
        let c = &mut self.cursors[i];
        let e = c.events[c.pos];
        c.pos += 1;
        (c.thread, e)
    }

    #[cold]
    fn next_slow(&mut self, source: &mut impl ChunkSource) -> Result<Option<(u32, Event)>> {
        loop {
            if let Some(i) = self.current {
                match self.fill(i, source)? {
                    Fill::Ready => {
                        let c = &mut self.cursors[i];
                        if let Event::Stamp { time } = c.events[c.pos] {
                            // The segment ends: requeue the thread at its next stamp.
                            self.heap.push(Reverse((time, c.thread, i)));
                            self.current = None;
                            continue;
                        }
                        return Ok(Some(self.take(i)));
                    }
                    Fill::Exhausted => {
                        self.current = None;
                        continue;
                    }
                    Fill::Stalled(Some(_)) => {
                        // A floor also says the thread's next event is a stamp (it parked or
                        // ended after closing its chunk): its segment is complete.
                        self.current = None;
                        self.unknown.push(i);
                        continue;
                    }
                    Fill::Stalled(None) => {
                        source.read_more(self.held())?;
                        continue;
                    }
                }
            }
            // Threads the source has met since the last round.
            for slot in self.cursors.len()..source.slots() {
                self.cursors.push(Cursor {
                    thread: source.thread_of(slot),
                    ..Cursor::default()
                });
                self.unknown.push(slot);
            }
            // Every thread outside the heap must have a known next key, or a floor that bounds
            // it, before the smallest key in the heap may go. Visited in slot order, so that a
            // source's side effects (warnings) come in the same order whatever came before.
            self.unknown.sort_unstable();
            // The smallest floor of a waiting thread: keys below it may go.
            let mut bound: Option<u64> = None;
            let mut blocked = false;
            let mut k = 0;
            while k < self.unknown.len() {
                let i = self.unknown[k];
                match self.fill(i, source)? {
                    Fill::Ready => {
                        let c = &mut self.cursors[i];
                        let key = match c.events[c.pos] {
                            Event::Stamp { time } => time,
                            // Events before a thread's first stamp start at its registration.
                            _ => source.start_time_of(i),
                        };
                        self.heap.push(Reverse((key, c.thread, i)));
                        self.unknown.remove(k);
                    }
                    Fill::Exhausted => {
                        self.unknown.remove(k);
                    }
                    Fill::Stalled(floor) => {
                        match floor {
                            Some(time) => bound = Some(bound.map_or(time, |b| b.min(time))),
                            None => blocked = true,
                        }
                        k += 1;
                    }
                }
            }
            match self.heap.peek() {
                // Without a floor any key goes, `u64::MAX` (a hostile stamp) included.
                Some(&Reverse((time, _, i))) if !blocked && bound.is_none_or(|b| time < b) => {
                    self.heap.pop();
                    self.current = Some(i);
                    // The segment's first event (its stamp) goes unconditionally.
                    return Ok(Some(self.take(i)));
                }
                None if !blocked && bound.is_none() && source.finished() => return Ok(None),
                _ => {
                    // After the end of input the next round finds every thread ready or
                    // exhausted, so this cannot spin.
                    source.read_more(self.held())?;
                }
            }
        }
    }
}
