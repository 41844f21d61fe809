//! `predict`'s tables beyond the hit rates: the exact model's coherence misses (and the 3C
//! split) and the shared L3 of three-level predictions.

use super::args::ModelArgs;
use super::json::PredictRow;
use crate::output::Table;

/// A fraction as a percentage with two decimals, as every SASMM table prints rates.
pub(super) fn pct(x: f64) -> String {
    format!("{:.2}", 100.0 * x)
}

/// The exact model's coherence table (and with `--3c` the 3C split): per core count and
/// hierarchy, each core's L1 coherence misses and all cores'.
pub(super) fn coherence_tables(rows: &[PredictRow], model: &ModelArgs) -> Vec<Table> {
    use super::json::PerCore;
    let mut t = Table::new([
        "cores",
        "L1",
        "L2",
        "core",
        "references",
        "L1 misses",
        "coherence",
        "true sharing",
        "false sharing",
        "coherence per 1000 refs",
    ])
    .titled(if model.no_coherence {
        "L1 coherence misses (exact model): none, --no-coherence treats every access as a read"
            .to_string()
    } else {
        "L1 coherence misses (exact model: write-invalidate between the private L1s on the interleaved mimicked trace; \
         a write drops the line from the other cores' L1s, their next reference misses; true sharing when it touches \
         bytes others wrote since)"
            .to_string()
    });
    let mut split = Table::new([
        "cores",
        "L1",
        "L2",
        "level",
        "misses",
        "compulsory",
        "capacity",
        "conflict",
        "coherence",
    ])
    .titled("3C split of the predicted misses (exact model, --3c): compulsory + capacity + conflict + coherence = misses; the shared L2 is never invalidated");
    for r in rows {
        let mut all_misses = 0;
        for c in &r.per_core {
            let PerCore::Exact {
                core,
                rates,
                l1_coherence: k,
                ..
            } = c
            else {
                continue;
            };
            all_misses += rates.counts.l1_misses;
            t.row([
                r.cores.to_string(),
                r.l1_cache.clone(),
                r.l2_cache.clone(),
                core.to_string(),
                rates.counts.references.to_string(),
                rates.counts.l1_misses.to_string(),
                k.coherence.to_string(),
                k.true_sharing.to_string(),
                k.false_sharing.to_string(),
                format!("{:.2}", k.coherence_per_1000),
            ]);
        }
        if let Some(k) = &r.l1_coherence {
            t.row([
                r.cores.to_string(),
                r.l1_cache.clone(),
                r.l2_cache.clone(),
                "all".to_string(),
                r.references.to_string(),
                all_misses.to_string(),
                k.coherence.to_string(),
                k.true_sharing.to_string(),
                k.false_sharing.to_string(),
                format!("{:.2}", k.coherence_per_1000),
            ]);
        }
        let levels = [
            ("L1", &r.l1_miss_classes),
            ("L2", &r.l2_miss_classes),
            ("L3", &r.l3_miss_classes),
        ];
        for (level, k) in levels {
            if let Some(k) = k {
                split.row([
                    r.cores.to_string(),
                    r.l1_cache.clone(),
                    r.l2_cache.clone(),
                    level.to_string(),
                    k.total().to_string(),
                    k.compulsory.to_string(),
                    k.capacity.to_string(),
                    k.conflict.to_string(),
                    format!(
                        "{} ({} true, {} false)",
                        k.coherence, k.true_sharing, k.false_sharing
                    ),
                ]);
            }
        }
    }
    if model.three_c {
        vec![t, split]
    } else {
        vec![t]
    }
}

/// The shared L3 of three-level predictions (`--l3`): per core count, each core's L3 accesses
/// (its private-L2 misses) and their hits, and all cores'.
pub(super) fn l3_table(rows: &[PredictRow]) -> Table {
    use super::json::PerCore;
    let mut t = Table::new([
        "cores",
        "L3",
        "core",
        "L3 accesses",
        "L3 hits",
        "L3 hit % (global)",
        "L3 hit % (local)",
        "L2 coherence misses",
    ])
    .titled(
        "Shared L3 (exact model, three levels): looked up on the private L2s' misses; \
         global = 1 - L3 misses / references, local = L3 hits / L3 accesses",
    );
    for r in rows {
        let Some(l3) = &r.l3_cache else { continue };
        let per = r.per_core.iter().filter_map(|c| match c {
            PerCore::Exact {
                core,
                three: Some(x),
                ..
            } => Some((core.to_string(), x.l3, Some(x.l2_coherence))),
            _ => None,
        });
        let all = r.l3.map(|n| ("all".to_string(), n, r.l2_coherence));
        for (core, n, coh) in per.chain(all) {
            t.row([
                r.cores.to_string(),
                l3.clone(),
                core,
                n.l3_accesses.to_string(),
                n.l3_hits.to_string(),
                pct(n.l3_hit_global),
                pct(n.l3_hit_local),
                coh.map_or("-".to_string(), |k| k.coherence.to_string()),
            ]);
        }
    }
    t
}
