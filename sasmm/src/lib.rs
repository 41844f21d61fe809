//! SASMM (Barai et al., "PPT-SASMM: Scalable Analytical Shared Memory Model"): predicts private
//! L1 and shared L2 hit rates of an OpenMP program on m cores from the trace of ONE sequential
//! run, and measures the ground truth on traces of real threaded runs.
//!
//! Pipeline (one module each):
//! 1. [`seq`]: the sequential trace as basic-block windows with their OpenMP placement, whole
//!    or streamed in fragments ([`window`] holds the data, [`seq`] the builder).
//! 2. [`mimic`]: private trace per core (Alg. 1) with per-core address offsets.
//! 3. [`interleave`]: the shared trace (Alg. 2, round-robin or uniform random).
//! 4. [`profile`]: PRD/CRD, block probabilities (eq. 1–3), sampled P(D|BB) (Alg. 3), eq. 4.
//! 5. [`model`]: the stack-distance cache model (eq. 5–7).
//! 6. [`predict`](mod@predict): all of the above for one core count.
//! 7. [`measure`](mod@measure): exact simulation and real PRD/CRD of a threaded run (validation).
//! 8. [`exact`]: the exact model — hit rates of the mimicked traces from set-aware stack
//!    distances (no eq. 5 approximation), many cache configurations and a miss-ratio curve in
//!    one streamed pass; [`rates`] names the rates every report prints, combined and per core
//!    ([`CoreRates`]: counts and rates of one core's private L1 and of the shared-L2 accesses
//!    its L1 misses cause, in the exact model and the measured runs).
//! 9. [`spill`]: parallel sections too long to hold, streamed through a temporary file.
//! 10. [`formula`]: the formula model (4–5) over the streamed trace in one pass, in memory
//!     bounded by the footprint and the sample; [`sample`] is Alg. 3's window sample drawn in
//!     that pass (priority levels per window, the block's level chosen at the end).
//!
//! Modules form a tree of uses, shared helpers below their users: `window` (the data) at the
//! bottom; `workshare` (iteration resolution) and `sample` on it; `mimic`, then `interleave`;
//! `spill` on those; `seq` (the builder) on `spill`; `profile`, then `predict`; `formula` on
//! `predict`; `exact` above it (its `coherence` below its `hierarchy`; it uses `measure` for
//! the memory instructions' write table, and `formula` to run both models in one pass);
//! `rates`, `par` (the thread pool), `model`, `set_sample` and `error` are leaves.
//!
//! The library returns plain data and never formats output; `rda-report predict|validate|measure`
//! prints it. Architecture invariant: depends on the trace format, the engines and the cache
//! simulator, never on the CLI, LLVM or the runtime.

pub mod error;
pub mod exact;
pub mod formula;
pub mod interleave;
pub mod measure;
pub mod mimic;
pub mod model;
mod par;
pub mod predict;
pub mod profile;
pub mod rates;
pub mod sample;
pub mod seq;
pub mod set_sample;
pub mod spill;
pub mod window;
mod workshare;

pub use error::{Result, SasmmError};
pub use exact::{
    predict_both_many_trace, predict_exact, predict_exact_many, predict_exact_many_trace,
    predict_exact_trace, ExactConfig, ExactPrediction, ExactRun, HierarchyPrediction, L3Counts,
    L3Prediction, MrcPoint, MultiHierarchy, SetStacks,
};
pub use formula::{predict_many_trace, predict_many_trace_beside, BesideFeed, FormulaRuns};
pub use interleave::Interleave;
pub use measure::{
    measure, measure_with, write_table, LevelCounts, MeasureConfig, MeasureOptions, Measurement,
    MiCoherence, ThreadMeasurer, ThreadRates,
};
pub use mimic::{MimicConfig, MimickedTrace, OffsetPolicy, StaticSplit};
pub use predict::{predict, predict_many, Prediction, SasmmConfig};
pub use profile::{BbWeighting, ProfileConfig};
pub use rates::{CoreCounts, CoreRates, HitRates};
pub use sample::{BlockCounts, WindowSampler};
pub use seq::{Fragment, SequentialTrace, StreamLimits};
pub use set_sample::{SetSample, SetSampleConfig};
#[cfg(test)]
mod tests;
