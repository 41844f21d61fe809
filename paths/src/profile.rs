//! Collecting per-(instruction, path) reuse distances from a trace.
//!
//! [`PathCollector`] is an [`EventVisitor`]: per thread it drives a [`BranchHistory`] and an
//! LRU stack of lines (`crate::reuse`, [`rdengines::LastLineStack`]), and charges the
//! cache-line reuse distance of every access to the access's memory instruction and its exact
//! path window of the longest history asked for. Shorter histories are projections of that
//! window, made afterwards in [`crate::analysis`], so the hot path finds one record per access
//! whatever the number of history lengths.
//!
//! Memory grows with the number of distinct (instruction, window) keys, which on branchy code
//! grows with the trace (an interpreter's or a hash table's 32-branch windows rarely repeat).
//! [`PathConfig::max_paths`] bounds it: once that many whole-window records exist, a new
//! window is charged to a record of its most recent entries only, of the longest shorter
//! history length that has such a record or still has room (each shorter length has half the
//! room of the one above it, so all of them hold at most `max_paths` more; past them, one
//! record per instruction without any history). Its references still count exactly for the history lengths up to the
//! length kept and are reported as unclassified for the longer ones (see
//! [`PathRecord::kept`]). `max_paths: None` keeps every window (the exact analysis).
//!
//! Threads are profiled one after the other, each with its own history and its own reuse
//! stack (private reuse, as on the paper's sequential runs); their keys share one table.

use crate::bins::Bins;
use crate::error::{PathsError, Result};
use crate::history::{BranchHistory, HistoryEntry, SquashPeriod, MAX_HISTORY_BITS};
use crate::patterns::PatternConfig;
use crate::recent::RecentRecords;
use crate::reuse::{RecordReuse, Reuse};
use rdtrace::meta::ProgramMeta;
use rdtrace::{Analysis, EventVisitor, Shape, Trace};
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
    /// Records with full windows kept before new windows are kept shorter (see the module
    /// documentation); `None` keeps every window.
    pub max_paths: Option<u64>,
}

/// Default of [`PathConfig::max_paths`]: 2^19 whole-window records, about 250 MiB of profile
/// with 32-bit histories (and at most as many shortened ones, usually far fewer).
pub const DEFAULT_MAX_PATHS: u64 = 1 << 19;

impl Default for PathConfig {
    fn default() -> Self {
        PathConfig {
            line: 64,
            histories: vec![1, 2, 4, 8, 16, 32],
            squash: SquashPeriod::PerLoop,
            patterns: PatternConfig::default(),
            long_threshold: 1024,
            max_paths: Some(DEFAULT_MAX_PATHS),
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
        if self.max_paths == Some(0) {
            return Err(PathsError::Config(
                "the path limit must be at least 1".into(),
            ));
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
    /// Entries of the window the record keeps ([`PathProfile::window`]): `depth`, or fewer
    /// when the record was made after [`PathConfig::max_paths`] records: then it stands for
    /// every window that agrees in its `kept` most recent entries, and its references are on
    /// no path longer than `kept` bits.
    pub kept: u32,
    /// Finite distances.
    pub bins: Bins,
    /// First touches (infinite distance).
    pub cold: u64,
}

impl PathRecord {
    /// Whether the record's window is shorter than the stack was (see [`PathRecord::kept`]).
    pub fn truncated(&self) -> bool {
        self.kept < self.depth
    }

    /// Whether the record's references lie on a known `n`-bit path: its window holds `n`
    /// entries, or the whole stack.
    pub fn projects_to(&self, n: u32) -> bool {
        n <= self.kept || !self.truncated()
    }

    /// Line references (finite and first touches).
    pub fn references(&self) -> u64 {
        self.bins.count() + self.cold
    }
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
    /// The records' windows, `max_bits` entries apart (record `r`'s starts at `r * max_bits`),
    /// most recent entry first; one allocation instead of one per record.
    windows: Vec<HistoryEntry>,
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

impl PathProfile {
    /// The window record `r` keeps: its [`PathRecord::kept`] most recent history entries,
    /// most recent first.
    pub fn window(&self, r: usize) -> &[HistoryEntry] {
        let start = r * self.max_bits as usize;
        &self.windows[start..start + self.records[r].kept as usize]
    }

    /// Records kept with a shortened window because [`PathConfig::max_paths`] was reached.
    pub fn shortened_records(&self) -> u64 {
        self.records.iter().filter(|r| r.truncated()).count() as u64
    }
}

/// One shorter window length records fall back to past the path limit, with its room left.
struct ShortLevel {
    length: u32,
    left: u64,
}

/// Collects a [`PathProfile`] from events. Call [`begin_thread`](Self::begin_thread) before
/// each thread's events, then [`finish`](Self::finish).
pub struct PathCollector {
    config: PathConfig,
    max_bits: u32,
    mem_instrs: u32,
    history: BranchHistory,
    /// Each thread's reuse stack and each record's distances, here or on a thread of their own
    /// (taken at `finish`).
    reuse: Option<RecordReuse>,
    index: FxHashMap<(u32, u64), u32>,
    /// The records used lately, in front of `index`, which misses the cache once it holds
    /// many paths.
    recent: RecentRecords,
    records: Vec<PathRecord>,
    windows: Vec<HistoryEntry>,
    /// Whole-window records that may still be made (`max_paths` at the start).
    full_left: u64,
    /// The window lengths kept once `max_paths` is reached: the configured history lengths
    /// below `max_bits`, longest first, each with its own room.
    shorter: Vec<ShortLevel>,
    accesses: u64,
    threads: u32,
}

impl PathCollector {
    /// A collector for a program's metadata.
    pub fn new(meta: &ProgramMeta, config: &PathConfig) -> Result<Self> {
        let max_bits = config.validate()?;
        let mut lengths: Vec<u32> = config
            .histories
            .iter()
            .copied()
            .filter(|&n| n < max_bits)
            .collect();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths.dedup();
        // The last resort: no history at all, one record per instruction.
        lengths.push(0);
        let full_left = config.max_paths.unwrap_or(u64::MAX);
        // Each shorter level gets half the room of the one above, so all of them together
        // hold fewer records than the whole windows.
        let shorter = lengths
            .iter()
            .enumerate()
            .map(|(k, &length)| ShortLevel {
                length,
                left: full_left >> (k + 1).min(63),
            })
            .collect();
        Ok(PathCollector {
            config: config.clone(),
            max_bits,
            mem_instrs: meta.mem_instrs.len() as u32,
            history: BranchHistory::new(meta, config.line, config.squash),
            reuse: Some(RecordReuse::new(Reuse::new(config.line.trailing_zeros()))),
            index: FxHashMap::default(),
            recent: RecentRecords::new(),
            records: Vec::new(),
            windows: Vec::new(),
            full_left,
            shorter,
            accesses: 0,
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
        if let Some(r) = &mut self.reuse {
            r.begin_thread();
        }
        self.threads += 1;
    }

    #[inline]
    fn record_for(&mut self, mi: u32) -> usize {
        let key = self.history.exact_key(self.max_bits);
        // A window always maps to the same record (the rooms past `max_paths` only shrink,
        // so a window charged to a shorter record never finds a longer one later).
        let slot = self.recent.slot(mi, key);
        if let Some(r) = self.recent.get(slot, mi, key) {
            return r as usize;
        }
        let r = self.lookup_or_insert(mi, key);
        self.recent.put(slot, mi, key, r as u32);
        r
    }

    #[inline]
    fn lookup_or_insert(&mut self, mi: u32, key: u64) -> usize {
        if let Some(&r) = self.index.get(&(mi, key)) {
            return r as usize;
        }
        let depth = self.history.depth().min(self.max_bits as usize) as u32;
        if self.full_left > 0 {
            self.full_left -= 1;
            return self.new_record(mi, key, depth, depth);
        }
        self.shortened_record_for(mi, depth)
            .unwrap_or_else(|| self.new_record(mi, key, depth, depth))
    }

    /// Past `max_paths` whole windows: going down the shorter history lengths, the first that
    /// has a record for this window's most recent entries or room for a new one (the last,
    /// no history, always has room). A window no longer than a level is whole there: it gets a
    /// whole record from the room of the shortest such level, if any is left. `None` when the
    /// stack is empty (its window is whole, one per instruction).
    #[cold]
    fn shortened_record_for(&mut self, mi: u32, depth: u32) -> Option<usize> {
        let whole_level = self.shorter.iter().rposition(|l| l.length >= depth);
        if let Some(k) = whole_level {
            if self.shorter[k].left > 0 {
                self.shorter[k].left -= 1;
                let key = self.history.exact_key(self.max_bits);
                return Some(self.new_record(mi, key, depth, depth));
            }
        }
        let first = whole_level.map_or(0, |k| k + 1);
        for k in first..self.shorter.len() {
            let n = self.shorter[k].length;
            let key = self.shortened_key(n);
            if let Some(&r) = self.index.get(&(mi, key)) {
                return Some(r as usize);
            }
            if self.shorter[k].left > 0 || k + 1 == self.shorter.len() {
                self.shorter[k].left = self.shorter[k].left.saturating_sub(1);
                return Some(self.new_record(mi, key, depth, n));
            }
        }
        None
    }

    /// Key of a shortened window of `n` entries: apart from the key of a whole window of `n`
    /// entries (a stack `n` deep), whose references lie on known longer paths.
    #[inline]
    fn shortened_key(&self, n: u32) -> u64 {
        self.history.exact_key(n).rotate_left(17) ^ 0x5bd1_e995_2f8b_3c61
    }

    fn new_record(&mut self, mi: u32, key: u64, depth: u32, kept: u32) -> usize {
        let r = self.records.len();
        let stride = self.max_bits as usize;
        self.windows.extend(self.history.top().take(kept as usize));
        self.windows.resize((r + 1) * stride, 0);
        self.records.push(PathRecord {
            mi,
            depth,
            kept,
            bins: Bins::new(),
            cold: 0,
        });
        self.index.insert((mi, key), r as u32);
        r
    }

    /// Ends collection.
    pub fn finish(mut self) -> PathProfile {
        let reuse = self.reuse.take().expect("finished once").finish();
        for (record, collected) in self.records.iter_mut().zip(reuse.bins.into_bins()) {
            (record.bins, record.cold) = collected;
        }
        PathProfile {
            config: self.config,
            max_bits: self.max_bits,
            records: self.records,
            windows: self.windows,
            mem_instrs: self.mem_instrs,
            accesses: self.accesses,
            references: reuse.references,
            cold: reuse.cold,
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
        if let Some(reuse) = &mut self.reuse {
            reuse.access(r, addr, len);
        }
    }
}

/// Per thread: each thread's branch history and reuse stack are its own (the paper's
/// sequential runs), and its records join the shared table.
impl Analysis for PathCollector {
    type Report = PathProfile;

    fn shape(&self) -> Shape {
        Shape::PerThread
    }

    fn thread(&mut self, _thread: u32) {
        self.begin_thread();
    }

    fn finish(self) -> PathProfile {
        PathCollector::finish(self)
    }
}

/// Profiles every thread of a trace.
pub fn profile_trace(trace: &Trace, config: &PathConfig) -> Result<PathProfile> {
    let c = PathCollector::new(&trace.meta, config)?;
    Ok(rdtrace::analysis::run(trace, c, |_| {})?)
}
