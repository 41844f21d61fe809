//! The command lines of `predict`, `measure` and `validate`: cache, model and run flags.

use crate::commands::flags::{
    fraction, int_in, parse_cache, parse_real, CacheArgs, Ends, FOUR_G, MAX_CORES,
};
use crate::exit::usage;
use crate::output::OutputArgs;
use anyhow::Result;
use rdcachesim::CacheConfig;
use rdsasmm::{
    BbWeighting, ExactConfig, Interleave, OffsetPolicy, SasmmConfig, SetSampleConfig, StaticSplit,
};
use std::path::PathBuf;

/// The SASMM subcommands (flattened into the top-level command list).
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SasmmCommand {
    /// SASMM: predict L1/L2 hit rates on m cores from one sequential trace.
    Predict(PredictArgs),
    /// Measured L1/L2 hit rates of a real threaded run (exact LRU simulation).
    Measure(MeasureArgs),
    /// SASMM predictions next to measured hit rates of real runs, with errors.
    Validate(ValidateArgs),
}

/// Interleaving choice.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterleaveArg {
    /// Round-robin, one access per core in turn.
    Rr,
    /// Uniform random core per access (seeded).
    Uniform,
}

/// Offset policy choice.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffsetArg {
    /// Offset every reference of parallel code on cores > 0 except shared-variable accesses.
    Paper,
    /// Offset only references classed private by the pass.
    Private,
}

/// Unchunked static split.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitArg {
    /// n/m each, first n%m threads one more (libomp default here).
    Balanced,
    /// ceil(n/m) each.
    Greedy,
}

/// Block weighting of eq. 4.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightingArg {
    /// Instance counts of the mimicked traces.
    Mimicked,
    /// The paper's eq. 1 (L2) and eq. 2-3 (L1).
    Paper,
}

/// Which model computes the hit rates.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelArg {
    /// Exact set-associative LRU on the mimicked traces (per-set stack distances).
    Exact,
    /// The paper's stack-distance formula (eq. 5-7) over the sampled profile (Alg. 3, eq. 4).
    Formula,
}

impl ModelArg {
    pub(super) fn name(self) -> &'static str {
        match self {
            ModelArg::Exact => "exact",
            ModelArg::Formula => "formula",
        }
    }
}

/// Cache flags of `predict`: each may be repeated.
#[derive(clap::Args, Debug, Clone)]
pub struct MultiCacheArgs {
    /// Private L1 per core as SIZE:WAYS:LINE (WAYS may be `full`; LINE a power of two up to
    /// 4096, at most 16 Mi lines); repeat (or separate by commas) for several configurations.
    #[arg(long, default_value = "8K:8:64", value_delimiter = ',', value_parser = parse_cache)]
    pub l1: Vec<CacheConfig>,
    /// Shared L2 as SIZE:WAYS:LINE (at most 16 Mi lines); repeat for several. Every L1 x L2
    /// pair is predicted.
    #[arg(long, default_value = "128K:16:64", value_delimiter = ',', value_parser = parse_cache)]
    pub l2: Vec<CacheConfig>,
    /// A shared L3 as SIZE:WAYS:LINE (exact model): the L2 then becomes private per core
    /// (a private L1 and L2 per core and one shared L3, as `measure --l3` simulates); needs one
    /// --l1 and one --l2 of the same line size.
    #[arg(long, value_name = "SPEC", value_parser = parse_cache)]
    pub l3: Option<CacheConfig>,
    /// Model a real machine's caches instead of --l1/--l2/--l3: `host` (this machine's, from
    /// /sys) or a preset (`rda-report machine --list`). A machine with a private L2 and a
    /// shared L3 (most server and desktop CPUs) is modelled with all three levels (as
    /// `measure --machine` simulates them), one whose L2 is shared (Apple M1, the SASMM
    /// paper's machine) with a private L1 and that shared L2 (a note names a level left out).
    #[arg(long, value_name = "host|PRESET", conflicts_with_all = ["l1", "l2", "l3"])]
    pub machine: Option<String>,
}

impl MultiCacheArgs {
    /// These flags with `--machine` turned into the levels the model has for it (see its
    /// help): one L1, one L2 and, for a private L2, the shared L3; a note on stderr names any
    /// level left out.
    pub fn resolved(&self) -> Result<MultiCacheArgs> {
        let Some(name) = &self.machine else {
            return Ok(self.clone());
        };
        let (l1, l2, l3, note) = crate::commands::machine::modelled_levels(name)?;
        if let Some(note) = note {
            eprintln!("rda-report: note: {note}");
        }
        Ok(MultiCacheArgs {
            l1: vec![l1],
            l2: vec![l2],
            l3,
            machine: None,
        })
    }
}

/// Model flags shared by `predict` and `validate`.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// Interleaving of the shared trace (SASMM Alg. 2).
    #[arg(long, value_enum, default_value_t = InterleaveArg::Rr)]
    pub interleave: InterleaveArg,
    /// Seed for uniform interleaving and window sampling (any 64-bit unsigned integer).
    #[arg(long, default_value_t = 1, value_parser = int_in("--seed", 0u64, u64::MAX), allow_negative_numbers = true)]
    pub seed: u64,
    /// Which references of cores > 0 get a per-core address offset (SASMM Alg. 1).
    #[arg(long, value_enum, default_value_t = OffsetArg::Private)]
    pub offset_policy: OffsetArg,
    /// Override the chunk of every worksharing loop (iterations dealt round-robin; 1 to 2^32).
    #[arg(long, value_parser = int_in("--chunk", 1u64, FOUR_G), allow_negative_numbers = true)]
    pub chunk: Option<u64>,
    /// How unchunked static loops are split.
    #[arg(long, value_enum, default_value_t = SplitArg::Balanced)]
    pub split: SplitArg,
    /// Fraction of each block's windows sampled for P(D|BB) (SASMM Alg. 3; 0 < R <= 1); 1
    /// samples all. Drawn in the one pass: each block's sample is a uniform one of R times
    /// its windows to about twice that (see docs/architecture.md).
    #[arg(long, default_value_t = 0.01, value_parser = fraction("--sample-rate", Ends::AboveZero),
          allow_negative_numbers = true)]
    pub sample_rate: f64,
    /// Sample at least this many windows per block (when it has that many; 0 to 2^32; a block
    /// whose later windows fall far short of their expected share may get a few fewer).
    #[arg(long, default_value_t = 32, value_parser = int_in("--min-samples", 0u64, FOUR_G),
          allow_negative_numbers = true)]
    pub min_samples: u64,
    /// Block weights of eq. 4.
    #[arg(long, value_enum, default_value_t = WeightingArg::Mimicked)]
    pub weighting: WeightingArg,
    /// The model: `exact` simulates set-indexed LRU caches on the mimicked traces (no eq. 5
    /// approximation, no sampling unless --set-sample-rate), with write-invalidate coherence
    /// between the private L1s; `formula` is the paper's eq. 5-7 (the sampling flags above
    /// apply to it only; no coherence: that needs --model exact).
    #[arg(long, value_enum, default_value_t = ModelArg::Exact)]
    pub model: ModelArg,
    /// Exact model, approximate and faster: simulate only this fraction of the cache sets
    /// (set sampling: a random subset of whole sets, the same for an L1 and the L2 behind it)
    /// and scale the references back; rates are those of the simulated sets. The fraction is
    /// rounded to whole sets (at least one set of the smaller cache), and reports say which was
    /// used. 0 < R <= 1.
    #[arg(long, value_name = "R", value_parser = fraction("--set-sample-rate", Ends::AboveZero),
          allow_negative_numbers = true)]
    pub set_sample_rate: Option<f64>,
    /// Salt of the set sample (another salt draws other sets; any 64-bit unsigned integer).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = int_in("--set-sample-seed", 0u64, u64::MAX), allow_negative_numbers = true)]
    pub set_sample_seed: u64,
    /// Exact model: no write-invalidate coherence between the private L1s (every access counts
    /// as a read, as the model did before coherence; no coherence misses).
    #[arg(long)]
    pub no_coherence: bool,
    /// Exact model: class every L1 and L2 miss as compulsory, capacity, conflict or coherence
    /// (the 3C split; a fully associative LRU shadow per cache, about 1.6x the time). Without
    /// it the coherence misses alone are counted.
    #[arg(long = "3c")]
    pub three_c: bool,
}

impl ModelArgs {
    /// The formula model's configuration for one L1/L2 pair.
    pub fn config(&self, l1: CacheConfig, l2: CacheConfig) -> Result<SasmmConfig> {
        let mut c = SasmmConfig {
            l1,
            l2,
            ..SasmmConfig::default()
        };
        c.interleave = match self.interleave {
            InterleaveArg::Rr => Interleave::RoundRobin,
            InterleaveArg::Uniform => Interleave::Uniform { seed: self.seed },
        };
        c.mimic.offset_policy = match self.offset_policy {
            OffsetArg::Paper => OffsetPolicy::Paper,
            OffsetArg::Private => OffsetPolicy::Private,
        };
        c.mimic.split = match self.split {
            SplitArg::Balanced => StaticSplit::Balanced,
            SplitArg::Greedy => StaticSplit::Greedy,
        };
        c.mimic.chunk = self.chunk;
        c.limits = stream_limits()?;
        c.profile.sample_rate = self.sample_rate;
        c.profile.min_samples = self.min_samples;
        c.profile.seed = self.seed;
        c.profile.weighting = match self.weighting {
            WeightingArg::Mimicked => BbWeighting::Mimicked,
            WeightingArg::Paper => BbWeighting::Paper,
        };
        // Flag values the model would refuse are usage errors, found before any trace is read.
        if c.mimic.chunk == Some(0) {
            return Err(usage("--chunk must be at least 1"));
        }
        c.profile.validate().map_err(|e| usage(e.to_string()))?;
        if self.set_sample_rate.is_some() && self.model != ModelArg::Exact {
            return Err(usage(
                "--set-sample-rate samples the exact model's caches; the formula model samples \
                 windows (--sample-rate)",
            ));
        }
        Ok(c)
    }

    /// The exact model's configuration for these caches (`l3`: three levels, `l2` private).
    pub(super) fn exact_config(
        &self,
        l1: &[CacheConfig],
        l2: &[CacheConfig],
        l3: Option<CacheConfig>,
    ) -> Result<ExactConfig> {
        let c = self.config(l1[0], l2[0])?;
        Ok(ExactConfig {
            l1: l1.to_vec(),
            l2: l2.to_vec(),
            mimic: c.mimic,
            interleave: c.interleave,
            mrc: Vec::new(),
            set_sample: self.set_sample_rate.map(|rate| SetSampleConfig {
                rate,
                seed: self.set_sample_seed,
            }),
            limits: c.limits,
            coherence: !self.no_coherence,
            classify_misses: self.three_c,
            l3,
        })
    }
}

const RATES_HELP: &str = "Rates are per cache-line reference (an access that straddles two lines is two references): \
L1 hit = L1 hits / references; L2 global hit = 1 - L2 misses / references (l2_hit in JSON is an alias); \
L2 local hit = L2 hits / L2 accesses (the L1 misses); MPKA = misses per 1000 references.";

/// Arguments of `predict`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = format!("{RATES_HELP}\n\nThe exact model (default) simulates a private set-associative LRU L1 per core and a shared, \
non-inclusive L2 on the traces SASMM mimics from the sequential run (Alg. 1-2), from per-set stack distances; \
`--model formula` applies the paper's eq. 5-7 to the sampled reuse profile instead.\n\n\
Per core: every JSON row has `per_core`, one entry per core 0..m-1. Exact model: {{core, references, l1_hits, l1_misses, \
l2_accesses (the shared-L2 lookups its L1 misses cause), l2_hits, l2_misses, l1_hit, l2_hit_global, l2_hit, l2_hit_local, \
l1_mpka, l2_mpka}}, the rates of that core's counts; the counts add up to the row's and the row's rates are those of the sums \
(the per-core rates weighted by references). Formula: eq. 7 gives probabilities, not counts, so only {{core, references, \
l1_hit, l1_mpka}} (eq. 7 on the core's exact PRD; weighted by references they give l1_hit_exact_profile, not the sampled \
l1_hit) and no per-core L2 (its L2 rate is the shared CRD's). `per_core_combines_to` names the row's rate the per-core \
l1_hit values combine to. With --set-sample-rate the per-core counts are scaled like `references` (their sums may \
differ from it by rounding) and the rates are those of the simulated sets. The table prints them too.\n\n\
Coherence (exact model): the private L1s are kept coherent by write-invalidate over the interleaved mimicked trace, as \
`measure` keeps a real run's: a write (each access's kind from the trace's metadata) drops the line from the other cores' \
L1s, and a core's next reference to a line it lost is a coherence miss, true sharing when it touches bytes other cores wrote \
since, else false sharing; the shared L2 is never invalidated. The rates include these misses (--no-coherence: every access a \
read, the rates before coherence). What the estimate assumes is the mimicking's: each core writes what the sequential run's \
iterations it is given wrote (static chunks), code that reads the thread number runs as thread 0 on every core, and the cores \
advance in lockstep, one access each in turn (round-robin) or at random, within each round of block instances, so it is the \
sharing of the finest interleaving: real threads that take turns more coarsely (at barriers, locks, or whole time slices on \
fewer CPUs than threads) share less, up to about half as often for updates of one line by every thread (see validate). \
JSON: `l1_coherence` {{coherence, true_sharing, false_sharing, coherence_per_1000}} per row and per core; with --3c also \
`l1_miss_classes` and `l2_miss_classes` {{compulsory, capacity (a fully associative LRU of the same size misses too), \
conflict, coherence, true_sharing, false_sharing}} per row (and `l1_miss_classes` per core), which add up to the L1 misses \
and the L2 misses exactly; --3c runs a fully associative shadow per cache (about 1.6x the time). The formula model \
(eq. 5-7) predicts no coherence misses: its reuse profiles do not say which core wrote a line last; use --model exact.\n\n\
Three levels (exact model): `--l3 SPEC` adds a shared L3 and makes the L2 private per core, as `measure --l3` simulates \
a real run (one --l1 and one --l2, of the same line size): each core's L2 is looked up on its L1's misses, a write drops the \
line from the other cores' private L2s as well as their L1s, and the L3 is looked up on the L2 misses. The L2 rates, \
counts and classes are then the private L2s' (summed over the cores, as measure --l3 reports them); JSON rows add \
`l3_cache`, `l3_accesses`, `l3_hits`, `l3_misses`, `l3_hit_global`, `l3_hit_local`, `l3_mpka` (and per core the L3 counts \
of its L2 misses), `l2_coherence` and with --3c `l3_miss_classes`; the tables add the L3. `--machine` models a machine \
with a private L2 and a shared L3 this way.\n\n\
Examples:\n  OMP_NUM_THREADS=1 RDTRACE=seq.rdtrace ./app\n  rda-report predict seq.rdtrace --cores 1,2,4,8,16 --l1 8K:8:64 --l2 128K:16:64 --json\n  \
rda-report predict seq.rdtrace --l1 48K:12:64 --l2 2M:16:64 --l3 32M:16:64\n  \
rda-report predict seq.rdtrace --l1 8K:8:64 --l1 32K:8:64 --l2 128K:16:64 --l2 1M:16:64\n  \
rda-report predict seq.rdtrace --cores 1,4 --mrc\n  rda-report predict seq.rdtrace --model formula\n  \
rda-report predict huge.rdtrace --set-sample-rate 0.0625   # simulate 1/16 of the sets (approximate)\n\n\
Memory: the exact model streams the trace once for all core counts (each fragment decoded once, the core counts simulated on as many CPUs as there are): per core count the \
simulated caches' LRU stacks (bounded by the cache sizes) and at most a parallel section's first 128 Ki accesses (about 75 bytes each while held); a longer one is written to an unlinked temporary file in $TMPDIR (3-5 bytes per access of regular code) and read back for each core count, in batches of whole rounds, while the next fragment is cut: once per core below four cores (or above 256), else once into a file per core (about the section's size again) that is read once each; so at most three spilled sections at once (RDTOOLS_SPILL_ACCESSES sets the threshold); serial code is never held. `--model formula` streams the trace \
once for all core counts and cache pairs (pairs with the same line sizes share one run per core count, the runs on as many CPUs as there are), each run holding one LRU \
stack per core and one shared (distinct lines), \
exact histograms (distinct distances), per-block counters (a few words per block and priority level), the recorded windows' distances \
(distinct per block and level) and the same bounded part of a parallel section. From a stream (`-`, a pipe) either model runs every core count in one pass over the chunks as they arrive.\n\n\
Time: the exact model simulates set-associative caches (a few compares per reference); the formula model reads the trace \
once (Alg. 3's sample drawn as it goes) and runs every reference, sampled or not, through exact LRU stacks (an exact stack distance per reference and per stack: each \
core's and the shared one, the two kinds on two threads), since a sampled window's distances depend on every reference \
before it. So `--model formula` takes about 1.8 times the exact model's time (4 cores, 2 CPUs: app_mix 2.5 s against 1.4 s, \
bfs's sequential trace 3.6 s against 2.0 s); use it for the paper's \
reuse profiles and eq. 5-7, the exact model for rates. Each core count simulates every \
reference once more (the default five core counts are five simulations, side by side on the \
CPUs there are; with two CPUs per core count, each one's caches are simulated on a thread of \
their own beside its mimicking), and an OpenMP program's spilled parallel sections are read \
back for each core count: on bfs's sequential trace (2.3·10^7 accesses, 2 CPUs) `histogram` takes 0.3 s, \
`--cores 4` 1.3 s and the default core counts 3.8 s.")
)]
pub struct PredictArgs {
    /// Trace of a sequential run (OMP_NUM_THREADS=1); `-` reads standard input, and a pipe or
    /// FIFO is read as a stream too (one pass, the same report).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Core counts to predict (each 1 to 1024).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16",
          value_parser = int_in("--cores", 1u16, MAX_CORES), allow_hyphen_values = true)]
    pub cores: Vec<u16>,
    #[command(flatten)]
    pub caches: MultiCacheArgs,
    /// Also print a miss-ratio curve: private caches (first L1's ways and line) and a shared
    /// cache (first L2's) of 1 KiB, 2 KiB, ... up to 4x the largest L2. JSON becomes
    /// {"predictions": [...], "mrc": [...]}.
    #[arg(long)]
    pub mrc: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `measure`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = format!("{RATES_HELP}\n\nPer-thread rows are ordered by OpenMP thread number. `--csv` prints the \
one hit-rate table (one CSV table per stream); `--csv-dir DIR` writes every table as its own file.\n\n\
Per thread: the JSON's `per_thread` has one entry per thread of the trace (trace index order): {{thread (the trace's \
thread index), omp_thread (its OpenMP thread number, null if it entered no region), references, l1_hits, l1_misses, \
l2_accesses (the shared-L2 lookups its L1 misses cause), l2_hits, l2_misses, l1_hit, l2_hit_global, l2_hit, l2_hit_local, \
l1_mpka, l2_mpka}}. The counts add up to the combined ones; the master thread's rates often differ from the workers'.\n\n\
Coherence: the private caches are kept coherent by write-invalidate (MESI-style) on the run's own interleaving (stamp \
order): a write by one thread drops the line from every other thread's private caches, and the miss that follows there \
is a coherence miss, classed true sharing when its bytes overlap bytes other threads wrote since, else false sharing \
(byte-exact for lines up to 64 bytes, 64 granules per line above). Every cache's misses split into compulsory (first \
reference of the line by that cache), coherence, capacity (a fully associative LRU cache of the same size misses too) \
and conflict (the rest); the four add up to the misses exactly. JSON: `levels` (per level: accesses, hits, compulsory, \
capacity, conflict, coherence, true_sharing, false_sharing), `l1_misses_per_thread` (indexed as `l1_per_thread`), \
`coherence_by_mi` and `coherence_sources` (L1 coherence misses per memory instruction and per source line, with \
the threads that had them).\n\n\
Three levels: `--l3 SPEC` adds a shared L3 and makes the L2 private per thread (private L1 and L2 per core, one \
shared L3, as most multicore machines have; the L2's line size must equal the L1's). Without `--l3` the L2 is shared, \
as before. With it, `l2` counts the private L2s summed, and `l3`, `l3_hit_global`, `l3_hit_local` and \
`l2_misses_per_thread` are added.\n\n\
Examples:\n  OMP_NUM_THREADS=4 RDTRACE=t4.rdtrace ./app\n  rda-report measure t4.rdtrace --l1 8K:8:64 --l2 128K:16:64\n  \
rda-report measure t4.rdtrace --l1 48K:12:64 --l2 2M:16:64 --l3 32M:16:64\n  \
rda-report measure t4.rdtrace --machine host\n  \
rda-report measure t4.rdtrace --csv-dir out/\n\n\
Memory: the simulated caches, one reuse stack per thread and one over all threads (distinct lines), per cache the distinct \
lines it has seen (the compulsory test, one hash entry each) and a record per line and thread that lost it by invalidation \
until the thread fetches it back, and one decoded chunk per \
thread (the events are merged in stamp order as they are read). From a stream (`-`, a pipe): the same, plus the compressed chunks the merge in stamp order holds until every thread's next event is known; a trace file piped in does not say when a thread is done, so that can be the whole compressed trace until the input ends.\n\n\
Time: about twice `histogram`'s on the same trace (app_mix: 0.99 s against 0.48 s): besides the \
reuse stacks, every reference goes through each simulated cache, the fully associative shadow \
of the same size that splits its misses into the four kinds, and the coherence bookkeeping; the \
trace is decoded on the other CPUs meanwhile.")
)]
pub struct MeasureArgs {
    /// Trace of a real run (any number of threads); `-` reads standard input, and a pipe or FIFO is read as a stream too (one pass, the same report).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    #[command(flatten)]
    pub caches: CacheArgs,
    /// A shared L3 as SIZE:WAYS:LINE; the L2 then becomes private per thread (see below).
    #[arg(long, value_name = "SPEC", value_parser = parse_cache)]
    pub l3: Option<CacheConfig>,
    /// Simulate a real machine's caches instead of --l1/--l2/--l3: `host` (this machine's,
    /// read from /sys) or a preset (`rda-report machine --list`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["l1", "l2", "l3"])]
    pub machine: Option<String>,
    /// Write each table as a CSV file into this directory (levels.csv, per_thread.csv,
    /// profile_model.csv, misses.csv, coherence_lines.csv).
    #[arg(long, value_name = "DIR")]
    pub csv_dir: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `validate`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = format!("{RATES_HELP}\n\nShows, per core count and level, the measured rate, the exact model and the formula, \
and the error decomposition: the formula applied to the real run's own reuse profile (the formula's error alone), \
the formula on the mimicked trace's exact profile, and the exact model (the mimicking's error alone). \
Per core, the L1 hit rate of model core c is set beside the real run's OpenMP thread c (JSON: `per_core` in the model rows, \
`per_thread` in `measured`, as in predict and measure). The measured side is `measure`'s simulation, with write-invalidate \
coherence between the private L1s on the run's own interleaving; the exact model applies the same rule to the mimicked, \
finely interleaved trace (see predict --help), the formula has none.\n\n\
Coherence: per real run, the L1 coherence misses measured and predicted by the exact model (true / false sharing), per \
1000 line references each, with the error: absolute (per 1000 references) and relative (of the measured count). JSON: \
`coherence` {{measured, predicted, abs_error_per_1000, rel_error}} per row, `coherence_mean_abs_error_per_1000`. The model \
interleaves the cores in lockstep; where real threads take turns more coarsely the model predicts more (up to about twice \
for updates of one line by every thread in rounds), and where the run's order is fixed by barriers it agrees exactly.\n\n\
Example:\n  rda-report validate --seq seq.rdtrace --real 1=t1.rdtrace --real 2=t2.rdtrace --real 4=t4.rdtrace --plot sasmm.svg\n\n\
Memory: both models stream the sequential trace as `predict` does (see its --help: stacks, the recorded windows' distances and at most \
128 Ki accesses of a parallel section, the rest spilled to $TMPDIR), plus `measure`'s bound for each real run.\n\n\
Time: the formula model's pass over the sequential trace, the exact model fed the same fragments beside it, and the real runs \
measured beside both: on bfs (a 2.3*10^7-access sequential trace and a 4-thread run, 2 CPUs) 3.4 s, where `histogram` of the \
sequential trace takes 0.3 s (see `predict --help` for what each model costs).")
)]
pub struct ValidateArgs {
    /// Trace of a sequential run (the model's input).
    #[arg(long)]
    pub seq: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// A real run as CORES=TRACE (CORES 1 to 1024; repeat for each core count).
    #[arg(long = "real", value_name = "CORES=TRACE", required = true, value_parser = parse_real)]
    pub real: Vec<(usize, PathBuf)>,
    #[command(flatten)]
    pub caches: CacheArgs,
    /// A shared L3 as SIZE:WAYS:LINE: the exact model and the measured runs get three levels
    /// (the L2 private per core, of the L1's line size; see predict --help and measure
    /// --help), and the L3 rates are compared too. The formula keeps its one shared level, the
    /// L2: its L2 figures are then of a shared L2, not of the private L2s measured.
    #[arg(long, value_name = "SPEC", value_parser = parse_cache)]
    pub l3: Option<CacheConfig>,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Also write an SVG plot of hit rate vs cores (models dashed, measured solid).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// The models' streaming thresholds: the defaults, with the spill threshold from
/// `RDTOOLS_SPILL_ACCESSES` when it is set (read here: the library reads no environment). A
/// value that is not a number is a usage error.
pub fn stream_limits() -> Result<rdsasmm::StreamLimits> {
    let setting = std::env::var_os(rdsasmm::seq::SPILL_ACCESSES_ENV);
    rdsasmm::StreamLimits::with_spill_setting(setting.as_deref()).map_err(|e| usage(e.to_string()))
}
