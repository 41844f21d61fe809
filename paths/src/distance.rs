//! Exact backward reuse distance of every single reference.
//!
//! The engines crate turns an address stream into a histogram; path-based analysis needs the
//! distance of *each* access so it can be charged to that access's (instruction, path).
//! [`ReuseTracker`] gives it with the classic construction: a hash map from block to the time
//! of its last access, and a Fenwick tree with a 1 at every time that is still some block's
//! last access. The distance of a reuse is the number of ones after the previous access time.
//! Times are compacted to `0..live` whenever the tree fills up, so memory is proportional to
//! the number of distinct blocks, not to the trace length.

use crate::fxhash::LineHashMap;

/// Smallest time space handed out after a compaction.
const MIN_CAPACITY: usize = 1 << 12;

/// Exact LRU stack distance per reference, O(log M) per access, O(M) memory for M distinct
/// blocks.
#[derive(Clone, Debug)]
pub struct ReuseTracker {
    last: LineHashMap<u32>,
    /// Fenwick tree (1-based internally) over compacted times.
    tree: Vec<u32>,
    /// Next time to hand out.
    next: usize,
}

impl Default for ReuseTracker {
    fn default() -> Self {
        Self::new()
    }
}

impl ReuseTracker {
    /// An empty tracker.
    pub fn new() -> Self {
        ReuseTracker {
            last: LineHashMap::default(),
            tree: vec![0; MIN_CAPACITY + 1],
            next: 0,
        }
    }

    /// Number of distinct blocks seen.
    pub fn distinct(&self) -> usize {
        self.last.len()
    }

    #[inline(always)]
    fn capacity(&self) -> usize {
        self.tree.len() - 1
    }

    #[inline(always)]
    fn add(&mut self, time: usize, delta: i32) {
        let mut i = time + 1;
        let n = self.tree.len();
        while i < n {
            self.tree[i] = self.tree[i].wrapping_add(delta as u32);
            i += i & i.wrapping_neg();
        }
    }

    /// Number of live times in `0..=time`.
    #[inline(always)]
    fn prefix(&self, time: usize) -> u32 {
        let mut i = time + 1;
        let mut s = 0u32;
        while i > 0 {
            s = s.wrapping_add(self.tree[i]);
            i &= i - 1;
        }
        s
    }

    /// Renumbers the live times `0..live` in order and resizes the time space to 4 × live.
    fn compact(&mut self) {
        let mut live: Vec<(u32, u64)> = self.last.iter().map(|(&b, &t)| (t, b)).collect();
        live.sort_unstable();
        let cap = (4 * live.len()).max(MIN_CAPACITY);
        self.tree.clear();
        self.tree.resize(cap + 1, 0);
        for (i, &(_, b)) in live.iter().enumerate() {
            self.last.insert(b, i as u32);
            // Linear-time Fenwick build: set the leaves, then push each node into its parent.
            self.tree[i + 1] = 1;
        }
        for i in 1..=cap {
            let j = i + (i & i.wrapping_neg());
            if j <= cap {
                let v = self.tree[i];
                self.tree[j] += v;
            }
        }
        self.next = live.len();
    }

    /// Accesses `block`: returns the number of distinct blocks accessed since its previous
    /// access (`None` for a first access) and makes it the most recent.
    #[inline]
    pub fn access(&mut self, block: u64) -> Option<u64> {
        if self.next == self.capacity() {
            self.compact();
        }
        let now = self.next;
        self.next += 1;
        let live = self.last.len() as u32;
        let prev = self.last.insert(block, now as u32);
        let d = prev.map(|p| {
            let p = p as usize;
            // Live times after p: every block whose last access came later.
            let d = live - self.prefix(p);
            self.add(p, -1);
            d as u64
        });
        self.add(now, 1);
        d
    }
}

/// The textbook LRU stack (linear search), kept as the reference the fast tracker is tested
/// against.
#[derive(Clone, Debug, Default)]
pub struct NaiveStack {
    /// Most recent last.
    stack: Vec<u64>,
}

impl NaiveStack {
    /// Accesses `block`; same contract as [`ReuseTracker::access`].
    pub fn access(&mut self, block: u64) -> Option<u64> {
        let d = self.stack.iter().rposition(|&b| b == block).map(|pos| {
            let d = (self.stack.len() - 1 - pos) as u64;
            self.stack.remove(pos);
            d
        });
        self.stack.push(block);
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_sequence_by_hand() {
        // a b c a b b d a: a→∞ b→∞ c→∞ a→2 (b,c) b→2 (c,a) b→0 d→∞ a→2 (b,d)
        let mut t = ReuseTracker::new();
        let got: Vec<_> = [1u64, 2, 3, 1, 2, 2, 4, 1]
            .iter()
            .map(|&b| t.access(b))
            .collect();
        assert_eq!(
            got,
            vec![None, None, None, Some(2), Some(2), Some(0), None, Some(2)]
        );
    }

    #[test]
    fn matches_naive_stack_across_compactions() {
        // A deterministic pseudo-random stream mixing a hot set, sweeps and rare blocks, long
        // enough to compact many times (capacity starts at 4096).
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut fast = ReuseTracker::new();
        let mut naive = NaiveStack::default();
        for i in 0..60_000u64 {
            let r = next();
            let block = match r % 4 {
                0 => r % 16,
                1 => 1000 + (i % 700),
                2 => 5000 + (r >> 8) % 3000,
                _ => r >> 40,
            };
            assert_eq!(fast.access(block), naive.access(block), "reference {i}");
        }
    }

    #[test]
    fn cyclic_sweep_has_distance_m_minus_one() {
        let mut t = ReuseTracker::new();
        for round in 0..5 {
            for b in 0..10_000u64 {
                let d = t.access(b);
                assert_eq!(d, if round == 0 { None } else { Some(9_999) });
            }
        }
        assert_eq!(t.distinct(), 10_000);
    }
}
