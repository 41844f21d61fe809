//! `rda-report check`: the trace invariant checker ([`rdtrace::check`]).

use crate::output::{OutputArgs, Table};
use anyhow::{bail, Result};
use std::path::PathBuf;

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Checks ids against the metadata, stamps increasing per thread, fork/join, region \
and worksharing pairs, and block successors against the CFG in the metadata.\n\
Exit status: 0 clean, 1 violations (listed) or an unreadable trace, 2 usage error.\n\n\
Examples:\n  rda-report check app.rdtrace\n  rda-report check app.rdtrace --json --limit 10"
)]
pub struct CheckArgs {
    /// Trace file.
    pub trace: PathBuf,
    /// Violations to list (all are counted).
    #[arg(long, default_value_t = rdtrace::check::DEFAULT_LIST_LIMIT)]
    pub limit: usize,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Runs `check`: prints the report, and fails (status 1) when an invariant is violated.
pub fn run(args: &CheckArgs) -> Result<()> {
    let trace = crate::tracefile::open(&args.trace, &args.open)?;
    let report = rdtrace::check::check_trace(&trace, args.limit)?;
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
