//! [`LastLineStack`]: a [`FrontedStack`] that knows the block it was accessed with last, and
//! the prefetching loop that runs a batch of references through it.
//!
//! Analyses that need each reference's distance one at a time (the formula model's stacks,
//! the path profile's records) run a batch of blocks through [`LastLineStack::access_at`] and
//! get each distance in order. The loop is the engines' fast loop without the histogram: a repeat
//! of the top block has distance 0 and moves nothing; every other reference starts the cache
//! misses of a later one (its block-map entry 32 references ahead, its bitmap word 16 ahead).
//! Call it inside [`crate::dispatch!`] so that the stack's popcounts compile to the CPU's
//! instruction.

use crate::front::FrontedStack;

/// An exact LRU stack of blocks that knows its top block: a repeat of that block (distance 0)
/// is not looked up.
pub struct LastLineStack {
    stack: FrontedStack,
    last: Option<u64>,
}

impl Default for LastLineStack {
    fn default() -> Self {
        LastLineStack {
            // Distances only: no slot-to-block index (less memory traffic per reference).
            stack: FrontedStack::untracked(0),
            last: None,
        }
    }
}

impl LastLineStack {
    /// The distance of `blocks[i]` (`None`: first access), with the core's misses of later
    /// references started ahead; call it for `i = 0, 1, ...` of a batch, in order (a loop
    /// rather than a callback, so that the caller's per-reference work is inlined beside it).
    /// Prefetches are hints: every distance is the exact one.
    #[inline(always)]
    pub fn access_at(&mut self, blocks: &[u64], i: usize) -> Option<u64> {
        const AHEAD: usize = 32;
        let block = blocks[i];
        if self.last == Some(block) {
            return Some(0);
        }
        if let Some(&k) = blocks.get(i + AHEAD) {
            self.stack.prefetch(k);
        }
        if let Some(&k) = blocks.get(i + AHEAD / 2) {
            self.stack.prefetch_slot(k);
        }
        self.last = Some(block);
        self.stack.access(block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Every distance equals the definition's (depth in a most-recent-last list), over batches
    /// of every size (the top block and the prefetch distance cross batch boundaries).
    #[test]
    fn distances_equal_the_naive_stack() {
        let mut rng = SplitMix64::new(7);
        let blocks: Vec<u64> = (0..5_000u64)
            .map(|i| match rng.next_u64() % 4 {
                0 => i % 5,
                1 => rng.next_u64() % 40,
                _ => rng.next_u64() % 600,
            })
            .collect();
        let mut naive: Vec<u64> = Vec::new();
        let want: Vec<Option<u64>> = blocks
            .iter()
            .map(|&b| {
                let at = naive.iter().rposition(|&x| x == b);
                let d = at.map(|p| (naive.len() - 1 - p) as u64);
                if let Some(p) = at {
                    naive.remove(p);
                }
                naive.push(b);
                d
            })
            .collect();
        for batch in [1, 7, 33, 1000, blocks.len()] {
            let mut stack = LastLineStack::default();
            let mut got = Vec::new();
            for chunk in blocks.chunks(batch) {
                for i in 0..chunk.len() {
                    got.push(stack.access_at(chunk, i));
                }
            }
            assert_eq!(got, want, "batch {batch}");
        }
    }
}
