//! The OpenMP events that place the windows: a parallel region's entry and exit, a barrier,
//! and a worksharing construct, whose windows are resolved to iterations when it ends.

use super::{Builder, WsState};
use crate::window::{Placement, WorkshareRun};
use crate::workshare::{RunTable, Unit};
use rdtrace::meta::ProgramMeta;
use rdtrace::Event;
use rustc_hash::FxHashMap;

/// The unit of block `bb` in the open worksharing construct `ws`: its header entries counted
/// (in `counts`, by loop id) in the outermost two of the block's loops inside the construct
/// (the outermost first), or `None` when no loop of the construct holds it.
fn construct_unit(
    meta: &ProgramMeta,
    ws: &mut WsState,
    counts: &mut Vec<u64>,
    bb: u32,
) -> Option<Unit> {
    // The block's loops inside the construct, innermost first: only the last two count.
    let (mut outer, mut inner) = (None, None);
    let mut cur = meta.blocks.get(bb as usize).and_then(|b| b.loop_id);
    while let Some(l) = cur {
        if ws.enclosing.contains(&l) {
            break;
        }
        (outer, inner) = (Some(l), outer);
        cur = meta.loops.get(l as usize).and_then(|l| l.parent);
    }
    let loops = &meta.loops;
    let mut bump = |l: u32| {
        let is_header = loops.get(l as usize).map(|m| m.header) == Some(bb);
        if l as usize >= counts.len() {
            counts.resize(l as usize + 1, 0);
        }
        let n = &mut counts[l as usize];
        if *n == 0 {
            ws.touched.push(l);
            *n = 1;
        } else if is_header {
            *n += 1;
        }
        (l, *n - 1)
    };
    outer.map(|outer| Unit {
        outer: bump(outer),
        inner: inner.map(&mut bump),
    })
}

impl Builder<'_, '_> {
    // Once per block event, called from the visitor in the parent module: inline it there
    // (another codegen unit would otherwise call it).
    #[inline]
    pub(super) fn block(&mut self, bb: u32) {
        let mut placement = self.base_placement();
        let mut pending = None;
        if self.depth > 0 {
            if let Some(ws) = self.ws.as_mut() {
                let function = self.meta.blocks.get(bb as usize).map(|b| b.function);
                if function == Some(ws.function) {
                    ws.current = construct_unit(self.meta, ws, &mut self.unit_counts, bb);
                }
                pending = ws.current;
            }
        }
        if pending.is_some() {
            // Resolved to an iteration when the construct ends.
            placement = Placement::Replicated;
        }
        self.open_window_at(bb, placement, false, pending);
    }

    /// Ends the open worksharing construct: its iteration count, and its windows resolved to
    /// iterations (in memory) or its [`RunTable`] kept for reading the spilled windows.
    pub(super) fn finish_workshare(&mut self) {
        let Some(ws) = self.ws.take() else { return };
        let run = &mut self.out.workshares[ws.run as usize];
        let recorded = if ws.incr > 0 && ws.upper >= ws.lower {
            ((ws.upper - ws.lower) / ws.incr + 1) as u64
        } else if ws.incr < 0 && ws.upper <= ws.lower {
            ((ws.lower - ws.upper) / (-ws.incr) + 1) as u64
        } else {
            0
        };
        // With one thread libomp hands a chunked or dynamic loop its whole range at once: the
        // chunk loop runs once and the iterations are the units of the loops inside it.
        let whole_range = run.chunk.is_some_and(|c| recorded > c);
        // The construct's header counts, and the array cleared for the next construct.
        let units: FxHashMap<u32, u64> = ws
            .touched
            .iter()
            .map(|&l| (l, std::mem::take(&mut self.unit_counts[l as usize])))
            .collect();
        let max_units = ws
            .outer_loops
            .iter()
            .map(|l| units.get(l).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        run.iterations = match run.chunk {
            None => recorded.max(1),
            Some(_) if whole_range => recorded,
            Some(c) => max_units.saturating_mul(c).max(recorded).max(1),
        };
        let table = RunTable {
            run: ws.run,
            iterations: run.iterations,
            chunk: run.chunk,
            whole_range,
            units,
            fallback: (!ws.any_unit).then_some(ws.block_windows),
        };
        if let Some(w) = self.spill.as_mut() {
            return w.set_run(table);
        }
        let mut seen = FxHashMap::default();
        let mut pending = ws.pending.into_iter().peekable();
        let first = ws.first_window as usize;
        for (i, w) in self.out.windows.iter_mut().enumerate().skip(first) {
            let unit = pending.next_if(|&(p, _)| p as usize == i).map(|(_, u)| u);
            w.placement = table.resolve(unit, w.bb, w.continuation, &mut seen);
        }
    }

    pub(super) fn other(&mut self, e: Event) {
        match e {
            Event::RegionEnter { .. } => {
                let bb = self.current_bb();
                self.fork_blocks.push(bb.unwrap_or(u32::MAX));
                self.depth += 1;
                if self.depth == 1 {
                    self.cut(true, None);
                }
            }
            Event::RegionExit { .. } => {
                if self.depth == 0 {
                    return;
                }
                if self.depth == 1 {
                    self.finish_workshare();
                }
                self.depth -= 1;
                let caller = self.fork_blocks.pop().filter(|&b| b != u32::MAX);
                if self.depth == 0 {
                    self.cut(false, caller);
                } else if let Some(bb) = caller {
                    let p = self.base_placement();
                    self.open_window(bb, p, true);
                }
            }
            Event::Barrier if self.depth > 0 => {
                let bb = self.current_bb();
                self.cut(true, bb);
            }
            Event::WorkshareInit {
                ws,
                schedule,
                lower,
                upper,
                incr,
                chunk,
                ..
            } if self.depth > 0 => {
                self.finish_workshare();
                let meta = self.meta.workshares.get(ws as usize);
                let function = meta.map_or(u32::MAX, |m| m.function);
                let mut enclosing = Vec::new();
                let mut cur = meta
                    .and_then(|m| self.meta.blocks.get(m.block as usize))
                    .and_then(|b| b.loop_id);
                while let Some(l) = cur {
                    enclosing.push(l);
                    cur = self.meta.loops.get(l as usize).and_then(|l| l.parent);
                }
                let run = self.out.workshares.len() as u32;
                self.out.workshares.push(WorkshareRun {
                    ws,
                    schedule,
                    iterations: 0,
                    chunk: (!rdtrace::Schedule(schedule).is_static_unchunked())
                        .then_some(chunk.max(1) as u64),
                });
                self.ws = Some(WsState {
                    run,
                    function,
                    enclosing,
                    touched: Vec::new(),
                    current: None,
                    pending: Vec::new(),
                    any_unit: false,
                    outer_loops: Vec::new(),
                    block_windows: FxHashMap::default(),
                    first_window: self.out.windows.len() as u32,
                    lower,
                    upper,
                    incr: if incr == 0 { 1 } else { incr },
                });
            }
            Event::WorkshareFini { .. } if self.ws.is_some() => {
                self.finish_workshare();
                // The rest of the current block instance runs after the loop, on every core.
                if let Some(bb) = self.current_bb() {
                    let p = self.base_placement();
                    self.open_window(bb, p, true);
                }
            }
            _ => {}
        }
    }
}
