//! Private traces per core from the sequential trace (SASMM Alg. 1).
//!
//! Serial windows go to core 0. Replicated windows (parallel code that every thread runs) are
//! copied to every core. Windows of worksharing-loop iterations go to the core that owns the
//! iteration under OpenMP static scheduling: contiguous blocks when the loop is unchunked
//! (libomp's balanced split by default), chunks dealt round-robin otherwise; the chunk can be
//! overridden. Dynamic and guided loops are mimicked as static loops with their recorded chunk
//! (as in the paper, which generates "a trace similar to the OpenMP scheduled traces" with static
//! chunking); their real assignment depends on timing. Core `c > 0` sees some addresses shifted by `c × offset_stride` so that its
//! thread-private data does not collide with core 0's ([`OffsetPolicy`]).

use crate::error::{Result, SasmmError};
use crate::window::{Placement, SequentialTrace, WorkshareRun};
use rdtrace::meta::VarClass;

/// Which references of cores other than core 0 get a per-core address offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OffsetPolicy {
    /// The paper's rule: every reference of a parallel window except references to the shared
    /// variables themselves (see [`SequentialTrace::mi_shared_variable`]). Shared arrays reached
    /// through pointers are offset too, so cores never share them.
    Paper,
    /// Only references the instrumentation pass classed `Private` (stack data of the thread):
    /// shared data keeps its address, so cores share it as they do in the real run.
    #[default]
    Private,
}

impl std::str::FromStr for OffsetPolicy {
    type Err = SasmmError;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "paper" => Ok(OffsetPolicy::Paper),
            "private" => Ok(OffsetPolicy::Private),
            _ => Err(SasmmError::Config(format!(
                "unknown offset policy `{s}` (expected paper or private)"
            ))),
        }
    }
}

impl MimicConfig {
    /// The core that runs a window placed at `placement` (`None`: every core).
    pub(crate) fn core_of(
        &self,
        placement: Placement,
        workshares: &[WorkshareRun],
    ) -> Option<usize> {
        match placement {
            // See: SASMM Alg. 1 line 22 — serial BBs go to the master's core.
            Placement::Serial => Some(0),
            // See: SASMM Alg. 1 lines 8-12 — a single instance is copied to every core.
            Placement::Replicated => None,
            // See: SASMM Alg. 1 lines 14-19 — repeated instances are divided.
            Placement::Iteration {
                workshare,
                iteration,
            } => Some(self.owner_range(workshare, iteration, workshares).0),
        }
    }

    /// [`owner_range`] of `iteration` of worksharing run `workshare` under this configuration's
    /// schedule (its chunk size, else the run's own; its static split).
    fn owner_range(
        &self,
        workshare: u32,
        iteration: u64,
        workshares: &[WorkshareRun],
    ) -> (usize, u64, u64) {
        let run = &workshares[workshare as usize];
        let chunk = self.chunk.or(run.chunk);
        owner_range(iteration, run.iterations, self.cores, chunk, self.split)
    }
}

/// [`MimicConfig::core_of`] for windows taken in program order: it remembers which iterations
/// the last owner holds, so the windows of one thread's share of a loop (most windows in a row,
/// whatever the schedule) cost a compare rather than the split's divisions. Valid for one list
/// of worksharing runs (one fragment, or one spilled fragment's header).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Owners {
    /// (worksharing run, first iteration, one past the last, core) of the last lookup.
    last: Option<(u32, u64, u64, usize)>,
}

impl Owners {
    /// What `config.core_of(placement, workshares)` says.
    #[inline]
    pub(crate) fn core_of(
        &mut self,
        config: &MimicConfig,
        placement: Placement,
        workshares: &[WorkshareRun],
    ) -> Option<usize> {
        let Placement::Iteration {
            workshare,
            iteration,
        } = placement
        else {
            return config.core_of(placement, workshares);
        };
        if let Some((ws, lo, hi, core)) = self.last {
            if ws == workshare && lo <= iteration && iteration < hi {
                return Some(core);
            }
        }
        let (core, lo, hi) = config.owner_range(workshare, iteration, workshares);
        self.last = Some((workshare, lo, hi, core));
        Some(core)
    }
}

/// The thread that runs `iteration` of `iterations` under a static schedule ([`static_owner`])
/// and the iterations it holds around it: `(core, lo, hi)` such that every iteration in
/// `lo..hi` (iterations past the last one count as the last one) has that owner.
pub(crate) fn owner_range(
    iteration: u64,
    iterations: u64,
    cores: usize,
    chunk: Option<u64>,
    split: StaticSplit,
) -> (usize, u64, u64) {
    let m = cores.max(1) as u64;
    let n = iterations.max(1);
    let i = iteration.min(n - 1);
    // Each owner's share is one run of `width` iterations from `lo`.
    let (owner, lo, width) = match chunk {
        Some(c) => {
            let c = c.max(1);
            let b = i / c;
            (b % m, b * c, c)
        }
        None => match split {
            StaticSplit::Balanced => {
                let small = n / m;
                let extras = n % m;
                let big_part = extras * (small + 1);
                if i < big_part {
                    let o = i / (small + 1);
                    (o, o * (small + 1), small + 1)
                } else {
                    let k = (i - big_part) / small.max(1);
                    (extras + k, big_part + k * small.max(1), small.max(1))
                }
            }
            StaticSplit::Greedy => {
                let per = n.div_ceil(m);
                let o = i / per;
                (o, o * per, per)
            }
        },
    };
    if owner >= m {
        // (Never with the splits above.) A core beyond the last is the last, not remembered.
        return ((m - 1) as usize, iteration, iteration.saturating_add(1));
    }
    let hi = lo.saturating_add(width);
    // The share that holds the last iteration also holds every iteration past it.
    let hi = if hi >= n { u64::MAX } else { hi };
    (owner as usize, lo, hi)
}

/// How an unchunked static schedule splits `n` iterations over `m` threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StaticSplit {
    /// `n / m` each, the first `n % m` threads one more (libomp's `kmp_sch_static_balanced`,
    /// what the libomp on our machines does).
    #[default]
    Balanced,
    /// `ceil(n / m)` each, the last thread(s) fewer (`kmp_sch_static_greedy`).
    Greedy,
}

/// Settings of Alg. 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimicConfig {
    /// Number of cores m (≥ 1).
    pub cores: usize,
    /// Chunk size in iterations overriding the recorded schedule: `Some(c)` deals chunks of `c`
    /// iterations round-robin; `None` keeps each loop's recorded schedule.
    pub chunk: Option<u64>,
    /// Unchunked static split.
    pub split: StaticSplit,
    /// Which references are offset on cores > 0.
    pub offset_policy: OffsetPolicy,
    /// Offset between cores in bytes (a multiple of every line size; large enough that no
    /// offset address meets a real one).
    pub offset_stride: u64,
}

impl Default for MimicConfig {
    fn default() -> Self {
        MimicConfig {
            cores: 1,
            chunk: None,
            split: StaticSplit::Balanced,
            offset_policy: OffsetPolicy::Private,
            offset_stride: 1 << 44,
        }
    }
}

/// The thread that runs `iteration` of `iterations` under a static schedule.
// See: SASMM Alg. 1 line 14 — array_divide(bbi_wins, num_cores, chunk_size).
pub fn static_owner(
    iteration: u64,
    iterations: u64,
    cores: usize,
    chunk: Option<u64>,
    split: StaticSplit,
) -> usize {
    owner_range(iteration, iterations, cores, chunk, split).0
}

/// One section of the mimicked execution: the windows each core runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimickedSection {
    /// Inside a parallel region.
    pub parallel: bool,
    /// Window ids per core, in program order (serial sections: only core 0 has windows).
    pub per_core: Vec<Vec<u32>>,
}

/// Private traces of m cores mimicked from one sequential trace.
#[derive(Clone, Debug)]
pub struct MimickedTrace<'s> {
    /// The sequential trace the windows index into.
    pub seq: &'s SequentialTrace,
    /// The settings used.
    pub config: MimicConfig,
    /// Sections in program order.
    pub sections: Vec<MimickedSection>,
}

impl<'s> MimickedTrace<'s> {
    /// Builds the private traces (SASMM Alg. 1).
    pub fn build(seq: &'s SequentialTrace, config: MimicConfig) -> Result<Self> {
        if config.cores == 0 {
            return Err(SasmmError::Config("at least one core is needed".into()));
        }
        if config.chunk == Some(0) {
            return Err(SasmmError::Config(
                "the chunk size must be at least 1".into(),
            ));
        }
        if config.offset_stride == 0 || config.offset_stride.trailing_zeros() < 12 {
            return Err(SasmmError::Config(
                "the core offset must be a non-zero multiple of 4096 bytes".into(),
            ));
        }
        let m = config.cores;
        let mut sections = Vec::with_capacity(seq.sections.len());
        let mut owners = Owners::default();
        for s in &seq.sections {
            let mut per_core = vec![Vec::new(); m];
            for w in s.windows.clone() {
                let placement = seq.windows[w as usize].placement;
                match owners.core_of(&config, placement, &seq.workshares) {
                    Some(c) => per_core[c].push(w),
                    None => per_core.iter_mut().for_each(|c| c.push(w)),
                }
            }
            sections.push(MimickedSection {
                parallel: s.parallel,
                per_core,
            });
        }
        Ok(MimickedTrace {
            seq,
            config,
            sections,
        })
    }

    /// Number of cores.
    pub fn cores(&self) -> usize {
        self.config.cores
    }

    /// The address core `core` uses for an access of memory instruction `mi` at `addr` in a
    /// window of a section that is `parallel`.
    // See: SASMM §3.2 — "we then add an offset to the memory addresses for each of the cores
    // under execution except the core executing master thread".
    #[inline]
    pub fn address(&self, core: usize, parallel: bool, mi: u32, addr: u64) -> u64 {
        if core == 0 || !parallel {
            return addr;
        }
        let offset = match self.config.offset_policy {
            OffsetPolicy::Paper => !self
                .seq
                .mi_shared_variable
                .get(mi as usize)
                .copied()
                .unwrap_or(false),
            OffsetPolicy::Private => {
                self.seq.mi_class.get(mi as usize).copied() == Some(VarClass::Private)
            }
        };
        if offset {
            addr.wrapping_add(core as u64 * self.config.offset_stride)
        } else {
            addr
        }
    }

    /// Calls `f(window, addr, len)` for every access of core `core`'s private trace, in order.
    pub fn for_each_private_access(&self, core: usize, mut f: impl FnMut(u32, u64, u32)) {
        for s in &self.sections {
            for &w in &s.per_core[core] {
                for a in self.seq.window_accesses(w) {
                    f(w, self.address(core, s.parallel, a.mi, a.addr), a.len);
                }
            }
        }
    }

    /// Windows per core (the length of each private trace in block instances).
    pub fn windows_per_core(&self) -> Vec<usize> {
        let mut n = vec![0; self.cores()];
        for s in &self.sections {
            for (c, ws) in s.per_core.iter().enumerate() {
                n[c] += ws.len();
            }
        }
        n
    }
}
