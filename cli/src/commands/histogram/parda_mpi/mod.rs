//! `rda-report histogram --engine parda-mpi` (build feature `mpi`): PARDA over MPI ranks
//! (`rdmpi`), each rank reading only its own slices of the input.
//!
//! The input is cut into numbered source chunks of `S = ⌈C / k⌉` references (`C` = `--chunk`,
//! `k` = [`rdmpi::CHUNKS_PER_RANK`]; binary input: at most [`BINARY_SLICE`]) that every rank
//! computes the same way from the file's size or chunk index, without reading the data; a
//! phase gives each rank about `C / S` consecutive ones (fewer to the holder of the global
//! state, and the last rank's end follows the work, see `rdmpi::run`), read one at a time:
//! - PARDA binary input: chunk `g` is bytes `[8·S·g, 8·S·(g+1))`;
//! - PARDA text input: chunk `g` is the lines that *start* in bytes `[16·S·g, 16·S·(g+1))`
//!   (a rank seeks to the byte before its range and skips to the next line start, and reads
//!   past its end only to finish its last line), about S references at 16 bytes a line;
//! - an rdtools trace: chunk `g` is trace chunks `[K·g, K·(g+1))` of the analysed thread in
//!   sequence order, K trace chunks holding about S events; each rank decodes only its own;
//! - the merged order of a multi-threaded trace: chunk `g` is window `g` of stamps, about S
//!   accesses, found by a collective pre-pass over the chunks ([`merged`]).
//!
//! Any split into consecutive chunks gives the exact histogram (PARDA's Property 4.1), so the
//! approximate line and event counts only balance the work. Run outside `mpirun` the engine
//! runs as a single rank (MPI singleton start).

use super::InputFormat;
use super::{emit_report, granularity, EngineChoice, HistogramArgs, HistogramReport};
use crate::exit::ReportedElsewhere;
use anyhow::Result;
use rdengines::{Granularity, Histogram};
use rdmpi::mpi::traits::{Communicator, CommunicatorCollectives};
use rdmpi::{ChunkSource, MpiError, MpiPardaConfig, RankStats, Step};
use rdtrace::reader::EventChunkRef;
use rdtrace::{EventVisitor, Trace};

mod merged;
use serde::Serialize;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// References per rank and phase when `--chunk` is not given: 2^25. A rank never holds its
/// chunk (it reads one source chunk at a time), so larger phases cost no memory and mean fewer
/// local infinities in all; on the benchmark workload P = 2 ran 10 % faster than at 2^23.
pub const DEFAULT_CHUNK: usize = 1 << 25;
/// Most references of a source chunk of PARDA binary input (512 KiB).
const BINARY_SLICE: u64 = 1 << 16;
/// Bytes per line assumed when cutting a text file into chunks.
const TEXT_LINE_BYTES: u64 = 16;

/// Ends a failed collective step on every rank: the one rank that reports prints its message
/// *before* a barrier, so that no rank exits (and makes `mpirun` kill the others) before the
/// message is out; every rank then returns a [`ReportedElsewhere`] with the failure's status.
fn stop<C: Communicator>(world: &C, message: Option<String>, usage: bool) -> anyhow::Error {
    if let Some(m) = message {
        eprintln!("rda-report: error: {m}");
        if usage {
            eprintln!("For more information, try '--help'.");
        }
    }
    world.barrier();
    anyhow::Error::new(ReportedElsewhere { usage })
}

/// Maps an MPI run's error: this rank's message printed once, or a silent failure.
fn mpi_error<C: Communicator>(world: &C, e: MpiError) -> anyhow::Error {
    match e {
        MpiError::Failed { .. } => stop(world, Some(e.to_string()), false),
        MpiError::Elsewhere { .. } => stop(world, None, false),
    }
}

/// Runs `histogram` with `--engine parda-mpi` on every rank; rank 0 prints the report.
pub fn run(args: &HistogramArgs) -> Result<()> {
    let universe =
        rdmpi::mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI was already initialised"))?;
    let world = universe.world();
    // Every rank sees the same command line: rank 0 reports a usage error, the others exit
    // with the same status silently.
    let usage_once = |message: String| stop(&world, (world.rank() == 0).then_some(message), true);
    if args.threads.is_some() {
        return Err(usage_once(
            "--threads does not apply to parda-mpi (the ranks are `mpirun -np P`)".into(),
        ));
    }
    let mut cfg = MpiPardaConfig {
        bound: args.bound,
        ..MpiPardaConfig::default()
    };
    // A rank's chunk of a phase is `chunks_per_rank` source chunks on average (fewer at the
    // holder, more elsewhere), so the phase stays `P × --chunk` references.
    let planned = args.chunk.unwrap_or(DEFAULT_CHUNK).max(1) as u64;
    let mut chunk = planned.div_ceil(cfg.chunks_per_rank);
    if args.input_format == InputFormat::PardaBinary && chunk > BINARY_SLICE {
        // Binary slices cost one read each and nothing to decode: small ones stay in the
        // core's cache between the read and the analysis, and end a phase more finely.
        chunk = BINARY_SLICE;
        cfg.chunks_per_rank = planned.div_ceil(chunk);
    }
    let gran = granularity(args.line);
    let mut per_thread = Vec::new();
    let mut stats: Vec<Vec<RankStats>> = Vec::new();
    let all = match args.input_format {
        InputFormat::PardaText | InputFormat::PardaBinary => {
            if args.per_thread {
                return Err(usage_once(
                    "--per-thread needs an rdtools trace, not a PARDA input".into(),
                ));
            }
            let opened = if args.input_format == InputFormat::PardaText {
                TextSource::open(&args.trace, chunk, gran)
                    .map(|s| Box::new(s) as Box<dyn ChunkSource>)
            } else {
                BinarySource::open(&args.trace, chunk, gran)
                    .map(|s| Box::new(s) as Box<dyn ChunkSource>)
            };
            let mut source = rdmpi::agree(&world, opened).map_err(|e| mpi_error(&world, e))?;
            let out = rdmpi::run(&world, source.as_mut(), cfg).map_err(|e| mpi_error(&world, e))?;
            out.map(|(h, s)| {
                stats.push(s);
                h
            })
        }
        InputFormat::Rdtrace => {
            let opened =
                Trace::open_with(&args.trace, args.open.options()).map_err(|e| format!("{e:#}"));
            let trace = rdmpi::agree(&world, opened).map_err(|e| mpi_error(&world, e))?;
            if world.rank() == 0 {
                for w in trace.warnings() {
                    eprintln!("rda-report: warning: {w}");
                }
            }
            let threads = trace.thread_indices();
            if !args.per_thread && threads.len() > 1 {
                // The merged order: windows of stamps found by a collective pre-pass.
                let plan = merged_plan(&world, &trace, chunk)?;
                let mut source = MergedSource {
                    plan,
                    window: chunk,
                    reader: rdmpi::agree(&world, trace.chunk_reader().map_err(|e| e.to_string()))
                        .map_err(|e| mpi_error(&world, e))?,
                    gran,
                };
                let out = rdmpi::run(&world, &mut source, cfg).map_err(|e| mpi_error(&world, e))?;
                let all = out.map(|(h, s)| {
                    stats.push(s);
                    h
                });
                return finish(args, &world, all, &stats, &per_thread);
            }
            let mut all = Histogram::new_exact();
            all.bound = args.bound;
            for t in threads {
                let mut source = TraceSource::new(&trace, t, chunk, gran);
                let out = rdmpi::run(&world, &mut source, cfg).map_err(|e| mpi_error(&world, e))?;
                if let Some((h, s)) = out {
                    all.merge(&h);
                    stats.push(s);
                    per_thread.push((t, h));
                }
            }
            if !args.per_thread {
                per_thread.clear();
            }
            (world.rank() == 0).then_some(all)
        }
    };
    finish(args, &world, all, &stats, &per_thread)
}

/// Rank 0 prints the report (and writes `--mpi-stats`); the other ranks print nothing.
fn finish<C: Communicator>(
    args: &HistogramArgs,
    world: &C,
    all: Option<Histogram>,
    stats: &[Vec<RankStats>],
    per_thread: &[(u32, Histogram)],
) -> Result<()> {
    let Some(all) = all else {
        return Ok(());
    };
    if let Some(path) = &args.mpi_stats {
        write_stats(path, world.size(), stats)?;
    }
    let report = HistogramReport::of(args, EngineChoice::PardaMpi, None);
    emit_report(&report, &all, per_thread)
}

/// The windows of the merged order of a multi-threaded trace ([`merged`]): every rank decodes
/// every P-th events chunk once and summarises it, the summaries are all-gathered, and every
/// rank builds the same plan with windows of about `window` accesses. Collective.
fn merged_plan<C: Communicator>(
    world: &C,
    trace: &Trace,
    window: u64,
) -> Result<merged::MergedPlan> {
    use rdmpi::mpi::datatype::PartitionMut;
    use rdmpi::mpi::Count;
    let chunks = trace.event_chunks();
    let (me, np) = (world.rank() as usize, world.size() as usize);
    let local = (|| {
        let mut reader = trace.chunk_reader().map_err(|e| e.to_string())?;
        let (mut words, mut events) = (Vec::new(), Vec::new());
        for i in (me..chunks.len()).step_by(np) {
            events.clear();
            reader
                .visit_chunk(&chunks[i], &mut events)
                .map_err(|e| e.to_string())?;
            words.push(i as u64);
            merged::ChunkSummary::of(&events).encode(&mut words);
        }
        Ok(words)
    })();
    let words = rdmpi::agree(world, local).map_err(|e| mpi_error(world, e))?;
    let mut counts = vec![0 as Count; np];
    world.all_gather_into(&(words.len() as Count), &mut counts[..]);
    let displs: Vec<Count> = counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect();
    let mut all = vec![0u64; counts.iter().map(|&c| c as usize).sum()];
    {
        let mut recv = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
        world.all_gather_varcount_into(&words[..], &mut recv);
    }
    let mut summaries = vec![merged::ChunkSummary::default(); chunks.len()];
    let mut rest = &all[..];
    while let Some((&i, after)) = rest.split_first() {
        let (s, after) = merged::ChunkSummary::decode(after)
            .expect("summaries are decoded as this binary encoded them");
        summaries[i as usize] = s;
        rest = after;
    }
    Ok(merged::MergedPlan::new(trace, &summaries, window))
}

/// The merged order of a multi-threaded trace, one window per source chunk.
struct MergedSource<'t> {
    plan: merged::MergedPlan,
    /// Accesses per window, about.
    window: u64,
    reader: rdtrace::reader::ChunkReader<'t>,
    gran: Granularity,
}

impl ChunkSource for MergedSource<'_> {
    fn chunks(&self) -> u64 {
        self.plan.windows()
    }

    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String> {
        self.plan
            .read_window(&mut self.reader, index, self.gran, out)
    }

    fn chunk_refs(&self) -> u64 {
        self.window
    }
}

/// Per-rank statistics of `--mpi-stats`, summed over runs (threads with `--per-thread`).
#[derive(Serialize)]
struct StatsJson {
    ranks: i32,
    per_rank: Vec<RankJson>,
}

#[derive(Serialize)]
struct RankJson {
    rank: u32,
    references: u64,
    received_infinities: u64,
    bytes_sent: u64,
    messages: u64,
    phases: u64,
    peak_rss_bytes: u64,
    /// Seconds in each step of the phases (read, own_chunk, infinities, reduce): waiting
    /// included, so a rank's idle time shows in the step it waited in.
    seconds: std::collections::BTreeMap<&'static str, f64>,
}

/// Writes the per-rank statistics as JSON.
fn write_stats(path: &Path, ranks: i32, runs: &[Vec<RankStats>]) -> Result<()> {
    let mut per_rank: Vec<RankJson> = (0..ranks as u32)
        .map(|rank| RankJson {
            rank,
            references: 0,
            received_infinities: 0,
            bytes_sent: 0,
            messages: 0,
            phases: 0,
            peak_rss_bytes: 0,
            seconds: Step::ALL.iter().map(|s| (s.name(), 0.0)).collect(),
        })
        .collect();
    for run in runs {
        for s in run {
            let r = &mut per_rank[s.rank as usize];
            r.references += s.references;
            r.received_infinities += s.received;
            r.bytes_sent += s.bytes_sent;
            r.messages += s.messages;
            r.phases += s.phases;
            r.peak_rss_bytes = r.peak_rss_bytes.max(s.peak_rss);
            for step in Step::ALL {
                *r.seconds.get_mut(step.name()).expect("every step") +=
                    s.step_ns[step as usize] as f64 * 1e-9;
            }
        }
    }
    let json = serde_json::to_string_pretty(&StatsJson { ranks, per_rank })?;
    std::fs::write(path, json + "\n")
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))
}

/// Opens `path` for a rank, naming the file in the error.
fn open_file(path: &Path) -> Result<(File, u64), String> {
    let f = File::open(path).map_err(|e| format!("opening {}: {e}", path.display()))?;
    let len = f
        .metadata()
        .map_err(|e| format!("reading the size of {}: {e}", path.display()))?
        .len();
    Ok((f, len))
}

/// PARDA binary input (little-endian u64 addresses) sliced by byte range.
struct BinarySource {
    path: PathBuf,
    file: File,
    len: u64,
    chunk: u64,
    gran: Granularity,
}

impl BinarySource {
    fn open(path: &Path, chunk: u64, gran: Granularity) -> Result<Self, String> {
        let (file, len) = open_file(path)?;
        if len % 8 != 0 {
            return Err(format!(
                "{}: length {len} is not a multiple of 8 bytes (raw little-endian u64 addresses expected)",
                path.display()
            ));
        }
        Ok(BinarySource {
            path: path.to_path_buf(),
            file,
            len,
            chunk,
            gran,
        })
    }
}

impl ChunkSource for BinarySource {
    fn chunks(&self) -> u64 {
        (self.len / 8).div_ceil(self.chunk)
    }

    fn chunk_refs(&self) -> u64 {
        self.chunk
    }

    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String> {
        use std::os::fd::AsRawFd;
        let start = index * self.chunk * 8;
        let end = (start + self.chunk * 8).min(self.len);
        let n = ((end - start) / 8) as usize;
        // Read straight into the output's spare room (no staging buffer, no zeroing first),
        // then turn the words into blocks in place where that changes them.
        out.reserve(n);
        let old = out.len();
        let room = out.spare_capacity_mut()[..n].as_mut_ptr().cast::<u8>();
        let mut done = 0usize;
        while done < n * 8 {
            // Safety: `room` has `n * 8` writable bytes (reserved above), of which `done` are
            // filled; pread writes at most the `n * 8 - done` bytes it is given.
            let got = unsafe {
                libc::pread(
                    self.file.as_raw_fd(),
                    room.add(done).cast(),
                    n * 8 - done,
                    (start + done as u64) as libc::off_t,
                )
            };
            match got {
                0 => {
                    return Err(format!(
                        "reading {}: the file ended early",
                        self.path.display()
                    ))
                }
                g if g < 0 => {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != std::io::ErrorKind::Interrupted {
                        return Err(format!("reading {}: {e}", self.path.display()));
                    }
                }
                g => done += g as usize,
            }
        }
        // Safety: the `n` words after `old` were all written by pread above, and any bit
        // pattern is a valid u64.
        unsafe { out.set_len(old + n) };
        let shift = self.gran.shift();
        if shift != 0 || cfg!(target_endian = "big") {
            for w in &mut out[old..] {
                *w = u64::from_le(*w) >> shift;
            }
        }
        Ok(())
    }
}

/// PARDA text input (one hexadecimal address per line) sliced by byte range at line starts.
struct TextSource {
    path: PathBuf,
    file: File,
    len: u64,
    chunk_bytes: u64,
    gran: Granularity,
}

impl TextSource {
    fn open(path: &Path, chunk: u64, gran: Granularity) -> Result<Self, String> {
        let (file, len) = open_file(path)?;
        Ok(TextSource {
            path: path.to_path_buf(),
            file,
            len,
            chunk_bytes: chunk.saturating_mul(TEXT_LINE_BYTES),
            gran,
        })
    }
}

impl ChunkSource for TextSource {
    fn chunks(&self) -> u64 {
        self.len.div_ceil(self.chunk_bytes)
    }

    fn chunk_refs(&self) -> u64 {
        // Lines of the assumed mean length; shorter ones only make some sends blocking.
        self.chunk_bytes / TEXT_LINE_BYTES
    }

    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String> {
        let path = self.path.display().to_string();
        let io = |e: std::io::Error| format!("reading {path}: {e}");
        let lo = index * self.chunk_bytes;
        let hi = (lo + self.chunk_bytes).min(self.len);
        // A line belongs to the chunk its first byte lies in: start after the line that
        // covers byte lo − 1 (nothing to skip when that byte ends a line).
        let mut pos = lo.saturating_sub(1);
        self.file.seek(SeekFrom::Start(pos)).map_err(io)?;
        let mut r = BufReader::with_capacity(1 << 20, &self.file);
        let mut line = Vec::new();
        if lo > 0 {
            pos += r.read_until(b'\n', &mut line).map_err(io)? as u64;
        }
        while pos < hi {
            line.clear();
            let n = r.read_until(b'\n', &mut line).map_err(io)?;
            if n == 0 {
                break;
            }
            let at = pos;
            pos += n as u64;
            let s = std::str::from_utf8(&line)
                .map_err(|_| format!("{path}: byte {at}: a line that is not text"))?;
            let Some(addr) = super::parse_parda_line(s) else {
                continue;
            };
            let addr = addr.map_err(|_| {
                format!(
                    "{path}: line at byte {at}: {:?} is not a hexadecimal address",
                    s.trim()
                )
            })?;
            out.push(self.gran.block_of(addr));
        }
        Ok(())
    }
}

/// One thread of an rdtools trace sliced by its chunk index.
struct TraceSource<'t> {
    trace: &'t Trace,
    chunks: Vec<EventChunkRef>,
    /// Trace chunks per rank chunk.
    per: usize,
    /// Mean events per trace chunk.
    mean_events: u64,
    gran: Granularity,
}

impl<'t> TraceSource<'t> {
    fn new(trace: &'t Trace, thread: u32, chunk: u64, gran: Granularity) -> Self {
        let chunks: Vec<EventChunkRef> = trace
            .event_chunks()
            .iter()
            .filter(|c| c.thread == thread)
            .copied()
            .collect();
        let events: u64 = chunks.iter().map(|c| c.events as u64).sum();
        let mean = events.div_ceil(chunks.len().max(1) as u64).max(1);
        TraceSource {
            trace,
            chunks,
            per: chunk.div_ceil(mean).max(1) as usize,
            mean_events: mean,
            gran,
        }
    }
}

/// Collects the blocks of every access of a chunk.
struct Blocks<'a> {
    out: &'a mut Vec<u64>,
    gran: Granularity,
}

impl EventVisitor for Blocks<'_> {
    fn access(&mut self, _mi: u32, addr: u64, len: u64) {
        let out = &mut *self.out;
        self.gran.for_each_block(addr, len, |b| out.push(b));
    }
}

impl ChunkSource for TraceSource<'_> {
    fn chunks(&self) -> u64 {
        self.chunks.len().div_ceil(self.per) as u64
    }

    fn chunk_refs(&self) -> u64 {
        // Accesses that span several blocks give more; they only make some sends blocking.
        (self.per as u64).saturating_mul(self.mean_events)
    }

    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String> {
        let start = index as usize * self.per;
        let end = (start + self.per).min(self.chunks.len());
        let mut reader = self.trace.chunk_reader().map_err(|e| e.to_string())?;
        let mut blocks = Blocks {
            out,
            gran: self.gran,
        };
        for c in &self.chunks[start..end] {
            reader
                .visit_chunk(c, &mut blocks)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
