//! The sequential trace as SASMM sees it, as data: basic-block *windows* (one per executed block
//! instance, holding that instance's memory accesses), the serial and parallel *sections* they
//! form, the worksharing-loop runs, and where each window runs in the mimicked execution
//! ([`Placement`]). [`crate::seq`] builds it from a trace; Alg. 1-3 read it.

use rdtrace::meta::VarClass;
use std::ops::Range;

/// One memory access of the sequential run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// First byte.
    pub addr: u64,
    /// Bytes.
    pub len: u32,
    /// Memory instruction id.
    pub mi: u32,
}

/// Where a window runs in the mimicked parallel execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Serial code: core 0.
    Serial,
    /// Parallel code outside worksharing iterations: every core.
    Replicated,
    /// Iteration `iteration` of worksharing-loop run `workshare` (index into
    /// [`SequentialTrace::workshares`]).
    Iteration {
        /// Index of the worksharing-loop run.
        workshare: u32,
        /// Logical iteration number, `0..iterations`.
        iteration: u64,
    },
}

/// One executed basic-block instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Block id ([`SequentialTrace::unknown_block`] for accesses before the first block event).
    pub bb: u32,
    /// First access (index into [`SequentialTrace::accesses`]).
    pub start: u32,
    /// One past the last access.
    pub end: u32,
    /// Section the window belongs to.
    pub section: u32,
    /// Where it runs.
    pub placement: Placement,
    /// True when the window continues a block instance that was cut by a region entry or exit,
    /// a barrier or the end of a worksharing loop (not a new instance for BB counts, eq. 1).
    pub continuation: bool,
}

impl Window {
    /// The window's accesses as an index range.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Whether the window continues a block instance and holds no access: such a window
    /// carries nothing and is no block instance, so every fragment (held or spilled) drops it.
    pub fn is_empty_continuation(&self) -> bool {
        self.continuation && self.start == self.end
    }
}

/// A run of windows between synchronisation points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Inside a parallel region.
    pub parallel: bool,
    /// Window indices.
    pub windows: Range<u32>,
}

/// One execution of a worksharing loop in the sequential run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkshareRun {
    /// Worksharing-loop id.
    pub ws: u32,
    /// libomp `sched_type` recorded by `WorkshareInit`.
    pub schedule: i32,
    /// Logical iterations of the loop.
    pub iterations: u64,
    /// Chunk of the recorded schedule in iterations; `None` for an unchunked static schedule
    /// (iterations split into one contiguous block per thread).
    pub chunk: Option<u64>,
}

/// The sequential trace, decoded into windows and sections.
#[derive(Clone, Debug, Default)]
pub struct SequentialTrace {
    /// All accesses in program order.
    pub accesses: Vec<Access>,
    /// All windows in program order; windows tile `accesses`.
    pub windows: Vec<Window>,
    /// Sections in program order; sections tile `windows`.
    pub sections: Vec<Section>,
    /// Worksharing-loop runs.
    pub workshares: Vec<WorkshareRun>,
    /// Class of every memory instruction (by id).
    pub mi_class: Vec<VarClass>,
    /// Whether a memory instruction accesses a shared variable itself (its address derives
    /// directly from a shared-variable argument of an outlined function, with no pointer loaded
    /// on the way): the analogue of the paper's `shared_var_trace` label.
    pub mi_shared_variable: Vec<bool>,
    /// Block names (`function:label`) by id, for reports.
    pub block_names: Vec<String>,
}

impl SequentialTrace {
    /// The id used for accesses that come before any block event.
    pub fn unknown_block(&self) -> u32 {
        self.block_names.len() as u32 - 1
    }

    /// Number of block ids (including [`SequentialTrace::unknown_block`]).
    pub fn num_blocks(&self) -> usize {
        self.block_names.len()
    }

    /// The accesses of a window.
    pub fn window_accesses(&self, w: u32) -> &[Access] {
        &self.accesses[self.windows[w as usize].range()]
    }

    /// Instances of every block (N_i of SASMM eq. 1): windows that are not continuations.
    pub fn block_instances(&self) -> Vec<u64> {
        let mut n = vec![0u64; self.num_blocks()];
        for w in &self.windows {
            if !w.continuation {
                n[w.bb as usize] += 1;
            }
        }
        n
    }

    /// Whether each block ran inside a parallel region (any of its windows).
    pub fn block_parallel(&self) -> Vec<bool> {
        let mut p = vec![false; self.num_blocks()];
        for w in &self.windows {
            if w.placement != Placement::Serial {
                p[w.bb as usize] = true;
            }
        }
        p
    }
}
