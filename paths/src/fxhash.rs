//! A small multiplicative hasher for the hot hash maps (line → time, (instruction, path) →
//! record). SipHash, the standard default, would cost more than the rest of the analysis.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash-style hasher: one rotate, xor and multiply per word written.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline(always)]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline(always)]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline(always)]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        // Fold the high bits down: hashbrown picks buckets from the low bits and the tag from
        // the top seven, and a plain multiply leaves the low bits of aligned keys poorly mixed.
        self.hash ^ (self.hash >> 29)
    }
}

/// `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// 64-bit finaliser of MurmurHash3: every input bit affects every output bit.
#[inline(always)]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

/// Hasher for cache-line numbers: the low 3 bits stay in place and only the rest is mixed, so
/// eight consecutive lines land in eight consecutive buckets (two cache lines of the table) and
/// sweeps over arrays touch the table sequentially, while strided patterns are still spread.
#[derive(Default, Clone, Copy)]
pub struct LineHasher {
    hash: u64,
}

impl Hasher for LineHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut fx = FxHasher { hash: self.hash };
        fx.write(bytes);
        self.hash = fx.hash;
    }
    #[inline(always)]
    fn write_u64(&mut self, i: u64) {
        self.hash = i;
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        (mix64(self.hash >> 3) << 3) | (self.hash & 7)
    }
}

/// `HashMap` keyed by line numbers with [`LineHasher`].
pub type LineHashMap<V> = HashMap<u64, V, BuildHasherDefault<LineHasher>>;
