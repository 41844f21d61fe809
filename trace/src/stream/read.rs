//! Reading the stream: one chunk at a time from the input, copied to the tee; metadata
//! chunks update the trace at once, events chunks wait compressed in their thread's queue, and
//! floor chunks set the threads' floors.

use super::floor::{FLOOR_ENTRY_LEN, FLOOR_KIND};
use super::{LiveTrace, StoredChunk};
use crate::chunk::*;
use crate::codec::EventBounds;
use crate::error::{Result, TraceError};
use crate::source::{read_full, repeat_message, MetaChunk};
use std::io::Write;

impl LiveTrace<'_> {
    /// `held`: the decoded events the merge holds.
    fn note_pending(&mut self, held: u64) {
        self.stats.max_pending_bytes = self.stats.max_pending_bytes.max(self.pending_bytes);
        self.stats.max_pending_events = self
            .stats
            .max_pending_events
            .max(self.pending_events + held);
    }

    /// Marks the input as ended: from now on no thread waits for more.
    fn finish_input(&mut self) -> Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        if let Some(t) = self.tee.as_mut() {
            t.flush().map_err(|e| TraceError::io(&self.name, e))?;
        }
        if self.exit.is_none() && self.warnings.is_empty() {
            self.warnings.push(format!(
                "{}: no end chunk: the program did not finish normally (killed, or crashed without a flush)",
                self.name.display()
            ));
        }
        Ok(())
    }

    /// Reads one chunk from the input (blocking). Returns false at the end of the input.
    pub fn read_chunk(&mut self) -> Result<bool> {
        let held = self.merge.held();
        self.read_chunk_held(held)
    }

    /// [`LiveTrace::read_chunk`], while the merge holds `held` decoded events.
    pub(super) fn read_chunk_held(&mut self, held: u64) -> Result<bool> {
        if self.finished {
            return Ok(false);
        }
        let offset = self.offset;
        let mut h = [0u8; CHUNK_HEADER_LEN];
        let n = read_full(&mut self.input, &mut h).map_err(|e| TraceError::io(&self.name, e))?;
        if n == 0 {
            self.finish_input()?;
            return Ok(false);
        }
        if n < CHUNK_HEADER_LEN {
            self.warnings.push(format!(
                "{}: truncated at offset {offset}: {n} bytes of an incomplete chunk header ignored; \
                 events up to the last whole chunk are read",
                self.name.display()
            ));
            self.finish_input()?;
            return Ok(false);
        }
        if h[4] == FLOOR_KIND && h[..4] == CHUNK_MAGIC {
            return self.read_floors(offset, &h);
        }
        let header = parse_chunk_header(&h).map_err(|what| self.corrupt(offset, what))?;
        let mut stored = vec![0u8; header.stored_len as usize];
        let got =
            read_full(&mut self.input, &mut stored).map_err(|e| TraceError::io(&self.name, e))?;
        if got < stored.len() {
            self.warnings.push(format!(
                "{}: truncated at offset {offset}: chunk needs {} bytes, {} remain; \
                 events up to the last whole chunk are read",
                self.name.display(),
                CHUNK_HEADER_LEN + stored.len(),
                CHUNK_HEADER_LEN + got
            ));
            self.finish_input()?;
            return Ok(false);
        }
        let len = (CHUNK_HEADER_LEN + stored.len()) as u64;
        self.offset += len;
        self.stats.bytes_read += len;
        if let Some(t) = self.tee.as_mut() {
            t.write_all(&h)
                .and_then(|_| t.write_all(&stored))
                .map_err(|e| TraceError::io(&self.name, e))?;
        }
        if header.kind == ChunkKind::Events {
            self.stats.event_chunks += 1;
            let salvage = self.salvage;
            let th = self.thread(header.thread);
            let first = th.pending.get(&header.seq).map(|c| c.offset);
            if header.seq < th.next_seq || first.is_some() {
                // As the file reader does: refused, or under salvage the later copy dropped.
                let what = repeat_message(header.thread, header.seq, first);
                if !salvage {
                    return Err(self.corrupt(offset, what));
                }
                self.warnings.push(format!(
                    "{}: chunk at offset {offset}: {what}; dropped (salvage)",
                    self.name.display()
                ));
                return Ok(true);
            }
            th.pending.insert(
                header.seq,
                StoredChunk {
                    offset,
                    header: h,
                    events: header.events,
                    stored,
                },
            );
            self.pending_bytes += len - CHUNK_HEADER_LEN as u64;
            self.pending_events += header.events as u64;
            self.note_pending(held);
            return Ok(true);
        }
        let chunk = self
            .decoding
            .metadata(&h, &header, &stored)
            .map_err(|what| self.corrupt(offset, what))?;
        match chunk {
            MetaChunk::Program(program) => self.program = program,
            MetaChunk::Module { bases, meta } => {
                self.meta
                    .add_module(meta, bases)
                    .map_err(|e| self.corrupt(offset, e.to_string()))?;
                self.bounds = EventBounds::of(&self.meta);
                self.decoding.set_bounds(&self.bounds);
            }
            MetaChunk::Thread(t) => {
                self.thread(t.thread).start_time = t.start_time;
                self.thread_infos.push(t);
            }
            MetaChunk::End(exit) => {
                self.exit = Some(exit);
                // Nothing follows the end chunk: every thread has flushed.
                self.finish_input()?;
            }
            MetaChunk::RegionOfInterest(roi) => {
                self.roi.get_or_insert_with(RoiInfo::default).join(roi);
            }
        }
        Ok(true)
    }

    fn read_floors(&mut self, offset: u64, h: &[u8; CHUNK_HEADER_LEN]) -> Result<bool> {
        let u = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().unwrap());
        let (len, entries) = (u(16) as usize, u(24) as usize);
        if len != entries * FLOOR_ENTRY_LEN || len > MAX_CHUNK_PAYLOAD as usize {
            return Err(self.corrupt(
                offset,
                format!("floor chunk of {len} bytes for {entries} entries"),
            ));
        }
        let mut payload = vec![0u8; len];
        let got =
            read_full(&mut self.input, &mut payload).map_err(|e| TraceError::io(&self.name, e))?;
        if got < len {
            self.finish_input()?;
            return Ok(false);
        }
        if !crc_matches(h, &payload) {
            return Err(self.corrupt(offset, "checksum mismatch"));
        }
        self.offset += (CHUNK_HEADER_LEN + len) as u64;
        self.stats.bytes_read += (CHUNK_HEADER_LEN + len) as u64;
        self.stats.floor_chunks += 1;
        for e in payload.chunks_exact(FLOOR_ENTRY_LEN) {
            let thread = u32::from_le_bytes(e[0..4].try_into().unwrap());
            let next_seq = u32::from_le_bytes(e[4..8].try_into().unwrap());
            let time = u64::from_le_bytes(e[8..16].try_into().unwrap());
            let th = self.thread(thread);
            // Keep the newest floor: a later chunk count, or a later time for the same count.
            if th.floor.is_none_or(|(s, t)| (next_seq, time) > (s, t)) {
                th.floor = Some((next_seq, time));
            }
        }
        Ok(true)
    }
}
