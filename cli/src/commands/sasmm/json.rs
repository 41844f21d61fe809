//! The `--json` documents of `predict`, `measure` and `validate`.

use rdcachesim::MissKinds;
use rdsasmm::{
    CoreRates, ExactPrediction, HitRates, L3Counts, Measurement, Prediction, SasmmConfig,
    ThreadRates,
};
use serde::Serialize;

/// Coherence misses of private L1s: write-invalidate misses, split by true and false sharing,
/// and per 1000 line references.
#[derive(Serialize, Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct CoherenceCounts {
    pub(super) coherence: u64,
    pub(super) true_sharing: u64,
    pub(super) false_sharing: u64,
    /// Coherence misses per 1000 line references.
    pub(super) coherence_per_1000: f64,
}

impl CoherenceCounts {
    pub(super) fn of(k: &MissKinds, references: u64) -> Self {
        CoherenceCounts {
            coherence: k.coherence,
            true_sharing: k.true_sharing,
            false_sharing: k.false_sharing,
            coherence_per_1000: if references == 0 {
                0.0
            } else {
                1000.0 * k.coherence as f64 / references as f64
            },
        }
    }
}

/// One core count and hierarchy of `predict`'s JSON.
#[derive(Serialize)]
pub(super) struct PredictRow {
    pub(super) model: &'static str,
    pub(super) cores: usize,
    pub(super) l1_cache: String,
    pub(super) l2_cache: String,
    #[serde(flatten)]
    pub(super) rates: HitRates,
    /// Old name of `l2_hit_local`.
    pub(super) l2_local_hit: f64,
    pub(super) l1_hit_per_core: Vec<f64>,
    pub(super) references: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l1_hit_exact_profile: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l2_hit_exact_profile: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l1_hit_paper_weights: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l2_hit_paper_weights: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) shared_references: Option<u64>,
    /// Fraction of the sets simulated (`--set-sample-rate`); absent when exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) set_sample_rate: Option<f64>,
    /// Exact model: the L1 coherence misses of all cores (write-invalidate on the interleaved
    /// mimicked trace); absent for the formula, which has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l1_coherence: Option<CoherenceCounts>,
    /// Exact model with `--3c`: the L1 misses by class (compulsory + capacity + conflict +
    /// coherence = references - L1 hits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l1_miss_classes: Option<MissKinds>,
    /// Exact model with `--3c`: the shared L2's misses by class (coherence 0: never
    /// invalidated); they add up to the L2 misses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l2_miss_classes: Option<MissKinds>,
    /// Three levels (`--l3`, exact model): the shared L3's geometry (the L2 is then private per
    /// core and the L2 keys are the private L2s' summed over the cores, as `measure --l3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l3_cache: Option<String>,
    /// Three levels: the L3's accesses (the private L2s' misses), hits, misses, and its global
    /// and local hit rates.
    #[serde(flatten)]
    pub(super) l3: Option<L3Counts>,
    /// Three levels: L3 misses per 1000 references.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l3_mpka: Option<f64>,
    /// Three levels: the private L2s' coherence misses (a write drops the line from the other
    /// cores' L2s too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l2_coherence: Option<CoherenceCounts>,
    /// Three levels with `--3c`: the L3's misses by class (coherence 0: never invalidated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l3_miss_classes: Option<MissKinds>,
    /// Each core's rates, cores 0..m-1.
    pub(super) per_core: Vec<PerCore>,
    /// The combined rate the per-core `l1_hit`s give when weighted by their `references`:
    /// `l1_hit` (exact model: counts), `l1_hit_exact_profile` (formula: eq. 7 on each core's
    /// exact PRD, whose weighted mean is the exact-profile rate, not the sampled `l1_hit`).
    pub(super) per_core_combines_to: &'static str,
}

/// One core of `predict`'s `per_core`.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum PerCore {
    /// The exact model: the core's counts (its L1, and the shared-L2 accesses its L1 misses
    /// cause) and their rates.
    Exact {
        core: usize,
        #[serde(flatten)]
        rates: CoreRates,
        /// This core's L1 coherence misses.
        l1_coherence: CoherenceCounts,
        /// With `--3c`: this core's L1 misses by class.
        #[serde(skip_serializing_if = "Option::is_none")]
        l1_miss_classes: Option<MissKinds>,
        /// Three levels: the core's L3 counts and private-L2 coherence misses (boxed: most
        /// rows have two levels).
        #[serde(flatten)]
        three: Option<Box<CoreL3>>,
    },
    /// The formula: eq. 7 gives a hit probability per reference, so only the core's references
    /// and its L1 rates (eq. 7 on its exact PRD); it has no per-core L2 (its L2 rate comes from
    /// the shared CRD of all cores).
    Formula {
        core: usize,
        references: u64,
        l1_hit: f64,
        l1_mpka: f64,
    },
}

/// One core's shared L3 and private-L2 coherence in a three-level prediction (`--l3`).
#[derive(Serialize)]
pub(super) struct CoreL3 {
    /// The L3 accesses this core's private-L2 misses cause and their hits.
    #[serde(flatten)]
    pub(super) l3: L3Counts,
    /// This core's private-L2 coherence misses.
    pub(super) l2_coherence: CoherenceCounts,
}

impl PerCore {
    /// The core's L1 hit rate and references.
    pub(super) fn l1(&self) -> (usize, f64, u64) {
        match self {
            PerCore::Exact { core, rates, .. } => {
                (*core, rates.rates.l1_hit, rates.counts.references)
            }
            PerCore::Formula {
                core,
                l1_hit,
                references,
                ..
            } => (*core, *l1_hit, *references),
        }
    }

    /// The core's local L2 hit rate (exact model only).
    pub(super) fn l2_local(&self) -> Option<f64> {
        match self {
            PerCore::Exact { rates, .. } => Some(rates.rates.l2_hit_local),
            PerCore::Formula { .. } => None,
        }
    }
}

impl PredictRow {
    pub(super) fn formula(p: &Prediction, cfg: &SasmmConfig) -> Self {
        let rates = HitRates::from_global(p.l1.hit, p.l2.hit);
        PredictRow {
            model: "formula",
            cores: p.cores,
            l1_cache: cfg.l1.to_string(),
            l2_cache: cfg.l2.to_string(),
            rates,
            l2_local_hit: p.l2_local_hit,
            l1_hit_per_core: p.l1_per_core.clone(),
            references: p.l1.references,
            l1_hit_exact_profile: Some(p.l1.hit_exact_profile),
            l2_hit_exact_profile: Some(p.l2.hit_exact_profile),
            l1_hit_paper_weights: Some(p.l1.hit_paper_weights),
            l2_hit_paper_weights: Some(p.l2.hit_paper_weights),
            shared_references: Some(p.l2.references),
            set_sample_rate: None,
            l1_coherence: None,
            l1_miss_classes: None,
            l2_miss_classes: None,
            l3_cache: None,
            l3: None,
            l3_mpka: None,
            l2_coherence: None,
            l3_miss_classes: None,
            per_core: p
                .l1_references_per_core()
                .into_iter()
                .zip(&p.l1_per_core)
                .enumerate()
                .map(|(core, (references, &l1_hit))| PerCore::Formula {
                    core,
                    references,
                    l1_hit,
                    l1_mpka: 1000.0 * (1.0 - l1_hit),
                })
                .collect(),
            per_core_combines_to: "l1_hit_exact_profile",
        }
    }

    pub(super) fn exact(p: &ExactPrediction, k: usize) -> Self {
        let h = &p.hierarchies[k];
        let l3 = h.l3.as_ref();
        PredictRow {
            model: "exact",
            cores: p.cores,
            l1_cache: h.l1.to_string(),
            l2_cache: h.l2.to_string(),
            rates: h.rates,
            l2_local_hit: h.rates.l2_hit_local,
            l1_hit_per_core: h.l1_hit_per_core.clone(),
            references: h.references,
            l1_hit_exact_profile: None,
            l2_hit_exact_profile: None,
            l1_hit_paper_weights: None,
            l2_hit_paper_weights: None,
            shared_references: None,
            set_sample_rate: h.sample_rate,
            l1_coherence: Some(CoherenceCounts::of(&h.l1_misses, h.references)),
            l1_miss_classes: h.misses_classified.then_some(h.l1_misses),
            l2_miss_classes: h.misses_classified.then_some(h.l2_misses),
            l3_cache: l3.map(|l| l.l3.to_string()),
            l3: l3.map(|l| l.counts),
            l3_mpka: l3.map(|l| l.l3_mpka),
            l2_coherence: l3.map(|_| CoherenceCounts::of(&h.l2_misses, h.references)),
            l3_miss_classes: l3
                .filter(|_| h.misses_classified)
                .map(|l| l.l3_miss_classes),
            per_core: h
                .per_core
                .iter()
                .enumerate()
                .map(|(core, &rates)| {
                    let k = h.l1_misses_per_core.get(core).copied().unwrap_or_default();
                    let refs = rates.counts.references;
                    PerCore::Exact {
                        core,
                        rates,
                        l1_coherence: CoherenceCounts::of(&k, refs),
                        l1_miss_classes: h.misses_classified.then_some(k),
                        three: l3.map(|l| {
                            let k2 = l.l2_misses_per_core.get(core).copied();
                            Box::new(CoreL3 {
                                l3: l.per_core.get(core).copied().unwrap_or_default(),
                                l2_coherence: CoherenceCounts::of(&k2.unwrap_or_default(), refs),
                            })
                        }),
                    }
                })
                .collect(),
            per_core_combines_to: "l1_hit",
        }
    }
}

/// One point of `predict --mrc`'s curve.
#[derive(Serialize)]
pub(super) struct MrcRow {
    pub(super) model: &'static str,
    pub(super) cores: usize,
    pub(super) size: u64,
    pub(super) private_cache: String,
    pub(super) shared_cache: String,
    pub(super) private_miss_ratio: f64,
    pub(super) shared_miss_ratio: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) private_set_sample_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) shared_set_sample_rate: Option<f64>,
}

#[derive(Serialize)]
pub(super) struct PredictWithMrc<'a> {
    pub(super) predictions: &'a [PredictRow],
    pub(super) mrc: &'a [MrcRow],
}

/// `measure`'s JSON.
#[derive(Serialize)]
pub(super) struct MeasureJson<'a> {
    pub(super) trace: String,
    pub(super) l1: String,
    pub(super) l2: String,
    /// The L2's geometry again, under a key the measurement's own `l2` counts do not shadow.
    pub(super) l2_cache: String,
    /// The shared L3's geometry (`--l3`; the L2 is then private).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l3_cache: Option<String>,
    #[serde(flatten)]
    pub(super) m: &'a Measurement,
    /// L1 coherence misses per source line, most first.
    pub(super) coherence_sources: &'a [SourceCoherence],
}

/// L1 coherence misses of one source line (`measure`'s `coherence_sources`).
#[derive(Serialize, Clone, Debug)]
pub(super) struct SourceCoherence {
    pub(super) file: String,
    /// 0 when unknown.
    pub(super) line: u32,
    pub(super) function: String,
    pub(super) true_sharing: u64,
    pub(super) false_sharing: u64,
    /// Trace thread indices that had them.
    pub(super) threads: Vec<u32>,
    /// The memory instructions of the line that had them.
    pub(super) mis: Vec<u32>,
}

/// Absolute errors of one model against the measured run.
#[derive(Serialize, Clone, Copy, Default)]
pub(super) struct Errors {
    pub(super) l1: f64,
    pub(super) l2_global: f64,
    pub(super) l2_local: f64,
}

impl Errors {
    pub(super) fn of(p: &HitRates, m: &HitRates) -> Self {
        Errors {
            l1: (p.l1_hit - m.l1_hit).abs(),
            l2_global: (p.l2_hit_global - m.l2_hit_global).abs(),
            l2_local: (p.l2_hit_local - m.l2_hit_local).abs(),
        }
    }
}

/// One row of `validate`'s JSON.
#[derive(Serialize)]
pub(super) struct ValidateRow {
    pub(super) cores: usize,
    /// The model chosen by `--model`.
    pub(super) predicted: PredictRow,
    pub(super) exact: PredictRow,
    pub(super) formula: PredictRow,
    pub(super) measured: MeasuredRow,
    /// Errors of the chosen model (old keys).
    pub(super) l1_abs_error: f64,
    pub(super) l2_abs_error: f64,
    pub(super) l2_local_abs_error: f64,
    pub(super) errors: ErrorDecomposition,
    /// L1 coherence misses: the exact model's against the measured run's.
    pub(super) coherence: CoherenceValidation,
    /// With `--l3`: the shared L3's rates, measured and by the exact model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l3: Option<L3Validation>,
}

/// The shared L3 of a three-level validation (`validate --l3`): measured and exact-model hit
/// rates with their absolute errors (the formula has no L3).
#[derive(Serialize, Clone, Copy, Debug)]
pub(super) struct L3Validation {
    pub(super) measured_global: f64,
    pub(super) measured_local: f64,
    pub(super) exact_global: f64,
    pub(super) exact_local: f64,
    pub(super) global_abs_error: f64,
    pub(super) local_abs_error: f64,
}

impl L3Validation {
    /// `measured` and `exact` as `(global, local)` L3 hit rates.
    pub(super) fn of(measured: (f64, f64), exact: (f64, f64)) -> Self {
        L3Validation {
            measured_global: measured.0,
            measured_local: measured.1,
            exact_global: exact.0,
            exact_local: exact.1,
            global_abs_error: (exact.0 - measured.0).abs(),
            local_abs_error: (exact.1 - measured.1).abs(),
        }
    }
}

/// Predicted (exact model) and measured L1 coherence misses of one real run, with the error.
#[derive(Serialize, Clone, Copy, Debug)]
pub(super) struct CoherenceValidation {
    pub(super) measured: CoherenceCounts,
    pub(super) predicted: CoherenceCounts,
    /// |predicted - measured| coherence misses per 1000 line references (each side per its
    /// own references).
    pub(super) abs_error_per_1000: f64,
    /// |predicted - measured| / measured coherence misses; absent when none were measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) rel_error: Option<f64>,
}

impl CoherenceValidation {
    pub(super) fn of(measured: CoherenceCounts, predicted: CoherenceCounts) -> Self {
        CoherenceValidation {
            measured,
            predicted,
            abs_error_per_1000: (predicted.coherence_per_1000 - measured.coherence_per_1000).abs(),
            rel_error: (measured.coherence > 0).then(|| {
                (predicted.coherence as f64 - measured.coherence as f64).abs()
                    / measured.coherence as f64
            }),
        }
    }
}

/// Where the error comes from.
#[derive(Serialize, Clone, Copy, Default)]
pub(super) struct ErrorDecomposition {
    /// Exact model: mimicked traces simulated exactly — the mimicking (Alg. 1-2) alone.
    pub(super) exact: Errors,
    /// The formula as `predict --model formula` runs it (sampled profile of the mimicked trace).
    pub(super) formula: Errors,
    /// The formula over the mimicked traces' exact profiles (no sampling).
    pub(super) formula_mimicked_profile: Errors,
    /// The formula over the real run's own PRD/CRD: the formula's error alone.
    pub(super) formula_real_profile: Errors,
}

#[derive(Serialize)]
pub(super) struct MeasuredRow {
    pub(super) trace: String,
    pub(super) threads: usize,
    #[serde(flatten)]
    pub(super) rates: HitRates,
    pub(super) l2_local_hit: f64,
    pub(super) l1_hit_from_prd: f64,
    pub(super) l2_hit_from_crd: f64,
    pub(super) references: u64,
    /// Each thread's counts and rates (as in `measure`'s JSON).
    pub(super) per_thread: Vec<ThreadRates>,
}

#[derive(Serialize)]
pub(super) struct ValidateJson {
    pub(super) seq: String,
    pub(super) l1: String,
    pub(super) l2: String,
    /// The shared L3 (`--l3`; the L2 is then private).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) l3: Option<String>,
    pub(super) model: &'static str,
    pub(super) rows: Vec<ValidateRow>,
    pub(super) l1_mean_abs_error: f64,
    pub(super) l2_mean_abs_error: f64,
    pub(super) l2_local_mean_abs_error: f64,
    pub(super) mean_errors: ErrorDecomposition,
    /// Mean over the rows of the coherence error per 1000 references.
    pub(super) coherence_mean_abs_error_per_1000: f64,
}
