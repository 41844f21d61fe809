//! The rdtools trace format: one self-describing file per traced run.
//!
//! A trace holds a program chunk, the static metadata of every instrumented module (so no
//! analysis ever needs the binary), one chunked event stream per thread with ordering stamps,
//! and an end chunk. Chunks carry lengths and CRCs and decode independently, so a file cut off
//! by a crash stays readable up to its last whole chunk. See `docs/trace-format.md` for the wire
//! format with a worked example.
//!
//! Modules: [`abi`] (the runtime hooks the pass calls), [`meta`] (static metadata),
//! [`raw`] (the runtime's buffer record), [`codec`] (compact event encoding), [`chunk`]
//! (file and chunk framing), [`writer`] and [`reader`] (streaming file access), [`stream`]
//! (live reading from a pipe while the program runs), [`source`] (the chunk layer both readers
//! share: a [`source::ChunkSource`] per file index or pipe, and one chunk decoding), [`merge`]
//! (the one stamp-order merge of threads, over any source), [`event`]
//! (decoded events), [`version`] (format versions), [`roi`] (which functions a region of
//! interest names), [`demangle`] (readable C++ and Fortran names), [`check`] (the invariant
//! checker), [`work`] (how much work a trace may ask of an analysis).
//!
//! Architecture invariant: this crate knows nothing of LLVM or of any analysis; the runtime, the
//! pass and every analysis depend on it, never the other way round.

pub mod abi;
pub mod analysis;
pub mod check;
pub mod chunk;
pub mod codec;
pub mod demangle;
pub mod error;
pub mod event;
/// The fuzz targets' bodies, for `fuzz/` and the corpus tests (feature `test-util`).
#[cfg(feature = "test-util")]
pub mod fuzzing;
pub mod merge;
pub mod meta;
pub mod raw;
pub mod reader;
pub mod roi;
pub mod schedule;
pub mod source;
pub mod stream;
#[cfg(feature = "test-util")]
pub mod testing;
pub mod version;
pub mod work;
pub mod writer;

pub use analysis::{Analysis, Digest, Needs, Shape};
pub use error::{Result, TraceError};
pub use event::{Event, EventVisitor};
pub use reader::{OpenOptions, Trace};
pub use schedule::Schedule;
pub use stream::LiveTrace;
