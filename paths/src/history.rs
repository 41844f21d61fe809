//! Branch history per thread: a stack of conditional-branch outcome bits with loop squashing.
//!
//! See: path-based reuse distance, Section 3.2 — "we use a stack to keep track of the branch
//! history during profiling … we detect loop back-edges during profiling and keep the branch
//! history for up to l iterations of a loop, where l is the number of data elements that fit in
//! one cache-line. … After l iterations or at the exit of a loop, the branch history in the loop
//! is squashed with all corresponding history bits cleared from the stack."
//!
//! How the trace drives the stack:
//!
//! * A `Branch` event of a conditional branch pushes its outcome bit (the index of the taken
//!   successor); a switch pushes `ceil(log2 successors)` bits of its outcome, most significant
//!   first. Unconditional back-edges (kind `BackEdge`) push nothing but count an iteration.
//! * Loops are tracked per call frame from block membership (`BlockMeta::loop_id` and the loop
//!   parents): entering a block of loop L from outside L records the stack height at entry;
//!   a block outside an active loop means the loop exited, and the stack is cut back to the
//!   loop's entry height (its bits, including the exit branch's, are squashed).
//! * A taken successor that is a back-edge of loop L (`BranchMeta::back_edge_of`) ends one
//!   iteration of L; after `l` iterations the stack is cut back to L's entry height and the
//!   count restarts. So inside a loop at most `l` iterations' worth of bits are ever visible.
//! * Calls are recognised by the entry block of a function, returns by a block, branch or
//!   access of a function further down the frame stack; a returning frame exits its loops.
//!   Bits pushed by a callee outside its loops stay (the paper does not squash calls).
//!
//! Keys: the *n-bit history* of an access is the top `n` bits of the stack; when the stack is
//! shallower than `n` the depth is part of the key (a short stack is its own path). The *exact
//! path* of the same window also names the branch of every bit, so two windows with equal bits
//! but different branches are history aliases (Section 4.2). Exact windows are hashed in O(1)
//! per access with prefix polynomial hashes kept beside the stack.

use rdengines::mix64;
use rdtrace::meta::{BranchKind, ProgramMeta};
use serde::{Deserialize, Serialize};

/// Marker for "no loop".
const NO_LOOP: u32 = u32::MAX;
/// Base of the polynomial window hash (odd, so powers never vanish modulo 2^64).
const HASH_BASE: u64 = 0x9e37_79b9_7f4a_7c15;
/// Most history bits a key can hold.
pub const MAX_HISTORY_BITS: u32 = 56;

/// How many iterations of a loop keep their bits before the loop is squashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SquashPeriod {
    /// The same `l` for every loop.
    Fixed(u32),
    /// Per loop, `l = line / element size`, the element size being the most common static
    /// access size among the memory instructions in the loop's own blocks (8 bytes for loops
    /// without accesses of their own). See: Section 3.2, "l is the number of data elements that
    /// fit in one cache-line".
    PerLoop,
}

/// One entry of the history stack: `(branch id << 1) | bit`.
pub type HistoryEntry = u32;

/// Static tables the tracker needs, indexed by global id.
#[derive(Clone, Debug)]
struct Tables {
    block_function: Vec<u32>,
    block_is_entry: Vec<bool>,
    block_loop: Vec<u32>,
    /// For each loop, its chain of loops from the outermost down to itself.
    loop_chain: Vec<Box<[u32]>>,
    loop_period: Vec<u32>,
    branch_block: Vec<u32>,
    /// Bits pushed per outcome (0 for unconditional back-edges).
    branch_width: Vec<u8>,
    /// Per branch, per successor: the loop whose back-edge it is, or `NO_LOOP`.
    branch_back_edge: Vec<Box<[u32]>>,
    mi_block: Vec<u32>,
}

impl Tables {
    fn new(meta: &ProgramMeta, line: u32, squash: SquashPeriod) -> Tables {
        let mut block_function = Vec::with_capacity(meta.blocks.len());
        let mut block_is_entry = vec![false; meta.blocks.len()];
        let mut block_loop = Vec::with_capacity(meta.blocks.len());
        for b in &meta.blocks {
            block_function.push(b.function);
            block_loop.push(b.loop_id.unwrap_or(NO_LOOP));
        }
        for f in &meta.functions {
            if let Some(e) = block_is_entry.get_mut(f.first_block as usize) {
                *e = true;
            }
        }
        let loop_chain = (0..meta.loops.len())
            .map(|l| {
                let mut chain = vec![l as u32];
                let mut cur = meta.loops[l].parent;
                // Parents form a tree; the bound guards against corrupt metadata with a cycle.
                while let Some(p) = cur {
                    if chain.len() > meta.loops.len() || p as usize >= meta.loops.len() {
                        break;
                    }
                    chain.push(p);
                    cur = meta.loops[p as usize].parent;
                }
                chain.reverse();
                chain.into_boxed_slice()
            })
            .collect();
        let loop_period = match squash {
            SquashPeriod::Fixed(l) => vec![l.max(1); meta.loops.len()],
            SquashPeriod::PerLoop => {
                // Histogram of static access sizes per loop (own blocks only).
                let mut sizes: Vec<Vec<(u32, u32)>> = vec![Vec::new(); meta.loops.len()];
                for m in &meta.mem_instrs {
                    let Some(b) = meta.blocks.get(m.block as usize) else {
                        continue;
                    };
                    let (Some(l), true) = (b.loop_id, m.size > 0) else {
                        continue;
                    };
                    let Some(h) = sizes.get_mut(l as usize) else {
                        continue;
                    };
                    match h.iter_mut().find(|(s, _)| *s == m.size) {
                        Some((_, n)) => *n += 1,
                        None => h.push((m.size, 1)),
                    }
                }
                sizes
                    .iter()
                    .map(|h| {
                        // Most common size; ties go to the larger element.
                        let elem = h
                            .iter()
                            .max_by_key(|&&(s, n)| (n, s))
                            .map_or(8, |&(s, _)| s);
                        (line / elem.max(1)).max(1)
                    })
                    .collect()
            }
        };
        let mut branch_block = Vec::with_capacity(meta.branches.len());
        let mut branch_width = Vec::with_capacity(meta.branches.len());
        let mut branch_back_edge = Vec::with_capacity(meta.branches.len());
        for br in &meta.branches {
            branch_block.push(br.block);
            branch_width.push(match br.kind {
                BranchKind::BackEdge => 0,
                BranchKind::Conditional => 1,
                BranchKind::Switch => {
                    let n = br.successors.len().max(2) as u32;
                    (32 - (n - 1).leading_zeros()) as u8
                }
            });
            branch_back_edge.push(
                br.back_edge_of
                    .iter()
                    .map(|l| l.unwrap_or(NO_LOOP))
                    .collect(),
            );
        }
        let mi_block = meta.mem_instrs.iter().map(|m| m.block).collect();
        Tables {
            block_function,
            block_is_entry,
            block_loop,
            loop_chain,
            loop_period,
            branch_block,
            branch_width,
            branch_back_edge,
            mi_block,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct ActiveLoop {
    id: u32,
    /// Stack height when the loop was entered.
    height: usize,
    /// Back-edges taken since entry or the last squash.
    iterations: u32,
}

#[derive(Clone, Debug)]
struct Frame {
    function: u32,
    /// Active loops, outermost first (always a prefix of some loop chain).
    loops: Vec<ActiveLoop>,
}

/// The branch-history stack of one thread, driven by its events. Build once per program with
/// [`BranchHistory::new`]; call [`BranchHistory::reset`] before each thread.
#[derive(Clone, Debug)]
pub struct BranchHistory {
    tables: Tables,
    frames: Vec<Frame>,
    /// Block of the last synchronised event (`u32::MAX`: none).
    cur_block: u32,
    entries: Vec<HistoryEntry>,
    /// `prefix[i]` is the polynomial hash of `entries[..i]`.
    prefix: Vec<u64>,
    /// `HASH_BASE^n` for every window length.
    powers: Vec<u64>,
}

impl BranchHistory {
    /// A tracker for a program, with cache lines of `line` bytes and the given squash period.
    pub fn new(meta: &ProgramMeta, line: u32, squash: SquashPeriod) -> Self {
        let mut powers = vec![1u64; MAX_HISTORY_BITS as usize + 1];
        for i in 1..powers.len() {
            powers[i] = powers[i - 1].wrapping_mul(HASH_BASE);
        }
        BranchHistory {
            tables: Tables::new(meta, line, squash),
            frames: Vec::new(),
            cur_block: u32::MAX,
            entries: Vec::new(),
            prefix: vec![0],
            powers,
        }
    }

    /// Clears all per-thread state (stack, frames, loops).
    pub fn reset(&mut self) {
        self.frames.clear();
        self.cur_block = u32::MAX;
        self.entries.clear();
        self.prefix.truncate(1);
    }

    /// The squash period `l` used for a loop.
    pub fn loop_period(&self, loop_id: u32) -> Option<u32> {
        self.tables.loop_period.get(loop_id as usize).copied()
    }

    /// Current stack depth in bits.
    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    /// The stack entries, most recent first.
    pub fn top(&self) -> impl Iterator<Item = HistoryEntry> + '_ {
        self.entries.iter().rev().copied()
    }

    #[inline]
    fn push(&mut self, entry: HistoryEntry) {
        let h = *self.prefix.last().unwrap();
        self.entries.push(entry);
        self.prefix.push(
            h.wrapping_mul(HASH_BASE)
                .wrapping_add(mix64(entry as u64 + 1)),
        );
    }

    #[inline]
    fn truncate(&mut self, height: usize) {
        if self.entries.len() > height {
            self.entries.truncate(height);
            self.prefix.truncate(height + 1);
        }
    }

    /// Hash of the exact window of the top `n` entries (branch ids and bits) together with
    /// its depth `min(n, stack depth)`. Equal keys mean equal exact paths (up to 64-bit hash
    /// collisions).
    #[inline]
    pub fn exact_key(&self, n: u32) -> u64 {
        let len = self.entries.len();
        let n = (n as usize).min(len);
        let window =
            self.prefix[len].wrapping_sub(self.prefix[len - n].wrapping_mul(self.powers[n]));
        mix64(window ^ ((n as u64) << 57))
    }

    /// Handles a `Block` event.
    #[inline]
    pub fn block(&mut self, bb: u32) {
        self.sync(bb, true);
    }

    /// Handles an `Access` event's context (a return may have happened since the last event).
    #[inline]
    pub fn access(&mut self, mi: u32) {
        if let Some(&bb) = self.tables.mi_block.get(mi as usize) {
            if bb != self.cur_block {
                self.sync(bb, false);
            }
        }
    }

    /// Handles a `Branch` event: pushes its bits and counts loop iterations.
    #[inline]
    pub fn branch(&mut self, br: u32, outcome: u32) {
        let b = br as usize;
        let Some(&bb) = self.tables.branch_block.get(b) else {
            return;
        };
        if bb != self.cur_block {
            self.sync(bb, false);
        }
        let width = self.tables.branch_width[b];
        for i in (0..width).rev() {
            self.push((br << 1) | ((outcome >> i) & 1));
        }
        let back = self.tables.branch_back_edge[b]
            .get(outcome as usize)
            .copied()
            .unwrap_or(NO_LOOP);
        if back != NO_LOOP {
            self.back_edge(back);
        }
    }

    /// An iteration of `loop_id` ended. See: Section 3.2 — squash after l iterations.
    fn back_edge(&mut self, loop_id: u32) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let Some(pos) = frame.loops.iter().rposition(|l| l.id == loop_id) else {
            return;
        };
        // Loops nested inside the one iterating have exited: squash them.
        let cut = frame.loops.get(pos + 1).map(|l| l.height);
        frame.loops.truncate(pos + 1);
        let period = self.tables.loop_period[loop_id as usize];
        let l = &mut frame.loops[pos];
        l.iterations += 1;
        let squash = if l.iterations >= period {
            l.iterations = 0;
            Some(l.height)
        } else {
            cut
        };
        if let Some(h) = squash {
            self.truncate(h);
        }
    }

    /// Brings frames and active loops in line with the block an event belongs to.
    fn sync(&mut self, bb: u32, entered: bool) {
        let b = bb as usize;
        if b >= self.tables.block_function.len() {
            return;
        }
        let f = self.tables.block_function[b];
        if entered && self.tables.block_is_entry[b] {
            // A function's entry block has no predecessors: entering it is a call.
            self.frames.push(Frame {
                function: f,
                loops: Vec::new(),
            });
        } else if self.frames.last().is_none_or(|fr| fr.function != f) {
            // Returned (maybe through several frames), or first event of the thread.
            match self.frames.iter().rposition(|fr| fr.function == f) {
                Some(i) => self.pop_frames(i + 1),
                None => {
                    self.pop_frames(0);
                    self.frames.push(Frame {
                        function: f,
                        loops: Vec::new(),
                    });
                }
            }
        }
        self.cur_block = bb;
        let target = self.tables.block_loop[b];
        let frame = self.frames.last_mut().expect("a frame was just ensured");
        let top = frame.loops.last().map_or(NO_LOOP, |l| l.id);
        if top == target {
            return;
        }
        let chain: &[u32] = if target == NO_LOOP {
            &[]
        } else {
            &self.tables.loop_chain[target as usize]
        };
        let common = frame
            .loops
            .iter()
            .zip(chain)
            .take_while(|(a, &c)| a.id == c)
            .count();
        // See: Section 3.2 — at the exit of a loop its bits are squashed.
        if let Some(exited) = frame.loops.get(common) {
            let h = exited.height;
            frame.loops.truncate(common);
            if self.entries.len() > h {
                self.entries.truncate(h);
                self.prefix.truncate(h + 1);
            }
        }
        let height = self.entries.len();
        let frame = self.frames.last_mut().expect("a frame was just ensured");
        for &id in &chain[common..] {
            frame.loops.push(ActiveLoop {
                id,
                height,
                iterations: 0,
            });
        }
    }

    /// Pops frames down to `keep`, exiting their loops.
    fn pop_frames(&mut self, keep: usize) {
        while self.frames.len() > keep {
            let fr = self.frames.pop().expect("len > keep");
            if let Some(l) = fr.loops.first() {
                self.truncate(l.height);
            }
        }
    }
}

/// Packs the bits of the top `n` entries of a window (most recent first) into an integer:
/// bit `j` is the outcome bit of the `j`-th most recent entry.
pub fn window_bits(window: &[HistoryEntry], n: u32) -> u64 {
    window
        .iter()
        .take(n as usize)
        .enumerate()
        .fold(0u64, |acc, (j, &e)| acc | (((e & 1) as u64) << j))
}

/// Hash of the exact top-`n` window of a stored window (same value as
/// [`BranchHistory::exact_key`] had when the window was current, for `n` up to the stored
/// length, given the stack depth `depth` at that time).
pub fn window_exact_key(window: &[HistoryEntry], depth: usize, n: u32) -> u64 {
    let mut key = 0;
    window_exact_keys(window, depth, &[n], |k| key = k);
    key
}

/// [`window_exact_key`] for each of `lengths` (in that order, into `out`), from one pass over
/// the window: the hash of the `n` most recent entries is the sum of `mix(e_j) * B^j` over
/// `j < n`, so every length's hash is a prefix of the same sum. Lengths are capped at
/// [`MAX_HISTORY_BITS`], the longest window a profile keeps.
pub fn window_exact_keys(
    window: &[HistoryEntry],
    depth: usize,
    lengths: &[u32],
    mut out: impl FnMut(u64),
) {
    let longest = lengths.iter().copied().max().unwrap_or(0) as usize;
    let cap = |n: usize| {
        n.min(depth)
            .min(window.len())
            .min(MAX_HISTORY_BITS as usize)
    };
    let m = cap(longest);
    let mut prefix = [0u64; MAX_HISTORY_BITS as usize + 1];
    let (mut sum, mut power) = (0u64, 1u64);
    for (j, &e) in window[..m].iter().enumerate() {
        sum = sum.wrapping_add(mix64(e as u64 + 1).wrapping_mul(power));
        power = power.wrapping_mul(HASH_BASE);
        prefix[j + 1] = sum;
    }
    for &n in lengths {
        let n = cap(n as usize);
        out(mix64(prefix[n] ^ ((n as u64) << 57)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdtrace::meta::{BlockMeta, MetaTables};

    /// One function: block 0 entry (if-branch br 0: outcome 0 → block 1, 1 → block 2),
    /// block 1 = body of loop 0 (latch br 1: outcome 0 → exit block 2, 1 → back-edge to 1),
    /// block 2 = after the loop.
    fn single_loop() -> ProgramMeta {
        use rdtrace::testing::{block, branch, function, natural_loop};
        let block = |loop_id| BlockMeta {
            loop_id,
            ..block(0, "")
        };
        ProgramMeta {
            modules: vec![],
            tables: MetaTables {
                functions: vec![function("main", 0, 3)],
                blocks: vec![block(None), block(Some(0)), block(None)],
                branches: vec![
                    branch(0, vec![1, 2], vec![None, None]),
                    branch(1, vec![2, 1], vec![None, Some(0)]),
                ],
                loops: vec![natural_loop(0, 1, None, 1)],
                ..Default::default()
            },
        }
    }

    fn bits(h: &BranchHistory) -> Vec<u32> {
        let mut v: Vec<u32> = h.top().map(|e| e & 1).collect();
        v.reverse();
        v
    }

    #[test]
    fn loop_bits_are_squashed_every_l_iterations() {
        let meta = single_loop();
        let mut h = BranchHistory::new(&meta, 64, SquashPeriod::Fixed(4));
        h.block(0);
        h.branch(0, 0); // if-bit 0
        h.block(1);
        let mut depths = Vec::new();
        for _ in 0..10 {
            // Depth at the body's access: 1 (if-bit) + iterations since the last squash.
            depths.push(h.depth());
            h.branch(1, 1);
            h.block(1);
        }
        assert_eq!(depths, vec![1, 2, 3, 4, 1, 2, 3, 4, 1, 2]);
        assert_eq!(bits(&h), vec![0, 1, 1]);
        // Exit: the exit bit is pushed, then leaving the loop squashes everything above entry.
        h.branch(1, 0);
        assert_eq!(bits(&h), vec![0, 1, 1, 0]);
        h.block(2);
        assert_eq!(bits(&h), vec![0]);
    }

    #[test]
    fn per_loop_period_uses_element_size() {
        let mut meta = single_loop();
        meta.blocks[1].num_mem_instrs = 2;
        for size in [32, 32] {
            meta.mem_instrs.push(rdtrace::meta::MemInstrMeta {
                block: 1,
                kind: rdtrace::meta::AccessKind::Load,
                size,
                vector: true,
                loc: None,
                class: rdtrace::meta::VarClass::Shared,
                derivation: String::new(),
                derived: None,
            });
        }
        let h = BranchHistory::new(&meta, 64, SquashPeriod::PerLoop);
        assert_eq!(h.loop_period(0), Some(2));
        let h = BranchHistory::new(&meta, 32, SquashPeriod::PerLoop);
        assert_eq!(h.loop_period(0), Some(1));
    }

    /// All lengths at once give each length's key: the live stack's, for windows stored whole
    /// or shortened, lengths unsorted, repeated and longer than the stack.
    #[test]
    fn exact_keys_of_every_length_in_one_pass() {
        use rdtrace::testing::{block, branch, function};
        // A chain of 41 blocks, each ending in a conditional branch to the next: no loop, so
        // every outcome stays on the stack.
        const N: u32 = 41;
        let meta = ProgramMeta {
            modules: vec![],
            tables: MetaTables {
                functions: vec![function("main", 0, N + 1)],
                blocks: (0..=N).map(|_| block(0, "")).collect(),
                branches: (0..N)
                    .map(|j| branch(j, vec![j + 1, j + 1], vec![None, None]))
                    .collect(),
                ..Default::default()
            },
        };
        let mut h = BranchHistory::new(&meta, 64, SquashPeriod::PerLoop);
        for j in 0..N {
            h.block(j);
            h.branch(j, (j * 7 / 3) % 2);
        }
        h.block(N);
        let depth = h.depth();
        assert_eq!(depth, 41);
        let window: Vec<u32> = h.top().collect();
        let lengths = [32, 1, 56, 7, 41, 7, 2, 40];
        let mut keys = Vec::new();
        window_exact_keys(&window, depth, &lengths, |k| keys.push(k));
        let live: Vec<u64> = lengths.iter().map(|&n| h.exact_key(n)).collect();
        assert_eq!(keys, live);
        // A window stored with its 16 most recent entries: the lengths up to 16 keep their keys.
        let short = &window[..16];
        let mut keys = Vec::new();
        window_exact_keys(short, depth, &[1, 16, 7], |k| keys.push(k));
        assert_eq!(keys, vec![h.exact_key(1), h.exact_key(16), h.exact_key(7)]);
    }

    #[test]
    fn exact_keys_match_stored_windows_and_see_aliases() {
        let meta = single_loop();
        let mut h = BranchHistory::new(&meta, 64, SquashPeriod::Fixed(8));
        h.block(0);
        h.branch(0, 1);
        h.block(1);
        h.branch(1, 1);
        h.block(1);
        // Stack: [if=1, latch=1]. The 1-bit windows: same bit (1), different branch.
        let window: Vec<u32> = h.top().collect();
        for n in 1..=4 {
            assert_eq!(
                h.exact_key(n),
                window_exact_key(&window, h.depth(), n),
                "n={n}"
            );
        }
        assert_eq!(window_bits(&window, 2), 0b11);
        let key_latch = h.exact_key(1);
        // Fresh thread: only the if-bit 1 on the stack.
        h.reset();
        h.block(0);
        h.branch(0, 1);
        assert_eq!(window_bits(&h.top().collect::<Vec<_>>(), 1), 1);
        assert_ne!(
            h.exact_key(1),
            key_latch,
            "same bit, different branch: an alias"
        );
        // Depth is part of the key: a 1-deep stack differs from the top 1 of a 2-deep one.
        assert_ne!(h.exact_key(2), window_exact_key(&window, 2, 2));
    }

    #[test]
    fn calls_and_returns_keep_the_callers_loops() {
        // main: block 0 (entry) → loop 0 body block 1 (calls f) → block 2.
        // f: block 3 (entry, conditional br 2), block 4.
        let mut meta = single_loop();
        meta.functions.push(rdtrace::testing::function("f", 3, 2));
        let mut b = meta.blocks[0].clone();
        b.function = 1;
        meta.blocks.push(b.clone());
        meta.blocks.push(b);
        meta.branches
            .push(rdtrace::testing::branch(3, vec![4, 4], vec![None, None]));
        let mut h = BranchHistory::new(&meta, 64, SquashPeriod::Fixed(2));
        h.block(0);
        h.branch(0, 0);
        h.block(1);
        // Call f inside the loop: its bit stays after the return.
        h.block(3);
        h.branch(2, 1);
        h.block(4);
        // Back in main's loop: the latch is a branch of block 1 (return detected there).
        h.branch(1, 1);
        assert_eq!(bits(&h), vec![0, 1, 1]);
        h.block(1);
        h.branch(1, 1); // second iteration: squash to the loop's entry height.
        assert_eq!(bits(&h), vec![0]);
    }
}
