//! `rda-report annotate`: accesses, cold misses, reuse-distance percentiles and simulated L1/L2
//! misses per source line and per function, like `cg_annotate`; with `--source-dir`, the
//! hottest source lines printed with their counts in the margin; with `--false-sharing`, the
//! cache lines and source lines with coherence misses ([`false_sharing`]).

pub mod false_sharing;

use crate::commands::flags::CacheArgs;
use crate::output::{Format, OutputArgs, Table};
use anyhow::{Context, Result};
use rdannotate::{annotate_with_progress, AnnotateConfig, Annotation, Counts, LineStats};
use rdcachesim::CacheConfig;
use rdtrace::demangle::{demangled, display_name, is_mangled, short_name};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Arguments of `annotate`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    long_about = "Charges every cache-line reference of a run to the source line and function of \
its memory instruction: accesses (events), references (cache lines), cold misses (first touch of \
a line by any thread), reuse-distance percentiles (distinct other lines between two references \
to a line, all threads in stamp order, cold references excluded; exact below 1024, rounded down \
to 1/16 of a power of two above), and L1/L2 misses of the exact LRU simulator (a private L1 per \
thread, one shared L2, write-invalidate coherence between the L1s as in `measure`). Rows are \
sorted by L1 misses, then L2 misses.

The L1 misses are split into the 3 Cs plus coherence (they add up to the L1 misses exactly): \
compulsory (the thread's L1 never had the line; differs from `cold`, which counts a line's first \
touch by any thread), capacity (a fully associative LRU L1 of the same size misses too), conflict \
(the rest: the set mapping) and coherence (another thread's write invalidated the line; --json \
splits it into true sharing, the same bytes, and false sharing, other bytes of the line).

--false-sharing prints the false-sharing view instead of the tables: the cache lines with \
coherence misses (most first, --false-sharing-top of them), each with its true/false sharing \
misses, the threads that touched it and the bytes of the line each wrote and read, the source \
lines whose accesses touched it, a verdict and the fix: for false sharing (the threads' written \
bytes are disjoint) the padding, e.g. per-thread elements of one array padded to the line size; \
for true sharing, that padding will not help. Then the source lines with coherence misses and the \
source lines whose writes from other threads invalidated their cache lines. A line is recorded \
from its first coherence miss on (an earlier write is recalled when still known).

Only functions that executed are listed: the function table has a row for each function with at \
least one executed memory access, and a source line names only the functions that executed it (an \
inlined header function has instructions in every function that inlined it, most of which may \
never run).

C++ and Fortran names are shown readable: `kernel(double*, int)` in the function table, \
`Domain::update` (no parameters) beside a source line, `heat::step` for flang's `_QMheatPstep`; \
C names are shown as they are. --json keeps the linker symbol where it always was (`name` of a \
function row, `functions` of a line row) and adds the readable form beside it for the names that \
differ: `name_demangled` (\"kernel(double*, int)\" beside \"_Z6kernelPdi\") and \
`functions_demangled` (all of the line's functions, in the same order).",
    after_help = "Examples:\n  rdcc -O1 -g app.c -o app && RDTRACE=app.rdtrace ./app\n  rda-report annotate app.rdtrace --source-dir .\n  rda-report annotate app.rdtrace --l1 32K:8:64 --l2 1M:16:64 --top 10 --json\n  rda-report annotate app.rdtrace --csv > lines.csv\n  rda-report annotate omp.rdtrace --false-sharing --false-sharing-top 5\n\nMemory: one reuse stack over all threads and one per thread (distinct lines), the simulated caches, and one row per source line and function; with --false-sharing, at most --false-sharing-max-lines recorded cache lines (16 instructions each); the events stream in stamp order. From a stream (`-`, a pipe): the same, plus the compressed chunks the merge in stamp order holds until every thread's next event is known; a trace file piped in does not say when a thread is done, so that can be the whole compressed trace until the input ends.\n\n\
Time: about twice `histogram`'s on the same trace (app_mix: 1.07 s against 0.48 s): two reuse \
stacks (on a thread of their own), the coherent simulated caches with the shadow that splits \
their misses into the four kinds, and a source-line row updated per access."
)]
pub struct AnnotateArgs {
    /// Trace file; `-` reads standard input, and a pipe or FIFO is read as a stream too (one pass, the same report).
    pub trace: PathBuf,
    #[command(flatten)]
    pub open: crate::tracefile::OpenArgs,
    /// Print the hottest source lines of files found under DIR with counts in the margin.
    #[arg(long, value_name = "DIR")]
    pub source_dir: Option<PathBuf>,
    /// L1 and L2 geometry (both with the same line size).
    #[command(flatten)]
    pub caches: CacheArgs,
    /// Rows of each table (and hot lines annotated; 0 to 2^32); 0 prints all.
    #[arg(long, default_value_t = 20,
          value_parser = crate::commands::flags::int_in("--top", 0usize, crate::commands::flags::FOUR_G as usize),
          allow_negative_numbers = true)]
    pub top: usize,
    /// Source lines of context around each hot line with --source-dir (0 to 1000).
    #[arg(long, default_value_t = 2, value_parser = crate::commands::flags::int_in("--context", 0usize, 1000),
          allow_negative_numbers = true)]
    pub context: usize,
    /// Print the false-sharing view: the cache lines and source lines with coherence misses,
    /// the threads and bytes, and the padding that would fix false sharing.
    #[arg(long)]
    pub false_sharing: bool,
    /// Cache lines shown by --false-sharing (0 to 2^32; 0 shows all recorded); the rest are
    /// counted, and --json lists every recorded line.
    #[arg(long, default_value_t = false_sharing::DEFAULT_TOP, requires = "false_sharing",
          value_parser = crate::commands::flags::int_in("--false-sharing-top", 0usize, crate::commands::flags::FOUR_G as usize),
          allow_negative_numbers = true)]
    pub false_sharing_top: usize,
    /// Cache lines with coherence misses recorded at most by --false-sharing (1 to 2^20); the
    /// coherence misses of further lines are counted only.
    #[arg(long, default_value_t = false_sharing::DEFAULT_MAX_LINES, requires = "false_sharing",
          value_parser = crate::commands::flags::int_in("--false-sharing-max-lines", 1usize, 1 << 20),
          allow_negative_numbers = true)]
    pub false_sharing_max_lines: usize,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Reuse-distance percentiles shown for every row.
pub const PERCENTILES: [f64; 3] = [50.0, 90.0, 99.0];

/// One row of the JSON output.
#[derive(Serialize)]
pub struct RowJson {
    /// `file:line` or function name (the linker symbol).
    pub name: String,
    /// A function row's readable name, when it differs from the symbol (C++, Fortran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_demangled: Option<String>,
    /// Counts.
    #[serde(flatten)]
    pub counts: Counts,
    /// `[p50, p90, p99]` of the finite reuse distances (`null` when none).
    pub distance_percentiles: [Option<u64>; 3],
}

/// Converts counts to a JSON row.
pub fn row_json(name: String, c: &Counts) -> RowJson {
    RowJson {
        name,
        name_demangled: None,
        counts: c.clone(),
        distance_percentiles: PERCENTILES.map(|p| c.percentile(p)),
    }
}

#[derive(Serialize)]
struct Output {
    trace: String,
    l1: String,
    l2: String,
    threads: usize,
    total: RowJson,
    lines: Vec<LineJson>,
    functions: Vec<RowJson>,
    /// With --source-dir: the annotated excerpts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    source: Vec<SourceExcerpt>,
    /// With --false-sharing: the view (every recorded cache line; functions by readable name).
    #[serde(skip_serializing_if = "Option::is_none")]
    false_sharing: Option<rdannotate::FalseSharing>,
}

#[derive(Serialize)]
struct LineJson {
    file: String,
    line: u32,
    functions: Vec<String>,
    /// The readable names of `functions`, when one of them differs from its symbol.
    #[serde(skip_serializing_if = "Option::is_none")]
    functions_demangled: Option<Vec<String>>,
    #[serde(flatten)]
    row: RowJson,
}

/// The readable names of a line's functions (without C++ parameter lists), comma-separated as
/// symbols always were; with "; " when a name itself has a comma (`std::map<int, double>::at`).
pub fn line_functions(l: &LineStats) -> String {
    let names: Vec<_> = l.functions.iter().map(|f| short_name(f)).collect();
    let separator = if names.iter().any(|n| n.contains(',')) {
        "; "
    } else {
        ","
    };
    names.join(separator)
}

/// `file:line` of a row.
pub fn line_label(l: &LineStats) -> String {
    if l.line == 0 {
        format!("{} (unknown line)", l.file)
    } else {
        format!("{}:{}", l.file, l.line)
    }
}

fn fmt_pct(p: Option<u64>) -> String {
    p.map_or("-".into(), |d| d.to_string())
}

fn counts_cells(c: &Counts) -> Vec<String> {
    let mut v = vec![
        c.accesses.to_string(),
        c.references.to_string(),
        c.cold.to_string(),
    ];
    v.extend(PERCENTILES.map(|p| fmt_pct(c.percentile(p))));
    v.push(c.l1_misses.to_string());
    let k = &c.l1_kinds;
    v.extend([k.compulsory, k.capacity, k.conflict, k.coherence].map(|n| n.to_string()));
    v.push(c.l2_misses.to_string());
    v
}

const COUNT_HEADERS: [&str; 12] = [
    "accesses",
    "line refs",
    "cold",
    "RD p50",
    "RD p90",
    "RD p99",
    "L1 misses",
    "compulsory",
    "capacity",
    "conflict",
    "coherence",
    "L2 misses",
];

fn take<T>(v: &[T], top: usize) -> &[T] {
    if top == 0 {
        v
    } else {
        &v[..v.len().min(top)]
    }
}

/// The per-line and per-function tables of an annotation.
pub fn tables(a: &Annotation, top: usize) -> Vec<Table> {
    let mut lines = Table::new(
        ["source line", "function"]
            .into_iter()
            .chain(COUNT_HEADERS)
            .collect::<Vec<_>>(),
    )
    .titled(format!(
        "Source lines by misses (L1 {} per thread, L2 {} shared; {} of {} lines shown)",
        a.config.l1,
        a.config.l2,
        take(&a.lines, top).len(),
        a.lines.len()
    ));
    for l in take(&a.lines, top) {
        let mut row = vec![line_label(l), line_functions(l)];
        row.extend(counts_cells(&l.counts));
        lines.rows.push(row);
    }
    let mut total = vec!["total".to_string(), String::new()];
    total.extend(counts_cells(&a.total));
    lines.rows.push(total);
    let mut funcs = Table::new(
        ["function", "location"]
            .into_iter()
            .chain(COUNT_HEADERS)
            .collect::<Vec<_>>(),
    )
    .titled(format!(
        "Functions by misses ({} of {} shown)",
        take(&a.functions, top).len(),
        a.functions.len()
    ));
    for f in take(&a.functions, top) {
        let mut row = vec![display_name(&f.name).into_owned(), f.location.clone()];
        row.extend(counts_cells(&f.counts));
        funcs.rows.push(row);
    }
    vec![lines, funcs]
}

/// Finds a source file recorded in the debug information: as given when it exists (absolute
/// paths), else under `dir`, else its base name under `dir`.
pub fn find_source(dir: &Path, recorded: &str) -> Option<PathBuf> {
    let p = Path::new(recorded);
    let candidates = [
        dir.join(p.strip_prefix("/").unwrap_or(p)),
        dir.join(p.file_name()?),
        p.to_path_buf(),
    ];
    candidates.into_iter().find(|c| c.is_file())
}

/// One source line of an annotated excerpt: the counts (for hot lines) and the text.
#[derive(Clone, Debug, Serialize)]
pub struct SourceLine {
    /// 1-based line number.
    pub line: u32,
    /// The line's counts when it made accesses.
    pub counts: Option<(u64, u64, u64)>,
    /// Whether it is among the hottest lines.
    pub hot: bool,
    /// The source text.
    pub text: String,
}

/// One file's excerpt: the hot lines with `context` lines around them.
#[derive(Clone, Debug, Serialize)]
pub struct SourceExcerpt {
    /// The file as recorded in the debug information.
    pub file: String,
    /// Where it was found.
    pub path: String,
    /// Runs of consecutive lines; gaps between runs were elided.
    pub runs: Vec<Vec<SourceLine>>,
}

/// Excerpts of the files of the `top` hottest lines found under `dir`, with every line's
/// (accesses, L1 misses, L2 misses) in the margin; files not found are named in the result.
pub fn excerpts(
    a: &Annotation,
    dir: &Path,
    top: usize,
    context: usize,
) -> (Vec<SourceExcerpt>, Vec<String>) {
    let hot: Vec<&LineStats> = take(&a.lines, top).iter().filter(|l| l.line > 0).collect();
    let mut by_file: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for l in &hot {
        by_file.entry(&l.file).or_default().push(l.line);
    }
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for (file, hot_lines) in by_file {
        let Some(path) = find_source(dir, file) else {
            missing.push(file.to_string());
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            missing.push(file.to_string());
            continue;
        };
        let counts: BTreeMap<u32, (u64, u64, u64)> = a
            .lines
            .iter()
            .filter(|l| l.file == file)
            .map(|l| {
                (
                    l.line,
                    (l.counts.accesses, l.counts.l1_misses, l.counts.l2_misses),
                )
            })
            .collect();
        let lines: Vec<&str> = text.lines().collect();
        let mut shown = vec![false; lines.len() + 1];
        for &h in &hot_lines {
            let h = h as usize;
            let (first, last) = (
                h.saturating_sub(context).max(1),
                (h + context).min(lines.len()),
            );
            if first <= last {
                shown[first..=last].iter_mut().for_each(|x| *x = true);
            }
        }
        let mut runs: Vec<Vec<SourceLine>> = Vec::new();
        let mut prev = 0;
        for (n, text) in lines.iter().enumerate() {
            let n = n + 1;
            if !shown[n] {
                continue;
            }
            if prev + 1 != n || runs.is_empty() {
                runs.push(Vec::new());
            }
            prev = n;
            runs.last_mut().unwrap().push(SourceLine {
                line: n as u32,
                counts: counts.get(&(n as u32)).copied(),
                hot: hot_lines.contains(&(n as u32)),
                text: text.to_string(),
            });
        }
        out.push(SourceExcerpt {
            file: file.to_string(),
            path: path.display().to_string(),
            runs,
        });
    }
    (out, missing)
}

fn render_excerpts(ex: &[SourceExcerpt]) -> String {
    let mut s = String::new();
    for e in ex {
        s.push_str(&format!(
            "-- {} ({}) {}\n{:>12} {:>10} {:>10}  line\n",
            e.file,
            e.path,
            "-".repeat(20),
            "accesses",
            "L1 misses",
            "L2 misses"
        ));
        for (i, run) in e.runs.iter().enumerate() {
            if i > 0 {
                s.push_str(&format!("{:>34}  ...\n", ""));
            }
            for l in run {
                let margin = match l.counts {
                    Some((a, m1, m2)) => format!("{a:>12} {m1:>10} {m2:>10}"),
                    None => format!("{:>12} {:>10} {:>10}", ".", ".", "."),
                };
                let mark = if l.hot { '>' } else { ' ' };
                s.push_str(&format!("{margin} {mark}{:>5}  {}\n", l.line, l.text));
            }
        }
        s.push('\n');
    }
    s
}

/// A usage error (status 2) when the L1 and L2 line sizes differ: distances and misses are
/// counted in one line size.
pub fn check_line_sizes(l1: &CacheConfig, l2: &CacheConfig) -> Result<()> {
    if l1.line != l2.line {
        return Err(crate::exit::usage(format!(
            "--l1 has {}-byte lines and --l2 {}-byte lines; give both the same line size",
            l1.line, l2.line
        )));
    }
    Ok(())
}

/// Annotates a stream: the events merged in stamp order as they arrive, each thread a core of
/// its own from its first access (the report does not depend on the cores' numbers).
fn annotate_stream(
    mut input: crate::tracefile::Input,
    config: AnnotateConfig,
) -> Result<rdannotate::Annotation> {
    let meta = input.meta().clone();
    let mut a = rdannotate::Annotator::new(&meta, config)?;
    // The thread of each core, and each thread's core.
    let mut cores: Vec<u32> = Vec::new();
    let mut core_of: std::collections::HashMap<u32, usize> = Default::default();
    for r in input.merged()? {
        if let (t, rdtrace::Event::Access { mi, addr, len }) = r? {
            let core = *core_of.entry(t).or_insert_with(|| {
                cores.push(t);
                cores.len() - 1
            });
            a.access(core, mi, addr, len);
        }
    }
    input.finish()?;
    Ok(a.finish(&cores))
}

/// Runs `annotate`.
pub fn run(args: &AnnotateArgs) -> Result<()> {
    crate::commands::annotate::check_line_sizes(&args.caches.l1, &args.caches.l2)?;
    let input = crate::tracefile::open_input(&args.trace, &args.open)?;
    let bar = crate::progress::bar(input.total_events(), "annotating", args.out.quiet);
    let config = AnnotateConfig {
        l1: args.caches.l1,
        l2: args.caches.l2,
        false_sharing: args.false_sharing.then_some(rdcachesim::SharingConfig {
            max_lines: args.false_sharing_max_lines,
            max_sources: 16,
        }),
    };
    let a = match input {
        crate::tracefile::Input::File(trace) => {
            annotate_with_progress(&trace, config, |n| bar.set_position(n)).map_err(Into::into)
        }
        stream => annotate_stream(stream, config),
    }
    .with_context(|| format!("annotating {}", args.trace.display()))?;
    bar.finish_and_clear();
    let (excerpts, missing) = match &args.source_dir {
        Some(dir) => excerpts(&a, dir, args.top, args.context),
        None => (Vec::new(), Vec::new()),
    };
    for f in &missing {
        eprintln!(
            "rda-report: warning: source {f} not found under {}",
            args.source_dir
                .as_deref()
                .unwrap_or(Path::new("."))
                .display()
        );
    }
    let json = Output {
        trace: args.trace.display().to_string(),
        l1: a.config.l1.to_string(),
        l2: a.config.l2.to_string(),
        threads: a.threads,
        total: row_json("total".into(), &a.total),
        lines: take(&a.lines, args.top)
            .iter()
            .map(|l| LineJson {
                file: l.file.clone(),
                line: l.line,
                functions: l.functions.clone(),
                functions_demangled: l.functions.iter().any(|f| is_mangled(f)).then(|| {
                    l.functions
                        .iter()
                        .map(|f| display_name(f).into_owned())
                        .collect()
                }),
                row: row_json(line_label(l), &l.counts),
            })
            .collect(),
        functions: take(&a.functions, args.top)
            .iter()
            .map(|f| RowJson {
                name_demangled: demangled(&f.name),
                ..row_json(f.name.clone(), &f.counts)
            })
            .collect(),
        source: if args.out.format() == Format::Json {
            excerpts.clone()
        } else {
            Vec::new()
        },
        false_sharing: a.false_sharing.clone().map(false_sharing::readable),
    };
    let shown = match &a.false_sharing {
        Some(fs) => false_sharing::tables(fs, &a.config.l1.to_string(), args.false_sharing_top),
        None => tables(&a, args.top),
    };
    args.out.emit(&json, &shown)?;
    if args.source_dir.is_some() && !args.false_sharing {
        let ex = excerpts;
        if args.out.format() == Format::Table {
            use std::io::Write;
            let written = write!(
                crate::output::stdout(),
                "\nHottest source lines (`>` marks the {} shown above; `.`: no accesses)\n\n{}",
                take(&a.lines, args.top).len(),
                render_excerpts(&ex)
            );
            match written {
                // A closed pipe (`| head`) is not an error worth reporting.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(e).context("writing output")
                }
                _ => {}
            }
        }
    }
    Ok(())
}
