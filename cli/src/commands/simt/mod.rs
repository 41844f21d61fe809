//! `rda-report simt`: SIMT data-reuse-degree analysis. The worksharing loops of an rdtools trace
//! become GPU kernels (iteration i is thread i), or kernels come from a GPU text trace; one of
//! the thesis's six scenarios turns their blocks into MI streams, and the command prints the
//! DS-vs-RD characteristic (tables, JSON, CSV) and draws it as SVG.

mod args;
mod json;
mod load;
mod render;

pub use args::*;

use crate::output::emit;
use anyhow::{Context, Result};
use args::check_usage;
use json::{label, ConfigJson, HistogramJson, KernelJson, Output, StreamJson};
use load::load;
use rdsimt::gpu_text::write_gpu_text;
use rdsimt::openmp::{MiScope, SimtConfig};
use rdsimt::{
    run_scenario, DsHistogram, Kernel, Scenario, ScenarioConfig, ScenarioResult, SchedulePolicy,
};
use render::{plots, tables};

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
        max_rd: args.max_rd,
        policy: match args.policy {
            PolicyArg::Sequential => SchedulePolicy::Sequential,
            PolicyArg::RoundRobin => SchedulePolicy::RoundRobin,
        },
    };
    let (mut sources, skipped) = load(args, &simt)?;
    let indices: Vec<usize> = match args.kernel {
        // Not a usage error: the command line is fine, this input has fewer kernels.
        Some(n) if n >= sources.len() => anyhow::bail!(
            "--kernel {n}: {} has {} kernel(s), numbered from 0",
            args.trace.display(),
            sources.len()
        ),
        Some(n) => {
            sources = vec![sources.swap_remove(n)];
            vec![n]
        }
        None => (0..sources.len()).collect(),
    };
    if sources.is_empty() {
        eprintln!(
            "rda-report: warning: {} holds no kernel to analyse (no worksharing loop ran)",
            args.trace.display()
        );
    }
    if let Some(path) = &args.export_gpu_text {
        let kernels: Vec<Kernel> = sources.iter().map(|s| s.kernel.clone()).collect();
        let f =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        write_gpu_text(std::io::BufWriter::new(f), &kernels)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let mut results: Vec<ScenarioResult> = Vec::new();
    let bar = crate::progress::bar(sources.len() as u64, "kernels", args.out.quiet);
    for s in &sources {
        results.push(
            run_scenario(&s.kernel, &config)
                .with_context(|| format!("analysing {}", s.kernel.name))?,
        );
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut total = DsHistogram::new(config.max_rd);
    for r in &results {
        total.merge(&r.total);
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
        kernels: sources
            .iter()
            .zip(&results)
            .zip(&indices)
            .map(|((s, r), &index)| KernelJson {
                index,
                name: s.kernel.name.clone(),
                origin: s.origin.clone(),
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
            })
            .collect(),
        skipped,
        total: HistogramJson::new(&total),
    };
    let tables = tables(args, scenario, &output, &total);
    if let Some(p) = &args.plot {
        plots(p, &args.zoom, scenario, &total)?;
    }
    emit(args.out.format(), &output, &tables)
}
