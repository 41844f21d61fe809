//! Write-invalidate coherence between the private L1 stacks of the exact model: the lost
//! records (a core that lost a line by invalidation, which of its caches held it, and the bytes
//! other cores wrote since), the hash map that keeps them, and the 3C + coherence class of a
//! miss. [`super::MultiHierarchy`] applies them; the rule is the one `measure` simulates
//! ([`rdcachesim::CoherentHierarchy`]), restated for stack distances in
//! [`super::MultiHierarchy::access_rw`].

use rdcachesim::LineMap;
use rdcachesim::{MissKind, ShadowResult, Sharing};

/// A core that lost a line by invalidation and has not accessed it since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Lost {
    /// The core.
    pub(super) core: u32,
    /// Granules of the line other cores wrote since ([`rdcachesim::coherence::granule_mask`]).
    pub(super) written: u64,
    /// The L1 configurations of the group (bit k: the group's k-th) whose cache held the line
    /// when it was invalidated: only their next miss on it is a coherence miss.
    pub(super) held: u64,
}

/// Lost records by line.
pub(super) type LostMap = LineMap<Vec<Lost>>;

/// Removes `core`'s lost record of `line`, if it has one.
#[inline]
pub(super) fn take_lost(lost: &mut LostMap, line: u64, core: usize) -> Option<Lost> {
    let v = lost.get_mut(&line)?;
    let i = v.iter().position(|e| e.core as usize == core)?;
    let e = v.swap_remove(i);
    if v.is_empty() {
        lost.remove(&line);
    }
    Some(e)
}

/// The class of a miss of the k-th L1 configuration of a group: compulsory when the fully
/// associative shadow never saw the line, coherence when the cache lost it by invalidation
/// (true sharing when the bytes touched overlap bytes others wrote since), else capacity when
/// the shadow misses too, else conflict; the order `measure` classes in.
#[inline]
pub(super) fn l1_miss_kind(
    shadow: ShadowResult,
    lost: Option<Lost>,
    k: usize,
    touched: u64,
) -> MissKind {
    if shadow == ShadowResult::First {
        return MissKind::Compulsory;
    }
    match coherence_kind(lost, k, touched) {
        Some(kind) => kind,
        None if shadow == ShadowResult::Miss => MissKind::Capacity,
        None => MissKind::Conflict,
    }
}

/// The class of a miss of the k-th L1 configuration of a group when it is a coherence miss
/// (the cache held the line when it was lost), without the 3C shadow: such a line was seen
/// before, so the miss is never compulsory, and coherence comes before capacity and conflict.
#[inline]
pub(super) fn coherence_kind(lost: Option<Lost>, k: usize, touched: u64) -> Option<MissKind> {
    lost.filter(|e| e.held >> k & 1 == 1).map(|e| {
        MissKind::Coherence(if e.written & touched != 0 {
            Sharing::True
        } else {
            Sharing::False
        })
    })
}

/// The class of a miss of a cache nothing invalidates (the shared L2).
#[inline]
pub(super) fn shared_miss_kind(shadow: ShadowResult) -> MissKind {
    match shadow {
        ShadowResult::First => MissKind::Compulsory,
        ShadowResult::Miss => MissKind::Capacity,
        ShadowResult::Hit => MissKind::Conflict,
    }
}
