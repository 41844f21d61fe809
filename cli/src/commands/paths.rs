//! `rda-report paths` and `rda-report paths-predict`: path-based reuse analysis (which branch
//! histories lead to which locality patterns of an instruction) and its prediction across input
//! sizes. The analysis lives in `rdpaths`; this module maps flags onto its configuration and
//! prints what it returns.

use crate::exit::usage;
use crate::output::{emit, Format, OutputArgs, Table};
use anyhow::{Context, Result};
use rdpaths::analysis::{group_by_history, paths_of, InstructionPaths, PathKey};
use rdpaths::predict::{predict, PredictConfig, PredictionReport, SizedProfile};
use rdpaths::{
    analyse, PathCollector, PathConfig, PathProfile, PathReport, Pattern, PatternConfig,
    SquashPeriod,
};
use rdtrace::Trace;
use serde::Serialize;
use std::path::PathBuf;

/// The path-analysis subcommands (flattened into the top level).
#[derive(clap::Subcommand, Debug)]
pub enum PathsCommand {
    /// Path-based reuse: locality patterns per instruction and per branch history, how many
    /// multi-pattern instructions n-bit paths tell apart, history aliasing, short/long mixing.
    #[command(long_about = crate::terms::long_about(
        "Path-based reuse: locality patterns per instruction and per branch history, how many \
         multi-pattern instructions n-bit paths tell apart, history aliasing, short/long mixing \
         (Fang, Carr, Önder, Wang: path-based reuse distance analysis).",
        crate::terms::PATHS,
    ))]
    Paths(PathsArgs),
    /// Predict path-based patterns of a third input from two training runs (curve fitting);
    /// coverage and accuracy per history length.
    #[command(long_about = crate::terms::long_about(
        "Predict path-based patterns of a third input from two training runs (curve fitting of \
         each pattern's min, max, mean and fraction against the input size); coverage and \
         accuracy per history length.",
        crate::terms::PATHS_PREDICT,
    ))]
    PathsPredict(PredictArgs),
}

/// Analysis options shared by both subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalysisArgs {
    /// History lengths in bits (each 1..=56).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub history: Vec<u32>,
    /// Cache-line size in bytes (a power of two).
    #[arg(long, default_value_t = 64)]
    pub line: u32,
    /// Loop squash period l in iterations; default: per loop, line size / element size.
    #[arg(long)]
    pub squash: Option<u32>,
    /// The paper's minimum frequency (section 3.1): a pattern holding this fraction of the
    /// references stops merging bins [default: off; the paper gives no value].
    #[arg(long, value_name = "F")]
    pub min_frequency: Option<f64>,
    /// Not in the paper: drop patterns with less than this fraction of a path's references as
    /// noise (0 keeps all).
    #[arg(
        long,
        visible_alias = "min-fraction",
        default_value_t = 0.01,
        value_name = "F"
    )]
    pub drop_below: f64,
    /// Distances (in lines) from which a pattern counts as long.
    #[arg(long, default_value_t = 1024)]
    pub long_threshold: u64,
}

impl AnalysisArgs {
    pub(crate) fn config(&self) -> PathConfig {
        PathConfig {
            line: self.line,
            histories: self.history.clone(),
            squash: self
                .squash
                .map_or(SquashPeriod::PerLoop, SquashPeriod::Fixed),
            patterns: PatternConfig {
                min_frequency: self.min_frequency,
                drop_below: self.drop_below,
            },
            long_threshold: self.long_threshold,
        }
    }
}

/// Arguments of `paths`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  rda-report paths app.rdtrace\n  rda-report paths app.rdtrace --history 1,2,3,4,8 --line 64 --json\n  rda-report paths app.rdtrace --instr 7 --plot mi7.svg\n\nMemory: one record per (memory instruction, branch-history path) with its distance bins, and one reuse tracker (distinct lines) for the thread being read; threads are read one after another, a chunk at a time."
)]
pub struct PathsArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Show only this memory instruction (and plot it with --plot).
    #[arg(long, value_name = "MI")]
    pub instr: Option<u32>,
    /// Multi-pattern instructions listed in the tables (most references first); 0 = all.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Write an SVG of the distance distribution of --instr, one line per path.
    #[arg(long, value_name = "FILE.svg", requires = "instr")]
    pub plot: Option<PathBuf>,
    /// History length of the plotted paths (default: the shortest that separates the
    /// instruction's patterns, else the longest analysed).
    #[arg(long, value_name = "N")]
    pub plot_history: Option<u32>,
    /// Under each path, list the branches (source lines) its bits came from: one line per
    /// distinct branch sequence, oldest first, as BIT@file:line.
    #[arg(long)]
    pub explain_paths: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// A trace with the data size of its input, written `FILE:SIZE`.
#[derive(Clone, Debug)]
pub struct SizedTrace {
    /// Trace file.
    pub path: PathBuf,
    /// Data size.
    pub size: f64,
}

fn parse_sized(s: &str) -> Result<SizedTrace, String> {
    let (path, size) = s
        .rsplit_once(':')
        .ok_or_else(|| format!("expected FILE:SIZE, got {s:?}"))?;
    let size: f64 = size
        .parse()
        .map_err(|_| format!("{size:?} is not a number (in {s:?})"))?;
    if path.is_empty() || !(size.is_finite() && size > 0.0) {
        return Err(format!(
            "expected FILE:SIZE with a positive size, got {s:?}"
        ));
    }
    Ok(SizedTrace {
        path: PathBuf::from(path),
        size,
    })
}

/// Arguments of `paths-predict`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rda-report paths-predict --train n1000.rdtrace:1000 --train n2000.rdtrace:2000 --validate n8000.rdtrace:8000\n\nMemory: as `paths`, for one trace at a time: one record per (memory instruction, path) and the distinct lines of one thread."
)]
pub struct PredictArgs {
    /// Training run as FILE:SIZE (give exactly two).
    #[arg(long, value_parser = parse_sized, required = true, num_args = 1)]
    pub train: Vec<SizedTrace>,
    /// Validation run as FILE:SIZE.
    #[arg(long, value_parser = parse_sized)]
    pub validate: SizedTrace,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Minimum overlap for a predicted pattern to count as correct.
    #[arg(long, default_value_t = 0.9)]
    pub overlap: f64,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Runs a path subcommand.
pub fn run(cmd: PathsCommand) -> Result<()> {
    match cmd {
        PathsCommand::Paths(a) => run_paths(&a),
        PathsCommand::PathsPredict(a) => run_predict(&a),
    }
}

/// Profiles every thread of a trace with a progress bar.
pub(crate) fn profile(trace: &Trace, cfg: &PathConfig, quiet: bool) -> Result<PathProfile> {
    let mut collector = PathCollector::new(&trace.meta, cfg)?;
    let bar = crate::progress::bar(trace.total_events(), "paths", quiet);
    let mut reader = trace.chunk_reader()?;
    for t in trace.thread_indices() {
        collector.begin_thread();
        for c in trace.event_chunks().iter().filter(|c| c.thread == t) {
            reader.visit_chunk(c, &mut collector)?;
            bar.inc(c.events as u64);
        }
    }
    bar.finish_and_clear();
    Ok(collector.finish())
}

/// A history as text: oldest bit first, most recent last; `.` for bits the stack did not have.
pub(crate) fn history_text(key: PathKey, n: u32) -> String {
    (0..n)
        .rev()
        .map(|j| {
            if j >= key.depth {
                '.'
            } else if key.bits >> j & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

pub(crate) fn patterns_text(ps: &[Pattern]) -> String {
    if ps.is_empty() {
        return "-".into();
    }
    ps.iter()
        .map(|p| {
            let range = if p.min == p.max {
                p.min.to_string()
            } else {
                format!("{}..{}", p.min, p.max)
            };
            format!("{range} ({:.0}%)", 100.0 * p.fraction)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Serialize)]
struct InstructionJson<'a> {
    location: String,
    kind: &'static str,
    #[serde(flatten)]
    paths: &'a InstructionPaths,
    /// With --explain-paths: the branch sequences behind each path of the shown history.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    explained_paths: Vec<ExplainedPath>,
}

/// One path with the branch sequences (oldest first, `BIT@file:line`) that produce its bits.
#[derive(Serialize)]
struct ExplainedPath {
    history: u32,
    path: String,
    /// `[[sequence, references], …]`, most references first.
    branches: Vec<(String, u64)>,
}

#[derive(Serialize)]
struct PathsJson<'a> {
    trace: String,
    history: &'a [u32],
    squash: String,
    min_frequency: Option<f64>,
    drop_below: f64,
    #[serde(flatten)]
    report: PathsReportJson<'a>,
}

#[derive(Serialize)]
struct PathsReportJson<'a> {
    line: u32,
    long_threshold: u64,
    accesses: u64,
    references: u64,
    cold: u64,
    threads: u32,
    instructions_analysed: u64,
    multi_pattern: u64,
    multi_pattern_pct: f64,
    summary: &'a [rdpaths::analysis::HistorySummary],
    instructions: Vec<InstructionJson<'a>>,
}

pub(crate) fn verdict(ins: &InstructionPaths, n: u32) -> &'static str {
    match ins.histories.iter().find(|h| h.n == n) {
        Some(h) if h.differentiable => "yes",
        Some(h) if h.aliased && h.mixes_short_long => "alias+mix",
        Some(h) if h.aliased => "alias",
        Some(h) if h.mixes_short_long => "no+mix",
        Some(_) => "no",
        None => "",
    }
}

/// The history length whose paths are shown for an instruction: the shortest that separates
/// its patterns, else the longest analysed.
pub(crate) fn shown_history(ins: &InstructionPaths, histories: &[u32]) -> Option<u32> {
    let mut ns = histories.to_vec();
    ns.sort_unstable();
    ns.iter()
        .copied()
        .find(|&n| ins.histories.iter().any(|h| h.n == n && h.differentiable))
        .or_else(|| ns.last().copied())
}

fn run_paths(args: &PathsArgs) -> Result<()> {
    let cfg = args.analysis.config();
    // Bad flag values are usage errors, found before the trace is read.
    cfg.validate()?;
    let trace = crate::tracefile::open(&args.trace, &args.open)?;
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
        let mut t = Table::new(headers).titled(
            "Instructions with multiple patterns (yes: separated by paths; alias: not, because of history aliasing; +mix: a path mixes short and long)",
        );
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
                    if h.differentiable {
                        "they separate the patterns"
                    } else {
                        "they do not separate the patterns"
                    }
                ));
            let mut paths: Vec<_> = h.paths.iter().collect();
            paths.sort_by_key(|p| std::cmp::Reverse(p.references));
            for p in paths
                .iter()
                .take(if args.instr.is_some() { usize::MAX } else { 12 })
            {
                t.row([
                    history_text(p.key, n),
                    p.references.to_string(),
                    patterns_text(&p.patterns),
                ]);
                if args.explain_paths {
                    for (branches, refs) in explain_path(&profile, meta, ins.mi, n, p.key) {
                        t.row([format!("  = {branches}"), refs.to_string(), String::new()]);
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
    emit(args.out.format(), &json, &tables)
}

/// The explained paths of the history shown for `ins` (none for single-pattern instructions).
fn explained(
    profile: &PathProfile,
    meta: &rdtrace::meta::ProgramMeta,
    ins: &InstructionPaths,
    histories: &[u32],
) -> Vec<ExplainedPath> {
    let Some(n) = shown_history(ins, histories) else {
        return Vec::new();
    };
    let Some(h) = ins.histories.iter().find(|h| h.n == n) else {
        return Vec::new();
    };
    h.paths
        .iter()
        .map(|p| ExplainedPath {
            history: n,
            path: history_text(p.key, n),
            branches: explain_path(profile, meta, ins.mi, n, p.key),
        })
        .collect()
}

/// Branch sequences behind one n-bit path of instruction `mi`: each distinct sequence of the
/// `n` most recent history entries that gives the path's bits, oldest first, as
/// `BIT@file:line` (the branch's source line), with the references made under it. More than
/// one sequence for one path is history aliasing.
pub(crate) fn explain_path(
    profile: &PathProfile,
    meta: &rdtrace::meta::ProgramMeta,
    mi: u32,
    n: u32,
    key: PathKey,
) -> Vec<(String, u64)> {
    use std::collections::BTreeMap;
    let mut seqs: BTreeMap<Vec<u32>, u64> = BTreeMap::new();
    for r in profile.records.iter().filter(|r| r.mi == mi) {
        let k = PathKey {
            bits: rdpaths::history::window_bits(&r.window, n),
            depth: r.depth.min(n),
        };
        if k != key {
            continue;
        }
        let take = (n as usize).min(r.depth as usize).min(r.window.len());
        *seqs.entry(r.window[..take].to_vec()).or_default() += r.bins.count() + r.cold;
    }
    let branch_loc = |br: u32| {
        meta.branches
            .get(br as usize)
            .and_then(|b| b.loc)
            .filter(|l| l.line > 0)
            .map_or(format!("br{br}"), |l| {
                let file = meta.files.get(l.file as usize).map_or("?", String::as_str);
                let base = std::path::Path::new(file)
                    .file_name()
                    .map_or(file.to_string(), |f| f.to_string_lossy().into_owned());
                format!("{base}:{}", l.line)
            })
    };
    let mut out: Vec<(String, u64)> = seqs
        .into_iter()
        .map(|(entries, refs)| {
            // Entries are most recent first; print oldest first, as the path string does.
            let text = entries
                .iter()
                .rev()
                .map(|&e| format!("{}@{}", e & 1, branch_loc(e >> 1)))
                .collect::<Vec<_>>()
                .join(" ");
            (
                if text.is_empty() {
                    "(no branch yet)".into()
                } else {
                    text
                },
                refs,
            )
        })
        .collect();
    out.sort_by_key(|o| std::cmp::Reverse(o.1));
    out
}

/// One line per path (the eight with most references, plus all paths together) over the
/// distance bins of one instruction.
fn plot_instruction(
    profile: &PathProfile,
    mi: u32,
    n: u32,
    file: &std::path::Path,
    loc: &str,
) -> Result<()> {
    let groups = group_by_history(profile, n);
    let Some(paths) = groups.get(&mi) else {
        anyhow::bail!("--instr {mi}: the instruction made no accesses (nothing to plot)");
    };
    let mut all = rdpaths::bins::Bins::new();
    for p in paths {
        all.merge(&p.bins);
    }
    let mut sorted: Vec<_> = paths.iter().collect();
    sorted.sort_by_key(|p| std::cmp::Reverse(p.bins.count()));
    let points = |b: &rdpaths::bins::Bins| -> Vec<(f64, f64)> {
        b.summaries()
            .iter()
            .map(|s| (s.index as f64, s.count as f64))
            .collect()
    };
    let pats = paths_of(paths, &profile.config.patterns);
    let mut series = vec![crate::plot::Series {
        name: "all paths".into(),
        points: points(&all),
        dashed: true,
    }];
    for p in sorted.iter().take(8) {
        let np = pats
            .iter()
            .find(|q| q.key == p.key)
            .map_or(0, |q| q.patterns.len());
        series.push(crate::plot::Series {
            name: format!("{} ({np} pat.)", history_text(p.key, n)),
            points: points(&p.bins),
            dashed: false,
        });
    }
    let svg = crate::plot::line_chart(
        &format!("mi {mi} ({loc}): reuse distance by {n}-bit path"),
        "distance bin (0: d=0; k≤10: 2^(k-1)..2^k-1; k>10: 1K-wide from (k-10)·1024)",
        "references",
        &series,
        None,
    );
    crate::plot::write_svg(file, &svg)
}

#[derive(Serialize)]
struct PredictJson<'a> {
    train: Vec<(String, f64)>,
    validate: (String, f64),
    line: u32,
    #[serde(flatten)]
    report: &'a PredictionReport,
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
    let mut profiles = Vec::new();
    for run in args.train.iter().chain(std::iter::once(&args.validate)) {
        let trace = crate::tracefile::open(&run.path, &args.open)?;
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
    emit(args.out.format(), &json, &tables)
}

/// The per-history-length summary of multi-pattern instructions (shared by `paths` and the HTML
/// report).
pub(crate) fn history_table(report: &PathReport, title: String) -> Table {
    let mut t = Table::new([
        "history",
        "paths",
        "differentiable %",
        "aliasing % (exact windows)",
        "aliasing % (paper)",
        "short+long %",
    ])
    .titled(title);
    for s in &report.summary {
        t.row([
            format!("path{}", s.n),
            s.paths.to_string(),
            format!("{:.2}", s.differentiable_pct),
            format!("{:.2}", s.aliased_pct),
            s.aliased_paper_pct
                .map_or("-".to_string(), |p| format!("{p:.2}")),
            format!("{:.2}", s.mixed_pct),
        ]);
    }
    t
}
