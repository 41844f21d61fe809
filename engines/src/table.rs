//! An open-addressing hash table from block ids to a 32-bit payload, tuned for reuse analysis.
//!
//! Every engine needs "block → where was it last seen". `std::collections::HashMap` with SipHash
//! costs more than the rest of the fast engine put together, so this module provides:
//!
//! * [`BlockTable`]: linear probing, power-of-two capacity, load factor ≤ 1/2, backward-shift
//!   deletion (no tombstones, so long runs with deletions never degrade), and a
//!   *locality-preserving* bucket function: the low 3 bits of a block id pick the bucket inside
//!   an 8-bucket group (128 bytes, two cache lines) and only the remaining bits are hashed to pick
//!   the group. Consecutive blocks (sweeps over an array, the common case in real traces) then
//!   share cache lines, while strided or clustered patterns are still spread by the mixer.
//!
//! Plain `HashMap`s elsewhere (Olken baseline, HP-RDA tables, paths, simt) use
//! `rustc_hash::FxHashMap`; [`mix64`] is the one bit mixer of the workspace.

/// Marker for an empty bucket. A real block equal to it is kept out of line in `max_key`.
const EMPTY: u64 = u64::MAX;
/// Buckets per locality group (consecutive block ids land in the same group).
const GROUP_BITS: u32 = 3;
const GROUP: usize = 1 << GROUP_BITS;

/// 64-bit mixer (the finaliser of MurmurHash3): cheap, and every input bit affects the high bits
/// that we use to choose a group.
#[inline(always)]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

#[derive(Clone, Copy)]
#[repr(C)]
struct Bucket {
    key: u64,
    val: u32,
}

const EMPTY_BUCKET: Bucket = Bucket { key: EMPTY, val: 0 };

/// Hash table `u64 → u32` with linear probing; see the module documentation for the layout.
#[derive(Clone)]
pub struct BlockTable {
    buckets: Vec<Bucket>,
    /// `buckets.len() - 1` (capacity is a power of two).
    mask: usize,
    /// Shift that turns a 64-bit hash into a group index (`64 - log2(groups)`).
    group_shift: u32,
    /// Number of keys stored in `buckets` (excluding `max_key`).
    len: usize,
    /// Payload of the block `u64::MAX`, which cannot live in a bucket.
    max_key: Option<u32>,
}

impl Default for BlockTable {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl BlockTable {
    /// A table able to hold `n` keys without growing.
    pub fn with_capacity(n: usize) -> Self {
        // Load factor ≤ 1/2, at least two groups so the group index has at least one bit.
        let cap = (n.max(1) * 2).next_power_of_two().max(2 * GROUP);
        BlockTable {
            buckets: vec![EMPTY_BUCKET; cap],
            mask: cap - 1,
            group_shift: 64 - (cap / GROUP).trailing_zeros(),
            len: 0,
            max_key: None,
        }
    }

    /// Number of keys stored.
    #[inline]
    pub fn len(&self) -> usize {
        self.len + self.max_key.is_some() as usize
    }

    /// Whether the table is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes held by the table.
    pub fn heap_bytes(&self) -> usize {
        self.buckets.capacity() * std::mem::size_of::<Bucket>()
    }

    /// Removes every key, keeping the allocation.
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.buckets.fill(EMPTY_BUCKET);
        }
        self.len = 0;
        self.max_key = None;
    }

    /// Home bucket of `key`: the group comes from the mixed high bits, the position inside the
    /// group from the low bits, so neighbouring blocks share cache lines.
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        let group = (mix64(key >> GROUP_BITS) >> self.group_shift) as usize;
        ((group << GROUP_BITS) | (key as usize & (GROUP - 1))) & self.mask
    }

    /// Index of the bucket holding `key`, or of the empty bucket where it would go.
    #[inline(always)]
    fn find(&self, key: u64) -> (usize, bool) {
        let mut i = self.home(key);
        loop {
            // SAFETY-free indexing: `i` is always masked.
            let k = self.buckets[i].key;
            if k == key {
                return (i, true);
            }
            if k == EMPTY {
                return (i, false);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Hints the CPU to start loading `key`'s home bucket, so that a lookup a few references
    /// later finds it in cache (the table is far bigger than the caches for large M, and the
    /// trace is known ahead, so this turns serial cache misses into parallel ones).
    /// Two lines are fetched because linear probing at group granularity moves keys about
    /// two buckets past their home (measured on the benchmark workload: 1.5 cache lines per
    /// lookup); fetching the second line only when the home is in the second half of its line
    /// measured slower.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let p = self.buckets.as_ptr().wrapping_add(self.home(key));
        prefetch_read(p);
        prefetch_read(p.wrapping_add(4));
    }

    /// The payload of `key`, if present.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        if key == EMPTY {
            return self.max_key;
        }
        let (i, found) = self.find(key);
        found.then(|| self.buckets[i].val)
    }

    /// Sets the payload of `key` to `val`, returning the previous payload if the key was present.
    #[inline]
    pub fn insert(&mut self, key: u64, val: u32) -> Option<u32> {
        if key == EMPTY {
            return self.max_key.replace(val);
        }
        // Grow before probing so the returned bucket index stays valid.
        if (self.len + 1) * 2 > self.buckets.len() {
            self.grow();
        }
        let (i, found) = self.find(key);
        let b = &mut self.buckets[i];
        if found {
            Some(std::mem::replace(&mut b.val, val))
        } else {
            b.key = key;
            b.val = val;
            self.len += 1;
            None
        }
    }

    /// Mutable access to the payload of `key`, if present.
    #[inline]
    pub fn get_mut(&mut self, key: u64) -> Option<&mut u32> {
        if key == EMPTY {
            return self.max_key.as_mut();
        }
        let (i, found) = self.find(key);
        found.then(|| &mut self.buckets[i].val)
    }

    /// Removes `key`, returning its payload. Uses backward-shift deletion so that probe chains
    /// stay intact without tombstones.
    pub fn remove(&mut self, key: u64) -> Option<u32> {
        if key == EMPTY {
            return self.max_key.take();
        }
        let (mut hole, found) = self.find(key);
        if !found {
            return None;
        }
        let val = self.buckets[hole].val;
        let mut j = hole;
        loop {
            j = (j + 1) & self.mask;
            let k = self.buckets[j].key;
            if k == EMPTY {
                break;
            }
            let home = self.home(k);
            // The entry at `j` may move into the hole only if its home is not cyclically inside
            // (hole, j]; otherwise moving it would put it before its home.
            let dist_home = j.wrapping_sub(home) & self.mask;
            let dist_hole = j.wrapping_sub(hole) & self.mask;
            if dist_home >= dist_hole {
                self.buckets[hole] = self.buckets[j];
                hole = j;
            }
        }
        self.buckets[hole] = EMPTY_BUCKET;
        self.len -= 1;
        Some(val)
    }

    /// Applies `f` to every payload (used by timestamp compaction to renumber all slots in one
    /// sequential pass instead of one random access per live block).
    pub fn map_values(&mut self, mut f: impl FnMut(u32) -> u32) {
        for b in &mut self.buckets {
            if b.key != EMPTY {
                b.val = f(b.val);
            }
        }
        if let Some(v) = self.max_key.as_mut() {
            *v = f(*v);
        }
    }

    /// Calls `f(key, payload)` for every entry, in no particular order.
    pub fn for_each(&self, mut f: impl FnMut(u64, u32)) {
        for b in &self.buckets {
            if b.key != EMPTY {
                f(b.key, b.val);
            }
        }
        if let Some(v) = self.max_key {
            f(EMPTY, v);
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.buckets);
        let cap = old.len() * 2;
        self.buckets = vec![EMPTY_BUCKET; cap];
        self.mask = cap - 1;
        self.group_shift = 64 - (cap / GROUP).trailing_zeros();
        for b in old {
            if b.key != EMPTY {
                let (i, _) = self.find(b.key);
                self.buckets[i] = b;
            }
        }
    }
}

/// Prefetch hint for the cache line holding `p` (no-op off x86-64). Prefetching never faults,
/// so any address, even a dangling one, is fine.
#[inline(always)]
pub fn prefetch_read<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` is a hint; it has no architectural effect and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn table_matches_std_hashmap_under_inserts_and_removes() {
        let mut t = BlockTable::with_capacity(4);
        let mut m: HashMap<u64, u32> = HashMap::new();
        let mut x = 12345u64;
        for i in 0..200_000u32 {
            x = mix64(x.wrapping_add(i as u64));
            // Mix dense keys (locality groups collide a lot) with sparse ones and u64::MAX.
            let key = match x % 4 {
                0 => x % 512,
                1 => (x % 64) << 20,
                2 => u64::MAX - (x % 3),
                _ => x % 5000,
            };
            if x & 3 == 0 {
                assert_eq!(t.remove(key), m.remove(&key), "remove {key}");
            } else {
                assert_eq!(t.insert(key, i), m.insert(key, i), "insert {key}");
            }
            assert_eq!(t.len(), m.len());
        }
        for (&k, &v) in &m {
            assert_eq!(t.get(k), Some(v));
        }
        let mut n = 0;
        t.for_each(|k, v| {
            assert_eq!(m.get(&k), Some(&v));
            n += 1;
        });
        assert_eq!(n, m.len());
    }
}
