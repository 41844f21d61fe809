//! Seeded synthetic workload (no IO): the benchmark trace.
//!
//! N references over M cache lines. Each reference flips a seeded coin: heads, it is the next
//! line of a cyclic sweep over lines `0..M/2` (long, regular reuse distances of about M/2 plus
//! the interleaved random traffic); tails, it is line `⌊M·u³⌋` for `u` uniform in `[0, 1)`
//! (heavily skewed towards low lines: half of these land in the first M/8 lines, so short
//! distances, while the tail reaches all M lines). The mix exercises short, medium and long
//! distances and about M distinct lines, which is what makes it a fair benchmark.
//!
//! Everything comes from [`SplitMix64`], so a `(seed, M)` pair always yields the same trace,
//! and [`Workload::fill`] streams it in pieces so that very long traces need no big buffer.

pub use crate::rng::SplitMix64;

/// The benchmark workload generator; see the module documentation.
#[derive(Clone, Debug)]
pub struct Workload {
    rng: SplitMix64,
    lines: u64,
    sweep_len: u64,
    sweep_pos: u64,
}

impl Workload {
    /// A generator over `lines` (M ≥ 1) cache lines, seeded with `seed`.
    pub fn new(lines: u64, seed: u64) -> Self {
        let lines = lines.max(1);
        Workload {
            rng: SplitMix64::new(seed),
            lines,
            sweep_len: (lines / 2).max(1),
            sweep_pos: 0,
        }
    }

    /// The next reference.
    #[inline]
    pub fn next_block(&mut self) -> u64 {
        let r = self.rng.next_u64();
        if r & 1 == 0 {
            let b = self.sweep_pos;
            self.sweep_pos += 1;
            if self.sweep_pos == self.sweep_len {
                self.sweep_pos = 0;
            }
            b
        } else {
            let u = self.rng.next_f64();
            ((self.lines as f64 * u * u * u) as u64).min(self.lines - 1)
        }
    }

    /// Fills `buf` with the next `buf.len()` references.
    pub fn fill(&mut self, buf: &mut [u64]) {
        for b in buf {
            *b = self.next_block();
        }
    }
}

/// The first `n` references of the workload over `m` lines with `seed`.
pub fn generate(n: usize, m: u64, seed: u64) -> Vec<u64> {
    let mut w = Workload::new(m, seed);
    let mut v = vec![0; n];
    w.fill(&mut v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_in_range() {
        let a = generate(10_000, 1000, 7);
        let b = generate(10_000, 1000, 7);
        let c = generate(10_000, 1000, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|&x| x < 1000));
        // About half the references are the sweep and about half of the random ones fall
        // in the first M/8 lines, so well over half of all references are below M/2.
        let low = a.iter().filter(|&&x| x < 500).count();
        assert!(low > 7000, "{low}");
        // Streaming in pieces gives the same trace.
        let mut w = Workload::new(1000, 7);
        let mut s = vec![0; 10_000];
        let (x, y) = s.split_at_mut(3333);
        w.fill(x);
        w.fill(y);
        assert_eq!(s, a);
    }
}
