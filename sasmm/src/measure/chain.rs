//! A measurement on two threads of its own ([`Chain`]): the caller only batches the accesses,
//! a simulation thread runs each batch through the caches ([`Simulation`]) and passes it on to
//! a stacks thread, which counts its PRD and CRD ([`Stacks`]) and hands the emptied batch back.
//! For accesses merged from a multi-thread trace, whose decoding and merging keep the caller's
//! thread busy: three stages, the simulation the longest, share the CPUs.

use super::batches::Batcher;
use super::measurer::Simulation;
use super::stacks::Stacks;
use super::{MeasureConfig, MeasureOptions};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::thread::JoinHandle;

/// One access as a [`Chain`] batches it.
#[derive(Clone, Copy, Debug)]
struct ChainAccess {
    addr: u64,
    len: u64,
    /// The core, with [`WRITE`] set when the access writes.
    core: u32,
    mi: u32,
}

/// The bit of [`ChainAccess::core`] that marks a write (cores are thread positions, far below).
const WRITE: u32 = 1 << 31;

/// Accesses a batch holds before it goes to the simulation thread.
const BATCH: usize = 1 << 14;

/// Batches sent ahead of each thread (besides the one it works on).
const IN_FLIGHT: usize = 4;

/// The simulation and the stacks on threads of their own (see the module documentation).
pub(super) struct Chain {
    batches: Batcher<ChainAccess>,
    to_sim: SyncSender<Vec<ChainAccess>>,
    sim: JoinHandle<Simulation>,
    stacks: JoinHandle<Stacks>,
}

impl Chain {
    /// An empty measurement of `config` (and `options`) on two new threads; `None` when a
    /// thread cannot start (the caller then measures on its own thread).
    pub(super) fn start(config: MeasureConfig, options: MeasureOptions) -> Option<Self> {
        let (to_sim, sim_batches) = sync_channel::<Vec<ChainAccess>>(IN_FLIGHT);
        let (to_stacks, stacks_batches) = sync_channel::<Vec<ChainAccess>>(IN_FLIGHT);
        let (give_back, spare) = channel();
        // The stacks' thread first: without it the simulation's would have nowhere to send.
        let stacks = std::thread::Builder::new()
            .name("measure-stacks".into())
            .spawn(move || count_stacks(config, stacks_batches, give_back))
            .ok()?;
        let sim = std::thread::Builder::new()
            .name("measure-caches".into())
            .spawn(move || simulate(config, options, sim_batches, to_stacks))
            .ok()?;
        Some(Chain {
            batches: Batcher::new(BATCH, spare),
            to_sim,
            sim,
            stacks,
        })
    }

    /// One access of `len` bytes at `addr` by core `core`, made by memory instruction `mi`
    /// (`write`: whether it writes).
    #[inline]
    pub(super) fn access(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        let access = ChainAccess {
            addr,
            len,
            core: core as u32 | if write { WRITE } else { 0 },
            mi,
        };
        if let Some(full) = self.batches.push(access) {
            self.send(full);
        }
    }

    fn send(&mut self, batch: Vec<ChainAccess>) {
        // The thread stops early only when it panicked: `finish` says so.
        let _ = self.to_sim.send(batch);
    }

    /// The simulation and the stacks once every access fed has gone through both.
    pub(super) fn finish(mut self) -> (Simulation, Stacks) {
        if let Some(last) = self.batches.take() {
            self.send(last);
        }
        drop(self.to_sim);
        let sim = joined(self.sim.join());
        (sim, joined(self.stacks.join()))
    }
}

/// A thread's result, or its panic resumed here.
fn joined<T>(r: std::thread::Result<T>) -> T {
    r.unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// The simulation thread: each batch through the caches, then on to the stacks.
fn simulate(
    config: MeasureConfig,
    options: MeasureOptions,
    batches: Receiver<Vec<ChainAccess>>,
    to_stacks: SyncSender<Vec<ChainAccess>>,
) -> Simulation {
    let mut sim = Simulation::new(config, options);
    for batch in batches {
        for a in &batch {
            let core = (a.core & !WRITE) as usize;
            sim.access_rw(core, a.mi, a.addr, a.len, a.core & WRITE != 0);
        }
        // The stacks' thread stops early only when it panicked: its join says so.
        let _ = to_stacks.send(batch);
    }
    sim
}

/// The stacks' thread: each batch counted, then handed back emptied.
fn count_stacks(
    config: MeasureConfig,
    batches: Receiver<Vec<ChainAccess>>,
    give_back: Sender<Vec<ChainAccess>>,
) -> Stacks {
    let mut stacks = Stacks::new(config.l1, config.l2);
    for mut batch in batches {
        for a in &batch {
            stacks.access((a.core & !WRITE) as usize, a.addr, a.len);
        }
        batch.clear();
        let _ = give_back.send(batch);
    }
    stacks
}
