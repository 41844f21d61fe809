//! Feeding an engine: the blocks of a trace's accesses, or of a PARDA address file (text or binary).

use anyhow::{bail, Context, Result};
use rdengines::{Granularity, Histogram, ReuseEngine, SampleStats};
use rdtrace::EventVisitor;
use std::io::{BufRead, Read};
use std::path::Path;

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

/// One histogram per thread from events chunks whose threads interleave (a stream, read as
/// its chunks arrive): one feeder per thread seen, and at the end the threads, order and sum
/// `histogram --per-thread` gives for the file of the same run.
#[derive(Default)]
pub struct PerThreadFeeders {
    feeders: std::collections::BTreeMap<u32, BlockFeeder>,
}

impl PerThreadFeeders {
    /// Feeds thread `t`'s next chunk, making its feeder with `new_feeder` when it is new.
    pub fn chunk(
        &mut self,
        t: u32,
        events: &[rdtrace::Event],
        new_feeder: &dyn Fn() -> Result<BlockFeeder>,
    ) -> Result<()> {
        let f = match self.feeders.entry(t) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => v.insert(new_feeder()?),
        };
        for e in events {
            e.visit(f);
        }
        Ok(())
    }

    /// The histogram of every thread of `threads` (the trace's thread indices, ascending; a
    /// thread without events has an empty one) and their sum (`exact` when the engine is),
    /// adding what sampling did to `sampling`.
    pub fn finish(
        mut self,
        threads: &[u32],
        exact: bool,
        new_feeder: &dyn Fn() -> Result<BlockFeeder>,
        sampling: &mut Option<SampleStats>,
    ) -> Result<(Histogram, Vec<(u32, Histogram)>)> {
        let mut all = Histogram::new_exact();
        all.exact = exact;
        let mut per_thread = Vec::new();
        for &t in threads {
            let f = match self.feeders.remove(&t) {
                Some(f) => f,
                None => new_feeder()?,
            };
            let (h, s) = f.finish_sampled()?;
            crate::commands::sampling::accumulate(sampling, s);
            all.merge(&h);
            per_thread.push((t, h));
        }
        Ok((all, per_thread))
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
