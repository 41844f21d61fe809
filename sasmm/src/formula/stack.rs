//! The formula model's LRU stacks and the profiles they record: references go through a stack
//! in batches, in a loop compiled for the CPU's popcount ([`rdengines::dispatch!`]) with
//! prefetching, their distances counted into flat arrays.

use crate::profile::StackProfile;
use rdengines::accum::DenseHist;
use rdengines::{Histogram, LastLineStack};

/// Exact and conditional reuse profiles of one LRU stack set while it runs: the exact
/// histograms count into flat arrays (a [`rdengines::Histogram`]'s map would cost a tree walk
/// per reference) and become a [`StackProfile`] at the end.
#[derive(Clone, Debug)]
pub(super) struct RunProfile {
    exact: Vec<DenseHist>,
    conditional: Vec<Histogram>,
    references: Vec<u64>,
    /// Instances per block (counted by the run as it mimics, not per reference).
    pub(super) instances: Vec<u64>,
}

impl RunProfile {
    /// Empty profiles of `stacks` stacks over `blocks` block ids.
    pub(super) fn new(stacks: usize, blocks: usize) -> Self {
        RunProfile {
            exact: vec![DenseHist::default(); stacks],
            conditional: vec![Histogram::new_exact(); blocks],
            references: vec![0; blocks],
            instances: vec![0; blocks],
        }
    }

    /// Records one reference's distance: what [`crate::profile::record`] records.
    #[inline(always)]
    fn record(&mut self, stack: usize, bb: usize, sampled: bool, d: Option<u64>) {
        match d {
            Some(d) => self.exact[stack].add(d),
            None => self.exact[stack].cold += 1,
        }
        self.references[bb] += 1;
        if sampled {
            // See: SASMM Alg. 3 lines 9-13 — rd of every reference of a sampled window.
            let h = &mut self.conditional[bb];
            match d {
                Some(d) => h.add(d, 1),
                None => h.cold += 1,
            }
        }
    }

    /// The profile as [`crate::profile`] computes it in memory.
    pub(super) fn into_stack_profile(self) -> StackProfile {
        StackProfile {
            exact: self
                .exact
                .into_iter()
                .map(|h| h.into_histogram(None, true))
                .collect(),
            conditional: self.conditional,
            references: self.references,
            instances: self.instances,
        }
    }
}

/// References waiting to go through one stack: each one's line, and its block id and whether
/// its window is sampled (`bb << 1 | sampled`). Batching lets the stack prefetch the lines
/// ahead of the one it works on, and runs the loop compiled for the CPU's popcount.
#[derive(Default)]
pub(super) struct Batch {
    lines: Vec<u64>,
    tags: Vec<u64>,
}

/// References a [`Batch`] holds before it runs (64 KiB of lines; a few under test, so that the
/// property tests cross batch boundaries).
const BATCH: usize = if cfg!(test) { 3 } else { 1 << 13 };

impl Batch {
    /// Adds a reference to `line` by a window of block `bb`.
    #[inline]
    pub(super) fn push(&mut self, line: u64, bb: usize, sampled: bool) {
        self.lines.push(line);
        self.tags.push((bb as u64) << 1 | sampled as u64);
    }

    /// Whether the batch should run now.
    pub(super) fn is_full(&self) -> bool {
        self.lines.len() >= BATCH
    }

    /// Runs the batch's references through `stack` in order, recording each distance as
    /// stack `which` of `profile`, and empties the batch.
    pub(super) fn run(
        &mut self,
        stack: &mut LastLineStack,
        profile: &mut RunProfile,
        which: usize,
    ) {
        run_references(stack, profile, which, &self.lines, &self.tags);
        self.lines.clear();
        self.tags.clear();
    }
}

/// The loop of [`Batch::run`], compiled for the CPU's best instruction set: the stack's
/// distance queries are popcounts, which the baseline x86-64 target compiles to a bit trick.
fn run_references(
    stack: &mut LastLineStack,
    profile: &mut RunProfile,
    which: usize,
    lines: &[u64],
    tags: &[u64],
) {
    rdengines::dispatch!((
        stack: &mut LastLineStack = stack,
        profile: &mut RunProfile = profile,
        which: usize = which,
        lines: &[u64] = lines,
        tags: &[u64] = tags,
    ) -> () {
        for (i, &tag) in tags.iter().enumerate() {
            let d = stack.access_at(lines, i);
            profile.record(which, (tag >> 1) as usize, tag & 1 == 1, d);
        }
    })
}
