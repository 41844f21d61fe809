//! `rda-report predict | measure | validate`: the SASMM multicore cache model.
//!
//! * `predict` — L1/L2 hit rates for several core counts from ONE sequential trace, by the
//!   exact model (set-aware LRU on the mimicked traces, [`rdsasmm::exact`]) or the paper's
//!   formula (eq. 5–7); several cache configurations and a miss-ratio curve in one call.
//! * `measure` — ground truth of a real threaded run: exact LRU simulation (private L1 per
//!   thread, shared L2), real PRD/CRD.
//! * `validate` — measured, exact model and formula side by side with absolute errors and the
//!   error decomposition, as a table, JSON and an SVG plot.
//!
//! Hit rates are fractions in JSON and percentages in tables, per cache-line reference, under
//! one set of names ([`rdsasmm::HitRates`]): `l1_hit`, `l2_hit_global` (1 − L2 misses /
//! references, cachegrind's convention; `l2_hit` is an alias), `l2_hit_local` (L2 hits / L2
//! accesses) and misses per 1000 references `l1_mpka`, `l2_mpka`.

mod args;
mod json;
mod measure_run;
mod predict;
mod predict_tables;
mod validate;

pub use args::*;
pub use predict::*;

use anyhow::Result;
use measure_run::run_measure;
use predict::run_predict;
use validate::run_validate;

/// Runs a SASMM subcommand.
pub fn run(cmd: SasmmCommand) -> Result<()> {
    match cmd {
        SasmmCommand::Predict(a) => run_predict(&a),
        SasmmCommand::Measure(a) => run_measure(&a),
        SasmmCommand::Validate(a) => run_validate(&a),
    }
}
