//! `rda-report check`: the trace invariant checker ([`rdtrace::check`]).

use crate::output::{OutputArgs, Table};
use anyhow::{bail, Result};
use rdtrace::check::{CheckReport, ThreadChecker};
use rdtrace::meta::ProgramMeta;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
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

/// Most threads `check` follows in a stream (the runtime's thread registry holds 4096).
const MAX_STREAM_THREADS: usize = 4096;

/// Hands out a checker per thread, each with a report of its own.
struct Checkers<'a, 'b, I> {
    meta: &'a ProgramMeta,
    limit: usize,
    free: &'b mut I,
    /// The report slot of each thread.
    slots: &'b mut BTreeMap<u32, usize>,
}

impl<'a, I: Iterator<Item = (usize, &'a mut CheckReport)>> Checkers<'a, '_, I> {
    /// Thread `t`'s checker, made when `t` is new.
    fn of<'c>(
        &mut self,
        t: u32,
        checkers: &'c mut BTreeMap<u32, ThreadChecker<'a>>,
    ) -> Result<&'c mut ThreadChecker<'a>> {
        Ok(match checkers.entry(t) {
            Entry::Occupied(o) => o.into_mut(),
            Entry::Vacant(v) => {
                let Some((slot, report)) = self.free.next() else {
                    bail!("the stream has more than {MAX_STREAM_THREADS} threads");
                };
                self.slots.insert(t, slot);
                v.insert(ThreadChecker::new(self.meta, t, self.limit, report))
            }
        })
    }
}

/// Checks a stream: each thread's chunks as they arrive, with a checker per thread, and the
/// per-thread reports added up in thread-index order (the report [`rdtrace::check::check_trace`]
/// gives for the file of the same run).
fn check_stream(input: &mut crate::tracefile::Input, limit: usize) -> Result<CheckReport> {
    let meta = input.meta().clone();
    // One report per thread, handed out as threads appear (each checker holds its own).
    let mut reports: Vec<CheckReport> = (0..MAX_STREAM_THREADS)
        .map(|_| CheckReport::default())
        .collect();
    let mut slots: BTreeMap<u32, usize> = BTreeMap::new();
    {
        let mut free = reports.iter_mut().enumerate();
        let mut checkers: BTreeMap<u32, ThreadChecker<'_>> = BTreeMap::new();
        let mut new = Checkers {
            meta: &meta,
            limit,
            free: &mut free,
            slots: &mut slots,
        };
        input.for_each_thread_chunk(|t, events| {
            let c = new.of(t, &mut checkers)?;
            for e in events {
                e.visit(c);
            }
            Ok(())
        })?;
        // Threads without events are checked (and counted) too.
        for t in input.thread_indices() {
            new.of(t, &mut checkers)?;
        }
        let exited_normally = input
            .exit()
            .is_some_and(|e| e.reason == rdtrace::chunk::ExitReason::Exit);
        for (_, c) in checkers {
            c.finish(exited_normally);
        }
    }
    let mut total = CheckReport::default();
    for &slot in slots.values() {
        let r = &mut reports[slot];
        total.threads += 1;
        total.events += r.events;
        total.edges_checked += r.edges_checked;
        total.violations_total += r.violations_total;
        let room = limit.saturating_sub(total.violations.len());
        total.violations.extend(r.violations.drain(..).take(room));
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
