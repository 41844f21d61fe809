//! `rda-report dump`: events in readable form, in the order they happened.

use crate::output::{emit, OutputArgs, Table};
use anyhow::Result;
use rdtrace::meta::ProgramMeta;
use rdtrace::Event;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `dump`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  rda-report dump app.rdtrace --limit 50\n  rda-report dump app.rdtrace --thread 1 --skip 1000 --json"
)]
pub struct DumpArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Print at most this many events.
    #[arg(long, default_value_t = 100)]
    pub limit: u64,
    /// Skip this many events first.
    #[arg(long, default_value_t = 0)]
    pub skip: u64,
    /// Only this thread's events (default: all threads, merged in stamp order).
    #[arg(long)]
    pub thread: Option<u32>,
    /// Leave out ordering stamps.
    #[arg(long)]
    pub no_stamps: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Serialize)]
struct Row {
    index: u64,
    thread: u32,
    event: Event,
    what: String,
    location: String,
}

/// A readable description and source location of one event.
pub fn describe(meta: &ProgramMeta, e: &Event) -> (String, String) {
    let fname = |f: u32| {
        meta.functions
            .get(f as usize)
            .map_or("?", |f| f.name.as_str())
    };
    match *e {
        Event::Block { bb } => match meta.blocks.get(bb as usize) {
            Some(b) => (
                format!("block {bb} {}:{}{}", fname(b.function), b.name, if b.parallel { " [parallel]" } else { "" }),
                meta.format_loc(b.loc),
            ),
            None => (format!("block {bb} (unknown)"), "?".into()),
        },
        Event::Access { mi, addr, len } => match meta.mem_instrs.get(mi as usize) {
            Some(m) => (
                format!("{} mi {mi} {addr:#x} {len}B {:?}", m.kind.name(), m.class).to_lowercase(),
                meta.format_loc(m.loc),
            ),
            None => (format!("access mi {mi} {addr:#x} {len}B"), "?".into()),
        },
        Event::Branch { br, outcome } => match meta.branches.get(br as usize) {
            Some(b) => {
                let to = b.successors.get(outcome as usize).copied();
                let back = b.back_edge_of.get(outcome as usize).copied().flatten();
                (
                    format!(
                        "branch {br} -> #{outcome} (block {}){}",
                        to.map_or("?".into(), |t| t.to_string()),
                        back.map_or(String::new(), |l| format!(" back-edge of loop {l}"))
                    ),
                    meta.format_loc(b.loc),
                )
            }
            None => (format!("branch {br} -> #{outcome}"), "?".into()),
        },
        Event::Fork { region } | Event::Join { region } | Event::RegionExit { region } => {
            let loc = meta.regions.get(region as usize).map_or("?".into(), |r| meta.format_loc(r.loc));
            let kind = match e {
                Event::Fork { .. } => "fork",
                Event::Join { .. } => "join",
                _ => "region exit",
            };
            (format!("{kind} region {region}"), loc)
        }
        Event::RegionEnter { region, omp_thread, team_size } => (
            format!("region enter {region} as omp thread {omp_thread}/{team_size}"),
            meta.regions.get(region as usize).map_or("?".into(), |r| meta.format_loc(r.loc)),
        ),
        Event::WorkshareInit { ws, schedule, lower, upper, stride, incr, chunk } => (
            format!("for init ws {ws} sched {schedule} [{lower}, {upper}] stride {stride} incr {incr} chunk {chunk}"),
            meta.workshares.get(ws as usize).map_or("?".into(), |w| meta.format_loc(w.loc)),
        ),
        Event::WorkshareNext { ws, more, lower, upper } => (
            if more { format!("dispatch next ws {ws} [{lower}, {upper}]") } else { format!("dispatch next ws {ws} done") },
            meta.workshares.get(ws as usize).map_or("?".into(), |w| meta.format_loc(w.loc)),
        ),
        Event::WorkshareFini { ws } => (format!("for fini ws {ws}"), "".into()),
        Event::Barrier => ("barrier".into(), "".into()),
        Event::Stamp { time } => (format!("stamp {time}"), "".into()),
    }
}

/// Runs `dump`.
pub fn run(args: &DumpArgs) -> Result<()> {
    let trace = crate::tracefile::open(&args.trace, &args.open)?;
    let mut rows = Vec::new();
    let mut index = 0u64;
    let mut take = |thread: u32, e: Event| -> bool {
        if args.no_stamps && matches!(e, Event::Stamp { .. }) {
            return true;
        }
        index += 1;
        if index <= args.skip {
            return true;
        }
        let (what, location) = describe(&trace.meta, &e);
        rows.push(Row {
            index: index - 1,
            thread,
            event: e,
            what,
            location,
        });
        (rows.len() as u64) < args.limit
    };
    match args.thread {
        Some(t) => {
            let mut reader = trace.chunk_reader()?;
            let mut buf = Vec::new();
            'outer: for c in trace.event_chunks().iter().filter(|c| c.thread == t) {
                buf.clear();
                reader.visit_chunk(c, &mut buf)?;
                for &e in &buf {
                    if !take(t, e) {
                        break 'outer;
                    }
                }
            }
        }
        None => {
            for r in trace.merged()? {
                let (t, e) = r?;
                if !take(t, e) {
                    break;
                }
            }
        }
    }
    let mut table = Table::new(["#", "thread", "event", "location"]);
    for r in &rows {
        table.row([
            r.index.to_string(),
            r.thread.to_string(),
            r.what.clone(),
            r.location.clone(),
        ]);
    }
    emit(args.out.format(), &rows, &[table])
}
