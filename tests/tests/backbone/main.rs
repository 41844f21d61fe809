//! End to end through the backbone: programs in `test-programs/basic/` are built with `rdcc`,
//! run, and their traces checked against facts derived by reading the source.

use rdtools_e2e::*;
use rdtrace::chunk::ExitReason;
use rdtrace::meta::{AccessKind, BranchKind, VarClass};
use rdtrace::Event;

mod builds;
mod crashes_and_damage;
mod inline_records;
mod loop_run_wraps;
mod report;
mod trace_contents;

/// Panics at the first event where the build with loop runs and the one that records every
/// iteration differ (or where one sequence ends first), showing both around it.
fn assert_runs_match_every_iteration<T: PartialEq + std::fmt::Debug>(
    what: &str,
    runs: &[T],
    every: &[T],
) {
    if let Some(at) = (0..runs.len().max(every.len())).find(|&k| runs.get(k) != every.get(k)) {
        panic!(
            "{what}: event {at} of {} / {} differs: runs {:?}, every iteration {:?}",
            runs.len(),
            every.len(),
            &runs[at.saturating_sub(3).min(runs.len())..(at + 3).min(runs.len())],
            &every[at.saturating_sub(3).min(every.len())..(at + 3).min(every.len())]
        );
    }
}

/// Blocks of `main` named `prefix*`, with their execution counts.
fn block_counts(trace: &rdtrace::Trace, c: &Counts, func: &str, prefix: &str) -> Vec<u64> {
    blocks_named(trace, func, prefix)
        .iter()
        .map(|b| c.blocks.get(b).copied().unwrap_or(0))
        .collect()
}
