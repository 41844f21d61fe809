//! Validating events as an analysis decodes them ([`OpenOptions::defer_validation`]).
//!
//! The validation at open ([`validate`](super::validate)) decodes the whole trace once before
//! any analysis reads an event: on branchy programs' traces a quarter to a third of every
//! command's time. Its verdicts only matter when a chunk is damaged or its accesses touch too
//! much, and every analysis decodes every chunk with the same checks anyway. So a trace opened
//! with `defer_validation` skips that pass, and [`ChunkReader::visit_chunk`] checks each chunk
//! the first time any reader decodes it: the events it delivers, the lines its accesses touch.
//!
//! A clean trace reads exactly as an eagerly validated one (same events, same
//! [`Trace::total_events`] and [`Trace::touched`] once every chunk has been decoded). Where the
//! open-time pass would have had a verdict (a damaged chunk, which ends its thread there, or
//! the touch bound exceeded), the read fails with [`TraceError::Revalidate`] instead: the
//! caller opens the file again without deferral and runs its analysis on the eager verdicts.
//! That costs damaged traces a second partial read and keeps every verdict where it was.

use super::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// What the deferred checks have found so far, shared by every reader of the trace.
#[derive(Debug)]
pub(super) struct Deferred {
    /// Per events chunk (by [`EventChunkRef::index`]): 0 while no reader has decoded it,
    /// else the events it decodes to (implied blocks included) plus one.
    decoded: Vec<AtomicU64>,
    /// Accesses of the decoded chunks.
    accesses: AtomicU64,
    /// Touched lines of the decoded chunks (see [`Touching`]).
    lines: AtomicU64,
}

impl Deferred {
    /// Nothing decoded yet, for `chunks` events chunks.
    pub(super) fn new(chunks: usize) -> Self {
        Deferred {
            decoded: (0..chunks).map(|_| AtomicU64::new(0)).collect(),
            accesses: AtomicU64::new(0),
            lines: AtomicU64::new(0),
        }
    }

    /// The events chunk `c` decodes to, if a reader has decoded it.
    pub(super) fn decoded(&self, c: &EventChunkRef) -> Option<u64> {
        match self.decoded[c.index as usize].load(Ordering::Acquire) {
            0 => None,
            n => Some(n - 1),
        }
    }

    /// What the decoded chunks' accesses touch.
    pub(super) fn touched(&self, file_len: u64) -> Touched {
        let mut t = Touched {
            trace_bytes: file_len,
            ..Touched::default()
        };
        t.add(
            self.accesses.load(Ordering::SeqCst),
            self.lines.load(Ordering::SeqCst),
        );
        t
    }
}

impl ChunkReader<'_> {
    /// Decodes chunk `c` (its payload already read) into `v` for the first time on a trace
    /// opened with deferred validation: the checks the open-time pass would have made, with
    /// [`TraceError::Revalidate`] where that pass would have had a verdict.
    pub(super) fn visit_unchecked(
        &mut self,
        c: &EventChunkRef,
        deferred: &Deferred,
        v: &mut impl EventVisitor,
    ) -> Result<u64> {
        let trace = self.trace;
        let revalidate = |why: String| TraceError::Revalidate {
            path: trace.path.clone(),
            why,
        };
        let check = self.decode_counted(c, v);
        let n = check.result.map_err(|bad| {
            revalidate(format!(
                "corrupt chunk at offset {}: {}",
                c.offset, bad.what
            ))
        })?;
        let slot = &deferred.decoded[c.index as usize];
        let first = slot
            .compare_exchange(0, check.events + 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if first {
            // Summed once per chunk, however many readers and passes decode it. The last
            // chunk's check reads every chunk's sums (sequentially consistent), so a trace
            // decoded whole has been held to the bound on its totals, as at open; a bound
            // exceeded by part of the sums hands the verdict to the eager pass.
            deferred
                .accesses
                .fetch_add(check.accesses, Ordering::SeqCst);
            deferred.lines.fetch_add(check.lines, Ordering::SeqCst);
            let touched = deferred.touched(trace.file_len);
            if trace.options.max_touched.exceeded(&touched) {
                return Err(revalidate(format!(
                    "wide accesses touch {} beyond their first line so far",
                    crate::work::human_bytes(touched.beyond_first_line)
                )));
            }
        }
        Ok(n)
    }
}

impl Trace {
    /// Checks every events chunk no reader has decoded yet, on as many workers as the
    /// validation at open uses, as reading them would (with [`TraceError::Revalidate`] where
    /// the validation at open would have had a verdict); a trace validated at open has nothing
    /// left to check. For a command that finds it needs nothing of the events (say, `simt` on
    /// a program without worksharing loops) but must judge the trace as if it had read them.
    pub fn finish_validation(&self) -> Result<()> {
        let Some(d) = &self.deferred else {
            return Ok(());
        };
        let unchecked: Vec<EventChunkRef> = self
            .chunks
            .iter()
            .filter(|c| d.decoded(c).is_none())
            .copied()
            .collect();
        let workers = super::validate::validation_workers();
        self.decode_chunks_in_order(
            &unchecked,
            workers,
            2 * workers,
            |reader, c| reader.visit_chunk(c, &mut Discard).map(drop),
            |()| Ok(()),
        )
    }
}
