//! A measurement on two threads of its own ([`Chain`]): the caller only batches the accesses,
//! a simulation thread runs each batch through the caches ([`Simulation`]) and passes it on to
//! a stacks thread, which counts its PRD and CRD ([`Stacks`]). For accesses merged from a
//! multi-thread trace, whose decoding and merging keep the caller's thread busy: three stages,
//! the simulation the longest, share the CPUs.

use super::measurer::Simulation;
use super::stacks::{MeasuredAccess, Stacks, BATCH, IN_FLIGHT};
use super::{MeasureConfig, MeasureOptions};
use rdengines::batched::{BatchSink, Batched};

/// The simulation, on its thread, with the stacks it passes each batch on to.
struct SimulationStage {
    sim: Simulation,
    stacks: Batched<Stacks>,
}

impl BatchSink for SimulationStage {
    type Item = MeasuredAccess;

    fn take(&mut self, accesses: &[MeasuredAccess]) {
        for a in accesses {
            self.sim
                .access_rw(a.core(), a.mi, a.addr, a.len, a.writes());
        }
        self.stacks.extend(accesses);
    }
}

/// The simulation and the stacks on threads of their own (see the module documentation).
pub(super) struct Chain(Batched<SimulationStage>);

impl Chain {
    /// An empty measurement of `config` (and `options`), on two threads of its own where the
    /// machine has more than one CPU and they start (else, in part or whole, on the caller's).
    pub(super) fn start(config: MeasureConfig, options: MeasureOptions) -> Self {
        let stage = SimulationStage {
            sim: Simulation::new(config, options),
            stacks: Stacks::fed(config.l1, config.l2, true),
        };
        Chain(Batched::on_second_cpu(
            stage,
            BATCH,
            IN_FLIGHT,
            "measure-caches",
        ))
    }

    /// One access of `len` bytes at `addr` by core `core`, made by memory instruction `mi`
    /// (`write`: whether it writes).
    #[inline]
    pub(super) fn access(&mut self, core: usize, mi: u32, addr: u64, len: u64, write: bool) {
        self.0.push(MeasuredAccess::new(core, mi, addr, len, write));
    }

    /// The simulation and the stacks once every access fed has gone through both.
    pub(super) fn finish(self) -> (Simulation, Stacks) {
        let stage = self.0.join();
        (stage.sim, stage.stacks.join())
    }
}
