//! PARDA binary input: chunk `g` is bytes `[8·S·g, 8·S·(g+1))`, read with one `pread`.

use super::file::open_file;
use crate::ChunkSource;
use rdengines::Granularity;
use std::fs::File;
use std::path::{Path, PathBuf};

/// PARDA binary input (little-endian u64 addresses) sliced by byte range.
pub struct BinarySource {
    path: PathBuf,
    file: File,
    len: u64,
    chunk: u64,
    gran: Granularity,
}

impl BinarySource {
    /// Opens `path` as chunks of `chunk` references, checking that it holds whole words.
    pub fn open(path: &Path, chunk: u64, gran: Granularity) -> Result<Self, String> {
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
