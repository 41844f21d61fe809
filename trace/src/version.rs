//! Named format versions, one constant per change (newest last).

/// First version: chunked file, module metadata, per-thread event streams with stamps,
/// branch outcomes and OpenMP events.
pub const V_INITIAL: u32 = 1;
/// Live streams (a pipe or another non-seekable target, `RDTRACE=fd:N`): the layout of
/// [`V_INITIAL`] plus *floor* chunks (kind 6, [`crate::stream`]) that bound how far a live merge
/// must wait for a thread. Files never carry floors, and a tee copy of a stream drops them and
/// is written as a [`V_INITIAL`] file.
pub const V_LIVE_STREAM: u32 = 2;
/// The version this build writes to files (and in module metadata blobs).
pub const CURRENT: u32 = V_INITIAL;
/// The version this build writes to streams.
pub const STREAM: u32 = V_LIVE_STREAM;
/// The oldest version this build still reads.
pub const OLDEST_SUPPORTED: u32 = V_INITIAL;
