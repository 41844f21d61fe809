//! One instruction's records keyed by path for every history length at once.
//!
//! The analysis groups an instruction's records by n-bit path and by exact n-entry window for
//! each history length. Each record's window (up to 56 entries of the profile's window array)
//! is read once here, not once per length and kind of key: on a profile of hundreds of
//! thousands of records those reads miss the cache, and they were most of the analysis.

use crate::history::{window_bits, window_exact_keys};
use crate::profile::PathProfile;
use serde::{Deserialize, Serialize};

/// An n-bit branch history: `bits` holds the outcome bits (bit 0 the most recent) and `depth`
/// how many of them exist (`depth < n` when the stack was shallower than `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PathKey {
    /// Outcome bits, most recent in bit 0.
    pub bits: u64,
    /// Number of valid bits.
    pub depth: u32,
}

/// The records of one instruction with their window bits and, optionally, their exact window
/// keys for a list of history lengths.
pub(crate) struct InstructionKeys<'a> {
    profile: &'a PathProfile,
    records: &'a [u32],
    /// Per record: the outcome bits of its whole kept window, most recent in bit 0.
    bits: Vec<u64>,
    /// The lengths with exact keys.
    lengths: Vec<u32>,
    /// Per record, `lengths.len()` exact window keys (record `i`'s start at `i * lengths.len()`).
    exact: Vec<u64>,
}

impl<'a> InstructionKeys<'a> {
    /// The records' window bits only (for [`InstructionKeys::by_path`]).
    pub(crate) fn bits(profile: &'a PathProfile, records: &'a [u32]) -> Self {
        Self::with_exact(profile, records, &[])
    }

    /// The records' window bits and their exact window keys for each of `lengths`.
    pub(crate) fn with_exact(
        profile: &'a PathProfile,
        records: &'a [u32],
        lengths: &[u32],
    ) -> Self {
        let mut bits = Vec::with_capacity(records.len());
        let mut exact = Vec::with_capacity(records.len() * lengths.len());
        for &r in records {
            let window = profile.window(r as usize);
            bits.push(window_bits(window, profile.max_bits));
            let depth = profile.records[r as usize].depth as usize;
            window_exact_keys(window, depth, lengths, |k| exact.push(k));
        }
        InstructionKeys {
            profile,
            records,
            bits,
            lengths: lengths.to_vec(),
            exact,
        }
    }

    /// The records that lie on a known n-bit path, each with its path, sorted by path (then
    /// record). Records shortened past the path limit that hold fewer than `n` entries are left
    /// out ([`crate::profile::PathRecord::projects_to`]).
    pub(crate) fn by_path(&self, n: u32) -> Vec<(PathKey, u32)> {
        let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut keyed: Vec<(PathKey, u32)> = self
            .records
            .iter()
            .zip(&self.bits)
            .filter_map(|(&r, &bits)| {
                let rec = &self.profile.records[r as usize];
                rec.projects_to(n).then_some((
                    PathKey {
                        bits: bits & mask,
                        depth: rec.depth.min(n),
                    },
                    r,
                ))
            })
            .collect();
        keyed.sort_unstable();
        keyed
    }

    /// The records that lie on a known path of `lengths[k]` entries, each with the key of its
    /// exact window of that many entries, sorted by key (then record).
    pub(crate) fn by_exact_window(&self, k: usize) -> Vec<(u64, u32)> {
        let (n, stride) = (self.lengths[k], self.lengths.len());
        let mut keyed: Vec<(u64, u32)> = self
            .records
            .iter()
            .enumerate()
            .filter(|&(_, &r)| self.profile.records[r as usize].projects_to(n))
            .map(|(i, &r)| (self.exact[i * stride + k], r))
            .collect();
        keyed.sort_unstable();
        keyed
    }
}
