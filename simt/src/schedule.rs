//! Block scheduling: which blocks run together in an array of concurrent slots, and which core
//! cluster (slot) runs each block.
//!
//! The thesis's block scheduling module (section 7.2.2, Algorithm 3) extracts blocks from the
//! grid one at a time with a policy and fills arrays of K concurrent slots; arrays run one
//! after another, and slot `s` of every array is core cluster `s` (scenarios 5 and 6). Here a
//! policy is a [`BlockScheduler`] that returns the whole [`Schedule`] at once, so policies that
//! look at the blocks' streams (to group blocks that share data, say) fit the same trait.

use crate::error::{Result, SimtError};
use crate::grid::BlockStream;
use serde::{Deserialize, Serialize};

/// Arrays of concurrent slots, run in sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// Slots per array (K, or the number of core clusters).
    pub slots: usize,
    /// `arrays[j][s]`: index into the grid of the block in slot `s` of array `j`. The last
    /// arrays may have fewer than `slots` blocks.
    pub arrays: Vec<Vec<usize>>,
}

impl Schedule {
    /// The blocks slot (core cluster) `s` runs, in order: its FIFO queue.
    pub fn slot_queue(&self, s: usize) -> Vec<usize> {
        self.arrays
            .iter()
            .filter_map(|a| a.get(s).copied())
            .collect()
    }

    /// Checks that the schedule runs each of `blocks` blocks exactly once and fills no array
    /// beyond `slots`.
    pub fn validate(&self, blocks: usize, scheduler: &str) -> Result<()> {
        let bad = |what: String| SimtError::BadSchedule {
            scheduler: scheduler.to_string(),
            what,
        };
        let mut seen = vec![false; blocks];
        for (j, a) in self.arrays.iter().enumerate() {
            if a.is_empty() || a.len() > self.slots {
                return Err(bad(format!(
                    "array {j} holds {} blocks, expected 1..={}",
                    a.len(),
                    self.slots
                )));
            }
            for &b in a {
                match seen.get_mut(b) {
                    None => return Err(bad(format!("block index {b} is not in the grid"))),
                    Some(true) => return Err(bad(format!("block index {b} is scheduled twice"))),
                    Some(s) => *s = true,
                }
            }
        }
        if let Some(b) = seen.iter().position(|s| !s) {
            return Err(bad(format!("block index {b} is never scheduled")));
        }
        Ok(())
    }
}

/// A block scheduling policy (the thesis's `scheAnalysis`).
pub trait BlockScheduler {
    /// Short name for reports.
    fn name(&self) -> String;
    /// Distributes the grid's blocks over arrays of `slots` concurrent slots.
    fn schedule(&mut self, blocks: &[BlockStream], slots: usize) -> Schedule;
}

/// The thesis's policy: blocks in the order the tracer executed them, each array filled with
/// the next `slots` blocks (block `b` runs in slot `b mod K` of array `b / K`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl BlockScheduler for Sequential {
    fn name(&self) -> String {
        "sequential".into()
    }
    fn schedule(&mut self, blocks: &[BlockStream], slots: usize) -> Schedule {
        let slots = slots.max(1);
        Schedule {
            slots,
            arrays: (0..blocks.len())
                .collect::<Vec<_>>()
                .chunks(slots)
                .map(<[usize]>::to_vec)
                .collect(),
        }
    }
}

/// Round-robin over the arrays: with A = ⌈N/K⌉ arrays, block `b` is dealt to array `b mod A`,
/// so the blocks running together are A apart in the grid and each slot (cluster) runs a
/// contiguous range of blocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundRobin;

impl BlockScheduler for RoundRobin {
    fn name(&self) -> String {
        "round-robin".into()
    }
    fn schedule(&mut self, blocks: &[BlockStream], slots: usize) -> Schedule {
        let slots = slots.max(1);
        let n = blocks.len();
        let arrays_n = n.div_ceil(slots);
        let mut arrays = vec![Vec::new(); arrays_n];
        for b in 0..n {
            arrays[b % arrays_n].push(b);
        }
        Schedule { slots, arrays }
    }
}

/// The built-in policies, for configuration structs and command lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SchedulePolicy {
    /// [`Sequential`].
    #[default]
    Sequential,
    /// [`RoundRobin`].
    RoundRobin,
}

impl SchedulePolicy {
    /// A scheduler implementing the policy.
    pub fn scheduler(self) -> Box<dyn BlockScheduler> {
        match self {
            SchedulePolicy::Sequential => Box::new(Sequential),
            SchedulePolicy::RoundRobin => Box::new(RoundRobin),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize) -> Vec<BlockStream> {
        (0..n)
            .map(|id| BlockStream {
                id: id as u64,
                mis: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn sequential_fills_arrays_with_consecutive_blocks() {
        let s = Sequential.schedule(&grid(7), 3);
        assert_eq!(s.arrays, vec![vec![0, 1, 2], vec![3, 4, 5], vec![6]]);
        assert_eq!(s.slot_queue(0), vec![0, 3, 6]);
        assert_eq!(s.slot_queue(2), vec![2, 5]);
        s.validate(7, "sequential").unwrap();
    }

    #[test]
    fn round_robin_deals_blocks_over_arrays() {
        let s = RoundRobin.schedule(&grid(7), 3);
        // A = 3 arrays; block b joins array b mod 3.
        assert_eq!(s.arrays, vec![vec![0, 3, 6], vec![1, 4], vec![2, 5]]);
        assert_eq!(s.slot_queue(0), vec![0, 1, 2]);
        s.validate(7, "round-robin").unwrap();
        let s = RoundRobin.schedule(&grid(8), 2);
        assert_eq!(s.slot_queue(1), vec![4, 5, 6, 7]);
    }

    #[test]
    fn validation_rejects_broken_schedules() {
        let s = Schedule {
            slots: 2,
            arrays: vec![vec![0, 1], vec![1]],
        };
        assert!(s
            .validate(3, "x")
            .unwrap_err()
            .to_string()
            .contains("twice"));
        let s = Schedule {
            slots: 1,
            arrays: vec![vec![0, 1]],
        };
        assert!(s.validate(2, "x").is_err());
        let s = Schedule {
            slots: 2,
            arrays: vec![vec![0]],
        };
        assert!(s
            .validate(2, "x")
            .unwrap_err()
            .to_string()
            .contains("never"));
    }
}
