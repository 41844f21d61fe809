//! How a PARDA phase is split among the ranks so that each has the same work: its own chunk
//! plus the local infinities that reach it from the ranks to its right, which it resolves
//! after its chunk (Alg. 3-4). Rank 0 thus gets the shortest chunk. The paper splits evenly;
//! any split into consecutive chunks gives the same (exact) histogram, so this only balances.
//!
//! Two estimates of the infinities: the threaded engine sees the whole phase and counts them
//! on a sample ([`PhaseSample`]); an MPI rank sees only its own slice, so the MPI engine
//! uses the ratio measured in the last phase ([`split_phase`]).

use rustc_hash::FxHashMap;

/// Cost of processing one received local infinity relative to analysing one reference of the
/// own chunk (used only to size the chunks).
const INF_COST: f64 = 1.0;

/// Blocks sampled by [`split_by_sampling`]: one in 2^`SAMPLE_SHIFT`.
const SAMPLE_SHIFT: u32 = 6;

/// Whether block `z` is in the sample: the top bits of a Fibonacci (multiplicative) hash,
/// one multiply, as this runs over every reference of a phase before the ranks start (the
/// workspace's `mix64` costs three times as much here; an estimate for balancing needs no
/// more than an even spread over the block ids that traces have: lines, strides, hashes).
#[inline(always)]
fn sampled(z: u64) -> bool {
    z.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SAMPLE_SHIFT) == 0
}

/// Chunk lengths of a phase of `len` units (references, or the MPI engine's input slices)
/// over `np` ranks, rank 0 first; they sum to `len`.
///
/// Rank `p` analyses its chunk and then the local infinities of the ranks to its right,
/// about `ratio` per unit of theirs (fewer in fact, as hits on the way remove some), `ratio`
/// having been measured on phases whose ranks `1..np` held `measured` units (0: not measured,
/// an assumption). Sizing from the last rank down so that chunk plus estimated received work
/// is the same for every rank balances the phase; this deviates from the paper's equal chunks
/// and does not change the result (any split into consecutive chunks is exact).
pub fn split_phase(len: usize, np: usize, ratio: f64, measured: usize) -> Vec<usize> {
    let np = np.max(1);
    // Local infinities are the distinct blocks of a chunk, which grow less than linearly
    // with its length: rescale a ratio measured on other lengths (a shorter final phase
    // has relatively more) by the square root of the length ratio, a middle ground between
    // "as many distinct blocks" and "as many per reference".
    let right = (len - len / np).max(1);
    let ratio = if measured == 0 {
        ratio
    } else {
        ratio * (measured as f64 / right as f64).sqrt()
    };
    let r = (INF_COST * ratio).clamp(0.0, 0.9);
    let mut w = vec![0.0f64; np];
    let mut later = 0.0;
    for p in (0..np).rev() {
        w[p] = (1.0 - r * later).max(0.125);
        later += w[p];
    }
    let total: f64 = w.iter().sum();
    let mut sizes: Vec<usize> = w
        .iter()
        .map(|&x| ((x / total) * len as f64) as usize)
        .collect();
    let used: usize = sizes[..np - 1].iter().sum();
    sizes[np - 1] = len - used.min(len);
    sizes
}

/// Local infinities per unit of ranks `1..np` assumed before any phase was measured.
pub const INITIAL_INF_RATIO: f64 = 0.25;

/// The last position in its phase of every sampled block (one in 64, by hash, as in SHARDS),
/// collected while the phase is buffered (the blocks are then in cache) and turned into a
/// split by [`PhaseSample::split`]; [`PhaseSample::clear`] readies it for the next phase.
#[derive(Debug, Default)]
pub struct PhaseSample {
    last: FxHashMap<u64, usize>,
}

impl PhaseSample {
    /// Records `blocks`, which sit at positions `start..` of the phase.
    pub fn observe(&mut self, start: usize, blocks: &[u64]) {
        for (i, &z) in blocks.iter().enumerate() {
            if sampled(z) {
                self.last.insert(z, start + i);
            }
        }
    }

    /// Bytes of heap held (the sampled blocks' last positions).
    pub fn heap_bytes(&self) -> usize {
        self.last.capacity() * 2 * std::mem::size_of::<u64>()
    }

    /// Chunk lengths of the observed phase of `len` references over `np` ranks, rank 0 first
    /// (they sum to `len`), with equal estimated work per rank.
    ///
    /// The local infinities that reach rank `p` are the distinct blocks of everything to its
    /// right, `D(start of rank p+1 ..)` (each first access there is a local infinity of the
    /// rank holding it, forwarded left until some rank hits it); with a bound B at most B
    /// travel. A sampled block counts 64 in `D` of every suffix that starts at or before its
    /// last access. Rank `np−1` then gets `W` references and each rank to its left
    /// `W − D(right of it)`, with the `W` for which the chunks cover the phase (found by
    /// bisection; `D` shrinks as chunks move right, so the cover grows with `W`).
    pub fn split(&self, len: usize, np: usize, bound: Option<u64>) -> Vec<usize> {
        self.split_range(0, len, np, bound)
    }

    /// [`split`](Self::split) for a rank 0 that has already analysed `head` references of the
    /// phase (it started while the phase was filling): the ranks are to *finish* together, so
    /// rank 0's chunk is longer by what it has done, and everyone's remaining work is equal.
    pub fn split_with_head_start(
        &self,
        len: usize,
        np: usize,
        bound: Option<u64>,
        head: usize,
    ) -> Vec<usize> {
        self.split_from(0, len, np, bound, head)
    }

    /// [`PhaseSample::split`] of the part `start..len` of the phase over `np` ranks (the ranks
    /// right of a rank 0 whose chunk ends at `start`).
    pub fn split_range(
        &self,
        start: usize,
        len: usize,
        np: usize,
        bound: Option<u64>,
    ) -> Vec<usize> {
        self.split_from(start, len, np, bound, 0)
    }

    /// [`split_range`](Self::split_range) with `head` references of rank 0's chunk already
    /// done (they count as no work).
    fn split_from(
        &self,
        start: usize,
        len: usize,
        np: usize,
        bound: Option<u64>,
        head: usize,
    ) -> Vec<usize> {
        let np = np.max(1);
        let span = len.saturating_sub(start);
        if np == 1 || span < np {
            return split_phase(span, np, 0.0, 0);
        }
        let mut ends: Vec<usize> = self
            .last
            .values()
            .copied()
            .filter(|&e| e >= start)
            .collect();
        ends.sort_unstable();
        let cap = bound.map_or(usize::MAX, |b| b.min(usize::MAX as u64) as usize);
        // Distinct blocks of phase[x..], estimated.
        let distinct_from = |x: usize| {
            let sampled = ends.len() - ends.partition_point(|&e| e < x);
            (sampled << SAMPLE_SHIFT).min(cap)
        };
        let (first, len_i) = (start as i64, len as i64);
        // Chunk starts for a per-rank work of `w`, rank np−1 first; the first start (rank 0's)
        // is ≤ `start` when `w` suffices.
        let starts = |w: usize| {
            let mut starts = vec![0usize; np];
            let mut at = len_i - w as i64;
            starts[np - 1] = at.max(first) as usize;
            for p in (0..np - 1).rev() {
                let received = (INF_COST * distinct_from(at.max(first) as usize) as f64) as i64;
                // Every rank gets at least one reference when it can (an empty chunk is
                // allowed but wastes the rank). Rank 0's done references cost nothing more.
                let done = if p == 0 { head as i64 } else { 0 };
                at -= (w as i64 - received + done).max(1);
                starts[p] = at.max(first) as usize;
            }
            (at, starts)
        };
        // Rank 0's head start lets the others' share fall below an even split.
        let (mut lo, mut hi) = (span.saturating_sub(head).div_ceil(np).max(1), span);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if starts(mid).0 <= first {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let (_, mut starts) = starts(lo);
        starts[0] = start;
        let mut sizes = Vec::with_capacity(np);
        for p in 0..np {
            let end = if p + 1 < np { starts[p + 1] } else { len };
            sizes.push(end.saturating_sub(starts[p]));
        }
        sizes
    }

    /// Forgets the phase (for the next one).
    pub fn clear(&mut self) {
        self.last.clear();
    }
}

/// [`PhaseSample::split`] of the phase `buf`, sampled in one pass.
pub fn split_by_sampling(buf: &[u64], np: usize, bound: Option<u64>) -> Vec<usize> {
    let mut sample = PhaseSample::default();
    if np > 1 {
        sample.observe(0, buf);
    }
    sample.split(buf.len(), np, bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_start_moves_the_remaining_work_to_rank_0() {
        // Ten blocks over and over: hardly any infinities, so two ranks split evenly, and a
        // rank 0 that has done `h` references already takes h/2 more (both then have
        // (len - h)/2 left). At most one sampled block (64 infinities) blurs it.
        let buf: Vec<u64> = (0..10_000u64).map(|i| i % 10).collect();
        let mut sample = PhaseSample::default();
        sample.observe(0, &buf);
        let even = sample.split(buf.len(), 2, None);
        let ahead = sample.split_with_head_start(buf.len(), 2, None, 2000);
        assert_eq!(ahead.iter().sum::<usize>(), buf.len());
        let moved = ahead[0] as i64 - even[0] as i64;
        assert!((moved - 1000).abs() <= 64, "{even:?} -> {ahead:?}");
    }

    #[test]
    fn both_splits_cover_the_phase() {
        let buf: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 1300).collect();
        for np in 1..6 {
            for len in [0, 1, 3, 5, 999, 5000] {
                for sizes in [
                    split_phase(len, np, 0.3, 100),
                    split_by_sampling(&buf[..len], np, None),
                    split_by_sampling(&buf[..len], np, Some(10)),
                ] {
                    assert_eq!(sizes.len(), np);
                    assert_eq!(sizes.iter().sum::<usize>(), len, "np={np} len={len}");
                }
            }
        }
    }

    #[test]
    fn a_split_of_the_rest_covers_the_rest() {
        let buf: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 1300).collect();
        let mut sample = PhaseSample::default();
        sample.observe(0, &buf);
        for np in 1..5 {
            for start in [0, 1, 700, 4990, 5000] {
                let sizes = sample.split_range(start, buf.len(), np, None);
                assert_eq!(sizes.len(), np);
                assert_eq!(
                    sizes.iter().sum::<usize>(),
                    buf.len() - start,
                    "np={np} start={start}"
                );
            }
        }
    }

    /// Two ranks over n = 2·10^5 references: a first half cycling over 1000 blocks, then
    /// n/4 fresh blocks each used twice in a row. With rank 0 holding `[0, a)`, a < n/2, rank 1
    /// sends every distinct block of its part: the 1000 cycled ones and the n/4 fresh ones.
    /// Equal work, a + 1000 + n/4 = n − a, gives a = 3n/8 − 500 = 74 500.
    #[test]
    fn sampling_balances_infinities_against_references() {
        let n = 200_000u64;
        let mut buf: Vec<u64> = (0..n / 2).map(|i| i % 1000).collect();
        buf.extend((0..n / 2).map(|i| 1_000_000 + i / 2));
        let sizes = split_by_sampling(&buf, 2, None);
        let want = 74_500;
        let got = sizes[0];
        // About 1/64 of the 50 000 fresh blocks are sampled: ~780, so D is off by about
        // √780·64 ≈ 1 800 (one standard deviation) and `a` by half that; 5 000 is over 5 σ.
        assert!(
            got.abs_diff(want) < 5_000,
            "rank 0 got {got}, balance at about {want}"
        );
        // Equal chunks would be far off: the estimate is not blind.
        assert!(got.abs_diff(n as usize / 2) > (n / 10) as usize);
    }
}
