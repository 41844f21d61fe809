//! Reading a spilled fragment back: a [`Cursor`] over one section (or one per-core part),
//! resolving each window's placement as it goes, and what the rounds take from it.

use super::{
    spill_error, unzigzag, SpilledFragment, SpilledSection, CONTINUATION, HAS_INNER, HAS_UNIT,
    ITERATION, KIND, MARKED, READ_BUFFER, REPLICATED, SERIAL,
};
use crate::error::Result;
use crate::mimic::{MimicConfig, Owners};
use crate::sample::{Mark, WindowSampler, NOT_RECORDED};
use crate::window::{Access, Placement, SequentialTrace, Window};
use crate::workshare::{Seen, Unit};
use std::os::unix::fs::FileExt;

/// A window's header as read back.
pub(super) struct WindowHeader {
    pub(super) bb: u32,
    pub(super) continuation: bool,
    pub(super) placement: Placement,
    /// The sampler's mark (only in a per-core part; else [`NOT_RECORDED`]).
    pub(super) mark: Mark,
}

/// A sequential reader of one section of the file, resolving placements as it goes.
pub(super) struct Cursor<'f> {
    pub(super) fragment: &'f SpilledFragment,
    pos: u64,
    buf: Vec<u8>,
    at: usize,
    left: u64,
    /// Whether the section is a parallel one (the block counts' parallel flag).
    parallel: bool,
    last: Vec<u64>,
    /// Per-block rule counters (a run may go on in the next section).
    pub(super) seen: Seen,
    /// The pass's Alg. 3 sampler, stepped over every window the cursor reads.
    pub(super) sample: Option<WindowSampler>,
    /// Which core runs each window.
    owners: Owners,
}

/// Bytes of the longest varint (a `u64`).
const MAX_VARINT: usize = 10;

/// The varint at the start of `bytes` (at least [`MAX_VARINT`] of them) and its length;
/// `None` when it runs past [`MAX_VARINT`] bytes.
#[inline(always)]
fn varint_in(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for (i, &b) in bytes.iter().take(MAX_VARINT).enumerate() {
        v |= ((b & 0x7f) as u64) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// The three varints of an access at the start of `bytes` (at least three [`MAX_VARINT`]s)
/// and the bytes they take.
#[inline(always)]
fn three_varints(bytes: &[u8]) -> Option<(u64, u64, u64, usize)> {
    let (a, i) = varint_in(bytes)?;
    let (b, j) = varint_in(&bytes[i..])?;
    let (c, k) = varint_in(&bytes[i + j..])?;
    Some((a, b, c, i + j + k))
}

/// The error of a varint longer than a `u64`'s.
fn long_varint() -> crate::error::SasmmError {
    spill_error(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "a varint of the temporary file runs past 10 bytes",
    ))
}

impl<'f> Cursor<'f> {
    pub(super) fn new(
        fragment: &'f SpilledFragment,
        section: &SpilledSection,
        seen: Seen,
        sample: Option<WindowSampler>,
    ) -> Self {
        Cursor {
            fragment,
            pos: section.offset,
            buf: Vec::new(),
            at: 0,
            left: section.windows,
            parallel: section.parallel,
            last: vec![0; fragment.mem_instrs + 1],
            seen,
            sample,
            owners: Owners::default(),
        }
    }

    #[inline(always)]
    fn byte(&mut self) -> Result<u8> {
        if self.at == self.buf.len() {
            self.buf.resize(READ_BUFFER, 0);
            let n = self
                .fragment
                .file
                .read_at(&mut self.buf, self.pos)
                .map_err(spill_error)?;
            if n == 0 {
                return Err(spill_error(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the temporary file ended inside a window",
                )));
            }
            self.buf.truncate(n);
            self.pos += n as u64;
            self.at = 0;
        }
        let b = self.buf[self.at];
        self.at += 1;
        Ok(b)
    }

    #[inline(always)]
    fn varint(&mut self) -> Result<u64> {
        // Fast path: a whole varint (at most 10 bytes) is in the buffer.
        if let Some(bytes) = self.buf.get(self.at..self.at + MAX_VARINT) {
            let (v, used) = varint_in(bytes).ok_or_else(long_varint)?;
            self.at += used;
            return Ok(v);
        }
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift < 64 {
                v |= ((b & 0x7f) as u64) << shift;
            }
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }

    /// Reads the next window of the section, appending its accesses to `accesses`; `None` at
    /// the section's end.
    pub(super) fn read(&mut self, accesses: &mut Vec<Access>) -> Result<Option<WindowHeader>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let bb = self.varint()? as u32;
        let flags = self.byte()?;
        let continuation = flags & CONTINUATION != 0;
        let mark = if flags & MARKED != 0 {
            self.byte()?
        } else {
            NOT_RECORDED
        };
        let placement = match flags & KIND {
            SERIAL => Placement::Serial,
            REPLICATED => Placement::Replicated,
            ITERATION => Placement::Iteration {
                workshare: self.varint()? as u32,
                iteration: self.varint()?,
            },
            _ => {
                let run = self.varint()? as u32;
                let unit = if flags & HAS_UNIT != 0 {
                    let outer = (self.varint()? as u32, self.varint()?);
                    let inner = if flags & HAS_INNER != 0 {
                        Some((self.varint()? as u32, self.varint()?))
                    } else {
                        None
                    };
                    Some(Unit { outer, inner })
                } else {
                    None
                };
                match self
                    .fragment
                    .runs
                    .get(run as usize)
                    .and_then(Option::as_ref)
                {
                    Some(table) => table.resolve(unit, bb, continuation, &mut self.seen),
                    None => Placement::Replicated,
                }
            }
        };
        let n = self.varint()?;
        let slots = self.last.len() - 1;
        accesses.reserve(n.min(1 << 16) as usize);
        for _ in 0..n {
            // Most accesses lie whole in the buffer: their three varints decoded there, with
            // one bounds check for all three.
            let (mi, delta, len) = match self.buf.get(self.at..self.at + 3 * MAX_VARINT) {
                Some(bytes) => match three_varints(bytes) {
                    Some((mi, delta, len, used)) => {
                        self.at += used;
                        (mi, delta, len)
                    }
                    None => return Err(long_varint()),
                },
                None => (self.varint()?, self.varint()?, self.varint()?),
            };
            let mi = mi as u32;
            let slot = (mi as usize).min(slots);
            let addr = self.last[slot].wrapping_add(unzigzag(delta) as u64);
            self.last[slot] = addr;
            accesses.push(Access {
                addr,
                len: len as u32,
                mi,
            });
        }
        Ok(Some(WindowHeader {
            bb,
            continuation,
            placement,
            mark,
        }))
    }

    /// Reads windows until one that core `core` runs and appends it to `batch` (with its
    /// sampler's mark to `marks`); returns its index there, or `None` at the section's end.
    pub(super) fn next_for(
        &mut self,
        core: usize,
        config: &MimicConfig,
        batch: &mut SequentialTrace,
        marks: &mut Vec<Mark>,
    ) -> Result<Option<u32>> {
        loop {
            let start = batch.accesses.len();
            let Some(w) = self.read(&mut batch.accesses)? else {
                return Ok(None);
            };
            let mark = self.step_sample(&w);
            let runs_here = match self.owners.core_of(config, w.placement, &batch.workshares) {
                None => true,
                Some(c) => c == core,
            };
            if !runs_here {
                batch.accesses.truncate(start);
                continue;
            }
            return Ok(Some(push_window(batch, marks, start, &w, mark)));
        }
    }

    /// Steps the pass's sampler (if any) over a window just read: its mark.
    pub(super) fn step_sample(&mut self, w: &WindowHeader) -> Mark {
        match &mut self.sample {
            Some(s) => s.step(w.bb, w.continuation, self.parallel),
            None => NOT_RECORDED,
        }
    }

    /// Reads the next window of a per-core part ([`split`]) and appends it to `batch` (with
    /// its mark to `marks`); returns its index there, or `None` at the part's end.
    pub(super) fn next_own(
        &mut self,
        batch: &mut SequentialTrace,
        marks: &mut Vec<Mark>,
    ) -> Result<Option<u32>> {
        let start = batch.accesses.len();
        let Some(w) = self.read(&mut batch.accesses)? else {
            return Ok(None);
        };
        Ok(Some(push_window(batch, marks, start, &w, w.mark)))
    }
}

/// Appends the window `w` whose accesses `batch` holds from `start` on, with its mark;
/// returns its index.
fn push_window(
    batch: &mut SequentialTrace,
    marks: &mut Vec<Mark>,
    start: usize,
    w: &WindowHeader,
    mark: Mark,
) -> u32 {
    let index = batch.windows.len() as u32;
    batch.windows.push(Window {
        bb: w.bb,
        start: start as u32,
        end: batch.accesses.len() as u32,
        section: 0,
        placement: w.placement,
        continuation: w.continuation,
    });
    marks.push(mark);
    index
}
