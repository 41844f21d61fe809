//! [`BlockMap`]: the block → slot map of the fast engine. A direct-mapped array where the block
//! space is dense, a hash table where it is sparse.
//!
//! Reuse analysis looks up "where was block `b` last seen" once per reference, and with
//! M ≈ 10^6 blocks a hash table of 16-byte buckets at load ≤ 1/2 is 16–32 MiB: nearly every
//! lookup is a cache miss, often two (the bucket is not where the key hashes when probing moves
//! it). But block ids are addresses divided by a granularity, and real programs (and the
//! benchmark) touch them in dense clusters. So the block space is cut into *pages* of
//! [`PAGE`] consecutive blocks:
//!
//! * A small **directory** (a [`BlockTable`] keyed by page number, a few KiB for a million
//!   blocks, so it stays in L1/L2) says, for every page that holds a key, either "paged: array
//!   number `i`" or "sparse: `n` keys in the hash table".
//! * A **paged** page is a plain `[u32; PAGE]` indexed by the low bits of the block (4 bytes
//!   per block, no hashing, no probing, and neighbouring blocks share cache lines).
//! * Keys of other pages live in a [`BlockTable`] (the **sparse** table). When a page collects
//!   [`PROMOTE`] keys there it is *promoted*: its keys move to a new array. The array then costs
//!   at most `4 · PAGE / PROMOTE` = 64 bytes per key that triggered it, comparable to the
//!   hash table's 32–64 bytes per key, so memory stays O(number of keys ever live).
//!
//! Pages are never demoted, and [`clear`](BlockMap::clear) keeps them (emptied): a structure
//! that is cleared and refilled with similar blocks (PARDA's per-rank stacks, every phase) gets
//! its pages back without re-promoting. The cost of a lookup is then one L1/L2 directory probe
//! plus one array load, i.e. one dependent cache miss instead of two, and for a trace of
//! sparse keys one extra directory probe in front of the hash table.

use crate::table::{prefetch_read, BlockTable};

/// log2 of the page size.
pub const PAGE_BITS: u32 = 12;
/// Blocks per page (16 KiB of `u32` slots).
pub const PAGE: usize = 1 << PAGE_BITS;
/// Sparse keys in one page that trigger its promotion to an array.
pub const PROMOTE: u32 = (PAGE / 16) as u32;
/// Directory flag: the page is an array (the low bits are its index in `pages`).
const PAGED: u32 = 1 << 31;
/// Payload marking an empty array entry; [`BlockMap`] payloads must differ from it.
pub const VACANT: u32 = u32::MAX;

type Page = Box<[u32; PAGE]>;

fn vacant_page() -> Page {
    vec![VACANT; PAGE]
        .into_boxed_slice()
        .try_into()
        .expect("length is PAGE")
}

#[inline(always)]
fn offset(key: u64) -> usize {
    key as usize & (PAGE - 1)
}

/// Map `u64 → u32` (payload ≠ [`VACANT`]); see the module documentation.
#[derive(Clone, Default)]
pub struct BlockMap {
    /// Page number → `PAGED | index into pages`, or the number of the page's keys in `sparse`.
    dir: BlockTable,
    /// Arrays of promoted pages.
    pages: Vec<Page>,
    /// Keys of pages that are not arrays.
    sparse: BlockTable,
    /// Number of keys stored.
    len: usize,
}

impl BlockMap {
    /// A map expected to hold about `n` keys (sizes only the sparse table; pages come on demand).
    pub fn with_capacity(n: usize) -> Self {
        BlockMap {
            dir: BlockTable::with_capacity((n / PAGE).max(16)),
            pages: Vec::new(),
            sparse: BlockTable::with_capacity(n.min(1 << 12)),
            len: 0,
        }
    }

    /// Number of keys stored.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pages held as arrays.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.dir.heap_bytes()
            + self.sparse.heap_bytes()
            + self.pages.capacity() * std::mem::size_of::<Page>()
            + self.pages.len() * PAGE * 4
    }

    /// Removes every key. Array pages stay arrays (emptied), so refilling with similar blocks
    /// needs no promotion; the sparse table keeps its allocation.
    pub fn clear(&mut self) {
        if self.len == 0 {
            return;
        }
        self.sparse.clear();
        if self.dir.len() > self.pages.len() {
            // Drop the sparse counts, keep the array pages.
            let mut paged = Vec::with_capacity(self.pages.len());
            self.dir.for_each(|page, d| {
                if d & PAGED != 0 {
                    paged.push((page, d));
                }
            });
            self.dir.clear();
            for (page, d) in paged {
                self.dir.insert(page, d);
            }
        }
        for p in &mut self.pages {
            p.fill(VACANT);
        }
        self.len = 0;
    }

    /// Hints the CPU to start loading what a lookup of `key` reads last: its array entry, or
    /// its sparse-table bucket. (The directory probe it needs first is a cache hit.)
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        match self.dir.get(key >> PAGE_BITS) {
            Some(d) if d & PAGED != 0 => prefetch_read(
                self.pages[(d & !PAGED) as usize]
                    .as_ptr()
                    .wrapping_add(offset(key)),
            ),
            Some(_) => self.sparse.prefetch(key),
            None => {}
        }
    }

    /// The payload of `key`, if present.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<u32> {
        match self.dir.get(key >> PAGE_BITS) {
            Some(d) if d & PAGED != 0 => {
                let v = self.pages[(d & !PAGED) as usize][offset(key)];
                (v != VACANT).then_some(v)
            }
            Some(_) => self.sparse.get(key),
            None => None,
        }
    }

    /// Sets the payload of `key` to `val` (≠ [`VACANT`]), returning the previous payload if the
    /// key was present.
    #[inline(always)]
    pub fn insert(&mut self, key: u64, val: u32) -> Option<u32> {
        debug_assert_ne!(val, VACANT);
        let page = key >> PAGE_BITS;
        match self.dir.get_mut(page) {
            Some(d) if *d & PAGED != 0 => {
                let e = &mut self.pages[(*d & !PAGED) as usize][offset(key)];
                let old = std::mem::replace(e, val);
                if old == VACANT {
                    self.len += 1;
                    None
                } else {
                    Some(old)
                }
            }
            Some(d) => {
                let old = self.sparse.insert(key, val);
                if old.is_none() {
                    self.len += 1;
                    *d += 1;
                    if *d >= PROMOTE {
                        self.promote(page);
                    }
                }
                old
            }
            None => {
                self.dir.insert(page, 1);
                self.sparse.insert(key, val);
                self.len += 1;
                None
            }
        }
    }

    /// Removes `key`, returning its payload.
    #[inline]
    pub fn remove(&mut self, key: u64) -> Option<u32> {
        let page = key >> PAGE_BITS;
        match self.dir.get_mut(page) {
            Some(d) if *d & PAGED != 0 => {
                let e = &mut self.pages[(*d & !PAGED) as usize][offset(key)];
                let old = std::mem::replace(e, VACANT);
                if old == VACANT {
                    None
                } else {
                    self.len -= 1;
                    Some(old)
                }
            }
            Some(d) => {
                let old = self.sparse.remove(key)?;
                self.len -= 1;
                *d -= 1;
                if *d == 0 {
                    self.dir.remove(page);
                }
                Some(old)
            }
            None => None,
        }
    }

    /// Moves the sparse keys of `page` into a new array page.
    #[cold]
    fn promote(&mut self, page: u64) {
        let idx = self.pages.len();
        assert!(idx < PAGED as usize, "BlockMap: too many pages");
        let mut arr = vacant_page();
        let base = page << PAGE_BITS;
        let mut left = PROMOTE;
        for (off, e) in arr.iter_mut().enumerate() {
            if let Some(v) = self.sparse.remove(base | off as u64) {
                *e = v;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        self.pages.push(arr);
        self.dir.insert(page, PAGED | idx as u32);
    }

    /// Applies `f` to every payload (one sequential pass over the arrays and the sparse table).
    pub fn map_values(&mut self, mut f: impl FnMut(u32) -> u32) {
        for p in &mut self.pages {
            for e in p.iter_mut() {
                if *e != VACANT {
                    *e = f(*e);
                }
            }
        }
        self.sparse.map_values(f);
    }

    /// Calls `f(key, payload)` for every entry, in no particular order.
    pub fn for_each(&self, mut f: impl FnMut(u64, u32)) {
        self.dir.for_each(|page, d| {
            if d & PAGED != 0 {
                let base = page << PAGE_BITS;
                for (off, &v) in self.pages[(d & !PAGED) as usize].iter().enumerate() {
                    if v != VACANT {
                        f(base | off as u64, v);
                    }
                }
            }
        });
        self.sparse.for_each(f);
    }
}

/// A set of block ids (a [`BlockMap`] with unit payload); bounded
/// engines use it to tell cold misses from capacity misses.
#[derive(Clone, Default)]
pub struct BlockSet {
    table: BlockMap,
}

impl BlockSet {
    /// Inserts `key`; returns `true` if it was not present.
    #[inline]
    pub fn insert(&mut self, key: u64) -> bool {
        self.table.insert(key, 0).is_none()
    }

    /// Whether `key` is present.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.table.get(key).is_some()
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::mix64;
    use std::collections::HashMap;

    #[test]
    fn map_matches_std_hashmap() {
        let mut t = BlockMap::with_capacity(4);
        let mut m: HashMap<u64, u32> = HashMap::new();
        let mut x = 99u64;
        for round in 0..3 {
            for i in 0..300_000u32 {
                x = mix64(x.wrapping_add(i as u64));
                // Dense keys (pages get promoted), sparse keys, and the extremes.
                let key = match x % 5 {
                    0 | 1 => x % 20_000,
                    2 => (x % 64) << 30,
                    3 => u64::MAX - (x % 3),
                    _ => x >> 3,
                };
                if x & 7 < 2 {
                    assert_eq!(t.remove(key), m.remove(&key), "remove {key}");
                } else {
                    assert_eq!(t.insert(key, i), m.insert(key, i), "insert {key}");
                }
                assert_eq!(t.len(), m.len());
            }
            assert!(t.pages() > 0);
            for (&k, &v) in &m {
                assert_eq!(t.get(k), Some(v));
            }
            let mut n = 0;
            t.for_each(|k, v| {
                assert_eq!(m.get(&k), Some(&v));
                n += 1;
            });
            assert_eq!(n, m.len());
            t.map_values(|v| v / 2);
            for (&k, &v) in &m {
                assert_eq!(t.get(k), Some(v / 2));
            }
            if round < 2 {
                t.clear();
                m.clear();
                assert!(t.is_empty());
                assert_eq!(t.get(5), None);
            }
        }
    }

    #[test]
    fn set_reports_first_insertion_only() {
        let mut s = BlockSet::default();
        assert!(s.insert(7));
        assert!(!s.insert(7));
        assert!(s.insert(u64::MAX));
        assert!(s.contains(u64::MAX));
        assert_eq!(s.len(), 2);
    }
}
