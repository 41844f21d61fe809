//! Natural loops of a control-flow graph (successor lists over block indexes).
//!
//! A back-edge is an edge `t -> h` whose target `h` dominates its source `t`. The natural loop
//! of a back-edge is `h` plus every block that reaches `t` without passing through `h`; loops
//! that share a header are merged into one (so a `while` with a `continue` is one loop with two
//! back-edges). Loops nest by containment. Edges that close a cycle whose entry does not
//! dominate it (irreducible control flow) are not back-edges and form no loop.

use crate::dominators::Dominators;

/// One natural loop, with blocks given as indexes into the function's block list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaturalLoop {
    /// Header block (target of every back-edge of the loop).
    pub header: usize,
    /// Sources of the loop's back-edges (latches), ascending.
    pub latches: Vec<usize>,
    /// Blocks of the loop including the header, ascending.
    pub blocks: Vec<usize>,
    /// Index of the innermost enclosing loop in [`LoopForest::loops`].
    pub parent: Option<usize>,
    /// Nesting depth, 1 for outermost loops.
    pub depth: u32,
}

impl NaturalLoop {
    /// Whether block `b` belongs to the loop.
    pub fn contains(&self, b: usize) -> bool {
        self.blocks.binary_search(&b).is_ok()
    }
}

/// All natural loops of one function, ordered by header index (a deterministic order that
/// the pass uses to number loops).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopForest {
    /// Loops ordered by header.
    pub loops: Vec<NaturalLoop>,
    /// Innermost loop of each block.
    innermost: Vec<Option<usize>>,
}

impl LoopForest {
    /// Finds the natural loops of `succs` rooted at `entry`.
    pub fn compute(succs: &[Vec<usize>], entry: usize) -> Self {
        let n = succs.len();
        if n == 0 {
            return Self::default();
        }
        let dom = Dominators::compute(succs, entry);
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                if !preds[s].contains(&b) {
                    preds[s].push(b);
                }
            }
        }

        // Body of every header, merged over all of its back-edges. Indexed by header so that
        // the final order is by header without sorting.
        let mut bodies: Vec<Option<(Vec<bool>, Vec<usize>)>> = vec![None; n];
        for (tail, ss) in succs.iter().enumerate() {
            for &head in ss {
                if !dom.dominates(head, tail) {
                    continue;
                }
                let (in_body, latches) =
                    bodies[head].get_or_insert_with(|| (vec![false; n], Vec::new()));
                if !latches.contains(&tail) {
                    latches.push(tail);
                }
                // Reverse reachability from the latch, stopping at the header.
                in_body[head] = true;
                let mut work = vec![tail];
                while let Some(x) = work.pop() {
                    if in_body[x] {
                        continue;
                    }
                    in_body[x] = true;
                    work.extend(preds[x].iter().copied().filter(|&p| dom.is_reachable(p)));
                }
            }
        }

        let mut loops: Vec<NaturalLoop> = bodies
            .into_iter()
            .enumerate()
            .filter_map(|(header, body)| {
                let (in_body, mut latches) = body?;
                latches.sort_unstable();
                let blocks = (0..n).filter(|&b| in_body[b]).collect();
                Some(NaturalLoop {
                    header,
                    latches,
                    blocks,
                    parent: None,
                    depth: 1,
                })
            })
            .collect();

        // Parent: the smallest other loop that contains this loop's header. Requiring a strictly
        // larger body keeps the parent relation acyclic even on odd graphs.
        for i in 0..loops.len() {
            let header = loops[i].header;
            let size = loops[i].blocks.len();
            loops[i].parent = (0..loops.len())
                .filter(|&j| j != i && loops[j].blocks.len() > size && loops[j].contains(header))
                .min_by_key(|&j| (loops[j].blocks.len(), loops[j].header));
        }
        for i in 0..loops.len() {
            let mut depth = 1;
            let mut p = loops[i].parent;
            while let Some(j) = p {
                depth += 1;
                p = loops[j].parent;
            }
            loops[i].depth = depth;
        }

        let innermost = (0..n)
            .map(|b| {
                (0..loops.len())
                    .filter(|&i| loops[i].contains(b))
                    .min_by_key(|&i| (loops[i].blocks.len(), loops[i].header))
            })
            .collect();
        Self { loops, innermost }
    }

    /// Innermost loop containing block `b`.
    pub fn innermost(&self, b: usize) -> Option<usize> {
        self.innermost.get(b).copied().flatten()
    }

    /// The loop whose back-edge `from -> to` is, if it is one.
    pub fn back_edge_loop(&self, from: usize, to: usize) -> Option<usize> {
        self.loops
            .iter()
            .position(|l| l.header == to && l.latches.binary_search(&from).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_loops() {
        // 0 entry -> 1 outer header -> 2 inner header -> 3 inner body -> 2 (back-edge);
        // 2 -> 4 outer latch -> 1 (back-edge); 1 -> 5 exit.
        let g = vec![vec![1], vec![2, 5], vec![3, 4], vec![2], vec![1], vec![]];
        let f = LoopForest::compute(&g, 0);
        assert_eq!(f.loops.len(), 2);
        let outer = &f.loops[0];
        let inner = &f.loops[1];
        assert_eq!((outer.header, inner.header), (1, 2));
        assert_eq!(outer.blocks, vec![1, 2, 3, 4]);
        assert_eq!(inner.blocks, vec![2, 3]);
        assert_eq!((outer.parent, inner.parent), (None, Some(0)));
        assert_eq!((outer.depth, inner.depth), (1, 2));
        assert_eq!(f.innermost(3), Some(1));
        assert_eq!(f.innermost(4), Some(0));
        assert_eq!(f.innermost(5), None);
        assert_eq!(f.back_edge_loop(3, 2), Some(1));
        assert_eq!(f.back_edge_loop(4, 1), Some(0));
        assert_eq!(f.back_edge_loop(0, 1), None);
    }

    #[test]
    fn two_back_edges_merge_into_one_loop() {
        // while (c) { if (x) { continue; } body; }: 0 -> 1 header -> 2, 5; 2 -> 3, 4;
        // 3 -> 1 (continue); 4 -> 1 (end of body).
        let g = vec![vec![1], vec![2, 5], vec![3, 4], vec![1], vec![1], vec![]];
        let f = LoopForest::compute(&g, 0);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].latches, vec![3, 4]);
        assert_eq!(f.loops[0].blocks, vec![1, 2, 3, 4]);
        assert_eq!(f.back_edge_loop(3, 1), Some(0));
        assert_eq!(f.back_edge_loop(4, 1), Some(0));
    }

    #[test]
    fn self_loop_and_sibling_loops() {
        // 0 -> 1 (self loop) -> 2 -> 3 -> 2 ; 3 -> 4
        let g = vec![vec![1], vec![1, 2], vec![3], vec![2, 4], vec![]];
        let f = LoopForest::compute(&g, 0);
        assert_eq!(f.loops.len(), 2);
        assert_eq!(f.loops[0].blocks, vec![1]);
        assert_eq!(f.loops[1].blocks, vec![2, 3]);
        assert!(f.loops.iter().all(|l| l.parent.is_none() && l.depth == 1));
    }

    #[test]
    fn irreducible_cycle_is_not_a_loop() {
        // 0 -> 1, 2; 1 -> 2; 2 -> 1: the cycle 1 <-> 2 has two entries, neither dominates.
        let g = vec![vec![1, 2], vec![2], vec![1]];
        let f = LoopForest::compute(&g, 0);
        assert!(f.loops.is_empty());
    }
}
