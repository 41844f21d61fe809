//! `rda-report paths` and `rda-report paths-predict`: path-based reuse analysis (which branch
//! histories lead to which locality patterns of an instruction) and its prediction across input
//! sizes. The analysis lives in `rdpaths`; this module maps flags onto its configuration and
//! prints what it returns.

mod args;
mod explain;
mod json;
mod render;

pub use args::*;
pub(crate) use explain::*;
pub(crate) use render::*;

use crate::exit::usage;
use crate::output::{Format, Table};
use anyhow::{Context, Result};
use json::{InstructionJson, PathsJson, PathsReportJson, PredictJson};
use rdpaths::analysis::InstructionPaths;
use rdpaths::predict::{predict, PredictConfig, SizedProfile};
use rdpaths::{analyse, PathCollector, PathConfig, PathProfile, PathReport};
use rdtrace::Trace;

/// Runs a path subcommand.
pub fn run(cmd: PathsCommand) -> Result<()> {
    match cmd {
        PathsCommand::Paths(a) => run_paths(&a),
        PathsCommand::PathsPredict(a) => run_predict(&a),
    }
}

/// Profiles every thread of a trace with a progress bar.
pub(crate) fn profile(trace: &Trace, cfg: &PathConfig, quiet: bool) -> Result<PathProfile> {
    let bar = crate::progress::bar(trace.total_events(), "paths", quiet);
    profile_with_bar(trace, cfg, bar)
}

/// [`profile`] counting on `bar` (its length is set here).
pub(crate) fn profile_with_bar(
    trace: &Trace,
    cfg: &PathConfig,
    bar: indicatif::ProgressBar,
) -> Result<PathProfile> {
    let collector = PathCollector::new(&trace.meta, cfg)?;
    bar.set_length(trace.total_events());
    let profile = rdtrace::analysis::run(trace, collector, |n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(profile)
}

/// Why `paths` and `paths-predict` need trace files.
const PER_THREAD: &str = "the path analysis reads each thread's events whole, one thread after \
another (a stream interleaves the threads' chunks)";

fn run_paths(args: &PathsArgs) -> Result<()> {
    let cfg = args.analysis.config();
    // Bad flag values are usage errors, found before the trace is read.
    cfg.validate()?;
    let trace = crate::tracefile::open_seeking(&args.trace, &args.open, PER_THREAD)?;
    let profile = profile(&trace, &cfg, args.out.quiet)?;
    let report: PathReport = analyse(&profile);
    let meta = &trace.meta;
    let loc = |mi: u32| meta.format_loc(meta.mem_instrs.get(mi as usize).and_then(|m| m.loc));
    let kind = |mi: u32| {
        meta.mem_instrs
            .get(mi as usize)
            .map_or("?", |m| m.kind.name())
    };
    if let Some(mi) = args.instr {
        if mi as usize >= meta.mem_instrs.len() {
            // Not a usage error: the command line is fine, this program has fewer.
            anyhow::bail!(
                "--instr {mi}: the program has {} memory instructions",
                meta.mem_instrs.len()
            );
        }
    }

    let mut tables = Vec::new();
    let mut t = Table::new(["quantity", "value"]).titled(format!(
        "Path-based reuse, {}-byte lines, squash {}",
        cfg.line,
        args.analysis
            .squash
            .map_or("per loop (line / element size)".to_string(), |l| format!(
                "every {l} iterations"
            ))
    ));
    t.row(["accesses".to_string(), report.accesses.to_string()]);
    t.row(["line references".to_string(), report.references.to_string()]);
    t.row(["cold references".to_string(), report.cold.to_string()]);
    t.row(["threads".to_string(), report.threads.to_string()]);
    t.row([
        "instructions with reuse".to_string(),
        report.instructions_analysed.to_string(),
    ]);
    t.row([
        "with multiple patterns".to_string(),
        report.multi_pattern.to_string(),
    ]);
    t.row([
        "with multiple patterns %".to_string(),
        format!("{:.2}", report.multi_pattern_pct),
    ]);
    if report.shortened_records > 0 {
        t.row([
            "paths kept shorter (--max-paths)".to_string(),
            report.shortened_records.to_string(),
        ]);
    }
    tables.push(t);

    tables.push(history_table(
        &report,
        "Multi-pattern instructions by history length (% of multi-pattern instructions; terms: rda-report paths --help)".to_string(),
    ));

    let mut multi: Vec<&InstructionPaths> = report
        .instructions
        .iter()
        .filter(|i| i.has_multiple_patterns() && args.instr.is_none_or(|mi| mi == i.mi))
        .collect();
    multi.sort_by_key(|i| std::cmp::Reverse(i.references));
    if args.top > 0 && args.instr.is_none() {
        multi.truncate(args.top);
    }
    if !multi.is_empty() {
        let mut headers = vec![
            "mi".to_string(),
            "location".into(),
            "kind".into(),
            "references".into(),
            "patterns".into(),
        ];
        headers.extend(cfg.histories.iter().map(|n| format!("path{n}")));
        let mut t = Table::new(headers).titled(format!(
            "Instructions with multiple patterns (yes: separated by paths; alias: not, because of history aliasing; +mix: a path mixes short and long{})",
            if report.shortened_records > 0 {
                "; *: some references beyond --max-paths, judged on the others"
            } else {
                ""
            }
        ));
        for ins in &multi {
            let mut row = vec![
                ins.mi.to_string(),
                loc(ins.mi),
                kind(ins.mi).to_string(),
                ins.references.to_string(),
                patterns_text(&ins.patterns),
            ];
            row.extend(cfg.histories.iter().map(|&n| verdict(ins, n).to_string()));
            t.row(row);
        }
        tables.push(t);
        let sequence_text = SequenceText::new(meta);
        for ins in &multi {
            let Some(n) = shown_history(ins, &cfg.histories) else {
                continue;
            };
            let Some(h) = ins.histories.iter().find(|h| h.n == n) else {
                continue;
            };
            let mut t =
                Table::new(["path (oldest..newest)", "references", "patterns"]).titled(format!(
                    "mi {} at {}: paths of {n} bits ({})",
                    ins.mi,
                    loc(ins.mi),
                    separation_text(h.differentiable)
                ));
            let mut paths: Vec<_> = h.paths.iter().collect();
            paths.sort_by_key(|p| std::cmp::Reverse(p.references));
            let sequences = args
                .explain_paths
                .then(|| explain_paths(&profile, ins.mi, n));
            for p in paths
                .iter()
                .take(if args.instr.is_some() { usize::MAX } else { 12 })
            {
                t.row([
                    history_text(p.key, n),
                    p.references.to_string(),
                    patterns_text(&p.patterns),
                ]);
                if let Some(sequences) = &sequences {
                    for &(branches, refs) in sequences.get(&p.key).into_iter().flatten() {
                        t.row([
                            format!("  = {}", sequence_text.of(branches)),
                            refs.to_string(),
                            String::new(),
                        ]);
                    }
                }
            }
            if paths.len() > 12 && args.instr.is_none() {
                t.row([
                    format!("… {} more paths", paths.len() - 12),
                    String::new(),
                    String::new(),
                ]);
            }
            tables.push(t);
        }
    } else if let Some(mi) = args.instr {
        let ins = report.instructions.iter().find(|i| i.mi == mi);
        let mut t = Table::new(["mi", "location", "references", "patterns"])
            .titled(format!("mi {mi} has fewer than two patterns"));
        t.row([
            mi.to_string(),
            loc(mi),
            ins.map_or(0, |i| i.references).to_string(),
            ins.map_or("-".into(), |i| patterns_text(&i.patterns)),
        ]);
        tables.push(t);
    }

    if let (Some(file), Some(mi)) = (&args.plot, args.instr) {
        let n = match args.plot_history {
            Some(n) => n,
            None => report
                .instructions
                .iter()
                .find(|i| i.mi == mi)
                .and_then(|i| shown_history(i, &cfg.histories))
                .unwrap_or(*cfg.histories.iter().max().unwrap_or(&1)),
        };
        plot_instruction(&profile, mi, n, file, &loc(mi))?;
    }

    let json = PathsJson {
        trace: args.trace.display().to_string(),
        history: &cfg.histories,
        squash: args
            .analysis
            .squash
            .map_or("per-loop".into(), |l| l.to_string()),
        min_frequency: cfg.patterns.min_frequency,
        drop_below: cfg.patterns.drop_below,
        report: PathsReportJson {
            line: report.line,
            long_threshold: report.long_threshold,
            accesses: report.accesses,
            references: report.references,
            cold: report.cold,
            threads: report.threads,
            instructions_analysed: report.instructions_analysed,
            multi_pattern: report.multi_pattern,
            multi_pattern_pct: report.multi_pattern_pct,
            path_limit: report.path_limit,
            shortened_records: report.shortened_records,
            summary: &report.summary,
            instructions: report
                .instructions
                .iter()
                .filter(|i| args.instr.is_none_or(|mi| mi == i.mi))
                .map(|i| InstructionJson {
                    location: loc(i.mi),
                    kind: kind(i.mi),
                    paths: i,
                    explained_paths: if args.explain_paths {
                        explained(&profile, meta, i, &cfg.histories)
                    } else {
                        Vec::new()
                    },
                })
                .collect(),
        },
    };
    args.out.emit(&json, &tables)
}

fn run_predict(args: &PredictArgs) -> Result<()> {
    if args.train.len() != 2 {
        return Err(usage(format!(
            "paths-predict needs exactly two --train runs (got {})",
            args.train.len()
        )));
    }
    let cfg = args.analysis.config();
    cfg.validate()?;
    let runs = || args.train.iter().chain(std::iter::once(&args.validate));
    crate::tracefile::require_files(runs().map(|r| r.path.as_path()), PER_THREAD)?;
    let mut profiles = Vec::new();
    for run in args.train.iter().chain(std::iter::once(&args.validate)) {
        let trace = crate::tracefile::open_seeking(&run.path, &args.open, PER_THREAD)?;
        let p = profile(&trace, &cfg, args.out.quiet)
            .with_context(|| format!("profiling {}", run.path.display()))?;
        profiles.push(p);
    }
    let sized = |i: usize, size: f64| SizedProfile {
        profile: &profiles[i],
        size,
    };
    let report = predict(
        [sized(0, args.train[0].size), sized(1, args.train[1].size)],
        sized(2, args.validate.size),
        &PredictConfig {
            min_overlap: args.overlap,
        },
    )?;
    let mut t = Table::new([
        "history",
        "validation paths",
        "missing",
        "pattern-count mismatch",
        "covered",
        "correct",
        "coverage %",
        "accuracy %",
    ])
    .titled(format!(
        "Prediction of sizes {} from {} and {} ({}-byte lines)",
        args.validate.size, args.train[0].size, args.train[1].size, cfg.line
    ));
    for r in &report.rows {
        t.row([
            if r.history == 0 {
                "inst".to_string()
            } else {
                format!("path{}", r.history)
            },
            r.validation_keys.to_string(),
            r.missing.to_string(),
            r.count_mismatch.to_string(),
            r.covered.to_string(),
            r.correct.to_string(),
            format!("{:.2}", r.coverage_pct),
            format!("{:.2}", r.accuracy_pct),
        ]);
    }
    let mut models = Table::new(["history", "model", "statistics fitted"])
        .titled("Fitted growth models (min, max, mean, fraction of each covered pattern)");
    for r in &report.rows {
        for (m, c) in &r.models {
            models.row([
                if r.history == 0 {
                    "inst".to_string()
                } else {
                    format!("path{}", r.history)
                },
                m.clone(),
                c.to_string(),
            ]);
        }
    }
    let json = PredictJson {
        train: args
            .train
            .iter()
            .map(|t| (t.path.display().to_string(), t.size))
            .collect(),
        validate: (args.validate.path.display().to_string(), args.validate.size),
        line: cfg.line,
        report: &report,
    };
    let tables = if args.out.format() == Format::Table {
        vec![t, models]
    } else {
        vec![t]
    };
    args.out.emit(&json, &tables)
}
