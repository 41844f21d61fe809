//! Feeding an engine: the blocks of a trace's accesses, or of a PARDA address file (text or binary).

use anyhow::{bail, Context, Result};
use rdengines::batched::Batched;
use rdengines::parda::parse_parda_line;
use rdengines::{Granularity, Histogram, ReuseEngine, SampleStats};
use rdtrace::EventVisitor;
use std::io::{BufRead, Read};
use std::path::Path;

/// Feeds the blocks of every access to an engine in batches.
///
/// With a sequential engine on a machine with more than one CPU, the engine runs on a thread of
/// its own and the feeder hands it full batches over a bounded channel
/// ([`rdengines::batched`]): decoding the trace and analysing it overlap (the histogram's time
/// is then the slower of the two, not their sum). The engine sees the same blocks in the same
/// order either way.
pub struct BlockFeeder {
    granularity: Granularity,
    /// The granularity's shift, computed once rather than per access.
    shift: u32,
    engine: Batched<Box<dyn ReuseEngine>>,
    /// References fed so far.
    pub references: u64,
}

const BATCH: usize = 1 << 16;

/// Batches in flight to a pipelined engine (besides the one it works on and the one being
/// filled): enough to ride out uneven batches, few enough to bound memory (8 MiB in all).
const IN_FLIGHT: usize = 4;

/// Whether `engine` runs on one thread (PARDA and HP-RDA use threads of their own).
fn is_sequential(engine: &dyn ReuseEngine) -> bool {
    !matches!(engine.name(), "parda" | "hprda")
}

impl BlockFeeder {
    /// A feeder for `engine` at `granularity` (pipelined where that helps, see the type).
    pub fn new(engine: Box<dyn ReuseEngine>, granularity: Granularity) -> Self {
        let engine = if is_sequential(engine.as_ref()) {
            Batched::on_second_cpu(engine, BATCH, IN_FLIGHT, "rd-engine")
        } else {
            Batched::inline(engine, BATCH)
        };
        BlockFeeder {
            granularity,
            shift: granularity.shift(),
            engine,
            references: 0,
        }
    }

    /// The shift that reduces an address to its block at the feeder's granularity.
    pub fn shift(&self) -> u32 {
        self.shift
    }

    /// Whether the engine runs on a thread of its own (see the type).
    pub fn is_pipelined(&self) -> bool {
        self.engine.is_threaded()
    }

    /// Feeds one raw address (already a whole reference).
    #[inline]
    pub fn address(&mut self, addr: u64) {
        self.engine.push(addr >> self.shift);
        self.references += 1;
    }

    /// Feeds blocks already reduced to the feeder's granularity, one reference each.
    pub fn blocks(&mut self, blocks: &[u64]) {
        self.engine.extend(blocks);
        self.references += blocks.len() as u64;
    }

    /// Ends the stream, with what sampling did when the engine samples. Fails when the engine
    /// could not analyse the whole stream.
    pub fn finish_sampled(self) -> Result<(Histogram, Option<SampleStats>)> {
        let engine = self
            .engine
            .finish()
            .map_err(|_| anyhow::anyhow!("the engine thread panicked"))?;
        if let Some(why) = engine.failure() {
            anyhow::bail!("{why}");
        }
        let stats = engine.sample_stats();
        Ok((engine.finish(), stats))
    }
}

impl EventVisitor for BlockFeeder {
    #[inline]
    fn access(&mut self, _mi: u32, addr: u64, len: u64) {
        let engine = &mut self.engine;
        let mut n = 0;
        // A range (up to rdtrace's MAX_RANGE_LEN) can touch millions of blocks: they go to the
        // engine a batch at a time rather than growing a batch with the range.
        rdengines::granularity::for_each_block(self.shift, addr, len, |b| {
            engine.push(b);
            n += 1;
        });
        self.references += n;
    }
}

/// Longest line of a PARDA text file, in bytes: a longer line (or a NUL byte) is not an
/// address file, and reading it stops there instead of holding the line.
pub const MAX_TEXT_LINE: usize = 4096;

/// Reads the next line of `r` into `line` (without its end); `false` at the end of the input.
/// Fails on a line longer than [`MAX_TEXT_LINE`] bytes, a NUL byte or text that is not UTF-8.
fn next_text_line(r: &mut impl BufRead, line: &mut String) -> std::io::Result<bool> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_TEXT_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_TEXT_LINE {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a line longer than {MAX_TEXT_LINE} bytes: not a PARDA text file"),
        ));
    }
    if buf.contains(&0) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "a NUL byte: binary data, not a PARDA text file",
        ));
    }
    *line = String::from_utf8(buf).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "text that is not UTF-8: not a PARDA text file",
        )
    })?;
    Ok(true)
}

/// Reads a PARDA text file (one hex address per line) into the feeder.
/// `-` reads standard input.
pub fn feed_parda_text(path: &Path, feeder: &mut BlockFeeder) -> Result<()> {
    let mut r = std::io::BufReader::with_capacity(1 << 20, crate::tracefile::reader(path)?);
    let mut line = String::new();
    for i in 0.. {
        let more = next_text_line(&mut r, &mut line)
            .with_context(|| format!("{}: reading line {}", path.display(), i + 1))?;
        if !more {
            break;
        }
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
/// `-` (or a pipe) is read to its end; a file's length is checked first.
pub fn feed_parda_binary(path: &Path, feeder: &mut BlockFeeder) -> Result<()> {
    if !crate::tracefile::is_stream(path) {
        let len = std::fs::metadata(path)
            .with_context(|| format!("opening {}", path.display()))?
            .len();
        if len % 8 != 0 {
            bail!("{}: length {len} is not a multiple of 8 bytes (raw little-endian u64 addresses expected)", path.display());
        }
    }
    let f = crate::tracefile::reader(path)?;
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
