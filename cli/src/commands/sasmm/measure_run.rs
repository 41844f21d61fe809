//! `measure`: the exact simulation of a real threaded run.

use super::args::MeasureArgs;
use super::json::{MeasureJson, SourceCoherence};
use super::predict_tables::pct;
use crate::output::Table;
use crate::tracefile::OpenArgs;
use anyhow::{Context, Result};
use rdcachesim::CacheConfig;
use rdcachesim::MissKinds;
use rdsasmm::{measure_with, write_table, MeasureConfig, MeasureOptions, Measurement};
use rdtrace::meta::ProgramMeta;

/// The measurement of a trace file (`validate`'s ground truth): coherent, as `measure`'s.
pub(super) fn measure_file(
    path: &std::path::Path,
    open: &OpenArgs,
    l1: CacheConfig,
    l2: CacheConfig,
) -> Result<Measurement> {
    let trace = crate::tracefile::open(path, open)?;
    measure_with(&trace, MeasureConfig { l1, l2 }, MeasureOptions::default())
        .with_context(|| format!("measuring {}", path.display()))
}

/// The L1 coherence misses of `m` per source line (instructions without a location each on a
/// line of their own), most first.
fn coherence_sources(m: &Measurement, meta: &ProgramMeta) -> Vec<SourceCoherence> {
    use std::collections::BTreeMap;
    let mut by_line: BTreeMap<(String, u32, String), SourceCoherence> = BTreeMap::new();
    for c in &m.coherence_by_mi {
        let mi = meta.mem_instrs.get(c.mi as usize);
        let loc = mi.and_then(|i| i.loc);
        let file = match loc {
            Some(l) => meta
                .files
                .get(l.file as usize)
                .cloned()
                .unwrap_or_else(|| "?".into()),
            None => format!("<mi {}>", c.mi),
        };
        let line = loc.map_or(0, |l| l.line);
        let function = mi
            .and_then(|i| meta.blocks.get(i.block as usize))
            .and_then(|b| meta.functions.get(b.function as usize))
            .map_or_else(
                || "?".to_string(),
                |f| rdtrace::demangle::display_name(&f.name).into_owned(),
            );
        let e = by_line
            .entry((file.clone(), line, function.clone()))
            .or_insert_with(|| SourceCoherence {
                file,
                line,
                function,
                true_sharing: 0,
                false_sharing: 0,
                threads: Vec::new(),
                mis: Vec::new(),
            });
        e.true_sharing += c.true_sharing;
        e.false_sharing += c.false_sharing;
        e.mis.push(c.mi);
        for &t in &c.threads {
            if let Err(at) = e.threads.binary_search(&t) {
                e.threads.insert(at, t);
            }
        }
    }
    let mut v: Vec<SourceCoherence> = by_line.into_values().collect();
    v.sort_by_key(|s| std::cmp::Reverse(s.true_sharing + s.false_sharing));
    v
}

fn mpka(misses: u64, refs: u64) -> String {
    if refs == 0 {
        "0.00".into()
    } else {
        format!("{:.2}", 1000.0 * misses as f64 / refs as f64)
    }
}

/// `measure` of a trace file or a stream (`-`, a pipe): the same measurement, from the events
/// merged in stamp order.
fn measure_input(
    path: &std::path::Path,
    open: &OpenArgs,
    config: MeasureConfig,
    options: MeasureOptions,
) -> Result<(Measurement, Vec<SourceCoherence>)> {
    let mut input = crate::tracefile::open_input(path, open)?;
    let meta = input.meta().clone();
    let mut m = rdsasmm::ThreadMeasurer::with_options(config, options, write_table(&meta));
    let context = || format!("measuring {}", path.display());
    let m = match &input {
        crate::tracefile::Input::File(trace) => {
            rdsasmm::measure::measure_file(trace, m).with_context(context)?
        }
        crate::tracefile::Input::Stream(_) => {
            rdtrace::analysis::run_merged(input.merged()?, &mut m, |_| {}).with_context(context)?;
            m.set_threads(input.thread_indices());
            rdtrace::Analysis::finish(m)
        }
    };
    input.finish()?;
    let sources = coherence_sources(&m, &meta);
    Ok((m, sources))
}

/// One row of the miss-class table.
fn class_row(name: String, omp: String, k: &MissKinds) -> [String; 9] {
    [
        name,
        omp,
        k.total().to_string(),
        k.compulsory.to_string(),
        k.capacity.to_string(),
        k.conflict.to_string(),
        k.coherence.to_string(),
        k.true_sharing.to_string(),
        k.false_sharing.to_string(),
    ]
}

/// Columns of the coherence-misses-by-source-line tables (the top 20 shown, all in CSV).
const COHERENCE_LINE_COLUMNS: [&str; 6] = [
    "source line",
    "function",
    "coherence misses",
    "true sharing",
    "false sharing",
    "threads",
];

pub(super) fn run_measure(a: &MeasureArgs) -> Result<()> {
    let (l1, l2, l3) = match &a.machine {
        Some(name) => crate::commands::machine::measured_levels(name)?,
        None => {
            let (l1, l2) = a.caches.parse()?;
            (l1, l2, a.l3)
        }
    };
    if l3.is_some() && l2.line != l1.line {
        return Err(crate::exit::usage(format!(
            "with --l3 the L2 is private and must have the L1's line size ({} bytes, not {})",
            l1.line, l2.line
        )));
    }
    let options = MeasureOptions { l3 };
    let (m, sources) = measure_input(&a.trace, &a.open, MeasureConfig { l1, l2 }, options)?;
    let l2_sharing = if l3.is_some() { "private" } else { "shared" };
    let mut t = Table::new([
        "level",
        "omp thread",
        "accesses",
        "hits",
        "misses",
        "hit %",
        "misses per 1000 refs",
    ])
    .titled(match l3 {
        None => format!(
            "Exact LRU simulation of {} ({} threads; L1 {l1} private, L2 {l2} shared; rates per cache-line reference)",
            a.trace.display(),
            m.threads
        ),
        Some(l3) => format!(
            "Exact LRU simulation of {} ({} threads; L1 {l1} private, L2 {l2} private, L3 {l3} shared; rates per cache-line reference)",
            a.trace.display(),
            m.threads
        ),
    });
    for i in m.threads_by_omp_number() {
        let s = &m.l1_per_thread[i];
        t.row([
            format!("L1 thread {i}"),
            m.omp_thread
                .get(i)
                .copied()
                .flatten()
                .map_or("-".to_string(), |o| o.to_string()),
            s.accesses.to_string(),
            s.hits.to_string(),
            s.misses().to_string(),
            pct(s.hit_rate()),
            mpka(s.misses(), s.accesses),
        ]);
    }
    let l1_hits: u64 = m.l1_per_thread.iter().map(|s| s.hits).sum();
    t.row([
        "L1 all".to_string(),
        "-".into(),
        m.references.to_string(),
        l1_hits.to_string(),
        (m.references - l1_hits).to_string(),
        pct(m.l1_hit),
        mpka(m.references - l1_hits, m.references),
    ]);
    t.row([
        "L2 (local)".to_string(),
        "-".into(),
        m.l2.accesses.to_string(),
        m.l2.hits.to_string(),
        m.l2.misses().to_string(),
        pct(m.l2_hit_local),
        mpka(m.l2.misses(), m.references),
    ]);
    t.row([
        "L2 (global)".to_string(),
        "-".into(),
        m.references.to_string(),
        (m.references - m.l2.misses()).to_string(),
        m.l2.misses().to_string(),
        pct(m.l2_hit_global),
        mpka(m.l2.misses(), m.references),
    ]);
    if let (Some(s3), Some(global), Some(local)) = (m.l3, m.l3_hit_global, m.l3_hit_local) {
        t.row([
            "L3 (local)".to_string(),
            "-".into(),
            s3.accesses.to_string(),
            s3.hits.to_string(),
            s3.misses().to_string(),
            pct(local),
            mpka(s3.misses(), m.references),
        ]);
        t.row([
            "L3 (global)".to_string(),
            "-".into(),
            m.references.to_string(),
            (m.references - s3.misses()).to_string(),
            s3.misses().to_string(),
            pct(global),
            mpka(s3.misses(), m.references),
        ]);
    }
    // The 3C + coherence split of every cache's misses.
    let mut classes = Table::new([
        "cache",
        "omp thread",
        "misses",
        "compulsory",
        "capacity",
        "conflict",
        "coherence",
        "true sharing",
        "false sharing",
    ])
    .titled(format!(
        "Misses by class (compulsory, capacity, conflict, coherence; write-invalidate between private caches; L2 {l2_sharing})"
    ));
    let omp_of = |i: usize| {
        m.omp_thread
            .get(i)
            .copied()
            .flatten()
            .map_or("-".to_string(), |o| o.to_string())
    };
    for i in m.threads_by_omp_number() {
        if let Some(k) = m.l1_misses_per_thread.get(i) {
            classes.row(class_row(format!("L1 thread {i}"), omp_of(i), k));
        }
    }
    for i in m.threads_by_omp_number() {
        if let Some(k) = m.l2_misses_per_thread.get(i) {
            classes.row(class_row(format!("L2 thread {i}"), omp_of(i), k));
        }
    }
    for lv in &m.levels {
        classes.row(class_row(
            format!("{} {} {}", lv.level, lv.sharing, lv.cache),
            "-".into(),
            &lv.counts.misses,
        ));
    }
    // Where the L1 coherence misses come from.
    let mut lines = Table::new(COHERENCE_LINE_COLUMNS)
        .titled("L1 coherence misses by source line (top 20; all in --json and --csv-dir)");
    let line_row = |s: &SourceCoherence| {
        [
            format!("{}:{}", s.file, s.line),
            s.function.clone(),
            (s.true_sharing + s.false_sharing).to_string(),
            s.true_sharing.to_string(),
            s.false_sharing.to_string(),
            s.threads
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        ]
    };
    let mut all_lines = Table::new(COHERENCE_LINE_COLUMNS);
    for (k, s) in sources.iter().enumerate() {
        if k < 20 {
            lines.row(line_row(s));
        }
        all_lines.row(line_row(s));
    }
    // Per thread: its references, its L1, and the shared-L2 accesses its L1 misses cause.
    let mut per = Table::new([
        "thread",
        "omp thread",
        "references",
        "L1 hits",
        "L1 hit %",
        "L1 MPKA",
        "L2 accesses (its L1 misses)",
        "L2 hits",
        "L2 hit % (local)",
        "L2 MPKA",
    ])
    .titled(format!(
        "Per thread: each thread's private L1 and the {l2_sharing}-L2 accesses its L1 misses cause"
    ));
    let mut threads: Vec<_> = m.per_thread.iter().collect();
    threads.sort_by_key(|t| (t.omp_thread.unwrap_or(u32::MAX), t.thread));
    for t in threads {
        let (c, r) = (&t.rates.counts, &t.rates.rates);
        per.row([
            t.thread.to_string(),
            t.omp_thread.map_or("-".to_string(), |o| o.to_string()),
            c.references.to_string(),
            c.l1_hits.to_string(),
            pct(r.l1_hit),
            format!("{:.2}", r.l1_mpka),
            c.l2_accesses.to_string(),
            c.l2_hits.to_string(),
            pct(r.l2_hit_local),
            format!("{:.2}", r.l2_mpka),
        ]);
    }
    let mut p = Table::new(["profile", "model hit %"])
        .titled("Stack-distance model (eq. 5-7) on the real profiles");
    p.row(["L1 from real PRD".to_string(), pct(m.l1_hit_from_prd)]);
    p.row(["L2 from real CRD".to_string(), pct(m.l2_hit_from_crd)]);
    if let Some(dir) = &a.csv_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, table) in [
            ("levels.csv", &t),
            ("per_thread.csv", &per),
            ("profile_model.csv", &p),
            ("misses.csv", &classes),
            ("coherence_lines.csv", &all_lines),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, table.render_csv())
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    let json = MeasureJson {
        trace: a.trace.display().to_string(),
        l1: l1.to_string(),
        l2: l2.to_string(),
        l2_cache: l2.to_string(),
        l3_cache: l3.map(|c| c.to_string()),
        m: &m,
        coherence_sources: &sources,
    };
    match a.out.format() {
        // One CSV table per stream: the hit-rate table (the rest is in --csv-dir and --json).
        crate::output::Format::Csv => a.out.emit(&json, &[t]),
        _ => a.out.emit(&json, &[t, per, classes, lines, p]),
    }
}
