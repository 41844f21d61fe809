//! The event visitor that cuts one thread's events into windows and sections (see the module
//! documentation of [`crate::seq`]): whole, or streamed in fragments with long parallel ones
//! spilled to a temporary file.

use super::{Fragment, FragmentSink, StreamLimits, WindowSink};
use crate::error::{Result, SasmmError};
use crate::spill::SpillWriter;
use crate::window::{Access, Placement, Section, SequentialTrace, Window, WorkshareRun};
use crate::workshare::{RunTable, Tag, Unit};
use rdtrace::meta::{ProgramMeta, VarClass};
use rdtrace::{Event, EventVisitor};
use std::collections::HashMap;

/// Per worksharing-loop-instance state while decoding.
struct WsState {
    run: u32,
    function: u32,
    /// Loops containing the init block (they enclose the whole construct).
    enclosing: Vec<u32>,
    /// Header entries so far, per unit loop.
    units: HashMap<u32, u64>,
    /// Unit of the most recent block of the construct's own function (for callee blocks).
    current: Option<Unit>,
    /// Windows waiting for their iteration (in memory; a spilled window carries its unit).
    pending: Vec<(u32, Unit)>,
    /// Whether any window was opened inside a unit loop (else the per-block rule applies).
    any_unit: bool,
    /// Outer unit loops of those windows.
    outer_loops: Vec<u32>,
    /// Windows per block that are not continuations (for the per-block rule).
    block_windows: HashMap<u32, u64>,
    first_window: u32,
    lower: i64,
    upper: i64,
    incr: i64,
}

/// What a [`Builder`] makes of the events.
pub(super) enum Output<'s> {
    /// The whole trace, kept until [`Builder::finish`].
    Whole,
    /// Streaming: fragments, handed over as they are complete.
    Fragments(&'s mut FragmentSink<'s>),
    /// Streaming, counting only: every window the fragments would hold, as `(bb, continuation,
    /// parallel)`, handed over when its fragment would be (or when it would be written to the
    /// temporary file). The same windows are cut, held and dropped as for `Fragments` (the
    /// same thresholds decide when a fragment is handed over or would be spilled), but no
    /// access is stored and nothing is written: windows carry their bounds only.
    Windows(&'s mut WindowSink<'s>),
}

/// Where a streamed parallel fragment that outgrew memory goes.
enum Spill {
    /// A temporary file.
    File(SpillWriter),
    /// Counting only: its windows are handed to the window sink as they leave memory.
    Counted,
}

/// Cuts one thread's events into windows and sections, whole or streamed (see [`super`]).
pub(super) struct Builder<'m, 's> {
    meta: &'m ProgramMeta,
    /// The whole trace, or (streaming) the part not yet handed over.
    out: SequentialTrace,
    /// Where the windows go.
    output: Output<'s>,
    /// Counting only: accesses of the held windows (`out.accesses` stays empty).
    held: usize,
    /// Streaming: when to hand a serial section over and when to spill a parallel fragment.
    limits: StreamLimits,
    /// Streaming: where the fragment goes once it outgrew memory.
    spill: Option<Spill>,
    /// While spilling: the tag of each window still in `out.windows`.
    tags: Vec<Tag>,
    /// Streaming: the first error of the temporary file or the sink.
    error: Option<SasmmError>,
    /// Block of the most recent window (it may have been handed over already).
    last_bb: Option<u32>,
    /// Accesses seen.
    accesses: u64,
    depth: u32,
    section_start: u32,
    section_parallel: bool,
    /// Block of the window that was current at each region entry (continued after the exit).
    fork_blocks: Vec<u32>,
    ws: Option<WsState>,
    overflow: bool,
}

impl<'m, 's> Builder<'m, 's> {
    /// A builder for `meta`'s program.
    pub(super) fn new(meta: &'m ProgramMeta, output: Output<'s>, limits: StreamLimits) -> Self {
        let mut block_names: Vec<String> = meta
            .blocks
            .iter()
            .map(|b| {
                let f = meta
                    .functions
                    .get(b.function as usize)
                    .map_or("?", |f| f.name.as_str());
                format!("{f}:{}", b.name)
            })
            .collect();
        block_names.push("(before first block)".into());
        let mi_class = meta.mem_instrs.iter().map(|m| m.class).collect();
        let mi_shared_variable = meta
            .mem_instrs
            .iter()
            .map(|m| {
                m.class == VarClass::Shared
                    && !m.derivation.contains("loaded")
                    && m.derivation
                        .rsplit(" -> ")
                        .next()
                        .is_some_and(|root| root.starts_with("shared variable argument"))
            })
            .collect();
        Builder {
            meta,
            out: SequentialTrace {
                mi_class,
                mi_shared_variable,
                block_names,
                ..Default::default()
            },
            output,
            held: 0,
            limits,
            spill: None,
            tags: Vec::new(),
            error: None,
            last_bb: None,
            accesses: 0,
            depth: 0,
            section_start: 0,
            section_parallel: false,
            fork_blocks: Vec::new(),
            ws: None,
            overflow: false,
        }
    }

    /// Accesses of the held windows.
    fn held_accesses(&self) -> usize {
        match self.output {
            Output::Windows(_) => self.held,
            _ => self.out.accesses.len(),
        }
    }

    /// Forgets the held accesses.
    fn clear_accesses(&mut self) {
        self.out.accesses.clear();
        self.held = 0;
    }

    fn pos(&mut self, n: usize) -> u32 {
        u32::try_from(n).unwrap_or_else(|_| {
            self.overflow = true;
            u32::MAX
        })
    }

    fn close_window(&mut self) {
        let end = self.pos(self.held_accesses());
        if let Some(w) = self.out.windows.last_mut() {
            w.end = end;
        }
    }

    fn open_window(&mut self, bb: u32, placement: Placement, continuation: bool) {
        self.open_window_at(bb, placement, continuation, None);
    }

    /// Opens a window; `unit`: where it lies in the open worksharing construct's unit loops.
    fn open_window_at(
        &mut self,
        bb: u32,
        placement: Placement,
        continuation: bool,
        unit: Option<Unit>,
    ) {
        self.close_window();
        if !matches!(self.output, Output::Whole) {
            let serial = self.depth == 0 && self.ws.is_none() && !self.section_parallel;
            if serial && self.spill.is_none() && self.held_accesses() >= self.limits.flush {
                // A long serial section: hand over its closed windows (core 0 runs them in
                // order whichever section they are counted in).
                self.flush(true);
            } else if !serial
                && self.spill.is_none()
                && self.error.is_none()
                && self.held_accesses().max(self.out.windows.len()) >= self.limits.spill
            {
                // (After a failed temporary file the stream ends in that error; no retry.)
                self.start_spill();
            }
            if self.spill.is_some() {
                self.drain();
            }
        }
        self.last_bb = Some(bb);
        let start = self.pos(self.held_accesses());
        let section = self.out.sections.len() as u32;
        let index = self.out.windows.len() as u32;
        self.out.windows.push(Window {
            bb,
            start,
            end: start,
            section,
            placement,
            continuation,
        });
        let spilling = self.spill.is_some();
        let tag = match self.ws.as_mut() {
            Some(ws) => {
                if !continuation {
                    *ws.block_windows.entry(bb).or_insert(0) += 1;
                }
                if let Some(u) = unit {
                    ws.any_unit = true;
                    if !ws.outer_loops.contains(&u.outer.0) {
                        ws.outer_loops.push(u.outer.0);
                    }
                    if !spilling {
                        ws.pending.push((index, u));
                    }
                }
                Tag::Run { run: ws.run, unit }
            }
            None => Tag::Final(placement),
        };
        if spilling {
            self.tags.push(tag);
        }
    }

    /// Streaming: the fragment outgrew memory; writes what is held to a temporary file, which
    /// takes every window from now until the fragment ends (counting: hands the held windows
    /// over, and every window from now on as it closes).
    fn start_spill(&mut self) {
        let mut spill = match self.output {
            Output::Windows(_) => Spill::Counted,
            _ => match SpillWriter::new(self.out.mi_class.len()) {
                Ok(w) => Spill::File(w),
                Err(e) => {
                    self.error.get_or_insert(e);
                    return;
                }
            },
        };
        // The held windows' tags: resolved placements, or their run and unit while their
        // construct is still open.
        let (first, run) = self
            .ws
            .as_ref()
            .map_or((usize::MAX, 0), |ws| (ws.first_window as usize, ws.run));
        let mut pending = self
            .ws
            .as_mut()
            .map(|ws| std::mem::take(&mut ws.pending))
            .unwrap_or_default()
            .into_iter()
            .peekable();
        self.tags.clear();
        for (i, w) in self.out.windows.iter().enumerate() {
            self.tags.push(if i >= first {
                let unit = pending.next_if(|&(p, _)| p as usize == i).map(|(_, u)| u);
                Tag::Run { run, unit }
            } else {
                Tag::Final(w.placement)
            });
        }
        // Sections closed so far, then the open one's windows.
        for sec in std::mem::take(&mut self.out.sections) {
            for i in sec.windows.clone() {
                let tag = self.tags[i as usize];
                spill_window(
                    &mut spill,
                    &mut self.output,
                    &self.out,
                    i as usize,
                    tag,
                    sec.parallel,
                );
            }
            if let Spill::File(w) = &mut spill {
                w.close_section(sec.parallel);
            }
        }
        for i in self.section_start as usize..self.out.windows.len() {
            let tag = self.tags[i];
            spill_window(
                &mut spill,
                &mut self.output,
                &self.out,
                i,
                tag,
                self.section_parallel,
            );
        }
        self.out.windows.clear();
        self.clear_accesses();
        self.tags.clear();
        self.section_start = 0;
        self.spill = Some(spill);
    }

    /// While spilling: writes the held windows (all closed) to the temporary file (counting:
    /// hands them over).
    fn drain(&mut self) {
        let Some(spill) = self.spill.as_mut() else {
            return;
        };
        for (i, &tag) in self.tags.iter().enumerate() {
            spill_window(
                spill,
                &mut self.output,
                &self.out,
                i,
                tag,
                self.section_parallel,
            );
        }
        self.out.windows.clear();
        self.clear_accesses();
        self.tags.clear();
    }

    fn current_bb(&self) -> Option<u32> {
        self.last_bb
    }

    /// Ends the current section; the next windows go to a new one.
    fn close_section(&mut self) {
        self.close_window();
        if self.spill.is_some() {
            self.drain();
            if let Some(Spill::File(w)) = self.spill.as_mut() {
                w.close_section(self.section_parallel);
            }
            if self.ws.is_none() {
                self.finish_spill();
            }
            return;
        }
        let end = self.out.windows.len() as u32;
        if end > self.section_start {
            self.out.sections.push(Section {
                parallel: self.section_parallel,
                windows: self.section_start..end,
            });
        }
        self.section_start = end;
        if !matches!(self.output, Output::Whole) && self.ws.is_none() {
            self.flush(false);
        }
    }

    /// Streaming: finalises what is buffered as a fragment, hands it to the sink and forgets
    /// it. `open_section`: the current section goes on after the fragment (its windows so far
    /// are handed over as a section of their own).
    fn flush(&mut self, open_section: bool) {
        if open_section {
            let end = self.out.windows.len() as u32;
            if end > self.section_start {
                self.out.sections.push(Section {
                    parallel: self.section_parallel,
                    windows: self.section_start..end,
                });
            }
        }
        finalize(&mut self.out);
        if !self.out.windows.is_empty() && self.error.is_none() {
            match &mut self.output {
                Output::Whole => {}
                Output::Fragments(sink) => {
                    if let Err(e) = sink(Fragment::Memory(&self.out)) {
                        self.error = Some(e);
                    }
                }
                Output::Windows(sink) => {
                    for w in &self.out.windows {
                        sink(w.bb, w.continuation, w.placement != Placement::Serial);
                    }
                }
            }
        }
        self.clear_accesses();
        self.out.windows.clear();
        self.out.sections.clear();
        self.out.workshares.clear();
        self.section_start = 0;
    }

    /// Hands the spilled fragment over and goes back to holding windows in memory.
    fn finish_spill(&mut self) {
        let Some(spill) = self.spill.take() else {
            return;
        };
        let spill = match spill {
            Spill::File(w) => w,
            Spill::Counted => {
                // Its windows were handed over as they left memory.
                self.out.workshares.clear();
                self.section_start = 0;
                return;
            }
        };
        let header = SequentialTrace {
            workshares: std::mem::take(&mut self.out.workshares),
            mi_class: self.out.mi_class.clone(),
            mi_shared_variable: self.out.mi_shared_variable.clone(),
            block_names: self.out.block_names.clone(),
            ..SequentialTrace::default()
        };
        match spill.finish(header) {
            Ok(fragment) => {
                if fragment.windows() > 0 && self.error.is_none() {
                    if let Output::Fragments(sink) = &mut self.output {
                        if let Err(e) = sink(Fragment::Spilled(&fragment)) {
                            self.error = Some(e);
                        }
                    }
                }
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self.section_start = 0;
    }

    /// Starts a new section, continuing the current block instance in it.
    fn cut(&mut self, parallel: bool, continue_bb: Option<u32>) {
        self.close_section();
        self.section_parallel = parallel;
        if let Some(bb) = continue_bb {
            let placement = self.base_placement();
            self.open_window(bb, placement, true);
        }
    }

    fn base_placement(&self) -> Placement {
        if self.depth == 0 {
            Placement::Serial
        } else {
            Placement::Replicated
        }
    }

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

    fn block(&mut self, bb: u32) {
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
    fn finish_workshare(&mut self) {
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
        let mut seen = HashMap::new();
        let mut pending = ws.pending.into_iter().peekable();
        let first = ws.first_window as usize;
        for (i, w) in self.out.windows.iter_mut().enumerate().skip(first) {
            let unit = pending.next_if(|&(p, _)| p as usize == i).map(|(_, u)| u);
            w.placement = table.resolve(unit, w.bb, w.continuation, &mut seen);
        }
    }

    fn other(&mut self, e: Event) {
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
                    units: HashMap::new(),
                    current: None,
                    pending: Vec::new(),
                    any_unit: false,
                    outer_loops: Vec::new(),
                    block_windows: HashMap::new(),
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

    /// The whole sequential trace (not streaming).
    pub(super) fn finish(mut self) -> Result<SequentialTrace> {
        self.finish_workshare();
        self.close_section();
        if self.overflow {
            return Err(SasmmError::Config(
                "trace has more than 2^32 accesses; SASMM keeps the sequential trace in memory"
                    .into(),
            ));
        }
        finalize(&mut self.out);
        Ok(self.out)
    }

    /// Streaming: hands over the rest; returns the number of accesses seen.
    pub(super) fn finish_stream(mut self) -> Result<u64> {
        self.finish_workshare();
        self.close_section();
        // Sections closed while a worksharing construct was open.
        if self.spill.is_some() {
            self.finish_spill();
        } else {
            self.flush(false);
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.overflow {
            return Err(SasmmError::Config(
                "a parallel fragment held in memory has more than 2^32 accesses; lower RDTOOLS_SPILL_ACCESSES"
                    .into(),
            ));
        }
        Ok(self.accesses)
    }
}

/// While spilling: window `i` of `out` (closed, of a section with parallel flag `parallel`)
/// leaves memory: into the temporary file, or, counting, to the window sink (empty
/// continuations are dropped, as the file and [`finalize`] drop them).
fn spill_window(
    spill: &mut Spill,
    output: &mut Output<'_>,
    out: &SequentialTrace,
    i: usize,
    tag: Tag,
    parallel: bool,
) {
    match spill {
        Spill::File(w) => w.window(out, i, tag),
        Spill::Counted => {
            let w = &out.windows[i];
            if let Output::Windows(sink) = output {
                if !w.is_empty_continuation() {
                    sink(w.bb, w.continuation, parallel);
                }
            }
        }
    }
}

/// Drops empty continuation windows (they carry nothing and are not block instances) and the
/// sections left without windows, and renumbers the windows' sections.
fn finalize(out: &mut SequentialTrace) {
    let mut remap = Vec::with_capacity(out.windows.len());
    let mut kept = Vec::with_capacity(out.windows.len());
    for w in &out.windows {
        remap.push(kept.len() as u32);
        if !w.is_empty_continuation() {
            kept.push(*w);
        }
    }
    remap.push(kept.len() as u32);
    for s in &mut out.sections {
        s.windows = remap[s.windows.start as usize]..remap[s.windows.end as usize];
    }
    out.sections.retain(|s| !s.windows.is_empty());
    for (i, s) in out.sections.iter().enumerate() {
        for w in &mut kept[s.windows.start as usize..s.windows.end as usize] {
            w.section = i as u32;
        }
    }
    out.windows = kept;
}

impl EventVisitor for Builder<'_, '_> {
    fn block(&mut self, bb: u32) {
        Builder::block(self, bb);
    }

    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        if self.out.windows.is_empty() {
            let p = self.base_placement();
            match self.last_bb {
                None => {
                    let bb = self.out.block_names.len() as u32 - 1;
                    self.open_window(bb, p, false);
                }
                // Streaming, after a fragment was handed over with no window open since (an
                // access between a region's entry and its first block): the last block goes on.
                Some(bb) => self.open_window(bb, p, true),
            }
        }
        self.accesses += 1;
        if let Output::Windows(_) = self.output {
            self.held += 1;
            return;
        }
        self.out.accesses.push(Access {
            addr,
            len: len.min(u32::MAX as u64) as u32,
            mi,
        });
    }

    fn other(&mut self, event: Event) {
        Builder::other(self, event);
    }
}
