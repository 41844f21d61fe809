//! `rda-report simt`: SIMT data-reuse-degree analysis. The worksharing loops of an rdtools trace
//! become GPU kernels (iteration i is thread i), or kernels come from a GPU text trace; one of
//! the thesis's six scenarios turns their blocks into MI streams, and the command prints the
//! DS-vs-RD characteristic (tables, JSON, CSV) and draws it as SVG.

mod args;
mod json;
mod load;
mod render;

pub use args::*;

use anyhow::{Context, Result};
use args::check_usage;
use json::{label, ConfigJson, HistogramJson, KernelJson, Output, StreamJson};
use load::{load, Source};
use rdsimt::gpu_text::{write_gpu_text_header, write_gpu_text_kernel};
use rdsimt::openmp::{MiScope, SimtConfig};
use rdsimt::{run_scenario, DsHistogram, Scenario, ScenarioConfig, SchedulePolicy};
use render::{plots, tables};

/// The readable name of a kernel named `name` (for an OpenMP loop, `"{function} ({loc})
/// workshare {ws} launch {n}"`) whose loop lies in `function` (`None` for a GPU text kernel,
/// named as a whole), when it differs from `name`: C++ and Fortran functions demangled.
pub(crate) fn kernel_name_demangled(name: &str, function: Option<&str>) -> Option<String> {
    match function {
        Some(f) => {
            let rest = name.strip_prefix(f)?;
            rdtrace::demangle::demangled(f).map(|d| d + rest)
        }
        None => rdtrace::demangle::demangled(name),
    }
}

/// Runs `simt`.
pub fn run(args: &SimtArgs) -> Result<()> {
    let scenario = Scenario::from_number(args.scenario).expect("clap checks the range");
    check_usage(args, scenario)?;
    let simt = SimtConfig {
        block_size: args.block.unwrap_or(256) as usize,
        warp_size: args.warp.unwrap_or(32) as usize,
        mi_scope: match args.mi_scope {
            Some(ScopeArg::Warp) => MiScope::Warp,
            _ => MiScope::Block,
        },
        granularity: args.granularity,
        include_private: args.include_private,
    };
    let defaults = ScenarioConfig::default();
    let config = ScenarioConfig {
        scenario,
        concurrent_blocks: args.k.map_or(defaults.concurrent_blocks, |k| k as usize),
        clusters: args.clusters.map_or(defaults.clusters, |c| c as usize),
        lsu: args.lsu.map_or(defaults.lsu, |l| l as usize),
        max_rd: args.max_rd.0,
        policy: match args.policy {
            PolicyArg::Sequential => SchedulePolicy::Sequential,
            PolicyArg::RoundRobin => SchedulePolicy::RoundRobin,
        },
    };
    let mut export = match &args.export_gpu_text {
        Some(path) => {
            let f = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            let mut w = std::io::BufWriter::new(f);
            write_gpu_text_header(&mut w).with_context(|| format!("writing {}", path.display()))?;
            Some((path, w))
        }
        None => None,
    };
    // Kernels are analysed as they come; only their results are kept.
    let mut kernels: Vec<KernelJson> = Vec::new();
    let mut total = DsHistogram::new(config.max_rd);
    let mut count = 0usize;
    let bar = crate::progress::bar(0, "kernels", args.out.quiet);
    let skipped = load(args, &simt, &mut |s: Source| {
        let index = count;
        count += 1;
        if args.kernel.is_some_and(|n| n != index) {
            return Ok(());
        }
        if let Some((path, w)) = export.as_mut() {
            write_gpu_text_kernel(w, &s.kernel)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        let name_demangled = kernel_name_demangled(
            &s.kernel.name,
            s.origin.as_ref().map(|o| o.function.as_str()),
        );
        let r = run_scenario(&s.kernel, &config).with_context(|| {
            format!(
                "analysing {}",
                name_demangled.as_deref().unwrap_or(&s.kernel.name)
            )
        })?;
        total.merge(&r.total);
        kernels.push(KernelJson {
            index,
            name: s.kernel.name.clone(),
            name_demangled,
            origin: s.origin,
            blocks: s.kernel.blocks.len(),
            mis: s.kernel.mis(),
            lanes: s.kernel.lanes(),
            aggregate_blocks: r.aggregate_blocks,
            scheduler: r.scheduler.clone(),
            streams: r
                .streams
                .iter()
                .map(|st| StreamJson {
                    label: label(st.label),
                    blocks: st.blocks,
                    histogram: HistogramJson::new(&st.histogram),
                })
                .collect(),
            total: HistogramJson::new(&r.total),
        });
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some((path, mut w)) = export {
        std::io::Write::flush(&mut w).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(n) = args.kernel.filter(|&n| n >= count) {
        // Not a usage error: the command line is fine, this input has fewer kernels.
        anyhow::bail!(
            "--kernel {n}: {} has {count} kernel(s), numbered from 0",
            args.trace.display(),
        );
    }
    if count == 0 {
        eprintln!(
            "rda-report: warning: {} holds no kernel to analyse (no worksharing loop ran)",
            args.trace.display()
        );
    }
    let clustered = matches!(
        scenario,
        Scenario::ClusterLocal | Scenario::ClusterAggregate
    );
    let from_trace = args.input_format == SimtInput::Rdtrace;
    let output = Output {
        input: args.trace.display().to_string(),
        input_format: if from_trace { "rdtrace" } else { "gpu-text" },
        scenario: scenario.number(),
        scenario_description: scenario.description(),
        config: ConfigJson {
            block: from_trace.then_some(simt.block_size as u64),
            warp: from_trace.then_some(simt.warp_size as u64),
            mi_scope: from_trace.then_some(match simt.mi_scope {
                MiScope::Warp => "warp",
                MiScope::Block => "block",
            }),
            granularity: args.granularity.to_string(),
            k: (scenario == Scenario::ConcurrentBlocks).then_some(config.concurrent_blocks),
            clusters: clustered.then_some(config.clusters),
            lsu: clustered.then_some(config.lsu),
            policy: match config.policy {
                SchedulePolicy::Sequential => "sequential",
                SchedulePolicy::RoundRobin => "round-robin",
            },
            max_rd: config.max_rd,
        },
        kernels,
        skipped,
        total: HistogramJson::new(&total),
    };
    let tables = tables(args, scenario, &output, &total);
    if let Some(p) = &args.plot {
        plots(p, &args.zoom, scenario, &total)?;
    }
    args.out.emit(&output, &tables)
}
