//! The kernels `simt` analyses: a SIMT trace, or the worksharing loops of an OpenMP trace.

use super::args::{SimtArgs, SimtInput};
use anyhow::Result;
use rdsimt::gpu_text::{for_each_gpu_text_kernel, for_each_gpu_text_kernel_in_file};
use rdsimt::openmp::{for_each_launch, for_each_launch_in, KernelLaunch, SimtConfig, SkippedLoop};
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
    /// The loop's function (linker symbol).
    pub(super) function: String,
    /// Its readable name, when it differs (C++, Fortran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) function_demangled: Option<String>,
    pub(super) location: String,
    pub(super) first_iteration: i64,
    pub(super) threads: u64,
    pub(super) omp_threads: u32,
    pub(super) accesses: u64,
    pub(super) unattributed: u64,
}

impl Source {
    fn of_launch(l: KernelLaunch) -> Self {
        Source {
            origin: Some(Origin {
                workshare: l.workshare,
                launch: l.launch,
                function_demangled: rdtrace::demangle::demangled(&l.function),
                function: l.function,
                location: l.location,
                first_iteration: l.first_iteration,
                threads: l.threads,
                omp_threads: l.omp_threads,
                accesses: l.accesses,
                unattributed: l.unattributed,
            }),
            kernel: l.kernel,
        }
    }
}

/// Hands the kernels the command analyses to `each`, one at a time: a GPU text file is read
/// kernel by kernel, each dropped after `each` returns; an rdtools trace is streamed, each worksharing-loop launch handed over once its team
/// has finished it and dropped after `each` returns. Returns the loops that were skipped.
pub(super) fn load(
    args: &SimtArgs,
    simt: &SimtConfig,
    each: &mut (dyn FnMut(Source) -> Result<()> + Send),
) -> Result<Vec<SkippedLoop>> {
    match args.input_format {
        SimtInput::GpuText => {
            let mut to_each = |k: Kernel| {
                each(Source {
                    kernel: k.with_granularity(args.granularity),
                    origin: None,
                })
            };
            if crate::tracefile::is_stdin(&args.trace) {
                for_each_gpu_text_kernel(
                    std::io::BufReader::with_capacity(1 << 20, std::io::stdin()),
                    "<stdin>",
                    &mut to_each,
                )?;
            } else {
                for_each_gpu_text_kernel_in_file(&args.trace, &mut to_each)?;
            }
            Ok(Vec::new())
        }
        SimtInput::Rdtrace => {
            let mut input = crate::tracefile::open_input(&args.trace, &args.open)?;
            // Errors of the analysis carry their own context; the trace's get this one.
            let mut analysis_failed = false;
            let mut f = |l| {
                let r = each(Source::of_launch(l));
                analysis_failed = r.is_err();
                r
            };
            let skipped = match &mut input {
                crate::tracefile::Input::File(trace) => for_each_launch(trace, simt, &mut f),
                stream => {
                    let meta = stream.meta().clone();
                    for_each_launch_in(&meta, stream.merged()?, simt, &mut f)
                }
            }
            .and_then(|skipped| input.finish().map(|()| skipped))
            .map_err(|e| {
                if analysis_failed {
                    e
                } else {
                    e.context(format!(
                        "mapping the loops of {} to GPU threads",
                        args.trace.display()
                    ))
                }
            })?;
            for s in &skipped {
                eprintln!(
                    "rda-report: warning: worksharing loop {} at {} skipped: {}",
                    s.workshare, s.location, s.reason
                );
            }
            Ok(skipped)
        }
    }
}
