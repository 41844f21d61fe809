//! The shared trace: private traces interleaved the way cores sharing a cache would issue
//! them (SASMM Alg. 2).
//!
//! Serial sections stay as they are (core 0 only). In a parallel section the cores advance in
//! *rounds*: each round takes the next window (BB instance) of every core that still has one,
//! and the accesses of those windows are interleaved one access at a time, either round-robin
//! (core 0, 1, …, m−1, 0, …) or by drawing a core uniformly at random among those with accesses
//! left (seeded). When the cores run the same blocks (the usual case for static worksharing
//! loops) a round holds the n-th instance of the same BB on every core, which is exactly the
//! paper's "interleave the memory references of the same basic block from all private traces";
//! when they do not (uneven iteration counts, triangular loops), rounds keep the cores
//! progressing at the same rate, which is what the paper's replacement of the n-th instance
//! approximates. Sections end at barriers, so no core runs past a synchronisation point.

use crate::error::SasmmError;
use crate::mimic::MimickedTrace;
use rdengines::SplitMix64;

/// How accesses of concurrently running cores are interleaved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Interleave {
    /// One access of each core in turn.
    #[default]
    RoundRobin,
    /// Each access from a core drawn uniformly at random (seeded, reproducible).
    Uniform {
        /// Seed of the generator.
        seed: u64,
    },
}

impl std::str::FromStr for Interleave {
    type Err = SasmmError;
    fn from_str(s: &str) -> Result<Self, SasmmError> {
        match s {
            "rr" | "round-robin" => Ok(Interleave::RoundRobin),
            "uniform" | "random" => Ok(Interleave::Uniform { seed: 1 }),
            _ => Err(SasmmError::Config(format!(
                "unknown interleaving `{s}` (expected rr or uniform)"
            ))),
        }
    }
}

/// Calls `f(core, window, addr, len)` for every access of the shared trace, in order.
// See: SASMM Alg. 2.
pub fn for_each_shared_access(
    trace: &MimickedTrace<'_>,
    strategy: Interleave,
    f: impl FnMut(usize, u32, u64, u32),
) {
    Interleaver::new(strategy).feed(trace, f);
}

/// Alg. 2 over a sequential trace handed over in fragments ([`crate::SequentialTrace::stream`]):
/// the random generator of uniform interleaving goes on from one fragment to the next, so
/// feeding the fragments' mimicked traces in order gives the same shared trace as
/// [`for_each_shared_access`] over the whole trace.
pub struct Interleaver {
    rng: Option<SplitMix64>,
    /// Per core in the current round: (window, next access, end).
    cursor: Vec<(u32, usize, usize)>,
    live: Vec<usize>,
}

impl Interleaver {
    /// A fresh interleaving (the generator seeded as [`for_each_shared_access`] seeds it).
    pub fn new(strategy: Interleave) -> Self {
        Interleaver {
            rng: match strategy {
                Interleave::Uniform { seed } => Some(SplitMix64::new(seed)),
                Interleave::RoundRobin => None,
            },
            cursor: Vec::new(),
            live: Vec::new(),
        }
    }

    /// Calls `f(core, window, addr, len)` for every access of `trace`'s shared trace, in order.
    #[inline]
    pub fn feed(&mut self, trace: &MimickedTrace<'_>, mut f: impl FnMut(usize, u32, u64, u32)) {
        self.feed_with_mi(trace, |c, w, addr, len, _mi| f(c, w, addr, len));
    }

    /// [`feed`](Self::feed) that also names each access's memory instruction:
    /// `f(core, window, addr, len, mi)` (the exact model reads from it whether the access writes).
    pub fn feed_with_mi(
        &mut self,
        trace: &MimickedTrace<'_>,
        mut f: impl FnMut(usize, u32, u64, u32, u32),
    ) {
        let Interleaver { rng, cursor, live } = self;
        let seq = trace.seq;
        for s in &trace.sections {
            if !s.parallel {
                // See: SASMM Alg. 2 line 3 — the shared trace starts from core 0's private trace;
                // serial blocks are not interleaved.
                for &w in &s.per_core[0] {
                    for a in seq.window_accesses(w) {
                        f(0, w, trace.address(0, false, a.mi, a.addr), a.len, a.mi);
                    }
                }
                continue;
            }
            let rounds = s.per_core.iter().map(Vec::len).max().unwrap_or(0);
            for round in 0..rounds {
                cursor.clear();
                live.clear();
                for (c, ws) in s.per_core.iter().enumerate() {
                    let (w, start, end) = match ws.get(round) {
                        Some(&w) => {
                            let r = seq.windows[w as usize].range();
                            (w, r.start, r.end)
                        }
                        None => (u32::MAX, 0, 0),
                    };
                    cursor.push((w, start, end));
                    if start < end {
                        live.push(c);
                    }
                }
                let mut emit = |c: usize, cursor: &mut Vec<(u32, usize, usize)>| {
                    let (w, pos, _) = cursor[c];
                    let a = seq.accesses[pos];
                    f(c, w, trace.address(c, true, a.mi, a.addr), a.len, a.mi);
                    cursor[c].1 += 1;
                };
                match rng.as_mut() {
                    // See: SASMM Alg. 2 lines 24-29 — round-robin over the cores.
                    None => {
                        while !live.is_empty() {
                            live.retain(|&c| {
                                emit(c, cursor);
                                cursor[c].1 < cursor[c].2
                            });
                        }
                    }
                    // See: SASMM Alg. 2 lines 22-23 — a core drawn uniformly at random.
                    Some(rng) => {
                        while !live.is_empty() {
                            let k = rng.below(live.len() as u64) as usize;
                            let c = live[k];
                            emit(c, cursor);
                            if cursor[c].1 >= cursor[c].2 {
                                live.swap_remove(k);
                            }
                        }
                    }
                }
            }
        }
    }
}
