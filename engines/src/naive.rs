//! The naive LRU stack (Mattson et al.), O(N·M): the test oracle.
//!
//! PARDA §III-A: keep the blocks in a stack, most recent on top; on each access search the stack
//! from the top, record the depth where the block was found as its reuse distance (∞ if absent),
//! and move it to the top. Nothing clever happens here on purpose, so that it can serve as the
//! definition the other engines are checked against.
//!
//! Bounded form: the stack holds at most B blocks (a fully associative LRU cache of B blocks);
//! a block not on the stack is a miss, counted as cold if the block was never seen before and as
//! overflow (distance ≥ B) otherwise. By the LRU inclusion property this equals the unbounded
//! histogram with every distance ≥ B moved to overflow.

use crate::{Histogram, ReuseEngine};
use std::collections::HashSet;

/// Naive LRU stack engine; see the module documentation.
#[derive(Default)]
pub struct NaiveEngine {
    /// The stack, most recent block *last* (so moving to the top is a `remove` + `push`).
    stack: Vec<u64>,
    hist: Histogram,
    bound: Option<u64>,
    seen: HashSet<u64>,
}

impl NaiveEngine {
    /// An unbounded naive engine.
    pub fn new() -> Self {
        Self::with_bound(None)
    }

    /// A naive engine, bounded to a stack of `bound` blocks if given.
    pub fn with_bound(bound: Option<u64>) -> Self {
        NaiveEngine {
            hist: Histogram {
                bound,
                ..Histogram::new_exact()
            },
            bound,
            ..Default::default()
        }
    }

    /// One access.
    fn access(&mut self, b: u64) {
        // Search from the top (the end of the vector).
        match self.stack.iter().rposition(|&x| x == b) {
            Some(pos) => {
                let depth = (self.stack.len() - 1 - pos) as u64;
                self.hist.add(depth, 1);
                self.stack.remove(pos);
            }
            None => {
                if self.bound.is_none() || self.seen.insert(b) {
                    self.hist.cold += 1;
                } else {
                    self.hist.overflow += 1;
                }
            }
        }
        self.stack.push(b);
        if let Some(bound) = self.bound {
            if self.stack.len() as u64 > bound {
                // The bottom of the stack falls out of the B-block cache.
                self.stack.remove(0);
            }
        }
    }
}

impl ReuseEngine for NaiveEngine {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn process(&mut self, blocks: &[u64]) {
        for &b in blocks {
            self.access(b);
        }
    }

    fn finish(self: Box<Self>) -> Histogram {
        self.hist
    }
}

/// Convenience: the naive histogram of `blocks`, bounded if `bound` is given.
pub fn naive_histogram(blocks: &[u64], bound: Option<u64>) -> Histogram {
    let mut e = Box::new(NaiveEngine::with_bound(bound));
    e.process(blocks);
    e.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_table_one() {
        // PARDA Table I: d a c b c c g e f a — the last a has distance 5 (c b g e f).
        let t: Vec<u64> = "dacbccgefa".bytes().map(u64::from).collect();
        let h = naive_histogram(&t, None);
        assert_eq!(h.cold, 7);
        assert_eq!(h.counts.get(&5), Some(&1));
        assert_eq!(h.counts.get(&1), Some(&1));
        assert_eq!(h.counts.get(&0), Some(&1));
    }

    #[test]
    fn bounded_splits_cold_and_overflow() {
        // a b c a with B = 2: a's distance is 2 ≥ B → overflow.
        let h = naive_histogram(&[1, 2, 3, 1, 1], Some(2));
        assert_eq!(h.cold, 3);
        assert_eq!(h.overflow, 1);
        assert_eq!(h.counts.get(&0), Some(&1));
        assert_eq!(h.bound, Some(2));
    }
}
