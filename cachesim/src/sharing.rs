//! The data of a false-sharing view: which cores touched which bytes of the cache lines that had
//! coherence misses, from which source ids, and what padding would stop the misses.
//!
//! A [`SharingRecorder`] is fed every L1 line reference of a [`crate::CoherentHierarchy`] run:
//! the core, an opaque source id (a memory instruction for the caller), the bytes, whether the
//! access read and wrote, and the L1 outcome ([`crate::LineOutcome::l1_miss`]). It is separate
//! from the hierarchy, so a simulation without a recorder does no work for it.
//!
//! **Bounded memory.** A line gets an entry at its first coherence miss, at most
//! [`SharingConfig::max_lines`] entries (the coherence misses of lines that find the table full
//! are counted in [`SharingReport::dropped_misses`]); from then on every reference to the line
//! is recorded: per core the bytes read and the bytes written (64-bit masks of `line / 64`-byte
//! granules, as [`crate::coherence`] keeps them), accesses and coherence misses, and per source id
//! (at most [`SharingConfig::max_sources`] per line) the same. Writes made before a line's entry
//! existed are recalled from a small direct-mapped table of recent writes (the last writer of the
//! line, unless another line's write took the slot since), so a writer that wrote only once
//! still shows.
//!
//! **Advice.** [`verdict`] reads an entry. The simulator classed each coherence miss by the
//! bytes it touched; when most of a line's misses are *true* sharing, the data itself is shared
//! (padding cannot help) and the verdict names the bytes one core wrote that another read or
//! wrote. Otherwise the line is *falsely* shared and [`Padding`] separates the writers' bytes:
//! per-thread elements of one array when every writer wrote one range of the same size, evenly
//! spaced, through a common source id; else each writer's bytes on a line of their own. (A line
//! can have both kinds: per-thread counters read by one thread at the end are true sharing for
//! that one read, false sharing for all the updates.)

use crate::coherence::granule_mask;
use crate::fa_shadow::LineMap;
use crate::{MissKind, Sharing};
use serde::Serialize;

/// Bounds of a [`SharingRecorder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SharingConfig {
    /// Lines with an entry at most.
    pub max_lines: usize,
    /// Source ids kept per line at most (references of others are counted only).
    pub max_sources: usize,
}

impl Default for SharingConfig {
    fn default() -> Self {
        SharingConfig {
            max_lines: 4096,
            max_sources: 16,
        }
    }
}

/// What one core did to a recorded line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CoreBytes {
    /// The core.
    pub core: u32,
    /// Granules it read.
    pub read: u64,
    /// Granules it wrote.
    pub written: u64,
    /// Its references to the line (0 for a write recalled from before the entry).
    pub references: u64,
    /// Its coherence misses on the line touching bytes others wrote.
    pub true_sharing: u64,
    /// Its coherence misses on the line touching none of the bytes others wrote.
    pub false_sharing: u64,
}

/// What one source id did to a recorded line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceBytes {
    /// The source id.
    pub source: u32,
    /// Cores that referenced the line through it, ascending.
    pub cores: Vec<u32>,
    /// Cores that wrote the line through it, ascending.
    pub writing_cores: Vec<u32>,
    /// Granules read through it.
    pub read: u64,
    /// Granules written through it.
    pub written: u64,
    /// References through it.
    pub references: u64,
    /// Coherence misses through it, true sharing.
    pub true_sharing: u64,
    /// Coherence misses through it, false sharing.
    pub false_sharing: u64,
}

/// One line with coherence misses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LineRecord {
    /// The line number (address / line size).
    pub line: u64,
    /// Coherence misses on it that touched bytes other cores wrote.
    pub true_sharing: u64,
    /// Coherence misses on it that touched none of the bytes other cores wrote.
    pub false_sharing: u64,
    /// The cores that touched it, ascending.
    pub cores: Vec<CoreBytes>,
    /// The source ids that referenced it, in first-reference order.
    pub sources: Vec<SourceBytes>,
    /// References by source ids beyond [`SharingConfig::max_sources`].
    pub other_source_references: u64,
}

impl LineRecord {
    /// Coherence misses on the line.
    pub fn coherence(&self) -> u64 {
        self.true_sharing + self.false_sharing
    }

    fn core(&mut self, core: u32) -> &mut CoreBytes {
        let i = match self.cores.binary_search_by_key(&core, |c| c.core) {
            Ok(i) => i,
            Err(i) => {
                self.cores.insert(
                    i,
                    CoreBytes {
                        core,
                        ..Default::default()
                    },
                );
                i
            }
        };
        &mut self.cores[i]
    }
}

/// Inserts `x` into the ascending `v` unless present.
fn insert_sorted(v: &mut Vec<u32>, x: u32) {
    if let Err(i) = v.binary_search(&x) {
        v.insert(i, x);
    }
}

/// Slots of the recent-writes table.
const RECENT_WRITES: usize = 1024;

/// Records who touched which bytes of the lines with coherence misses (see the module docs).
#[derive(Clone, Debug)]
pub struct SharingRecorder {
    config: SharingConfig,
    line_shift: u32,
    granule_shift: u32,
    index: LineMap<u32>,
    lines: Vec<LineRecord>,
    dropped_misses: u64,
    /// Per slot: (line, core, granules) of the last write that hashed there; line `u64::MAX`:
    /// empty.
    recent_writes: Vec<(u64, u32, u64)>,
}

impl SharingRecorder {
    /// A recorder for lines of `line_bytes` bytes (a power of two).
    pub fn new(line_bytes: u32, config: SharingConfig) -> Self {
        let line_shift = line_bytes.max(1).trailing_zeros();
        SharingRecorder {
            config,
            line_shift,
            granule_shift: line_shift.saturating_sub(6),
            index: LineMap::default(),
            lines: Vec::new(),
            dropped_misses: 0,
            recent_writes: vec![(u64::MAX, 0, 0); RECENT_WRITES],
        }
    }

    /// One reference of `core` through `source` to line `line`, of the access to bytes
    /// `lo..hi` (which may extend beyond the line); `miss` is its L1 outcome.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        core: usize,
        source: u32,
        line: u64,
        lo: u64,
        hi: u64,
        read: bool,
        write: bool,
        miss: Option<MissKind>,
    ) {
        let sharing = match miss {
            Some(MissKind::Coherence(s)) => Some(s),
            _ => None,
        };
        if sharing.is_none() && !write && self.index.is_empty() {
            return;
        }
        let core = core as u32;
        let hi = hi.max(lo + 1);
        let mask = granule_mask(self.line_shift, line, lo, hi);
        let slot = (line.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize % RECENT_WRITES;
        let i = match self.index.get(&line) {
            Some(&i) => i as usize,
            None => {
                let Some(_) = sharing else {
                    if write {
                        self.recent_writes[slot] = (line, core, mask);
                    }
                    return;
                };
                if self.lines.len() >= self.config.max_lines {
                    self.dropped_misses += 1;
                    return;
                }
                let mut rec = LineRecord {
                    line,
                    ..Default::default()
                };
                let (l, c, m) = self.recent_writes[slot];
                if l == line && c != core {
                    rec.core(c).written |= m;
                }
                self.index.insert(line, self.lines.len() as u32);
                self.lines.push(rec);
                self.lines.len() - 1
            }
        };
        if write {
            self.recent_writes[slot] = (line, core, mask);
        }
        let max_sources = self.config.max_sources;
        let rec = &mut self.lines[i];
        match sharing {
            Some(Sharing::True) => rec.true_sharing += 1,
            Some(Sharing::False) => rec.false_sharing += 1,
            None => {}
        }
        let count = |t: &mut u64, f: &mut u64| match sharing {
            Some(Sharing::True) => *t += 1,
            Some(Sharing::False) => *f += 1,
            None => {}
        };
        let c = rec.core(core);
        c.references += 1;
        if read {
            c.read |= mask;
        }
        if write {
            c.written |= mask;
        }
        count(&mut c.true_sharing, &mut c.false_sharing);
        let s = match rec.sources.iter().position(|s| s.source == source) {
            Some(k) => &mut rec.sources[k],
            None if rec.sources.len() < max_sources => {
                rec.sources.push(SourceBytes {
                    source,
                    ..Default::default()
                });
                rec.sources.last_mut().expect("just pushed")
            }
            None => {
                rec.other_source_references += 1;
                return;
            }
        };
        insert_sorted(&mut s.cores, core);
        if write {
            insert_sorted(&mut s.writing_cores, core);
            s.written |= mask;
        }
        if read {
            s.read |= mask;
        }
        s.references += 1;
        count(&mut s.true_sharing, &mut s.false_sharing);
    }

    /// The recorded lines, most coherence misses first (then by line).
    pub fn finish(self) -> SharingReport {
        let mut lines = self.lines;
        lines.sort_by(|a, b| {
            b.coherence()
                .cmp(&a.coherence())
                .then_with(|| a.line.cmp(&b.line))
        });
        SharingReport {
            line_bytes: 1 << self.line_shift,
            granule_bytes: 1 << self.granule_shift,
            max_lines: self.config.max_lines,
            lines,
            dropped_misses: self.dropped_misses,
        }
    }
}

/// What a [`SharingRecorder`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SharingReport {
    /// Bytes per line.
    pub line_bytes: u32,
    /// Bytes per mask bit (1 for lines of up to 64 bytes).
    pub granule_bytes: u32,
    /// The bound on `lines`.
    pub max_lines: usize,
    /// Lines with coherence misses, most first.
    pub lines: Vec<LineRecord>,
    /// Coherence misses on lines that found the table full.
    pub dropped_misses: u64,
}

impl SharingReport {
    /// The byte ranges of a granule mask.
    pub fn ranges(&self, mask: u64) -> Vec<(u32, u32)> {
        byte_ranges(mask, self.granule_bytes)
    }
}

/// The byte ranges (first, last; inclusive) that the set bits of `mask` cover, each bit standing
/// for `granule` bytes: bits 0-7 of 1-byte granules are `[(0, 7)]`.
pub fn byte_ranges(mask: u64, granule: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut m = mask;
    while m != 0 {
        let first = m.trailing_zeros();
        let run = (m >> first).trailing_ones();
        out.push((first * granule, (first + run) * granule - 1));
        m = if first + run >= 64 {
            0
        } else {
            m & (u64::MAX << (first + run))
        };
    }
    out
}

/// Ranges as text: `0-7,16-23` (a one-byte range as `5`; `-` for none).
pub fn ranges_text(ranges: &[(u32, u32)]) -> String {
    if ranges.is_empty() {
        return "-".into();
    }
    ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Per-thread elements of `stride` bytes in one array, each thread writing `slot` bytes of its
/// own: padding each element to `line` bytes (`pad` bytes more) gives each thread a line of its
/// own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PadElements {
    /// Bytes each thread wrote.
    pub slot: u32,
    /// Bytes from one thread's range to the next's (the element size).
    pub stride: u32,
    /// The line size.
    pub line: u32,
    /// Bytes of padding per element: `line - stride`.
    pub pad: u32,
}

/// How to separate the bytes of a falsely shared line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Padding {
    /// Every writer wrote one `slot`-byte range through a common source id, the ranges `stride`
    /// bytes apart: per-thread elements of one array.
    PadElements(PadElements),
    /// Anything else: each writer's bytes (`(core, granules)`) need a line of their own, apart
    /// from the bytes other cores read (`readers`).
    Separate {
        /// Each writing core and the granules it wrote.
        writers: Vec<(u32, u64)>,
        /// Each core that only read, and the granules it read.
        readers: Vec<(u32, u64)>,
    },
}

/// What a line's recorded bytes say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Most coherence misses touched bytes another core wrote: the data itself is shared, and
    /// padding cannot remove these misses.
    TrueSharing {
        /// Granules written by one core and read or written by another.
        shared: u64,
    },
    /// Most coherence misses touched only bytes no other core wrote: padding fixes them.
    FalseSharing {
        /// The fix.
        padding: Padding,
        /// Granules written by one core and read or written by another (the line's true
        /// sharing, if any, which padding leaves).
        shared: u64,
    },
    /// Fewer than two cores were recorded on the line (another core's accesses predate the
    /// entry and its recent write was not kept): nothing to compare.
    Undetermined,
}

/// Classifies a recorded line (see the module docs).
pub fn verdict(rec: &LineRecord, line_bytes: u32, granule_bytes: u32) -> Verdict {
    if rec.cores.len() < 2 {
        return Verdict::Undetermined;
    }
    let mut shared = 0u64;
    for a in &rec.cores {
        for b in rec.cores.iter().filter(|b| b.core != a.core) {
            shared |= a.written & (b.read | b.written);
        }
    }
    if rec.true_sharing > rec.false_sharing {
        return Verdict::TrueSharing { shared };
    }
    // Writers whose bytes overlap (true sharing beside the false) are still separated by what
    // they wrote.
    let writers: Vec<&CoreBytes> = rec.cores.iter().filter(|c| c.written != 0).collect();
    let readers: Vec<(u32, u64)> = rec
        .cores
        .iter()
        .filter(|c| c.written == 0)
        .map(|c| (c.core, c.read))
        .collect();
    if writers.is_empty() {
        return Verdict::Undetermined;
    }
    let padding = pad_elements(rec, &writers, line_bytes, granule_bytes).unwrap_or_else(|| {
        Padding::Separate {
            writers: writers.iter().map(|c| (c.core, c.written)).collect(),
            readers,
        }
    });
    Verdict::FalseSharing { padding, shared }
}

/// [`Padding::PadElements`] when the writers' bytes look like per-thread elements of one array:
/// one source id wrote for every writer (the same code indexes by thread), and either each
/// writer's bytes are one range, or that source's own writes are one range per writing core
/// (other fields of the elements may be written elsewhere, less often), the ranges of one size
/// and evenly spaced.
fn pad_elements(
    rec: &LineRecord,
    writers: &[&CoreBytes],
    line_bytes: u32,
    granule_bytes: u32,
) -> Option<Padding> {
    if writers.len() < 2 {
        return None;
    }
    let common: Vec<&SourceBytes> = rec
        .sources
        .iter()
        .filter(|s| {
            writers
                .iter()
                .all(|w| s.writing_cores.binary_search(&w.core).is_ok())
        })
        .collect();
    if common.is_empty() {
        return None;
    }
    let per_core: Option<Vec<(u32, u32)>> = writers
        .iter()
        .map(|w| match byte_ranges(w.written, granule_bytes)[..] {
            [r] => Some(r),
            _ => None,
        })
        .collect();
    per_core
        .into_iter()
        .chain(common.iter().map(|s| byte_ranges(s.written, granule_bytes)))
        .filter(|r| r.len() == writers.len())
        .find_map(|r| evenly_spaced(r, line_bytes))
}

/// The padding for ranges of one size at one stride (shorter than the line).
fn evenly_spaced(mut ranges: Vec<(u32, u32)>, line_bytes: u32) -> Option<Padding> {
    ranges.sort();
    let slot = ranges[0].1 - ranges[0].0 + 1;
    let stride = ranges[1].0 - ranges[0].0;
    let even = ranges
        .windows(2)
        .all(|w| w[1].0 - w[0].0 == stride && w[1].1 - w[1].0 + 1 == slot);
    (even && stride >= slot && stride < line_bytes).then_some(Padding::PadElements(PadElements {
        slot,
        stride,
        line: line_bytes,
        pad: line_bytes - stride,
    }))
}

#[cfg(test)]
#[path = "sharing_tests.rs"]
mod tests;
