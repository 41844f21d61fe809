//! [`RecentRecords`]: the path collector's cache of the records used lately.
//!
//! Every access is charged to its (instruction, window) record. Programs reuse a few thousand
//! such pairs at a time even when they make hundreds of thousands in all (app_mix: 94 % of
//! the lookups hit 2^14 direct-mapped slots, against 8 % for one slot per instruction; 412 K
//! records), and 256 KiB of slots stay in the core's cache where the record table does not.

/// A direct-mapped cache of `(instruction, window key) -> record` in front of the record
/// table.
pub(crate) struct RecentRecords {
    /// `(window key, instruction, record + 1)`; record 0 marks an empty slot.
    slots: Box<[(u64, u32, u32)]>,
}

impl RecentRecords {
    const BITS: u32 = 14;

    /// An empty cache.
    pub(crate) fn new() -> Self {
        RecentRecords {
            slots: vec![(0, 0, 0); 1 << Self::BITS].into_boxed_slice(),
        }
    }

    /// The slot of a pair (the key is already a mixed hash).
    #[inline]
    pub(crate) fn slot(&self, mi: u32, key: u64) -> usize {
        let h = (key ^ mi as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - Self::BITS)) as usize
    }

    /// The record in `slot` if it is the pair's.
    #[inline]
    pub(crate) fn get(&self, slot: usize, mi: u32, key: u64) -> Option<u32> {
        let (k, m, r) = self.slots[slot];
        (r != 0 && k == key && m == mi).then(|| r - 1)
    }

    /// Makes `record` the pair's entry in `slot`.
    #[inline]
    pub(crate) fn put(&mut self, slot: usize, mi: u32, key: u64, record: u32) {
        self.slots[slot] = (key, mi, record + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot answers only for its own pair: another instruction under the same window, or
    /// another window of the same instruction, that lands in the same slot is a miss.
    #[test]
    fn a_slot_answers_for_its_own_pair_only() {
        let mut recent = RecentRecords::new();
        let (mi, key) = (3, rdengines::mix64(77));
        let slot = recent.slot(mi, key);
        assert_eq!(recent.get(slot, mi, key), None);
        recent.put(slot, mi, key, 0);
        assert_eq!(recent.get(slot, mi, key), Some(0));
        let other_mi = (0..)
            .find(|&m| m != mi && recent.slot(m, key) == slot)
            .unwrap();
        assert_eq!(recent.get(slot, other_mi, key), None);
        let other_key = (0..)
            .map(rdengines::mix64)
            .find(|&k| k != key && recent.slot(mi, k) == slot)
            .unwrap();
        assert_eq!(recent.get(slot, mi, other_key), None);
        recent.put(slot, other_mi, key, 41);
        assert_eq!(recent.get(slot, other_mi, key), Some(41));
        assert_eq!(recent.get(slot, mi, key), None);
    }
}
