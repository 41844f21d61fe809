//! `rda-report info`: what a trace holds.

use crate::output::{OutputArgs, Table};
use anyhow::Result;
use rdtrace::meta::VarClass;
use rdtrace::work::TouchLimit;
use rdtrace::{Event, EventVisitor};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `info`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Example:\n  rda-report info app.rdtrace --json\n\nMemory: the metadata, the chunk index and one decoded chunk; counts are kept per thread."
)]
pub struct InfoArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Event counts by kind.
#[derive(Default, Serialize, Debug, Clone, Copy)]
pub struct EventCounts {
    blocks: u64,
    accesses: u64,
    bytes_accessed: u64,
    branches: u64,
    forks: u64,
    joins: u64,
    region_enters: u64,
    region_exits: u64,
    workshare_inits: u64,
    workshare_nexts: u64,
    workshare_finis: u64,
    barriers: u64,
    stamps: u64,
    gaps: u64,
}

impl EventCounts {
    /// Adds `c`'s counts.
    fn add(&mut self, c: &EventCounts) {
        for (a, b) in [
            (&mut self.blocks, c.blocks),
            (&mut self.accesses, c.accesses),
            (&mut self.bytes_accessed, c.bytes_accessed),
            (&mut self.branches, c.branches),
            (&mut self.forks, c.forks),
            (&mut self.joins, c.joins),
            (&mut self.region_enters, c.region_enters),
            (&mut self.region_exits, c.region_exits),
            (&mut self.workshare_inits, c.workshare_inits),
            (&mut self.workshare_nexts, c.workshare_nexts),
            (&mut self.workshare_finis, c.workshare_finis),
            (&mut self.barriers, c.barriers),
            (&mut self.stamps, c.stamps),
            (&mut self.gaps, c.gaps),
        ] {
            *a += b;
        }
    }

    /// Events of every kind.
    fn events(&self) -> u64 {
        let EventCounts {
            blocks,
            accesses,
            bytes_accessed: _,
            branches,
            forks,
            joins,
            region_enters,
            region_exits,
            workshare_inits,
            workshare_nexts,
            workshare_finis,
            barriers,
            stamps,
            gaps,
        } = *self;
        blocks
            + accesses
            + branches
            + forks
            + joins
            + region_enters
            + region_exits
            + workshare_inits
            + workshare_nexts
            + workshare_finis
            + barriers
            + stamps
            + gaps
    }
}

impl EventVisitor for EventCounts {
    fn block(&mut self, _bb: u32) {
        self.blocks += 1;
    }
    fn access(&mut self, _mi: u32, _addr: u64, len: u64) {
        self.accesses += 1;
        self.bytes_accessed += len;
    }
    fn branch(&mut self, _br: u32, _outcome: u32) {
        self.branches += 1;
    }
    fn other(&mut self, e: Event) {
        match e {
            Event::Fork { .. } => self.forks += 1,
            Event::Join { .. } => self.joins += 1,
            Event::RegionEnter { .. } => self.region_enters += 1,
            Event::RegionExit { .. } => self.region_exits += 1,
            Event::WorkshareInit { .. } => self.workshare_inits += 1,
            Event::WorkshareNext { .. } => self.workshare_nexts += 1,
            Event::WorkshareFini { .. } => self.workshare_finis += 1,
            Event::Barrier => self.barriers += 1,
            Event::Stamp { .. } => self.stamps += 1,
            Event::Gap => self.gaps += 1,
            _ => {}
        }
    }
}

#[derive(Serialize)]
struct ThreadRow {
    thread: u32,
    os_tid: u64,
    /// Events the thread's stream decodes to.
    events: u64,
    /// Of those, the ones stored as records: all but the implied blocks, which the decoder
    /// emits after the branch events that enter them (`rdtrace::version::V_IMPLIED_BLOCKS`),
    /// the derived accesses, which it emits after the access before them
    /// (`rdtrace::version::V_DERIVED_ACCESSES`), and the iterations of loops recorded in runs,
    /// for which one loop-run event is stored (`rdtrace::version::V_LOOP_RUNS`).
    records: u64,
    accesses: u64,
}

#[derive(Serialize)]
struct StaticCounts {
    modules: usize,
    functions: usize,
    outlined_functions: usize,
    blocks: usize,
    parallel_blocks: usize,
    /// Blocks without a record of their own (`rdtrace::meta::BlockMeta::implied`).
    implied_blocks: usize,
    mem_instrs: usize,
    shared_mem_instrs: usize,
    private_mem_instrs: usize,
    /// Memory instructions without records of their own (`rdtrace::meta::MemInstrMeta::derived`).
    derived_mem_instrs: usize,
    branches: usize,
    loops: usize,
    /// Single-block loops recorded in runs (`rdtrace::meta::BranchMeta::loop_run`).
    loops_in_runs: usize,
    regions: usize,
    workshares: usize,
}

#[derive(Serialize)]
struct InfoJson<'a> {
    path: String,
    program: &'a str,
    args: &'a [String],
    pid: u32,
    format_version: u32,
    clock: &'a str,
    file_bytes: u64,
    exit: Option<String>,
    /// `null` for a trace of the whole run.
    region_of_interest: Option<RoiJson>,
    threads: Vec<ThreadRow>,
    events: EventCounts,
    bytes_per_access: f64,
    /// Bytes the accesses span in whole 64-byte lines: the line visits of every analysis.
    bytes_touched: u64,
    /// Of those, the bytes beyond each access's first line (what wide accesses add).
    bytes_touched_beyond_first_line: u64,
    /// What the analyses allow of the latter (`--max-touched`; `null`: unlimited).
    touch_bound: Option<u64>,
    static_counts: StaticCounts,
    warnings: &'a [String],
}

/// What a region-of-interest trace says it holds.
#[derive(Serialize)]
struct RoiJson {
    /// `RDTRACE_ROI`'s names.
    functions: Vec<String>,
    /// Whether `RDTRACE_START()`/`RDTRACE_STOP()` bounded the recording.
    markers: bool,
    /// The program's functions those names select (readable names).
    selected_functions: Vec<String>,
}

/// Runs `info`.
pub fn run(args: &InfoArgs) -> Result<()> {
    // Counting visits no cache line, so the touch bound (see `rdtrace::work`) is only reported
    // here: info is where a user looks at a trace the analyses refuse.
    let mut open = args.open.clone();
    if open.max_touched == TouchLimit::Auto {
        open.max_touched = TouchLimit::Unlimited;
    }
    let trace = crate::tracefile::open(&args.trace, &open)?;
    let bar = crate::progress::bar(trace.stored_events(), "reading", args.out.quiet);
    // Chunks decode independently and counts add up in any order: every CPU decodes.
    let mut per_thread: std::collections::BTreeMap<u32, (EventCounts, u64)> = Default::default();
    let workers = std::thread::available_parallelism().map_or(1, |c| c.get().min(8));
    trace.decode_chunks_in_order(
        trace.event_chunks(),
        workers,
        2 * workers,
        |reader, chunk| {
            let mut c = EventCounts::default();
            let n = reader.visit_chunk(chunk, &mut c)?;
            Ok((chunk.thread, chunk.events, c, n))
        },
        |(thread, stored, c, n)| {
            let (counts, records) = per_thread.entry(thread).or_default();
            counts.add(&c);
            *records += n;
            bar.inc(stored as u64);
            Ok(())
        },
    )?;
    let mut total = EventCounts::default();
    let mut threads = Vec::new();
    for t in &trace.threads {
        let (c, n) = per_thread.remove(&t.thread).unwrap_or_default();
        threads.push(ThreadRow {
            thread: t.thread,
            os_tid: t.os_tid,
            events: c.events(),
            records: n,
            accesses: c.accesses,
        });
        total.add(&c);
    }
    bar.finish_and_clear();
    // After the read: with validation deferred (see `commands::run`), it counted the lines.
    let touched = trace.touched();
    let touch_bound = args
        .open
        .max_touched
        .bound(touched.trace_bytes, touched.accesses);
    if args.open.max_touched.exceeded(&touched) {
        eprintln!(
            "rda-report: warning: {}",
            rdtrace::TraceError::TooMuchWork {
                path: args.trace.clone(),
                touched,
                limit: args.open.max_touched,
            }
        );
    }
    let m = &trace.meta;
    let sc = StaticCounts {
        modules: m.modules.len(),
        functions: m.functions.len(),
        outlined_functions: m.functions.iter().filter(|f| f.outlined).count(),
        blocks: m.blocks.len(),
        parallel_blocks: m.blocks.iter().filter(|b| b.parallel).count(),
        implied_blocks: m.blocks.iter().filter(|b| b.implied).count(),
        mem_instrs: m.mem_instrs.len(),
        shared_mem_instrs: m
            .mem_instrs
            .iter()
            .filter(|i| i.class == VarClass::Shared)
            .count(),
        private_mem_instrs: m
            .mem_instrs
            .iter()
            .filter(|i| i.class == VarClass::Private)
            .count(),
        derived_mem_instrs: m.mem_instrs.iter().filter(|i| i.derived.is_some()).count(),
        branches: m.branches.len(),
        loops: m.loops.len(),
        loops_in_runs: m.branches.iter().filter(|b| b.loop_run.is_some()).count(),
        regions: m.regions.len(),
        workshares: m.workshares.len(),
    };
    let exit = trace.exit.as_ref().map(|e| match e.reason {
        rdtrace::chunk::ExitReason::Exit => "exit".to_string(),
        rdtrace::chunk::ExitReason::Signal(s) => format!("signal {s}"),
    });
    let region_of_interest = trace.roi.as_ref().map(|roi| RoiJson {
        functions: roi.functions.clone(),
        markers: roi.markers,
        selected_functions: rdtrace::roi::selected_functions(m, &roi.functions)
            .into_iter()
            .zip(&m.functions)
            .filter(|(selected, _)| *selected)
            .map(|(_, f)| rdtrace::demangle::display_name(&f.name).into_owned())
            .collect(),
    });
    let json = InfoJson {
        path: args.trace.display().to_string(),
        program: &trace.program.program,
        args: &trace.program.args,
        pid: trace.program.pid,
        format_version: trace.version,
        clock: &trace.program.clock,
        file_bytes: trace.file_len(),
        exit: exit.clone(),
        region_of_interest,
        threads,
        events: total,
        bytes_per_access: if total.accesses > 0 {
            trace.file_len() as f64 / total.accesses as f64
        } else {
            0.0
        },
        bytes_touched: touched.total,
        bytes_touched_beyond_first_line: touched.beyond_first_line,
        touch_bound,
        static_counts: sc,
        warnings: trace.warnings(),
    };

    let mut prog = Table::new(["field", "value"]).titled("Program");
    prog.row(["trace", &json.path]);
    prog.row(["program", json.program]);
    prog.row(["command line", &json.args.join(" ")]);
    prog.row(["pid", &json.pid.to_string()]);
    prog.row(["format version", &json.format_version.to_string()]);
    prog.row(["clock", json.clock]);
    prog.row(["ended by", exit.as_deref().unwrap_or("(no end chunk)")]);
    if let (Some(roi), Some(j)) = (&trace.roi, &json.region_of_interest) {
        prog.row(["region of interest", &roi.describe()]);
        if !roi.functions.is_empty() {
            let selected = if j.selected_functions.is_empty() {
                "(none: no function has these names)".to_string()
            } else {
                j.selected_functions.join(", ")
            };
            prog.row(["selected functions", &selected]);
        }
    }
    prog.row(["file bytes", &json.file_bytes.to_string()]);
    prog.row(["bytes per access", &format!("{:.3}", json.bytes_per_access)]);
    let bound = match json.touch_bound {
        Some(b) => rdtrace::work::human_bytes(b),
        None => "unlimited".into(),
    };
    prog.row([
        "bytes touched (64 B lines)",
        &rdtrace::work::human_bytes(json.bytes_touched),
    ]);
    prog.row([
        "  beyond each access's first line",
        &format!(
            "{} (analyses allow {bound})",
            rdtrace::work::human_bytes(json.bytes_touched_beyond_first_line)
        ),
    ]);

    let mut th =
        Table::new(["thread", "os tid", "events", "records", "accesses"]).titled("Threads");
    for t in &json.threads {
        th.row([
            t.thread.to_string(),
            t.os_tid.to_string(),
            t.events.to_string(),
            t.records.to_string(),
            t.accesses.to_string(),
        ]);
    }
    let mut ev = Table::new(["event kind", "count"]).titled("Events");
    let e = &json.events;
    for (k, v) in [
        ("block", e.blocks),
        ("access", e.accesses),
        ("bytes accessed", e.bytes_accessed),
        ("branch", e.branches),
        ("fork", e.forks),
        ("join", e.joins),
        ("region enter", e.region_enters),
        ("region exit", e.region_exits),
        ("workshare init", e.workshare_inits),
        ("workshare next", e.workshare_nexts),
        ("workshare fini", e.workshare_finis),
        ("barrier", e.barriers),
        ("stamp", e.stamps),
    ] {
        ev.row([k.to_string(), v.to_string()]);
    }
    if trace.roi.is_some() {
        ev.row(["gap".to_string(), e.gaps.to_string()]);
    }
    let s = &json.static_counts;
    let mut st = Table::new(["static entity", "count"]).titled("Static metadata");
    for (k, v) in [
        ("modules", s.modules),
        ("functions", s.functions),
        ("outlined functions", s.outlined_functions),
        ("basic blocks", s.blocks),
        ("parallel blocks", s.parallel_blocks),
        ("implied (no record)", s.implied_blocks),
        ("memory instructions", s.mem_instrs),
        ("shared", s.shared_mem_instrs),
        ("private", s.private_mem_instrs),
        ("derived (no record)", s.derived_mem_instrs),
        ("branches", s.branches),
        ("loops", s.loops),
        ("recorded in runs", s.loops_in_runs),
        ("parallel regions", s.regions),
        ("worksharing loops", s.workshares),
    ] {
        st.row([k.to_string(), v.to_string()]);
    }
    args.out.emit(&json, &[prog, th, ev, st])
}
