//! Parallel fragments too long to hold in memory, kept in an unlinked temporary file while the
//! sequential trace streams, and read back as Alg. 1-2 need them.
//!
//! Alg. 2 interleaves the n-th window of every core, and with a static schedule core c's
//! windows lie far apart in the sequential order, so a parallel section cannot be mimicked in
//! one sequential pass. [`SpillWriter`] writes the section's windows in program order (block,
//! placement tag, accesses); [`SpilledFragment::for_each_batch`] reads it with one cursor per
//! core, each keeping only the windows its core runs, and hands rounds of windows over in small
//! in-memory batches, each a [`MimickedTrace`] of one section. A batch holds whole rounds (the
//! next window of every core), so interleaving batch after batch with one
//! [`Interleaver`](crate::interleave::Interleaver) gives the shared trace of the whole section;
//! each core's private trace is its windows in order, batch after batch.
//!
//! A window's iteration depends on counts over its whole worksharing construct, so windows of a
//! construct carry their unit-loop position ([`Tag`]) and are resolved on reading by the run's
//! [`RunTable`]. Each cursor re-reads the section (m reads of the file); the sampled flag of
//! Alg. 3 and the per-block rule's counters are stepped by every cursor over every window, so all
//! cursors agree.
//!
//! Format (private to one process, never kept): per window `varint bb`, a flag byte, the
//! placement fields, `varint accesses`, then per access `varint mi`, `varint zigzag(addr - last
//! addr of mi)`, `varint len`; the per-instruction addresses restart at every section. Regular
//! code takes 3-5 bytes per access instead of 16.

use crate::error::{Result, SasmmError};
use crate::mimic::{MimicConfig, MimickedSection, MimickedTrace, Owners};
use crate::sample::SampleCursor;
use crate::window::{Access, Placement, Section, SequentialTrace, Window};
use crate::workshare::{RunTable, Tag, Unit};
use rustc_hash::FxHashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;

/// Accesses a batch of rounds holds before it is handed over.
const BATCH_ACCESSES: usize = 1 << 18;
/// Windows a batch of rounds holds before it is handed over.
const BATCH_WINDOWS: usize = 1 << 16;
/// Bytes read from the file at a time by each cursor.
const READ_BUFFER: usize = 1 << 18;

const CONTINUATION: u8 = 1;
const SERIAL: u8 = 0 << 1;
const REPLICATED: u8 = 1 << 1;
const ITERATION: u8 = 2 << 1;
const RUN: u8 = 3 << 1;
const KIND: u8 = 3 << 1;
const HAS_UNIT: u8 = 1 << 3;
const HAS_INNER: u8 = 1 << 4;

fn spill_error(e: std::io::Error) -> SasmmError {
    SasmmError::Spill(e)
}

/// One section of a spilled fragment.
#[derive(Clone, Copy, Debug)]
struct SpilledSection {
    parallel: bool,
    /// Byte offset of its first window.
    offset: u64,
    windows: u64,
}

/// Writes a parallel fragment to an unlinked temporary file (see the module documentation).
pub struct SpillWriter {
    out: BufWriter<File>,
    bytes: u64,
    /// Last address per memory instruction (the last slot for ids beyond the table).
    last: Vec<u64>,
    sections: Vec<SpilledSection>,
    section_offset: u64,
    section_windows: u64,
    windows: u64,
    accesses: u64,
    runs: Vec<Option<RunTable>>,
    buf: Vec<u8>,
    error: Option<std::io::Error>,
}

impl SpillWriter {
    /// A writer for a program with `mem_instrs` memory instructions; the file is created in
    /// the temporary directory (`TMPDIR`) and unlinked at once.
    pub fn new(mem_instrs: usize) -> Result<Self> {
        let file = tempfile::tempfile().map_err(spill_error)?;
        Ok(SpillWriter {
            out: BufWriter::with_capacity(1 << 20, file),
            bytes: 0,
            last: vec![0; mem_instrs + 1],
            sections: Vec::new(),
            section_offset: 0,
            section_windows: 0,
            windows: 0,
            accesses: 0,
            runs: Vec::new(),
            buf: Vec::with_capacity(64),
            error: None,
        })
    }

    /// Writes window `i` of `seq` (closed) with its tag; empty continuations are dropped, as
    /// in-memory fragments drop them.
    pub(crate) fn window(&mut self, seq: &SequentialTrace, i: usize, tag: Tag) {
        let w = &seq.windows[i];
        if w.is_empty_continuation() {
            return;
        }
        let buf = &mut self.buf;
        buf.clear();
        put_varint(buf, w.bb as u64);
        let mut flags = if w.continuation { CONTINUATION } else { 0 };
        let at = buf.len();
        buf.push(0);
        match tag {
            Tag::Final(Placement::Serial) => flags |= SERIAL,
            Tag::Final(Placement::Replicated) => flags |= REPLICATED,
            Tag::Final(Placement::Iteration {
                workshare,
                iteration,
            }) => {
                flags |= ITERATION;
                put_varint(buf, workshare as u64);
                put_varint(buf, iteration);
            }
            Tag::Run { run, unit } => {
                flags |= RUN;
                put_varint(buf, run as u64);
                if let Some(u) = unit {
                    flags |= HAS_UNIT;
                    put_varint(buf, u.outer.0 as u64);
                    put_varint(buf, u.outer.1);
                    if let Some((l, n)) = u.inner {
                        flags |= HAS_INNER;
                        put_varint(buf, l as u64);
                        put_varint(buf, n);
                    }
                }
            }
        }
        buf[at] = flags;
        let accesses = &seq.accesses[w.range()];
        put_varint(buf, accesses.len() as u64);
        self.put();
        let slots = self.last.len() - 1;
        for a in accesses {
            let buf = &mut self.buf;
            buf.clear();
            let slot = (a.mi as usize).min(slots);
            put_varint(buf, a.mi as u64);
            put_varint(buf, zigzag(a.addr.wrapping_sub(self.last[slot]) as i64));
            put_varint(buf, a.len as u64);
            self.last[slot] = a.addr;
            self.put();
        }
        self.windows += 1;
        self.section_windows += 1;
        self.accesses += accesses.len() as u64;
    }

    fn put(&mut self) {
        if self.error.is_some() {
            return;
        }
        match self.out.write_all(&self.buf) {
            Ok(()) => self.bytes += self.buf.len() as u64,
            Err(e) => self.error = Some(e),
        }
    }

    /// Ends the current section (nothing is recorded for a section without windows).
    pub fn close_section(&mut self, parallel: bool) {
        if self.section_windows > 0 {
            self.sections.push(SpilledSection {
                parallel,
                offset: self.section_offset,
                windows: self.section_windows,
            });
        }
        self.section_offset = self.bytes;
        self.section_windows = 0;
        self.last.iter_mut().for_each(|a| *a = 0);
    }

    /// Keeps the table that resolves the windows of a worksharing run that has ended.
    pub(crate) fn set_run(&mut self, table: RunTable) {
        let run = table.run() as usize;
        if self.runs.len() <= run {
            self.runs.resize(run + 1, None);
        }
        self.runs[run] = Some(table);
    }

    /// The fragment, readable; `header` carries the program tables and the worksharing runs.
    pub fn finish(mut self, header: SequentialTrace) -> Result<SpilledFragment> {
        if let Some(e) = self.error.take() {
            return Err(spill_error(e));
        }
        let file = self
            .out
            .into_inner()
            .map_err(|e| spill_error(e.into_error()))?;
        Ok(SpilledFragment {
            file,
            header,
            sections: self.sections,
            runs: self.runs,
            windows: self.windows,
            accesses: self.accesses,
            mem_instrs: self.last.len() - 1,
        })
    }
}

/// A parallel fragment in a temporary file (see the module documentation); the file goes when
/// the fragment is dropped.
pub struct SpilledFragment {
    file: File,
    /// Program tables and worksharing runs of the fragment (no windows or accesses).
    header: SequentialTrace,
    sections: Vec<SpilledSection>,
    runs: Vec<Option<RunTable>>,
    windows: u64,
    accesses: u64,
    mem_instrs: usize,
}

impl SpilledFragment {
    /// Another handle on the same fragment (the file descriptor duplicated, the tables
    /// copied): the temporary file goes when the last handle is dropped.
    pub fn try_clone(&self) -> Result<Self> {
        Ok(SpilledFragment {
            file: self.file.try_clone().map_err(spill_error)?,
            header: self.header.clone(),
            sections: self.sections.clone(),
            runs: self.runs.clone(),
            windows: self.windows,
            accesses: self.accesses,
            mem_instrs: self.mem_instrs,
        })
    }

    /// Windows of the fragment.
    pub fn windows(&self) -> u64 {
        self.windows
    }

    /// Accesses of the fragment.
    pub fn accesses(&self) -> u64 {
        self.accesses
    }

    /// Block names, worksharing runs and instruction tables of the fragment.
    pub fn header(&self) -> &SequentialTrace {
        &self.header
    }

    /// Calls `f(bb, continuation, parallel)` for every window in program order.
    pub fn for_each_window(&self, mut f: impl FnMut(u32, bool, bool)) -> Result<()> {
        let mut scratch = Vec::new();
        for s in &self.sections {
            let mut cursor = Cursor::new(self, s, Seen::default(), None);
            while let Some(w) = cursor.read(&mut scratch)? {
                scratch.clear();
                f(w.bb, w.continuation, s.parallel);
            }
        }
        Ok(())
    }

    /// Alg. 1 for `config.cores` cores over the fragment, handed to `f` in batches of whole
    /// rounds (see the module documentation) with each batch window's sampled flag; `sample`
    /// (the pass's Alg. 3 cursor) is stepped over every window of the fragment.
    pub(crate) fn for_each_batch(
        &self,
        config: MimicConfig,
        mut sample: Option<&mut SampleCursor<'_>>,
        mut f: impl FnMut(&MimickedTrace<'_>, &[bool]),
    ) -> Result<()> {
        let m = config.cores.max(1);
        let mut batch = SequentialTrace {
            workshares: self.header.workshares.clone(),
            mi_class: self.header.mi_class.clone(),
            mi_shared_variable: self.header.mi_shared_variable.clone(),
            block_names: self.header.block_names.clone(),
            ..SequentialTrace::default()
        };
        let mut flags = Vec::new();
        let mut per_core: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut seen = Seen::default();
        for s in &self.sections {
            let cores = if s.parallel { m } else { 1 };
            let mut cursors: Vec<Cursor<'_, '_>> = (0..cores)
                .map(|_| Cursor::new(self, s, seen.clone(), sample.as_deref().cloned()))
                .collect();
            loop {
                batch.windows.clear();
                batch.accesses.clear();
                flags.clear();
                per_core.iter_mut().for_each(Vec::clear);
                // Whole rounds: the next window of every core that has one.
                loop {
                    let mut progressed = false;
                    for (c, cursor) in cursors.iter_mut().enumerate() {
                        if let Some(w) = cursor.next_for(c, &config, &mut batch, &mut flags)? {
                            per_core[c].push(w);
                            progressed = true;
                        }
                    }
                    if !progressed
                        || batch.accesses.len() >= BATCH_ACCESSES
                        || batch.windows.len() >= BATCH_WINDOWS
                    {
                        break;
                    }
                }
                if batch.windows.is_empty() {
                    break;
                }
                batch.sections.clear();
                batch.sections.push(Section {
                    parallel: s.parallel,
                    windows: 0..batch.windows.len() as u32,
                });
                let trace = MimickedTrace {
                    seq: &batch,
                    config,
                    sections: vec![MimickedSection {
                        parallel: s.parallel,
                        per_core: std::mem::take(&mut per_core),
                    }],
                };
                f(&trace, &flags);
                per_core = trace
                    .sections
                    .into_iter()
                    .next()
                    .map_or_else(|| vec![Vec::new(); m], |section| section.per_core);
            }
            // Core 0's cursor read every window of the section.
            seen = std::mem::take(&mut cursors[0].seen);
            if let (Some(out), Some(stepped)) = (sample.as_deref_mut(), cursors[0].sample.take()) {
                *out = stepped;
            }
        }
        Ok(())
    }
}

/// A window's header as read back.
struct WindowHeader {
    bb: u32,
    continuation: bool,
    placement: Placement,
}

/// A sequential reader of one section of the file, resolving placements as it goes.
struct Cursor<'f, 's> {
    fragment: &'f SpilledFragment,
    pos: u64,
    buf: Vec<u8>,
    at: usize,
    left: u64,
    last: Vec<u64>,
    /// Per-block rule counters (a run may go on in the next section).
    seen: Seen,
    sample: Option<SampleCursor<'s>>,
    /// Which core runs each window.
    owners: Owners,
}

/// Per-block rule counters of every worksharing run, by run.
type Seen = FxHashMap<u32, FxHashMap<u32, u64>>;

impl<'f, 's> Cursor<'f, 's> {
    fn new(
        fragment: &'f SpilledFragment,
        section: &SpilledSection,
        seen: Seen,
        sample: Option<SampleCursor<'s>>,
    ) -> Self {
        Cursor {
            fragment,
            pos: section.offset,
            buf: Vec::new(),
            at: 0,
            left: section.windows,
            last: vec![0; fragment.mem_instrs + 1],
            seen,
            sample,
            owners: Owners::default(),
        }
    }

    fn byte(&mut self) -> Result<u8> {
        if self.at == self.buf.len() {
            self.buf.resize(READ_BUFFER, 0);
            let n = self
                .fragment
                .file
                .read_at(&mut self.buf, self.pos)
                .map_err(spill_error)?;
            if n == 0 {
                return Err(spill_error(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the temporary file ended inside a window",
                )));
            }
            self.buf.truncate(n);
            self.pos += n as u64;
            self.at = 0;
        }
        let b = self.buf[self.at];
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64> {
        // Fast path: a whole varint (at most 10 bytes) is in the buffer.
        if let Some(bytes) = self.buf.get(self.at..self.at + 10) {
            let mut v = 0u64;
            for (i, &b) in bytes.iter().enumerate() {
                v |= ((b & 0x7f) as u64) << (7 * i);
                if b & 0x80 == 0 {
                    self.at += i + 1;
                    return Ok(v);
                }
            }
            return Err(spill_error(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "a varint of the temporary file runs past 10 bytes",
            )));
        }
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift < 64 {
                v |= ((b & 0x7f) as u64) << shift;
            }
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }

    /// Reads the next window of the section, appending its accesses to `accesses`; `None` at
    /// the section's end.
    fn read(&mut self, accesses: &mut Vec<Access>) -> Result<Option<WindowHeader>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let bb = self.varint()? as u32;
        let flags = self.byte()?;
        let continuation = flags & CONTINUATION != 0;
        let placement = match flags & KIND {
            SERIAL => Placement::Serial,
            REPLICATED => Placement::Replicated,
            ITERATION => Placement::Iteration {
                workshare: self.varint()? as u32,
                iteration: self.varint()?,
            },
            _ => {
                let run = self.varint()? as u32;
                let unit = if flags & HAS_UNIT != 0 {
                    let outer = (self.varint()? as u32, self.varint()?);
                    let inner = if flags & HAS_INNER != 0 {
                        Some((self.varint()? as u32, self.varint()?))
                    } else {
                        None
                    };
                    Some(Unit { outer, inner })
                } else {
                    None
                };
                match self
                    .fragment
                    .runs
                    .get(run as usize)
                    .and_then(Option::as_ref)
                {
                    Some(table) => {
                        table.resolve(unit, bb, continuation, self.seen.entry(run).or_default())
                    }
                    None => Placement::Replicated,
                }
            }
        };
        let n = self.varint()?;
        let slots = self.last.len() - 1;
        for _ in 0..n {
            let mi = self.varint()? as u32;
            let slot = (mi as usize).min(slots);
            let addr = self.last[slot].wrapping_add(unzigzag(self.varint()?) as u64);
            self.last[slot] = addr;
            let len = self.varint()? as u32;
            accesses.push(Access { addr, len, mi });
        }
        Ok(Some(WindowHeader {
            bb,
            continuation,
            placement,
        }))
    }

    /// Reads windows until one that core `core` runs and appends it to `batch` (with its
    /// sampled flag to `flags`); returns its index there, or `None` at the section's end.
    fn next_for(
        &mut self,
        core: usize,
        config: &MimicConfig,
        batch: &mut SequentialTrace,
        flags: &mut Vec<bool>,
    ) -> Result<Option<u32>> {
        loop {
            let start = batch.accesses.len();
            let Some(w) = self.read(&mut batch.accesses)? else {
                return Ok(None);
            };
            let sampled = self.sample.as_mut().is_some_and(|s| s.step(w.bb));
            let runs_here = match self.owners.core_of(config, w.placement, &batch.workshares) {
                None => true,
                Some(c) => c == core,
            };
            if !runs_here {
                batch.accesses.truncate(start);
                continue;
            }
            let index = batch.windows.len() as u32;
            batch.windows.push(Window {
                bb: w.bb,
                start: start as u32,
                end: batch.accesses.len() as u32,
                section: 0,
                placement: w.placement,
                continuation: w.continuation,
            });
            flags.push(sampled);
            return Ok(Some(index));
        }
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}
