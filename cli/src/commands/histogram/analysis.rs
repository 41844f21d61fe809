//! The histogram as an [`Analysis`]: every access's blocks into one engine, or, with
//! `--per-thread`, each thread's into an engine of its own. The same value reads a file
//! ([`rdtrace::analysis::run`]), a stream merged in stamp order ([`rdtrace::analysis::run_merged`])
//! or a stream's chunks as they arrive ([`HistogramAnalysis::thread`] before each chunk).

use super::{sampling, BlockFeeder};
use anyhow::Result;
use rdengines::{Histogram, SampleStats};
use rdtrace::analysis::{Analysis, ChunkDigester, Digest, Shape};
use rdtrace::reader::{ChunkReader, EventChunkRef};
use rdtrace::{Event, EventVisitor};
use std::collections::BTreeMap;

/// Makes a feeder (an engine at the command's granularity) for the whole run or one thread.
pub type NewFeeder<'f> = &'f dyn Fn() -> Result<BlockFeeder>;

/// What the histogram of a run found.
pub struct HistogramRun {
    /// The histogram of every access (with `--per-thread`, the sum of the threads').
    pub all: Histogram,
    /// With `--per-thread`: each thread's, by thread index ascending (a thread without events
    /// has an empty one).
    pub per_thread: Vec<(u32, Histogram)>,
    /// What sampling did, when the engine samples.
    pub sampling: Option<SampleStats>,
}

/// The histogram analysis (see the module documentation).
pub struct HistogramAnalysis<'f> {
    new_feeder: NewFeeder<'f>,
    per_thread: bool,
    /// Whether the engine is exact (the per-thread sum says so).
    exact: bool,
    /// Whether the feeders run their engine on a thread of their own: then decoding the
    /// trace on other cores pays.
    pipelined: bool,
    /// The granularity's shift (what the feeders reduce addresses by).
    shift: u32,
    /// Where the events go: the one feeder, or thread `current_thread`'s.
    current: Option<BlockFeeder>,
    current_thread: Option<u32>,
    /// `--per-thread` over a stream whose chunks interleave threads: the other threads'
    /// feeders, until their next chunk.
    waiting: BTreeMap<u32, BlockFeeder>,
    /// `--per-thread`: the threads whose histograms are done.
    done: BTreeMap<u32, Histogram>,
    sampling: Option<SampleStats>,
    /// The first feeder that could not be made or finished: returned by `finish`.
    error: Option<anyhow::Error>,
}

impl<'f> HistogramAnalysis<'f> {
    /// A histogram of the whole run, or of each thread with `per_thread`; `exact` says whether
    /// the engine is exact. Makes the first feeder now, so that an engine that cannot be made
    /// fails before any reading.
    pub fn new(new_feeder: NewFeeder<'f>, per_thread: bool, exact: bool) -> Result<Self> {
        let first = new_feeder()?;
        Ok(HistogramAnalysis {
            new_feeder,
            per_thread,
            exact,
            pipelined: first.is_pipelined(),
            shift: first.shift(),
            // Per thread, the first thread found takes it (see `thread`).
            current: Some(first),
            current_thread: None,
            waiting: BTreeMap::new(),
            done: BTreeMap::new(),
            sampling: None,
            error: None,
        })
    }

    /// Ends `feeder`, keeping its sampling statistics; `None` (and the error kept) on failure.
    fn finish_feeder(&mut self, feeder: BlockFeeder) -> Option<Histogram> {
        match feeder.finish_sampled() {
            Ok((h, s)) => {
                sampling::accumulate(&mut self.sampling, s);
                Some(h)
            }
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    /// With `--per-thread` over a stream: thread `t`'s next chunk of events.
    pub fn thread_chunk(&mut self, t: u32, events: &[Event]) {
        self.thread(t);
        for e in events {
            e.visit(self);
        }
    }

    /// Ends the analysis of a stream: `threads` are the run's threads (with `--per-thread` each
    /// gets a histogram, empty for a thread without events, as for the file of the same run).
    pub fn finish_stream(mut self, threads: &[u32]) -> Result<HistogramRun> {
        for &t in threads {
            self.thread(t);
        }
        self.finish_run()
    }

    /// Ends the analysis: the histograms, or the first error of an engine.
    fn finish_run(mut self) -> Result<HistogramRun> {
        if !self.per_thread {
            let all = self.current.take().and_then(|f| self.finish_feeder(f));
            if let Some(e) = self.error {
                return Err(e);
            }
            return Ok(HistogramRun {
                all: all.expect("a whole-run histogram has its feeder until the end"),
                per_thread: Vec::new(),
                sampling: self.sampling,
            });
        }
        if let Some(t) = self.current_thread {
            self.thread_end(t);
        }
        for (t, f) in std::mem::take(&mut self.waiting) {
            if let Some(h) = self.finish_feeder(f) {
                self.done.insert(t, h);
            }
        }
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut all = Histogram::new_exact();
        all.exact = self.exact;
        for h in self.done.values() {
            all.merge(h);
        }
        Ok(HistogramRun {
            all,
            per_thread: self.done.into_iter().collect(),
            sampling: self.sampling,
        })
    }
}

impl EventVisitor for HistogramAnalysis<'_> {
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        // No feeder only after an engine failed (the error is kept for `finish`).
        if let Some(f) = &mut self.current {
            f.access(mi, addr, len);
        }
    }
}

impl Analysis for HistogramAnalysis<'_> {
    type Report = Result<HistogramRun>;

    fn shape(&self) -> Shape {
        if self.per_thread {
            Shape::PerThread
        } else {
            Shape::Merged
        }
    }

    fn thread(&mut self, thread: u32) {
        if !self.per_thread || self.current_thread == Some(thread) {
            return;
        }
        if let Some(t) = self.current_thread.replace(thread) {
            if let Some(f) = self.current.take() {
                self.waiting.insert(t, f);
            }
        }
        if self.done.contains_key(&thread) {
            // A thread already ended: only a stream's late announcement of it (no events).
            self.current = None;
            return;
        }
        // The feeder made by `new` is the first thread's.
        if self.current.is_none() {
            self.current = match self.waiting.remove(&thread) {
                Some(f) => Some(f),
                None => match (self.new_feeder)() {
                    Ok(f) => Some(f),
                    Err(e) => {
                        self.error.get_or_insert(e);
                        None
                    }
                },
            };
        }
    }

    fn thread_end(&mut self, thread: u32) {
        if !self.per_thread || self.current_thread != Some(thread) {
            return;
        }
        self.current_thread = None;
        if let Some(f) = self.current.take() {
            if let Some(h) = self.finish_feeder(f) {
                self.done.insert(thread, h);
            }
        }
    }

    fn finish(self) -> Self::Report {
        self.finish_run()
    }
}

impl Digest for HistogramAnalysis<'_> {
    type Digester = BlockDigester;

    fn digester(&self) -> Option<BlockDigester> {
        // Decoding ahead on other cores pays only when the engine has a core of its own; a
        // parallel engine (PARDA, HP-RDA) uses them itself.
        self.pipelined
            .then_some(BlockDigester { shift: self.shift })
    }

    fn piece(&mut self, piece: ChunkBlocks) {
        let Some(f) = &mut self.current else { return };
        match piece {
            ChunkBlocks::Blocks(blocks) => f.blocks(&blocks),
            ChunkBlocks::Ranges(accesses) => {
                for (addr, len) in accesses {
                    f.access(0, addr, len);
                }
            }
        }
    }
}

/// A chunk's accesses as the engine takes them.
pub enum ChunkBlocks {
    /// The blocks they touch, in order.
    Blocks(Vec<u64>),
    /// The accesses themselves (address, length), for a chunk whose ranges touch more blocks
    /// than it has events several times over: memory stays bounded by the chunk's events.
    Ranges(Vec<(u64, u64)>),
}

/// Turns a chunk into the blocks its accesses touch, on a worker.
pub struct BlockDigester {
    shift: u32,
}

impl ChunkDigester for BlockDigester {
    type Piece = ChunkBlocks;

    fn digest(
        &self,
        reader: &mut ChunkReader<'_>,
        chunk: &EventChunkRef,
    ) -> rdtrace::Result<(ChunkBlocks, u64)> {
        /// The blocks of a chunk's accesses, up to `cap`.
        struct Blocks {
            shift: u32,
            cap: usize,
            blocks: Vec<u64>,
            over: bool,
        }
        impl EventVisitor for Blocks {
            #[inline]
            fn access(&mut self, _mi: u32, addr: u64, len: u64) {
                let blocks = &mut self.blocks;
                rdengines::granularity::for_each_block(self.shift, addr, len, |b| blocks.push(b));
                if blocks.len() > self.cap {
                    self.over = true;
                    blocks.clear();
                }
            }
        }
        /// A chunk's accesses.
        struct Ranges(Vec<(u64, u64)>);
        impl EventVisitor for Ranges {
            fn access(&mut self, _mi: u32, addr: u64, len: u64) {
                self.0.push((addr, len));
            }
        }
        let mut blocks = Blocks {
            shift: self.shift,
            cap: 2 * chunk.events as usize + (1 << 16),
            blocks: Vec::with_capacity(chunk.events as usize),
            over: false,
        };
        let events = reader.visit_chunk(chunk, &mut blocks)?;
        if !blocks.over {
            return Ok((ChunkBlocks::Blocks(blocks.blocks), events));
        }
        // Ranges of many lines (rare): decoded again, keeping the accesses.
        let mut ranges = Ranges(Vec::with_capacity(chunk.events as usize));
        reader.visit_chunk(chunk, &mut ranges)?;
        Ok((ChunkBlocks::Ranges(ranges.0), events))
    }
}
