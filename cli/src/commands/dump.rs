//! `rda-report dump`: events in readable form, in the order they happened.

use crate::commands::flags::int_in;
use crate::output::{csv_line, text_head, text_line, widen, Format, OutputArgs};
use anyhow::{Context, Result};
use rdtrace::demangle::{demangled, short_name};
use rdtrace::meta::ProgramMeta;
use rdtrace::Event;
use serde::Serialize;
use std::borrow::Cow;
use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `dump`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    long_about = "Prints the events of a trace in readable form, in the order they happened (all \
threads merged in stamp order, or one thread).\n\nBlock events name their function readably \
(C++ `Particles::step(double)`, Fortran `heat::step`; C names as they are), and so do block \
labels that the inliner made of a callee's symbol. --json keeps the linker symbols in `what` \
and adds `what_demangled`, the same description with readable names, to the rows whose names \
demangle.",
    after_help = "Examples:\n  rda-report dump app.rdtrace --limit 50\n  rda-report dump app.rdtrace --thread 1 --skip 1000 --json\n\nMemory: one decoded chunk per thread and the metadata (with the readable names of its functions and blocks), whatever the trace length or --limit: rows are printed as they are read (a text table of more than 4096 rows reads the trace twice, once for the column widths)."
)]
pub struct DumpArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Print at most this many events (0 to 2^64 - 1).
    #[arg(long, default_value_t = 100, value_parser = int_in("--limit", 0u64, u64::MAX),
          allow_negative_numbers = true)]
    pub limit: u64,
    /// Skip this many events first (0 to 2^64 - 1).
    #[arg(long, default_value_t = 0, value_parser = int_in("--skip", 0u64, u64::MAX),
          allow_negative_numbers = true)]
    pub skip: u64,
    /// Only this thread's events (default: all threads, merged in stamp order).
    #[arg(long, value_parser = int_in("--thread", 0u32, u32::MAX), allow_negative_numbers = true)]
    pub thread: Option<u32>,
    /// Leave out ordering stamps.
    #[arg(long)]
    pub no_stamps: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Serialize)]
struct Row<'a> {
    index: u64,
    thread: u32,
    event: Event,
    /// The description, naming functions by their linker symbols.
    what: &'a str,
    /// The description with readable function names, when it differs (C++, Fortran).
    #[serde(skip_serializing_if = "Option::is_none")]
    what_demangled: Option<&'a str>,
    location: &'a str,
}

impl Row<'_> {
    /// The description the text and CSV output show.
    fn shown(&self) -> &str {
        self.what_demangled.unwrap_or(self.what)
    }
}

/// Describes events for `dump` without allocating per event: what depends only on a static id
/// (a block's description and location, an instruction's or branch's location, an access's
/// kind and class) is formatted once, at the id's first event, and an access's address is
/// written into a reused buffer. The text equals [`describe`]'s and [`describe_demangled`]'s.
struct Describer<'m> {
    meta: &'m ProgramMeta,
    names: ReadableNames,
    /// By block id: the description, the readable one when it differs, the location.
    blocks: Vec<Option<(String, Option<String>, String)>>,
    /// By memory instruction: the text before the address (`load mi 5 `), the class after the
    /// size (` private`), the location.
    accesses: Vec<Option<(String, String, String)>>,
    /// By branch: the location.
    branches: Vec<Option<String>>,
    /// The description of the last event that is not a block's.
    what: String,
    /// Its location, when it is not cached.
    location: String,
}

impl<'m> Describer<'m> {
    fn new(meta: &'m ProgramMeta) -> Self {
        Describer {
            meta,
            names: ReadableNames::new(meta),
            blocks: vec![None; meta.blocks.len()],
            accesses: vec![None; meta.mem_instrs.len()],
            branches: vec![None; meta.branches.len()],
            what: String::new(),
            location: String::new(),
        }
    }

    /// The description, readable description and location of `e`.
    fn describe(&mut self, e: &Event) -> (&str, Option<&str>, &str) {
        use std::fmt::Write as _;
        let meta = self.meta;
        match *e {
            Event::Block { bb } if (bb as usize) < self.blocks.len() => {
                let names = &self.names;
                let (what, demangled, loc) = self.blocks[bb as usize].get_or_insert_with(|| {
                    let (what, loc) = describe(meta, e);
                    (what, describe_demangled(meta, names, e), loc)
                });
                (what, demangled.as_deref(), loc)
            }
            Event::Access { mi, addr, len } if (mi as usize) < self.accesses.len() => {
                let (before, after, loc) = self.accesses[mi as usize].get_or_insert_with(|| {
                    let m = &meta.mem_instrs[mi as usize];
                    (
                        format!("{} mi {mi} ", m.kind.name()).to_lowercase(),
                        format!(" {:?}", m.class).to_lowercase(),
                        meta.format_loc(m.loc),
                    )
                });
                self.what.clear();
                // As `describe` writes it, lower-cased: hex digits are already, `B` becomes `b`.
                let _ = write!(self.what, "{before}{addr:#x} {len}b{after}");
                (&self.what, None, loc)
            }
            Event::Branch { br, outcome } if (br as usize) < self.branches.len() => {
                let b = &meta.branches[br as usize];
                let loc = self.branches[br as usize].get_or_insert_with(|| meta.format_loc(b.loc));
                let to = b.successors.get(outcome as usize).copied();
                let back = b.back_edge_of.get(outcome as usize).copied().flatten();
                self.what.clear();
                let _ = write!(self.what, "branch {br} -> #{outcome} (block ");
                let _ = match to {
                    Some(t) => write!(self.what, "{t})"),
                    None => write!(self.what, "?)"),
                };
                if let Some(l) = back {
                    let _ = write!(self.what, " back-edge of loop {l}");
                }
                (&self.what, None, loc)
            }
            Event::Stamp { time } => {
                self.what.clear();
                let _ = write!(self.what, "stamp {time}");
                (&self.what, None, "")
            }
            _ => {
                // Rare events (OpenMP, unknown ids): formatted in full.
                let (what, loc) = describe(meta, e);
                self.what = what;
                self.location = loc;
                (&self.what, None, &self.location)
            }
        }
    }
}

/// A readable description and source location of one event, naming functions by their linker
/// symbols.
pub fn describe(meta: &ProgramMeta, e: &Event) -> (String, String) {
    describe_named(meta, e, None)
}

/// The readable names of a program's functions and block labels, where they differ from the
/// symbols (C++, Fortran), demangled once per run rather than once per event.
pub struct ReadableNames {
    /// By function id: [`rdtrace::demangle::display_name`].
    functions: Vec<Option<String>>,
    /// By block id: the [`short_name`] of a label that LLVM's inliner made of a callee's symbol
    /// (`_ZN3sim9ParticlesC2Em.exit` → `sim::Particles::Particles.exit`).
    labels: Vec<Option<String>>,
}

impl ReadableNames {
    /// The readable names of `meta`'s functions and blocks.
    pub fn new(meta: &ProgramMeta) -> Self {
        ReadableNames {
            functions: meta.functions.iter().map(|f| demangled(&f.name)).collect(),
            labels: meta
                .blocks
                .iter()
                .map(|b| match short_name(&b.name) {
                    Cow::Owned(label) => Some(label),
                    Cow::Borrowed(_) => None,
                })
                .collect(),
        }
    }
}

/// The description of a block event with readable names, when it differs from [`describe`]'s
/// (only blocks name functions).
pub fn describe_demangled(meta: &ProgramMeta, names: &ReadableNames, e: &Event) -> Option<String> {
    let Event::Block { bb } = *e else {
        return None;
    };
    let b = meta.blocks.get(bb as usize)?;
    let differs = |v: &[Option<String>], i: usize| v.get(i).is_some_and(Option::is_some);
    (differs(&names.functions, b.function as usize) || differs(&names.labels, bb as usize))
        .then(|| describe_named(meta, e, Some(names)).0)
}

/// [`describe`], with the readable function names and block labels of `names` when given.
fn describe_named(
    meta: &ProgramMeta,
    e: &Event,
    names: Option<&ReadableNames>,
) -> (String, String) {
    let readable = |v: &[Option<String>], i: u32| v.get(i as usize).cloned().flatten();
    let fname = |f: u32| {
        let symbol = meta
            .functions
            .get(f as usize)
            .map_or("?", |f| f.name.as_str());
        names
            .and_then(|n| readable(&n.functions, f))
            .unwrap_or_else(|| symbol.to_string())
    };
    let label = |bb: u32, name: &str| {
        names
            .and_then(|n| readable(&n.labels, bb))
            .unwrap_or_else(|| name.to_string())
    };
    match *e {
        Event::Block { bb } => match meta.blocks.get(bb as usize) {
            Some(b) => (
                format!("block {bb} {}:{}{}", fname(b.function), label(bb, &b.name), if b.parallel { " [parallel]" } else { "" }),
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
        Event::Gap => ("gap (left the region of interest)".into(), "".into()),
        Event::Stamp { time } => (format!("stamp {time}"), "".into()),
    }
}

/// Rows a text table holds before `dump` stops collecting and prints in two passes instead.
const TABLE_BUFFER_ROWS: usize = 4096;

const HEADERS: [&str; 4] = ["#", "thread", "event", "location"];

/// Walks the selected events in order and calls `f` with each row that passes `--skip`,
/// `--no-stamps` and `--limit`; `f` returns false to stop early.
fn for_each_row(
    trace: &rdtrace::Trace,
    args: &DumpArgs,
    mut f: impl FnMut(Row<'_>) -> Result<bool>,
) -> Result<()> {
    let mut describer = Describer::new(&trace.meta);
    let mut index = 0u64;
    let mut printed = 0u64;
    let mut take = |thread: u32, e: Event| -> Result<bool> {
        if args.no_stamps && matches!(e, Event::Stamp { .. }) {
            return Ok(true);
        }
        index += 1;
        if index <= args.skip {
            return Ok(true);
        }
        if printed >= args.limit {
            return Ok(false);
        }
        printed += 1;
        let (what, what_demangled, location) = describer.describe(&e);
        let more = f(Row {
            index: index - 1,
            thread,
            event: e,
            what,
            what_demangled,
            location,
        })?;
        Ok(more && printed < args.limit)
    };
    match args.thread {
        Some(t) => {
            let mut reader = trace.chunk_reader()?;
            let mut buf = Vec::new();
            for c in trace.event_chunks().iter().filter(|c| c.thread == t) {
                buf.clear();
                reader.visit_chunk(c, &mut buf)?;
                for &e in &buf {
                    if !take(t, e)? {
                        return Ok(());
                    }
                }
            }
        }
        None => {
            for r in trace.merged()? {
                let (t, e) = r?;
                if !take(t, e)? {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// The four cells of a text or CSV row; the numbers are written into `numbers` (reused).
fn cells<'r>(r: &'r Row<'_>, numbers: &'r mut String) -> [&'r str; 4] {
    use std::fmt::Write as _;
    numbers.clear();
    let _ = write!(numbers, "{}", r.index);
    let split = numbers.len();
    let _ = write!(numbers, "{}", r.thread);
    let (index, thread) = numbers.split_at(split);
    [index, thread, r.shown(), r.location]
}

/// Whether an output error is a closed pipe (`| head`), which ends the output quietly.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .and_then(|e| e.io_error_kind())
                == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs `dump`. Rows are printed as they are decoded (JSON and CSV); a text table of more than
/// [`TABLE_BUFFER_ROWS`] rows reads the trace twice, once for the column widths and once to
/// print, so memory never grows with the number of events.
pub fn run(args: &DumpArgs) -> Result<()> {
    // Printing events visits no cache line: the touch bound (see `rdtrace::work`) does not
    // apply, so a trace the analyses refuse can still be looked at.
    let mut open = args.open.clone();
    if open.max_touched == rdtrace::work::TouchLimit::Auto {
        open.max_touched = rdtrace::work::TouchLimit::Unlimited;
    }
    let trace = crate::tracefile::open(&args.trace, &open)?;
    let mut out = std::io::BufWriter::new(args.out.sink()?);
    let r = match args.out.format() {
        Format::Json => dump_json(&trace, args, &mut out),
        Format::Csv => {
            let mut line = String::new();
            csv_line(&HEADERS.map(String::from), &mut line);
            out.write_all(line.as_bytes())?;
            let mut numbers = String::new();
            for_each_row(&trace, args, |r| {
                line.clear();
                csv_line(&cells(&r, &mut numbers), &mut line);
                out.write_all(line.as_bytes())?;
                Ok(true)
            })
        }
        Format::Table => dump_table(&trace, args, &mut out),
    }
    .and_then(|()| Ok(out.flush()?));
    match r {
        Err(e) if closed_pipe(&e) => Ok(()),
        r => r,
    }
}

/// The rows as one JSON array, serialised element by element exactly as `serde_json` prints a
/// `Vec` of them.
fn dump_json(trace: &rdtrace::Trace, args: &DumpArgs, out: &mut impl Write) -> Result<()> {
    struct Rows<'a> {
        trace: &'a rdtrace::Trace,
        args: &'a DumpArgs,
        error: RefCell<Option<anyhow::Error>>,
    }
    impl Serialize for Rows<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::{Error, SerializeSeq};
            let mut seq = s.serialize_seq(None)?;
            let mut failed = None;
            let r = for_each_row(self.trace, self.args, |row| {
                match seq.serialize_element(&row) {
                    Ok(()) => Ok(true),
                    Err(e) => {
                        failed = Some(e);
                        Ok(false)
                    }
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            if let Err(e) = r {
                let msg = e.to_string();
                *self.error.borrow_mut() = Some(e);
                return Err(S::Error::custom(msg));
            }
            seq.end()
        }
    }
    let rows = Rows {
        trace,
        args,
        error: RefCell::new(None),
    };
    let r = serde_json::to_writer_pretty(&mut *out, &rows);
    if let Some(e) = rows.error.into_inner() {
        return Err(e);
    }
    r.context("writing JSON")?;
    writeln!(out)?;
    Ok(())
}

/// The rows as an aligned text table: collected when they are few, else measured in a first
/// pass and printed in a second.
fn dump_table(trace: &rdtrace::Trace, args: &DumpArgs, out: &mut impl Write) -> Result<()> {
    let headers = HEADERS.map(String::from);
    let mut width = vec![0usize; headers.len()];
    widen(&mut width, &headers);
    let mut rows: Vec<[String; 4]> = Vec::new();
    let mut overflowed = false;
    let mut numbers = String::new();
    for_each_row(trace, args, |r| {
        let c = cells(&r, &mut numbers);
        widen(&mut width, &c);
        if !overflowed {
            if rows.len() < TABLE_BUFFER_ROWS {
                rows.push(c.map(String::from));
            } else {
                overflowed = true;
                rows = Vec::new();
            }
        }
        Ok(true)
    })?;
    let mut text = String::new();
    text_head(&headers, &width, &mut text);
    if !overflowed {
        for r in &rows {
            text_line(r, &width, &mut text);
        }
        out.write_all(text.as_bytes())?;
        return Ok(());
    }
    out.write_all(text.as_bytes())?;
    for_each_row(trace, args, |r| {
        text.clear();
        text_line(&cells(&r, &mut numbers), &width, &mut text);
        out.write_all(text.as_bytes())?;
        Ok(true)
    })
}
