//! Kernels as grids of thread blocks, each with its own MI reference stream, and the stream
//! transformations of the thesis's Locality Analyzer: merging concurrent blocks into an
//! aggregate block (Algorithm 4), serialising streams with renumbered positions (Algorithm 5),
//! and splitting MIs that need more load/store units than a core cluster has (section 7.2.3).

use crate::mi::{Granularity, MemInstr};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One thread block and the reference stream its threads issued.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockStream {
    /// Block id (`blockIdx`), unique within the kernel.
    pub id: u64,
    /// MIs in issue order; `pos` of each is its position index.
    pub mis: Vec<MemInstr>,
}

impl BlockStream {
    /// Number of lanes (thread accesses) in the block's MIs.
    pub fn lanes(&self) -> u64 {
        self.mis.iter().map(|m| m.lanes.len() as u64).sum()
    }
}

/// One kernel launch: its blocks in the order the tracer executed them (the thesis's grid
/// object).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kernel {
    /// Human-readable label (kernel name, or worksharing loop and source location).
    pub name: String,
    /// Blocks in trace order.
    pub blocks: Vec<BlockStream>,
}

impl Kernel {
    /// Total number of MIs over all blocks.
    pub fn mis(&self) -> u64 {
        self.blocks.iter().map(|b| b.mis.len() as u64).sum()
    }

    /// Total number of lanes over all blocks.
    pub fn lanes(&self) -> u64 {
        self.blocks.iter().map(BlockStream::lanes).sum()
    }

    /// The kernel with every lane address mapped to `granularity`.
    pub fn with_granularity(mut self, granularity: Granularity) -> Kernel {
        if granularity != Granularity::Element {
            for mi in self.blocks.iter_mut().flat_map(|b| b.mis.iter_mut()) {
                for a in &mut mi.lanes {
                    *a = granularity.map(*a);
                }
            }
        }
        self
    }
}

/// Merges the streams of blocks that run concurrently into one aggregate block: MIs with the
/// same position index become one MI whose lanes are the lanes of all of them, in block order
/// (so common addresses add their multiplicities, eq. 2 of section 7.2.4). The merged MI keeps
/// the PC of the first block's MI at that position. MIs come out in position order.
// See: thesis definition 4 (aggregate block) and Algorithm 4 (StreamMerge).
pub fn aggregate_block(blocks: &[&BlockStream]) -> BlockStream {
    let mut by_pos: BTreeMap<u64, MemInstr> = BTreeMap::new();
    for block in blocks {
        for mi in &block.mis {
            match by_pos.get_mut(&mi.pos) {
                // Algorithm 4 lines 8-15: the slot is taken; add threads and addresses.
                Some(agg) => agg.lanes.extend_from_slice(&mi.lanes),
                // Line 17: a new slot, copied from the block's MI.
                None => {
                    by_pos.insert(mi.pos, mi.clone());
                }
            }
        }
    }
    BlockStream {
        id: blocks.first().map_or(0, |b| b.id),
        mis: by_pos.into_values().collect(),
    }
}

/// Splits an MI whose active lanes exceed `lsu` load/store units into consecutive groups of at
/// most `lsu` lanes, in thread order, each issued as its own MI. Calls `f` with each group.
// See: thesis section 7.2.3: with x load/store units and y > x requesting threads, the request
// is issued in several MIs, which lengthens the reference stream.
pub fn split_for_lsu(lanes: &[u64], lsu: usize, mut f: impl FnMut(&[u64])) {
    if lanes.is_empty() {
        f(lanes);
        return;
    }
    for group in lanes.chunks(lsu.max(1)) {
        f(group);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mi(pos: u64, pc: u64, lanes: &[u64]) -> MemInstr {
        MemInstr {
            pc,
            pos,
            gpos: 0,
            lanes: lanes.to_vec(),
        }
    }

    #[test]
    fn aggregate_merges_by_position_index() {
        let b0 = BlockStream {
            id: 0,
            mis: vec![mi(1, 10, &[1, 2]), mi(2, 11, &[3])],
        };
        let b1 = BlockStream {
            id: 1,
            mis: vec![mi(1, 10, &[2, 5]), mi(2, 12, &[3]), mi(3, 13, &[9])],
        };
        let agg = aggregate_block(&[&b0, &b1]);
        assert_eq!(agg.mis.len(), 3);
        assert_eq!(agg.mis[0].lanes, vec![1, 2, 2, 5]);
        assert_eq!(agg.mis[0].address_array().multiplicity(2), 2);
        assert_eq!(agg.mis[1].pc, 11);
        assert_eq!(agg.mis[1].lanes, vec![3, 3]);
        assert_eq!(agg.mis[2].lanes, vec![9]);
    }

    #[test]
    fn lsu_split_groups_lanes_in_thread_order() {
        let mut groups = Vec::new();
        split_for_lsu(&[1, 2, 3, 4, 5], 2, |g| groups.push(g.to_vec()));
        assert_eq!(groups, vec![vec![1, 2], vec![3, 4], vec![5]]);
        groups.clear();
        split_for_lsu(&[1, 2], 16, |g| groups.push(g.to_vec()));
        assert_eq!(groups, vec![vec![1, 2]]);
    }

    #[test]
    fn granularity_maps_every_lane() {
        let k = Kernel {
            name: "k".into(),
            blocks: vec![BlockStream {
                id: 0,
                mis: vec![mi(1, 0, &[0, 63, 64, 130])],
            }],
        };
        let l = k.with_granularity(Granularity::Line(64));
        assert_eq!(l.blocks[0].mis[0].lanes, vec![0, 0, 1, 2]);
        assert_eq!(l.mis(), 1);
        assert_eq!(l.lanes(), 4);
    }
}
