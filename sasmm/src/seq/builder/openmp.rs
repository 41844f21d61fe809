//! The OpenMP events that place the windows: a parallel region's entry and exit, a barrier,
//! and a worksharing construct, whose windows are resolved to iterations when it ends.

use super::{Builder, Spill, WsState};
use crate::window::{Placement, WorkshareRun};
use crate::workshare::{RunTable, Unit};
use rdtrace::Event;
use rustc_hash::FxHashMap;

impl Builder<'_, '_> {
    /// The loops of block `bb` inside the open worksharing construct, innermost first.
    fn construct_loops(&self, ws: &WsState, bb: u32) -> Vec<u32> {
        let mut chain = Vec::new();
        let mut cur = self.meta.blocks.get(bb as usize).and_then(|b| b.loop_id);
        while let Some(l) = cur {
            if ws.enclosing.contains(&l) {
                break;
            }
            chain.push(l);
            cur = self.meta.loops.get(l as usize).and_then(|l| l.parent);
        }
        chain
    }

    // Once per block event, called from the visitor in the parent module: inline it there
    // (another codegen unit would otherwise call it).
    #[inline]
    pub(super) fn block(&mut self, bb: u32) {
        let mut placement = self.base_placement();
        let mut pending = None;
        if self.depth > 0 {
            if let Some(mut ws) = self.ws.take() {
                let function = self.meta.blocks.get(bb as usize).map(|b| b.function);
                if function == Some(ws.function) {
                    let chain = self.construct_loops(&ws, bb);
                    let loops = &self.meta.loops;
                    let mut bump = |l: u32| {
                        let is_header = loops.get(l as usize).map(|m| m.header) == Some(bb);
                        let n = ws.units.entry(l).or_insert(0);
                        if is_header || *n == 0 {
                            *n += 1;
                        }
                        (l, *n - 1)
                    };
                    ws.current = chain.last().map(|&outer| Unit {
                        outer: bump(outer),
                        inner: (chain.len() >= 2).then(|| bump(chain[chain.len() - 2])),
                    });
                }
                pending = ws.current;
                self.ws = Some(ws);
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
        let max_units = ws
            .outer_loops
            .iter()
            .map(|l| ws.units.get(l).copied().unwrap_or(0))
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
            units: ws.units,
            fallback: (!ws.any_unit).then_some(ws.block_windows),
        };
        match self.spill.as_mut() {
            Some(Spill::File(w)) => return w.set_run(table),
            // Counting: windows that leave memory while spilling are counted with their
            // section's parallel flag, as the file's reader reports them; no placement needed.
            Some(Spill::Counted) => return,
            None => {}
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
                    units: FxHashMap::default(),
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
