//! Named format versions, one constant per change (newest last).

/// First version: chunked file, module metadata, per-thread event streams with stamps,
/// branch outcomes and OpenMP events.
pub const V_INITIAL: u32 = 1;
/// The version this build writes.
pub const CURRENT: u32 = V_INITIAL;
/// The oldest version this build still reads.
pub const OLDEST_SUPPORTED: u32 = V_INITIAL;
