//! Named format versions, one constant per change (newest last).

/// First version: chunked file, module metadata, per-thread event streams with stamps,
/// branch outcomes and OpenMP events.
pub const V_INITIAL: u32 = 1;
/// Live streams (a pipe or another non-seekable target, `RDTRACE=fd:N`): the layout of
/// [`V_INITIAL`] plus *floor* chunks (kind 6, [`crate::stream`]) that bound how far a live merge
/// must wait for a thread. Files never carry floors, and a tee copy of a stream drops them and
/// is written as a file of version [`CURRENT`].
pub const V_LIVE_STREAM: u32 = 2;
/// Region of interest: files of [`V_INITIAL`] plus a region-of-interest chunk (kind 7,
/// [`crate::chunk::RoiInfo`]) and [`crate::Event::Gap`] events where a thread's recording
/// resumed after a gap.
pub const V_REGION_OF_INTEREST: u32 = 3;
/// Streams of [`V_LIVE_STREAM`] with what [`V_REGION_OF_INTEREST`] added to files.
pub const V_REGION_OF_INTEREST_STREAM: u32 = 4;
/// Implied block entries: files of [`V_REGION_OF_INTEREST`] whose module metadata may mark
/// blocks as *implied* ([`crate::meta::BlockMeta::implied`]). Such a block has no block record
/// of its own: every edge into it is a recorded branch outcome, and the decoder emits the block
/// right after that branch event (see `docs/trace-format.md`). A module blob that marks blocks
/// carries their list after its tables and says this version in its header; a blob without
/// implied blocks keeps the [`V_INITIAL`] layout and header.
pub const V_IMPLIED_BLOCKS: u32 = 5;
/// Streams of [`V_REGION_OF_INTEREST_STREAM`] with what [`V_IMPLIED_BLOCKS`] added to files.
pub const V_IMPLIED_BLOCKS_STREAM: u32 = 6;
/// Derived accesses: files of [`V_IMPLIED_BLOCKS`] whose module metadata may mark memory
/// instructions as *derived* ([`crate::meta::MemInstrMeta::derived`]). Such an access has no
/// record of its own: its address is an earlier access's of the same block execution plus a
/// constant, and the decoder emits it right after the access event of the instruction before it
/// (see `docs/trace-format.md`). A module blob with derived accesses carries the implied blocks'
/// list (possibly empty) and then theirs after its tables, and says this version.
pub const V_DERIVED_ACCESSES: u32 = 7;
/// Streams of [`V_IMPLIED_BLOCKS_STREAM`] with what [`V_DERIVED_ACCESSES`] added to files.
pub const V_DERIVED_ACCESSES_STREAM: u32 = 8;
/// Loop runs: files of [`V_DERIVED_ACCESSES`] whose module metadata may mark single-block loops
/// as recorded in *runs* ([`crate::meta::BranchMeta::loop_run`]): every access of the loop's
/// block moves by a constant stride per iteration, and one loop-run event (the iteration count
/// and the addresses of the run's last iteration) stands for the iterations' accesses, branch
/// outcomes and implied block entries, which the decoder emits (see `docs/trace-format.md`). A
/// module blob with loop runs carries the implied blocks' and derived accesses' lists (possibly
/// empty) and then theirs after its tables, and says this version.
pub const V_LOOP_RUNS: u32 = 9;
/// Streams of [`V_DERIVED_ACCESSES_STREAM`] with what [`V_LOOP_RUNS`] added to files.
pub const V_LOOP_RUNS_STREAM: u32 = 10;
/// The version this build writes to files.
pub const CURRENT: u32 = V_LOOP_RUNS;
/// The version module metadata blobs without implied blocks or derived accesses are written
/// with: that layout has not changed since [`V_INITIAL`] (readers accept blobs up to
/// [`CURRENT`]; blobs with implied blocks say [`V_IMPLIED_BLOCKS`], with derived accesses
/// [`V_DERIVED_ACCESSES`], with loop runs [`V_LOOP_RUNS`]).
pub const META_BLOB: u32 = V_INITIAL;
/// The version this build writes to streams.
pub const STREAM: u32 = V_LOOP_RUNS_STREAM;
/// The oldest version this build still reads.
pub const OLDEST_SUPPORTED: u32 = V_INITIAL;

/// Whether a file (read with [`crate::Trace::open`]) of version `v` is readable: the file
/// versions, not the stream ones (a stream has floor chunks the file reader does not expect).
pub fn is_file_version(v: u32) -> bool {
    v == V_INITIAL
        || v == V_REGION_OF_INTEREST
        || v == V_IMPLIED_BLOCKS
        || v == V_DERIVED_ACCESSES
        || v == V_LOOP_RUNS
}

/// Whether a stream (read with [`crate::stream::LiveTrace`]) of version `v` is readable: every
/// version (a trace file piped in is a stream without floors).
pub fn is_stream_version(v: u32) -> bool {
    (OLDEST_SUPPORTED..=STREAM).contains(&v)
}

/// Whether a stream of version `v` carries floor chunks.
pub fn has_floors(v: u32) -> bool {
    v == V_LIVE_STREAM
        || v == V_REGION_OF_INTEREST_STREAM
        || v == V_IMPLIED_BLOCKS_STREAM
        || v == V_DERIVED_ACCESSES_STREAM
        || v == V_LOOP_RUNS_STREAM
}
