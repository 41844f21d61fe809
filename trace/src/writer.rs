//! Writing traces through `std::io::Write` — for tools and tests that make traces without the
//! runtime (synthetic streams, rewritten traces). The runtime frames chunks with the same
//! functions ([`crate::chunk::frame_chunk`], [`crate::codec::ChunkEncoder`]) but does its own
//! signal-safe file I/O.

use crate::abi::IdKind;
use crate::chunk::{
    file_header, frame_chunk, postcard_bytes, ChunkKind, ExitInfo, ModuleRecord, ProgramInfo,
    ThreadInfo,
};
use crate::codec::{to_raw, ChunkEncoder, DerivedAccesses, ImpliedBlocks};
use crate::event::Event;
use crate::meta::{ModuleMeta, ProgramMeta};
use crate::raw::RawEvent;
use std::io::{self, Write};

/// Streams a trace into any writer.
pub struct TraceWriter<W: Write> {
    w: W,
    encoder: ChunkEncoder,
    frame: Vec<u8>,
    zstd: zstd::bulk::Compressor<'static>,
    next_bases: [u32; IdKind::COUNT],
    seqs: Vec<u32>,
    raw: Vec<RawEvent>,
    /// The modules registered so far, merged: which blocks are implied.
    program: ProgramMeta,
    implied: ImpliedBlocks,
    /// Per thread: the implied block the last branch event written enters.
    pending_implied: Vec<Option<u32>>,
    /// Which accesses are derived.
    derived: DerivedAccesses,
    /// Per thread: the instruction of the last event written, when it was an access.
    pending_access: Vec<Option<u32>>,
    stored: Vec<Event>,
}

impl<W: Write> TraceWriter<W> {
    /// Writes the file header and the program chunk.
    pub fn new(mut w: W, program: &ProgramInfo) -> io::Result<Self> {
        w.write_all(&file_header(crate::version::CURRENT))?;
        let mut tw = TraceWriter {
            w,
            encoder: ChunkEncoder::new(0, 1 << 16),
            frame: Vec::new(),
            zstd: zstd::bulk::Compressor::new(1)?,
            next_bases: [0; IdKind::COUNT],
            seqs: Vec::new(),
            raw: Vec::new(),
            program: ProgramMeta::default(),
            implied: ImpliedBlocks::default(),
            pending_implied: Vec::new(),
            derived: DerivedAccesses::default(),
            pending_access: Vec::new(),
            stored: Vec::new(),
        };
        tw.meta_chunk(ChunkKind::Program, &postcard_bytes(program))?;
        Ok(tw)
    }

    fn meta_chunk(&mut self, kind: ChunkKind, payload: &[u8]) -> io::Result<()> {
        frame_chunk(
            &mut self.frame,
            kind,
            0,
            0,
            payload,
            0,
            Some(&mut self.zstd),
        );
        self.w.write_all(&self.frame)
    }

    /// Registers a module the way the runtime does: bases follow the previous modules.
    /// Returns the bases assigned.
    pub fn module(&mut self, meta: &ModuleMeta) -> io::Result<[u32; IdKind::COUNT]> {
        let bases = self.next_bases;
        for (b, c) in self.next_bases.iter_mut().zip(meta.counts()) {
            *b += c;
        }
        self.encoder
            .reserve_mem_instrs(self.next_bases[IdKind::MemInstr as usize] as usize);
        let record = ModuleRecord {
            bases,
            blob: meta.to_blob(),
        };
        self.program
            .add_module(meta.clone(), bases)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        self.implied = ImpliedBlocks::of(&self.program);
        self.derived = DerivedAccesses::of(&self.program);
        self.meta_chunk(ChunkKind::Module, &postcard_bytes(&record))?;
        Ok(bases)
    }

    /// Announces a thread.
    pub fn thread(&mut self, info: &ThreadInfo) -> io::Result<()> {
        frame_chunk(
            &mut self.frame,
            ChunkKind::Thread,
            info.thread,
            0,
            &postcard_bytes(info),
            0,
            Some(&mut self.zstd),
        );
        self.w.write_all(&self.frame)
    }

    /// Writes one events chunk of raw records for `thread`.
    pub fn raw_events(&mut self, thread: u32, raw: &[RawEvent]) -> io::Result<()> {
        if self.seqs.len() <= thread as usize {
            self.seqs.resize(thread as usize + 1, 0);
        }
        let seq = self.seqs[thread as usize];
        self.seqs[thread as usize] += 1;
        let (payload, count) = self.encoder.encode(raw);
        frame_chunk(
            &mut self.frame,
            ChunkKind::Events,
            thread,
            seq,
            payload,
            count,
            Some(&mut self.zstd),
        );
        self.w.write_all(&self.frame)
    }

    /// Writes one events chunk of decoded events for `thread`. An implied block (see
    /// [`crate::meta::BlockMeta::implied`]) right after the branch event entering it, and a
    /// derived access (see [`crate::meta::MemInstrMeta::derived`]) right after the access of
    /// the instruction before it, are not stored, as the runtime does not record them: reading
    /// the trace back gives `events` (a derived access at its anchor's address plus its offset,
    /// which is where the runtime's accesses are). The iterations of a loop recorded in runs
    /// (see [`crate::meta::BranchMeta::loop_run`]) are stored as plain events, each iteration's
    /// accesses and branch (its block, implied, is left out as above): the decoder accepts
    /// them as well as loop-run events and reads back the same events, so only the runtime
    /// writes loop runs.
    pub fn events(&mut self, thread: u32, events: &[Event]) -> io::Result<()> {
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        if self.implied.any() || self.derived.any() {
            let t = thread as usize;
            if self.pending_implied.len() <= t {
                self.pending_implied.resize(t + 1, None);
                self.pending_access.resize(t + 1, None);
            }
            // Loop runs need no filter: a loop's iterations are stored as plain accesses and
            // branches (see `events`), which decode to the same events.
            let implied = self.implied.stored(events, &mut self.pending_implied[t]);
            let stored = self.derived.stored(implied, &mut self.pending_access[t]);
            self.stored.clear();
            self.stored.extend(stored);
            to_raw(&self.stored, &mut raw);
        } else {
            to_raw(events, &mut raw);
        }
        let r = self.raw_events(thread, &raw);
        self.raw = raw;
        r
    }

    /// Writes the end chunk and returns the writer.
    pub fn finish(mut self, exit: &ExitInfo) -> io::Result<W> {
        self.meta_chunk(ChunkKind::End, &postcard_bytes(exit))?;
        self.w.flush()?;
        Ok(self.w)
    }
}
