//! [`FastCore`], the LRU-stack structure of the fast exact engine
//! ([`FastEngine`](crate::FastEngine), through [`FrontedStack`](crate::FrontedStack)), PARDA and
//! the models.
//!
//! Design (same contract as the Olken tree of PARDA Alg. 1–2, different data structures):
//!
//! * **Block map** block → slot: [`BlockMap`], a direct-mapped array of `u32` slots for dense
//!   pages of the block space (one array load, no hashing) and an open-addressing
//!   [`BlockTable`](crate::table::BlockTable) for sparse pages.
//! * **Slots instead of raw timestamps.** Every access takes the next slot; only the last access
//!   of each block holds a *live* slot. The reuse distance of a block is the number of live slots
//!   after its previous slot ([`LiveSet::count_after`]), i.e. PARDA Alg. 2's "nodes with a
//!   larger timestamp", computed with popcounts over a bitmap plus three or four cache-line
//!   sized count levels instead of a tree walk.
//! * **Compaction.** When the slot space is used up, live slots are renumbered `0..live` in
//!   order (one sequential pass over the table via popcount ranks), and the slot space is resized
//!   to 4 × live. So memory is O(M) and flat as N grows, and compaction costs O(1) amortised per
//!   reference (at least 3·live references happen between two compactions).
//! * **Bounded form.** With a bound B the core is capped at B blocks by evicting the oldest
//!   (PARDA Alg. 7's `find_oldest`), so every hit has distance < B; misses are split into cold
//!   and overflow with a [`BlockSet`](crate::blockmap::BlockSet) of blocks ever seen.

use crate::blockmap::BlockMap;
use crate::liveset::{LiveSet, LINE_BITS};

/// Smallest slot space (slots), so tiny cores do not compact constantly.
const MIN_SLOTS: usize = 4 * LINE_BITS;

/// An LRU stack of distinct blocks supporting distance queries, deletion, eviction of the least
/// recently used block, and in-order iteration. Exact; O(1) amortised per operation apart from
/// the O(log_16 M) count levels.
#[derive(Clone)]
pub struct FastCore {
    table: BlockMap,
    live: LiveSet,
    /// `owner[slot]` = the block whose last access holds `slot` (valid for live slots); only
    /// kept when `track` is set (eviction needs it; a plain exact run does not, and skipping it
    /// saves 32 bytes of memory traffic per distinct block).
    owner: Vec<u64>,
    track: bool,
    /// Next slot to hand out; slots are handed out in time order.
    next: usize,
    /// No live slot lies below this (cursor for [`FastCore::pop_oldest`]).
    oldest: usize,
}

impl Default for FastCore {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl FastCore {
    /// A core sized for about `blocks` distinct blocks, supporting every operation.
    pub fn with_capacity(blocks: usize) -> Self {
        Self::build(blocks, true)
    }

    /// A core without the slot → block index: [`pop_oldest`](Self::pop_oldest) is unavailable
    /// and in-order iteration sorts, in exchange for less memory traffic per access.
    pub fn untracked(blocks: usize) -> Self {
        Self::build(blocks, false)
    }

    fn build(blocks: usize, track: bool) -> Self {
        let slots = (blocks * 4).max(MIN_SLOTS);
        let live = LiveSet::with_capacity(slots);
        FastCore {
            table: BlockMap::with_capacity(blocks),
            owner: if track {
                vec![0; live.capacity()]
            } else {
                Vec::new()
            },
            track,
            live,
            next: 0,
            oldest: 0,
        }
    }

    /// Starts loading what an access to `key` will touch first (its block-map entry). Call it a
    /// dozen references ahead.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.table.prefetch(key);
    }

    /// Second prefetch stage, a few references ahead: reads `key`'s entry (already on its
    /// way thanks to [`prefetch`](Self::prefetch)) and starts loading the bitmap word of its
    /// current slot, which the distance query and the delete will touch.
    #[inline(always)]
    pub fn prefetch_slot(&self, key: u64) {
        if let Some(s) = self.table.get(key) {
            self.live.prefetch(s as usize);
        }
    }

    /// Number of blocks on the stack.
    #[inline]
    pub fn len(&self) -> usize {
        self.live.len() as usize
    }

    /// Whether the stack is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.table.heap_bytes() + self.live.heap_bytes() + self.owner.capacity() * 8
    }

    /// Empties the stack, keeping allocations.
    pub fn clear(&mut self) {
        self.table.clear();
        self.live.reset(self.live.capacity(), 0);
        self.next = 0;
        self.oldest = 0;
    }

    /// Renumbers live slots `0..live` in time order and resizes the slot space to 4 × live.
    /// Called only when the slot space is exhausted.
    #[cold]
    fn compact(&mut self) {
        self.compact_leaving_front(0);
    }

    /// Renumbers live slots `front..front + live` in time order (slots `0..front` are marked
    /// live but belong to no block yet: [`fill_front`](Self::fill_front) must give them
    /// blocks) and resizes the slot space to 4 × (front + live). With `front = 0` this is
    /// plain timestamp compaction; PARDA's state merge uses `front > 0` to put older blocks
    /// *below* this stack's in one sequential pass instead of re-inserting this stack's blocks
    /// one by one (see [`prepend`](Self::prepend)).
    pub fn compact_leaving_front(&mut self, front: usize) {
        let live = self.len();
        let ranks = self.live.word_ranks();
        let slots = ((front + live) * 4).max(MIN_SLOTS);
        // Slots must stay below `VACANT` = u32::MAX, the block map's empty marker.
        assert!(
            slots <= 1 << 31,
            "FastCore: more than 2^29 distinct live blocks"
        );
        if self.track {
            if front == 0 {
                // Move owners down in order (rank ≤ slot, so an in-place forward pass is safe).
                let mut r = 0usize;
                let owner = &mut self.owner;
                self.live.for_each(|slot| {
                    owner[r] = owner[slot];
                    r += 1;
                });
            } else {
                let mut moved = vec![0; slots.div_ceil(LINE_BITS) * LINE_BITS];
                let mut r = front;
                let owner = &self.owner;
                self.live.for_each(|slot| {
                    moved[r] = owner[slot];
                    r += 1;
                });
                self.owner = moved;
            }
        }
        let live_set = &self.live;
        // One sequential pass over the block map renumbers every block's slot.
        let base = front as u32;
        self.table
            .map_values(|s| base + live_set.rank_with(&ranks, s as usize));
        self.live.reset(slots, front + live);
        if self.track {
            self.owner.resize(self.live.capacity(), 0);
            self.owner.shrink_to(self.live.capacity());
        }
        self.next = front + live;
        self.oldest = 0;
    }

    /// Gives the reserved slots `0..older.len()` left by
    /// [`compact_leaving_front`](Self::compact_leaving_front)`(older.len())` to `older`
    /// (oldest first). The blocks must not be on the stack.
    pub fn fill_front(&mut self, older: &[u64]) {
        for (i, &z) in older.iter().enumerate() {
            let prev = self.table.insert(z, i as u32);
            assert!(
                prev.is_none(),
                "fill_front: block {z} is already on the stack"
            );
            if self.track {
                self.owner[i] = z;
            }
        }
    }

    /// Puts `older` (oldest first, none of them on the stack) below every block of the stack:
    /// the stack becomes `older ++ self`. Costs one sequential pass over the structure plus
    /// one insert per block of `older`.
    pub fn prepend(&mut self, older: &[u64]) {
        self.compact_leaving_front(older.len());
        self.fill_front(older);
    }

    /// Takes the next slot for `key` (compacting first if needed) and marks it live.
    #[inline(always)]
    fn take_slot(&mut self) -> usize {
        if self.next == self.live.capacity() {
            self.compact();
        }
        let s = self.next;
        self.next += 1;
        s
    }

    /// Accesses `key`: returns its reuse distance (number of distinct blocks accessed since its
    /// previous access) or `None` if it is not on the stack, and moves it to the top.
    // See: PARDA Alg. 1 — look up H(z), d = distance(T, H(z)), delete, insert at time t.
    #[inline(always)]
    pub fn access(&mut self, key: u64) -> Option<u64> {
        let slot = self.take_slot();
        let prev = self.table.insert(key, slot as u32);
        let d = prev.map(|p| {
            let p = p as usize;
            // See: PARDA Alg. 2 — count the entries with a later timestamp.
            let d = self.live.count_after(p);
            self.live.clear(p);
            d
        });
        self.live.set(slot);
        if self.track {
            self.owner[slot] = key;
        }
        d
    }

    /// Reuse distance `key` would have now, without changing the stack.
    #[inline]
    pub fn distance(&self, key: u64) -> Option<u64> {
        self.table
            .get(key)
            .map(|p| self.live.count_after(p as usize))
    }

    /// Removes `key` from the stack, returning the distance it had (PARDA Alg. 4's
    /// "distance, then delete").
    #[inline(always)]
    pub fn remove(&mut self, key: u64) -> Option<u64> {
        let p = self.table.remove(key)? as usize;
        let d = self.live.count_after(p);
        self.live.clear(p);
        Some(d)
    }

    /// Removes and returns the least recently used block (PARDA Alg. 7's `find_oldest`).
    /// Requires a core built by [`with_capacity`](Self::with_capacity).
    pub fn pop_oldest(&mut self) -> Option<u64> {
        assert!(self.track, "pop_oldest needs a tracked FastCore");
        let slot = self.live.first_from(self.oldest)?;
        let key = self.owner[slot];
        self.live.clear(slot);
        self.table.remove(key);
        self.oldest = slot + 1;
        Some(key)
    }

    /// Calls `f(block)` for every block on the stack, least recently used first.
    pub fn for_each_oldest_first(&self, mut f: impl FnMut(u64)) {
        if self.track {
            self.live.for_each(|slot| f(self.owner[slot]));
        } else {
            self.blocks_oldest_first().into_iter().for_each(f);
        }
    }

    /// The blocks on the stack, least recently used first.
    pub fn blocks_oldest_first(&self) -> Vec<u64> {
        let mut v = Vec::with_capacity(self.len());
        self.extend_oldest_first(&mut v);
        v
    }

    /// Appends the blocks on the stack to `out`, least recently used first. Without the
    /// slot → block index this is still O(live + structure size), no sort: a block's position
    /// is the rank of its slot among the live slots (prefix popcounts, as in compaction).
    pub fn extend_oldest_first(&self, out: &mut Vec<u64>) {
        if self.track {
            out.reserve(self.len());
            self.live.for_each(|slot| out.push(self.owner[slot]));
        } else {
            let base = out.len();
            out.resize(base + self.len(), 0);
            let ranks = self.live.word_ranks();
            let dst = &mut out[base..];
            self.table
                .for_each(|k, s| dst[self.live.rank_with(&ranks, s as usize) as usize] = k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_distances_and_eviction() {
        let mut c = FastCore::with_capacity(1);
        assert_eq!(c.access(1), None);
        assert_eq!(c.access(2), None);
        assert_eq!(c.access(1), Some(1));
        assert_eq!(c.access(1), Some(0));
        assert_eq!(c.distance(2), Some(1));
        assert_eq!(c.pop_oldest(), Some(2));
        assert_eq!(c.len(), 1);
        assert_eq!(c.remove(1), Some(0));
        assert!(c.is_empty());
    }

    #[test]
    fn core_survives_many_compactions() {
        // A sweep over K blocks repeated R times: every non-cold access has distance K - 1.
        let k = 3000u64;
        let mut c = FastCore::with_capacity(1);
        for r in 0..20 {
            for b in 0..k {
                let d = c.access(b * 7919);
                if r == 0 {
                    assert_eq!(d, None);
                } else {
                    assert_eq!(d, Some(k - 1));
                }
            }
        }
        let order = c.blocks_oldest_first();
        assert_eq!(order, (0..k).map(|b| b * 7919).collect::<Vec<_>>());
    }

    #[test]
    fn prepend_and_untracked_order() {
        for track in [false, true] {
            let mut c = if track {
                FastCore::with_capacity(4)
            } else {
                FastCore::untracked(4)
            };
            for b in [10u64, 20, 30, 20, 40] {
                c.access(b);
            }
            assert_eq!(c.blocks_oldest_first(), vec![10, 30, 20, 40]);
            let older: Vec<u64> = (100..2000).collect();
            c.prepend(&older);
            let mut want = older.clone();
            want.extend([10, 30, 20, 40]);
            assert_eq!(c.blocks_oldest_first(), want);
            assert_eq!(c.access(30), Some(2));
            assert_eq!(c.access(100), Some(want.len() as u64 - 1));
            if track {
                assert_eq!(c.pop_oldest(), Some(101));
            }
        }
    }
}
