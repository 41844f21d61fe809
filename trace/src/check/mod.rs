//! The trace invariant checker (like drcachesim's `invariant_checker`): replays every thread's
//! events against the program's metadata and reports what a correct pass and runtime never
//! write. `rda-report check TRACE` prints its report; the e2e tests run it on every trace they
//! produce.
//!
//! Invariants, per thread:
//! * **ids**: every block, memory instruction, branch, region and worksharing id is below its
//!   metadata table's length, and a branch outcome indexes its branch's successor list (the
//!   reader already refuses such events; checked again so a reader bug cannot hide one);
//! * **stamps**: stamp times never decrease;
//! * **pairs**: `Fork`/`Join` and `RegionEnter`/`RegionExit` nest and name the same region;
//!   `WorkshareNext` and `WorkshareFini` belong to the innermost open `WorkshareInit` of the
//!   same loop (a dispatch loop may end with `WorkshareNext { more: false }` and no fini);
//!   in a trace whose program exited normally, nothing is left open at the end of a thread;
//! * **bounds**: a `WorkshareInit`'s bounds, and those of a `WorkshareNext` that hands out a
//!   chunk, are not below 0 (compiled worksharing loops number their iterations from 0);
//! * **chunks** ([`check_file`], `rda-report check`): every events chunk passed the reader's
//!   checks (an events chunk the reader refused or cut short, e.g. one declaring more events
//!   than its bytes justify, is a violation of kind `chunk`);
//! * **control flow**: within a call frame, each block entered is a successor of the previous
//!   block in the metadata CFG; a function's entry block (which has no predecessors in LLVM IR)
//!   starts a frame, a frame whose last block has no successors has returned, and a block of a
//!   function deeper in the frame stack returns to that frame (returns are not recorded); a
//!   block reached past frames that have not returned came by `longjmp` and resynchronises (so
//!   does a branch, as when `setjmp` returns a second time); a branch event belongs to the
//!   current block, and the next block
//!   of the frame is the successor its outcome names.
//!
//! A trace of a region of interest ([`crate::chunk::RoiInfo`]) may start a thread's recording
//! anywhere, and a [`Event::Gap`] ends what came before: there, a block of a function not on the
//! frame stack starts a frame, and a close (`Join`, `RegionExit`, `WorkshareNext`/`Fini`) with
//! nothing open is accepted, since its opening event was not recorded.

mod thread;

pub use thread::ThreadChecker;

use crate::meta::ProgramMeta;
use crate::{Analysis, Event, EventVisitor, Result, Shape, Trace};
use serde::Serialize;

/// Violations listed in a report by default (all are counted).
pub const DEFAULT_LIST_LIMIT: usize = 100;

/// One invariant violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Thread index of the stream.
    pub thread: u32,
    /// Index of the offending event in the thread's stream (0-based).
    pub event: u64,
    /// Invariant kind: `id`, `stamp`, `pair`, `cfg`, `bounds` (worksharing bounds) or `chunk`
    /// (an events chunk the reader refused; `event` is then 0).
    pub kind: &'static str,
    /// What is wrong.
    pub message: String,
}

/// What [`check_trace`] found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckReport {
    /// Threads checked.
    pub threads: u32,
    /// Events checked.
    pub events: u64,
    /// Block-to-block transitions checked against the CFG.
    pub edges_checked: u64,
    /// Violations found (all of them, also those not listed).
    pub violations_total: u64,
    /// The first violations, at most the list limit.
    pub violations: Vec<Violation>,
}

impl CheckReport {
    /// Whether no invariant is violated.
    pub fn is_clean(&self) -> bool {
        self.violations_total == 0
    }

    /// Adds another report (a later thread's) to this one, listing at most `limit` violations.
    pub fn add(&mut self, other: CheckReport, limit: usize) {
        self.threads += other.threads;
        self.events += other.events;
        self.edges_checked += other.edges_checked;
        self.violations_total += other.violations_total;
        let room = limit.saturating_sub(self.violations.len());
        self.violations
            .extend(other.violations.into_iter().take(room));
    }
}

/// Checks every thread of `trace`; lists at most `limit` violations (counting all). The
/// events of chunks the reader refused are not there to check; [`check_file`] also reports
/// those chunks.
pub fn check_trace(trace: &Trace, limit: usize) -> Result<CheckReport> {
    let mut report = CheckReport::default();
    check_threads(trace, limit, &mut report)?;
    Ok(report)
}

/// [`check_trace`], with every events chunk the reader refused or cut short (damage, more
/// events than its bytes justify) listed first as a violation of kind `chunk`: a file that
/// needed salvage is not clean (what `rda-report check` reports).
pub fn check_file(trace: &Trace, limit: usize) -> Result<CheckReport> {
    let mut report = CheckReport::default();
    for r in trace.rejected() {
        report.violations_total += 1;
        if report.violations.len() < limit {
            report.violations.push(Violation {
                thread: r.thread,
                event: 0,
                kind: "chunk",
                message: format!("corrupt events chunk at offset {}: {}", r.offset, r.what),
            });
        }
    }
    check_threads(trace, limit, &mut report)?;
    Ok(report)
}

fn check_threads(trace: &Trace, limit: usize, report: &mut CheckReport) -> Result<()> {
    let exited_normally = trace
        .exit
        .as_ref()
        .is_some_and(|e| e.reason == crate::chunk::ExitReason::Exit);
    let checker = Checker::new(&trace.meta, limit, exited_normally, trace.roi.is_some());
    let threads = crate::analysis::run(trace, checker, |_| {})?;
    report.add(threads, limit);
    Ok(())
}

/// The checker as an [`Analysis`]: each thread on its own with a [`ThreadChecker`], the
/// threads' reports added up in thread-index order.
pub struct Checker<'a> {
    meta: &'a ProgramMeta,
    limit: usize,
    starting_anywhere: bool,
    exited_normally: bool,
    current: Option<ThreadChecker<'a>>,
    total: CheckReport,
}

impl<'a> Checker<'a> {
    /// A checker of a run whose metadata is `meta`, listing at most `limit` violations;
    /// `exited_normally` when the program exited (then nothing may be left open), and
    /// `starting_anywhere` for a region-of-interest trace (see the module docs).
    pub fn new(
        meta: &'a ProgramMeta,
        limit: usize,
        exited_normally: bool,
        starting_anywhere: bool,
    ) -> Self {
        Checker {
            meta,
            limit,
            starting_anywhere,
            exited_normally,
            current: None,
            total: CheckReport::default(),
        }
    }

    fn end_thread(&mut self) {
        if let Some(c) = self.current.take() {
            let r = c.finish(self.exited_normally);
            self.total.add(r, self.limit);
        }
    }
}

impl EventVisitor for Checker<'_> {
    #[inline]
    fn block(&mut self, bb: u32) {
        if let Some(c) = &mut self.current {
            c.block(bb);
        }
    }

    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        if let Some(c) = &mut self.current {
            c.access(mi, addr, len);
        }
    }

    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        if let Some(c) = &mut self.current {
            c.branch(br, outcome);
        }
    }

    fn other(&mut self, event: Event) {
        if let Some(c) = &mut self.current {
            c.other(event);
        }
    }
}

impl Analysis for Checker<'_> {
    type Report = CheckReport;

    fn shape(&self) -> Shape {
        Shape::PerThread
    }

    fn thread(&mut self, thread: u32) {
        self.end_thread();
        let c = ThreadChecker::new(self.meta, thread, self.limit);
        self.current = Some(if self.starting_anywhere {
            c.starting_anywhere()
        } else {
            c
        });
    }

    fn finish(mut self) -> CheckReport {
        self.end_thread();
        self.total
    }
}
