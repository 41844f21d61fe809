//! A set of live timestamp slots with fast "how many live slots are later than `s`" queries.
//!
//! This is the counting structure of the fast engine: it replaces the Olken tree. Only the last
//! access of every block holds a live slot, so the number of live slots after a block's previous
//! slot is exactly its reuse distance.
//!
//! Layout (all levels cache-line sized, so a query touches one line per level):
//!
//! * a bitmap, one bit per slot; 8 words (512 slots, one 64-byte line) form a *line group*;
//! * level 0: one `u32` count per line group;
//! * level `k + 1`: one `u32` per 16 entries (one line) of level `k`, up to a top level of at
//!   most 16 entries.
//!
//! A suffix count is a popcount inside one word, up to 7 more popcounts in the same line, and at
//! most 15 additions per level; an update is one bit flip plus one increment per level. For the
//! ~2 M-slot structures that a million live blocks need, that is four levels in about 260 KiB,
//! which stays in L2 — a textbook Fenwick tree over raw timestamps grows with N instead and
//! costs a cache miss per level.

/// Words per line group (one 64-byte cache line of bitmap).
const LINE_WORDS: usize = 8;
/// Bits per line group.
pub const LINE_BITS: usize = LINE_WORDS * 64;
/// Fan-out of the count levels (16 × u32 = one cache line).
const FAN: usize = 16;

/// One cache line of bitmap.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct BitLine([u64; LINE_WORDS]);

/// One cache line of counts.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct CountLine([u32; FAN]);

/// `AFTER[k][j]` = all ones if `j > k`, else 0: the lane mask of "entries after `k`".
const AFTER: [[u32; FAN]; FAN] = {
    let mut m = [[0u32; FAN]; FAN];
    let mut k = 0;
    while k < FAN {
        let mut j = k + 1;
        while j < FAN {
            m[k][j] = u32::MAX;
            j += 1;
        }
        k += 1;
    }
    m
};

/// `WORD_AFTER[k][j]` = all ones if `j > k`, else 0 (the same for the words of a bit line).
const WORD_AFTER: [[u64; LINE_WORDS]; LINE_WORDS] = {
    let mut m = [[0u64; LINE_WORDS]; LINE_WORDS];
    let mut k = 0;
    while k < LINE_WORDS {
        let mut j = k + 1;
        while j < LINE_WORDS {
            m[k][j] = u64::MAX;
            j += 1;
        }
        k += 1;
    }
    m
};

/// Sum of the entries of `line` after position `k`: a masked 16-lane sum from a mask table,
/// branch-free (two AND/ADD pairs and a horizontal add with AVX2).
#[inline(always)]
fn sum_after(line: &CountLine, k: usize) -> u64 {
    let mut s = 0u32;
    for (&c, &m) in line.0.iter().zip(&AFTER[k]) {
        s = s.wrapping_add(c & m);
    }
    s as u64
}

/// Bitmap of live slots plus per-line and per-group counts; see the module documentation.
#[derive(Clone, Default)]
pub struct LiveSet {
    lines: Vec<BitLine>,
    /// `levels[0]` has one count per bit line, `levels[k+1]` one per count line of
    /// `levels[k]`; every level is padded with zeros to whole count lines, and the last level
    /// is a single count line.
    levels: Vec<Vec<CountLine>>,
    total: u64,
}

impl LiveSet {
    /// An empty set able to hold slots `0..capacity` (rounded up to a multiple of 512).
    pub fn with_capacity(capacity: usize) -> Self {
        let mut s = LiveSet::default();
        s.reset(capacity, 0);
        s
    }

    /// Slots representable (`0..capacity()`).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.lines.len() * LINE_BITS
    }

    /// Number of live slots.
    #[inline]
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether no slot is live.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.lines.capacity() * 64 + self.levels.iter().map(|l| l.capacity() * 64).sum::<usize>()
    }

    #[inline(always)]
    fn word(&self, w: usize) -> u64 {
        self.lines[w / LINE_WORDS].0[w % LINE_WORDS]
    }

    #[inline(always)]
    fn word_mut(&mut self, w: usize) -> &mut u64 {
        &mut self.lines[w / LINE_WORDS].0[w % LINE_WORDS]
    }

    fn nwords(&self) -> usize {
        self.lines.len() * LINE_WORDS
    }

    /// Re-sizes to `capacity` slots (rounded up to whole lines) with exactly the slots
    /// `0..live` set: the state right after timestamp compaction.
    pub fn reset(&mut self, capacity: usize, live: usize) {
        let nlines = capacity.max(LINE_BITS).div_ceil(LINE_BITS);
        assert!(live <= nlines * LINE_BITS);
        self.lines.clear();
        self.lines.resize(nlines, BitLine::default());
        for w in 0..live / 64 {
            *self.word_mut(w) = u64::MAX;
        }
        if live & 63 != 0 {
            *self.word_mut(live / 64) = (1u64 << (live % 64)) - 1;
        }
        self.total = live as u64;
        self.rebuild_levels();
    }

    /// Recomputes every count level from the bitmap.
    fn rebuild_levels(&mut self) {
        let mut counts: Vec<u32> = self
            .lines
            .iter()
            .map(|l| l.0.iter().map(|w| w.count_ones()).sum())
            .collect();
        self.levels.clear();
        loop {
            let lv: Vec<CountLine> = counts
                .chunks(FAN)
                .map(|c| {
                    let mut line = CountLine::default();
                    line.0[..c.len()].copy_from_slice(c);
                    line
                })
                .collect();
            counts = lv.iter().map(|l| l.0.iter().sum()).collect();
            let done = lv.len() == 1;
            self.levels.push(lv);
            if done {
                break;
            }
        }
    }

    /// Prefetch hint for the bitmap word of `slot`.
    #[inline(always)]
    pub fn prefetch(&self, slot: usize) {
        crate::table::prefetch_read(self.lines.as_ptr().wrapping_add(slot / LINE_BITS));
    }

    /// Whether `slot` is live.
    #[inline]
    pub fn contains(&self, slot: usize) -> bool {
        self.word(slot / 64) >> (slot % 64) & 1 == 1
    }

    /// Marks `slot` live (it must not be).
    #[inline(always)]
    pub fn set(&mut self, slot: usize) {
        debug_assert!(!self.contains(slot));
        *self.word_mut(slot / 64) |= 1u64 << (slot % 64);
        self.bump(slot / LINE_BITS, true);
    }

    /// Marks `slot` dead (it must be live).
    #[inline(always)]
    pub fn clear(&mut self, slot: usize) {
        debug_assert!(self.contains(slot));
        *self.word_mut(slot / 64) &= !(1u64 << (slot % 64));
        self.bump(slot / LINE_BITS, false);
    }

    #[inline(always)]
    fn bump(&mut self, mut idx: usize, up: bool) {
        for lv in self.levels.iter_mut() {
            let c = &mut lv[idx / FAN].0[idx % FAN];
            if up {
                *c += 1;
            } else {
                *c -= 1;
            }
            idx /= FAN;
        }
        if up {
            self.total += 1;
        } else {
            self.total -= 1;
        }
    }

    /// Number of live slots strictly greater than `slot` — the reuse distance of a block whose
    /// previous access holds `slot`.
    #[inline(always)]
    pub fn count_after(&self, slot: usize) -> u64 {
        let line = &self.lines[slot / LINE_BITS].0;
        let wi = (slot / 64) % LINE_WORDS;
        // `>> b >> 1` drops bits 0..=b without overflowing the shift when b = 63.
        let mut s = ((line[wi] >> (slot % 64)) >> 1).count_ones() as u64;
        for (&x, &m) in line.iter().zip(&WORD_AFTER[wi]) {
            s += (x & m).count_ones() as u64;
        }
        let mut idx = slot / LINE_BITS;
        for lv in &self.levels {
            s += sum_after(&lv[idx / FAN], idx % FAN);
            idx /= FAN;
        }
        s
    }

    /// The first live slot `>= from`, if any.
    pub fn first_from(&self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        let n = self.nwords();
        if w >= n {
            return None;
        }
        let first = self.word(w) & (u64::MAX << (from % 64));
        if first != 0 {
            return Some(w * 64 + first.trailing_zeros() as usize);
        }
        w += 1;
        while w < n {
            // Skip whole empty lines using the level-0 counts.
            let l = w / LINE_WORDS;
            if w & (LINE_WORDS - 1) == 0 && self.levels[0][l / FAN].0[l % FAN] == 0 {
                w += LINE_WORDS;
                continue;
            }
            let x = self.word(w);
            if x != 0 {
                return Some(w * 64 + x.trailing_zeros() as usize);
            }
            w += 1;
        }
        None
    }

    /// Calls `f(slot)` for every live slot in increasing order.
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        for w in 0..self.nwords() {
            let mut x = self.word(w);
            while x != 0 {
                f(w * 64 + x.trailing_zeros() as usize);
                x &= x - 1;
            }
        }
    }

    /// `rank[w]` = number of live slots in words `0..w`; with it, the rank of any live slot is
    /// `rank[w] + popcount(lower bits)`, which is how compaction renumbers slots.
    pub fn word_ranks(&self) -> Vec<u32> {
        let mut acc = 0u32;
        (0..self.nwords())
            .map(|w| {
                let r = acc;
                acc += self.word(w).count_ones();
                r
            })
            .collect()
    }

    /// Rank of live `slot` given [`word_ranks`](Self::word_ranks).
    #[inline]
    pub fn rank_with(&self, ranks: &[u32], slot: usize) -> u32 {
        let w = slot / 64;
        ranks[w] + (self.word(w) & ((1u64 << (slot % 64)) - 1)).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_brute_force() {
        let mut s = LiveSet::with_capacity(40_000);
        let cap = s.capacity();
        let mut live = vec![false; cap];
        let mut x = 88172645463325252u64;
        for _ in 0..30_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let slot = (x % cap as u64) as usize;
            if live[slot] {
                s.clear(slot);
            } else {
                s.set(slot);
            }
            live[slot] = !live[slot];
            let q = ((x >> 20) % cap as u64) as usize;
            let want = live[q + 1..].iter().filter(|&&b| b).count() as u64;
            assert_eq!(s.count_after(q), want);
        }
        let first = live.iter().position(|&b| b);
        assert_eq!(s.first_from(0), first);
        let mut seen = Vec::new();
        s.for_each(|i| seen.push(i));
        assert_eq!(seen.len() as u64, s.len());
        let ranks = s.word_ranks();
        for (r, &slot) in seen.iter().enumerate() {
            assert_eq!(s.rank_with(&ranks, slot), r as u32);
        }
    }

    #[test]
    fn reset_sets_prefix() {
        let mut s = LiveSet::default();
        s.reset(1000, 700);
        assert_eq!(s.len(), 700);
        assert_eq!(s.count_after(0), 699);
        assert_eq!(s.count_after(699), 0);
        assert!(!s.contains(700));
        assert_eq!(s.first_from(0), Some(0));
    }
}
