//! Set sampling for the exact model: simulate only a random subset of cache sets and scale.
//!
//! Spatial sampling of blocks (SHARDS, `rdengines::shards`) scales *distances* by 1/R, which is
//! sound for large fully associative caches but not for an 8-way set: a sampled per-set distance
//! of 0 stands for anything from 0 to about 1/R real lines. Caches are a union of independent
//! sets, so the classic alternative for set-associative caches is *set sampling* (Kessler, Hill
//! and Wood, "A comparison of trace-sampling techniques for multi-megabyte caches", IEEE TC 1994):
//! every line of a sampled set is simulated exactly, every line of the other sets is skipped,
//! and counts are scaled by the inverse of the fraction of sets kept. The hits of a set depend
//! only on the references to that set, so each set's counts are exact and the scaled total is an
//! unbiased estimate of the full total (each set is kept with probability K/n).
//!
//! A private L1 and the L2 behind it are coupled (the L2 sees the L1's misses), so one sample
//! serves both: it keeps a line by its value in the address bits that belong to the set index of
//! *every* cache of the group (for power-of-two set counts, bit ranges `[shift, shift + log2
//! sets)` of the byte address). Then a kept line's L1 set and L2 set are kept whole: the L2 sees
//! exactly the L1 misses it would see without sampling, for the lines of its kept sets.

use rdengines::mix64;

/// Most address bits a sample decides on (a 2^24-bit table, 2 MiB, at the most).
const MAX_BITS: u32 = 24;

/// Settings of set sampling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetSampleConfig {
    /// Fraction of set groups to keep, in (0, 1]; the kept fraction is the nearest multiple of
    /// 1/2^bits (at least one group), where `bits` is the number of set-index bits the coupled
    /// caches share.
    pub rate: f64,
    /// Salt of the hash that ranks the groups (another seed draws another sample).
    pub seed: u64,
}

/// Which lines one group of coupled caches simulates: those whose address bits
/// `[shift, shift + bits)` take one of the kept values.
#[derive(Clone, Debug)]
pub struct SetSample {
    shift: u32,
    mask: u64,
    /// One bit per value of the shared bits.
    keep: Vec<u64>,
    kept: u64,
}

impl SetSample {
    /// The sample for caches given as `(line shift, set count)` that must be kept or dropped
    /// together, or `None` when nothing can be dropped: `rate` keeps every group, or the caches
    /// share no set-index bit ([`shared_bits`]).
    pub fn for_caches(caches: &[(u32, u64)], config: &SetSampleConfig) -> Option<Self> {
        let (shift, bits) = shared_bits(caches)?;
        Self::from_bits(shift, bits, config)
    }

    /// The sample of the values of address bits `[shift, shift + bits)`: the `K = round(rate ·
    /// 2^bits)` values (at least one) with the smallest seeded hashes, a simple random sample
    /// without replacement. `None` when `K` is every value.
    pub fn from_bits(shift: u32, bits: u32, config: &SetSampleConfig) -> Option<Self> {
        let n = 1u64 << bits.min(MAX_BITS);
        let kept = ((config.rate * n as f64).round() as u64).clamp(1, n);
        if kept == n {
            return None;
        }
        let salt = mix64(config.seed ^ 0x5e75_a3b1_e0c1_d00d);
        let mut ranked: Vec<(u64, u64)> = (0..n).map(|v| (mix64(v ^ salt), v)).collect();
        ranked.select_nth_unstable(kept as usize - 1);
        let mut keep = vec![0u64; n.div_ceil(64) as usize];
        for &(_, v) in &ranked[..kept as usize] {
            keep[(v / 64) as usize] |= 1 << (v % 64);
        }
        Some(SetSample {
            shift,
            mask: n - 1,
            keep,
            kept,
        })
    }

    /// A sample keeping exactly `values` of address bits `[shift, shift + bits)` (tests: a
    /// partition of the values into samples must add up to the unsampled counts).
    pub fn with_values(shift: u32, bits: u32, values: &[u64]) -> Self {
        let n = 1u64 << bits.min(MAX_BITS);
        let mut keep = vec![0u64; n.div_ceil(64) as usize];
        for &v in values {
            let v = v & (n - 1);
            keep[(v / 64) as usize] |= 1 << (v % 64);
        }
        let kept = keep.iter().map(|w| w.count_ones() as u64).sum();
        SetSample {
            shift,
            mask: n - 1,
            keep,
            kept,
        }
    }

    /// Whether the line holding byte address `byte` is simulated.
    #[inline(always)]
    pub fn keeps(&self, byte: u64) -> bool {
        let v = (byte >> self.shift) & self.mask;
        self.keep[(v / 64) as usize] >> (v % 64) & 1 == 1
    }

    /// Fraction of the set groups kept (the rate counts are scaled by).
    pub fn rate(&self) -> f64 {
        self.kept as f64 / (self.mask + 1) as f64
    }

    /// `count` of the kept sets scaled to all sets.
    pub fn scale(&self, count: u64) -> u64 {
        (count as f64 / self.rate()).round() as u64
    }
}

/// The address bits `(shift, bits)` that belong to the set index of every cache given as `(line
/// shift, set count)`: `[shift, shift + bits)`, at most 24 of them. `None` when there is no such
/// bit: a set count is not a power of two (its index mixes every bit), a cache is fully
/// associative, or the ranges do not overlap.
pub fn shared_bits(caches: &[(u32, u64)]) -> Option<(u32, u32)> {
    let mut lo = 0u32;
    let mut hi = u32::MAX;
    for &(shift, sets) in caches {
        if !sets.is_power_of_two() {
            return None;
        }
        lo = lo.max(shift);
        hi = hi.min(shift + sets.trailing_zeros());
    }
    (!caches.is_empty() && hi > lo).then(|| (lo, (hi - lo).min(MAX_BITS)))
}

/// `count` scaled by `sample` (unchanged without one).
pub fn scaled(sample: Option<&SetSample>, count: u64) -> u64 {
    sample.map_or(count, |s| s.scale(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(rate: f64) -> SetSampleConfig {
        SetSampleConfig { rate, seed: 7 }
    }

    #[test]
    fn shared_bits_of_an_l1_and_its_l2() {
        // 8K:8:64 (16 sets: bits 6..10) and 128K:16:64 (128 sets: bits 6..13) share bits 6..10;
        // 1/16 of them is one value.
        let s = SetSample::for_caches(&[(6, 16), (6, 128)], &cfg(0.01)).unwrap();
        assert_eq!((s.shift, s.mask, s.kept), (6, 15, 1));
        assert_eq!(s.rate(), 1.0 / 16.0);
        // Exactly one of the 16 L1 sets is kept, and with it each line of that set.
        let kept: Vec<u64> = (0..16).filter(|&set| s.keeps(set << 6)).collect();
        assert_eq!(kept.len(), 1);
        assert!(s.keeps((kept[0] << 6) + 16 * 64 * 12345 + 63));
        // A 128-byte-line L2 leaves bit 6 out of the shared range.
        let t = SetSample::for_caches(&[(6, 16), (7, 64)], &cfg(0.5)).unwrap();
        assert_eq!((t.shift, t.mask, t.kept), (7, 7, 4));
    }

    #[test]
    fn nothing_to_drop() {
        assert!(SetSample::for_caches(&[(6, 16)], &cfg(1.0)).is_none());
        assert!(SetSample::for_caches(&[(6, 16)], &cfg(0.99)).is_none());
        assert!(SetSample::for_caches(&[(6, 1)], &cfg(0.1)).is_none());
        assert!(SetSample::for_caches(&[(6, 12)], &cfg(0.1)).is_none());
        // Disjoint set-index ranges: bits 6..8 and 8..12.
        assert!(SetSample::for_caches(&[(6, 4), (8, 16)], &cfg(0.1)).is_none());
        assert!(SetSample::for_caches(&[], &cfg(0.1)).is_none());
    }

    #[test]
    fn rate_rounds_to_whole_groups_and_seeds_differ() {
        let a = SetSample::from_bits(6, 10, &cfg(0.1)).unwrap();
        assert_eq!(a.kept, 102);
        assert_eq!(a.scale(102), 1024);
        let b = SetSample::from_bits(6, 10, &SetSampleConfig { rate: 0.1, seed: 8 }).unwrap();
        assert_ne!(a.keep, b.keep);
        assert_eq!(
            a.keep.iter().map(|w| w.count_ones()).sum::<u32>(),
            102,
            "exactly K values kept"
        );
    }
}
