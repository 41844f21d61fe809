//! Opening traces for commands: errors name the file, warnings go to stderr once, and
//! `--strict` (flattened into every command that reads traces) turns warnings into errors.
//!
//! A trace is a file, or a *stream*: `-` (standard input), a pipe, a FIFO or another
//! character device (`/dev/stdin` on a pipe, `<(...)`), which can be read only once, in order.
//! Commands that read a trace in one sequential pass ([`open_input`]: `histogram`, `measure`,
//! `predict`, `annotate`, `simt`, `check`) read a stream with [`rdtrace::LiveTrace`], the
//! reader of `live`, and print what they print for the same trace as a file; commands that
//! seek in the file ([`open`]: `info`, `dump`, `paths`, `paths-predict`, `validate`, `html`)
//! refuse a stream with a usage error (exit status 2) that says so.

use anyhow::Result;
use rdtrace::meta::ProgramMeta;
use rdtrace::{Event, LiveTrace, OpenOptions, Trace};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Trace-reading flags shared by every command that opens a trace.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OpenArgs {
    /// Treat every reader warning as an error: truncation, a missing end chunk, lost chunks,
    /// and a corrupt events chunk that would otherwise end its thread's stream early.
    #[arg(long)]
    pub strict: bool,
    /// Read past damage (a zeroed or overwritten region, a crash mid-write): resynchronise on
    /// the next whole chunk after an unreadable chunk header, skip damaged chunks, drop repeated
    /// ones, and say on stderr how many chunks and events were skipped and, from the end
    /// chunk's counts, how many events are lost. Needs a file, not a stream.
    #[arg(long, conflicts_with = "strict")]
    pub salvage: bool,
    /// Refuse a trace whose accesses touch more than this many bytes beyond their first
    /// 64-byte line (large loads and stores, memcpy/memset ranges), since every analysis
    /// visits each line: `auto` (default) allows the largest of 256 MiB, 8 KiB per byte of
    /// trace and 64 B per access, which real traces stay far below and a crafted file of huge
    /// accesses exceeds; give a size (`64G`) or `unlimited` for a genuine trace of very many
    /// large ranges.
    #[arg(long, value_name = "SIZE|auto|unlimited", default_value = "auto",
          value_parser = touch_limit)]
    pub max_touched: rdtrace::work::TouchLimit,
    /// Not a flag: whether the trace's events are validated as the analysis decodes them
    /// instead of all at open (see [`crate::commands::run`]).
    #[arg(skip)]
    pub deferral: Deferral,
}

/// How a command's reads validate events (see [`crate::commands::run`]).
#[derive(Clone, Debug, Default)]
pub enum Deferral {
    /// All at open.
    #[default]
    Off,
    /// As the analysis decodes them (rdtrace's `OpenOptions::defer_validation`); the warnings
    /// printed are noted.
    Deferring(Warned),
    /// All at open again, after a deferred read met damage: the warnings noted then are not
    /// printed twice (those the validation adds or changes, such as a damaged chunk or a
    /// longer count of lost events, are).
    Revalidating(Warned),
}

/// The warnings a deferred read printed.
pub type Warned = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// Parses `--max-touched`: `auto` (the reader's default bound), `unlimited`, or a number of
/// bytes with an optional binary suffix (`K`, `M`, `G`, `T`, `P`: `64G` is 64 GiB).
pub fn touch_limit(s: &str) -> Result<rdtrace::work::TouchLimit, String> {
    use rdtrace::work::TouchLimit;
    let t = s.trim();
    match t {
        "auto" => return Ok(TouchLimit::Auto),
        "unlimited" | "none" => return Ok(TouchLimit::Unlimited),
        _ => {}
    }
    let rule = "--max-touched takes `auto`, `unlimited`, or a number of bytes with an optional \
                K, M, G, T or P suffix (e.g. 64G)";
    let (digits, suffix) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], Some(c)),
        _ => (t, None),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a number of bytes; {rule}"))?;
    let shift = match suffix.map(|c| c.to_ascii_uppercase()) {
        None => 0,
        Some('K') => 10,
        Some('M') => 20,
        Some('G') => 30,
        Some('T') => 40,
        Some('P') => 50,
        Some(c) => return Err(format!("{s:?}: unknown suffix {c:?}; {rule}")),
    };
    n.checked_mul(1u64 << shift)
        .map(TouchLimit::Bytes)
        .ok_or_else(|| format!("{s:?} is more than 2^64 bytes; use `unlimited`"))
}

/// Whether `path` is standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` names something that can be read only once, in order: `-` on a standard
/// input that is not a regular file, or a FIFO, socket or character device.
pub fn is_stream(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let meta = if is_stdin(path) {
        // `-` redirected from a regular file (`< t.rdtrace`) can seek like the file.
        std::fs::metadata("/dev/stdin")
    } else {
        std::fs::metadata(path)
    };
    match meta {
        Ok(m) => {
            let t = m.file_type();
            t.is_fifo() || t.is_socket() || t.is_char_device()
        }
        // A `-` whose standard input cannot be looked at is still a stream.
        Err(_) => is_stdin(path),
    }
}

/// The usage error of a command that needs to seek in its trace, given a stream.
pub fn needs_a_file(path: &Path, why: &str) -> anyhow::Error {
    let what = if is_stdin(path) {
        "standard input (`-`)".to_string()
    } else {
        format!("{} (a pipe or FIFO)", path.display())
    };
    crate::exit::usage(format!(
        "{what} can only be read once, in order, but {why}; save the trace to a file first \
         (e.g. `cat > t.rdtrace`). histogram, measure, predict, annotate, simt and check read \
         a stream."
    ))
}

/// Opens a trace file and prints its warnings (truncation, missing end chunk, salvaged
/// threads) on stderr; with `--strict` the first warning is the error instead. For commands
/// that seek in the file: a stream (see [`is_stream`]) is a usage error.
pub fn open(path: &Path, args: &OpenArgs) -> Result<Trace> {
    open_seeking(
        path,
        args,
        "this command seeks in the trace file (it reads chunks out of order, or more than once)",
    )
}

/// [`open`], saying `why` the command needs a file when `path` is a stream.
pub fn open_seeking(path: &Path, args: &OpenArgs, why: &str) -> Result<Trace> {
    require_files([path], why)?;
    open_file(path, args)
}

/// A usage error, saying `why`, when one of `paths` is a stream: for a command that needs
/// files, before it does any work.
pub fn require_files<'a>(paths: impl IntoIterator<Item = &'a Path>, why: &str) -> Result<()> {
    for p in paths {
        if is_stream(p) {
            return Err(needs_a_file(p, why));
        }
    }
    Ok(())
}

/// [`open`] without the stream check (`-` on a regular file opens it as `/dev/stdin`).
fn open_file(path: &Path, args: &OpenArgs) -> Result<Trace> {
    let real = if is_stdin(path) {
        Path::new("/dev/stdin")
    } else {
        path
    };
    let trace = Trace::open_with(real, args.options()).map_err(|e| match e {
        // Damage that `--salvage` reads past: say so where the read stops.
        rdtrace::TraceError::CorruptChunk { .. } if !args.salvage => {
            anyhow::anyhow!("{e}; --salvage reads past damaged chunks")
        }
        e => e.into(),
    })?;
    for w in trace.warnings() {
        match &args.deferral {
            Deferral::Off => {}
            Deferral::Deferring(printed) => printed.lock().map_or((), |mut p| p.push(w.clone())),
            Deferral::Revalidating(printed) => {
                if printed.lock().is_ok_and(|p| p.contains(w)) {
                    continue;
                }
            }
        }
        eprintln!("rda-report: warning: {w}");
    }
    Ok(trace)
}

impl OpenArgs {
    /// The reader's options for these flags.
    pub fn options(&self) -> OpenOptions {
        OpenOptions {
            strict: self.strict,
            salvage: self.salvage,
            max_touched: self.max_touched,
            defer_validation: matches!(self.deferral, Deferral::Deferring(_)),
        }
    }
}

/// Opens `path` for reading in order: standard input for `-`, else the file (a FIFO blocks
/// here until a writer opens it).
pub fn reader(path: &Path) -> Result<Box<dyn Read + Send>> {
    use anyhow::Context;
    if is_stdin(path) {
        return Ok(Box::new(std::io::stdin()));
    }
    let f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    Ok(Box::new(f))
}

/// A stream's path and where to copy it.
type StreamCopy = (PathBuf, Box<dyn std::io::Write + Send>);

/// Where the stream at a path is to be copied as it is read, for `live ANALYSIS`: it hands an
/// analysis its trace pipe as a path (`/dev/fd/N`) and the run's copy (the `--tee` file or a
/// spool file) here, and [`open_input`] gives the copy to the stream's reader, which writes it
/// as a trace file (as `live`'s own reader writes its tee copy): the copy needs no second
/// reading of the pipe, and the analysis runs unchanged.
static STREAM_COPIES: std::sync::Mutex<Vec<StreamCopy>> = std::sync::Mutex::new(Vec::new());

/// Copies the stream at `path` to `copy` when a command opens it with [`open_input`].
pub fn copy_stream_to(path: &Path, copy: Box<dyn std::io::Write + Send>) {
    let mut copies = STREAM_COPIES.lock().unwrap_or_else(|e| e.into_inner());
    copies.push((path.to_path_buf(), copy));
}

/// Takes back the copy registered for `path` by [`copy_stream_to`] if no command opened it
/// (then nothing was copied); `None` once a reader has it.
pub fn take_stream_copy(path: &Path) -> Option<Box<dyn std::io::Write + Send>> {
    let mut copies = STREAM_COPIES.lock().unwrap_or_else(|e| e.into_inner());
    let at = copies.iter().position(|(p, _)| p == path)?;
    Some(copies.swap_remove(at).1)
}

/// A run's events merged in stamp order, as [`Input::merged`] hands them over.
pub type Events<'a> = Box<dyn Iterator<Item = rdtrace::Result<(u32, Event)>> + 'a>;

/// A trace read in one sequential pass: an indexed file, or a stream.
pub enum Input {
    /// A trace file.
    File(Box<Trace>),
    /// A stream.
    Stream(Box<StreamInput>),
}

/// A trace read from a stream with [`LiveTrace`].
pub struct StreamInput {
    /// The reader (its metadata is complete: [`open_input`] read up to the first events
    /// chunk).
    pub live: LiveTrace<'static>,
    /// Modules registered when the metadata was taken.
    modules: usize,
    strict: bool,
}

/// Opens a trace for a command that reads it in one sequential pass: a file as [`open`] does,
/// a stream (see [`is_stream`]) with [`LiveTrace`], read up to its first events chunk so that
/// the metadata is complete (the runtime writes every module before any event).
pub fn open_input(path: &Path, args: &OpenArgs) -> Result<Input> {
    if !is_stream(path) {
        return Ok(Input::File(Box::new(open_file(path, args)?)));
    }
    if args.salvage {
        return Err(needs_a_file(
            path,
            "--salvage seeks past damaged regions of a trace file",
        ));
    }
    let name: PathBuf = if is_stdin(path) {
        PathBuf::from("<stdin>")
    } else {
        path.to_path_buf()
    };
    let input = std::io::BufReader::with_capacity(1 << 20, reader(path)?);
    let copy = take_stream_copy(path).map(|w| w as Box<dyn std::io::Write>);
    let mut live = LiveTrace::with_options(input, name, copy, args.options())?;
    while !live.is_finished() && live.stats().event_chunks == 0 {
        live.read_chunk()?;
    }
    let modules = live.meta.modules.len();
    Ok(Input::Stream(Box::new(StreamInput {
        live,
        modules,
        strict: args.strict,
    })))
}

impl Input {
    /// The program's metadata.
    pub fn meta(&self) -> &ProgramMeta {
        match self {
            Input::File(t) => &t.meta,
            Input::Stream(s) => &s.live.meta,
        }
    }

    /// Events the file decodes to (0 for a stream: not known before its end), for progress
    /// bars that count events one by one.
    pub fn total_events(&self) -> u64 {
        match self {
            Input::File(t) => t.total_events(),
            Input::Stream(_) => 0,
        }
    }

    /// The trace's thread indices, ascending (for a stream, complete once it has been read).
    pub fn thread_indices(&self) -> Vec<u32> {
        match self {
            Input::File(t) => t.thread_indices(),
            Input::Stream(s) => s.live.thread_indices(),
        }
    }

    /// How the run ended (for a stream, known once it has been read).
    pub fn exit(&self) -> Option<&rdtrace::chunk::ExitInfo> {
        match self {
            Input::File(t) => t.exit.as_ref(),
            Input::Stream(s) => s.live.exit.as_ref(),
        }
    }

    /// All events merged in stamp order ([`Trace::merged`], or the same order from the
    /// stream).
    pub fn merged(&mut self) -> Result<Events<'_>> {
        Ok(match self {
            Input::File(t) => Box::new(t.merged()?),
            Input::Stream(s) => Box::new(StreamMerged {
                modules: s.modules,
                live: &mut s.live,
                done: false,
            }),
        })
    }

    /// Hands every events chunk to `f` as `(thread, events)`, each thread's chunks in order: a
    /// file thread after thread in index order, a stream as the chunks arrive (threads
    /// interleaved).
    pub fn for_each_thread_chunk(
        &mut self,
        f: impl FnMut(u32, &[Event]) -> Result<()>,
    ) -> Result<()> {
        // One per-thread reading for both (rdtrace::source): a file's index or the stream,
        // whose chunks are checked for a module registered after the metadata was taken.
        match self {
            Input::File(t) => rdtrace::source::for_each_thread_chunk(&mut t.source()?, f),
            Input::Stream(s) => rdtrace::source::for_each_thread_chunk(&mut CheckedStream(s), f),
        }
    }

    /// Ends reading: a stream's warnings go to stderr now (a file's went at opening), or with
    /// `--strict` the first is the error. Call it after the pass, before printing the report.
    pub fn finish(&self) -> Result<()> {
        if let Input::Stream(s) = self {
            if s.strict {
                if let Some(w) = s.live.warnings().first() {
                    return Err(rdtrace::TraceError::Strict(w.clone()).into());
                }
            }
            for w in s.live.warnings() {
                eprintln!("rda-report: warning: {w}");
            }
        }
        Ok(())
    }
}

impl StreamInput {
    /// Fails when a module was registered after the metadata was taken (a library opened with
    /// `dlopen` during the run): an analysis holds tables of the metadata it started with.
    fn check_modules(&self) -> rdtrace::Result<()> {
        if self.live.meta.modules.len() != self.modules {
            return Err(late_module());
        }
        Ok(())
    }
}

/// A stream as a chunk source that refuses a module registered after the metadata was taken
/// (the analyses index the metadata they were given).
struct CheckedStream<'s>(&'s mut StreamInput);

impl rdtrace::source::ChunkSource for CheckedStream<'_> {
    fn slots(&self) -> usize {
        self.0.live.slots()
    }
    fn thread_of(&self, slot: usize) -> u32 {
        self.0.live.thread_of(slot)
    }
    fn start_time_of(&self, slot: usize) -> u64 {
        self.0.live.start_time_of(slot)
    }
    fn next_chunk(
        &mut self,
        slot: usize,
        events: &mut Vec<Event>,
    ) -> rdtrace::Result<rdtrace::source::Pull> {
        let pull = self.0.live.next_chunk(slot, events)?;
        self.0.check_modules()?;
        Ok(pull)
    }
    fn read_more(&mut self, held: u64) -> rdtrace::Result<()> {
        self.0.live.read_more(held)
    }
    fn finished(&self) -> bool {
        self.0.live.finished()
    }
}

/// The error of a module registered after the metadata was taken.
pub fn late_module() -> rdtrace::TraceError {
    rdtrace::TraceError::BadMetadata(
        "a module was registered after the first events (a library opened during the run): \
         read this trace from a file"
            .into(),
    )
}

/// [`Input::merged`] of a stream.
struct StreamMerged<'a> {
    live: &'a mut LiveTrace<'static>,
    modules: usize,
    done: bool,
}

impl Iterator for StreamMerged<'_> {
    type Item = rdtrace::Result<(u32, Event)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.live.next_merged();
        if self.live.meta.modules.len() != self.modules {
            self.done = true;
            return Some(Err(late_module()));
        }
        match r {
            Ok(Some(e)) => Some(Ok(e)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touch_limits_take_sizes_auto_and_unlimited() {
        use rdtrace::work::TouchLimit;
        assert_eq!(touch_limit("auto"), Ok(TouchLimit::Auto));
        assert_eq!(touch_limit("unlimited"), Ok(TouchLimit::Unlimited));
        assert_eq!(touch_limit("4096"), Ok(TouchLimit::Bytes(4096)));
        assert_eq!(touch_limit("64G"), Ok(TouchLimit::Bytes(64 << 30)));
        assert_eq!(touch_limit("2t"), Ok(TouchLimit::Bytes(2 << 40)));
        assert!(touch_limit("lots")
            .unwrap_err()
            .contains("not a number of bytes"));
        assert!(touch_limit("-1")
            .unwrap_err()
            .contains("not a number of bytes"));
        assert!(touch_limit("5X")
            .unwrap_err()
            .contains("unknown suffix 'X'"));
        assert!(touch_limit("99999P")
            .unwrap_err()
            .contains("more than 2^64"));
    }
}
