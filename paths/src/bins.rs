//! Per-instruction distance bins: logarithmic below 1K, 1K wide above.
//!
//! See: path-based reuse distance, Section 3.1 — "the reuse distances for each instruction are
//! collected and distributed in logarithmic scaled bins for distances less than 1K and in
//! 1K-sized bins for distances greater than 1K. The minimum, maximum, and mean reuse distances
//! together with the access frequency are recorded for each bin."

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// Width of the linear bins, and the distance where they start.
pub const LINEAR_BIN_WIDTH: u64 = 1024;

/// Index of the bin holding `distance`: 0 holds distance 0, `1 + floor(log2 d)` the
/// logarithmic bins `[2^k, 2^(k+1))` up to 1023 (indices 1..=10), and `10 + d / 1024` the
/// 1K-wide bins from 1024 on (index 11 is `[1024, 2048)`).
#[inline]
pub fn bin_index(distance: u64) -> u32 {
    if distance == 0 {
        0
    } else if distance < LINEAR_BIN_WIDTH {
        64 - distance.leading_zeros()
    } else {
        (10 + distance / LINEAR_BIN_WIDTH).min(u32::MAX as u64) as u32
    }
}

/// Inclusive distance range `[lo, hi]` of bin `index`.
pub fn bin_range(index: u32) -> (u64, u64) {
    match index {
        0 => (0, 0),
        1..=10 => (1 << (index - 1), (1 << index) - 1),
        _ => {
            let lo = (index as u64 - 10) * LINEAR_BIN_WIDTH;
            (lo, lo + LINEAR_BIN_WIDTH - 1)
        }
    }
}

/// Statistics of the distances that fell into one bin (or one merged pattern).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bin {
    /// Smallest distance.
    pub min: u64,
    /// Largest distance.
    pub max: u64,
    /// Sum of the distances (for the mean).
    pub sum: u128,
    /// Number of references.
    pub count: u64,
}

impl Bin {
    /// A bin holding one distance.
    #[inline]
    pub fn single(distance: u64) -> Bin {
        Bin {
            min: distance,
            max: distance,
            sum: distance as u128,
            count: 1,
        }
    }

    /// Adds one distance.
    #[inline]
    pub fn add(&mut self, distance: u64) {
        self.min = self.min.min(distance);
        self.max = self.max.max(distance);
        self.sum += distance as u128;
        self.count += 1;
    }

    /// Merges another bin's statistics into this one.
    pub fn merge(&mut self, other: &Bin) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.count += other.count;
    }

    /// Mean distance.
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }
}

/// One stored bin: its statistics relative to the bin's lowest distance, so that a bin costs
/// 24 bytes instead of a [`Bin`]'s 48 (a path profile holds millions of them).
///
/// A bin spans at most [`LINEAR_BIN_WIDTH`] distances, so the offsets of its smallest and
/// largest distance fit 16 bits and the sum of its offsets fits 64 bits for up to 2^54
/// references. Only the last bin index (`u32::MAX`, distances of 2^42 lines and more, which a
/// reuse stack of that many distinct lines would have to hold) is wider; offsets saturate there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StoredBin {
    index: u32,
    min_offset: u16,
    max_offset: u16,
    count: u64,
    offset_sum: u64,
}

const _: () = assert!(std::mem::size_of::<StoredBin>() == 24);

impl StoredBin {
    #[inline]
    fn offset(index: u32, distance: u64) -> u64 {
        distance - bin_range(index).0
    }

    #[inline]
    fn single(index: u32, distance: u64) -> Self {
        let off = Self::offset(index, distance);
        let off16 = off.min(u16::MAX as u64) as u16;
        StoredBin {
            index,
            min_offset: off16,
            max_offset: off16,
            count: 1,
            offset_sum: off,
        }
    }

    #[inline]
    fn add(&mut self, distance: u64) {
        let off = Self::offset(self.index, distance);
        let off16 = off.min(u16::MAX as u64) as u16;
        self.min_offset = self.min_offset.min(off16);
        self.max_offset = self.max_offset.max(off16);
        self.count += 1;
        self.offset_sum = self.offset_sum.wrapping_add(off);
    }

    #[inline]
    fn merge(&mut self, other: &StoredBin) {
        self.min_offset = self.min_offset.min(other.min_offset);
        self.max_offset = self.max_offset.max(other.max_offset);
        self.count += other.count;
        self.offset_sum = self.offset_sum.wrapping_add(other.offset_sum);
    }

    /// The statistics in distances.
    #[inline]
    fn bin(&self) -> Bin {
        let lo = bin_range(self.index).0;
        Bin {
            min: lo + self.min_offset as u64,
            max: lo + self.max_offset as u64,
            sum: lo as u128 * self.count as u128 + self.offset_sum as u128,
            count: self.count,
        }
    }
}

/// The non-empty bins of one distance distribution, sorted by bin index. Most keys touch one
/// to three bins, so a sorted vector beats a map; the first bin is held inline, which spares
/// most records of long histories (one bin each) an allocation and a cache miss per access.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bins {
    bins: SmallVec<[StoredBin; 1]>,
}

impl Bins {
    /// No distances.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one distance.
    #[inline]
    pub fn add(&mut self, distance: u64) {
        let idx = bin_index(distance);
        // Fast path: the same bin as last time is by far the common case.
        for b in self.bins.iter_mut() {
            if b.index == idx {
                b.add(distance);
                return;
            }
        }
        let at = self.bins.partition_point(|b| b.index < idx);
        self.bins.insert(at, StoredBin::single(idx, distance));
    }

    /// Merges another distribution into this one.
    pub fn merge(&mut self, other: &Bins) {
        for b in &other.bins {
            match self.bins.binary_search_by_key(&b.index, |s| s.index) {
                Ok(at) => self.bins[at].merge(b),
                Err(at) => self.bins.insert(at, *b),
            }
        }
    }

    /// Empties the distribution, keeping its allocation (for reuse as a scratch buffer).
    pub fn clear(&mut self) {
        self.bins.clear();
    }

    /// The bins, ascending: each bin's index and statistics.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Bin)> + '_ {
        self.bins.iter().map(|b| (b.index, b.bin()))
    }

    /// Total references.
    pub fn count(&self) -> u64 {
        self.bins.iter().map(|b| b.count).sum()
    }

    /// Whether no distance was recorded.
    pub fn is_empty(&self) -> bool {
        self.bins.is_empty()
    }
}

/// The latest bin of one distribution being collected ([`CollectingBins`]), with its first
/// touches: 32 bytes, two per cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
pub(crate) struct LatestBin {
    /// The latest distance's bin (`count == 0`: no distance yet).
    bin: StoredBin,
    /// First touches (infinite distance).
    pub(crate) cold: u64,
}

const _: () = assert!(std::mem::size_of::<LatestBin>() == 32);

impl Default for LatestBin {
    fn default() -> Self {
        LatestBin {
            bin: StoredBin {
                index: 0,
                min_offset: 0,
                max_offset: 0,
                count: 0,
                offset_sum: 0,
            },
            cold: 0,
        }
    }
}

/// Many distributions being collected, one distance at a time: each one's latest bin in a
/// dense array of [`LatestBin`]s, its other bins apart, unsorted until
/// [`CollectingBins::into_bins`]. A path profile charges each of hundreds of thousands of
/// records in turn, usually to the same bin as the record's last distance: that touches 32
/// bytes, and the records in use at a time stay in the core's cache.
#[derive(Clone, Debug, Default)]
pub(crate) struct CollectingBins {
    latest: Vec<LatestBin>,
    rest: Vec<Vec<StoredBin>>,
}

impl CollectingBins {
    /// Distribution `r`'s latest bin and first touches (made on first use).
    #[inline]
    pub(crate) fn get(&mut self, r: usize) -> &mut LatestBin {
        if r >= self.latest.len() {
            self.latest.resize_with(r + 1, LatestBin::default);
        }
        &mut self.latest[r]
    }

    /// Starts loading distribution `r`'s latest bin (a hint: nothing is read).
    #[inline(always)]
    pub(crate) fn prefetch(&self, r: usize) {
        rdengines::table::prefetch_read(self.latest.as_ptr().wrapping_add(r));
    }

    /// Records one distance of distribution `r`.
    #[inline]
    pub(crate) fn add(&mut self, r: usize, distance: u64) {
        let idx = bin_index(distance);
        let latest = &mut self.get(r).bin;
        if latest.index == idx && latest.count != 0 {
            latest.add(distance);
        } else {
            self.add_to_other(r, idx, distance);
        }
    }

    /// A distance in another bin than the latest: that bin becomes the latest.
    #[inline(never)]
    fn add_to_other(&mut self, r: usize, idx: u32, distance: u64) {
        let latest = self.latest[r].bin;
        if latest.count == 0 {
            self.latest[r].bin = StoredBin::single(idx, distance);
            return;
        }
        if r >= self.rest.len() {
            self.rest.resize_with(r + 1, Vec::new);
        }
        let rest = &mut self.rest[r];
        let bin = match rest.iter().position(|b| b.index == idx) {
            Some(at) => {
                let mut bin = std::mem::replace(&mut rest[at], latest);
                bin.add(distance);
                bin
            }
            None => {
                rest.push(latest);
                StoredBin::single(idx, distance)
            }
        };
        self.latest[r].bin = bin;
    }

    /// Each distribution collected, in order: its bins sorted, and its first touches.
    pub(crate) fn into_bins(self) -> impl Iterator<Item = (Bins, u64)> {
        let rest = self
            .rest
            .into_iter()
            .chain(std::iter::repeat_with(Vec::new));
        self.latest.into_iter().zip(rest).map(|(latest, rest)| {
            let mut bins: SmallVec<[StoredBin; 1]> = SmallVec::from_vec(rest);
            if latest.bin.count != 0 {
                bins.push(latest.bin);
            }
            bins.sort_unstable_by_key(|b| b.index);
            (Bins { bins }, latest.cold)
        })
    }
}

/// A bin in reports: its index and statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BinSummary {
    /// Bin index ([`bin_index`]).
    pub index: u32,
    /// Smallest distance.
    pub min: u64,
    /// Largest distance.
    pub max: u64,
    /// Mean distance.
    pub mean: f64,
    /// References.
    pub count: u64,
}

impl Bins {
    /// The bins as report rows.
    pub fn summaries(&self) -> Vec<BinSummary> {
        self.iter()
            .map(|(i, b)| BinSummary {
                index: i,
                min: b.min,
                max: b.max,
                mean: b.mean(),
                count: b.count,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_boundaries() {
        assert_eq!(bin_index(0), 0);
        assert_eq!(bin_index(1), 1);
        assert_eq!(bin_index(2), 2);
        assert_eq!(bin_index(3), 2);
        assert_eq!(bin_index(4), 3);
        assert_eq!(bin_index(1023), 10);
        assert_eq!(bin_index(1024), 11);
        assert_eq!(bin_index(2047), 11);
        assert_eq!(bin_index(2048), 12);
        assert_eq!(bin_index(10 * 1024 + 5), 20);
        for idx in 0..40 {
            let (lo, hi) = bin_range(idx);
            assert_eq!(bin_index(lo), idx);
            assert_eq!(bin_index(hi), idx);
            assert_eq!(bin_index(hi + 1), idx + 1);
        }
    }

    /// Distributions collected with their latest bin apart equal those added one distance at a
    /// time, whatever the order of bins (repeats, returns to an older bin, new bins below).
    #[test]
    fn collecting_bins_equal_bins_added_in_order() {
        let mut rng = rdengines::SplitMix64::new(11);
        let mut collecting = CollectingBins::default();
        let mut want = vec![(Bins::new(), 0u64); 40];
        for _ in 0..20_000 {
            let r = (rng.next_u64() % 40) as usize;
            let d = match rng.next_u64() % 5 {
                0 => rng.next_u64() % 4,
                1 => rng.next_u64() % 1024,
                2 => rng.next_u64() % 100_000,
                3 => 1 << 45,
                _ => {
                    collecting.get(r).cold += 1;
                    want[r].1 += 1;
                    continue;
                }
            };
            collecting.add(r, d);
            want[r].0.add(d);
        }
        let got: Vec<(Bins, u64)> = collecting.into_bins().collect();
        assert_eq!(got, want);
    }

    #[test]
    fn bins_keep_min_max_mean_count() {
        let mut b = Bins::new();
        for d in [5, 7, 6, 0, 1500, 1030, 0] {
            b.add(d);
        }
        let s = b.summaries();
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].index, s[0].min, s[0].max, s[0].count), (0, 0, 0, 2));
        assert_eq!((s[1].index, s[1].min, s[1].max, s[1].count), (3, 5, 7, 3));
        assert_eq!(s[1].mean, 6.0);
        assert_eq!(
            (s[2].index, s[2].min, s[2].max, s[2].count),
            (11, 1030, 1500, 2)
        );
        let mut c = Bins::new();
        c.add(6);
        c.add(3000);
        b.merge(&c);
        assert_eq!(b.count(), 9);
        assert_eq!(b.summaries().len(), 4);
    }

    /// The stored offsets give back exact statistics far out, where a bin starts at a large
    /// distance: 10^12 = 976562500 * 1024 ends a 1K-wide bin.
    #[test]
    fn far_bins_keep_exact_statistics() {
        let base = 1_000_000_000_000u64;
        let mut b = Bins::new();
        for d in [base - 1, base - 4096, base - 1000] {
            b.add(d);
        }
        let mut c = Bins::new();
        c.add(base - 3);
        c.add(1 << 40);
        b.merge(&c);
        let got: Vec<(u32, Bin)> = b.iter().collect();
        assert_eq!(got.len(), 3);
        let (i, far) = got[1];
        assert_eq!(i, bin_index(base - 1));
        assert_eq!((far.min, far.max, far.count), (base - 1000, base - 1, 3));
        assert_eq!(far.sum, 3 * base as u128 - 1004);
        assert_eq!(got[0].1.min, base - 4096);
        assert_eq!((got[2].1.min, got[2].1.max), (1 << 40, 1 << 40));
        assert_eq!(got[2].1.sum, 1 << 40);
    }
}
