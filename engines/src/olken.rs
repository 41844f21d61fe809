//! The classic baseline: Olken's hash table + balanced order-statistic tree (PARDA Alg. 1–2).
//!
//! A hash map sends each block to the timestamp of its last access; a balanced binary search
//! tree keyed by timestamp holds one node per distinct block, each node carrying the size of its
//! subtree. The reuse distance of an access is the number of nodes with a larger timestamp than
//! the block's previous one (Alg. 2), after which that node is deleted and a node with the
//! current timestamp inserted.
//!
//! The tree is a *treap* (a binary search tree on timestamps that is a heap on random
//! priorities, so its expected depth is O(log M)), stored in an arena `Vec` with `u32` links and a
//! free list so that it does no per-node allocation. It is the baseline the other engines are
//! compared with, so it is a faithful textbook structure rather than a tuned one.

use crate::accum::DenseHist;
use crate::blockmap::BlockSet;
use crate::{Histogram, ReuseEngine};
use rustc_hash::FxHashMap as FastMap;

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    ts: u64,
    block: u64,
    prio: u32,
    size: u32,
    left: u32,
    right: u32,
}

/// An order-statistic treap keyed by timestamp; see the module documentation.
pub struct OrderTree {
    nodes: Vec<Node>,
    free: Vec<u32>,
    root: u32,
    rng: u64,
}

impl Default for OrderTree {
    fn default() -> Self {
        OrderTree {
            nodes: Vec::new(),
            free: Vec::new(),
            root: NIL,
            rng: 0x2545_f491_4f6c_dd1d,
        }
    }
}

impl OrderTree {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.size(self.root) as usize
    }

    /// Whether the tree is empty.
    pub fn is_empty(&self) -> bool {
        self.root == NIL
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.free.capacity() * 4
    }

    #[inline]
    fn size(&self, n: u32) -> u32 {
        if n == NIL {
            0
        } else {
            self.nodes[n as usize].size
        }
    }

    #[inline]
    fn fix(&mut self, n: u32) {
        let (l, r) = (self.nodes[n as usize].left, self.nodes[n as usize].right);
        self.nodes[n as usize].size = 1 + self.size(l) + self.size(r);
    }

    fn next_prio(&mut self) -> u32 {
        // xorshift64: priorities only need to be independent of the keys.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 32) as u32
    }

    /// Splits `n` into (keys < ts, keys ≥ ts).
    fn split(&mut self, n: u32, ts: u64) -> (u32, u32) {
        if n == NIL {
            return (NIL, NIL);
        }
        if self.nodes[n as usize].ts < ts {
            let (a, b) = self.split(self.nodes[n as usize].right, ts);
            self.nodes[n as usize].right = a;
            self.fix(n);
            (n, b)
        } else {
            let (a, b) = self.split(self.nodes[n as usize].left, ts);
            self.nodes[n as usize].left = b;
            self.fix(n);
            (a, n)
        }
    }

    /// Joins two treaps where every key of `a` is below every key of `b`.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        if self.nodes[a as usize].prio > self.nodes[b as usize].prio {
            let r = self.merge(self.nodes[a as usize].right, b);
            self.nodes[a as usize].right = r;
            self.fix(a);
            a
        } else {
            let l = self.merge(a, self.nodes[b as usize].left);
            self.nodes[b as usize].left = l;
            self.fix(b);
            b
        }
    }

    /// Inserts a node for `block` at timestamp `ts` (timestamps are unique).
    pub fn insert(&mut self, ts: u64, block: u64) {
        let prio = self.next_prio();
        let node = Node {
            ts,
            block,
            prio,
            size: 1,
            left: NIL,
            right: NIL,
        };
        let id = match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        let (a, b) = self.split(self.root, ts);
        let ab = self.merge(a, id);
        self.root = self.merge(ab, b);
    }

    /// Deletes the node with timestamp `ts`; returns its block.
    pub fn delete(&mut self, ts: u64) -> Option<u64> {
        let (root, removed) = self.delete_in(self.root, ts);
        self.root = root;
        removed.map(|id| {
            self.free.push(id);
            self.nodes[id as usize].block
        })
    }

    fn delete_in(&mut self, n: u32, ts: u64) -> (u32, Option<u32>) {
        if n == NIL {
            return (NIL, None);
        }
        let node = self.nodes[n as usize];
        if ts == node.ts {
            return (self.merge(node.left, node.right), Some(n));
        }
        let removed = if ts < node.ts {
            let (l, r) = self.delete_in(node.left, ts);
            self.nodes[n as usize].left = l;
            r
        } else {
            let (l, r) = self.delete_in(node.right, ts);
            self.nodes[n as usize].right = l;
            r
        };
        if removed.is_some() {
            self.fix(n);
        }
        (n, removed)
    }

    /// Number of nodes whose timestamp is larger than `ts`.
    // See: PARDA Alg. 2 — walk from the root, adding 1 + right-subtree weight whenever we go left.
    pub fn count_greater(&self, ts: u64) -> u64 {
        let mut cur = self.root;
        let mut d = 0u64;
        while cur != NIL {
            let n = &self.nodes[cur as usize];
            if ts > n.ts {
                cur = n.right;
            } else if ts < n.ts {
                d += 1 + self.size(n.right) as u64;
                cur = n.left;
            } else {
                d += self.size(n.right) as u64;
                break;
            }
        }
        d
    }

    /// The (timestamp, block) of the oldest node.
    pub fn oldest(&self) -> Option<(u64, u64)> {
        let mut cur = self.root;
        if cur == NIL {
            return None;
        }
        while self.nodes[cur as usize].left != NIL {
            cur = self.nodes[cur as usize].left;
        }
        let n = &self.nodes[cur as usize];
        Some((n.ts, n.block))
    }
}

/// Olken engine: hash map + order-statistic treap (PARDA Alg. 1).
pub struct OlkenEngine {
    last: FastMap<u64, u64>,
    tree: OrderTree,
    now: u64,
    hist: DenseHist,
    bound: Option<u64>,
    seen: Option<BlockSet>,
}

impl OlkenEngine {
    /// An unbounded Olken engine.
    pub fn new() -> Self {
        Self::with_bound(None)
    }

    /// An Olken engine, bounded to `bound` blocks (distances ≥ bound → overflow) if given.
    pub fn with_bound(bound: Option<u64>) -> Self {
        OlkenEngine {
            last: FastMap::default(),
            tree: OrderTree::default(),
            now: 0,
            hist: DenseHist::default(),
            bound,
            seen: bound.map(|_| BlockSet::default()),
        }
    }

    /// Heap bytes held (approximate for the std map).
    pub fn heap_bytes(&self) -> usize {
        self.tree.heap_bytes() + self.last.capacity() * 24 + self.hist.heap_bytes()
    }
}

impl Default for OlkenEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl ReuseEngine for OlkenEngine {
    fn name(&self) -> &'static str {
        "olken"
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn process(&mut self, blocks: &[u64]) {
        for &z in blocks {
            let t = self.now;
            self.now += 1;
            // See: PARDA Alg. 1 — d = ∞ unless H(z) exists; then d = distance(T, H(z)), delete.
            match self.last.insert(z, t) {
                Some(prev) => {
                    let d = self.tree.count_greater(prev);
                    self.tree.delete(prev);
                    self.hist.add(d);
                }
                None => {
                    // Bounded: a miss on a block seen before is a capacity miss (distance ≥ B).
                    let seen_before = self.seen.as_mut().is_some_and(|s| !s.insert(z));
                    if seen_before {
                        self.hist.overflow += 1;
                    } else {
                        self.hist.cold += 1;
                    }
                }
            }
            self.tree.insert(t, z);
            if let Some(b) = self.bound {
                // See: PARDA Alg. 7 — at most B entries; evict the leftmost (oldest) node.
                if self.tree.len() as u64 > b {
                    let (ts, victim) = self.tree.oldest().expect("non-empty");
                    self.tree.delete(ts);
                    self.last.remove(&victim);
                }
            }
        }
    }

    fn finish(self: Box<Self>) -> Histogram {
        self.hist.into_histogram(self.bound, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_counts_and_deletes() {
        let mut t = OrderTree::default();
        for ts in 0..1000u64 {
            t.insert(ts * 2, ts);
        }
        assert_eq!(t.len(), 1000);
        assert_eq!(t.count_greater(0), 999);
        assert_eq!(t.count_greater(1001), 499);
        for ts in (0..1000u64).step_by(3) {
            assert_eq!(t.delete(ts * 2), Some(ts));
        }
        assert_eq!(t.delete(1), None);
        assert_eq!(t.len(), 1000 - 334);
        assert_eq!(t.oldest(), Some((2, 1)));
        assert_eq!(t.count_greater(2), (1000 - 334 - 1) as u64);
    }
}
