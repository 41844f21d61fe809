//! One thread's invariant rules ([`ThreadChecker`]): ids, stamps, region and worksharing pairs,
//! bounds and the control flow against the metadata's CFG, as the parent module lists them.

use super::{CheckReport, Violation};
use crate::meta::ProgramMeta;
use crate::{Event, EventVisitor};

/// Frames kept per thread (a call depth far beyond what a thread's stack holds); deeper ones are
/// dropped from the bottom, and a block whose frame was dropped then starts a new frame instead
/// of counting as a violation.
const MAX_FRAMES: usize = 1 << 20;

/// One call frame: the function and the last block entered in it.
#[derive(Clone, Copy, Debug)]
struct Frame {
    function: u32,
    block: u32,
    /// Successor the last branch of `block` named, if a branch event came.
    next: Option<u32>,
}

/// Checks one thread's stream; feed it events in order, then call [`ThreadChecker::finish`].
pub struct ThreadChecker<'a> {
    meta: &'a ProgramMeta,
    thread: u32,
    limit: usize,
    /// This thread's findings.
    report: CheckReport,
    index: u64,
    last_stamp: Option<u64>,
    frames: Vec<Frame>,
    /// Whether frames were dropped from the bottom (their blocks can no longer be checked).
    truncated: bool,
    /// Open forks and regions: `(is_fork, region)`.
    regions: Vec<(bool, u32)>,
    /// Open worksharing loops: `(ws, done)` (`done` after `WorkshareNext { more: false }`).
    workshares: Vec<(u32, bool)>,
    /// Whether regions and loops may have opened before the recording (re)started, so a close
    /// with nothing open is not a violation.
    opened_unseen: bool,
}

impl<'a> ThreadChecker<'a> {
    /// A checker for thread `thread`, listing at most `limit` violations.
    pub fn new(meta: &'a ProgramMeta, thread: u32, limit: usize) -> Self {
        ThreadChecker {
            meta,
            thread,
            limit,
            report: CheckReport {
                threads: 1,
                ..CheckReport::default()
            },
            index: 0,
            last_stamp: None,
            frames: Vec::new(),
            truncated: false,
            regions: Vec::new(),
            workshares: Vec::new(),
            opened_unseen: false,
        }
    }

    /// For a region-of-interest trace: the stream may start anywhere (see the module docs).
    pub fn starting_anywhere(mut self) -> Self {
        self.forget_before_gap();
        self
    }

    /// Forgets the call stack, regions and loops: events after a gap do not continue them.
    fn forget_before_gap(&mut self) {
        self.frames.clear();
        self.truncated = true;
        self.regions.clear();
        self.workshares.clear();
        self.opened_unseen = true;
    }

    fn violation(&mut self, kind: &'static str, message: String) {
        self.report.violations_total += 1;
        if self.report.violations.len() < self.limit {
            self.report.violations.push(Violation {
                thread: self.thread,
                event: self.index,
                kind,
                message,
            });
        }
    }

    fn id_ok(&mut self, what: &str, id: u32, len: usize) -> bool {
        let ok = (id as usize) < len;
        if !ok {
            self.violation("id", format!("{what} id {id} is not below {len}"));
        }
        ok
    }

    /// Pops the frames that have returned: a frame whose last block has no successors (it ends
    /// in `ret` or `unreachable`) cannot enter a block any more.
    fn pop_returned(&mut self) {
        while self
            .frames
            .last()
            .is_some_and(|f| self.meta.blocks[f.block as usize].successors.is_empty())
        {
            self.frames.pop();
        }
    }

    fn enter_block(&mut self, bb: u32) {
        if !self.id_ok("block", bb, self.meta.blocks.len()) {
            return;
        }
        self.pop_returned();
        let function = self.meta.blocks[bb as usize].function;
        let is_entry = self
            .meta
            .functions
            .get(function as usize)
            .is_some_and(|f| f.first_block == bb);
        if is_entry {
            // A call (or a thread's first function): a new frame.
            if self.frames.len() == MAX_FRAMES {
                self.frames.remove(0);
                self.truncated = true;
            }
            self.frames.push(Frame {
                function,
                block: bb,
                next: None,
            });
            return;
        }
        // Returns are not recorded: unwind to the innermost frame of this block's function.
        let Some(depth) = self.frames.iter().rposition(|f| f.function == function) else {
            if self.truncated {
                self.frames.push(Frame {
                    function,
                    block: bb,
                    next: None,
                });
                return;
            }
            let name = &self.meta.functions[function as usize].name;
            self.violation(
                "cfg",
                format!("block {bb} of {name} entered without entering {name}"),
            );
            return;
        };
        // Frames above that have not returned were left by a non-local jump (`longjmp`): the
        // jump target's block is not an edge of the CFG, so resynchronise without a check.
        let jumped = depth + 1 < self.frames.len();
        self.frames.truncate(depth + 1);
        let frame = self.frames[depth];
        if jumped {
            self.frames[depth] = Frame {
                function,
                block: bb,
                next: None,
            };
            return;
        }
        self.report.edges_checked += 1;
        let from = &self.meta.blocks[frame.block as usize];
        if !from.successors.contains(&bb) {
            self.violation(
                "cfg",
                format!(
                    "block {bb} follows block {} ({}), which has successors {:?}",
                    frame.block, from.name, from.successors
                ),
            );
        } else if let Some(next) = frame.next.filter(|&n| n != bb) {
            self.violation(
                "cfg",
                format!(
                    "block {bb} follows block {} whose branch went to block {next}",
                    frame.block
                ),
            );
        }
        self.frames[depth] = Frame {
            function,
            block: bb,
            next: None,
        };
    }

    fn branch_taken(&mut self, br: u32, outcome: u32) {
        if !self.id_ok("branch", br, self.meta.branches.len()) {
            return;
        }
        let b = &self.meta.branches[br as usize];
        let Some(&target) = b.successors.get(outcome as usize) else {
            let n = b.successors.len();
            self.violation(
                "id",
                format!("branch {br} outcome {outcome} is not below its {n} successors"),
            );
            return;
        };
        let block = b.block;
        // The branch ends its block, after any calls the block made: unwind to its frame.
        let function = self.meta.blocks.get(block as usize).map(|b| b.function);
        // A frame of the branch's own function whose last block has no successors cannot take
        // the branch: it is a recursive call that has returned (or was left by `longjmp`) with no
        // block in between, not the frame the branch belongs to. Frames of other functions are
        // left to the unwinding below: a block ending in a call and `ret` may still be running
        // that call.
        while self.frames.last().is_some_and(|f| {
            Some(f.function) == function
                && f.block != block
                && self.meta.blocks[f.block as usize].successors.is_empty()
        }) {
            self.frames.pop();
        }
        let depth = self
            .frames
            .iter()
            .rposition(|f| Some(f.function) == function);
        if let Some(d) = depth {
            if d + 1 < self.frames.len() {
                // Left unreturned frames: a non-local jump (`longjmp`) into `block`.
                self.frames.truncate(d + 1);
                self.frames[d].block = block;
            }
        }
        match self.frames.last_mut() {
            Some(f) if f.block == block => f.next = Some(target),
            current => {
                let current = current.map(|f| f.block);
                self.violation(
                    "cfg",
                    format!("branch {br} of block {block} taken in block {current:?}"),
                );
            }
        }
    }

    fn open_region(&mut self, fork: bool, region: u32) {
        if self.id_ok("region", region, self.meta.regions.len()) {
            self.regions.push((fork, region));
        }
    }

    fn close_region(&mut self, fork: bool, region: u32) {
        if !self.id_ok("region", region, self.meta.regions.len()) {
            return;
        }
        let (open, close) = if fork {
            ("Fork", "Join")
        } else {
            ("RegionEnter", "RegionExit")
        };
        // Dispatch loops may end without a fini: forget finished ones.
        self.workshares.retain(|&(_, done)| !done);
        match self.regions.last() {
            Some(&(f, r)) if f == fork && r == region => {
                self.regions.pop();
            }
            None if self.opened_unseen => {}
            top => {
                let top = top.copied();
                self.violation(
                    "pair",
                    format!(
                        "{close} of region {region} without its {open} (innermost open: {top:?})"
                    ),
                );
            }
        }
    }

    fn workshare(&mut self, ws: u32, what: WsEvent) {
        if !self.id_ok("workshare", ws, self.meta.workshares.len()) {
            return;
        }
        match what {
            WsEvent::Init => {
                while self.workshares.last().is_some_and(|&(_, done)| done) {
                    self.workshares.pop();
                }
                self.workshares.push((ws, false));
            }
            WsEvent::Next { more } => match self.workshares.last_mut() {
                Some((w, done)) if *w == ws => *done |= !more,
                None if self.opened_unseen => {}
                top => {
                    let top = top.map(|t| t.0);
                    self.violation(
                        "pair",
                        format!("WorkshareNext of loop {ws} while the open loop is {top:?}"),
                    );
                }
            },
            WsEvent::Fini => match self.workshares.last() {
                Some(&(w, _)) if w == ws => {
                    self.workshares.pop();
                }
                None if self.opened_unseen => {}
                top => {
                    let top = top.map(|t| t.0);
                    self.violation(
                        "pair",
                        format!("WorkshareFini of loop {ws} while the open loop is {top:?}"),
                    );
                }
            },
        }
    }

    /// Reports worksharing bounds no compiled loop hands libomp: clang and flang number a
    /// worksharing loop's iterations from 0 (the logical iteration space), so a bound below 0
    /// comes from a damaged or crafted trace (and would make an analysis that spans the
    /// iterations, `simt`, span a range the trace never ran).
    fn bounds_ok(&mut self, ws: u32, lower: i64, upper: i64) {
        if lower < 0 || upper < -1 {
            self.violation(
                "bounds",
                format!(
                    "worksharing loop {ws} has bounds {lower}..={upper}; compiled loops number \
                     their iterations from 0"
                ),
            );
        }
    }

    /// Ends the stream: with `exited_normally`, reports regions and loops left open. Returns
    /// the thread's report.
    pub fn finish(mut self, exited_normally: bool) -> CheckReport {
        self.workshares.retain(|&(_, done)| !done);
        if exited_normally {
            if let Some(&(fork, region)) = self.regions.last() {
                let what = if fork { "Fork" } else { "RegionEnter" };
                self.violation(
                    "pair",
                    format!(
                        "{what} of region {region} never closed ({} open)",
                        self.regions.len()
                    ),
                );
            }
            if let Some(&(ws, _)) = self.workshares.last() {
                self.violation("pair", format!("worksharing loop {ws} never finished"));
            }
        }
        self.report.events += self.index;
        self.report
    }
}

enum WsEvent {
    Init,
    Next { more: bool },
    Fini,
}

// Inlined into the decoder's loop (the checker is visited through `Checker`, and where each
// lands among the crate's codegen units moves as the crate grows: `access` once stopped being
// inlined, 6 % of `check`'s time).
impl EventVisitor for ThreadChecker<'_> {
    #[inline]
    fn block(&mut self, bb: u32) {
        self.enter_block(bb);
        self.index += 1;
    }

    #[inline]
    fn access(&mut self, mi: u32, _addr: u64, _len: u64) {
        self.id_ok("memory instruction", mi, self.meta.mem_instrs.len());
        self.index += 1;
    }

    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        self.branch_taken(br, outcome);
        self.index += 1;
    }

    fn other(&mut self, event: Event) {
        match event {
            Event::Fork { region } => self.open_region(true, region),
            Event::Join { region } => self.close_region(true, region),
            Event::RegionEnter { region, .. } => self.open_region(false, region),
            Event::RegionExit { region } => self.close_region(false, region),
            Event::WorkshareInit {
                ws, lower, upper, ..
            } => {
                self.bounds_ok(ws, lower, upper);
                self.workshare(ws, WsEvent::Init)
            }
            Event::WorkshareNext {
                ws,
                more,
                lower,
                upper,
            } => {
                // A last `WorkshareNext` (no more chunks) leaves its bounds unset: not checked.
                if more {
                    self.bounds_ok(ws, lower, upper);
                }
                self.workshare(ws, WsEvent::Next { more })
            }
            Event::WorkshareFini { ws } => self.workshare(ws, WsEvent::Fini),
            Event::Stamp { time } => {
                if let Some(last) = self.last_stamp.filter(|&last| time < last) {
                    self.violation("stamp", format!("stamp {time} after stamp {last}"));
                }
                self.last_stamp = Some(time);
            }
            Event::Gap => self.forget_before_gap(),
            Event::Block { .. } | Event::Access { .. } | Event::Branch { .. } | Event::Barrier => {}
        }
        self.index += 1;
    }
}
