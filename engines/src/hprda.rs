//! HP-RDA (highly parallel reuse-distance analysis, GPU paper) on the CPU: approximate.
//!
//! Steps of the paper's Fig. 4, in order:
//!
//! 1. **Pre-processing.** Runs of consecutive repeats (`a a a a`) are collapsed to one
//!    reference; each dropped repeat is a distance-0 reuse, counted on the fly.
//! 2. **Two-level split.** The collapsed trace is analysed in batches (the paper's trace size
//!    N). A batch is cut into *thread blocks* of `NB × ST` references, each cut into `NB`
//!    *thread-local traces* of `ST` references.
//! 3. **Thread-level analysis** (Fig. 5c), in parallel over thread blocks on a rayon pool: each
//!    thread-local trace is scanned with a *local array* (Fig. 5b) whose non-zero entries are
//!    the latest reference of each block so far — kept as a bitmap so that "number of non-zero
//!    entries between `tv` and `i`" is a popcount. Distances inside a trace are exact. Each
//!    trace records, per distinct block, an `access_info {tid, first, latest}` (Fig. 5a) in its
//!    thread block's hash table: `first` = distinct blocks before the block's first access in
//!    the trace, `latest` = distinct blocks after its last access; and `count` = distinct
//!    blocks in the trace.
//! 4. **Merging** (Fig. 7). For each block, consecutive `access_info`s of traces `i < j` give
//!    the distance of formula (1): `latest_i + Σ_{k=i+1}^{j−1} count[k] + first_j`. Within a
//!    thread block this uses the thread counts; the thread block then summarises each block as
//!    a block-level `access_info` (first/latest relative to the whole thread block, by the same
//!    sums) and its exact distinct count, and thread blocks are merged with formula (1) again,
//!    in stream order, against a table that persists across batches. Formula (1) ignores
//!    blocks common to several traces in between, so it over-estimates.
//! 5. **Adjustment** (formulas (2)–(3)), at the end: with M the number of distinct blocks in the
//!    whole trace and `ef = M / Σ_i count[i]` over all thread-local traces, every merged
//!    distance `dist > M` (impossible for a true distance) becomes `round(dist · ef)`, computed as
//!    an exact rational (halves round up; [`adjust_distance`]) so that the GPU engine in `rdgpu`
//!    reproduces it bit for bit. It can be
//!    disabled (the paper's `--disable-adjusting`).
//!
//! Distances inside a thread-local trace and all cold misses are exact; only reuses that cross
//! a trace boundary are approximated. The engine declares itself inexact.

use crate::accum::{truncate, DenseHist};
use crate::{Histogram, ReuseEngine};
use rayon::prelude::*;
use rustc_hash::FxHashMap as FastMap;
use std::collections::BTreeMap;

/// HP-RDA parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpRdaConfig {
    /// ST: references per thread-local trace (paper: 2048). 0 is treated as 1.
    pub st: usize,
    /// NB: thread-local traces per thread block (paper: 64). 0 is treated as 1.
    pub nb: usize,
    /// References analysed per round (the paper's trace size N), rounded up to whole thread
    /// blocks; bounds the buffer memory.
    pub batch: usize,
    /// Apply the effective-factor adjustment of formulas (2)–(3).
    pub adjust: bool,
    /// Worker threads (0: rayon's default).
    pub threads: usize,
}

impl Default for HpRdaConfig {
    fn default() -> Self {
        HpRdaConfig {
            st: 2048,
            nb: 64,
            batch: 1 << 22,
            adjust: true,
            threads: 0,
        }
    }
}

/// One `access_info` record of Fig. 5(a), in a thread block's pool; `next` links the records of
/// one block in increasing `tid` order (the paper's `next` pointer).
#[derive(Clone, Copy, Debug)]
struct AccessInfo {
    tid: u32,
    first: u32,
    latest: u32,
    next: u32,
}

const NIL: u32 = u32::MAX;

/// Block-level summary of one block in one thread block.
#[derive(Clone, Copy, Debug)]
struct BlockInfo {
    block: u64,
    first: u64,
    latest: u64,
}

/// What a thread block hands to the sequential block-level merge.
#[derive(Default)]
struct BlockResult {
    /// Exact distances found inside thread-local traces.
    local: DenseHist,
    /// Formula (1) distances between traces of this thread block (to be adjusted).
    cross: Vec<u64>,
    /// Block-level access info, one per distinct block.
    infos: Vec<BlockInfo>,
    /// Exact number of distinct blocks in the thread block.
    count: u64,
    /// Σ count[k] over its thread-local traces (for formula (3)).
    thread_counts: u64,
}

/// Scratch space reused by the thread-level analysis of one worker.
#[derive(Default)]
struct Scratch {
    /// The local array's non-zero flags, one bit per trace position (Fig. 5b).
    nonzero: Vec<u64>,
    /// Position of the latest access of each block in the current trace.
    last: FastMap<u64, u32>,
    /// Distinct blocks in order of first access.
    order: Vec<u64>,
}

/// Number of set bits of `words` at positions in `(lo, hi)` (exclusive both ends).
#[inline(always)]
fn ones_between(words: &[u64], lo: usize, hi: usize) -> u64 {
    let start = lo + 1;
    if start >= hi {
        return 0;
    }
    let (ws, we) = (start / 64, (hi - 1) / 64);
    let lo_mask = u64::MAX << (start % 64);
    let hi_mask = u64::MAX >> (63 - (hi - 1) % 64);
    if ws == we {
        return (words[ws] & lo_mask & hi_mask).count_ones() as u64;
    }
    let mut s =
        (words[ws] & lo_mask).count_ones() as u64 + (words[we] & hi_mask).count_ones() as u64;
    for w in &words[ws + 1..we] {
        s += w.count_ones() as u64;
    }
    s
}

#[inline(always)]
/// Thread-level analysis of one thread-local trace (Fig. 5c). Adds exact local distances to
/// `local`, appends `(block, first, latest)` for every distinct block to `out`, returns `count`.
fn thread_analysis(
    trace: &[u64],
    sc: &mut Scratch,
    local: &mut DenseHist,
    out: &mut Vec<(u64, u32, u32)>,
) -> u32 {
    // Step 1: the local array starts as a copy of the trace with nothing marked as latest.
    sc.nonzero.clear();
    sc.nonzero.resize(trace.len().div_ceil(64), 0);
    sc.last.clear();
    sc.order.clear();
    // Step 2: process each access in order.
    for (i, &v) in trace.iter().enumerate() {
        match sc.last.insert(v, i as u32) {
            Some(tv) => {
                let tv = tv as usize;
                // See: HP-RDA Fig. 5(b) — distance = non-zero entries between tv and i.
                local.add(ones_between(&sc.nonzero, tv, i));
                // local_array[tv] = 0: entry tv is no longer the latest access of v.
                sc.nonzero[tv / 64] &= !(1u64 << (tv % 64));
            }
            None => sc.order.push(v),
        }
        sc.nonzero[i / 64] |= 1u64 << (i % 64);
    }
    // Step 3: the non-zero entries left are exactly the distinct blocks.
    let count = sc.order.len() as u32;
    // latest(v) = non-zero entries after v's last position = count − 1 − rank(last(v)).
    let mut ranks = Vec::with_capacity(sc.nonzero.len());
    let mut acc = 0u32;
    for w in &sc.nonzero {
        ranks.push(acc);
        acc += w.count_ones();
    }
    for (first, &v) in sc.order.iter().enumerate() {
        let p = sc.last[&v] as usize;
        let rank = ranks[p / 64] + (sc.nonzero[p / 64] & ((1u64 << (p % 64)) - 1)).count_ones();
        out.push((v, first as u32, count - 1 - rank));
    }
    count
}

/// Analyses one thread block (dispatching to the best instruction set available).
fn analyse_block(refs: &[u64], st: usize) -> BlockResult {
    crate::cpu::dispatch!((refs: &[u64] = refs, st: usize = st) -> BlockResult {
        analyse_block_body(refs, st)
    })
}

/// Analyses one thread block: its NB thread-local traces, then the thread-level merge.
#[inline(always)]
fn analyse_block_body(refs: &[u64], st: usize) -> BlockResult {
    let mut res = BlockResult::default();
    let mut sc = Scratch::default();
    // The thread block's shared hash table: block → (head, tail) of its access_info list.
    let mut table: FastMap<u64, (u32, u32)> = FastMap::default();
    let mut pool: Vec<AccessInfo> = Vec::new();
    // counts[k] = distinct blocks in trace k; prefix[k] = Σ_{i<k} counts[i].
    let mut prefix: Vec<u64> = vec![0];
    let mut out = Vec::new();
    for (tid, trace) in refs.chunks(st).enumerate() {
        out.clear();
        let count = thread_analysis(trace, &mut sc, &mut res.local, &mut out);
        prefix.push(prefix[tid] + count as u64);
        res.thread_counts += count as u64;
        // Record_Access_Info: append this trace's access_info to each block's list.
        for &(v, first, latest) in &out {
            let id = pool.len() as u32;
            pool.push(AccessInfo {
                tid: tid as u32,
                first,
                latest,
                next: NIL,
            });
            match table.get_mut(&v) {
                Some((_, tail)) => {
                    pool[*tail as usize].next = id;
                    *tail = id;
                }
                None => {
                    table.insert(v, (id, id));
                }
            }
        }
    }
    let ntraces = prefix.len() - 1;
    res.count = table.len() as u64;
    res.infos.reserve(table.len());
    // Thread-level merge (Fig. 7): walk each block's list in increasing tid order.
    for (&v, &(head, _)) in &table {
        let a = pool[head as usize];
        let mut prev = a;
        let mut cur = a.next;
        while cur != NIL {
            let b = pool[cur as usize];
            // See: HP-RDA formula (1): latest_i + Σ_{k=i+1}^{j-1} count[k] + first_j.
            let between = prefix[b.tid as usize] - prefix[prev.tid as usize + 1];
            res.cross
                .push(prev.latest as u64 + between + b.first as u64);
            prev = b;
            cur = b.next;
        }
        // Block-level access_info: first/latest relative to the whole thread block, by the
        // same sums as formula (1).
        res.infos.push(BlockInfo {
            block: v,
            first: prefix[a.tid as usize] + a.first as u64,
            latest: prev.latest as u64 + (prefix[ntraces] - prefix[prev.tid as usize + 1]),
        });
    }
    res
}

/// The HP-RDA engine; see the module documentation.
pub struct HpRdaEngine {
    cfg: HpRdaConfig,
    bound: Option<u64>,
    pool: Option<rayon::ThreadPool>,
    /// Last reference seen (run-length pre-processing spans `process` calls).
    prev: Option<u64>,
    /// Collapsed references of the current batch.
    buf: Vec<u64>,
    /// Exact distances: within thread-local traces, plus the distance-0 repeats.
    exact: DenseHist,
    /// Formula (1) distances (thread- and block-level), adjusted at the end.
    merged: FastMap<u64, u64>,
    /// Global table: block → (global thread-block index, block-level latest).
    global: FastMap<u64, (u64, u64)>,
    /// prefix[g] = Σ of exact distinct counts of thread blocks `0..g`.
    prefix: Vec<u64>,
    /// Σ count[i] over every thread-local trace so far (denominator of formula (3)).
    thread_counts: u64,
}

impl HpRdaEngine {
    /// An HP-RDA engine; with a bound, distances ≥ bound are reported as overflow.
    pub fn new(cfg: HpRdaConfig, bound: Option<u64>) -> Self {
        let cfg = HpRdaConfig {
            st: cfg.st.max(1),
            nb: cfg.nb.max(1),
            ..cfg
        };
        let pool = (cfg.threads > 0)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(cfg.threads)
                    .build()
                    .ok()
            })
            .flatten();
        HpRdaEngine {
            cfg,
            bound,
            pool,
            prev: None,
            buf: Vec::new(),
            exact: DenseHist::default(),
            merged: FastMap::default(),
            global: FastMap::default(),
            prefix: vec![0],
            thread_counts: 0,
        }
    }

    /// The configuration in use.
    pub fn config(&self) -> HpRdaConfig {
        self.cfg
    }

    fn block_len(&self) -> usize {
        self.cfg.st.saturating_mul(self.cfg.nb)
    }

    fn batch_len(&self) -> usize {
        let b = self.block_len();
        self.cfg.batch.max(1).div_ceil(b).saturating_mul(b)
    }

    /// Analyses the buffered batch: thread blocks in parallel, then the block-level merge.
    fn run_batch(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        let (st, bl) = (self.cfg.st, self.block_len());
        let buf = &self.buf;
        let work = || {
            buf.par_chunks(bl)
                .map(|blk| analyse_block(blk, st))
                .collect::<Vec<_>>()
        };
        let results = match &self.pool {
            Some(p) => p.install(work),
            None => work(),
        };
        for r in results {
            self.exact.merge(&r.local);
            for d in r.cross {
                *self.merged.entry(d).or_insert(0) += 1;
            }
            self.thread_counts += r.thread_counts;
            let g = (self.prefix.len() - 1) as u64;
            for info in &r.infos {
                match self.global.insert(info.block, (g, info.latest)) {
                    Some((pg, platest)) => {
                        // See: HP-RDA formula (1) at thread-block level, with exact block counts.
                        let between = self.prefix[g as usize] - self.prefix[pg as usize + 1];
                        *self
                            .merged
                            .entry(platest + between + info.first)
                            .or_insert(0) += 1;
                    }
                    None => self.exact.cold += 1,
                }
            }
            let last = *self.prefix.last().expect("non-empty");
            self.prefix.push(last + r.count);
        }
        self.buf.clear();
    }

    /// The effective factor of formula (3): distinct blocks over Σ thread-local counts.
    // See: HP-RDA formula (3) — ef = M / Σ_i count[i], in (0, 1].
    pub fn effective_factor(&self) -> f64 {
        if self.thread_counts == 0 {
            1.0
        } else {
            self.global.len() as f64 / self.thread_counts as f64
        }
    }
}

impl ReuseEngine for HpRdaEngine {
    fn name(&self) -> &'static str {
        "hprda"
    }

    fn is_exact(&self) -> bool {
        false
    }

    fn process(&mut self, blocks: &[u64]) {
        let batch = self.batch_len();
        for &b in blocks {
            // Step 1: run-length pre-processing; a repeat is a distance-0 reuse.
            if self.prev == Some(b) {
                self.exact.add(0);
                continue;
            }
            self.prev = Some(b);
            self.buf.push(b);
            if self.buf.len() >= batch {
                self.run_batch();
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Histogram {
        self.run_batch();
        let exact = std::mem::take(&mut self.exact).into_histogram(None, false);
        let merged = std::mem::take(&mut self.merged);
        finish_histogram(
            exact,
            merged,
            self.global.len() as u64,
            self.thread_counts,
            self.cfg.adjust,
            self.bound,
        )
    }
}

/// Formula (2) with the effective factor of formula (3), in exact integer arithmetic:
/// a merged distance `d > m` becomes `round(d · m / thread_counts)` (halves round up);
/// others are kept.
///
/// Exact rational rounding (not `f64`) so that every implementation — this CPU engine and the
/// GPU one in `rdgpu`, whose shaders have no 64-bit floats — gives the same histogram.
// See: HP-RDA formulas (2)–(3): dist_real = dist · ef if dist > M, ef = M / Σ_i count[i].
pub fn adjust_distance(d: u64, m: u64, thread_counts: u64) -> u64 {
    if d <= m || thread_counts == 0 {
        return d;
    }
    let (num, den) = (d as u128 * m as u128, thread_counts as u128);
    ((2 * num + den) / (2 * den)) as u64
}

/// The last step shared by every HP-RDA implementation: the exact part (local distances,
/// repeats, cold misses) plus the formula (1) distances `merged` (distance → count), adjusted
/// by [`adjust_distance`] when `adjust`, then truncated at `bound`.
pub fn finish_histogram(
    exact: Histogram,
    merged: impl IntoIterator<Item = (u64, u64)>,
    distinct: u64,
    thread_counts: u64,
    adjust: bool,
    bound: Option<u64>,
) -> Histogram {
    let mut out = exact;
    let mut adjusted: BTreeMap<u64, u64> = BTreeMap::new();
    for (d, n) in merged {
        let d = if adjust {
            adjust_distance(d, distinct, thread_counts)
        } else {
            d
        };
        *adjusted.entry(d).or_insert(0) += n;
    }
    for (d, n) in adjusted {
        out.add(d, n);
    }
    out.exact = false;
    match bound {
        Some(b) => truncate(&out, b),
        None => out,
    }
}

/// The paper's error metric between an exact and an approximate histogram, in percent.
///
/// Reading of §V-C: both histograms are divided into the same H bins and
/// `e = Σ_k |a_k − b_k| / H`, where `a_k`, `b_k` are the shares of all references (in %) that
/// fall into bin k — the paper's figures plot fractions of references over log2 distance bins
/// (1, 2, 4, …, 2M, ">"), and its errors (0.37 %, 1.2 %) are percentages. So: bins are the
/// log2 bins of [`Histogram::log2_bins`] (bin 0 = distance 0, bin k = `[2^(k-1), 2^k)`) from
/// 0 to the largest non-empty bin of either histogram, including empty bins in between, plus
/// one bin for ∞ (cold + overflow); each histogram is normalised by its own total. Returns 0
/// for two empty histograms.
pub fn histogram_error(exact: &Histogram, approx: &Histogram) -> f64 {
    fn shares(h: &Histogram, nbins: usize) -> Vec<f64> {
        let mut v = vec![0.0; nbins + 1];
        let total = h.total();
        if total == 0 {
            return v;
        }
        for (&d, &n) in &h.counts {
            v[log2_bin(d)] += n as f64;
        }
        v[nbins] = (h.cold + h.overflow) as f64;
        v.iter_mut().for_each(|x| *x *= 100.0 / total as f64);
        v
    }
    let top = |h: &Histogram| h.counts.keys().next_back().map_or(0, |&d| log2_bin(d) + 1);
    let nbins = top(exact).max(top(approx));
    let (a, b) = (shares(exact, nbins), shares(approx, nbins));
    if exact.total() == 0 && approx.total() == 0 {
        return 0.0;
    }
    a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum::<f64>() / a.len() as f64
}

/// Log2 bin of a finite distance (as [`Histogram::log2_bins`]).
fn log2_bin(d: u64) -> usize {
    if d == 0 {
        0
    } else {
        (64 - d.leading_zeros()) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_between_matches_scan() {
        let words = [
            0xdead_beef_1234_5678u64,
            0xffff_0000_ffff_0000,
            0x0123_4567_89ab_cdef,
        ];
        let bit = |i: usize| (words[i / 64] >> (i % 64)) & 1;
        for lo in 0..192 {
            for hi in lo..192 {
                let want: u64 = (lo + 1..hi).map(bit).sum();
                assert_eq!(ones_between(&words, lo, hi), want, "{lo} {hi}");
            }
        }
    }

    #[test]
    fn thread_analysis_matches_figure_6_style_summary() {
        // Trace: c a b c d e d g b c b d a (Fig. 5b's example).
        let t: Vec<u64> = "cabcdedgbcbda".bytes().map(u64::from).collect();
        let mut sc = Scratch::default();
        let mut local = DenseHist::default();
        let mut out = Vec::new();
        let count = thread_analysis(&t, &mut sc, &mut local, &mut out);
        assert_eq!(count, 6);
        // The final a is preceded (since a's first access at index 1) by e, g, c, b, d latest
        // entries → 5, as in the paper's walk-through.
        let h = local.into_histogram(None, true);
        assert_eq!(h.counts.get(&5), Some(&1));
        let a = out.iter().find(|x| x.0 == b'a' as u64).unwrap();
        assert_eq!((a.1, a.2), (1, 0));
        let c = out.iter().find(|x| x.0 == b'c' as u64).unwrap();
        // c first at index 0; after c's last access (index 9): b, d, a → latest 3.
        assert_eq!((c.1, c.2), (0, 3));
    }

    #[test]
    fn adjust_distance_rounds_the_exact_rational() {
        // Not above M: unchanged.
        assert_eq!(adjust_distance(3, 3, 7), 3);
        // 5 · 3 / 7 = 2.14 → 2; 6 · 3 / 4 = 4.5 → 5 (half up); 7 · 3 / 4 = 5.25 → 5.
        assert_eq!(adjust_distance(5, 3, 7), 2);
        assert_eq!(adjust_distance(6, 3, 4), 5);
        assert_eq!(adjust_distance(7, 3, 4), 5);
        // No overflow at the top of the range: u64::MAX · (2^32 − 1) / 2^40.
        let big = adjust_distance(u64::MAX, u32::MAX as u64, 1 << 40);
        assert_eq!(
            big as u128,
            (u64::MAX as u128 * u32::MAX as u128 + (1 << 39)) >> 40
        );
    }

    #[test]
    fn error_metric_basics() {
        let mut a = Histogram::new_exact();
        a.add(0, 50);
        a.cold = 50;
        assert_eq!(histogram_error(&a, &a), 0.0);
        let mut b = a.clone();
        b.counts.clear();
        b.add(1, 50);
        // Bins: {0}, {1}, ∞ → |50-0| + |0-50| + 0 over 3 bins.
        assert!((histogram_error(&a, &b) - 100.0 / 3.0).abs() < 1e-9);
        assert_eq!(
            histogram_error(&Histogram::default(), &Histogram::default()),
            0.0
        );
    }
}
