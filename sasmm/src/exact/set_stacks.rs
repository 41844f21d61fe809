//! Per-set LRU stacks ([`SetStacks`]): every reference's per-set stack distance, which decides
//! its hit in an LRU cache of every associativity up to the stacks' depth at once.

use crate::error::{Result, SasmmError};
use rdcachesim::CacheConfig;
use rdengines::FastCore;

/// Stack depth above which a single-set (fully associative) stack uses the engines' exact LRU
/// structure instead of a linear scan.
const SCAN_DEPTH: usize = 64;

/// Per-set LRU stacks for one set count, each kept `depth` lines deep: gives every reference
/// its per-set stack distance when that is below `depth` (enough to decide hits in every cache
/// of this set count with at most `depth` ways).
pub struct SetStacks {
    sets: u64,
    /// `sets − 1` when `sets` is a power of two (the set is then `line & mask`, no division).
    mask: Option<u64>,
    depth: usize,
    kind: StackKind,
    /// `counts[d]`: references with per-set distance `d` (< depth).
    counts: Vec<u64>,
    /// References with a distance of at least `depth`, or first touches.
    beyond: u64,
}

enum StackKind {
    /// `sets × depth` lines, MRU first within each set, `fill` valid per set.
    Scan { tags: Vec<u64>, fill: Vec<u32> },
    /// One set, deep: exact distances from an order-statistics LRU stack.
    Full(Box<FastCore>),
}

impl std::fmt::Debug for SetStacks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetStacks")
            .field("sets", &self.sets)
            .field("depth", &self.depth)
            .field("references", &self.references())
            .finish()
    }
}

impl SetStacks {
    /// Stacks for `sets` sets (lines map to set `line % sets`, as in [`rdcachesim::Cache`]),
    /// `depth` lines deep.
    pub fn new(sets: u64, depth: u32) -> Result<Self> {
        if sets == 0 || depth == 0 {
            return Err(SasmmError::Config(
                "set stacks need at least one set and one way".into(),
            ));
        }
        let depth = depth as usize;
        let kind = if sets == 1 && depth > SCAN_DEPTH {
            StackKind::Full(Box::new(FastCore::untracked(depth)))
        } else {
            let n = usize::try_from(sets)
                .ok()
                .and_then(|s| s.checked_mul(depth))
                .ok_or_else(|| SasmmError::Config(format!("{sets} sets x {depth} ways")))?;
            StackKind::Scan {
                tags: vec![0; n],
                fill: vec![0; sets as usize],
            }
        };
        Ok(SetStacks {
            sets,
            mask: sets.is_power_of_two().then(|| sets - 1),
            depth,
            kind,
            counts: vec![0; depth],
            beyond: 0,
        })
    }

    /// Stacks deciding hits for every cache in `caches` (all must have the same set count).
    pub fn for_caches(caches: &[CacheConfig]) -> Result<Self> {
        let sets = caches.first().map_or(1, CacheConfig::sets);
        if caches.iter().any(|c| c.sets() != sets) {
            return Err(SasmmError::Config(
                "set stacks serve caches of one set count".into(),
            ));
        }
        SetStacks::new(sets, caches.iter().map(|c| c.ways).max().unwrap_or(1))
    }

    /// Number of sets.
    pub fn sets(&self) -> u64 {
        self.sets
    }

    /// Depth of each set's stack.
    pub fn depth(&self) -> u32 {
        self.depth as u32
    }

    /// Accesses line address `line`; returns its per-set stack distance if below the depth
    /// (`None`: first touch or at least `depth` other lines of its set since). The line becomes
    /// its set's most recently used.
    #[inline]
    pub fn access(&mut self, line: u64) -> Option<u32> {
        let set = self.set_of(line);
        let d = match &mut self.kind {
            StackKind::Scan { tags, fill } => {
                let base = set * self.depth;
                let n = fill[set] as usize;
                let slot = &mut tags[base..base + self.depth];
                if n > 0 && slot[0] == line {
                    // The set's most recent line again (the common case of a stream of small
                    // accesses): distance 0, nothing moves.
                    self.counts[0] += 1;
                    return Some(0);
                }
                // Move to front in one pass: each line more recent than `line` moves down a
                // place as the scan passes it (no second pass, no memmove call for a few tags).
                let mut carry = line;
                let mut found = None;
                for (pos, t) in slot[..n].iter_mut().enumerate() {
                    let old = std::mem::replace(t, carry);
                    if old == line {
                        found = Some(pos as u32);
                        break;
                    }
                    carry = old;
                }
                if found.is_none() && n < self.depth {
                    // A new line in a set with room: the least recent one moves down too.
                    slot[n] = carry;
                    fill[set] += 1;
                }
                // (In a full set the least recent line, now in `carry`, is evicted.)
                found
            }
            StackKind::Full(core) => core
                .access(line)
                .filter(|&d| d < self.depth as u64)
                .map(|d| d as u32),
        };
        match d {
            Some(d) => self.counts[d as usize] += 1,
            None => self.beyond += 1,
        }
        d
    }

    /// The set `line` maps to.
    #[inline]
    pub fn set_of(&self, line: u64) -> usize {
        (match self.mask {
            Some(m) => line & m,
            None => line % self.sets,
        }) as usize
    }

    /// Removes `line` from its set's stack (an invalidation; not a reference, so nothing is
    /// counted): returns the per-set stack distance it had (`None`: not within the depth). The
    /// lines below it move up a place, as in an LRU stack that forgets the line.
    pub fn remove(&mut self, line: u64) -> Option<u32> {
        let set = self.set_of(line);
        match &mut self.kind {
            StackKind::Scan { tags, fill } => {
                let base = set * self.depth;
                let n = fill[set] as usize;
                let slot = &mut tags[base..base + n];
                let pos = slot.iter().position(|&t| t == line)?;
                slot.copy_within(pos + 1.., pos);
                fill[set] -= 1;
                Some(pos as u32)
            }
            StackKind::Full(core) => core
                .remove(line)
                .filter(|&d| d < self.depth as u64)
                .map(|d| d as u32),
        }
    }

    /// Counts a reference to the line accessed last (its set's most recently used line, at
    /// distance 0) without looking it up: what [`access`](Self::access) would return for it,
    /// `Some(0)`, with nothing moved.
    #[inline]
    pub fn repeat_most_recent(&mut self) {
        self.counts[0] += 1;
    }

    /// References so far.
    pub fn references(&self) -> u64 {
        self.counts.iter().sum::<u64>() + self.beyond
    }

    /// Per-set distance histogram: `[d]` references at distance `d` (below the depth).
    pub fn distance_counts(&self) -> &[u64] {
        &self.counts
    }

    /// References at distance ≥ depth or first touches.
    pub fn beyond(&self) -> u64 {
        self.beyond
    }

    /// Hits so far in an LRU cache of this set count with `ways` ways (≤ depth): references
    /// whose per-set distance is below `ways`.
    pub fn hits(&self, ways: u32) -> u64 {
        self.counts[..(ways as usize).min(self.depth)].iter().sum()
    }
}
