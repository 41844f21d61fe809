//! [`FrontedStack`]: an exact LRU stack whose few most recent blocks sit in a small array in
//! front of a [`FastCore`].
//!
//! Most references of regular code reuse one of the last few blocks (a stencil's neighbours, a
//! loop's handful of arrays): on the bench stencil 75 % of the references that are not a
//! repeat of the previous block have a distance below 8. For those the full structure (block
//! map, bitmap, count levels, slot compaction) is work the answer does not need: the distance
//! is the block's position among the last few distinct blocks. So the stack is kept in two
//! parts, `front ++ core`:
//!
//! * `front`: the [`FRONT`] most recent distinct blocks, most recent first, in one cache line;
//!   a reference found there has distance = its position, and only the array changes.
//! * `core`: every older block, in a [`FastCore`]. Each block in `core` was last used before
//!   every block in `front` (a block leaves `front` only from its back, when a new block enters
//!   at its front), so a block found in `core` at core distance `c` has distance
//!   `front.len() + c`, and a block pushed out of `front` is the newest block of `core`.
//!
//! Exact, like the core alone (proptested against the naive stack). A reference that misses
//! `front` costs one more block-map update than [`FastCore::access`] (the pushed-out block's
//! insert): on a pointer chase, where almost no distance is small, that made the engine 1.4x
//! slower. So the stack watches its own distances: over each window of [`WINDOW`] references
//! it counts those below [`FRONT`], and it keeps the front array only while they are at least a
//! quarter of the window, otherwise it empties the front into the core and runs the core alone
//! until a window says small distances are back. Either way every answer is exact; the mode
//! only decides which structure pays.

use crate::fast::FastCore;

/// How many of the most recent distinct blocks [`FrontedStack`] keeps in front of its core:
/// 8 blocks of 8 bytes, one 64-byte cache line, compared at once with vector instructions.
pub const FRONT: usize = 8;

/// References per decision on whether to use the front array (see the module).
pub const WINDOW: u32 = 1 << 12;

/// An exact LRU stack of blocks answering reuse distances: the same answers as
/// [`FastCore::access`], faster when most distances are small (see the module).
#[derive(Clone)]
pub struct FrontedStack {
    /// The `len` most recent distinct blocks, most recent first (entries past `len` unused).
    front: [u64; FRONT],
    len: usize,
    core: FastCore,
    /// Whether `front` is in use; when not, `len` is 0 and the core holds every block.
    fronted: bool,
    /// References left in the current window, and its distances below [`FRONT`] so far.
    window_left: u32,
    window_near: u32,
    /// References per window ([`WINDOW`]; tests shorten it to exercise the switches).
    window: u32,
}

impl Default for FrontedStack {
    fn default() -> Self {
        Self::untracked(0)
    }
}

impl FrontedStack {
    /// An empty stack whose core is sized for about `blocks` distinct blocks and keeps no
    /// slot → block index ([`FastCore::untracked`]: distances only).
    pub fn untracked(blocks: usize) -> Self {
        FrontedStack {
            front: [0; FRONT],
            len: 0,
            core: FastCore::untracked(blocks),
            fronted: true,
            window_left: WINDOW,
            window_near: 0,
            window: WINDOW,
        }
    }

    /// Number of distinct blocks on the stack.
    #[inline]
    pub fn len(&self) -> usize {
        self.len + self.core.len()
    }

    /// Whether the stack is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.core.heap_bytes()
    }

    /// Starts loading what a core access to `key` will touch first (see
    /// [`FastCore::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.core.prefetch(key);
    }

    /// Second prefetch stage (see [`FastCore::prefetch_slot`]).
    #[inline(always)]
    pub fn prefetch_slot(&self, key: u64) {
        self.core.prefetch_slot(key);
    }

    /// The position of `key` in `front`, if it is there.
    #[inline(always)]
    fn find(&self, key: u64) -> Option<usize> {
        // A fixed-size compare the compiler turns into a few vector compares, no branch per
        // entry.
        let mut mask = 0u32;
        for (i, &b) in self.front.iter().enumerate() {
            mask |= u32::from(b == key) << i;
        }
        mask &= (1u32 << self.len) - 1;
        (mask != 0).then(|| mask.trailing_zeros() as usize)
    }

    /// Accesses `key`: returns its reuse distance (distinct blocks accessed since its previous
    /// access) or `None` on its first access, and makes it the most recent block.
    #[inline(always)]
    pub fn access(&mut self, key: u64) -> Option<u64> {
        let d = if self.fronted {
            self.access_fronted(key)
        } else {
            self.core.access(key)
        };
        self.window_near += u32::from(matches!(d, Some(d) if d < FRONT as u64));
        self.window_left -= 1;
        if self.window_left == 0 {
            self.end_window();
        }
        d
    }

    /// Chooses the mode for the next window from the one that ended (see the module).
    #[cold]
    fn end_window(&mut self) {
        // At least a quarter of the window (KEEP_FRONT for the usual window).
        let want_front = self.window_near >= self.window / 4;
        if self.fronted && !want_front {
            // The front's blocks go to the core least recent first, above every core block.
            for i in (0..self.len).rev() {
                let fresh = self.core.access(self.front[i]);
                debug_assert!(fresh.is_none(), "a block was in front and core at once");
            }
            self.len = 0;
        }
        // Into front mode needs nothing: an empty front in front of the whole stack.
        self.fronted = want_front;
        self.window_left = self.window;
        self.window_near = 0;
    }

    /// [`access`](Self::access) with the front array in use.
    #[inline(always)]
    fn access_fronted(&mut self, key: u64) -> Option<u64> {
        if let Some(j) = self.find(key) {
            self.rotate_in(j, key);
            return Some(j as u64);
        }
        let d = self.core.remove(key).map(|c| c + self.len as u64);
        if self.len == FRONT {
            // The least recent block of `front` becomes the most recent one of `core`.
            let out = self.front[FRONT - 1];
            let fresh = self.core.access(out);
            debug_assert!(fresh.is_none(), "a block was in front and core at once");
            self.rotate_in(FRONT - 1, key);
        } else {
            self.rotate_in(self.len, key);
            self.len += 1;
        }
        d
    }

    /// Shifts `front[0..j]` one place back (over `front[j]`) and puts `key` first.
    #[inline(always)]
    fn rotate_in(&mut self, j: usize, key: u64) {
        let old = self.front;
        // A select per entry rather than a variable-length move: vector blends, no call.
        for i in 1..FRONT {
            if i <= j {
                self.front[i] = old[i - 1];
            }
        }
        self.front[0] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: the depth of `key` in a most-recent-first list, then move it to the top.
    #[derive(Default)]
    struct NaiveStack(Vec<u64>);

    impl NaiveStack {
        fn access(&mut self, key: u64) -> Option<u64> {
            let pos = self.0.iter().position(|&b| b == key);
            if let Some(p) = pos {
                self.0.remove(p);
            }
            self.0.insert(0, key);
            pos.map(|p| p as u64)
        }
    }

    #[test]
    fn distances_across_front_and_core() {
        let mut s = FrontedStack::default();
        let mut n = NaiveStack::default();
        // A sweep over 20 blocks (each reuse at distance 19: in the core), then a sweep over
        // 5 (in front), then alternating near and far.
        let keys: Vec<u64> = (0..3)
            .flat_map(|_| 0..20u64)
            .chain((0..4).flat_map(|_| 100..105u64))
            .chain((0..40).map(|i| if i % 2 == 0 { i / 2 } else { 100 + i % 5 }))
            .collect();
        for k in keys {
            assert_eq!(s.access(k), n.access(k), "key {k}");
        }
        assert_eq!(s.len(), n.0.len());
    }

    #[test]
    fn switches_modes_and_stays_exact() {
        // Windows of far references (a sweep over 5000 blocks: the front is dropped), then of
        // near ones (the front comes back), then far again, checked reference by reference.
        let mut s = FrontedStack::default();
        let mut n = NaiveStack::default();
        let mut modes = Vec::new();
        for phase in 0..4u64 {
            for i in 0..3 * u64::from(WINDOW) {
                let k = if phase % 2 == 0 {
                    i % 5000
                } else {
                    6000 + i % 6
                };
                assert_eq!(s.access(k), n.access(k), "phase {phase} ref {i}");
            }
            modes.push(s.fronted);
        }
        assert_eq!(modes, [false, true, false, true]);
    }

    proptest::proptest! {
        /// Exact in every mode and across every switch: short windows over streams that move
        /// between near and far reuse.
        #[test]
        fn exact_across_switches(
            phases in proptest::collection::vec((1..40u64, 1..300usize), 1..12),
            window in 1..64u32,
        ) {
            let mut s = FrontedStack::untracked(0);
            s.window = window;
            s.window_left = window;
            let mut n = NaiveStack::default();
            for (k, len) in phases {
                for i in 0..len as u64 {
                    let key = (i * 7) % k;
                    proptest::prop_assert_eq!(s.access(key), n.access(key));
                }
            }
            proptest::prop_assert_eq!(s.len(), n.0.len());
        }
    }

    #[test]
    fn key_max_and_zero_are_blocks_like_any_other() {
        let mut s = FrontedStack::default();
        assert_eq!(s.access(0), None);
        assert_eq!(s.access(u64::MAX), None);
        assert_eq!(s.access(0), Some(1));
        assert_eq!(s.access(u64::MAX), Some(1));
        assert_eq!(s.len(), 2);
    }
}
