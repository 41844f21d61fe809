//! Worksharing-loop windows resolved to iterations once their construct has ended: a window
//! opened inside a construct is tagged with its position in the construct's unit loops
//! ([`Tag`], [`Unit`]), and the construct's [`RunTable`] (unit-loop header counts over the whole
//! construct, or windows per block for the per-block rule) turns the tag into a [`Placement`].
//! The in-memory builder ([`crate::seq`]) and the spilled fragments ([`crate::spill`]) resolve
//! through the same table (see [`crate::seq`]'s module documentation for the rule).

use crate::window::Placement;
use rustc_hash::FxHashMap;

/// Where a block instance lies in a worksharing construct's loops: the unit of the outermost
/// loop, and of the loop one level inside it when there is one (header entries counted over
/// the whole construct).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    /// (loop, unit) of the outermost unit loop.
    pub(crate) outer: (u32, u64),
    /// (loop, unit) of the loop one level inside it.
    pub(crate) inner: Option<(u32, u64)>,
}

/// A window's placement as known when the window is opened: final, or inside worksharing run
/// `run` (at `unit` of its loops, if any), resolved by the run's [`RunTable`] once the construct
/// has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    /// Known.
    Final(Placement),
    /// Inside a worksharing-loop run.
    Run { run: u32, unit: Option<Unit> },
}

/// What resolves the windows of one worksharing-loop run to iterations once the construct has
/// ended: the run's iteration count and unit-loop header counts over the whole construct, or,
/// when no unit loop was entered, its windows per block (the paper's per-block rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunTable {
    /// The worksharing run (index into [`crate::window::SequentialTrace::workshares`]).
    pub(crate) run: u32,
    /// Its logical iterations.
    pub(crate) iterations: u64,
    /// Its chunk (`None`: unchunked static).
    pub(crate) chunk: Option<u64>,
    /// Whether libomp handed the whole range out at once (the units are one level inside the
    /// chunk loop).
    pub(crate) whole_range: bool,
    /// Header entries per unit loop over the whole construct.
    pub(crate) units: FxHashMap<u32, u64>,
    /// Windows per block (not continuations) when no unit loop was entered: the per-block rule.
    pub(crate) fallback: Option<FxHashMap<u32, u64>>,
}

impl RunTable {
    /// The worksharing run the table resolves.
    pub(crate) fn run(&self) -> u32 {
        self.run
    }

    /// The placement of a window of the run opened at `unit` of its loops; windows must be
    /// resolved in program order, with one `seen` (the per-block rule's counters, by run) over
    /// the program, or one per run.
    // See: SASMM Alg. 1 — repeated parallel BBs (loop iterations) are split among the cores;
    // here the split unit is the loop iteration, recovered from the unit loops.
    pub(crate) fn resolve(
        &self,
        unit: Option<Unit>,
        bb: u32,
        continuation: bool,
        seen: &mut Seen,
    ) -> Placement {
        let iterations = self.iterations;
        let iteration = match &self.fallback {
            None => {
                let Some(unit) = unit else {
                    return Placement::Replicated;
                };
                let (l, u) = if self.whole_range {
                    match unit.inner {
                        Some(inner) => inner,
                        // Chunk-loop overhead: every thread runs it for its own chunks.
                        None => return Placement::Replicated,
                    }
                } else {
                    unit.outer
                };
                let k = self.units.get(&l).copied().unwrap_or(1).max(1);
                match self.chunk {
                    // One unit per iteration, scaled when the unit count differs (vectorised
                    // or unrotated loops).
                    Some(_) if !self.whole_range => {
                        // One unit per chunk.
                        (u.saturating_mul(self.chunk.unwrap_or(1)))
                            .min(iterations.saturating_sub(1))
                    }
                    _ => scale(u, iterations, k),
                }
            }
            // Fallback without loop metadata (see the module documentation).
            // See: SASMM Alg. 1 lines 8-19 — one instance: copy; several: divide.
            Some(count) => {
                let n = count.get(&bb).copied().unwrap_or(0);
                if n <= 1 {
                    return Placement::Replicated;
                }
                let i = seen.entry(self.run).or_default().entry(bb).or_insert(0);
                let iteration = scale(*i, iterations, n);
                if !continuation {
                    *i += 1;
                }
                iteration
            }
        };
        Placement::Iteration {
            workshare: self.run,
            iteration,
        }
    }
}

/// The per-block rule's counters of every worksharing run (windows per block resolved so far),
/// by run; only runs that fall back on the rule have any.
pub(crate) type Seen = FxHashMap<u32, FxHashMap<u32, u64>>;

/// `a * b / c` rounded down, exact (in 128 bits only where the product needs them: a 128-bit
/// division is a library call).
#[inline]
fn scale(a: u64, b: u64, c: u64) -> u64 {
    match a.checked_mul(b) {
        Some(p) => p / c,
        None => (a as u128 * b as u128 / c as u128) as u64,
    }
}
