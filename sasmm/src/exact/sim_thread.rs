//! The stacks of an [`ExactRun`](super::ExactRun) on a thread of their own.
//!
//! `perf` of `predict --cores 4` on an OpenMP program's sequential trace put two thirds of the
//! CPU time on the model's thread, over half of that in simulating the hierarchy's stacks (the
//! rest reading spilled sections back, mimicking and interleaving), while the thread that
//! decodes the trace waited on it. Here the model's thread only writes the shared trace's
//! references into batches, and the simulation runs them on its own thread, so with a CPU each
//! a run costs the slowest of the three rather than the sum of the last two. The simulation
//! sees the same references in the same order as when it is called directly, so every count
//! is the same.

use super::MultiHierarchy;
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// References per batch (16 bytes each).
const BATCH: usize = 1 << 14;

/// Batches queued for the simulation's thread besides the one it simulates: enough to ride
/// out uneven windows, few enough to keep the batches in the cache.
const QUEUED: usize = 2;

/// One reference of the shared trace.
#[derive(Clone, Copy)]
struct Reference {
    addr: u64,
    len: u32,
    /// The core, with [`WRITE`] set for a write.
    core: u32,
}

/// The bit of [`Reference::core`] that marks a write.
const WRITE: u32 = 1 << 31;

/// The hierarchy's stacks, simulated where they are called or on a thread of their own.
// One per run, so the variants' sizes do not matter; a box would cost the direct calls a load.
#[allow(clippy::large_enum_variant)]
pub(super) enum Sim {
    /// Called directly.
    Inline(MultiHierarchy),
    /// Fed batches of references (see the module documentation).
    Threaded(Threaded),
}

/// The model's side of a simulation on a thread of its own.
pub(super) struct Threaded {
    batch: Vec<Reference>,
    to_sim: Option<SyncSender<Vec<Reference>>>,
    /// Batches the simulation's thread is done with, to fill again.
    spare: Receiver<Vec<Reference>>,
    handle: Option<JoinHandle<MultiHierarchy>>,
}

impl Sim {
    /// `sim` on a thread of its own; called directly when the thread cannot start.
    pub(super) fn threaded(sim: MultiHierarchy) -> Self {
        let (hand_over, sim_arrives) = sync_channel::<MultiHierarchy>(1);
        let (to_sim, batches) = sync_channel::<Vec<Reference>>(QUEUED);
        let (give_back, spare) = channel();
        let started = std::thread::Builder::new()
            .name("sasmm-stacks".into())
            .spawn(move || simulate(sim_arrives, batches, give_back));
        match started {
            Ok(handle) => {
                hand_over
                    .send(sim)
                    .expect("the thread waits for its simulation");
                Sim::Threaded(Threaded {
                    batch: Vec::with_capacity(BATCH),
                    to_sim: Some(to_sim),
                    spare,
                    handle: Some(handle),
                })
            }
            // The simulation was never handed over: it stays here.
            Err(_) => Sim::Inline(sim),
        }
    }

    /// One access by `core` (see [`MultiHierarchy::access_rw`]).
    #[inline(always)]
    pub(super) fn access_rw(&mut self, core: usize, addr: u64, len: u64, write: bool) {
        match self {
            Sim::Inline(sim) => sim.access_rw(core, addr, len, write),
            Sim::Threaded(t) => {
                t.batch.push(Reference {
                    addr,
                    len: len.min(u32::MAX as u64) as u32,
                    core: core as u32 | if write { WRITE } else { 0 },
                });
                if t.batch.len() == BATCH {
                    t.send();
                }
            }
        }
    }

    /// The simulation once every reference fed has been simulated.
    pub(super) fn finish(self) -> MultiHierarchy {
        match self {
            Sim::Inline(sim) => sim,
            Sim::Threaded(mut t) => {
                t.send();
                t.join().expect("the simulation ends once")
            }
        }
    }
}

impl Threaded {
    /// Hands the filled batch to the simulation's thread and takes a spare one.
    #[cold]
    fn send(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(BATCH));
        let full = std::mem::replace(&mut self.batch, next);
        let sent = self.to_sim.as_ref().map(|s| s.send(full));
        if let Some(Err(_)) = sent {
            // The simulation's thread is gone: it panicked, and so does the model.
            self.join();
        }
    }

    /// Ends the simulation's thread and takes the simulation back; a panic there goes on here.
    fn join(&mut self) -> Option<MultiHierarchy> {
        self.to_sim = None;
        let handle = self.handle.take()?;
        match handle.join() {
            Ok(sim) => Some(sim),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl Drop for Threaded {
    /// A run dropped unfinished (another part of the pass failed) ends its thread too.
    fn drop(&mut self) {
        self.to_sim = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// The simulation's thread: every batch's references in order, each batch handed back.
fn simulate(
    sim_arrives: Receiver<MultiHierarchy>,
    batches: Receiver<Vec<Reference>>,
    give_back: std::sync::mpsc::Sender<Vec<Reference>>,
) -> MultiHierarchy {
    let mut sim = sim_arrives
        .recv()
        .expect("the simulation is handed over once the thread started");
    for mut batch in batches {
        for r in &batch {
            let core = (r.core & !WRITE) as usize;
            sim.access_rw(core, r.addr, r.len as u64, r.core & WRITE != 0);
        }
        batch.clear();
        // The model may have finished already: nothing to give back to then.
        let _ = give_back.send(batch);
    }
    sim
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdcachesim::CacheConfig;

    /// Random references through the stacks directly and through the thread, across batch
    /// boundaries: the same counts.
    #[test]
    fn threaded_counts_equal_direct_ones() {
        let l1 = [CacheConfig::new(4096, 4, 64).unwrap()];
        let l2 = [(Some(0), CacheConfig::new(32768, 8, 64).unwrap())];
        let make = || MultiHierarchy::sampled(&l1, &l2, None).unwrap();
        let mut direct = Sim::Inline(make());
        let mut threaded = Sim::threaded(make());
        assert!(matches!(threaded, Sim::Threaded(_)));
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3 * BATCH + 17 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (core, addr, len, write) = (
                (x % 4) as usize,
                (x >> 8) % 65536,
                x % 9,
                x.is_multiple_of(5),
            );
            direct.access_rw(core, addr, len, write);
            threaded.access_rw(core, addr, len, write);
        }
        let (a, b) = (direct.finish(), threaded.finish());
        assert_eq!(a.l1_counts(0), b.l1_counts(0));
        assert_eq!(a.l2_counts(0), b.l2_counts(0));
        assert_eq!(a.l1_miss_kinds(0), b.l1_miss_kinds(0));
        assert!(a.l1_counts(0).0.iter().sum::<u64>() > 3 * BATCH as u64);
    }
}
