//! Helpers for the end-to-end tests: find (or build) `rdcc`, `rda-report` and the runtime,
//! compile programs from `test-programs/`, run them with a trace path, and summarise traces.
//!
//! Architecture invariant: the tests drive the real binaries as a user would; they never call
//! the pass or the runtime as libraries.

mod cost;
mod mpi;
mod report;
mod running;
mod toolchain;
mod traces;

pub use cost::{
    rda_report_bounded, run_measured, BoundedRun, ChildCost, HOSTILE_MEM_LIMIT, HOSTILE_TIME_LIMIT,
};
pub use mpi::local_mpirun;
pub use report::{count, rda_report, rda_report_json};
pub use running::{
    build_and_trace, check_invariants, live, output_traced, run_traced, small_chunk_vecadd_trace,
    success_stdout, trace_program, vecadd_trace, with_trace_named,
};
pub use toolchain::{program, rdcc, tools, workspace, Tools, PREBUILT_ENV};
pub use traces::{
    addresses_at, blocks_named, chunk_layout, counts, line_of, mem_instrs_at, Counts,
};
