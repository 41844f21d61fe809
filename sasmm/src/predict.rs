//! The whole SASMM prediction for m cores: mimic (Alg. 1), interleave (Alg. 2), profile
//! (eq. 1–4, Alg. 3) and hit rates (eq. 5–7) for a private L1 per core and a shared L2.

use crate::error::Result;
use crate::interleave::Interleave;
use crate::mimic::{MimicConfig, MimickedTrace};
use crate::model::Profile;
use crate::par::par_map;
use crate::profile::{
    block_probabilities, concurrent_profile, private_block_probabilities, private_profile,
    sample_windows, BbWeighting, ProfileConfig, StackProfile,
};
use crate::seq::StreamLimits;
use crate::window::SequentialTrace;

pub use crate::rates::local_rate;
use rdcachesim::CacheConfig;
use rdengines::Histogram;
use serde::Serialize;

/// Everything the prediction needs besides the core count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SasmmConfig {
    /// Private L1 of each core.
    pub l1: CacheConfig,
    /// Shared L2.
    pub l2: CacheConfig,
    /// Alg. 1 settings (`cores` is set per prediction).
    pub mimic: MimicConfig,
    /// Alg. 2 strategy.
    pub interleave: Interleave,
    /// Alg. 3 / eq. 1–4 settings.
    pub profile: ProfileConfig,
    /// When a streamed trace hands fragments over and spills parallel ones to disk
    /// ([`crate::formula::predict_many_trace`]; the CLI sets the spill threshold from
    /// `RDTOOLS_SPILL_ACCESSES`).
    pub limits: StreamLimits,
}

impl Default for SasmmConfig {
    /// The paper's evaluation setup: L1 8K:8:64 private, L2 128K:16:64 shared, round-robin,
    /// 1 % window samples.
    fn default() -> Self {
        SasmmConfig {
            l1: CacheConfig::default(),
            l2: CacheConfig::paper_l2(),
            mimic: MimicConfig::default(),
            interleave: Interleave::RoundRobin,
            profile: ProfileConfig::default(),
            limits: StreamLimits::default(),
        }
    }
}

/// Predicted numbers for one cache level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelPrediction {
    /// The model's hit rate: eq. 7 over the probabilistic profile P(D) of eq. 4 (Alg. 3 samples).
    pub hit: f64,
    /// Eq. 7 over the exact profile of the mimicked trace (no sampling, no block weighting):
    /// separates the sampling error from the mimicking error.
    pub hit_exact_profile: f64,
    /// Eq. 7 over eq. 4 with the paper's literal block weights (eq. 1 for L2, eq. 2–3 for L1;
    /// instance counts, not references).
    pub hit_paper_weights: f64,
    /// Line references in the mimicked trace(s) at this level's line size.
    pub references: u64,
}

/// A SASMM prediction for one core count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// Number of cores m.
    pub cores: usize,
    /// Private L1 (aggregate over all cores' references).
    pub l1: LevelPrediction,
    /// Eq. 7 on each core's exact PRD.
    pub l1_per_core: Vec<f64>,
    /// Shared L2, global hit rate (fraction of all references that hit in an L2-sized shared
    /// cache, from the CRD).
    pub l2: LevelPrediction,
    /// L2 hits per L2 access, derived as (h2 − h1) / (1 − h1) from the global rates.
    pub l2_local_hit: f64,
    /// Exact PRD histogram per core (L1 lines).
    #[serde(skip)]
    pub prd: Vec<Histogram>,
    /// Exact CRD histogram (L2 lines).
    #[serde(skip)]
    pub crd: Histogram,
}

impl Prediction {
    /// Line references of each core's mimicked private trace at the L1's line size (the
    /// weights of [`Prediction::l1_per_core`]: the references-weighted mean of the per-core
    /// rates is `l1.hit_exact_profile`, eq. 7 being linear in the profile).
    pub fn l1_references_per_core(&self) -> Vec<u64> {
        self.prd.iter().map(Histogram::total).collect()
    }
}

/// Predicts L1 and L2 hit rates for `cores` cores from the sequential trace.
pub fn predict(seq: &SequentialTrace, config: &SasmmConfig, cores: usize) -> Result<Prediction> {
    config.profile.validate()?;
    let mimic = MimickedTrace::build(
        seq,
        MimicConfig {
            cores,
            ..config.mimic
        },
    )?;
    let pc = &config.profile;
    let sampled = sample_windows(seq, pc.sample_rate, pc.min_samples, pc.seed);
    let p_seq = block_probabilities(seq);
    let parallel = seq.block_parallel();
    let prd = private_profile(&mimic, config.l1.line, &sampled);
    let crd = concurrent_profile(&mimic, config.interleave, config.l2.line, &sampled);
    Ok(assemble(prd, crd, &p_seq, &parallel, config, cores))
}

/// The prediction from the PRD and CRD profiles of the mimicked traces (with Alg. 3's
/// conditional profiles) and the sequential run's block probabilities (eq. 1) and parallel
/// flags: eq. 2-4 and eq. 7.
pub(crate) fn assemble(
    prd: StackProfile,
    crd: StackProfile,
    p_seq: &[f64],
    parallel: &[bool],
    config: &SasmmConfig,
    cores: usize,
) -> Prediction {
    let pc = &config.profile;
    // Private L1: PRD over per-core stacks.
    let mimicked_weights: Vec<f64> = prd.instances.iter().map(|&n| n as f64).collect();
    let paper_l1_weights = private_block_probabilities(p_seq, parallel, cores);
    let l1_weights = match pc.weighting {
        BbWeighting::Mimicked => &mimicked_weights,
        BbWeighting::Paper => &paper_l1_weights,
    };
    let prd_total = prd.exact_total();
    let l1 = LevelPrediction {
        hit: prd
            .mixture(l1_weights, pc.reference_weighted)
            .hit_rate(&config.l1),
        hit_exact_profile: Profile::from_histogram(&prd_total).hit_rate(&config.l1),
        hit_paper_weights: prd.mixture(&paper_l1_weights, false).hit_rate(&config.l1),
        references: prd_total.total(),
    };
    let l1_per_core = prd
        .exact
        .iter()
        .map(|h| Profile::from_histogram(h).hit_rate(&config.l1))
        .collect();

    // Shared L2: CRD over the interleaved trace.
    let l2_weights: &[f64] = match pc.weighting {
        BbWeighting::Mimicked => &mimicked_weights,
        BbWeighting::Paper => p_seq,
    };
    let crd_total = crd.exact_total();
    let l2 = LevelPrediction {
        hit: crd
            .mixture(l2_weights, pc.reference_weighted)
            .hit_rate(&config.l2),
        hit_exact_profile: Profile::from_histogram(&crd_total).hit_rate(&config.l2),
        hit_paper_weights: crd.mixture(p_seq, false).hit_rate(&config.l2),
        references: crd_total.total(),
    };
    let l2_local_hit = local_rate(l1.hit, l2.hit);
    Prediction {
        cores,
        l1,
        l1_per_core,
        l2,
        l2_local_hit,
        prd: prd.exact,
        crd: crd_total,
    }
}

/// Predicts several core counts, one worker thread per core count up to the machine's
/// parallelism; results come back in the order of `cores`.
pub fn predict_many(
    seq: &SequentialTrace,
    config: &SasmmConfig,
    cores: &[usize],
) -> Result<Vec<Prediction>> {
    par_map(cores, |&m| predict(seq, config, m))
        .into_iter()
        .collect()
}
