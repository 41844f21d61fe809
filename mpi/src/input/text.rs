//! PARDA text input: chunk `g` is the lines that *start* in bytes `[16·S·g, 16·S·(g+1))`.

use super::file::open_file;
use crate::ChunkSource;
use rdengines::parda::parse_parda_line;
use rdengines::Granularity;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Bytes per line assumed when cutting a text file into chunks.
const TEXT_LINE_BYTES: u64 = 16;

/// PARDA text input (one hexadecimal address per line) sliced by byte range at line starts.
pub struct TextSource {
    path: PathBuf,
    file: File,
    len: u64,
    chunk_bytes: u64,
    gran: Granularity,
}

impl TextSource {
    /// Opens `path` as chunks of about `chunk` lines.
    pub fn open(path: &Path, chunk: u64, gran: Granularity) -> Result<Self, String> {
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
            let Some(addr) = parse_parda_line(s) else {
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
