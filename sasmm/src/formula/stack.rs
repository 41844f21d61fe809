//! The formula model's LRU stacks and the profiles they record: references go through a stack
//! in batches, in a loop compiled for the CPU's popcount ([`rdengines::dispatch!`]) with
//! prefetching, their distances counted into flat arrays.

use crate::profile::StackProfile;
use crate::sample::{Mark, NOT_RECORDED};
use rdengines::accum::DenseHist;
use rdengines::{Histogram, LastLineStack};

/// Exact and conditional reuse profiles of one LRU stack set while it runs: the exact
/// histograms count into flat arrays (a [`rdengines::Histogram`]'s map would cost a tree walk
/// per reference) and become a [`StackProfile`] at the end.
#[derive(Clone, Debug)]
pub(super) struct RunProfile {
    exact: Vec<DenseHist>,
    /// Distances of the recorded windows' references, per block and priority level.
    conditional: Vec<Vec<Histogram>>,
    references: Vec<u64>,
    /// Instances per block (counted by the run as it mimics, not per reference).
    pub(super) instances: Vec<u64>,
}

impl RunProfile {
    /// Empty profiles of `stacks` stacks over `blocks` block ids.
    pub(super) fn new(stacks: usize, blocks: usize) -> Self {
        RunProfile {
            exact: vec![DenseHist::default(); stacks],
            conditional: vec![Vec::new(); blocks],
            references: vec![0; blocks],
            instances: vec![0; blocks],
        }
    }

    /// Records one reference's distance: what [`crate::profile::record`] records, the
    /// conditional profile kept per priority level of the window (`mark`).
    #[inline(always)]
    fn record(&mut self, stack: usize, bb: usize, mark: Mark, d: Option<u64>) {
        match d {
            Some(d) => self.exact[stack].add(d),
            None => self.exact[stack].cold += 1,
        }
        self.references[bb] += 1;
        if mark != NOT_RECORDED {
            self.record_conditional(bb, mark, d);
        }
    }

    /// See: SASMM Alg. 3 lines 9-13 — rd of every reference of a sampled window.
    #[inline(never)]
    fn record_conditional(&mut self, bb: usize, mark: Mark, d: Option<u64>) {
        let level = (mark - 1) as usize;
        let levels = &mut self.conditional[bb];
        if levels.len() <= level {
            levels.resize(level + 1, Histogram::new_exact());
        }
        let h = &mut levels[level];
        match d {
            Some(d) => h.add(d, 1),
            None => h.cold += 1,
        }
    }

    /// The profile as [`crate::profile`] computes it in memory: each block's conditional
    /// profile is its windows of priority level `levels[b]` and up (its sample).
    pub(super) fn into_stack_profile(self, levels: &[u8]) -> StackProfile {
        let conditional = self
            .conditional
            .into_iter()
            .enumerate()
            .map(|(b, per_level)| {
                let mut h = Histogram::new_exact();
                let from = levels.get(b).map_or(0, |&l| l as usize);
                for level in per_level.iter().skip(from) {
                    h.merge(level);
                }
                h
            })
            .collect();
        StackProfile {
            exact: self
                .exact
                .into_iter()
                .map(|h| h.into_histogram(None, true))
                .collect(),
            conditional,
            references: self.references,
            instances: self.instances,
        }
    }
}

/// References waiting to go through one stack: each one's line, and its block id and its
/// window's [`Mark`] (`bb << MARK_BITS | mark`). Batching lets the stack prefetch the lines
/// ahead of the one it works on, and runs the loop compiled for the CPU's popcount.
#[derive(Default)]
pub(super) struct Batch {
    lines: Vec<u64>,
    tags: Vec<u64>,
}

/// References a [`Batch`] holds before it runs (64 KiB of lines; a few under test, so that the
/// property tests cross batch boundaries).
const BATCH: usize = if cfg!(test) { 3 } else { 1 << 13 };

/// Bits of a tag that hold the mark (marks are at most 41).
const MARK_BITS: u32 = 6;

impl Batch {
    /// Adds a reference to `line` by a window of block `bb` marked `mark`.
    #[inline]
    pub(super) fn push(&mut self, line: u64, bb: usize, mark: Mark) {
        self.lines.push(line);
        self.tags.push((bb as u64) << MARK_BITS | mark as u64);
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
            let mark = (tag & ((1 << MARK_BITS) - 1)) as Mark;
            profile.record(which, (tag >> MARK_BITS) as usize, mark, d);
        }
    })
}
