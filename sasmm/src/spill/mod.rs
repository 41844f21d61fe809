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
//! [`RunTable`]. Each cursor re-reads the section (m reads of the file); Alg. 3's sampler and
//! the per-block rule's counters are stepped by every cursor over every window, so all cursors
//! agree. From [`split::FROM_CORES`] to [`split::UP_TO_CORES`] cores, one cursor reads
//! the section once and writes each core's windows to a file of its own, which the rounds then
//! read ([`split`]).
//!
//! Format (private to one process, never kept): per window `varint bb`, a flag byte (and in a
//! per-core part a recorded window's [`Mark`]), the placement fields, `varint accesses`, then
//! per access `varint mi`, `varint zigzag(addr - last addr of mi)`, `varint len`; the
//! per-instruction addresses restart at every section. Regular code takes 3-5 bytes per access
//! instead of 16.

use crate::error::{Result, SasmmError};
use crate::mimic::{MimicConfig, MimickedSection, MimickedTrace};
use crate::sample::{Mark, WindowSampler, NOT_RECORDED};
use crate::window::{Access, Placement, Section, SequentialTrace};
use crate::workshare::{RunTable, Tag};
use std::fs::File;
use std::io::Write;

mod cursor;
mod split;

use crate::workshare::Seen;
use cursor::Cursor;

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
/// In a per-core part ([`split`]): Alg. 3's sampler recorded the window; its [`Mark`] follows
/// the flag byte.
const MARKED: u8 = 1 << 5;

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
    out: File,
    /// Bytes written to the file so far (the buffer's follow).
    flushed: u64,
    /// Encoded windows not yet written: each window is encoded straight into it, and it goes
    /// to the file whole once it holds `buffer` bytes.
    buf: Vec<u8>,
    buffer: usize,
    /// Last address per memory instruction (the last slot for ids beyond the table).
    last: Vec<u64>,
    sections: Vec<SpilledSection>,
    section_offset: u64,
    section_windows: u64,
    windows: u64,
    accesses: u64,
    runs: Vec<Option<RunTable>>,
    error: Option<std::io::Error>,
}

impl SpillWriter {
    /// A writer for a program with `mem_instrs` memory instructions; the file is created in
    /// the temporary directory (`TMPDIR`) and unlinked at once.
    pub fn new(mem_instrs: usize) -> Result<Self> {
        Self::with_buffer(mem_instrs, 1 << 20)
    }

    /// [`SpillWriter::new`] with a write buffer of `buffer` bytes.
    fn with_buffer(mem_instrs: usize, buffer: usize) -> Result<Self> {
        let file = tempfile::tempfile().map_err(spill_error)?;
        Ok(SpillWriter {
            out: file,
            flushed: 0,
            buf: Vec::with_capacity(buffer + 256),
            buffer,
            last: vec![0; mem_instrs + 1],
            sections: Vec::new(),
            section_offset: 0,
            section_windows: 0,
            windows: 0,
            accesses: 0,
            runs: Vec::new(),
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
        let accesses = &seq.accesses[w.range()];
        self.put_window(w.bb, w.continuation, tag, NOT_RECORDED, accesses);
    }

    /// Writes a window of block `bb` with its tag and accesses; `mark` is the sampler's mark
    /// of a window of a per-core part ([`split`]).
    fn put_window(
        &mut self,
        bb: u32,
        continuation: bool,
        tag: Tag,
        mark: Mark,
        accesses: &[Access],
    ) {
        let buf = &mut self.buf;
        put_varint(buf, bb as u64);
        let mut flags = if continuation { CONTINUATION } else { 0 };
        let at = buf.len();
        buf.push(0);
        if mark != NOT_RECORDED {
            flags |= MARKED;
            buf.push(mark);
        }
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
        put_varint(buf, accesses.len() as u64);
        let slots = self.last.len() - 1;
        for a in accesses {
            let slot = (a.mi as usize).min(slots);
            put_varint(buf, a.mi as u64);
            put_varint(buf, zigzag(a.addr.wrapping_sub(self.last[slot]) as i64));
            put_varint(buf, a.len as u64);
            self.last[slot] = a.addr;
        }
        self.windows += 1;
        self.section_windows += 1;
        self.accesses += accesses.len() as u64;
        if self.buf.len() >= self.buffer {
            self.write_out();
        }
    }

    /// Writes the buffer to the file (after a write error, drops it: the error is reported).
    fn write_out(&mut self) {
        if self.error.is_none() {
            match self.out.write_all(&self.buf) {
                Ok(()) => self.flushed += self.buf.len() as u64,
                Err(e) => self.error = Some(e),
            }
        }
        self.buf.clear();
    }

    /// Bytes of the fragment so far, written or buffered.
    fn bytes(&self) -> u64 {
        self.flushed + self.buf.len() as u64
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
        self.section_offset = self.bytes();
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
        self.write_out();
        if let Some(e) = self.error.take() {
            return Err(spill_error(e));
        }
        Ok(SpilledFragment {
            file: self.out,
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

    /// Calls `f(bb, continuation, parallel)` for every window in program order (tests: what a
    /// spilled fragment holds).
    #[cfg(test)]
    pub(crate) fn for_each_window(&self, mut f: impl FnMut(u32, bool, bool)) -> Result<()> {
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
    /// rounds (see the module documentation) with each batch window's mark; `sample` (the
    /// pass's Alg. 3 sampler) is stepped over every window of the fragment.
    pub(crate) fn for_each_batch(
        &self,
        config: MimicConfig,
        mut sample: Option<&mut WindowSampler>,
        mut f: impl FnMut(&MimickedTrace<'_>, &[Mark]),
    ) -> Result<()> {
        let m = config.cores.max(1);
        let mut batch = SequentialTrace {
            workshares: self.header.workshares.clone(),
            mi_class: self.header.mi_class.clone(),
            mi_shared_variable: self.header.mi_shared_variable.clone(),
            block_names: self.header.block_names.clone(),
            ..SequentialTrace::default()
        };
        let mut seen = Seen::default();
        for s in &self.sections {
            let cores = if s.parallel { m } else { 1 };
            // From FROM_CORES cores on, one pass over the section into a file per core, then
            // each file once; else a cursor per core over the section.
            let split = (split::FROM_CORES..=split::UP_TO_CORES).contains(&cores);
            let parts;
            let (mut readers, whole) = if split {
                let mut cursor = Cursor::new(self, s, seen, sample.as_deref().cloned());
                parts = split::by_core(&mut cursor, &config, &batch.workshares, cores)?;
                let readers: Vec<Cursor<'_>> = parts.iter().map(|p| p.reader()).collect();
                (readers, Some(cursor))
            } else {
                let cursors: Vec<Cursor<'_>> = (0..cores)
                    .map(|_| Cursor::new(self, s, seen.clone(), sample.as_deref().cloned()))
                    .collect();
                (cursors, None)
            };
            rounds(
                &mut batch,
                s.parallel,
                config,
                cores,
                &mut f,
                |c, batch, marks| {
                    if split {
                        readers[c].next_own(batch, marks)
                    } else {
                        readers[c].next_for(c, &config, batch, marks)
                    }
                },
            )?;
            // The cursor that read every window of the section (core 0's when not split), with
            // what it stepped.
            let read_all = whole.unwrap_or_else(|| readers.swap_remove(0));
            let Cursor {
                seen: stepped_seen,
                sample: stepped,
                ..
            } = read_all;
            seen = stepped_seen;
            if let (Some(out), Some(stepped)) = (sample.as_deref_mut(), stepped) {
                *out = stepped;
            }
        }
        Ok(())
    }

    /// A reader of the whole of a per-core part ([`split`]): one section, final placements.
    fn reader(&self) -> Cursor<'_> {
        let empty = SpilledSection {
            parallel: true,
            offset: 0,
            windows: 0,
        };
        Cursor::new(
            self,
            self.sections.first().unwrap_or(&empty),
            Seen::default(),
            None,
        )
    }
}

/// Hands one section's windows to `f` in batches of whole rounds (the next window of each of
/// the first `cores` cores that has one, `next(core, batch, marks)` appending it), each a
/// [`MimickedTrace`] of `config`.
fn rounds(
    batch: &mut SequentialTrace,
    parallel: bool,
    config: MimicConfig,
    cores: usize,
    f: &mut impl FnMut(&MimickedTrace<'_>, &[Mark]),
    mut next: impl FnMut(usize, &mut SequentialTrace, &mut Vec<Mark>) -> Result<Option<u32>>,
) -> Result<()> {
    let m = config.cores.max(1);
    let mut marks = Vec::new();
    let mut per_core: Vec<Vec<u32>> = vec![Vec::new(); m];
    loop {
        batch.windows.clear();
        batch.accesses.clear();
        marks.clear();
        per_core.iter_mut().for_each(Vec::clear);
        // Whole rounds: the next window of every core that has one.
        loop {
            let mut progressed = false;
            for (c, list) in per_core.iter_mut().enumerate().take(cores) {
                if let Some(w) = next(c, batch, &mut marks)? {
                    list.push(w);
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
            return Ok(());
        }
        batch.sections.clear();
        batch.sections.push(Section {
            parallel,
            windows: 0..batch.windows.len() as u32,
        });
        let trace = MimickedTrace {
            seq: batch,
            config,
            sections: vec![MimickedSection {
                parallel,
                per_core: std::mem::take(&mut per_core),
            }],
        };
        f(&trace, &marks);
        per_core = trace
            .sections
            .into_iter()
            .next()
            .map_or_else(|| vec![Vec::new(); m], |section| section.per_core);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows written and read back are the same accesses: an instruction's lengths changing
    /// (back and forth, and to 0), an id beyond the table sharing the last slot, addresses
    /// moving both ways and across the whole range, two sections; windows of a per-core part
    /// keep their sampler's marks (none, the lowest, the highest).
    #[test]
    fn accesses_round_trip_through_the_file() {
        let access = |mi, addr, len| Access { addr, len, mi };
        let sections = [
            vec![
                vec![access(0, 64, 8), access(1, 1 << 40, 4), access(0, 72, 8)],
                vec![access(0, 16, 16), access(0, 0, 0), access(2, 999, 300)],
                vec![access(7, 5, 1), access(9, u64::MAX - 3, 4), access(0, 8, 8)],
            ],
            vec![vec![access(1, 3, 4), access(1, 2, 2), access(1, 1, 4)]],
        ];
        let marks = [NOT_RECORDED, 1, 41];
        let mut w = SpillWriter::new(3).unwrap();
        for windows in &sections {
            for (i, accesses) in windows.iter().enumerate() {
                let tag = Tag::Final(Placement::Replicated);
                w.put_window(5, false, tag, marks[i], accesses);
            }
            w.close_section(true);
        }
        let fragment = w.finish(SequentialTrace::default()).unwrap();
        assert_eq!(fragment.sections.len(), 2);
        for (s, windows) in fragment.sections.iter().zip(&sections) {
            let mut cursor = Cursor::new(&fragment, s, Seen::default(), None);
            for (i, accesses) in windows.iter().enumerate() {
                let mut read = Vec::new();
                let header = cursor.read(&mut read).unwrap().unwrap();
                assert_eq!(header.bb, 5);
                assert_eq!(header.mark, marks[i]);
                assert_eq!(header.placement, Placement::Replicated);
                assert_eq!(&read, accesses);
            }
            assert!(cursor.read(&mut Vec::new()).unwrap().is_none());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// Any accesses round-trip: instructions in and beyond the table (up to `u32::MAX`),
        /// any address and length, windows of any size, sections of any number of windows.
        #[test]
        fn any_accesses_round_trip(
            sections in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::collection::vec(
                        (
                            proptest::prop_oneof![0u32..6, proptest::prelude::any::<u32>()],
                            proptest::prop_oneof![0u64..4096, proptest::prelude::any::<u64>()],
                            proptest::prop_oneof![0u32..3, proptest::prelude::any::<u32>()],
                        ),
                        0..8,
                    ),
                    1..6,
                ),
                1..4,
            ),
        ) {
            let sections: Vec<Vec<Vec<Access>>> = sections
                .into_iter()
                .map(|windows| {
                    windows
                        .into_iter()
                        .map(|acc| {
                            acc.into_iter()
                                .map(|(mi, addr, len)| Access { addr, len, mi })
                                .collect()
                        })
                        .collect()
                })
                .collect();
            let mut w = SpillWriter::new(4).unwrap();
            for windows in &sections {
                for accesses in windows {
                    let tag = Tag::Final(Placement::Serial);
                    w.put_window(1, false, tag, NOT_RECORDED, accesses);
                }
                w.close_section(false);
            }
            let fragment = w.finish(SequentialTrace::default()).unwrap();
            for (s, windows) in fragment.sections.iter().zip(&sections) {
                let mut cursor = Cursor::new(&fragment, s, Seen::default(), None);
                for accesses in windows {
                    let mut read = Vec::new();
                    cursor.read(&mut read).unwrap().unwrap();
                    proptest::prop_assert_eq!(&read, accesses);
                }
            }
        }
    }
}
