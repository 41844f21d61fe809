//! The host side of the kernels' interface (`hprda.wgsl`): workgroup size, entry points,
//! buffer geometry per batch and the uniform parameter block.

pub(crate) const WG: u32 = 64;
/// Most distinct blocks the engine can analyse: dense ids are 32-bit on the GPU, and the hash
/// tables reserve the key `id + 1 = 0` for an empty slot and `u32::MAX` ids for "none".
pub(crate) const MAX_IDS: usize = u32::MAX as usize - 1;
/// Global-table bytes per dense id: 64-bit end position of its last thread block + latest.
pub(crate) const GTAB_BYTES: u64 = 12;
pub(crate) const ENTRY_POINTS: [&str; 7] = [
    "thread_level",
    "block_prefix",
    "record_insert",
    "thread_merge",
    "block_offsets",
    "block_merge",
    "adjust",
];
/// Index of `block_offsets` in [`ENTRY_POINTS`] (then `block_merge`).
pub(crate) const BLOCK_OFFSETS: usize = 4;
pub(crate) const BLOCK_MERGE: usize = 5;
/// Index of `adjust` (formulas (2)-(3)) in [`ENTRY_POINTS`].
pub(crate) const ADJUST: usize = 6;
/// Byte offset of `Params::cur`, which the host sets before each `block_merge` dispatch.
pub(crate) const PARAMS_CUR_OFFSET: u64 = std::mem::offset_of!(Params, cur) as u64;

/// Per-batch sizes derived from ST, NB and the number of thread blocks per batch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    pub(crate) st: u32,
    pub(crate) nb: u32,
    /// References per batch (whole thread blocks).
    pub(crate) batch: u32,
    pub(crate) tcap: u32,
    pub(crate) bcap: u32,
    pub(crate) bwords: u32,
}

impl Geometry {
    pub(crate) fn new(st: usize, nb: usize, blocks: usize) -> Geometry {
        let (st, nb) = (st as u32, nb as u32);
        Geometry {
            st,
            nb,
            batch: st * nb * blocks as u32,
            // Load factor ≤ 1/2 for both tables.
            tcap: (2 * st).next_power_of_two(),
            bcap: (2 * st * nb).next_power_of_two(),
            bwords: st.div_ceil(32),
        }
    }
    pub(crate) fn traces(&self) -> u64 {
        (self.batch / self.st) as u64
    }
    pub(crate) fn blocks(&self) -> u64 {
        (self.batch / (self.st * self.nb)) as u64
    }
    /// Byte sizes of the per-batch buffers, bindings 1..=10, 12 and 14 (11 is the global
    /// table, 13 the persistent state).
    pub(crate) fn sizes(&self) -> [u64; 12] {
        let n = self.batch as u64;
        let (t, b) = (self.traces(), self.blocks());
        [
            4 * n,                                 // 1 refs
            4 * t * self.bwords as u64,            // 2 bitmap
            12 * t * self.tcap as u64,             // 3 ttab
            8 * t,                                 // 4 counts + tprefix
            12 * n,                                // 5 rec
            8 * b * self.bcap as u64,              // 6 btab
            12 * n,                                // 7 ents
            8 * b,                                 // 8 bcount
            4 * self.st as u64,                    // 9 hist_local
            4 * (self.st as u64 * self.nb as u64), // 10 hist_cross
            8 * n,                                 // 12 outd
            12 * b,                                // 14 boffs
        ]
    }
    /// The kernels' parameters for a batch of `n` references in `ntraces` thread-local traces
    /// and `nblocks` thread blocks (`cur` and the adjustment's fields zero).
    pub(crate) fn params(&self, n: u32, ntraces: u32, nblocks: u32) -> Params {
        Params {
            n,
            st: self.st,
            nb: self.nb,
            ntraces,
            nblocks,
            tcap: self.tcap,
            bcap: self.bcap,
            bwords: self.bwords,
            cur: 0,
            adj_m: 0,
            adj_tc: [0; 2],
        }
    }
    pub(crate) fn bytes_total(&self) -> u64 {
        self.sizes().iter().sum()
    }
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct Params {
    pub(crate) n: u32,
    pub(crate) st: u32,
    pub(crate) nb: u32,
    pub(crate) ntraces: u32,
    pub(crate) nblocks: u32,
    pub(crate) tcap: u32,
    pub(crate) bcap: u32,
    pub(crate) bwords: u32,
    pub(crate) cur: u32,
    pub(crate) adj_m: u32,
    pub(crate) adj_tc: [u32; 2],
}
