//! `rda-report histogram`: reuse-distance histogram of a trace (or of a PARDA-style address
//! file) with any engine.

use crate::exit::usage;
use crate::output::{emit, percent, Format, OutputArgs, Table};
use anyhow::{bail, Context, Result};
use rdengines::{
    make_engine, EngineConfig, EngineKind, Granularity, Histogram, ReuseEngine, SampleStats,
};
use rdtrace::EventVisitor;
use serde::Serialize;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// What the input file is.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// An rdtools trace.
    Rdtrace,
    /// One address per line in hexadecimal (PARDA's text input; `0x` optional).
    PardaText,
    /// Raw little-endian u64 addresses (PARDA's binary input).
    PardaBinary,
}

/// How the table is laid out.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableStyle {
    /// Log2 bins with percentages.
    Log2,
    /// PARDA's output: `Dist Refs Refs(%) Cum_Ref Cum_Ref(%)` per exact distance.
    Parda,
}

/// Arguments of `histogram`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  rda-report histogram app.rdtrace\n  rda-report histogram app.rdtrace --line 64 --per-thread --json\n  rda-report histogram app.rdtrace --engine parda --threads 2 --plot hist.svg\n  rda-report histogram addrs.txt --input-format parda-text --line 1 --format parda\n  rda-report histogram big.rdtrace --sample-rate 0.01 --json\n  rda-report histogram big.rdtrace --sample-max-blocks 100000\n  mpirun -np 4 rda-report histogram app.rdtrace --engine parda-mpi --bound 65536 --json\n\nMemory: the engine's stack, proportional to the distinct lines (one stack per thread with --per-thread; at most --bound lines with parda --bound; about R times the distinct lines with --sample-rate R, at most S with --sample-max-blocks S; with parda-mpi, each rank its slice's distinct lines), plus one decoded chunk per thread: never the trace length."
)]
pub struct HistogramArgs {
    /// Trace file (or address file with --input-format).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Cache-line size in bytes (a power of two); 1 compares byte addresses.
    #[arg(long, default_value_t = 64, value_parser = parse_line)]
    pub line: u32,
    /// One histogram per thread (private reuse) instead of one over all threads merged in
    /// stamp order (concurrent reuse).
    #[arg(long)]
    pub per_thread: bool,
    /// Engine: fast (default, exact), olken (exact, baseline), parda (exact, parallel),
    /// hprda (approximate, parallel), naive (exact, slow; for checking), hprda-gpu (HP-RDA on
    /// a GPU through Vulkan; needs the `gpu` build feature), parda-mpi (exact, PARDA over MPI
    /// ranks started by `mpirun -np P`, each reading only its own slices of the input; needs the
    /// `mpi` build feature; a single rank outside mpirun; see docs/distributed.md).
    #[arg(long, default_value = "fast", value_parser = parse_engine)]
    pub engine: EngineChoice,
    /// HP-RDA (hprda, hprda-gpu): ST, references per thread-local trace.
    #[arg(long, default_value_t = rdengines::HpRdaConfig::default().st)]
    pub st: usize,
    /// HP-RDA (hprda, hprda-gpu): NB, thread-local traces per thread block.
    #[arg(long, default_value_t = rdengines::HpRdaConfig::default().nb)]
    pub nb: usize,
    /// HP-RDA (hprda, hprda-gpu): skip the adjustment of formulas (2)-(3).
    #[arg(long)]
    pub no_adjust: bool,
    /// hprda-gpu: adapter to use (substring of its name, see `rda-report gpu-info`).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Worker threads for parallel engines.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Bound B: distances ≥ B are counted as overflow (cache-bounded analysis).
    #[arg(long)]
    pub bound: Option<u64>,
    /// References per chunk for PARDA (parda-mpi: per rank and phase, default 4194304).
    #[arg(long)]
    pub chunk: Option<usize>,
    /// parda-mpi: write per-rank statistics (references, bytes sent, peak RSS) as JSON.
    #[cfg(feature = "mpi")]
    #[arg(long, value_name = "FILE.json")]
    pub mpi_stats: Option<PathBuf>,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Rdtrace)]
    pub input_format: InputFormat,
    /// Table layout.
    #[arg(long, value_enum, default_value_t = TableStyle::Log2)]
    pub format: TableStyle,
    /// Also write an SVG bar chart of the log2 bins.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub sample: super::sampling::HistogramSampleArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Feeds the blocks of every access to an engine in batches.
pub struct BlockFeeder {
    granularity: Granularity,
    batch: Vec<u64>,
    engine: Box<dyn ReuseEngine>,
    /// References fed so far.
    pub references: u64,
}

const BATCH: usize = 1 << 16;

impl BlockFeeder {
    /// A feeder for `engine` at `granularity`.
    pub fn new(engine: Box<dyn ReuseEngine>, granularity: Granularity) -> Self {
        BlockFeeder {
            granularity,
            batch: Vec::with_capacity(BATCH + 64),
            engine,
            references: 0,
        }
    }

    /// Feeds one raw address (already a whole reference).
    #[inline]
    pub fn address(&mut self, addr: u64) {
        self.batch.push(self.granularity.block_of(addr));
        self.references += 1;
        if self.batch.len() >= BATCH {
            self.drain();
        }
    }

    fn drain(&mut self) {
        self.engine.process(&self.batch);
        self.batch.clear();
    }

    /// Feeds blocks already reduced to the feeder's granularity, one reference each.
    pub fn blocks(&mut self, blocks: &[u64]) {
        self.drain();
        self.engine.process(blocks);
        self.references += blocks.len() as u64;
    }

    /// Ends the stream, with what sampling did when the engine samples. Fails when the engine
    /// could not analyse the whole stream.
    pub fn finish_sampled(mut self) -> Result<(Histogram, Option<SampleStats>)> {
        self.drain();
        if let Some(why) = self.engine.failure() {
            anyhow::bail!("{why}");
        }
        let stats = self.engine.sample_stats();
        Ok((self.engine.finish(), stats))
    }
}

impl EventVisitor for BlockFeeder {
    #[inline]
    fn access(&mut self, _mi: u32, addr: u64, len: u64) {
        let (batch, engine) = (&mut self.batch, &mut self.engine);
        let mut n = 0;
        // A range (up to rdtrace's MAX_RANGE_LEN) can touch millions of blocks: drain as the
        // batch fills rather than growing it with the range.
        self.granularity.for_each_block(addr, len, |b| {
            batch.push(b);
            n += 1;
            if batch.len() >= BATCH {
                engine.process(batch);
                batch.clear();
            }
        });
        self.references += n;
    }
}

/// Maps the engine flags onto the engines' configuration.
pub fn engine_config(
    threads: Option<usize>,
    bound: Option<u64>,
    chunk: Option<usize>,
) -> EngineConfig {
    let mut cfg = EngineConfig::default();
    if let Some(t) = threads {
        cfg.threads = t.max(1);
    }
    if bound.is_some() {
        cfg.bound = bound;
    }
    if let Some(c) = chunk {
        cfg.chunk = c.max(1);
    }
    cfg
}

/// An engine of `rdengines` or the GPU engine of `rdgpu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// A CPU engine.
    Cpu(EngineKind),
    /// HP-RDA on the GPU (`hprda-gpu`, build feature `gpu`).
    HpRdaGpu,
    /// PARDA over MPI ranks (`parda-mpi`, build feature `mpi`; `histogram` only).
    PardaMpi,
}

impl std::fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineChoice::Cpu(k) => k.fmt(f),
            EngineChoice::HpRdaGpu => f.write_str("hprda-gpu"),
            EngineChoice::PardaMpi => f.write_str("parda-mpi"),
        }
    }
}

/// Parses `--engine` (a usage error, exit status 2, when unknown).
pub fn parse_engine(s: &str) -> Result<EngineChoice, String> {
    if matches!(
        s.trim().to_ascii_lowercase().as_str(),
        "hprda-gpu" | "hp-rda-gpu"
    ) {
        return if cfg!(feature = "gpu") {
            Ok(EngineChoice::HpRdaGpu)
        } else {
            Err("engine hprda-gpu needs rda-report built with `--features gpu`".into())
        };
    }
    if matches!(s.trim().to_ascii_lowercase().as_str(), "parda-mpi") {
        return if cfg!(feature = "mpi") {
            Ok(EngineChoice::PardaMpi)
        } else {
            Err("engine parda-mpi needs rda-report built with `--features mpi`".into())
        };
    }
    s.parse()
        .map(EngineChoice::Cpu)
        .map_err(|e: rdengines::UnknownEngine| format!("{e}, hprda-gpu or parda-mpi"))
}

/// Builds the chosen engine (opening the GPU for `hprda-gpu`: an error when there is none).
pub fn build_engine(
    choice: EngineChoice,
    cfg: &EngineConfig,
    adapter: Option<&str>,
) -> Result<Box<dyn ReuseEngine>> {
    match choice {
        EngineChoice::Cpu(k) => Ok(make_engine(k, cfg)),
        #[cfg(feature = "gpu")]
        EngineChoice::HpRdaGpu => super::gpu::engine(cfg, adapter),
        #[cfg(not(feature = "gpu"))]
        EngineChoice::HpRdaGpu => {
            let _ = adapter;
            bail!("engine hprda-gpu needs rda-report built with `--features gpu`")
        }
        EngineChoice::PardaMpi => Err(usage(
            "engine parda-mpi runs only in `histogram` (as `mpirun -np P rda-report histogram TRACE --engine parda-mpi`)",
        )),
    }
}

/// Parses `--line`: a power of two (a usage error otherwise, exit status 2).
pub fn parse_line(s: &str) -> Result<u32, String> {
    let line: u32 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of bytes"))?;
    Ok(rdengines::LineSize::new(line)
        .map_err(|e| e.to_string())?
        .bytes())
}

/// The granularity for a line size already checked by [`parse_line`].
pub fn granularity(line: u32) -> Granularity {
    if line <= 1 {
        Granularity::Byte
    } else {
        Granularity::Line(line)
    }
}

/// One histogram in the JSON output.
#[derive(Serialize)]
pub struct HistogramJson {
    /// Thread index for per-thread output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// All references.
    pub total: u64,
    /// First touches.
    pub cold: u64,
    /// References at distance ≥ bound.
    pub overflow: u64,
    /// `[[distance, count], …]` for every finite distance that occurred.
    pub histogram: Vec<[u64; 2]>,
    /// `[[lower, upper_exclusive, count], …]` log2 bins.
    pub log2: Vec<[u64; 3]>,
}

impl HistogramJson {
    /// Converts a histogram.
    pub fn new(thread: Option<u32>, h: &Histogram) -> Self {
        HistogramJson {
            thread,
            total: h.total(),
            cold: h.cold,
            overflow: h.overflow,
            histogram: h.counts.iter().map(|(&d, &n)| [d, n]).collect(),
            log2: h
                .log2_bins()
                .into_iter()
                .map(|(a, b, n)| [a, b, n])
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct Output {
    engine: String,
    exact: bool,
    /// Whether the histogram is estimated from a SHARDS sample (scaled to the full trace).
    sampled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    sampling: Option<SampleStats>,
    line: u32,
    bound: Option<u64>,
    #[serde(flatten)]
    all: HistogramJson,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    threads: Vec<HistogramJson>,
}

/// The log2 table of a histogram.
pub fn log2_table(title: &str, h: &Histogram) -> Table {
    let total = h.total();
    let mut t = Table::new(["distance", "references", "%", "cumulative %"]).titled(title);
    let mut cum = 0;
    for (lo, hi, n) in h.log2_bins() {
        cum += n;
        let label = if hi - lo <= 1 {
            lo.to_string()
        } else {
            format!("{lo}-{}", hi - 1)
        };
        t.row([label, n.to_string(), percent(n, total), percent(cum, total)]);
    }
    if h.overflow > 0 {
        cum += h.overflow;
        t.row([
            format!(">={}", h.bound.unwrap_or(0)),
            h.overflow.to_string(),
            percent(h.overflow, total),
            percent(cum, total),
        ]);
    }
    cum += h.cold;
    t.row([
        "inf (cold)".to_string(),
        h.cold.to_string(),
        percent(h.cold, total),
        percent(cum, total),
    ]);
    t.row([
        "total".to_string(),
        total.to_string(),
        String::new(),
        String::new(),
    ]);
    t
}

/// PARDA's table layout: one row per exact distance, then overflow and infinity.
pub fn parda_table(h: &Histogram) -> Table {
    let total = h.total();
    let mut t = Table::new(["Dist", "Refs", "Refs(%)", "Cum_Ref", "Cum_Ref(%)"]);
    let mut cum = 0;
    for (&d, &n) in &h.counts {
        cum += n;
        t.row([
            d.to_string(),
            n.to_string(),
            percent(n, total),
            cum.to_string(),
            percent(cum, total),
        ]);
    }
    if h.overflow > 0 {
        cum += h.overflow;
        t.row([
            "#OVFL".to_string(),
            h.overflow.to_string(),
            percent(h.overflow, total),
            cum.to_string(),
            percent(cum, total),
        ]);
    }
    cum += h.cold;
    t.row([
        "#INF".to_string(),
        h.cold.to_string(),
        percent(h.cold, total),
        cum.to_string(),
        percent(cum, total),
    ]);
    t
}

/// One line of a PARDA text file: `None` for a blank line or a `#` comment, else the
/// hexadecimal address (with or without `0x`).
pub fn parse_parda_line(s: &str) -> Option<Result<u64, std::num::ParseIntError>> {
    let s = s.trim();
    if s.is_empty() || s.starts_with('#') {
        return None;
    }
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    Some(u64::from_str_radix(hex, 16))
}

/// Reads a PARDA text file (one hex address per line) into the feeder.
pub fn feed_parda_text(path: &Path, feeder: &mut BlockFeeder) -> Result<()> {
    let f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let r = std::io::BufReader::with_capacity(1 << 20, f);
    for (i, line) in r.lines().enumerate() {
        let line = line.with_context(|| format!("{}: reading line {}", path.display(), i + 1))?;
        let Some(addr) = parse_parda_line(&line) else {
            continue;
        };
        let addr = addr.with_context(|| {
            format!(
                "{}: line {}: {:?} is not a hexadecimal address",
                path.display(),
                i + 1,
                line.trim()
            )
        })?;
        feeder.address(addr);
    }
    Ok(())
}

/// Reads a PARDA binary file (little-endian u64 addresses) into the feeder.
///
/// A reader thread reads and decodes the file into blocks while this thread runs the engine
/// (two pieces in flight, recycled), so IO and decoding overlap the analysis.
pub fn feed_parda_binary(path: &Path, feeder: &mut BlockFeeder) -> Result<()> {
    let f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let len = f.metadata()?.len();
    if len % 8 != 0 {
        bail!("{}: length {len} is not a multiple of 8 bytes (raw little-endian u64 addresses expected)", path.display());
    }
    const PIECE: usize = 1 << 16;
    let gran = feeder.granularity;
    let (full_tx, full_rx) = std::sync::mpsc::sync_channel::<Vec<u64>>(2);
    let (free_tx, free_rx) = std::sync::mpsc::channel::<Vec<u64>>();
    for _ in 0..3 {
        free_tx.send(Vec::with_capacity(PIECE)).ok();
    }
    std::thread::scope(|scope| -> Result<()> {
        let reader = scope.spawn(move || -> Result<()> {
            let mut r = std::io::BufReader::with_capacity(1 << 20, f);
            let mut buf = vec![0u8; PIECE * 8];
            loop {
                let mut k = 0;
                while k < buf.len() {
                    let n = r.read(&mut buf[k..])?;
                    if n == 0 {
                        break;
                    }
                    k += n;
                }
                if k == 0 {
                    return Ok(());
                }
                if k % 8 != 0 {
                    bail!("{}: file ends inside an address", path.display());
                }
                // The engine side hung up (an error there): stop quietly, it reports.
                let Ok(mut piece) = free_rx.recv() else {
                    return Ok(());
                };
                piece.clear();
                piece.extend(
                    buf[..k]
                        .chunks_exact(8)
                        .map(|w| gran.block_of(u64::from_le_bytes(w.try_into().unwrap()))),
                );
                if full_tx.send(piece).is_err() {
                    return Ok(());
                }
            }
        });
        for piece in full_rx {
            feeder.blocks(&piece);
            free_tx.send(piece).ok();
        }
        reader
            .join()
            .map_err(|_| anyhow::anyhow!("the file reader thread panicked"))?
    })
}

/// Runs `histogram`.
pub fn run(args: &HistogramArgs) -> Result<()> {
    let kind = args.engine;
    // Sampling flags are checked first, so that no engine ignores them silently.
    let sample = args.sample.get();
    sample.engine(kind, args.bound)?;
    #[cfg(feature = "mpi")]
    if kind == EngineChoice::PardaMpi {
        return super::parda_mpi::run(args);
    }
    let mut cfg = engine_config(args.threads, args.bound, args.chunk);
    cfg.hprda.st = args.st.max(1);
    cfg.hprda.nb = args.nb.max(1);
    cfg.hprda.adjust = !args.no_adjust;
    let gran = granularity(args.line);
    let adapter = args.adapter.as_deref();
    let new_feeder = || -> Result<BlockFeeder> {
        let engine = match sample.engine(kind, args.bound)? {
            Some(e) => e,
            None => build_engine(kind, &cfg, adapter)?,
        };
        Ok(BlockFeeder::new(engine, gran))
    };
    let mut sampling: Option<SampleStats> = None;
    let mut add_stats = |s| super::sampling::accumulate(&mut sampling, s);
    let mut per_thread = Vec::new();
    let all = match args.input_format {
        InputFormat::PardaText | InputFormat::PardaBinary => {
            if args.per_thread {
                return Err(usage(
                    "--per-thread needs an rdtools trace, not a PARDA input",
                ));
            }
            let mut f = new_feeder()?;
            if args.input_format == InputFormat::PardaText {
                feed_parda_text(&args.trace, &mut f)?;
            } else {
                feed_parda_binary(&args.trace, &mut f)?;
            }
            let (h, s) = f.finish_sampled()?;
            add_stats(s);
            h
        }
        InputFormat::Rdtrace => {
            let trace = crate::tracefile::open(&args.trace, &args.open)?;
            let bar = crate::progress::bar(trace.total_events(), "analysing", args.out.quiet);
            if args.per_thread {
                let mut reader = trace.chunk_reader()?;
                let mut all = Histogram::new_exact();
                all.exact = match kind {
                    EngineChoice::Cpu(k) => k.is_exact(),
                    EngineChoice::HpRdaGpu => false,
                    EngineChoice::PardaMpi => true,
                };
                for t in trace.thread_indices() {
                    let mut f = new_feeder()?;
                    for c in trace.event_chunks().iter().filter(|c| c.thread == t) {
                        reader.visit_chunk(c, &mut f)?;
                        bar.inc(c.events as u64);
                    }
                    let (h, s) = f.finish_sampled()?;
                    add_stats(s);
                    all.merge(&h);
                    per_thread.push((t, h));
                }
                all
            } else {
                let mut f = new_feeder()?;
                let mut n = 0u64;
                for r in trace.merged()? {
                    let (_, e) = r?;
                    e.visit(&mut f);
                    n += 1;
                    if n.is_multiple_of(65536) {
                        bar.set_position(n);
                    }
                }
                let (h, s) = f.finish_sampled()?;
                add_stats(s);
                h
            }
        }
    };
    let report = HistogramReport {
        engine: kind,
        line: args.line,
        bound: args.bound,
        per_thread: args.per_thread,
        style: args.format,
        plot: args.plot.as_deref(),
        format: args.out.format(),
        sampling,
    };
    emit_report(&report, &all, &per_thread)
}

/// How a histogram report is printed: what `histogram` and `live` share, so both print the
/// same report for the same run.
pub struct HistogramReport<'a> {
    /// The engine that computed the histograms.
    pub engine: EngineChoice,
    /// Block size in bytes.
    pub line: u32,
    /// The engine's bound, if any.
    pub bound: Option<u64>,
    /// Whether `all` is the sum of per-thread histograms (else the merged order's).
    pub per_thread: bool,
    /// Table layout.
    pub style: TableStyle,
    /// Where to write the SVG chart, if anywhere.
    pub plot: Option<&'a Path>,
    /// Output format.
    pub format: Format,
    /// What SHARDS sampling did, when the histograms are sampled.
    pub sampling: Option<SampleStats>,
}

/// Prints the histogram report: tables, CSV or JSON, and the optional plot.
pub fn emit_report(
    r: &HistogramReport<'_>,
    all: &Histogram,
    per_thread: &[(u32, Histogram)],
) -> Result<()> {
    let kind = r.engine;
    let output = Output {
        engine: kind.to_string(),
        exact: all.exact,
        sampled: r.sampling.is_some(),
        sampling: r.sampling.clone(),
        line: r.line,
        bound: r.bound,
        all: HistogramJson::new(None, all),
        threads: per_thread
            .iter()
            .map(|(t, h)| HistogramJson::new(Some(*t), h))
            .collect(),
    };
    let mut tables = Vec::new();
    match r.style {
        TableStyle::Parda => tables.push(parda_table(all)),
        TableStyle::Log2 => {
            let what = if r.per_thread {
                "sum of per-thread histograms"
            } else {
                "all threads, merged order"
            };
            let sampled = match &r.sampling {
                Some(s) => format!(
                    ", SHARDS sample at R={} scaled to the full trace ({} of {} references)",
                    s.final_rate, s.sampled_references, s.references
                ),
                None => String::new(),
            };
            tables.push(log2_table(
                &format!(
                    "Reuse distances in {}-byte blocks ({what}), engine {kind}{sampled}",
                    r.line
                ),
                all,
            ));
            for (t, h) in per_thread {
                tables.push(log2_table(&format!("Thread {t}"), h));
            }
        }
    }
    if let Some(p) = r.plot {
        let bins = all.log2_bins();
        let mut labels: Vec<String> = bins
            .iter()
            .map(|&(lo, hi, _)| {
                if hi - lo <= 1 {
                    lo.to_string()
                } else {
                    format!("{lo}-{}", hi - 1)
                }
            })
            .collect();
        let mut values: Vec<f64> = bins.iter().map(|b| b.2 as f64).collect();
        labels.push("cold".into());
        values.push(all.cold as f64);
        let svg = crate::plot::bar_chart(
            &format!("Reuse-distance histogram ({} B blocks, {kind})", r.line),
            "reuse distance (distinct blocks)",
            "references",
            &labels,
            &values,
        );
        crate::plot::write_svg(p, &svg)?;
    }
    if r.format == Format::Table && r.sampling.is_some() && !all.exact {
        eprintln!("rda-report: note: the histogram is estimated from a SHARDS sample");
    } else if r.format == Format::Table && !all.exact {
        eprintln!("rda-report: note: engine {kind} is approximate");
    }
    emit(r.format, &output, &tables)
}
