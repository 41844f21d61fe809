//! A spilled parallel section read for many cores: split into one temporary file per core in
//! one pass, then each core's file read once.
//!
//! [`super::SpilledFragment::for_each_batch`] needs the next window of every core at once,
//! and with a static schedule each core's windows lie in their own stretch of the section, so
//! it reads the section with a cursor per core, each decoding every window to find its own: m
//! reads of the whole section for m cores. From [`FROM_CORES`] to [`UP_TO_CORES`] cores, one
//! cursor reads the section once instead, resolving each window's placement, its core and its
//! Alg. 3 mark as the per-core cursors would (the same stepping over every window, in the same
//! order), and writes it to its core's part (a window every core runs to every part), with its
//! placement final and its mark; the rounds then read each part once. The
//! windows, their order in each core's list and their flags are those the per-core cursors
//! find, so every batch is the same. Disk: the parts together hold the section once more (a
//! window every core runs, once per core), while the section's own file is still open.

use super::cursor::Cursor;
use super::{SpillWriter, SpilledFragment};
use crate::error::Result;
use crate::mimic::{MimicConfig, Owners};
use crate::window::{SequentialTrace, WorkshareRun};
use crate::workshare::Tag;

/// Cores from which a parallel section is split rather than read once per core: the split
/// costs about three reads (one, writing the parts, reading them), so it pays from four cores
/// on (two under test, so that the property tests take both paths).
pub(super) const FROM_CORES: usize = if cfg!(test) { 2 } else { 4 };

/// Cores up to which a section is split: a part is an open file and a write buffer, and
/// beyond this many (up to the 1024 cores `predict` takes) the parts would run into the usual
/// limit of 1024 open files; more cores read the section once per core.
pub(super) const UP_TO_CORES: usize = 256;

/// Write buffer of each part.
const PART_BUFFER: usize = 1 << 16;

/// Reads the rest of the section with `cursor` (which resolves and samples as it goes, and
/// keeps the per-block rule's counters and the sample cursor stepped over the whole section)
/// and writes each window to the part of the core of `cores` that runs it.
pub(super) fn by_core(
    cursor: &mut Cursor<'_>,
    config: &MimicConfig,
    workshares: &[WorkshareRun],
    cores: usize,
) -> Result<Vec<SpilledFragment>> {
    let mem_instrs = cursor.fragment.mem_instrs;
    let mut parts = (0..cores)
        .map(|_| SpillWriter::with_buffer(mem_instrs, PART_BUFFER))
        .collect::<Result<Vec<_>>>()?;
    let mut owners = Owners::default();
    let mut accesses = Vec::new();
    while let Some(w) = cursor.read(&mut accesses)? {
        let mark = cursor.step_sample(&w);
        let tag = Tag::Final(w.placement);
        match owners.core_of(config, w.placement, workshares) {
            Some(c) => parts[c].put_window(w.bb, w.continuation, tag, mark, &accesses),
            None => {
                for part in &mut parts {
                    part.put_window(w.bb, w.continuation, tag, mark, &accesses);
                }
            }
        }
        accesses.clear();
    }
    parts
        .into_iter()
        .map(|mut part| {
            part.close_section(true);
            part.finish(SequentialTrace::default())
        })
        .collect()
}
