//! `measure`: the exact simulation of a real threaded run.

use super::args::MeasureArgs;
use super::json::MeasureJson;
use super::predict::pct;
use crate::output::Table;
use crate::tracefile::OpenArgs;
use anyhow::{Context, Result};
use rdcachesim::CacheConfig;
use rdsasmm::{measure, MeasureConfig, Measurement};

pub(super) fn measure_file(
    path: &std::path::Path,
    open: &OpenArgs,
    l1: CacheConfig,
    l2: CacheConfig,
) -> Result<Measurement> {
    let trace = crate::tracefile::open(path, open)?;
    measure(&trace, MeasureConfig { l1, l2 })
        .with_context(|| format!("measuring {}", path.display()))
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
    l1: CacheConfig,
    l2: CacheConfig,
) -> Result<Measurement> {
    let mut input = crate::tracefile::open_input(path, open)?;
    let mut m = rdsasmm::ThreadMeasurer::new(MeasureConfig { l1, l2 });
    if let crate::tracefile::Input::File(trace) = &input {
        if let [t] = trace.thread_indices()[..] {
            // One thread: straight from its chunks, no merge.
            trace
                .visit_merged(&mut m.of_thread(t), |_| {})
                .with_context(|| format!("measuring {}", path.display()))?;
            input.finish()?;
            return Ok(m.finish(&[t]));
        }
    }
    for r in input.merged()? {
        let (t, e) = r.with_context(|| format!("measuring {}", path.display()))?;
        m.event(t, &e);
    }
    input.finish()?;
    Ok(m.finish(&input.thread_indices()))
}

pub(super) fn run_measure(a: &MeasureArgs) -> Result<()> {
    let (l1, l2) = a.caches.parse()?;
    let m = measure_input(&a.trace, &a.open, l1, l2)?;
    let mut t = Table::new([
        "level",
        "omp thread",
        "accesses",
        "hits",
        "misses",
        "hit %",
        "misses per 1000 refs",
    ])
    .titled(format!(
        "Exact LRU simulation of {} ({} threads; L1 {l1} private, L2 {l2} shared; rates per cache-line reference)",
        a.trace.display(),
        m.threads
    ));
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
    .titled("Per thread: each thread's private L1 and the shared-L2 accesses its L1 misses cause");
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
        m: &m,
    };
    match a.out.format() {
        // One CSV table per stream: the hit-rate table (the rest is in --csv-dir and --json).
        crate::output::Format::Csv => a.out.emit(&json, &[t]),
        _ => a.out.emit(&json, &[t, per, p]),
    }
}
