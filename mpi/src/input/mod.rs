//! How each rank reads its own slices of the input: the [`ChunkSource`]s of PARDA files and
//! rdtools traces.
//!
//! The input is cut into numbered source chunks of `S = ⌈C / k⌉` references (`C` = the
//! references per rank and phase, `--chunk`; `k` = [`crate::CHUNKS_PER_RANK`]; binary input:
//! at most [`BINARY_SLICE`]; see [`source_chunk`]) that every rank computes the same way from
//! the file's size or chunk index, without reading the data; a phase gives each rank about
//! `C / S` consecutive ones (fewer to the holder of the global state, and the last rank's end
//! follows the work, see [`crate::run`]), read one at a time:
//! - PARDA binary input: chunk `g` is bytes `[8·S·g, 8·S·(g+1))`;
//! - PARDA text input: chunk `g` is the lines that *start* in bytes `[16·S·g, 16·S·(g+1))`
//!   (a rank seeks to the byte before its range and skips to the next line start, and reads
//!   past its end only to finish its last line), about S references at 16 bytes a line;
//! - an rdtools trace: chunk `g` is trace chunks `[K·g, K·(g+1))` of the analysed thread in
//!   sequence order, K trace chunks holding about S events; each rank decodes only its own
//!   ([`TraceSource`]);
//! - the merged order of a multi-threaded trace: chunk `g` is window `g` of stamps, about S
//!   accesses, found by a collective pre-pass over the chunks ([`MergedSource`]).
//!
//! Any split into consecutive chunks gives the exact histogram (PARDA's Property 4.1), so the
//! approximate line and event counts only balance the work.

mod binary;
mod file;
mod merged;
mod merged_source;
mod text;
mod trace;

use crate::{agree, ChunkSource, MpiError, MpiPardaConfig};
use mpi::traits::Communicator;
use rdengines::Granularity;
use std::path::Path;

pub use merged_source::MergedSource;
pub use trace::TraceSource;

/// Most references of a source chunk of PARDA binary input (512 KiB).
pub const BINARY_SLICE: u64 = 1 << 16;

/// The format of a PARDA input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PardaFormat {
    /// One hexadecimal address per line.
    Text,
    /// Raw little-endian u64 addresses.
    Binary,
}

/// References per source chunk for `refs_per_rank` references per rank and phase (`parda`:
/// the PARDA format of the input, `None` for an rdtools trace); may raise
/// `cfg.chunks_per_rank` so that a phase stays `P × refs_per_rank` references.
pub fn source_chunk(
    refs_per_rank: u64,
    parda: Option<PardaFormat>,
    cfg: &mut MpiPardaConfig,
) -> u64 {
    // A rank's chunk of a phase is `chunks_per_rank` source chunks on average (fewer at the
    // holder, more elsewhere), so the phase stays `P × --chunk` references.
    let planned = refs_per_rank.max(1);
    let mut chunk = planned.div_ceil(cfg.chunks_per_rank);
    if parda == Some(PardaFormat::Binary) && chunk > BINARY_SLICE {
        // Binary slices cost one read each and nothing to decode: small ones stay in the
        // core's cache between the read and the analysis, and end a phase more finely.
        chunk = BINARY_SLICE;
        cfg.chunks_per_rank = planned.div_ceil(chunk);
    }
    chunk
}

/// Opens the PARDA file `path` on every rank as a source of chunks of `chunk` references.
/// Collective: a rank that cannot open it makes every rank return the error ([`agree`]).
pub fn open_parda<C: Communicator>(
    world: &C,
    path: &Path,
    format: PardaFormat,
    chunk: u64,
    gran: Granularity,
) -> Result<Box<dyn ChunkSource>, MpiError> {
    let opened = match format {
        PardaFormat::Text => {
            text::TextSource::open(path, chunk, gran).map(|s| Box::new(s) as Box<dyn ChunkSource>)
        }
        PardaFormat::Binary => binary::BinarySource::open(path, chunk, gran)
            .map(|s| Box::new(s) as Box<dyn ChunkSource>),
    };
    agree(world, opened)
}
