//! Collecting per-(instruction, path) reuse distances from a trace.
//!
//! [`PathCollector`] is an [`EventVisitor`]: per thread it drives a [`BranchHistory`] and a
//! [`FastCore`], and charges the cache-line reuse distance of every access to the access's
//! memory instruction and its exact path window of the longest history asked for. Shorter
//! histories are projections of that window, made afterwards in [`crate::analysis`], so the hot
//! path does one hash lookup per access whatever the number of history lengths. Memory is
//! bounded by the number of distinct (instruction, window) keys and distinct lines, not by the
//! trace length.
//!
//! Threads are profiled one after the other, each with its own history and its own reuse
//! stack (private reuse, as on the paper's sequential runs); their keys share one table.

use crate::bins::Bins;
use crate::error::{PathsError, Result};
use crate::history::{BranchHistory, HistoryEntry, SquashPeriod, MAX_HISTORY_BITS};
use crate::patterns::PatternConfig;
use rdengines::FastCore;
use rdtrace::meta::ProgramMeta;
use rdtrace::{EventVisitor, Trace};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// Options of the path-based analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathConfig {
    /// Cache-line size in bytes (a power of two); distances count distinct lines.
    pub line: u32,
    /// History lengths `n` (bits) to analyse, each in `1..=56`.
    pub histories: Vec<u32>,
    /// Loop squash period `l`.
    pub squash: SquashPeriod,
    /// Pattern formation.
    pub patterns: PatternConfig,
    /// Distances below this (in lines) are short, the others long (1K lines ≈ a 64 KB cache
    /// with 64-byte lines; the paper's 1K corresponds to its 32 KB L1 with 32-byte lines).
    pub long_threshold: u64,
}

impl Default for PathConfig {
    fn default() -> Self {
        PathConfig {
            line: 64,
            histories: vec![1, 2, 4, 8, 16, 32],
            squash: SquashPeriod::PerLoop,
            patterns: PatternConfig::default(),
            long_threshold: 1024,
        }
    }
}

impl PathConfig {
    /// Checks the values and returns the longest history.
    pub fn validate(&self) -> Result<u32> {
        if rdengines::LineSize::new(self.line).is_err() {
            return Err(PathsError::Config(format!(
                "line size must be a power of two (got {})",
                self.line
            )));
        }
        if self.histories.is_empty() {
            return Err(PathsError::Config("no history length given".into()));
        }
        if let Some(&n) = self
            .histories
            .iter()
            .find(|&&n| n == 0 || n > MAX_HISTORY_BITS)
        {
            return Err(PathsError::Config(format!(
                "history length {n} is outside 1..={MAX_HISTORY_BITS}"
            )));
        }
        if let SquashPeriod::Fixed(0) = self.squash {
            return Err(PathsError::Config(
                "squash period must be at least 1".into(),
            ));
        }
        if !(0.0..1.0).contains(&self.patterns.drop_below) {
            return Err(PathsError::Config(format!(
                "the fraction below which patterns are dropped must be in [0, 1) (got {})",
                self.patterns.drop_below
            )));
        }
        if let Some(f) = self.patterns.min_frequency {
            if !(f > 0.0 && f <= 1.0) {
                return Err(PathsError::Config(format!(
                    "the minimum frequency must be in (0, 1] (got {f})"
                )));
            }
        }
        Ok(*self.histories.iter().max().expect("not empty"))
    }
}

/// Distances of one memory instruction along one exact path window.
#[derive(Clone, Debug)]
pub struct PathRecord {
    /// Memory instruction id.
    pub mi: u32,
    /// Stack depth at the accesses, capped at the longest history.
    pub depth: u32,
    /// The top entries of the stack, most recent first (as many as `depth`).
    pub window: Box<[HistoryEntry]>,
    /// Finite distances.
    pub bins: Bins,
    /// First touches (infinite distance).
    pub cold: u64,
}

/// Everything collected from one trace.
#[derive(Clone, Debug)]
pub struct PathProfile {
    /// The options used.
    pub config: PathConfig,
    /// Longest history length (the window size of the records).
    pub max_bits: u32,
    /// One record per (instruction, exact window).
    pub records: Vec<PathRecord>,
    /// Number of memory instructions in the program.
    pub mem_instrs: u32,
    /// Access events seen.
    pub accesses: u64,
    /// Line references (an access spanning k lines makes k references).
    pub references: u64,
    /// References that were first touches.
    pub cold: u64,
    /// Threads profiled.
    pub threads: u32,
}

/// Collects a [`PathProfile`] from events. Call [`begin_thread`](Self::begin_thread) before
/// each thread's events, then [`finish`](Self::finish).
pub struct PathCollector {
    config: PathConfig,
    max_bits: u32,
    shift: u32,
    mem_instrs: u32,
    history: BranchHistory,
    tracker: FastCore,
    index: FxHashMap<(u32, u64), u32>,
    records: Vec<PathRecord>,
    accesses: u64,
    references: u64,
    cold: u64,
    threads: u32,
}

impl PathCollector {
    /// A collector for a program's metadata.
    pub fn new(meta: &ProgramMeta, config: &PathConfig) -> Result<Self> {
        let max_bits = config.validate()?;
        Ok(PathCollector {
            config: config.clone(),
            max_bits,
            shift: config.line.trailing_zeros(),
            mem_instrs: meta.mem_instrs.len() as u32,
            history: BranchHistory::new(meta, config.line, config.squash),
            tracker: FastCore::untracked(0),
            index: FxHashMap::default(),
            records: Vec::new(),
            accesses: 0,
            references: 0,
            cold: 0,
            threads: 0,
        })
    }

    /// The branch-history tracker (for inspecting squash periods).
    pub fn history(&self) -> &BranchHistory {
        &self.history
    }

    /// Starts a new thread: fresh history stack and reuse stack.
    pub fn begin_thread(&mut self) {
        self.history.reset();
        self.tracker = FastCore::untracked(0);
        self.threads += 1;
    }

    #[inline]
    fn record_for(&mut self, mi: u32) -> usize {
        let key = self.history.exact_key(self.max_bits);
        if let Some(&r) = self.index.get(&(mi, key)) {
            return r as usize;
        }
        let window: Box<[HistoryEntry]> = self.history.top().take(self.max_bits as usize).collect();
        let r = self.records.len();
        self.records.push(PathRecord {
            mi,
            depth: window.len() as u32,
            window,
            bins: Bins::new(),
            cold: 0,
        });
        self.index.insert((mi, key), r as u32);
        r
    }

    /// Ends collection.
    pub fn finish(self) -> PathProfile {
        PathProfile {
            config: self.config,
            max_bits: self.max_bits,
            records: self.records,
            mem_instrs: self.mem_instrs,
            accesses: self.accesses,
            references: self.references,
            cold: self.cold,
            threads: self.threads,
        }
    }
}

impl EventVisitor for PathCollector {
    #[inline]
    fn block(&mut self, bb: u32) {
        self.history.block(bb);
    }

    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        self.history.branch(br, outcome);
    }

    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.history.access(mi);
        let r = self.record_for(mi);
        self.accesses += 1;
        let rec = &mut self.records[r];
        rdengines::granularity::for_each_block(self.shift, addr, len, |line| {
            self.references += 1;
            // See: Section 3.1 — backward reuse distance at cache-line granularity.
            match self.tracker.access(line) {
                Some(d) => rec.bins.add(d),
                None => {
                    rec.cold += 1;
                    self.cold += 1;
                }
            }
        });
    }
}

/// Profiles every thread of a trace.
pub fn profile_trace(trace: &Trace, config: &PathConfig) -> Result<PathProfile> {
    let mut c = PathCollector::new(&trace.meta, config)?;
    for t in trace.thread_indices() {
        c.begin_thread();
        trace.visit_thread(t, &mut c)?;
    }
    Ok(c.finish())
}
