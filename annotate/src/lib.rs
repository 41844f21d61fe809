//! Source attribution: which source lines and functions make the accesses, the cold misses, the
//! long reuse distances and the simulated cache misses of a run (cachegrind's `cg_annotate` for
//! rdtools traces).
//!
//! One streaming pass over the events in stamp order ([`rdtrace::Trace::merged`]) feeds every
//! access, cache line by cache line, to
//!
//! * an exact reuse-distance stack over all threads ([`rdengines::FrontedStack`]; the concurrent
//!   distance that `rda-report histogram` reports), and one private stack per thread;
//! * the exact LRU simulator [`rdcachesim::CoherentHierarchy`] (a private L1 per thread, one
//!   shared L2, threads becoming cores in thread-index order, write-invalidate coherence between
//!   the L1s with each access's kind from the metadata, as `rda-report measure` does), whose
//!   every L1 miss is classed compulsory, capacity, conflict or coherence (true or false
//!   sharing);
//! * with [`AnnotateConfig::false_sharing`], a [`rdcachesim::SharingRecorder`]: which threads
//!   touched which bytes of the cache lines with coherence misses, from which source lines
//!   ([`FalseSharing`], resolved in [`sharing`]),
//!
//! and charges the result to the memory instruction's source line and function. The stacks run
//! on a thread of their own where there is a second CPU (`distances`). Memory is
//! bounded by the footprint (the stacks) and the number of source lines, never by the trace
//! length (the recorder by its own bound).
//!
//! Architecture invariant: this crate reads traces and counts; it does no printing (the CLI
//! renders [`Annotation`]).

mod bins;
mod config;
mod distances;
mod drive;
pub mod sharing;
mod stats;

pub use bins::DistanceBins;
pub use config::{AnnotateConfig, AnnotateError};
pub use drive::{annotate, annotate_with_progress};
pub use sharing::FalseSharing;
use stats::SimulatedCounts;
pub use stats::{Annotation, Counts, FunctionStats, LineStats};

use distances::Distances;
use rdcachesim::{CoherentHierarchy, Served, SharingRecorder};
use rdengines::batched::Batched;
use rdengines::Histogram;
use rdtrace::meta::ProgramMeta;
use std::collections::HashMap;

// The unit tests (`tests.rs`, through `use super::*`) name these types through the crate root.
#[cfg(test)]
use rdcachesim::{CacheConfig, MissKinds};

/// Where a memory instruction's counts go.
#[derive(Clone, Copy)]
struct Target {
    line: usize,
    function: usize,
    /// Index of the (line, function) pair in `Annotator::pair_accesses`.
    pair: usize,
}

/// One memory instruction as the simulation sees it: its kind and what it counted.
#[derive(Clone, Copy)]
struct InstrSlot {
    read: bool,
    write: bool,
    counts: SimulatedCounts,
}

/// The streaming part: feed accesses in global order with [`Annotator::access`].
pub struct Annotator {
    config: AnnotateConfig,
    hierarchy: CoherentHierarchy,
    /// Per memory instruction (by id; the last slot for ids beyond the metadata, which read):
    /// its kind and its simulated counts, which `finish` adds to `line_counts`,
    /// `function_counts` and `pair_accesses`.
    slots: Vec<InstrSlot>,
    recorder: Option<SharingRecorder>,
    /// The reuse distances, here or on a thread of their own (taken at `finish`).
    distances: Option<Batched<Distances>>,
    targets: Vec<Target>,
    line_keys: Vec<(String, u32)>,
    line_counts: Vec<Counts>,
    function_names: Vec<(String, String)>,
    function_counts: Vec<Counts>,
    /// Functions with instructions on each line key, with the index of the pair's access count.
    line_functions: Vec<Vec<(usize, usize)>>,
    /// Accesses per (line, function) pair: a line lists only the functions that executed it.
    pair_accesses: Vec<u64>,
    line_mis: Vec<Vec<u32>>,
}

impl Annotator {
    /// An annotator for a program with metadata `meta`.
    pub fn new(meta: &ProgramMeta, config: AnnotateConfig) -> Result<Self, AnnotateError> {
        if config.l1.line != config.l2.line {
            return Err(AnnotateError::LineSizes {
                l1: config.l1.line,
                l2: config.l2.line,
            });
        }
        let mut line_index: HashMap<(String, u32), usize> = HashMap::new();
        let mut line_keys = Vec::new();
        let mut key_of = |file: String, line: u32, keys: &mut Vec<(String, u32)>| {
            *line_index.entry((file.clone(), line)).or_insert_with(|| {
                keys.push((file, line));
                keys.len() - 1
            })
        };
        // Function slot `functions.len()` stands for instructions of an unknown block.
        let mut function_names: Vec<(String, String)> = meta
            .functions
            .iter()
            .map(|f| (f.name.clone(), short_loc(meta, f.loc)))
            .collect();
        function_names.push(("?".into(), "?".into()));
        let unknown_function = function_names.len() - 1;
        let mut targets: Vec<Target> = Vec::with_capacity(meta.mem_instrs.len() + 1);
        for m in &meta.mem_instrs {
            let (file, line) = match m.loc {
                Some(l) if l.line > 0 => (
                    meta.files
                        .get(l.file as usize)
                        .cloned()
                        .unwrap_or_else(|| "?".into()),
                    l.line,
                ),
                _ => ("?".into(), 0),
            };
            let function = meta
                .blocks
                .get(m.block as usize)
                .map(|b| b.function as usize)
                .filter(|&f| f < meta.functions.len())
                .unwrap_or(unknown_function);
            targets.push(Target {
                line: key_of(file, line, &mut line_keys),
                function,
                pair: 0,
            });
        }
        // Slot for ids outside the metadata (a damaged trace): counted, never dropped.
        targets.push(Target {
            line: key_of("?".into(), 0, &mut line_keys),
            function: unknown_function,
            pair: 0,
        });
        let mut line_functions: Vec<Vec<(usize, usize)>> = vec![Vec::new(); line_keys.len()];
        let mut line_mis = vec![Vec::new(); line_keys.len()];
        let mut pairs = 0;
        for (mi, t) in targets.iter_mut().enumerate() {
            let fs = &mut line_functions[t.line];
            t.pair = match fs.iter().find(|&&(f, _)| f == t.function) {
                Some(&(_, pair)) => pair,
                None => {
                    fs.push((t.function, pairs));
                    pairs += 1;
                    pairs - 1
                }
            };
            if mi < meta.mem_instrs.len() {
                line_mis[t.line].push(mi as u32);
            }
        }
        Ok(Annotator {
            config,
            hierarchy: CoherentHierarchy::new(config.l1, config.l2, None),
            slots: meta
                .mem_instrs
                .iter()
                .map(|m| (m.kind.reads(), m.kind.writes()))
                .chain([(true, false)])
                .map(|(read, write)| InstrSlot {
                    read,
                    write,
                    counts: SimulatedCounts::default(),
                })
                .collect(),
            recorder: config
                .false_sharing
                .map(|c| SharingRecorder::new(config.l1.line, c)),
            distances: Some(distances::on_second_cpu(Distances::new(
                config.l1,
                targets.clone(),
                pairs,
            ))),
            line_counts: vec![Counts::default(); line_keys.len()],
            line_keys,
            function_counts: vec![Counts::default(); function_names.len()],
            function_names,
            targets,
            line_functions,
            pair_accesses: vec![0; pairs],
            line_mis,
        })
    }

    /// One access by memory instruction `mi` of `len` bytes at `addr`, made on core `core`
    /// (the thread's position among the trace's threads). Inlined into the per-event loop of
    /// `drive`, another module (and codegen unit) since the crate was split.
    #[inline]
    pub fn access(&mut self, core: usize, mi: u32, addr: u64, len: u64) {
        if let Some(d) = &mut self.distances {
            d.push((core as u32, mi, addr, len));
        }
        let last = self.slots.len() - 1;
        let slot = &mut self.slots[(mi as usize).min(last)];
        let (read, write, counts) = (slot.read, slot.write, &mut slot.counts);
        counts.accesses += 1;
        let shift = self.config.l1.line_shift();
        let first = addr >> shift;
        let hi = addr.saturating_add(len.max(1));
        let recorder = &mut self.recorder;
        // A repeat of the core's last line that changes nothing but the counts is an L1 hit
        // without a lookup (as in `measure`).
        if (hi - 1) >> shift == first && self.hierarchy.try_repeat(core, first, write) {
            if let Some(r) = recorder.as_mut() {
                r.record(core, mi, first, addr, hi, read, write, None);
            }
            counts.outcome(Served::L1, None);
            return;
        }
        // The hierarchy reports the L1 lines in address order, from the first.
        let mut line = first;
        self.hierarchy.access_with(core, addr, len, write, |o| {
            if let Some(r) = recorder.as_mut() {
                r.record(core, mi, line, addr, hi, read, write, o.l1_miss);
            }
            line += 1;
            counts.outcome(o.served, o.l1_miss);
        });
    }

    /// The results, lines and functions sorted by misses.
    pub fn finish(mut self, thread_indices: &[u32]) -> Annotation {
        for (slot, t) in self.slots.iter().zip(&self.targets) {
            self.line_counts[t.line].add_simulated(&slot.counts);
            self.function_counts[t.function].add_simulated(&slot.counts);
            self.pair_accesses[t.pair] += slot.counts.accesses;
        }
        let false_sharing = self
            .recorder
            .take()
            .map(|r| sharing::resolve(&self, r.finish(), thread_indices));
        // The distances' counts add to the simulation's (see `distances`).
        let d = self.distances.take().expect("finished once").join();
        for (line, functions) in self.line_functions.iter().enumerate() {
            for &(function, pair) in functions {
                self.line_counts[line].merge(&d.pair_counts[pair]);
                self.function_counts[function].merge(&d.pair_counts[pair]);
            }
        }
        let mut total = Counts::default();
        for c in &self.function_counts {
            total.merge(c);
        }
        let mut lines: Vec<LineStats> = self
            .line_keys
            .into_iter()
            .zip(self.line_counts)
            .zip(self.line_functions.into_iter().zip(self.line_mis))
            .filter(|((_, c), _)| c.accesses > 0)
            .map(|(((file, line), counts), (fs, mis))| LineStats {
                file,
                line,
                functions: fs
                    .iter()
                    .filter(|&&(_, pair)| self.pair_accesses[pair] > 0)
                    .map(|&(f, _)| self.function_names[f].0.clone())
                    .collect(),
                mem_instrs: mis,
                counts,
            })
            .collect();
        let mut functions: Vec<FunctionStats> = self
            .function_names
            .into_iter()
            .zip(self.function_counts)
            .filter(|(_, c)| c.accesses > 0)
            .map(|((name, location), counts)| FunctionStats {
                name,
                location,
                counts,
            })
            .collect();
        let key =
            |c: &Counts| std::cmp::Reverse((c.l1_misses, c.l2_misses, c.accesses, c.references));
        lines.sort_by(|a, b| {
            key(&a.counts)
                .cmp(&key(&b.counts))
                .then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line)))
        });
        functions.sort_by(|a, b| {
            key(&a.counts)
                .cmp(&key(&b.counts))
                .then_with(|| a.name.cmp(&b.name))
        });
        let histogram = match d.solo {
            Some(c) => d.private[c].1.clone(),
            None => d.histogram,
        }
        .into_histogram(None, true);
        let thread_histograms: Vec<(u32, Histogram)> = d
            .private
            .into_iter()
            .enumerate()
            .map(|(core, (_, h))| {
                (
                    thread_indices.get(core).copied().unwrap_or(core as u32),
                    h.into_histogram(None, true),
                )
            })
            .collect();
        let threads = thread_histograms
            .iter()
            .filter(|(_, h)| h.total() > 0)
            .count();
        Annotation {
            config: self.config,
            threads,
            total,
            lines,
            functions,
            histogram,
            thread_histograms,
            false_sharing,
        }
    }
}

fn short_loc(meta: &ProgramMeta, loc: Option<rdtrace::meta::SourceLoc>) -> String {
    match loc {
        Some(l) if l.line > 0 => format!(
            "{}:{}",
            meta.files
                .get(l.file as usize)
                .map(String::as_str)
                .unwrap_or("?"),
            l.line
        ),
        _ => "?".into(),
    }
}

#[cfg(test)]
mod tests;
