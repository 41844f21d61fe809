//! [`FaShadow`]: a fully associative LRU cache of a fixed number of lines that also remembers
//! every line it has ever seen; the yardstick of the 3C split (a miss that this cache also
//! misses is a *capacity* miss, a first reference is *compulsory*).
//!
//! A hash map of the resident lines plus an LRU list threaded through a slot array, and a set of
//! the lines seen: O(1) per access and per invalidation, whatever the size.

use rdengines::blockmap::BlockSet;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiplicative hasher for line numbers (the std SipHash costs more than the rest of an
/// access; line numbers are not attacker-chosen keys).
#[derive(Default, Clone, Copy)]
pub struct LineHasher(u64);

impl Hasher for LineHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing: the high bits, which the table uses, depend on every input bit.
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(26);
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64)
    }
}

/// A `HashMap` keyed by line numbers with [`LineHasher`].
pub type LineMap<V> = HashMap<u64, V, BuildHasherDefault<LineHasher>>;

/// End of the LRU list.
const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    line: u64,
    prev: u32,
    next: u32,
}

/// Result of one [`FaShadow::access`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShadowResult {
    /// The line was never seen before (a compulsory miss).
    First,
    /// Seen before and resident (the fully associative cache hits).
    Hit,
    /// Seen before but evicted or invalidated (the fully associative cache misses).
    Miss,
}

/// The LRU list threaded through the slots.
#[derive(Clone, Debug)]
struct List {
    nodes: Vec<Node>,
    /// Most recently used resident line (`NIL` when empty).
    head: u32,
    /// Least recently used resident line.
    tail: u32,
}

impl List {
    #[inline]
    fn unlink(&mut self, i: u32) {
        let Node { prev, next, .. } = self.nodes[i as usize];
        if prev == NIL {
            self.head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
    }

    #[inline]
    fn push_front(&mut self, i: u32) {
        self.nodes[i as usize].prev = NIL;
        self.nodes[i as usize].next = self.head;
        if self.head != NIL {
            self.nodes[self.head as usize].prev = i;
        } else {
            self.tail = i;
        }
        self.head = i;
    }
}

/// Fully associative LRU cache of `capacity` lines that remembers every line it has seen.
///
/// `resident` maps the resident lines to their slots: at most `capacity` entries, so the lookup
/// every access makes stays in a small, hot table. `seen` (every line ever accessed) is
/// consulted only when the fully associative cache misses.
///
/// `seen` is the engines' [`BlockSet`] (a direct-mapped bit of an array per dense page of line
/// numbers, a hash table for sparse ones): it grows with the footprint, where a hash table's
/// probes miss the CPU caches (that insert was the largest single cost of `measure`), and
/// lines of real programs come in dense runs. `resident` stays a small hash map.
#[derive(Clone)]
pub struct FaShadow {
    capacity: usize,
    resident: LineMap<u32>,
    seen: BlockSet,
    list: List,
    free: Vec<u32>,
}

impl std::fmt::Debug for FaShadow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaShadow")
            .field("capacity", &self.capacity)
            .field("resident", &self.resident.len())
            .field("seen", &self.seen.len())
            .finish()
    }
}

impl FaShadow {
    /// An empty cache of `capacity` lines (at least 1).
    pub fn new(capacity: u64) -> Self {
        FaShadow {
            capacity: capacity.max(1) as usize,
            resident: LineMap::default(),
            seen: BlockSet::default(),
            list: List {
                nodes: Vec::new(),
                head: NIL,
                tail: NIL,
            },
            free: Vec::new(),
        }
    }

    /// Accesses one line: moves it to the MRU position, allocating it (and evicting the LRU
    /// line when full) if it is not resident.
    #[inline]
    pub fn access(&mut self, line: u64) -> ShadowResult {
        if let Some(&i) = self.resident.get(&line) {
            if self.list.head != i {
                self.list.unlink(i);
                self.list.push_front(i);
            }
            return ShadowResult::Hit;
        }
        let result = if self.seen.insert(line) {
            ShadowResult::First
        } else {
            ShadowResult::Miss
        };
        // Allocate: the LRU line's slot when full, else a free or new one.
        let i = if self.resident.len() == self.capacity {
            let victim = self.list.tail;
            self.list.unlink(victim);
            self.resident.remove(&self.list.nodes[victim as usize].line);
            victim
        } else {
            match self.free.pop() {
                Some(i) => i,
                None => {
                    self.list.nodes.push(Node {
                        line,
                        prev: NIL,
                        next: NIL,
                    });
                    (self.list.nodes.len() - 1) as u32
                }
            }
        };
        self.list.nodes[i as usize].line = line;
        self.list.push_front(i);
        self.resident.insert(line, i);
        result
    }

    /// Drops a line if resident (it stays "seen").
    pub fn invalidate(&mut self, line: u64) {
        if let Some(i) = self.resident.remove(&line) {
            self.list.unlink(i);
            self.free.push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_of_two_lines_by_hand() {
        let mut s = FaShadow::new(2);
        use ShadowResult::*;
        let got: Vec<_> = [1, 2, 1, 3, 2, 1, 1].iter().map(|&l| s.access(l)).collect();
        // 1 first, 2 first, 1 hit (order 1,2), 3 first evicts 2, 2 miss evicts 1, 1 miss, 1 hit.
        assert_eq!(got, [First, First, Hit, First, Miss, Miss, Hit]);
        s.invalidate(1);
        assert_eq!(s.access(1), Miss);
        assert_eq!(s.access(2), Hit);
    }

    /// A fully associative LRU cache as a list, most recent first, and the lines seen.
    struct NaiveFa {
        capacity: usize,
        lru: Vec<u64>,
        seen: std::collections::HashSet<u64>,
    }

    impl NaiveFa {
        fn access(&mut self, line: u64) -> ShadowResult {
            let first = self.seen.insert(line);
            let result = match self.lru.iter().position(|&l| l == line) {
                Some(k) => {
                    self.lru.remove(k);
                    ShadowResult::Hit
                }
                None if first => ShadowResult::First,
                None => ShadowResult::Miss,
            };
            self.lru.insert(0, line);
            self.lru.truncate(self.capacity);
            result
        }

        fn invalidate(&mut self, line: u64) {
            self.lru.retain(|&l| l != line);
        }
    }

    proptest::proptest! {
        /// The map and the list give a plain LRU cache's answers, with invalidations mixed in.
        #[test]
        fn equals_a_naive_lru(
            capacity in 1u64..24,
            ops in proptest::collection::vec((0u64..40, 0u8..8), 0..600),
        ) {
            let mut fast = FaShadow::new(capacity);
            let mut naive = NaiveFa {
                capacity: capacity as usize,
                lru: Vec::new(),
                seen: Default::default(),
            };
            for (line, op) in ops {
                if op == 0 {
                    fast.invalidate(line);
                    naive.invalidate(line);
                } else {
                    proptest::prop_assert_eq!(fast.access(line), naive.access(line));
                }
                proptest::prop_assert_eq!(fast.resident.len(), naive.lru.len());
            }
        }
    }
}
