//! Encoding handed-over records into a thread's open chunk and closing it: the writer's part of
//! a job, the ordinary flush without a writer, and the fatal-signal flush that allocates
//! nothing; and the thread's event count for the end record.

use super::floors::publish_floors;
use super::writer::Job;
use super::{max_payload_bytes, payload_capacity, ThreadState, NO_BUFFER};
use crate::flusher::{write_raw_chunk, Compressor};
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::{RawEvent, TAG_ACCESS, TAG_ACCESS_RANGE};
use std::sync::atomic::Ordering;

impl ThreadState {
    /// The encoder of the chunk numbered `seq`.
    ///
    /// # Safety
    /// The caller has the access to it that [`ThreadState`]'s safety note describes (the
    /// writer's worker of its lane, the owner or a flusher under `busy` without a writer, or a
    /// signal handler after the take-over), and holds no other reference to it.
    #[allow(clippy::mut_from_ref)]
    unsafe fn encoder(&self, seq: u32) -> &mut ChunkEncoder {
        // Safety: guaranteed by the caller.
        unsafe { &mut *self.encoders[seq as usize % self.encoders.len()].get() }
    }

    /// A writer worker's part of a job: encodes the handed-over records into the chunk the job
    /// belongs to, gives the buffer back, and when the job closes the chunk ends it, swapping
    /// in `spare` as the next chunk's payload buffer. Returns the ended chunk's payload, event
    /// count and thread index (its number is the job's). Allocates nothing unless a module was
    /// registered since the predictor table was sized.
    pub fn encode_job(&self, job: &Job, spare: &mut Vec<u8>) -> Option<(Vec<u8>, u32, u32)> {
        // Safety: while the writer runs, only the worker of the job's lane touches its encoder
        // (this job is in flight).
        let enc = unsafe { self.encoder(job.seq) };
        if job.buf != NO_BUFFER {
            self.encode_into(enc, &self.bufs[job.buf][..job.n]);
            self.free.fetch_or(1 << job.buf, Ordering::SeqCst);
        }
        if !job.close {
            return None;
        }
        // The owner closes only chunks it handed records to; one whose records made no event
        // (a cut-off multi-record event) is still written, so its number is not missing.
        let (payload, count) = enc.take_chunk(std::mem::take(spare));
        Some((payload, count, self.thread.load(Ordering::Relaxed)))
    }

    /// Appends records to a chunk (ordinary path: may grow the predictor table).
    fn encode_into(&self, enc: &mut ChunkEncoder, records: &[RawEvent]) {
        if records.is_empty() {
            return;
        }
        enc.reserve_mem_instrs(crate::total_mem_instrs());
        let before = enc.chunk_events();
        enc.append(records);
        self.count(enc.chunk_events() - before);
    }

    /// Marks the end of the state's jobs: called by the writer after it wrote a job's chunk.
    pub fn job_done(&self) {
        self.pending.fetch_sub(1, Ordering::SeqCst);
    }

    /// Fatal-signal path for a job that was queued for the writer: encodes its records into
    /// the chunk it belongs to, and writes that chunk raw when the job closes it. The chunk
    /// holds at most [`super::chunk_buffers`] buffers, so they fit its payload buffer.
    pub fn flush_job_from_signal(&self, job: &Job) {
        // Safety: the handler has taken the writer over: no worker touches the encoders.
        let enc = unsafe { self.encoder(job.seq) };
        if job.buf != NO_BUFFER {
            self.append_from_signal(enc, &self.bufs[job.buf][..job.n]);
        }
        if job.close {
            self.write_raw_from_signal(enc, job.seq);
        }
    }

    /// Ends the chunk in `enc` and writes it raw as chunk `seq` of this thread (signal path:
    /// allocates nothing), starting the next one in `enc`.
    fn write_raw_from_signal(&self, enc: &mut ChunkEncoder, seq: u32) {
        let (payload, count) = enc.finish_chunk();
        write_raw_chunk(
            self.thread.load(Ordering::Relaxed),
            seq,
            payload,
            count,
            true,
        );
        enc.start_chunk();
    }

    /// Adds `added` events to this thread's count and publishes it for the end record (the
    /// lanes' workers add at once: an atomic sum, and the slot keeps the largest).
    fn count(&self, added: u32) {
        let total = self.recorded.fetch_add(added as u64, Ordering::Relaxed) + added as u64;
        if let Some(slot) = crate::endframe::slot(self.thread.load(Ordering::Relaxed)) {
            slot.fetch_max(total, Ordering::AcqRel);
        }
    }

    /// The ordinary flush without a writer (owner, thread exit, `exit()`): may allocate.
    /// `close` comes from [`ThreadState::flush`], which decided where the chunk ends.
    pub(super) fn flush_normal(&self, n: usize, expanded: u64, close: bool) {
        let seq = self.seq.load(Ordering::Relaxed);
        // Safety: without a writer, `busy` gives exclusive access to the encoders and the
        // compressor.
        let enc = unsafe { self.encoder(seq) };
        self.encode_into(enc, &self.events()[..n]);
        // A chunk without events is not written, and keeps its number.
        let closed = close && enc.chunk_events() > 0;
        if closed {
            let thread = self.thread.load(Ordering::Relaxed);
            let (payload, count) = enc.finish_chunk();
            // Safety: as above.
            let c = unsafe { &mut *self.compressor.get() }
                .get_or_insert_with(|| Compressor::new(max_payload_bytes()));
            c.write(thread, seq, payload, count);
            if crate::output::is_stream() {
                publish_floors(&mut c.floors);
            }
            enc.start_chunk();
        }
        self.note_flushed(n, expanded, closed);
    }

    /// The fatal-signal flush of `records` (at most one raw buffer) into the open chunk, which
    /// it then writes raw, allocating nothing. The open chunk holds fewer than
    /// [`super::chunk_buffers`] buffers (it would have closed), so `records` fit behind them;
    /// should they not, the chunk is written first and they go into the next one.
    pub(super) fn flush_from_signal(&self, records: &[RawEvent]) {
        // Safety: `busy`, or the handler's take-over of the writer, gives exclusive access to
        // the encoders.
        let enc = unsafe { self.encoder(self.seq.load(Ordering::Relaxed)) };
        let write = |enc: &mut ChunkEncoder| {
            self.write_raw_from_signal(enc, self.seq.load(Ordering::Relaxed));
            self.note_flushed(0, 0, true);
        };
        if enc.chunk_events() > 0
            && enc.chunk_bytes() + rdtrace::codec::append_room(records.len()) > payload_capacity()
        {
            write(enc);
        }
        self.append_from_signal(enc, records);
        if enc.chunk_events() > 0 {
            write(enc);
        }
    }

    /// Appends `records` to a chunk from a signal handler, allocating nothing: an access by an
    /// instruction the predictor table does not cover (a module registered since the last
    /// ordinary encode, or a clobbered record) would grow the table, so the records end before
    /// it.
    fn append_from_signal(&self, enc: &mut ChunkEncoder, records: &[RawEvent]) {
        let covered = enc.mem_instrs_covered();
        let cut = records
            .iter()
            .position(|r| {
                matches!(r.tag(), TAG_ACCESS | TAG_ACCESS_RANGE) && r.id() as usize >= covered
            })
            .unwrap_or(records.len());
        if cut > 0 {
            let before = enc.chunk_events();
            enc.append(&records[..cut]);
            self.count(enc.chunk_events() - before);
        }
    }
}
