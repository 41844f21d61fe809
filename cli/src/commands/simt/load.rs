//! The kernels `simt` analyses: a SIMT trace, or the worksharing loops of an OpenMP trace.

use super::args::{SimtArgs, SimtInput};
use anyhow::{Context, Result};
use rdsimt::gpu_text::read_gpu_text_file;
use rdsimt::openmp::{import_trace, SimtConfig, SkippedLoop};
use rdsimt::Kernel;
use serde::Serialize;

/// A kernel to analyse, with where it came from.
pub(super) struct Source {
    pub(super) kernel: Kernel,
    pub(super) origin: Option<Origin>,
}

/// The OpenMP loop behind a kernel.
#[derive(Serialize, Clone)]
pub(super) struct Origin {
    pub(super) workshare: u32,
    pub(super) launch: u32,
    pub(super) function: String,
    pub(super) location: String,
    pub(super) first_iteration: i64,
    pub(super) threads: u64,
    pub(super) omp_threads: u32,
    pub(super) accesses: u64,
    pub(super) unattributed: u64,
}

/// Reads the kernels the command analyses.
pub(super) fn load(args: &SimtArgs, simt: &SimtConfig) -> Result<(Vec<Source>, Vec<SkippedLoop>)> {
    match args.input_format {
        SimtInput::GpuText => {
            let kernels = read_gpu_text_file(&args.trace)?;
            Ok((
                kernels
                    .into_iter()
                    .map(|k| Source {
                        kernel: k.with_granularity(args.granularity),
                        origin: None,
                    })
                    .collect(),
                Vec::new(),
            ))
        }
        SimtInput::Rdtrace => {
            let trace = crate::tracefile::open(&args.trace, &args.open)?;
            let import = import_trace(&trace, simt).with_context(|| {
                format!(
                    "mapping the loops of {} to GPU threads",
                    args.trace.display()
                )
            })?;
            for s in &import.skipped {
                eprintln!(
                    "rda-report: warning: worksharing loop {} at {} skipped: {}",
                    s.workshare, s.location, s.reason
                );
            }
            let sources = import
                .launches
                .into_iter()
                .map(|l| Source {
                    origin: Some(Origin {
                        workshare: l.workshare,
                        launch: l.launch,
                        function: l.function,
                        location: l.location,
                        first_iteration: l.first_iteration,
                        threads: l.threads,
                        omp_threads: l.omp_threads,
                        accesses: l.accesses,
                        unattributed: l.unattributed,
                    }),
                    kernel: l.kernel,
                })
                .collect();
            Ok((sources, import.skipped))
        }
    }
}
