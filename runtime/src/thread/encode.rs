//! Encoding handed-over records into a thread's open chunk and closing it: the writer's part of
//! a job, the ordinary flush without a writer, and the fatal-signal flush that allocates
//! nothing; and the thread's event count for the end record.

use super::floors::publish_floors;
use super::{close_at_bytes, max_payload_bytes, payload_capacity, ThreadState, NO_BUFFER};
use crate::config;
use crate::flusher::{write_raw_chunk, Compressor};
use rdtrace::codec::ChunkEncoder;
use rdtrace::raw::{RawEvent, TAG_ACCESS, TAG_ACCESS_RANGE};
use std::sync::atomic::{AtomicU64, Ordering};

impl ThreadState {
    /// The writer's part of a job: encodes the handed-over records into the current chunk, gives
    /// the buffer back, and when the chunk is full (or the job closes it) ends it, swapping in
    /// `spare` as the next chunk's payload buffer. Returns the ended chunk's payload, event
    /// count, thread index and sequence number. Allocates nothing unless a module was
    /// registered since the predictor table was sized.
    pub fn encode_job(
        &self,
        buf: usize,
        n: usize,
        close: bool,
        spare: &mut Vec<u8>,
    ) -> Option<(Vec<u8>, u32, u32, u32)> {
        // Safety: while the writer runs, only it touches the encoder (this job is in flight).
        let enc = unsafe { &mut *self.encoder.get() };
        if buf != NO_BUFFER {
            self.encode_into(enc, &self.bufs[buf][..n]);
            self.free.fetch_or(1 << buf, Ordering::SeqCst);
        }
        let full = enc.chunk_decoded_events() >= config::get().chunk_events as u64
            || enc.chunk_bytes() >= close_at_bytes();
        if (full || close) && enc.chunk_events() > 0 {
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let (payload, count) = enc.take_chunk(std::mem::take(spare));
            return Some((payload, count, self.thread.load(Ordering::Relaxed), seq));
        }
        None
    }

    /// Appends records to the open chunk (ordinary path: may grow the predictor table).
    fn encode_into(&self, enc: &mut ChunkEncoder, records: &[RawEvent]) {
        if records.is_empty() {
            return;
        }
        let mem_instrs = crate::total_mem_instrs();
        enc.reserve_mem_instrs(mem_instrs);
        self.table_mem_instrs
            .fetch_max(mem_instrs, Ordering::Relaxed);
        let before = enc.chunk_events();
        enc.append(records);
        self.count(enc.chunk_events() - before);
    }

    /// Marks the end of the state's jobs: called by the writer after it wrote a job's chunk.
    pub fn job_done(&self) {
        self.pending.fetch_sub(1, Ordering::SeqCst);
    }

    /// Fatal-signal path for a buffer that was queued for the writer: encodes and writes its
    /// records like [`ThreadState::flush`] does for the buffer being filled.
    pub fn flush_job_from_signal(&self, buf: usize, n: usize) {
        let records = match buf {
            NO_BUFFER => &[][..],
            b => &self.bufs[b][..n],
        };
        self.flush_from_signal(records);
    }

    /// Adds `added` events to this thread's count and publishes it for the end record.
    fn count(&self, added: u32) {
        self.recorded.set_relaxed_add(added as u64);
        if let Some(slot) = crate::endframe::slot(self.thread.load(Ordering::Relaxed)) {
            slot.store(self.recorded.load(Ordering::Relaxed), Ordering::Release);
        }
    }

    /// The ordinary flush (owner, thread exit, `exit()`): may allocate.
    pub(super) fn flush_normal(&self, n: usize, close: bool) {
        // Safety: without a writer, `busy` gives exclusive access to the encoder and compressor.
        let enc = unsafe { &mut *self.encoder.get() };
        self.encode_into(enc, &self.events()[..n]);
        let full = enc.chunk_decoded_events() >= config::get().chunk_events as u64
            || enc.chunk_bytes() >= close_at_bytes();
        if (full || close) && enc.chunk_events() > 0 {
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
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
    }

    /// The fatal-signal flush of `records` (at most one raw buffer): encodes and writes raw,
    /// allocating nothing. The open chunk's payload is below [`close_at_bytes`] (ordinary
    /// flushes close it there) and its buffer holds [`payload_capacity`] bytes; when the records
    /// might not fit behind it, it is written first and they go into a fresh chunk, where their
    /// worst case fits.
    pub(super) fn flush_from_signal(&self, records: &[RawEvent]) {
        // Safety: `busy`, or the handler's take-over of the writer, gives exclusive access to
        // the encoder.
        let enc = unsafe { &mut *self.encoder.get() };
        let covered = self.table_mem_instrs.load(Ordering::Relaxed);
        // An access by an instruction the table does not cover (a module registered since the
        // last ordinary flush, or a clobbered record) would grow the table: the stream ends
        // before it.
        let n = records.len();
        let cut = records
            .iter()
            .position(|r| {
                matches!(r.tag(), TAG_ACCESS | TAG_ACCESS_RANGE) && r.id() as usize >= covered
            })
            .unwrap_or(n);
        let thread = self.thread.load(Ordering::Relaxed);
        let write = |enc: &mut ChunkEncoder| {
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let (payload, count) = enc.finish_chunk();
            write_raw_chunk(thread, seq, payload, count, true);
            enc.start_chunk();
        };
        if enc.chunk_events() > 0
            && enc.chunk_bytes() + rdtrace::codec::append_room(cut) > payload_capacity()
        {
            write(enc);
        }
        if cut > 0 {
            let before = enc.chunk_events();
            enc.append(&records[..cut]);
            self.count(enc.chunk_events() - before);
        }
        if enc.chunk_events() > 0 {
            write(enc);
        }
    }
}

trait RelaxedAdd {
    fn set_relaxed_add(&self, k: u64);
}

impl RelaxedAdd for AtomicU64 {
    /// Owner-only counter: a load and a store, no locked instruction on the hot path.
    #[inline(always)]
    fn set_relaxed_add(&self, k: u64) {
        self.store(self.load(Ordering::Relaxed) + k, Ordering::Relaxed);
    }
}
