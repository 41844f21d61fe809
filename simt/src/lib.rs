//! SIMT data-reuse-degree analysis (the thesis "Data reuse characterization for SIMT
//! processors"): how much data the memory instructions of GPU threads share, as a function of
//! how far apart they issue.
//!
//! A kernel is a grid of thread blocks, each with a reference stream of memory instructions
//! ([`MemInstr`], an *MI*: one instruction issued by a warp or block in lockstep, with one
//! address per active thread). Between two MIs `i < j` the data reuse degree `DS_ij` sums the
//! multiplicities in `j` of the addresses both touch ([`reuse_degree`], thesis definitions 1-2),
//! and their reuse distance is `RD = j − i` (definition 3). The *data reuse characteristic* of a
//! stream is the DS-vs-RD histogram ([`DsHistogram`]), computed by [`ReuseDegreeAnalyzer`] from
//! per-address occurrence lists and checked against the thesis's Algorithm 1 ([`oracle`]).
//! The six scenarios of section VI ([`scenario`]) decide which streams are built from the
//! blocks: serialized, per block, aggregated, K concurrent blocks under a block scheduling
//! policy ([`schedule`]), or core clusters with limited load/store units.
//!
//! Kernels come from two places: [`openmp::import_trace`] maps OpenMP worksharing loops in an
//! rdtools trace onto GPU threads (iteration `i` is thread `i`; [`openmp::for_each_launch`]
//! streams them, one launch in memory at a time), and [`gpu_text`] reads traces
//! of real GPU kernels in a documented text format (`docs/simt-trace-format.md`).
//!
//! Architecture invariant: analyses return data and never format output; this crate depends on
//! `rdtrace` only to read traces, and knows nothing of LLVM, the CLI or the cache engines.

pub mod error;
pub mod gpu_text;
pub mod grid;
pub mod mi;
pub mod openmp;
pub mod oracle;
pub mod reuse;
pub mod scenario;
pub mod schedule;

pub use error::{Result, SimtError};
pub use grid::{BlockStream, Kernel};
pub use mi::{reuse_degree, AddressArray, Granularity, MemInstr};
pub use openmp::{for_each_launch, import_trace, MiScope, SimtConfig};
pub use reuse::{analyze_stream, DsHistogram, ReuseDegreeAnalyzer, DEFAULT_MAX_RD};
pub use scenario::{run_scenario, run_scenario_with, Scenario, ScenarioConfig, ScenarioResult};
pub use schedule::{BlockScheduler, RoundRobin, Schedule, SchedulePolicy, Sequential};
