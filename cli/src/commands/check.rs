//! `rda-report check`: the trace invariant checker ([`rdtrace::check`]).

use crate::output::{OutputArgs, Table};
use anyhow::{bail, Result};
use rdtrace::check::{CheckReport, ThreadChecker};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `check`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Checks ids against the metadata, stamps increasing per thread, fork/join, region \
and worksharing pairs, and block successors against the CFG in the metadata.\n\
Exit status: 0 clean, 1 violations (listed) or an unreadable trace, 2 usage error.\n\n\
Examples:\n  rda-report check app.rdtrace\n  rda-report check app.rdtrace --json --limit 10\n  cat app.rdtrace | rda-report check -\n\n\
Memory: per thread its open regions and loops, a call-frame stack and one decoded chunk, and the listed violations; \
a stream (`-`, a pipe) is checked the same way, each thread's chunks as they arrive."
)]
pub struct CheckArgs {
    /// Trace file; `-` reads standard input, and a pipe or FIFO is read as a stream too (one pass, the same report).
    pub trace: PathBuf,
    /// Violations to list (all are counted; 0 to 2^32).
    #[arg(long, default_value_t = rdtrace::check::DEFAULT_LIST_LIMIT,
          value_parser = crate::commands::flags::int_in("--limit", 0usize, crate::commands::flags::FOUR_G as usize),
          allow_negative_numbers = true)]
    pub limit: usize,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Checks a stream: each thread's chunks as they arrive, with a checker per thread, and the
/// per-thread reports added up in thread-index order (the report [`rdtrace::check::check_trace`]
/// gives for the file of the same run).
fn check_stream(input: &mut crate::tracefile::Input, limit: usize) -> Result<CheckReport> {
    let meta = input.meta().clone();
    let mut checkers: BTreeMap<u32, ThreadChecker<'_>> = BTreeMap::new();
    input.for_each_thread_chunk(|t, events| {
        let c = checkers
            .entry(t)
            .or_insert_with(|| ThreadChecker::new(&meta, t, limit));
        for e in events {
            e.visit(c);
        }
        Ok(())
    })?;
    // Threads without events are checked (and counted) too.
    for t in input.thread_indices() {
        checkers
            .entry(t)
            .or_insert_with(|| ThreadChecker::new(&meta, t, limit));
    }
    let exited_normally = input
        .exit()
        .is_some_and(|e| e.reason == rdtrace::chunk::ExitReason::Exit);
    let mut total = CheckReport::default();
    for (_, c) in checkers {
        total.add(c.finish(exited_normally), limit);
    }
    Ok(total)
}

/// Runs `check`: prints the report, and fails (status 1) when an invariant is violated.
pub fn run(args: &CheckArgs) -> Result<()> {
    let mut input = crate::tracefile::open_input(&args.trace, &args.open)?;
    let report = match &input {
        crate::tracefile::Input::File(trace) => rdtrace::check::check_file(trace, args.limit)?,
        _ => {
            let r = check_stream(&mut input, args.limit)?;
            input.finish()?;
            r
        }
    };
    let mut summary =
        Table::new(["threads", "events", "cfg edges", "violations"]).titled("Trace invariants");
    summary.row(vec![
        report.threads.to_string(),
        report.events.to_string(),
        report.edges_checked.to_string(),
        report.violations_total.to_string(),
    ]);
    let mut list = Table::new(["thread", "event", "kind", "what"]).titled("Violations");
    for v in &report.violations {
        list.row(vec![
            v.thread.to_string(),
            v.event.to_string(),
            v.kind.to_string(),
            v.message.clone(),
        ]);
    }
    let tables = if report.is_clean() {
        vec![summary]
    } else {
        vec![summary, list]
    };
    args.out.emit(&report, &tables)?;
    if !report.is_clean() {
        bail!(
            "{}: {} invariant violation(s)",
            args.trace.display(),
            report.violations_total
        );
    }
    Ok(())
}
