//! [`FastEngine`], the default exact engine: the references of a stream through a
//! [`FrontedStack`] (unbounded) or a [`FastCore`] capped at the bound (PARDA Alg. 7).

use crate::accum::{Deferred, DenseHist};
use crate::blockmap::BlockSet;
use crate::fast::FastCore;
use crate::front::{FrontedStack, FRONT};
use crate::{Histogram, ReuseEngine};

/// The default exact engine: one reference at a time through a [`FrontedStack`] (unbounded) or
/// a [`FastCore`] capped at the bound.
pub struct FastEngine {
    stack: Stack,
    hist: DenseHist,
    /// The block of the previous reference, if any: a reference to it again has distance 0
    /// and leaves the stack as it is, so it costs no stack update (runs of accesses to one
    /// cache line are common: a loop over doubles touches each line 8 times in a row).
    last: Option<u64>,
}

/// The stack of each form of [`FastEngine`].
enum Stack {
    /// Unbounded: most distances of regular code are a few blocks, which the front array of a
    /// [`FrontedStack`] answers without the core's structure.
    Unbounded(FrontedStack),
    /// Bounded (PARDA Alg. 7): the stack evicts, so it needs the slot → block index of a
    /// [`FastCore`]; blocks ever seen tell cold misses from capacity misses.
    Bounded {
        core: FastCore,
        bound: u64,
        seen: BlockSet,
    },
}

impl FastEngine {
    /// An unbounded exact engine.
    pub fn new() -> Self {
        Self::with_bound(None)
    }

    /// An exact engine; with `Some(b)`, distances ≥ `b` are counted as overflow and the stack
    /// holds at most `b` blocks.
    pub fn with_bound(bound: Option<u64>) -> Self {
        let stack = match bound {
            None => Stack::Unbounded(FrontedStack::untracked(1 << 12)),
            Some(bound) => Stack::Bounded {
                core: FastCore::with_capacity(1 << 12),
                bound,
                seen: BlockSet::default(),
            },
        };
        FastEngine {
            stack,
            hist: DenseHist::default(),
            last: None,
        }
    }

    /// The bound, if the engine has one.
    fn bound(&self) -> Option<u64> {
        match self.stack {
            Stack::Unbounded(_) => None,
            Stack::Bounded { bound, .. } => Some(bound),
        }
    }

    /// Heap bytes currently held (for reports).
    pub fn heap_bytes(&self) -> usize {
        let stack = match &self.stack {
            Stack::Unbounded(fronted) => fronted.heap_bytes(),
            Stack::Bounded { core, .. } => core.heap_bytes(),
        };
        stack + self.hist.heap_bytes()
    }

    /// The per-reference loop; inlined into each feature level of [`crate::cpu::dispatch`].
    #[inline(always)]
    fn process_body(&mut self, blocks: &[u64]) {
        match &mut self.stack {
            Stack::Unbounded(fronted) => {
                // Software pipeline: the trace is known ahead, so start the cache misses of
                // later references (block-map entry at +AHEAD, bitmap word at +AHEAD/2) while this
                // one is processed, and defer each histogram increment a few references after
                // prefetching its counter. Prefetches are only hints: every value used is read
                // at its own turn, so results are unaffected.
                const AHEAD: usize = 32;
                let mut deferred = Deferred::default();
                let mut last = self.last;
                let mut repeats = 0u64;
                let mut near = [0u64; FRONT];
                for (i, &b) in blocks.iter().enumerate() {
                    if last == Some(b) {
                        repeats += 1;
                        continue;
                    }
                    last = Some(b);
                    if let Some(&k) = blocks.get(i + AHEAD) {
                        fronted.prefetch(k);
                    }
                    if let Some(&k) = blocks.get(i + AHEAD / 2) {
                        fronted.prefetch_slot(k);
                    }
                    match fronted.access(b) {
                        // Distances the front answers hit a few hot counters: count them here.
                        Some(d) if d < FRONT as u64 => near[d as usize] += 1,
                        Some(d) => deferred.push(&mut self.hist, d),
                        None => self.hist.cold += 1,
                    }
                }
                deferred.flush(&mut self.hist);
                for (d, &n) in near.iter().enumerate() {
                    if n > 0 {
                        self.hist.add_n(d as u64, n);
                    }
                }
                if repeats > 0 {
                    self.hist.add_n(0, repeats);
                }
                self.last = last;
            }
            Stack::Bounded { core, bound, seen } => {
                let bound = *bound;
                for &b in blocks {
                    // Distance 0 is below every bound of at least 1 (a bound of 0 keeps no
                    // block, so there every reference misses).
                    if bound > 0 && self.last == Some(b) {
                        self.hist.add(0);
                        continue;
                    }
                    self.last = Some(b);
                    match core.access(b) {
                        // The stack holds the `bound` most recent blocks, so hits are < bound.
                        Some(d) => self.hist.add(d),
                        None => {
                            if seen.insert(b) {
                                self.hist.cold += 1;
                            } else {
                                self.hist.overflow += 1;
                            }
                            // See: PARDA Alg. 7 — keep at most B entries, evicting the oldest.
                            if core.len() as u64 > bound {
                                core.pop_oldest();
                            }
                        }
                    }
                }
            }
        }
    }
}

impl Default for FastEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl ReuseEngine for FastEngine {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn process(&mut self, blocks: &[u64]) {
        crate::cpu::dispatch!((this: &mut FastEngine = self, blocks: &[u64] = blocks) -> () {
            this.process_body(blocks)
        })
    }

    fn finish(self: Box<Self>) -> Histogram {
        let bound = self.bound();
        self.hist.into_histogram(bound, true)
    }
}
