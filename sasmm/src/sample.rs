//! Alg. 3's window sample without the windows: `max(min_samples, ceil(rate × n_i))` of the `n_i`
//! windows of every block, drawn as *ranks* (the r-th window of block i in program order) from
//! the per-block window counts alone, and a cursor that marks the sampled windows of one pass as
//! they go by. The formula model's streamed pass and the spilled fragments' readers use it.

use crate::window::SequentialTrace;
use rdengines::SplitMix64;
use std::collections::HashMap;

/// The sampled windows of one block.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ranks {
    /// Every window.
    All,
    /// These ranks, ascending.
    Some(Vec<u64>),
}

/// Alg. 3's window sample, as ranks within each block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowSample {
    ranks: Vec<Ranks>,
}

impl WindowSample {
    /// Draws `max(min_samples, ceil(rate × n))` (at most `n`) of the `n` windows of every block,
    /// uniformly without replacement: the partial Fisher-Yates shuffle of
    /// [`sample_windows`](crate::profile::sample_windows), blocks in id order, one generator,
    /// so both pick the same windows for the same seed.
    // See: SASMM Alg. 3 lines 3-8 — bbi_wins = random(bbi_wins, sample_size).
    pub fn draw(windows_per_block: &[u64], rate: f64, min_samples: u64, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let ranks = windows_per_block
            .iter()
            .map(|&n| {
                if n == 0 {
                    return Ranks::Some(Vec::new());
                }
                let k = ((rate * n as f64).ceil() as u64).max(min_samples).min(n);
                if k == n {
                    // Every window; the generator still advances as the shuffle would.
                    for i in 0..k {
                        rng.below(n - i);
                    }
                    return Ranks::All;
                }
                // The shuffle over the identity array 0..n, storing only displaced slots.
                let mut moved: HashMap<u64, u64> = HashMap::new();
                let mut chosen = Vec::with_capacity(k as usize);
                for i in 0..k {
                    let j = i + rng.below(n - i);
                    let vi = moved.get(&i).copied().unwrap_or(i);
                    let vj = moved.get(&j).copied().unwrap_or(j);
                    moved.insert(j, vi);
                    moved.remove(&i);
                    chosen.push(vj);
                }
                chosen.sort_unstable();
                Ranks::Some(chosen)
            })
            .collect();
        WindowSample { ranks }
    }

    /// Sampled windows in all.
    pub fn len(&self, windows_per_block: &[u64]) -> u64 {
        self.ranks
            .iter()
            .zip(windows_per_block)
            .map(|(r, &n)| match r {
                Ranks::All => n,
                Ranks::Some(v) => v.len() as u64,
            })
            .sum()
    }

    /// A cursor for one pass over the trace from its start.
    pub fn cursor(&self) -> SampleCursor<'_> {
        SampleCursor {
            sample: self,
            seen: vec![0; self.ranks.len()],
            next: vec![0; self.ranks.len()],
            flags: Vec::new(),
        }
    }
}

/// Walks the windows of one pass in program order and says which are sampled.
#[derive(Clone)]
pub struct SampleCursor<'a> {
    sample: &'a WindowSample,
    /// Windows of each block seen so far.
    seen: Vec<u64>,
    /// Next sampled rank of each block (index into its list).
    next: Vec<usize>,
    flags: Vec<bool>,
}

impl SampleCursor<'_> {
    /// Whether each window of `seq` (the next fragment of the pass) is sampled, by local index.
    pub fn mark(&mut self, seq: &SequentialTrace) -> &[bool] {
        let mut flags = std::mem::take(&mut self.flags);
        flags.clear();
        flags.extend(seq.windows.iter().map(|w| self.step(w.bb)));
        self.flags = flags;
        &self.flags
    }

    /// Whether the next window of the pass, of block `bb`, is sampled.
    pub fn step(&mut self, bb: u32) -> bool {
        let b = bb as usize;
        let sampled = match self.sample.ranks.get(b) {
            Some(Ranks::All) => true,
            Some(Ranks::Some(r)) => {
                let hit = r.get(self.next[b]) == Some(&self.seen[b]);
                if hit {
                    self.next[b] += 1;
                }
                hit
            }
            None => false,
        };
        if let Some(s) = self.seen.get_mut(b) {
            *s += 1;
        }
        sampled
    }
}
