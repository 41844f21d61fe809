//! PARDA's parameters ([`PardaConfig`]) and their defaults: the number of ranks from the
//! machine's parallelism, and the chunk size that keeps a phase's buffer bounded.

/// PARDA parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PardaConfig {
    /// Number of ranks (threads) `np`; 0 is treated as 1.
    pub threads: usize,
    /// References per chunk `C`; a phase buffers `threads × chunk` references. 0 is treated as 1.
    pub chunk: usize,
    /// Cache bound B of Alg. 7 (distances ≥ B are overflow), or unbounded.
    pub bound: Option<u64>,
}

impl Default for PardaConfig {
    fn default() -> Self {
        let threads = default_threads();
        PardaConfig {
            threads,
            chunk: default_chunk(threads),
            bound: None,
        }
    }
}

/// Default chunk size for `threads` ranks: 2^24 references per phase (a 128 MiB phase buffer),
/// split among the ranks, with chunks between 2^21 and 2^23 references.
///
/// Larger chunks mean relatively fewer local infinities (a chunk's distinct blocks grow less
/// than linearly with its length), i.e. less sequential work at rank 0: on the benchmark
/// workload (M = 10^6) a 2^22-reference chunk sends about 17 % of its references to rank 0, a
/// 2^23 one about 11 %. The phase buffer is `threads × chunk` references, hence the cap.
pub fn default_chunk(threads: usize) -> usize {
    ((1usize << 24) / threads.max(1)).clamp(1 << 21, 1 << 23)
}

/// The machine's available parallelism (at least 1).
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
