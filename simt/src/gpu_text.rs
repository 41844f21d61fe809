//! The GPU text trace format: kernels traced by a GPU emulator or a binary tracer, one line per
//! executed MI with the fields of the thesis's trace (section 7.2.1, Algorithm 2). The format is
//! specified in `docs/simt-trace-format.md`; in short:
//!
//! ```text
//! # comment (also after fields)
//! simt-trace 1                       header: format name and version, first non-comment line
//! kernel vector_add                  optional: starts a new kernel
//! <block> <pc> <pos> <gpos> <threads> <addr_1> ... <addr_threads>
//! ```
//!
//! Numbers are decimal, or hexadecimal with a `0x` prefix. A block's lines are contiguous and its
//! position indices strictly increase; `threads` (≥ 1) equals the number of addresses.

use crate::error::{Result, SimtError};
use crate::grid::{BlockStream, Kernel};
use crate::mi::MemInstr;
use rustc_hash::FxHashMap as FastMap;
use std::io::{BufRead, Write};

/// Name in the header line.
pub const FORMAT_NAME: &str = "simt-trace";
/// The first version of the format: MI lines and `kernel` lines.
pub const V_INITIAL: u32 = 1;
/// The version this build writes.
pub const CURRENT: u32 = V_INITIAL;
/// The oldest version this build reads.
pub const OLDEST_SUPPORTED: u32 = V_INITIAL;

/// Name of the kernel that MI lines before any `kernel` line belong to.
pub const DEFAULT_KERNEL_NAME: &str = "kernel";

struct Parser<'a> {
    source: &'a str,
    /// The kernel being read (handed over when the next one starts, or at the end).
    kernel: Option<Kernel>,
    /// Line where the current kernel's blocks were first seen, by block id.
    seen: FastMap<u64, usize>,
    /// Line of the last MI of the current block.
    last_line: usize,
}

impl Parser<'_> {
    fn err(&self, line: usize, message: impl Into<String>) -> SimtError {
        SimtError::Parse {
            source_name: self.source.to_string(),
            line,
            message: message.into(),
        }
    }

    fn number(&self, line: usize, field: &str, token: &str) -> Result<u64> {
        let parsed = match token
            .strip_prefix("0x")
            .or_else(|| token.strip_prefix("0X"))
        {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => token.parse(),
        };
        parsed.map_err(|_| {
            self.err(
                line,
                format!("{field} {token:?} is not a number (decimal, or hexadecimal with 0x)"),
            )
        })
    }

    fn mi_line(&mut self, line: usize, fields: &[&str]) -> Result<()> {
        if fields.len() == 5 && self.number(line, "thread count", fields[4])? == 0 {
            return Err(self.err(
                line,
                "an MI needs at least one active thread (thread count 0)",
            ));
        }
        if fields.len() < 6 {
            return Err(self.err(
                line,
                format!(
                    "an MI line needs `block pc pos gpos threads addr...` (at least 6 fields), found {}",
                    fields.len()
                ),
            ));
        }
        let block = self.number(line, "block id", fields[0])?;
        let pc = self.number(line, "pc", fields[1])?;
        let pos = self.number(line, "position index", fields[2])?;
        let gpos = self.number(line, "global position", fields[3])?;
        let threads = self.number(line, "thread count", fields[4])?;
        let addrs = &fields[5..];
        if threads != addrs.len() as u64 {
            return Err(self.err(
                line,
                format!(
                    "thread count {threads} does not match the {} addresses on the line",
                    addrs.len()
                ),
            ));
        }
        let mut lanes = Vec::with_capacity(addrs.len());
        for a in addrs {
            lanes.push(self.number(line, "address", a)?);
        }
        let kernel = self.kernel.get_or_insert_with(|| Kernel {
            name: DEFAULT_KERNEL_NAME.into(),
            blocks: Vec::new(),
        });
        let same_block = kernel.blocks.last().is_some_and(|b| b.id == block);
        if same_block {
            let prev = kernel
                .blocks
                .last()
                .and_then(|b| b.mis.last())
                .map(|m| m.pos);
            if let Some(prev) = prev.filter(|&p| pos <= p) {
                let last = self.last_line;
                return Err(self.err(
                    line,
                    format!(
                        "position index {pos} of block {block} does not increase (line {last} has {prev})"
                    ),
                ));
            }
        } else {
            if let Some(&first) = self.seen.get(&block) {
                return Err(self.err(
                    line,
                    format!(
                        "block {block} appears again after other blocks (first seen at line {first}); \
                         the lines of a block must be contiguous"
                    ),
                ));
            }
            self.seen.insert(block, line);
            kernel.blocks.push(BlockStream {
                id: block,
                mis: Vec::new(),
            });
        }
        let b = kernel.blocks.last_mut().expect("a block exists");
        b.mis.push(MemInstr {
            pc,
            pos,
            gpos,
            lanes,
        });
        self.last_line = line;
        Ok(())
    }
}

/// Longest line the reader accepts, in bytes (an MI line of about 800 000 addresses): a
/// longer line, or a NUL byte, ends the reading with an error, so what the reader holds is
/// bounded whatever the input (`/dev/zero`, a binary file).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// Why [`next_line`] stopped.
enum LineError {
    Io(std::io::Error),
    TooLong,
    Binary,
}

/// Reads the next line into `buf` (without its `\n` or `\r\n`); `false` at the end of the
/// input. Holds at most [`MAX_LINE_BYTES`] plus one read buffer.
fn next_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::result::Result<bool, LineError> {
    buf.clear();
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LineError::Io(e)),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if part.contains(&0) {
            return Err(LineError::Binary);
        }
        if buf.len() + part.len() > MAX_LINE_BYTES {
            return Err(LineError::TooLong);
        }
        buf.extend_from_slice(part);
        let used = done.unwrap_or(part.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(any)
}

/// Reads every kernel of a GPU text trace. `source` names the input in error messages.
pub fn read_gpu_text(input: impl BufRead, source: &str) -> Result<Vec<Kernel>> {
    let mut kernels = Vec::new();
    for_each_gpu_text_kernel(input, source, &mut |k| {
        kernels.push(k);
        Ok::<(), SimtError>(())
    })?;
    Ok(kernels)
}

/// Reads a GPU text trace kernel by kernel: each is handed to `each` as soon as the next
/// `kernel` line (or the end of the input) shows it is complete, and dropped after, so memory
/// is one kernel, not the file. A format error stops the reading with that error (kernels
/// before it have been handed over); so does an error of `each`. `source` names the input in
/// error messages.
pub fn for_each_gpu_text_kernel<E: From<SimtError>>(
    input: impl BufRead,
    source: &str,
    each: &mut dyn FnMut(Kernel) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut p = Parser {
        source,
        kernel: None,
        seen: FastMap::default(),
        last_line: 0,
    };
    let mut header = false;
    let mut input = input;
    let mut bytes = Vec::new();
    let mut n = 0;
    loop {
        n += 1;
        match next_line(&mut input, &mut bytes) {
            Ok(true) => {}
            Ok(false) => break,
            Err(LineError::Io(e)) => {
                return Err(p.err(n, format!("cannot read the line: {e}")).into())
            }
            Err(LineError::TooLong) => {
                return Err(p
                    .err(
                        n,
                        format!(
                            "the line is longer than {MAX_LINE_BYTES} bytes (is this a GPU text trace?)"
                        ),
                    )
                    .into())
            }
            Err(LineError::Binary) => {
                return Err(p
                    .err(n, "the line holds a NUL byte: binary data, not a GPU text trace")
                    .into())
            }
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            return Err(p
                .err(n, "the line is not UTF-8 text: not a GPU text trace")
                .into());
        };
        let content = line.split('#').next().unwrap_or("");
        let fields: Vec<&str> = content.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if !header {
            if fields[0] != FORMAT_NAME {
                return Err(p
                    .err(
                        n,
                        format!(
                            "expected the header `{FORMAT_NAME} {CURRENT}`, found {:?}",
                            content.trim()
                        ),
                    )
                    .into());
            }
            let version = match fields.get(1).map(|v| v.parse::<u32>()) {
                Some(Ok(v)) if fields.len() == 2 => v,
                _ => {
                    return Err(p
                        .err(
                            n,
                            format!(
                                "the header must be `{FORMAT_NAME} <version>`, found {:?}",
                                content.trim()
                            ),
                        )
                        .into())
                }
            };
            if !(OLDEST_SUPPORTED..=CURRENT).contains(&version) {
                return Err(p.err(
                    n,
                    format!(
                        "{FORMAT_NAME} version {version} is not supported; this build reads versions \
                         {OLDEST_SUPPORTED}..={CURRENT}"
                    ),
                ).into());
            }
            header = true;
            continue;
        }
        if fields[0] == "kernel" {
            let name = content.trim_start()["kernel".len()..].trim();
            if name.is_empty() {
                return Err(p.err(n, "a `kernel` line needs a name").into());
            }
            let next = Kernel {
                name: name.to_string(),
                blocks: Vec::new(),
            };
            if let Some(done) = p.kernel.replace(next) {
                each(done)?;
            }
            p.seen.clear();
            continue;
        }
        p.mi_line(n, &fields)?;
    }
    if !header {
        return Err(p
            .err(
                1,
                format!("empty input: expected the header `{FORMAT_NAME} {CURRENT}`"),
            )
            .into());
    }
    match p.kernel.take() {
        Some(last) => each(last),
        None => Ok(()),
    }
}

/// [`for_each_gpu_text_kernel`] over a file.
pub fn for_each_gpu_text_kernel_in_file<E: From<SimtError>>(
    path: &std::path::Path,
    each: &mut dyn FnMut(Kernel) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let f = std::fs::File::open(path).map_err(|error| SimtError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    for_each_gpu_text_kernel(
        std::io::BufReader::with_capacity(1 << 20, f),
        &path.display().to_string(),
        each,
    )
}

/// Writes kernels in the GPU text format (addresses in hexadecimal). Reading the output back
/// gives the same kernels.
pub fn write_gpu_text(mut out: impl Write, kernels: &[Kernel]) -> std::io::Result<()> {
    write_gpu_text_header(&mut out)?;
    for k in kernels {
        write_gpu_text_kernel(&mut out, k)?;
    }
    out.flush()
}

/// The first lines of a GPU text trace; [`write_gpu_text_kernel`] appends kernels one by one
/// (what [`write_gpu_text`] does for a slice).
pub fn write_gpu_text_header(mut out: impl Write) -> std::io::Result<()> {
    writeln!(out, "{FORMAT_NAME} {CURRENT}")?;
    writeln!(out, "# block pc pos gpos threads addresses...")
}

/// Appends one kernel to a GPU text trace begun by [`write_gpu_text_header`].
pub fn write_gpu_text_kernel(mut out: impl Write, k: &Kernel) -> std::io::Result<()> {
    // Kernel names are one line; a `#` would start a comment.
    let name = k.name.replace(['\n', '\r', '#'], " ");
    let name = if name.trim().is_empty() {
        DEFAULT_KERNEL_NAME.to_string()
    } else {
        name
    };
    writeln!(out, "kernel {}", name.trim())?;
    for b in &k.blocks {
        for mi in &b.mis {
            write!(
                out,
                "{} {} {} {} {}",
                b.id,
                mi.pc,
                mi.pos,
                mi.gpos,
                mi.lanes.len()
            )?;
            for a in &mi.lanes {
                write!(out, " 0x{a:x}")?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Vec<Kernel>> {
        read_gpu_text(s.as_bytes(), "t.txt")
    }

    fn err(s: &str) -> String {
        parse(s).unwrap_err().to_string()
    }

    #[test]
    fn reads_kernels_blocks_and_mis() {
        let k = parse(
            "# made by hand\nsimt-trace 1\n\
             0 3 1 1 2 0x10 0x10   # two threads, one address\n\
             0 4 2 2 1 17\n\
             1 3 1 3 1 0x20\n\
             kernel second one\n\
             5 3 1 1 1 0\n",
        )
        .unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(k[0].name, DEFAULT_KERNEL_NAME);
        assert_eq!(k[0].blocks.len(), 2);
        assert_eq!(k[0].blocks[0].mis[0].lanes, vec![16, 16]);
        assert_eq!(k[0].blocks[0].mis[1].lanes, vec![17]);
        assert_eq!(k[0].blocks[0].mis[1].pos, 2);
        assert_eq!(k[0].blocks[1].id, 1);
        assert_eq!(k[1].name, "second one");
        assert_eq!(k[1].blocks[0].id, 5);
    }

    #[test]
    fn kernels_are_handed_over_one_at_a_time() {
        // The first kernel is complete (and handed over) when the `kernel` line of the second
        // is read, before the second's bad line: the reader never holds more than one kernel.
        let input = "simt-trace 1\nkernel a\n0 1 1 1 1 5\nkernel b\n0 1 1 1 1 zz\n";
        let mut seen = Vec::new();
        let r = for_each_gpu_text_kernel(input.as_bytes(), "t.txt", &mut |k| {
            seen.push((k.name.clone(), k.blocks.len()));
            Ok::<(), SimtError>(())
        });
        assert!(r
            .unwrap_err()
            .to_string()
            .contains("t.txt:5: address \"zz\""));
        assert_eq!(seen, vec![("a".to_string(), 1)]);
        // An error of the consumer stops the reading at once.
        let mut calls = 0;
        let r = for_each_gpu_text_kernel(
            "simt-trace 1\nkernel a\nkernel b\nkernel c\n".as_bytes(),
            "t.txt",
            &mut |_| {
                calls += 1;
                Err(SimtError::InvalidConfig("stop".into()))
            },
        );
        assert_eq!(
            r.unwrap_err().to_string(),
            SimtError::InvalidConfig("stop".into()).to_string()
        );
        assert_eq!(calls, 1);
    }

    #[test]
    fn round_trips_through_the_writer() {
        let k = parse("simt-trace 1\nkernel a\n2 9 1 7 3 1 2 3\n2 9 4 8 1 0xffffffffffffffff\n")
            .unwrap();
        let mut out = Vec::new();
        write_gpu_text(&mut out, &k).unwrap();
        assert_eq!(parse(std::str::from_utf8(&out).unwrap()).unwrap(), k);
    }

    #[test]
    fn malformed_input_names_the_line() {
        assert_eq!(
            err(""),
            "t.txt:1: empty input: expected the header `simt-trace 1`"
        );
        assert!(err("0 1 1 1 1 5\n").starts_with("t.txt:1: expected the header"));
        assert!(err("simt-trace 2\n").contains("version 2 is not supported"));
        assert!(err("simt-trace\n").contains("must be `simt-trace <version>`"));
        assert!(err("simt-trace 1\n\n0 1 1 1 2 5\n").starts_with("t.txt:3: thread count 2"));
        assert!(err("simt-trace 1\n0 1 1 1 1 zz\n").contains("t.txt:2: address \"zz\""));
        assert!(err("simt-trace 1\n0 1 1 1\n").contains("at least 6 fields"));
        assert!(err("simt-trace 1\n0 1 1 1 0\n").contains("at least one active thread"));
        assert!(err("simt-trace 1\n0 1 2 1 1 5\n0 1 2 2 1 5\n")
            .contains("t.txt:3: position index 2 of block 0 does not increase (line 2 has 2)"));
        assert!(err("simt-trace 1\n0 1 1 1 1 5\n1 1 1 2 1 5\n0 1 2 3 1 5\n")
            .contains("t.txt:4: block 0 appears again after other blocks (first seen at line 2)"));
        assert!(err("simt-trace 1\nkernel\n").contains("t.txt:2: a `kernel` line needs a name"));
        assert!(err("simt-trace 1\n0x 1 1 1 1 5\n").contains("block id \"0x\""));
    }

    #[test]
    fn a_block_id_may_repeat_in_another_kernel() {
        let k = parse("simt-trace 1\n0 1 1 1 1 5\nkernel b\n0 1 1 1 1 5\n").unwrap();
        assert_eq!(k.len(), 2);
    }

    /// Garbage input ends the reading with a clear error and bounded memory: binary data at
    /// once, an endless line at [`MAX_LINE_BYTES`].
    #[test]
    fn garbage_is_refused_with_bounded_memory() {
        use std::io::Read;
        let e = |r: Box<dyn Read>| {
            read_gpu_text(std::io::BufReader::new(r), "g")
                .unwrap_err()
                .to_string()
        };
        assert!(e(Box::new(std::io::repeat(0))).contains("g:1: the line holds a NUL byte"));
        assert!(e(Box::new(std::io::repeat(b'7'))).contains("g:1: the line is longer than"));
        assert!(
            e(Box::new(&b"simt-trace 1\n\xff\xfe\n"[..])).contains("g:2: the line is not UTF-8")
        );
        // CRLF line ends and a last line without one are read as before.
        let k = parse("simt-trace 1\r\n0 1 1 1 1 5\r\n0 1 2 2 1 6").unwrap();
        assert_eq!(k[0].blocks[0].mis.len(), 2);
    }
}
