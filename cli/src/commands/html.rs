//! `rda-report html`: one self-contained HTML page with the run summary, the reuse histogram and
//! miss-ratio curve, per-thread histograms, SASMM predicted vs measured hit rates, the hot source
//! lines, the multi-pattern instructions with their paths, SIMT DS/RD plots and the terms used.
//!
//! The page's size does not depend on the trace length: every table and plot has a bounded
//! number of rows or points (log2 distance bins, at most [`MAX_THREADS`] threads, `--top` lines,
//! [`MAX_PATH_INSTRS`] × [`MAX_PATHS`] paths, [`MAX_SIMT_POINTS`] SIMT points).

use crate::html::{self, Page};
use crate::output::{percent, Table};
use crate::plot::{self, Series};
use anyhow::{bail, Context, Result};
use rdannotate::{annotate_with_progress, AnnotateConfig, Annotation};
use rdcachesim::CacheConfig;
use rdengines::Histogram;
use std::path::PathBuf;

/// Threads drawn and listed at most.
pub const MAX_THREADS: usize = 64;
/// Threads drawn in the per-thread plot (one line each).
pub const MAX_THREAD_SERIES: usize = 8;
/// Multi-pattern instructions listed at most.
pub const MAX_PATH_INSTRS: usize = 10;
/// Paths listed per instruction at most.
pub const MAX_PATHS: usize = 12;
/// Branch sequences listed per path at most.
pub const MAX_SEQUENCES: usize = 3;
/// Points of the full-range SIMT plot at most.
pub const MAX_SIMT_POINTS: u64 = 400;

/// Arguments of `html`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  rda-report html app.rdtrace -o report.html --source-dir .\n  rda-report html t4.rdtrace -o report.html --seq seq.rdtrace --real 1=t1.rdtrace --real 4=t4.rdtrace\n  rda-report html app.rdtrace -o report.html --simt 1 --simt-block 128\n\nMemory: the sum of the sections' bounds (see each command's --help): reuse stacks over the distinct lines, path records, the SASMM exact model as `predict` streams it, and the SIMT kernels as `simt` holds them; the page itself is bounded."
)]
pub struct HtmlArgs {
    /// Trace file.
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Output HTML file.
    #[arg(short, long, value_name = "FILE.html")]
    pub output: PathBuf,
    /// Show the hottest source lines of files found under DIR.
    #[arg(long, value_name = "DIR")]
    pub source_dir: Option<PathBuf>,
    /// Private L1 per thread as SIZE:WAYS:LINE.
    #[arg(long, default_value = "8K:8:64", value_parser = parse_cache)]
    pub l1: CacheConfig,
    /// Shared L2 as SIZE:WAYS:LINE (same line size as the L1).
    #[arg(long, default_value = "128K:16:64", value_parser = parse_cache)]
    pub l2: CacheConfig,
    /// Source lines and functions listed.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub top: u64,
    /// Sequential trace for the SASMM prediction (with --real).
    #[arg(long, requires = "real")]
    pub seq: Option<PathBuf>,
    /// A real run as CORES=TRACE, measured with the exact simulator (repeat per core count).
    #[arg(long = "real", value_name = "CORES=TRACE", requires = "seq", value_parser = parse_real)]
    pub real: Vec<(usize, PathBuf)>,
    /// Add the SIMT DS-vs-RD plots of this scenario (1..6, defaults otherwise).
    #[arg(long, value_name = "SCENARIO", value_parser = clap::value_parser!(u8).range(1..=6))]
    pub simt: Option<u8>,
    /// Threads per block for --simt.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub simt_block: u64,
    /// Leave out the path-based pattern analysis (it reads the trace once more).
    #[arg(long)]
    pub no_paths: bool,
    /// History lengths of the path analysis.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub history: Vec<u32>,
    /// Hide progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_cache(s: &str) -> Result<CacheConfig, String> {
    CacheConfig::parse(s).map_err(|e| e.to_string())
}

fn parse_real(s: &str) -> Result<(usize, PathBuf), String> {
    let (m, p) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected CORES=TRACE"))?;
    match m.trim().parse::<usize>() {
        Ok(m) if m >= 1 && !p.is_empty() => Ok((m, PathBuf::from(p))),
        _ => Err(format!("`{s}`: expected CORES=TRACE with CORES at least 1")),
    }
}

fn bin_label(lo: u64, hi: u64) -> String {
    if hi - lo <= 1 {
        lo.to_string()
    } else {
        format!("{lo}-{}", hi - 1)
    }
}

/// Miss ratio of a fully associative LRU cache of `c` lines: (cold + #{d ≥ c}) / references.
pub fn miss_ratio(h: &Histogram, c: u64) -> f64 {
    let total = h.total();
    if total == 0 {
        return 0.0;
    }
    // See: Mattson et al.: a reference hits an LRU cache of c lines iff its stack distance < c.
    1.0 - h.hits_below(c) as f64 / total as f64
}

/// Cache sizes (in lines) of the miss-ratio curve: powers of two up to the first that holds
/// every reuse, plus the simulated L1 and L2.
fn mrc_sizes(h: &Histogram, extra: &[u64]) -> Vec<u64> {
    let max = h.counts.keys().next_back().copied().unwrap_or(0);
    let mut v: Vec<u64> = (0..64)
        .map(|k| 1u64 << k)
        .take_while(|&c| c / 2 <= max)
        .collect();
    v.extend_from_slice(extra);
    v.sort_unstable();
    v.dedup();
    v
}

fn summary(trace: &rdtrace::Trace, a: &Annotation, args: &HtmlArgs) -> String {
    let mut t = Table::new(["quantity", "value"]);
    let p = &trace.program;
    t.row(["program".to_string(), p.program.clone()]);
    if !p.args.is_empty() {
        t.row(["arguments".to_string(), p.args.join(" ")]);
    }
    t.row(["trace".to_string(), args.trace.display().to_string()]);
    t.row(["trace bytes".to_string(), trace.file_len().to_string()]);
    t.row(["events".to_string(), trace.total_events().to_string()]);
    t.row(["threads".to_string(), trace.threads.len().to_string()]);
    t.row([
        "exit".to_string(),
        trace
            .exit
            .as_ref()
            .map_or("no end chunk (crash or kill)".into(), |e| {
                format!("{:?}", e.reason)
            }),
    ]);
    let tot = &a.total;
    t.row(["accesses".to_string(), tot.accesses.to_string()]);
    t.row([
        "cache-line references".to_string(),
        tot.references.to_string(),
    ]);
    t.row([
        "cold references".to_string(),
        format!("{} ({} %)", tot.cold, percent(tot.cold, tot.references)),
    ]);
    t.row([
        format!("L1 misses ({} per thread)", a.config.l1),
        format!(
            "{} ({} % of references)",
            tot.l1_misses,
            percent(tot.l1_misses, tot.references)
        ),
    ]);
    t.row([
        format!("L2 misses ({} shared)", a.config.l2),
        format!(
            "{} ({} % of references)",
            tot.l2_misses,
            percent(tot.l2_misses, tot.references)
        ),
    ]);
    let mut s = html::table(&t, false);
    for w in trace.warnings() {
        s.push_str(&format!("<p class=\"warn\">{}</p>", html::esc(w)));
    }
    s
}

fn reuse(a: &Annotation) -> String {
    let h = &a.histogram;
    let line = a.config.l1.line;
    let bins = h.log2_bins();
    let mut labels: Vec<String> = bins.iter().map(|&(lo, hi, _)| bin_label(lo, hi)).collect();
    let mut values: Vec<f64> = bins.iter().map(|b| b.2 as f64).collect();
    labels.push("cold".into());
    values.push(h.cold as f64);
    let bar = plot::bar_chart(
        &format!("Reuse-distance histogram ({line} B lines, all threads)"),
        "reuse distance (distinct lines, log2 bins)",
        "references",
        &labels,
        &values,
    );
    let sizes = mrc_sizes(h, &[a.config.l1.lines(), a.config.l2.lines()]);
    let pts: Vec<(f64, f64)> = sizes
        .iter()
        .map(|&c| ((c as f64).log2(), 100.0 * miss_ratio(h, c)))
        .collect();
    let mrc = plot::line_chart(
        "Miss-ratio curve (fully associative LRU)",
        "cache size: log2(lines)",
        "miss ratio (%)",
        &[Series {
            name: "miss ratio %".into(),
            points: pts,
            dashed: false,
        }],
        Some(100.0),
    );
    let mut hist_t = Table::new(["distance", "references", "%"]).titled("Histogram");
    for (&(lo, hi, n), l) in bins.iter().zip(&labels) {
        let _ = (lo, hi);
        hist_t.row([l.clone(), n.to_string(), percent(n, h.total())]);
    }
    hist_t.row([
        "cold".to_string(),
        h.cold.to_string(),
        percent(h.cold, h.total()),
    ]);
    let mut mrc_t = Table::new(["cache lines", "cache bytes", "miss ratio %", "note"])
        .titled("Miss-ratio curve");
    for &c in &sizes {
        let note = if c == a.config.l1.lines() {
            "L1 size"
        } else if c == a.config.l2.lines() {
            "L2 size"
        } else {
            ""
        };
        mrc_t.row([
            c.to_string(),
            (c * line as u64).to_string(),
            format!("{:.2}", 100.0 * miss_ratio(h, c)),
            note.to_string(),
        ]);
    }
    let mut s = html::note(
        "Reuse distance: distinct other cache lines touched between two references to a line, \
         over all threads in the order the trace's stamps give (concurrent reuse). The \
         miss-ratio curve reads the histogram as a fully associative LRU cache of each size; the \
         hot-lines table below uses the exact set-associative simulator instead.",
    );
    s.push_str(&html::plots(&[bar, mrc], false));
    s.push_str("<div class=\"plots\">");
    s.push_str(&html::table(&hist_t, true));
    s.push_str(&html::table(&mrc_t, true));
    s.push_str("</div>");
    s
}

fn threads(a: &Annotation) -> String {
    let shown = &a.thread_histograms[..a.thread_histograms.len().min(MAX_THREADS)];
    let mut series = Vec::new();
    for (t, h) in shown.iter().take(MAX_THREAD_SERIES) {
        let total = h.total().max(1) as f64;
        // Every bin from 0 to the thread's largest, empty ones at 0 %, so lines do not bridge
        // gaps.
        let bins = h.log2_bins();
        let k_of = |lo: u64| {
            if lo == 0 {
                0
            } else {
                64 - lo.leading_zeros() as usize
            }
        };
        let last = bins.last().map_or(0, |b| k_of(b.0));
        let mut pct = vec![0.0; last + 1];
        for &(lo, _, n) in &bins {
            pct[k_of(lo)] = 100.0 * n as f64 / total;
        }
        let pts: Vec<(f64, f64)> = pct
            .iter()
            .enumerate()
            .map(|(k, &p)| (k as f64, p))
            .collect();
        series.push(Series {
            name: format!("thread {t}"),
            points: pts,
            dashed: false,
        });
    }
    let chart = plot::line_chart(
        "Private reuse distance per thread",
        "log2 bin k (k=0: distance 0; k>=1: 2^(k-1)..2^k-1 lines)",
        "% of the thread's references",
        &series,
        None,
    );
    let l1 = a.config.l1.lines();
    let l2 = a.config.l2.lines();
    let mut t = Table::new([
        "thread",
        "references",
        "cold",
        "cold %",
        &format!("distance < {l1} (L1 lines) %"),
        &format!("distance < {l2} (L2 lines) %"),
    ]);
    for (th, h) in shown {
        t.row([
            th.to_string(),
            h.total().to_string(),
            h.cold.to_string(),
            percent(h.cold, h.total()),
            percent(h.hits_below(l1), h.total()),
            percent(h.hits_below(l2), h.total()),
        ]);
    }
    let mut s = html::note(&format!(
        "Each thread's own reuse distances (private reuse: other threads' accesses do not count). \
         Showing {} of {} threads; the plot draws the first {}.",
        shown.len(),
        a.thread_histograms.len(),
        MAX_THREAD_SERIES.min(shown.len())
    ));
    s.push_str(&html::plots(&[chart], false));
    s.push_str(&html::table(&t, true));
    s
}

fn sasmm(args: &HtmlArgs, seq: &std::path::Path) -> Result<String> {
    use rdsasmm::{measure, predict_exact_many_trace, ExactConfig, MeasureConfig};
    // The exact model (the default of `predict`): set-aware LRU over the mimicked traces.
    let cfg = ExactConfig {
        l1: vec![args.l1],
        l2: vec![args.l2],
        ..ExactConfig::default()
    };
    let seq_trace = crate::tracefile::open(seq, &args.open)?;
    let mut reals = args.real.clone();
    reals.sort_by_key(|r| r.0);
    let cores: Vec<usize> = reals.iter().map(|r| r.0).collect();
    // Streamed: one pass over the file per core count, never the whole trace in memory.
    let preds = predict_exact_many_trace(&seq_trace, &cfg, &cores)
        .with_context(|| format!("reading {}", seq.display()))?;
    let mut t = Table::new([
        "cores",
        "L1 hit % predicted",
        "L1 hit % measured",
        "L2 hit % predicted (global)",
        "L2 hit % measured (global)",
        "real trace",
    ])
    .titled(format!(
        "SASMM prediction from {} vs exact simulation of real runs",
        seq.display()
    ));
    let mut s_pred = (Vec::new(), Vec::new());
    let mut s_meas = (Vec::new(), Vec::new());
    for ((m, path), p) in reals.iter().zip(&preds) {
        let p = &p.hierarchies[0].rates;
        let tr = crate::tracefile::open(path, &args.open)?;
        let meas = measure(
            &tr,
            MeasureConfig {
                l1: args.l1,
                l2: args.l2,
            },
        )
        .with_context(|| format!("measuring {}", path.display()))?;
        t.row([
            m.to_string(),
            format!("{:.2}", 100.0 * p.l1_hit),
            format!("{:.2}", 100.0 * meas.l1_hit),
            format!("{:.2}", 100.0 * p.l2_hit_global),
            format!("{:.2}", 100.0 * meas.l2_hit),
            path.display().to_string(),
        ]);
        let x = *m as f64;
        s_pred.0.push((x, 100.0 * p.l1_hit));
        s_pred.1.push((x, 100.0 * p.l2_hit_global));
        s_meas.0.push((x, 100.0 * meas.l1_hit));
        s_meas.1.push((x, 100.0 * meas.l2_hit));
    }
    let series = vec![
        Series {
            name: "L1 measured".into(),
            points: s_meas.0,
            dashed: false,
        },
        Series {
            name: "L1 predicted".into(),
            points: s_pred.0,
            dashed: true,
        },
        Series {
            name: "L2 measured".into(),
            points: s_meas.1,
            dashed: false,
        },
        Series {
            name: "L2 predicted".into(),
            points: s_pred.1,
            dashed: true,
        },
    ];
    let chart = plot::line_chart(
        "Hit rate vs cores (SASMM: dashed predicted, solid measured)",
        "cores",
        "hit rate (%)",
        &series,
        Some(100.0),
    );
    let mut s = html::note(&format!(
        "Predicted: the SASMM model's exact variant (mimicked private traces and interleaved \
         shared trace from the sequential run, simulated with set-aware LRU stack distances; \
         `rda-report predict --model formula` gives the paper's eq. 5-7 instead). Measured: the exact LRU \
         simulator on each real run (private L1 {} per thread, shared L2 {}). L2 rates are global: \
         1 - L2 misses / references.",
        args.l1, args.l2
    ));
    s.push_str(&html::plots(&[chart], false));
    s.push_str(&html::table(&t, true));
    Ok(s)
}

fn hot_lines(a: &Annotation, args: &HtmlArgs) -> String {
    let top = args.top as usize;
    let tables = crate::commands::annotate::tables(a, top);
    let mut s = html::note(
        "Sorted by L1 misses, then L2 misses; click a header to sort by another column. RD pXX: \
         reuse-distance percentiles in lines (cold references excluded).",
    );
    for (i, t) in tables.iter().enumerate() {
        let mut t = t.clone();
        if i == 0 {
            // The totals row would sort in with the lines; the run summary has the totals.
            t.rows.pop();
        }
        s.push_str(&html::table(&t, true));
    }
    if let Some(dir) = &args.source_dir {
        let (ex, missing) = crate::commands::annotate::excerpts(a, dir, top.min(10), 2);
        for e in &ex {
            s.push_str(&format!(
                "<h3>{}</h3><pre class=\"source\"><span class=\"margin\">{:>10} {:>10} {:>10}</span>  line\n",
                html::esc(&e.file),
                "accesses",
                "L1 misses",
                "L2 misses"
            ));
            for (i, run) in e.runs.iter().enumerate() {
                if i > 0 {
                    s.push_str(
                        "<span class=\"gap\">                                   ...</span>\n",
                    );
                }
                for l in run {
                    let margin = match l.counts {
                        Some((x, m1, m2)) => format!("{x:>10} {m1:>10} {m2:>10}"),
                        None => format!("{:>10} {:>10} {:>10}", ".", ".", "."),
                    };
                    let text = format!(
                        "<span class=\"margin\">{margin}</span> {:>5}  {}",
                        l.line,
                        html::esc(&l.text)
                    );
                    if l.hot {
                        s.push_str(&format!("<span class=\"hot\">{text}</span>\n"));
                    } else {
                        s.push_str(&text);
                        s.push('\n');
                    }
                }
            }
            s.push_str("</pre>\n");
        }
        for f in missing {
            s.push_str(&format!(
                "<p class=\"warn\">source {} not found under {}</p>",
                html::esc(&f),
                html::esc(&dir.display().to_string())
            ));
        }
    }
    s
}

fn paths(trace: &rdtrace::Trace, args: &HtmlArgs) -> Result<String> {
    use crate::commands::paths::{
        explain_path, history_text, patterns_text, profile, shown_history, verdict,
    };
    let analysis = crate::commands::paths::AnalysisArgs {
        history: args.history.clone(),
        line: args.l1.line,
        squash: None,
        min_frequency: None,
        drop_below: 0.01,
        long_threshold: 1024,
    };
    let cfg = analysis.config();
    let prof = profile(trace, &cfg, args.quiet)?;
    let report = rdpaths::analyse(&prof);
    let meta = &trace.meta;
    let loc = |mi: u32| meta.format_loc(meta.mem_instrs.get(mi as usize).and_then(|m| m.loc));
    let t = crate::commands::paths::history_table(
        &report,
        format!(
            "{} of {} instructions with reuse have multiple patterns ({:.2} %)",
            report.multi_pattern, report.instructions_analysed, report.multi_pattern_pct
        ),
    );
    let mut s = html::note(
        "Which branch histories (paths) lead to which locality patterns of an instruction. Terms \
         are defined at the end of the page.",
    );
    s.push_str(&html::table(&t, true));
    let mut multi: Vec<_> = report
        .instructions
        .iter()
        .filter(|i| i.has_multiple_patterns())
        .collect();
    multi.sort_by_key(|i| std::cmp::Reverse(i.references));
    multi.truncate(MAX_PATH_INSTRS);
    if multi.is_empty() {
        s.push_str(&html::note("No instruction has more than one pattern."));
        return Ok(s);
    }
    let mut headers = vec![
        "mi".to_string(),
        "location".into(),
        "references".into(),
        "patterns".into(),
    ];
    headers.extend(cfg.histories.iter().map(|n| format!("path{n}")));
    let mut t = Table::new(headers).titled(format!(
        "Multi-pattern instructions (the {} with most references; yes: separated by paths)",
        multi.len()
    ));
    for ins in &multi {
        let mut row = vec![
            ins.mi.to_string(),
            loc(ins.mi),
            ins.references.to_string(),
            patterns_text(&ins.patterns),
        ];
        row.extend(cfg.histories.iter().map(|&n| verdict(ins, n).to_string()));
        t.row(row);
    }
    s.push_str(&html::table(&t, true));
    for ins in &multi {
        let Some(n) = shown_history(ins, &cfg.histories) else {
            continue;
        };
        let Some(h) = ins.histories.iter().find(|h| h.n == n) else {
            continue;
        };
        let mut paths: Vec<_> = h.paths.iter().collect();
        paths.sort_by_key(|p| std::cmp::Reverse(p.references));
        let mut t = Table::new([
            "path (oldest..newest)",
            "references",
            "patterns",
            "branches behind the bits (BIT@file:line, oldest first; references)",
        ])
        .titled(format!(
            "mi {} at {}: paths of {n} bits ({}{})",
            ins.mi,
            loc(ins.mi),
            if h.differentiable {
                "they separate the patterns"
            } else {
                "they do not separate the patterns"
            },
            if paths.len() > MAX_PATHS {
                format!("; {} of {} paths shown", MAX_PATHS, paths.len())
            } else {
                String::new()
            }
        ));
        for p in paths.iter().take(MAX_PATHS) {
            let seqs = explain_path(&prof, meta, ins.mi, n, p.key);
            let mut branches: Vec<String> = seqs
                .iter()
                .take(MAX_SEQUENCES)
                .map(|(b, r)| format!("{b} ({r})"))
                .collect();
            if seqs.len() > MAX_SEQUENCES {
                branches.push(format!("… {} more", seqs.len() - MAX_SEQUENCES));
            }
            t.row([
                history_text(p.key, n),
                p.references.to_string(),
                patterns_text(&p.patterns),
                branches.join("; "),
            ]);
        }
        s.push_str(&html::table(&t, true));
    }
    Ok(s)
}

fn simt(trace: &rdtrace::Trace, args: &HtmlArgs, scenario: u8) -> Result<String> {
    use rdsimt::openmp::{for_each_launch, MiScope, SimtConfig};
    use rdsimt::{run_scenario, DsHistogram, Granularity, Scenario, ScenarioConfig};
    let sc = Scenario::from_number(scenario).expect("clap checks the range");
    let simt = SimtConfig {
        block_size: args.simt_block as usize,
        warp_size: 32,
        mi_scope: MiScope::Block,
        granularity: Granularity::Element,
        include_private: false,
    };
    let config = ScenarioConfig {
        scenario: sc,
        ..ScenarioConfig::default()
    };
    let mut total = DsHistogram::new(config.max_rd);
    let mut t = Table::new([
        "kernel",
        "location",
        "GPU threads",
        "MIs",
        "total DS",
        "reusing pairs",
        "peak RD",
        "peak DS",
    ])
    .titled(format!(
        "Kernels (worksharing loops, {} threads per block), scenario {}: {}",
        args.simt_block,
        sc.number(),
        sc.description()
    ));
    // Each launch is analysed as it comes and dropped (see `simt`).
    let mut analysis_failed = false;
    let mut launches = 0usize;
    let skipped = for_each_launch(trace, &simt, &mut |l| -> Result<()> {
        launches += 1;
        analysis_failed = true;
        let r = run_scenario(&l.kernel, &config)
            .with_context(|| format!("analysing {}", l.kernel.name))?;
        analysis_failed = false;
        t.row([
            l.kernel.name.clone(),
            l.location.clone(),
            l.threads.to_string(),
            r.total.mis.to_string(),
            r.total.total_ds().to_string(),
            r.total.total_reusing_pairs().to_string(),
            r.total.peak().map_or("-".into(), |p| p.0.to_string()),
            r.total.peak().map_or("-".into(), |p| p.1.to_string()),
        ]);
        total.merge(&r.total);
        Ok(())
    })
    .map_err(|e| {
        if analysis_failed {
            e
        } else {
            e.context("mapping loops to GPU threads")
        }
    })?;
    let last = total.max_reuse_rd().unwrap_or(1).max(1);
    let width = last.div_ceil(MAX_SIMT_POINTS);
    let mut full = Vec::new();
    let mut rd = 1;
    while rd <= last {
        let hi = (rd + width - 1).min(last);
        let peak = (rd..=hi).map(|r| total.ds_at(r)).max().unwrap_or(0);
        full.push((rd as f64, peak as f64));
        rd = hi + 1;
    }
    let zoom_to = last.min(100);
    let zoom: Vec<(f64, f64)> = (1..=zoom_to)
        .map(|r| (r as f64, total.ds_at(r) as f64))
        .collect();
    let series = |points| {
        vec![Series {
            name: "DS".into(),
            points,
            dashed: false,
        }]
    };
    let y_full = if width > 1 {
        format!("DS (largest in bins of {width} RDs)")
    } else {
        "DS (summed data reuse degree)".into()
    };
    let full_svg = plot::line_chart(
        &format!(
            "Data reuse characteristic, scenario {}, full range",
            sc.number()
        ),
        "RD (MIs apart)",
        &y_full,
        &series(full),
        None,
    );
    let zoom_svg = plot::line_chart(
        &format!("Scenario {}, RD 1..{zoom_to}", sc.number()),
        "RD (MIs apart)",
        "DS (summed data reuse degree)",
        &series(zoom),
        None,
    );
    let mut s = html::note(
        "Worksharing-loop iterations become GPU threads; DS (data reuse degree) summed over MI \
         pairs at each RD (MIs apart). Terms are defined at the end of the page.",
    );
    for sk in &skipped {
        s.push_str(&format!(
            "<p class=\"warn\">loop {} at {} skipped: {}</p>",
            sk.workshare,
            html::esc(&sk.location),
            html::esc(&sk.reason)
        ));
    }
    if launches == 0 {
        s.push_str(&html::note(
            "The trace holds no worksharing loop to analyse.",
        ));
        return Ok(s);
    }
    s.push_str(&html::plots(&[full_svg, zoom_svg], false));
    s.push_str(&html::table(&t, true));
    Ok(s)
}

fn glossary() -> String {
    let mut s = String::new();
    s.push_str(&html::terms(
        "Source lines, histograms and caches",
        crate::terms::ANNOTATE,
    ));
    s.push_str(&html::terms("Path-based patterns", crate::terms::PATHS));
    s.push_str(&html::terms("SIMT data reuse", crate::terms::SIMT));
    s
}

/// Builds the page (no I/O but reading traces and sources).
pub fn build(args: &HtmlArgs) -> Result<String> {
    crate::commands::annotate::check_line_sizes(&args.l1, &args.l2);
    if args.history.is_empty() || args.history.iter().any(|&n| n == 0 || n > 56) {
        bail!("--history needs lengths in 1..=56");
    }
    let trace = crate::tracefile::open(&args.trace, &args.open)?;
    let bar = crate::progress::bar(trace.total_events(), "annotating", args.quiet);
    let a = annotate_with_progress(
        &trace,
        AnnotateConfig {
            l1: args.l1,
            l2: args.l2,
        },
        |n| bar.set_position(n),
    )
    .with_context(|| format!("annotating {}", args.trace.display()))?;
    bar.finish_and_clear();
    let name = std::path::Path::new(&trace.program.program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| trace.program.program.clone());
    let mut page = Page::new(
        &format!("rdtools report: {name}"),
        &format!(
            "{} · {} events · {} threads · L1 {} per thread, L2 {} shared",
            args.trace.display(),
            trace.total_events(),
            trace.threads.len(),
            args.l1,
            args.l2
        ),
    );
    page.section("summary", "Run summary", summary(&trace, &a, args));
    page.section("reuse", "Reuse distances", reuse(&a));
    page.section("threads", "Per-thread reuse", threads(&a));
    if let Some(seq) = &args.seq {
        page.section(
            "sasmm",
            "Predicted vs measured hit rates",
            sasmm(args, seq)?,
        );
    }
    page.section("hot-lines", "Hot source lines", hot_lines(&a, args));
    if !args.no_paths {
        page.section("paths", "Multi-pattern instructions", paths(&trace, args)?);
    }
    if let Some(n) = args.simt {
        page.section("simt", "SIMT data reuse (DS vs RD)", simt(&trace, args, n)?);
    }
    page.section("terms", "Terms", glossary());
    Ok(page.render())
}

/// Runs `html`.
pub fn run(args: &HtmlArgs) -> Result<()> {
    let page = build(args)?;
    std::fs::write(&args.output, &page)
        .with_context(|| format!("writing {}", args.output.display()))?;
    if !args.quiet {
        eprintln!(
            "rda-report: wrote {} ({} bytes)",
            args.output.display(),
            page.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miss_ratio_reads_the_histogram_as_an_lru_cache() {
        // Distances 0, 0, 3 and one cold reference. A 1-line cache hits the two distance-0
        // references only: (1 cold + 1 at distance 3) / 4 = 0.5; 4 lines also hold distance 3:
        // only the cold reference misses, 0.25.
        let mut h = Histogram::new_exact();
        h.add(0, 2);
        h.add(3, 1);
        h.cold = 1;
        assert_eq!(miss_ratio(&h, 1), 0.5);
        assert_eq!(miss_ratio(&h, 3), 0.5);
        assert_eq!(miss_ratio(&h, 4), 0.25);
        assert_eq!(miss_ratio(&Histogram::new_exact(), 4), 0.0);
        // Powers of two until one holds every distance (4 > 3), plus the cache sizes asked for.
        assert_eq!(mrc_sizes(&h, &[128, 2]), vec![1, 2, 4, 128]);
    }
}
