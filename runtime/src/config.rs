//! Run-time settings from the environment, read once at start-up.
//!
//! - `RDTRACE=path`: trace file (default `<program>.<pid>.rdtrace` in the working directory).
//!   A named pipe (FIFO) works too and makes the trace a live stream.
//! - `RDTRACE=fd:N`: write to the already open file descriptor N (normally a pipe that
//!   `rda-report live` reads). A non-seekable target (pipe, FIFO, socket) gets the stream
//!   variant of the format (`rdtrace::version::STREAM`, with floor chunks).
//! - `RDTRACE_CHUNK_EVENTS=n`: events per chunk (default 262144, counting every iteration a
//!   loop run stands for; a chunk closes after the buffer that reaches it, or after as many
//!   buffers as 8 MiB of their worst-case encoding allows; a crash loses at most the chunks in
//!   the writer's hands per thread when the signal flush cannot run). Each chunk starts its
//!   predictor afresh and is one zstd frame, so fewer, larger chunks encode to fewer bytes with
//!   less work: traced Lua 6.45 -> 5.40 s and 0.375 -> 0.290 bytes per access, C++ shortest
//!   paths 2.18 -> 1.91 s, bfs on 4 threads 6.07 -> 5.65 s at 262144 against 65536 (2-core VM).
//! - `RDTRACE_BUFFER_EVENTS=n`: raw records per buffer a thread hands to the writer (or
//!   encodes into the current chunk itself without one); default 65536 (1 MiB, four to a
//!   chunk, up to eight per thread). Each hand-off costs tens of microseconds on a
//!   2-core VM (the writer reads lines the traced thread just wrote on the other core, and the
//!   two sides sleep and wake), so smaller buffers make tracing slower: stencil 0.30 s at
//!   65536 against 0.65 s at 16384 (native 0.075 s).
//! - `RDTRACE_ZSTD_LEVEL=n`: zstd level for chunks, 0 to store them raw (default 1).
//! - `RDTRACE_STAMP_EVERY=n`: ordering stamp every n block entries. Default: every 16 while
//!   another thread may record, every [`STAMP_EVERY_ALONE`] while the thread is the only one
//!   (its stamps then order it against nothing, and they cost the traced run a fifth of its
//!   time on branchy code); a value given is kept whatever the threads.
//! - `RDTRACE_QUIET=1`: no start/finish lines on stderr (the finish lines give the events
//!   written and where the CPU time went: `crate::cputime`).
//! - `RDTRACE_WRITER=0`: encode and compress on the traced threads instead of on the
//!   background writer's threads.
//! - `RDTRACE_WRITERS=n`: the background writer's workers (1 to [`MAX_WRITERS`]); default one
//!   per CPU the process may run on, at least 2 and at most [`DEFAULT_MAX_WRITERS`] (see
//!   [`default_writers`]).
//! - `RDTRACE_ROI=f1,f2`: record only while one of these functions is on a thread's stack
//!   (a region of interest, see [`crate::roi`]).

use std::sync::OnceLock;

/// Default block entries between stamps while another thread may record: the merge of the
/// threads' streams (`rdtrace::merge`) places a thread's events to within this many blocks.
pub const STAMP_EVERY: u32 = 16;

/// Default block entries between stamps while the thread is the only one that may record (the
/// others, if any, are OpenMP workers waiting between regions: `thread::registry`). Sixteen
/// times sparser: with one thread there is nothing to order, and on branchy code the stamps
/// (an `rdtsc`, a record whose time delta is noise to the encoder and zstd, and a break in
/// every loop period) took a fifth of the traced run and half of Lua's trace; a few stay so
/// that no chunk compresses to nothing (`rdtrace::chunk::MAX_EVENTS_PER_STORED_BYTE`).
pub const STAMP_EVERY_ALONE: u32 = 16 * STAMP_EVERY;

/// Most workers `RDTRACE_WRITERS` may ask for (the writer's per-worker tables are sized for
/// this many).
pub const MAX_WRITERS: usize = 32;

/// Most workers by default: each holds a compressor and two payload buffers (about 10 MiB).
pub const DEFAULT_MAX_WRITERS: usize = 8;

/// The writer's workers when `RDTRACE_WRITERS` is not set: one per CPU the process may run on,
/// from 2 to [`DEFAULT_MAX_WRITERS`]. Encoding and compressing a record costs the writer about
/// three times what recording it costs the traced thread (`perf` of bfs on four threads: the
/// two workers took 70 % of the CPU time, each program thread 7-9 %), so with two workers
/// a program's threads on a larger machine would wait for them. Each thread's chunks go to
/// workers of their own where there are enough (two per thread of a parallel region, up to
/// four for a thread that records alone; see `thread::writer`), so four threads keep eight
/// busy.
pub fn default_writers() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, DEFAULT_MAX_WRITERS)
}

/// The settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// Trace file path (or `fd:N`, as given).
    pub path: String,
    /// The descriptor of `RDTRACE=fd:N`.
    pub fd: Option<i32>,
    /// Events per chunk.
    pub chunk_events: usize,
    /// Raw records per thread buffer.
    pub buffer_events: usize,
    /// zstd level (0 = raw).
    pub zstd_level: i32,
    /// Blocks between stamps while another thread may record.
    pub stamp_every: u32,
    /// Blocks between stamps while the thread is the only one that may record (equal to
    /// `stamp_every` when `RDTRACE_STAMP_EVERY` is set).
    pub stamp_every_alone: u32,
    /// Suppress the informational stderr lines.
    pub quiet: bool,
    /// Hand full buffers to a background writer thread.
    pub background_writer: bool,
    /// The background writer's workers.
    pub writers: usize,
    /// The first number of `OMP_NUM_THREADS` (the threads of the outermost parallel regions),
    /// if it is set: how many threads an OpenMP program will record with.
    pub omp_threads: Option<usize>,
    /// `RDTRACE_ROI`, as given.
    pub roi_functions: Option<String>,
}

static CONFIG: OnceLock<Config> = OnceLock::new();

fn env_num<T: std::str::FromStr>(name: &str, default: T, ok: impl Fn(&T) -> bool) -> T {
    match std::env::var(name) {
        Ok(v) => match v.trim().parse::<T>() {
            Ok(x) if ok(&x) => x,
            _ => {
                crate::diag(&format!("ignoring invalid {name}={v}"));
                default
            }
        },
        Err(_) => default,
    }
}

/// The program's executable name, from /proc (works before `main`, unlike argv helpers).
pub fn program_path() -> String {
    std::fs::read_link("/proc/self/exe")
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "program".into())
}

/// The command line, from /proc.
pub fn program_args() -> Vec<String> {
    std::fs::read("/proc/self/cmdline")
        .map(|b| {
            b.split(|&c| c == 0)
                .filter(|s| !s.is_empty())
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The settings, read on first use.
pub fn get() -> &'static Config {
    CONFIG.get_or_init(|| {
        let path = std::env::var("RDTRACE")
            .ok()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| {
                let exe = program_path();
                let name = std::path::Path::new(&exe)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "program".into());
                format!("{name}.{}.rdtrace", std::process::id())
            });
        let fd = path
            .strip_prefix("fd:")
            .and_then(|n| n.trim().parse::<i32>().ok())
            .filter(|&n| n >= 0);
        let stamp_every = env_num("RDTRACE_STAMP_EVERY", 0u32, |&n| n >= 1);
        let (stamp_every, stamp_every_alone) = match stamp_every {
            0 => (STAMP_EVERY, STAMP_EVERY_ALONE),
            n => (n, n),
        };
        Config {
            path,
            fd,
            chunk_events: env_num("RDTRACE_CHUNK_EVENTS", 262144usize, |&n| {
                (16..=(8 << 20)).contains(&n)
            }),
            buffer_events: env_num("RDTRACE_BUFFER_EVENTS", 65536usize, |&n| {
                (16..=(1 << 20)).contains(&n)
            }),
            zstd_level: env_num("RDTRACE_ZSTD_LEVEL", 1i32, |&n| (0..=19).contains(&n)),
            stamp_every,
            stamp_every_alone,
            quiet: std::env::var("RDTRACE_QUIET").is_ok_and(|v| v != "0"),
            background_writer: std::env::var("RDTRACE_WRITER").map_or(true, |v| v != "0"),
            writers: env_num("RDTRACE_WRITERS", default_writers(), |&n| {
                (1..=MAX_WRITERS).contains(&n)
            }),
            omp_threads: std::env::var("OMP_NUM_THREADS").ok().and_then(|v| {
                let first = v.split(',').next()?.trim().parse::<usize>().ok()?;
                (first > 0).then_some(first)
            }),
            roi_functions: std::env::var(rdtrace::roi::ENV_FUNCTIONS).ok(),
        }
    })
}
