//! Dominators of a control-flow graph given as successor lists over block indexes.
//!
//! Kept free of LLVM types so that it can be unit-tested on hand-written graphs; the pass builds
//! the successor lists from inkwell blocks and their terminators.
//!
//! See: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm" (2001), Fig. 3: iterate
//! over the blocks in reverse postorder, setting each block's immediate dominator to the
//! intersection (walk up by postorder number) of its already-processed predecessors, until
//! nothing changes.

/// Immediate dominators of every block; `None` for blocks unreachable from the entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dominators {
    /// `idom[b]`: immediate dominator of `b`; the entry is its own immediate dominator.
    idom: Vec<Option<usize>>,
}

impl Dominators {
    /// Computes the dominators of the graph `succs` (successor lists, duplicates allowed)
    /// rooted at `entry`.
    pub fn compute(succs: &[Vec<usize>], entry: usize) -> Self {
        let n = succs.len();
        if n == 0 {
            return Self { idom: Vec::new() };
        }
        let postorder = postorder(succs, entry);
        // Postorder number of each reachable block; the intersection walks towards the entry,
        // which has the highest number.
        let mut po_number = vec![usize::MAX; n];
        for (i, &b) in postorder.iter().enumerate() {
            po_number[b] = i;
        }
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            if po_number[b] == usize::MAX {
                continue; // edges out of unreachable blocks do not constrain dominance
            }
            for &s in ss {
                if !preds[s].contains(&b) {
                    preds[s].push(b);
                }
            }
        }

        let mut idom: Vec<Option<usize>> = vec![None; n];
        idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            // See: Cooper-Harvey-Kennedy Fig. 3, "for all nodes b in reverse postorder".
            for &b in postorder.iter().rev() {
                if b == entry {
                    continue;
                }
                let mut new_idom: Option<usize> = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue; // not processed yet in this sweep
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(current) => intersect(&idom, &po_number, p, current),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        Self { idom }
    }

    /// Immediate dominator of `b` (the entry returns itself); `None` when unreachable.
    pub fn idom(&self, b: usize) -> Option<usize> {
        self.idom.get(b).copied().flatten()
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: usize) -> bool {
        self.idom(b).is_some()
    }

    /// Whether `a` dominates `b` (every block dominates itself; nothing dominates or is
    /// dominated by an unreachable block).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            match self.idom(x) {
                Some(up) if up != x => x = up,
                _ => return false,
            }
        }
    }
}

/// See: Cooper-Harvey-Kennedy Fig. 3, `intersect`: walk both fingers up the current dominator
/// tree until they meet, always moving the one with the smaller postorder number.
fn intersect(idom: &[Option<usize>], po_number: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while po_number[a] < po_number[b] {
            a = idom[a].expect("processed blocks have an idom");
        }
        while po_number[b] < po_number[a] {
            b = idom[b].expect("processed blocks have an idom");
        }
    }
    a
}

/// Postorder of the blocks reachable from `entry` (iterative DFS, successors in list order so
/// that the result is deterministic).
pub fn postorder(succs: &[Vec<usize>], entry: usize) -> Vec<usize> {
    let mut visited = vec![false; succs.len()];
    let mut order = Vec::with_capacity(succs.len());
    let mut stack: Vec<(usize, usize)> = vec![(entry, 0)];
    visited[entry] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succs[b].get(*next) {
            *next += 1;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(b);
            stack.pop();
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond() {
        // 0 -> 1, 2; 1 -> 3; 2 -> 3
        let g = vec![vec![1, 2], vec![3], vec![3], vec![]];
        let d = Dominators::compute(&g, 0);
        assert_eq!(d.idom(0), Some(0));
        assert_eq!(d.idom(1), Some(0));
        assert_eq!(d.idom(2), Some(0));
        assert_eq!(d.idom(3), Some(0));
        assert!(d.dominates(0, 3));
        assert!(!d.dominates(1, 3));
    }

    #[test]
    fn loop_with_unreachable_block() {
        // 0 -> 1; 1 -> 2, 4; 2 -> 3; 3 -> 1; 5 -> 1 (unreachable)
        let g = vec![vec![1], vec![2, 4], vec![3], vec![1], vec![], vec![1]];
        let d = Dominators::compute(&g, 0);
        assert_eq!(d.idom(1), Some(0));
        assert_eq!(d.idom(2), Some(1));
        assert_eq!(d.idom(3), Some(2));
        assert_eq!(d.idom(4), Some(1));
        assert_eq!(d.idom(5), None);
        assert!(d.dominates(1, 3));
        assert!(!d.dominates(5, 1));
        assert!(!d.dominates(1, 5));
    }

    #[test]
    fn idom_needs_intersection() {
        // Classic example where a late edge moves an idom up: 0 -> 1, 2; 1 -> 3; 2 -> 4;
        // 3 -> 4; 4 -> 3.  Both 3 and 4 are reachable along two paths, so idom = 0.
        let g = vec![vec![1, 2], vec![3], vec![4], vec![4], vec![3]];
        let d = Dominators::compute(&g, 0);
        assert_eq!(d.idom(3), Some(0));
        assert_eq!(d.idom(4), Some(0));
    }
}
