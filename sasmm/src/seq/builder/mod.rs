//! The event visitor that cuts one thread's events into windows and sections (see the module
//! documentation of [`crate::seq`]): whole, or streamed in fragments with long parallel ones
//! spilled to a temporary file.
//!
//! This module holds the builder's state, its windows and sections, and the finished trace;
//! `stream` hands fragments over and spills the long parallel ones, `openmp` follows the
//! OpenMP events (regions, barriers, worksharing constructs) that place the windows.

mod openmp;
mod stream;

use super::{FragmentMutSink, StreamLimits};
use crate::error::{Result, SasmmError};
use crate::spill::SpillWriter;
use crate::window::{Access, Placement, Section, SequentialTrace, Window};
use crate::workshare::{Tag, Unit};
use rdtrace::meta::{ProgramMeta, VarClass};
use rdtrace::{Event, EventVisitor};
use rustc_hash::FxHashMap;

/// Per worksharing-loop-instance state while decoding.
struct WsState {
    run: u32,
    function: u32,
    /// Loops containing the init block (they enclose the whole construct).
    enclosing: Vec<u32>,
    /// Unit loops entered so far (their header entries are in [`Builder::unit_counts`]).
    touched: Vec<u32>,
    /// Unit of the most recent block of the construct's own function (for callee blocks).
    current: Option<Unit>,
    /// Windows waiting for their iteration (in memory; a spilled window carries its unit).
    pending: Vec<(u32, Unit)>,
    /// Whether any window was opened inside a unit loop (else the per-block rule applies).
    any_unit: bool,
    /// Outer unit loops of those windows.
    outer_loops: Vec<u32>,
    /// Windows per block that are not continuations (for the per-block rule).
    block_windows: FxHashMap<u32, u64>,
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
    Fragments(&'s mut FragmentMutSink<'s>),
}

/// Cuts one thread's events into windows and sections, whole or streamed (see [`super`]).
pub(super) struct Builder<'m, 's> {
    meta: &'m ProgramMeta,
    /// The whole trace, or (streaming) the part not yet handed over.
    out: SequentialTrace,
    /// Where the windows go.
    output: Output<'s>,
    /// Streaming: when to hand a serial section over and when to spill a parallel fragment.
    limits: StreamLimits,
    /// Streaming: the temporary file the fragment goes to once it outgrew memory.
    spill: Option<SpillWriter>,
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
    /// Header entries so far in the open worksharing construct, by loop id (zero for the loops
    /// it has not entered; reset when it ends): an array, where a map cost a lookup per block.
    unit_counts: Vec<u64>,
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
            unit_counts: vec![0; meta.loops.len()],
            overflow: false,
        }
    }

    fn pos(&mut self, n: usize) -> u32 {
        u32::try_from(n).unwrap_or_else(|_| {
            self.overflow = true;
            u32::MAX
        })
    }

    fn close_window(&mut self) {
        let end = self.pos(self.out.accesses.len());
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
            if serial && self.spill.is_none() && self.out.accesses.len() >= self.limits.flush {
                // A long serial section: hand over its closed windows (core 0 runs them in
                // order whichever section they are counted in).
                self.flush(true);
            } else if !serial
                && self.spill.is_none()
                && self.error.is_none()
                && self.out.accesses.len().max(self.out.windows.len()) >= self.limits.spill
            {
                // (After a failed temporary file the stream ends in that error; no retry.)
                self.start_spill();
            }
            if self.spill.is_some() {
                self.drain();
            }
        }
        self.last_bb = Some(bb);
        let start = self.pos(self.out.accesses.len());
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
                // The per-block rule's counts, needed only while no unit loop was entered.
                if !continuation && !ws.any_unit {
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

    fn current_bb(&self) -> Option<u32> {
        self.last_bb
    }

    /// Ends the current section; the next windows go to a new one.
    fn close_section(&mut self) {
        self.close_window();
        if self.spill.is_some() {
            self.drain();
            if let Some(w) = self.spill.as_mut() {
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

/// Drops empty continuation windows (they carry nothing and are not block instances) and the
/// sections left without windows, and renumbers the windows' sections.
///
/// One pass, in place: a streamed pass finalises every fragment, and `perf` of a serial
/// program's pass (an interpreter's trace) put a tenth of its CPU time here when it renumbered
/// through a table of every window's new index into new buffers. The sections' ranges follow
/// each other in window order, as the builder closes them; a window outside every section keeps
/// its section.
fn finalize(out: &mut SequentialTrace) {
    let SequentialTrace {
        windows, sections, ..
    } = out;
    /// Moves the windows of `range` that carry something down to `kept` onwards, giving them
    /// section `section` (if any).
    fn keep(
        windows: &mut [Window],
        kept: &mut usize,
        range: std::ops::Range<usize>,
        section: Option<u32>,
    ) {
        for i in range {
            let mut w = windows[i];
            if !w.is_empty_continuation() {
                if let Some(s) = section {
                    w.section = s;
                }
                windows[*kept] = w;
                *kept += 1;
            }
        }
    }
    let (mut kept, mut next, mut kept_sections) = (0, 0, 0);
    for i in 0..sections.len() {
        let Section {
            parallel,
            windows: range,
        } = sections[i].clone();
        let range = range.start as usize..range.end as usize;
        debug_assert!(range.start >= next, "sections follow each other");
        keep(windows, &mut kept, next..range.start, None);
        let start = kept;
        keep(
            windows,
            &mut kept,
            range.clone(),
            Some(kept_sections as u32),
        );
        next = range.end;
        if kept > start {
            sections[kept_sections] = Section {
                parallel,
                windows: start as u32..kept as u32,
            };
            kept_sections += 1;
        }
    }
    let len = windows.len();
    keep(windows, &mut kept, next..len, None);
    windows.truncate(kept);
    sections.truncate(kept_sections);
}

// Inlined into the decoder's loop (the builder is visited through `SequentialPass`, from
// another module's codegen unit).
impl EventVisitor for Builder<'_, '_> {
    #[inline]
    fn block(&mut self, bb: u32) {
        Builder::block(self, bb);
    }

    #[inline]
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
