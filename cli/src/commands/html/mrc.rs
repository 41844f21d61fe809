//! Miss-ratio curves from a reuse-distance histogram, and the histogram's bin labels.

use rdengines::Histogram;

pub(super) fn bin_label(lo: u64, hi: u64) -> String {
    if hi - lo <= 1 {
        lo.to_string()
    } else {
        format!("{lo}-{}", hi - 1)
    }
}

/// Miss ratio of a fully associative LRU cache of `c` lines: (cold + #{d ≥ c}) / references.
pub fn miss_ratio(h: &Histogram, c: u64) -> f64 {
    let total = h.total();
    if total == 0 {
        return 0.0;
    }
    // See: Mattson et al.: a reference hits an LRU cache of c lines iff its stack distance < c.
    1.0 - h.hits_below(c) as f64 / total as f64
}

/// Cache sizes (in lines) of the miss-ratio curve: powers of two up to the first that holds
/// every reuse, plus the simulated L1 and L2.
pub(super) fn mrc_sizes(h: &Histogram, extra: &[u64]) -> Vec<u64> {
    let max = h.counts.keys().next_back().copied().unwrap_or(0);
    let mut v: Vec<u64> = (0..64)
        .map(|k| 1u64 << k)
        .take_while(|&c| c / 2 <= max)
        .collect();
    v.extend_from_slice(extra);
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miss_ratio_reads_the_histogram_as_an_lru_cache() {
        // Distances 0, 0, 3 and one cold reference. A 1-line cache hits the two distance-0
        // references only: (1 cold + 1 at distance 3) / 4 = 0.5; 4 lines also hold distance 3:
        // only the cold reference misses, 0.25.
        let mut h = Histogram::new_exact();
        h.add(0, 2);
        h.add(3, 1);
        h.cold = 1;
        assert_eq!(miss_ratio(&h, 1), 0.5);
        assert_eq!(miss_ratio(&h, 3), 0.5);
        assert_eq!(miss_ratio(&h, 4), 0.25);
        assert_eq!(miss_ratio(&Histogram::new_exact(), 4), 0.0);
        // Powers of two until one holds every distance (4 > 3), plus the cache sizes asked for.
        assert_eq!(mrc_sizes(&h, &[128, 2]), vec![1, 2, 4, 128]);
    }
}
