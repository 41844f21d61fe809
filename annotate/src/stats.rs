//! The results of an annotation: the counts of one source line, function or whole run, and
//! the [`Annotation`] that collects them.

use rdcachesim::{MissKind, MissKinds, Served};
use rdengines::Histogram;
use serde::Serialize;

use crate::bins::DistanceBins;
use crate::config::AnnotateConfig;
use crate::sharing::FalseSharing;

/// What one source line (or function, or the whole run) did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Access events (one per executed memory instruction).
    pub accesses: u64,
    /// Cache-line references (an access spanning two lines makes two).
    pub references: u64,
    /// References to a line never touched before by any thread (infinite reuse distance).
    pub cold: u64,
    /// References that missed the thread's private L1.
    pub l1_misses: u64,
    /// References that missed both the L1 and the shared L2.
    pub l2_misses: u64,
    /// The L1 misses by class: compulsory + capacity + conflict + coherence = `l1_misses`.
    #[serde(rename = "l1_miss_kinds")]
    pub l1_kinds: MissKinds,
    /// Finite reuse distances (all threads in stamp order) of the references.
    #[serde(skip)]
    pub distances: DistanceBins,
}

impl Counts {
    /// Adds what the cache simulation counted for one memory instruction.
    pub(crate) fn add_simulated(&mut self, s: &SimulatedCounts) {
        self.accesses += s.accesses;
        self.references += s.references;
        self.l1_misses += s.l1_misses;
        self.l2_misses += s.l2_misses;
        self.l1_kinds.add(&s.l1_kinds);
    }

    /// One cache-line reference's reuse distance (`None`: cold). Counted apart from its
    /// outcome (see `crate::distances`); the two add up in [`Counts::merge`].
    #[inline]
    pub(crate) fn distance(&mut self, distance: Option<u64>) {
        match distance {
            Some(d) => self.distances.add(d),
            None => self.cold += 1,
        }
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &Counts) {
        self.accesses += other.accesses;
        self.references += other.references;
        self.cold += other.cold;
        self.l1_misses += other.l1_misses;
        self.l2_misses += other.l2_misses;
        self.l1_kinds.add(&other.l1_kinds);
        self.distances.merge(&other.distances);
    }

    /// The reuse-distance percentile `p` (0 < p ≤ 100) over the finite distances, cold
    /// references excluded; see [`DistanceBins::percentile`].
    pub fn percentile(&self, p: f64) -> Option<u64> {
        self.distances.percentile(p)
    }
}

/// What the cache simulation counts for one memory instruction while the trace streams
/// (the fields of [`Counts`] it owns); folded into the instruction's source line, function
/// and (line, function) pair at the end, so that an access updates one small record instead
/// of three.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SimulatedCounts {
    pub(crate) accesses: u64,
    pub(crate) references: u64,
    pub(crate) l1_misses: u64,
    pub(crate) l2_misses: u64,
    pub(crate) l1_kinds: MissKinds,
}

impl SimulatedCounts {
    /// One cache-line reference's outcome in the simulated caches.
    #[inline]
    pub(crate) fn outcome(&mut self, served: Served, l1_miss: Option<MissKind>) {
        self.references += 1;
        if let Some(k) = l1_miss {
            self.l1_misses += 1;
            self.l1_kinds.count(k);
        }
        if served == Served::Memory {
            self.l2_misses += 1;
        }
    }
}

/// One source line.
#[derive(Clone, Debug, Serialize)]
pub struct LineStats {
    /// Source file as recorded in the debug information (`?` when unknown).
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: u32,
    /// Symbols of the functions whose instructions on this line executed (inlining can make
    /// several; functions that only *could* run this line, such as never-called copies of an
    /// inlined header function, are left out), in metadata order.
    pub functions: Vec<String>,
    /// Memory instructions on this line.
    pub mem_instrs: Vec<u32>,
    /// What they did.
    #[serde(flatten)]
    pub counts: Counts,
}

/// One function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionStats {
    /// Symbol name (the linker's: `_Z6kernelPdi` for C++; see `rdtrace::demangle` for the
    /// readable form).
    pub name: String,
    /// `file:line` of its first located instruction (`?` when unknown).
    pub location: String,
    /// What its memory instructions did.
    #[serde(flatten)]
    pub counts: Counts,
}

/// Everything one pass over a trace found.
#[derive(Clone, Debug, Serialize)]
pub struct Annotation {
    /// The simulated caches.
    pub config: AnnotateConfig,
    /// Threads that made accesses (one core each).
    pub threads: usize,
    /// Whole-run totals.
    pub total: Counts,
    /// Source lines that made accesses, most L1 misses first (then L2 misses, then accesses).
    pub lines: Vec<LineStats>,
    /// Functions that made accesses (never one that did not execute), in the same order.
    pub functions: Vec<FunctionStats>,
    /// Reuse-distance histogram over all threads in stamp order (L1 lines).
    #[serde(skip)]
    pub histogram: Histogram,
    /// Private reuse-distance histogram of each thread, by thread index.
    #[serde(skip)]
    pub thread_histograms: Vec<(u32, Histogram)>,
    /// With [`AnnotateConfig::false_sharing`]: the cache lines and source lines with coherence
    /// misses.
    pub false_sharing: Option<FalseSharing>,
}
