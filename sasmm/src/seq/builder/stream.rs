//! Streaming: the builder's fragments handed to the sink as they are complete, and a parallel
//! fragment that outgrew memory written to a temporary file.

use super::{finalize, Builder, Output};
use crate::seq::FragmentMut;
use crate::spill::SpillWriter;
use crate::window::{Section, SequentialTrace};
use crate::workshare::Tag;

impl Builder<'_, '_> {
    /// Streaming: the fragment outgrew memory; writes what is held to a temporary file, which
    /// takes every window from now until the fragment ends.
    pub(super) fn start_spill(&mut self) {
        let mut spill = match SpillWriter::new(self.out.mi_class.len()) {
            Ok(w) => w,
            Err(e) => {
                self.error.get_or_insert(e);
                return;
            }
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
                spill.window(&self.out, i as usize, self.tags[i as usize]);
            }
            spill.close_section(sec.parallel);
        }
        // The open section's windows go the way every later held window goes.
        self.spill = Some(spill);
        self.spill_held(self.section_start as usize);
        self.section_start = 0;
    }

    /// While spilling: writes the held windows (all closed) to the temporary file.
    pub(super) fn drain(&mut self) {
        self.spill_held(0);
    }

    /// While spilling: writes the held windows from `from` on, in the open section, and forgets
    /// every held window.
    fn spill_held(&mut self, from: usize) {
        let Some(spill) = self.spill.as_mut() else {
            return;
        };
        for (i, &tag) in self.tags.iter().enumerate().skip(from) {
            spill.window(&self.out, i, tag);
        }
        self.out.windows.clear();
        self.out.accesses.clear();
        self.tags.clear();
    }

    /// Streaming: finalises what is buffered as a fragment, hands it to the sink and forgets
    /// it. `open_section`: the current section goes on after the fragment (its windows so far
    /// are handed over as a section of their own).
    pub(super) fn flush(&mut self, open_section: bool) {
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
        if let Output::Fragments(sink) = &mut self.output {
            if !self.out.windows.is_empty() && self.error.is_none() {
                if let Err(e) = sink(FragmentMut::Memory(&mut self.out)) {
                    self.error = Some(e);
                }
            }
        }
        self.out.accesses.clear();
        self.out.windows.clear();
        self.out.sections.clear();
        self.out.workshares.clear();
        self.section_start = 0;
    }

    /// Hands the spilled fragment over and goes back to holding windows in memory.
    pub(super) fn finish_spill(&mut self) {
        let Some(spill) = self.spill.take() else {
            return;
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
                        if let Err(e) = sink(FragmentMut::Spilled(&fragment)) {
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
}
