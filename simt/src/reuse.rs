//! The data reuse characteristic: the DS-vs-RD histogram of an MI stream, computed efficiently
//! from per-address occurrence lists.
//!
//! For every MI pair `i < j` of a stream, the thesis accumulates the data reuse degree `DS_ij`
//! (definition 2) into the histogram entry for the reuse distance `RD = j − i` (definition 3).
//! Algorithm 1 does this by comparing every pair, O(S²·T) for S MIs of T lanes (kept as the test
//! oracle in [`crate::oracle`]). Only pairs that share an address contribute, so
//! [`ReuseDegreeAnalyzer`] keeps, for every address, the list of earlier MIs that touched it: when MI `j` holds address `a` with multiplicity `M_j(a)`, each earlier MI `p`
//! holding `a` gets `M_j(a)` added at `RD = j − p`. Summed over the addresses of `j`, that is
//! exactly `Σ_p DS_pj`. The work is the number of (address, earlier occurrence) pairs, and with a
//! window (`max_rd = W`) only occurrences in the last W MIs are visited.

use crate::mi::{AddressArray, MemInstr};
use rustc_hash::FxHashMap as FastMap;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// The DS-vs-RD histogram of one or more MI streams.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DsHistogram {
    /// `ds[rd]`: the sum of `DS_ij` over all MI pairs with `j − i = rd`. Index 0 is unused and
    /// always 0; the vector ends at the largest distance with reuse.
    pub ds: Vec<u64>,
    /// `reusing_pairs[rd]`: how many of those pairs have `DS_ij > 0`. Same length as `ds`.
    pub reusing_pairs: Vec<u64>,
    /// MIs analysed (summed over streams when histograms are merged).
    pub mis: u64,
    /// Lanes (thread accesses) in those MIs.
    pub lanes: u64,
    /// Largest reuse distance considered (`None`: every pair of the stream).
    pub max_rd: Option<u64>,
}

impl DsHistogram {
    /// An empty histogram for distances up to `max_rd`.
    pub fn new(max_rd: Option<u64>) -> DsHistogram {
        DsHistogram {
            max_rd,
            ..Default::default()
        }
    }

    /// Summed DS at distance `rd` (0 outside the recorded range).
    pub fn ds_at(&self, rd: u64) -> u64 {
        self.ds.get(rd as usize).copied().unwrap_or(0)
    }

    /// Number of pairs with reuse at distance `rd`.
    pub fn reusing_pairs_at(&self, rd: u64) -> u64 {
        self.reusing_pairs.get(rd as usize).copied().unwrap_or(0)
    }

    /// Sum of DS over all distances.
    pub fn total_ds(&self) -> u64 {
        self.ds.iter().sum()
    }

    /// Number of MI pairs with any reuse.
    pub fn total_reusing_pairs(&self) -> u64 {
        self.reusing_pairs.iter().sum()
    }

    /// Largest distance with reuse, if any.
    pub fn max_reuse_rd(&self) -> Option<u64> {
        self.ds.iter().rposition(|&d| d > 0).map(|k| k as u64)
    }

    /// The distance with the largest summed DS (the smallest such distance on ties).
    pub fn peak(&self) -> Option<(u64, u64)> {
        let mut best: Option<(u64, u64)> = None;
        for (rd, &d) in self.ds.iter().enumerate() {
            let better = match best {
                None => d > 0,
                Some((_, b)) => d > b,
            };
            if better {
                best = Some((rd as u64, d));
            }
        }
        best
    }

    /// `(rd, ds, reusing_pairs)` for every distance with reuse, ascending.
    pub fn nonzero(&self) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        self.ds
            .iter()
            .zip(&self.reusing_pairs)
            .enumerate()
            .filter(|(_, (&d, _))| d > 0)
            .map(|(rd, (&d, &p))| (rd as u64, d, p))
    }

    /// Adds another histogram (the characteristic of several independent streams).
    pub fn merge(&mut self, other: &DsHistogram) {
        if self.ds.len() < other.ds.len() {
            self.ds.resize(other.ds.len(), 0);
            self.reusing_pairs.resize(other.ds.len(), 0);
        }
        for (rd, (&d, &p)) in other.ds.iter().zip(&other.reusing_pairs).enumerate() {
            self.ds[rd] += d;
            self.reusing_pairs[rd] += p;
        }
        self.mis += other.mis;
        self.lanes += other.lanes;
    }

    /// Drops trailing zero entries so equal characteristics compare equal.
    pub(crate) fn trim(&mut self) {
        let keep = self.ds.iter().rposition(|&d| d > 0).map_or(0, |k| k + 1);
        self.ds.truncate(keep);
        self.reusing_pairs.truncate(keep);
    }

    /// Records `ds` more reuse at distance `rd`, counting one more reusing pair when `new_pair`.
    #[inline]
    pub(crate) fn add(&mut self, rd: u64, ds: u64, new_pair: bool) {
        let k = rd as usize;
        if k >= self.ds.len() {
            let n = (k + 1).max(self.ds.len() * 2).max(16);
            self.ds.resize(n, 0);
            self.reusing_pairs.resize(n, 0);
        }
        self.ds[k] += ds;
        self.reusing_pairs[k] += new_pair as u64;
    }
}

/// The reuse-distance window the command line uses unless told otherwise (`--max-rd`): every
/// pair of MIs that share an address costs a step, so a kernel whose MIs share a few addresses
/// (a lookup table, a frontier) costs the square of its MIs per address without a window, ten
/// to twenty times a reuse histogram's time on such traces; 4096 MIs cover the ranges the
/// thesis's figures zoom into (RD up to 400) and the farthest reuse of its serialized
/// vectoradd (2733).
pub const DEFAULT_MAX_RD: u64 = 4096;

/// MIs between two sweeps of addresses whose occurrences all left the window (at least).
const SWEEP_EVERY: u64 = 4096;

/// What the analyzer keeps per reuse distance `d`: the histogram's two entries and the MI that
/// last counted a reusing pair at `d`. The three sit together because every (address, earlier
/// occurrence) pair reads and writes all three: kept in separate arrays (and the mark indexed
/// by the earlier MI's position) each pair touched three cache lines, and the walk over a
/// widely shared address's holders waited on them.
#[derive(Clone, Copy, Default)]
struct DistanceCell {
    /// Summed DS at this distance.
    ds: u64,
    /// Reusing pairs at this distance.
    pairs: u64,
    /// `j + 1` once the pair (j − d, j) has been counted as reusing (so a second shared address
    /// of the same pair adds DS but no pair).
    counted_for: u64,
}

/// Computes the DS-vs-RD histogram of one MI stream, one MI at a time.
pub struct ReuseDegreeAnalyzer {
    max_rd: Option<u64>,
    next_position: u64,
    /// Address → the MIs that held it (positions), oldest first. Kept contiguous per address,
    /// so an MI's walk over the earlier holders of a widely shared address reads one array
    /// backwards instead of chasing a list through every occurrence of the stream (which
    /// missed the cache at every step). With a window, positions that left it are dropped
    /// from the front when the address is met again, and by a sweep every
    /// `max(W, SWEEP_EVERY)` MIs for addresses not met since.
    occurrences: FastMap<u64, SmallVec<[u64; 2]>>,
    /// The next MI position at which to sweep.
    next_sweep: u64,
    /// Indexed by reuse distance; always longer than the largest distance the next MI can
    /// have (its position, or the window).
    cells: Vec<DistanceCell>,
    sorted: Vec<u64>,
    /// Lanes (thread accesses) of the MIs pushed.
    lanes: u64,
    /// MIs pushed as context only ([`ReuseDegreeAnalyzer::remember_lanes`]).
    remembered: u64,
}

impl ReuseDegreeAnalyzer {
    /// An analyzer considering MI pairs up to `max_rd` apart (`None`: all pairs).
    pub fn new(max_rd: Option<u64>) -> ReuseDegreeAnalyzer {
        ReuseDegreeAnalyzer {
            max_rd,
            next_position: 0,
            occurrences: FastMap::default(),
            next_sweep: max_rd.map_or(u64::MAX, |w| w.max(SWEEP_EVERY)),
            cells: Vec::new(),
            sorted: Vec::new(),
            lanes: 0,
            remembered: 0,
        }
    }

    /// MIs pushed so far.
    pub fn mis(&self) -> u64 {
        self.next_position
    }

    /// Pushes the next MI of the stream, given the addresses of its active lanes (already at
    /// the analysis granularity).
    pub fn push_lanes(&mut self, lanes: &[u64]) {
        self.begin_mi();
        // See: thesis Algorithm 1, function addressStruct: the address array with multiplicities.
        self.sorted.clear();
        self.sorted.extend_from_slice(lanes);
        self.sorted.sort_unstable();
        let sorted = std::mem::take(&mut self.sorted);
        let mut k = 0;
        while k < sorted.len() {
            let addr = sorted[k];
            let mut m = 1;
            while k + m < sorted.len() && sorted[k + m] == addr {
                m += 1;
            }
            self.address(addr, m as u64);
            k += m;
        }
        self.sorted = sorted;
        self.end_mi(lanes.len() as u64);
    }

    /// Pushes the next MI as context for the MIs after it: its addresses become earlier
    /// occurrences they pair with, but its own pairs with the MIs before it are not counted,
    /// nor is it among the histogram's MIs and lanes (the window before a segment, see
    /// [`analyze_lane_stream`]).
    fn remember_lanes(&mut self, lanes: &[u64]) {
        self.begin_mi();
        let j = self.next_position;
        for &addr in lanes {
            let list = in_window(&mut self.occurrences, self.max_rd, addr, j);
            if list.last() != Some(&j) {
                list.push(j);
            }
        }
        self.next_position += 1;
        self.remembered += 1;
    }

    /// Pushes the next MI of the stream as an address array.
    pub fn push_array(&mut self, array: &AddressArray) {
        self.begin_mi();
        for &(addr, m) in array.entries() {
            self.address(addr, m as u64);
        }
        self.end_mi(array.total());
    }

    /// Pushes an MI (its lanes are taken as already at the analysis granularity).
    pub fn push_mi(&mut self, mi: &MemInstr) {
        self.push_lanes(&mi.lanes);
    }

    /// Makes room for the MI's distances and, with a window, now and then forgets the
    /// addresses whose every occurrence left it (an address met again drops its own old
    /// occurrences as it is walked).
    fn begin_mi(&mut self) {
        let j = self.next_position;
        let farthest = self.max_rd.map_or(j, |w| w.min(j));
        if farthest as usize >= self.cells.len() {
            let n = (farthest as usize + 1).max(self.cells.len() * 2).max(16);
            let n = self.max_rd.map_or(n, |w| n.min(w as usize + 1));
            self.cells.resize(n, DistanceCell::default());
        }
        let Some(w) = self.max_rd else { return };
        if j < self.next_sweep {
            return;
        }
        // See: `--max-rd` window: occurrences more than W MIs back no longer pair with j.
        let oldest = j.saturating_sub(w);
        self.occurrences
            .retain(|_, list| list.last().is_some_and(|&p| p >= oldest));
        self.next_sweep = j + w.max(SWEEP_EVERY);
    }

    /// One distinct address of the current MI `j` with multiplicity `m`.
    #[inline]
    fn address(&mut self, addr: u64, m: u64) {
        let j = self.next_position;
        let list = in_window(&mut self.occurrences, self.max_rd, addr, j);
        let mark = j + 1;
        for &p in list.iter().rev() {
            // See: thesis definition 2 and Algorithm 1 step 6: M_j(a) joins DS_pj, which is
            // accumulated at RD = j − p (definition 3); the pair counts once however many
            // addresses p and j share.
            let cell = &mut self.cells[(j - p) as usize];
            cell.ds += m;
            cell.pairs += (cell.counted_for != mark) as u64;
            cell.counted_for = mark;
        }
        list.push(j);
    }

    fn end_mi(&mut self, lanes: u64) {
        self.next_position += 1;
        self.lanes += lanes;
    }

    /// Ends the stream and returns its histogram.
    pub fn finish(self) -> DsHistogram {
        let mut hist = DsHistogram::new(self.max_rd);
        hist.ds = self.cells.iter().map(|c| c.ds).collect();
        hist.reusing_pairs = self.cells.iter().map(|c| c.pairs).collect();
        hist.mis = self.next_position - self.remembered;
        hist.lanes = self.lanes;
        hist.trim();
        hist
    }
}

/// The earlier MIs that held `addr` and still pair with MI `j`: with a window `max_rd`, those
/// that left it are dropped from the front first.
#[inline]
fn in_window(
    occurrences: &mut FastMap<u64, SmallVec<[u64; 2]>>,
    max_rd: Option<u64>,
    addr: u64,
    j: u64,
) -> &mut SmallVec<[u64; 2]> {
    let list = occurrences.entry(addr).or_default();
    if let Some(w) = max_rd {
        let gone = list.partition_point(|&p| p < j.saturating_sub(w));
        if gone > 0 {
            list.drain(..gone);
        }
    }
    list
}

/// Fewest MIs a segment of [`analyze_lane_stream`] holds, in windows: each segment first
/// remembers the window of MIs before it, which costs about as much as analysing them, so a
/// segment of two windows does at most half as much work again.
const SEGMENT_WINDOWS: u64 = 2;

/// The DS-vs-RD histogram of the stream of MIs `mis` (each given by its lanes' addresses), on
/// up to `threads` threads. With a window `max_rd = W` and at least two segments of
/// [`SEGMENT_WINDOWS`] windows, the stream is cut into that many segments, analysed at once:
/// each remembers the W MIs before it ([`ReuseDegreeAnalyzer::remember_lanes`]) and counts
/// the pairs of its own MIs; every pair of MIs at most W apart is counted in the segment of
/// its later MI, whose analyzer holds the earlier one, so the segments' histograms add up to
/// the one-thread analysis exactly. Without a window, or for a short stream, one thread.
pub fn analyze_lane_stream(mis: &[&[u64]], max_rd: Option<u64>, threads: usize) -> DsHistogram {
    let segments = max_rd.map_or(1, |w| {
        let fit = mis.len() as u64 / (SEGMENT_WINDOWS * w.max(1));
        fit.min(threads as u64).max(1) as usize
    });
    analyze_in_segments(mis, max_rd, segments)
}

/// [`analyze_lane_stream`] with `segments` segments (one thread each; 1: this thread), of
/// any length.
fn analyze_in_segments(mis: &[&[u64]], max_rd: Option<u64>, segments: usize) -> DsHistogram {
    let analyze = |range: std::ops::Range<usize>| {
        let mut a = ReuseDegreeAnalyzer::new(max_rd);
        let window = max_rd.map_or(range.start, |w| (w as usize).min(range.start));
        for lanes in &mis[range.start - window..range.start] {
            a.remember_lanes(lanes);
        }
        for lanes in &mis[range] {
            a.push_lanes(lanes);
        }
        a.finish()
    };
    let segments = segments.clamp(1, mis.len().max(1));
    if segments == 1 {
        return analyze(0..mis.len());
    }
    let bounds: Vec<usize> = (0..=segments).map(|k| k * mis.len() / segments).collect();
    let parts: Vec<DsHistogram> = std::thread::scope(|scope| {
        let handles: Vec<_> = bounds
            .windows(2)
            .map(|b| {
                let range = b[0]..b[1];
                scope.spawn(move || analyze(range))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut total = DsHistogram::new(max_rd);
    for part in &parts {
        total.merge(part);
    }
    total
}

/// The DS-vs-RD histogram of one stream of MIs.
pub fn analyze_stream<'a>(
    mis: impl IntoIterator<Item = &'a MemInstr>,
    max_rd: Option<u64>,
) -> DsHistogram {
    let mut a = ReuseDegreeAnalyzer::new(max_rd);
    for mi in mis {
        a.push_mi(mi);
    }
    a.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mi(lanes: &[u64]) -> MemInstr {
        MemInstr {
            lanes: lanes.to_vec(),
            ..Default::default()
        }
    }

    #[test]
    fn adjacent_mis_sharing_all_but_one_address() {
        // A 3-point stencil of 4 threads: lanes x[g], x[g+1], x[g+2].
        let s = [mi(&[0, 1, 2, 3]), mi(&[1, 2, 3, 4]), mi(&[2, 3, 4, 5])];
        let h = analyze_stream(&s, None);
        assert_eq!(h.ds, vec![0, 6, 2]);
        assert_eq!(h.reusing_pairs, vec![0, 2, 1]);
        assert_eq!(h.mis, 3);
        assert_eq!(h.lanes, 12);
        assert_eq!(h.peak(), Some((1, 6)));
        assert_eq!(h.max_reuse_rd(), Some(2));
    }

    #[test]
    fn window_drops_far_pairs() {
        let s = [mi(&[1]), mi(&[2]), mi(&[1]), mi(&[1])];
        assert_eq!(analyze_stream(&s, None).ds, vec![0, 1, 1, 1]);
        assert_eq!(analyze_stream(&s, Some(2)).ds, vec![0, 1, 1]);
        assert_eq!(analyze_stream(&s, Some(1)).ds, vec![0, 1]);
    }

    #[test]
    fn multiplicity_of_the_later_mi_counts_once_per_earlier_mi() {
        let s = [mi(&[5, 5, 5]), mi(&[5, 5])];
        let h = analyze_stream(&s, None);
        assert_eq!(h.ds, vec![0, 2]);
        assert_eq!(h.reusing_pairs, vec![0, 1]);
    }

    #[test]
    fn merge_adds_entries() {
        let mut a = analyze_stream(&[mi(&[1]), mi(&[1])], None);
        let b = analyze_stream(&[mi(&[1]), mi(&[2]), mi(&[1, 1])], None);
        a.merge(&b);
        assert_eq!(a.ds, vec![0, 1, 2]);
        assert_eq!(a.mis, 5);
        assert_eq!(a.total_ds(), 3);
        assert_eq!(a.nonzero().collect::<Vec<_>>(), vec![(1, 1, 1), (2, 2, 1)]);
    }

    /// Cut into segments, each remembering the window before it, a stream gives the
    /// one-thread histogram exactly: lanes drawn from a few addresses (long occurrence lists,
    /// repeated lanes), windows from 1 to beyond the stream, 1 to 7 segments.
    #[test]
    fn segments_add_up_to_the_whole_stream() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for case in 0..60 {
            let len = 1 + next(120) as usize;
            let addresses = 1 + next(if case % 2 == 0 { 8 } else { 200 });
            let stream: Vec<MemInstr> = (0..len)
                .map(|_| {
                    let lanes = next(6) as usize;
                    mi(&(0..lanes).map(|_| next(addresses)).collect::<Vec<_>>())
                })
                .collect();
            let lanes: Vec<&[u64]> = stream.iter().map(|m| m.lanes.as_slice()).collect();
            for max_rd in [Some(1), Some(3), Some(17), Some(500), None] {
                let whole = analyze_stream(&stream, max_rd);
                for segments in 1..=7 {
                    let cut = analyze_in_segments(&lanes, max_rd, segments);
                    assert_eq!(
                        cut, whole,
                        "case {case} window {max_rd:?} segments {segments}"
                    );
                }
                assert_eq!(analyze_lane_stream(&lanes, max_rd, 2), whole);
            }
        }
    }

    #[test]
    fn empty_stream_has_empty_histogram() {
        let h = analyze_stream(&[], Some(4));
        assert!(h.ds.is_empty());
        assert_eq!(h.peak(), None);
        assert_eq!(h.max_rd, Some(4));
    }
}
