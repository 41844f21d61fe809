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

/// Blocks of `main` named `prefix*`, with their execution counts.
fn block_counts(trace: &rdtrace::Trace, c: &Counts, func: &str, prefix: &str) -> Vec<u64> {
    blocks_named(trace, func, prefix)
        .iter()
        .map(|b| c.blocks.get(b).copied().unwrap_or(0))
        .collect()
}
