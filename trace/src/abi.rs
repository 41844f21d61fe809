//! The runtime ABI: every `extern "C"` symbol the instrumentation pass calls and the runtime
//! defines. Part of ABI, do not change a name or a signature without bumping
//! [`crate::version::CURRENT`].
//!
//! All ids passed to the hooks are *global* ids: the pass loads the module's id bases from the
//! module's base table (filled in by [`REGISTER_MODULE`]) and adds its module-local id.

/// The hook table: every `extern "C"` hook with its parameter names and Rust types, the one
/// definition both sides are generated from. `for_each_hook!(m)` calls the macro `m` with one
/// entry `CONST, field: symbol(param: type, ...);` per hook (docs first); this module turns it
/// into the name constants and [`HOOKS`], the runtime asserts at compile time that it defines
/// each symbol with exactly these parameter types, and the pass declares each hook from it. A
/// rename or a signature change on one side therefore fails to compile.
#[macro_export]
macro_rules! for_each_hook {
    ($m:ident) => {
        $m! {
            /// `void __rdt_register_module(const uint8_t *blob, uint64_t blob_len, uint32_t *bases)`.
            ///
            /// Called from the module constructor of every instrumented translation unit. `blob` is
            /// the module's metadata blob ([`crate::meta::ModuleMeta::to_blob`]); `bases` points to
            /// the module's table of [`IdKind::COUNT`] `u32` bases that the runtime fills in before
            /// returning.
            REGISTER_MODULE, register_module: __rdt_register_module(blob: *const u8, len: u64, bases: *mut u32);
            /// `void __rdt_bb(uint32_t bb)`: entry of basic block `bb` (at its first non-PHI
            /// instruction). Code built without inline records calls it for every block; it
            /// counts the block on [`COUNTDOWN_TLS`] as the inline code does (calling what
            /// [`BLOCK_COUNTDOWN`] calls when it runs out) and records the block.
            BASIC_BLOCK, basic_block: __rdt_bb(bb: u32);
            /// `void __rdt_block_countdown(void)`: called by inline block code, before the
            /// block's record, when its decrement of [`COUNTDOWN_TLS`] left it below zero
            /// (at least once in every [`INLINE_BLOCKS_BETWEEN_HOOKS`] blocks, and at a thread's
            /// first block). Registers the thread, writes the ordering stamp that is due (every
            /// `RDTRACE_STAMP_EVERY` blocks), keeps the buffer's free-space promise and sets the
            /// countdown again.
            BLOCK_COUNTDOWN, block_countdown: __rdt_block_countdown();
            /// `void __rdt_access(uint32_t mi, const void *addr)`: memory instruction `mi` touches
            /// `addr` with the static size recorded in its metadata.
            ACCESS, access: __rdt_access(mi: u32, addr: *const ::core::ffi::c_void);
            /// `void __rdt_access_range(uint32_t mi, const void *addr, uint64_t len)`: memory
            /// instruction `mi` touches `len` bytes from `addr` (memcpy/memmove/memset, or a size
            /// known only at run time).
            ACCESS_RANGE, access_range: __rdt_access_range(mi: u32, addr: *const ::core::ffi::c_void, len: u64);
            /// `void __rdt_branch(uint32_t br, uint32_t outcome)`: branch `br` went to successor
            /// number `outcome` (index into its metadata successor list).
            BRANCH, branch: __rdt_branch(br: u32, outcome: u32);
            /// `void __rdt_omp_fork(uint32_t region)`: the encountering thread is about to call
            /// `__kmpc_fork_call` for `region`.
            OMP_FORK, omp_fork: __rdt_omp_fork(region: u32);
            /// `void __rdt_omp_join(uint32_t region)`: `__kmpc_fork_call` for `region` returned.
            OMP_JOIN, omp_join: __rdt_omp_join(region: u32);
            /// `void __rdt_omp_region_enter(uint32_t region, int32_t thread_num, int32_t
            /// num_threads)`: entry of the outlined function of `region`; the arguments come from
            /// `omp_get_thread_num()` and `omp_get_num_threads()` called by the instrumented code.
            OMP_REGION_ENTER, omp_region_enter: __rdt_omp_region_enter(region: u32, thread_num: i32, num_threads: i32);
            /// `void __rdt_omp_region_exit(uint32_t region)`: return of the outlined function of
            /// `region`.
            OMP_REGION_EXIT, omp_region_exit: __rdt_omp_region_exit(region: u32);
            /// `void __rdt_omp_for_init(uint32_t ws, int32_t schedule, int64_t lower, int64_t
            /// upper, int64_t stride, int64_t incr, int64_t chunk)`: after
            /// `__kmpc_for_static_init_*` (the bounds this thread received) or
            /// `__kmpc_dispatch_init_*` (the whole loop's bounds).
            OMP_FOR_INIT, omp_for_init: __rdt_omp_for_init(ws: u32, schedule: i32, lower: i64, upper: i64, stride: i64, incr: i64, chunk: i64);
            /// `void __rdt_omp_dispatch_next(uint32_t ws, int32_t more, int64_t lower, int64_t
            /// upper)`: after `__kmpc_dispatch_next_*` returned `more` with the chunk
            /// `[lower, upper]`.
            OMP_DISPATCH_NEXT, omp_dispatch_next: __rdt_omp_dispatch_next(ws: u32, more: i32, lower: i64, upper: i64);
            /// `void __rdt_omp_for_fini(uint32_t ws)`: after `__kmpc_for_static_fini` / end of a
            /// dispatch loop.
            OMP_FOR_FINI, omp_for_fini: __rdt_omp_for_fini(ws: u32);
            /// `void __rdt_omp_barrier(void)`: after `__kmpc_barrier` returned.
            OMP_BARRIER, omp_barrier: __rdt_omp_barrier();
            /// `void __rdt_roi_enter(uint32_t function)`: entry of `function` (before anything else
            /// the function records), so the runtime can follow which functions are on the
            /// thread's stack for a region of interest (`RDTRACE_ROI`).
            ROI_ENTER, roi_enter: __rdt_roi_enter(function: u32);
            /// `void __rdt_roi_exit(uint32_t function)`: return (or exception propagation) from
            /// `function`, after everything else the function records.
            ROI_EXIT, roi_exit: __rdt_roi_exit(function: u32);
            /// `void __rdt_check(void)`: makes sure the calling thread's buffer has room for
            /// [`INLINE_SLACK_RECORDS`] more inline records (called after calls and inside long
            /// blocks by code that appends records inline).
            CHECK, check: __rdt_check();
        }
    };
}

/// C parameter type of a hook as the pass declares it (LLVM has no signedness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbiType {
    /// `i32` (`int32_t` / `uint32_t`).
    I32,
    /// `i64` (`int64_t` / `uint64_t`).
    I64,
    /// `ptr`.
    Ptr,
}

/// A Rust parameter type of the hook table and its [`AbiType`].
pub trait AbiParam {
    /// The C type.
    const TYPE: AbiType;
}

impl AbiParam for u32 {
    const TYPE: AbiType = AbiType::I32;
}
impl AbiParam for i32 {
    const TYPE: AbiType = AbiType::I32;
}
impl AbiParam for u64 {
    const TYPE: AbiType = AbiType::I64;
}
impl AbiParam for i64 {
    const TYPE: AbiType = AbiType::I64;
}
impl<T> AbiParam for *const T {
    const TYPE: AbiType = AbiType::Ptr;
}
impl<T> AbiParam for *mut T {
    const TYPE: AbiType = AbiType::Ptr;
}

/// One hook: its symbol and C parameter types (every hook returns `void`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hook {
    /// Symbol name.
    pub name: &'static str,
    /// Parameter types in order.
    pub params: &'static [AbiType],
}

macro_rules! define_hooks {
    ($( $(#[$doc:meta])* $konst:ident, $field:ident : $sym:ident ( $($p:ident : $t:ty),* ); )*) => {
        $( $(#[$doc])* pub const $konst: &str = stringify!($sym); )*

        /// Every hook name, for tools that check a module or binary for them.
        pub const ALL_HOOKS: &[&str] = &[$($konst),*];

        /// Every hook with its parameter types, in [`ALL_HOOKS`] order.
        pub const HOOKS: &[Hook] = &[$(Hook {
            name: $konst,
            params: &[$(<$t as AbiParam>::TYPE),*],
        }),*];
    };
}

for_each_hook!(define_hooks);

/// `void __rdtrace_start(void)`: the program's `RDTRACE_START()` marker (`rdtrace.h`): every
/// thread records from here (called by user code, not by the pass).
pub const MARKER_START: &str = "__rdtrace_start";
/// `void __rdtrace_stop(void)`: the program's `RDTRACE_STOP()` marker: no thread records from
/// here until the next start.
pub const MARKER_STOP: &str = "__rdtrace_stop";
/// `void __rdtrace_markers_used(void)`: called before `main` by every translation unit that
/// includes `rdtrace.h` under rdcc, so the run starts with recording off.
pub const MARKERS_USED: &str = "__rdtrace_markers_used";
/// The macro rdcc defines for the programs it compiles, which makes `rdtrace.h`'s markers call
/// the runtime (without it, under a plain compiler, they compile to nothing).
pub const RDTRACE_MACRO: &str = "__RDTRACE__";

/// `__thread void *__rdt_cursor`: where the calling thread's next raw record goes. Instrumented
/// code built with inline records writes a [`crate::raw::RawEvent`] there and advances it by 16
/// bytes, without a call. The runtime guarantees that after any hook returns there is room for
/// [`INLINE_SLACK_RECORDS`] records.
pub const CURSOR_TLS: &str = "__rdt_cursor";
/// Size in bytes of one raw record ([`crate::raw::RawEvent`]) at the cursor.
pub const RECORD_SIZE: u32 = 16;
/// Alignment in bytes of every raw record, and of the stores the pass emits for the record's
/// first word: the runtime's buffers (thread buffers and the untraced threads' discard buffer)
/// are arrays of [`crate::raw::RawEvent`], whose alignment is asserted equal to this at compile
/// time, and the pass stores with exactly this alignment, so the promise LLVM relies on holds.
pub const RECORD_ALIGN: u32 = 16;
/// `__thread int32_t __rdt_blocks_free` (initially 0): block entries the calling thread may
/// make without calling [`BLOCK_COUNTDOWN`]. Instrumented code built with inline records
/// decrements it at every block entry, before the block's record, and calls the hook when that
/// leaves it below zero (the sign of the decrement: one `dec` in memory and a jump on the sign
/// flag, where a test for zero or below took a load, a store and a compare); the runtime sets
/// it again (to at most [`INLINE_BLOCKS_BETWEEN_HOOKS`] - 1). Its initial 0 sends a thread's
/// first block through the hook, which registers the thread (the cursor is null until then).
/// Named for its meaning: it was `__rdt_countdown`, one more, tested for zero or below, so an
/// object instrumented for that meaning fails to link instead of counting one block more.
pub const COUNTDOWN_TLS: &str = "__rdt_blocks_free";
/// Name of the thread-local `int64_t` that instrumented code adds to at every loop-run record
/// (see [`LOOP_RUN_MAX_ACCESSES`]): the events its iterations stand for beyond the record
/// itself. The runtime's countdown hook hands the thread's buffer to its writer once this
/// reaches a few times the buffer's record threshold, as it does when the records do, and sets
/// it back to 0: so a
/// buffer, and the chunk it ends in, decodes to a bounded number of events however many
/// iterations its runs hold (readers hold a chunk's events while others decode).
pub const EXPANDED_TLS: &str = "__rdt_expanded";
/// Room the runtime leaves after every hook, in records.
pub const INLINE_SLACK_RECORDS: usize = 2048;
/// Most inline records the pass emits on one path inside a block without a hook call between
/// them, the block's own record included (the pass calls [`CHECK`] inside longer blocks).
pub const INLINE_RECORDS_BETWEEN_CHECKS: usize = 64;
/// Most blocks the runtime lets a thread enter between two calls of [`BLOCK_COUNTDOWN`] (the
/// countdown it sets is at most this). Blocks are no hooks when records are inline, so between
/// two hooks a thread appends at most this many blocks' worth of records, wherever the calls
/// and returns between them go: at most half the slack.
pub const INLINE_BLOCKS_BETWEEN_HOOKS: usize = 16;
const _: () = assert!(
    INLINE_BLOCKS_BETWEEN_HOOKS * INLINE_RECORDS_BETWEEN_CHECKS <= INLINE_SLACK_RECORDS / 2
);

/// Most memory instructions a loop recorded in runs may have ([`crate::meta::LoopRun`]): a
/// run's records (one plus one per instruction) stay well within
/// [`INLINE_RECORDS_BETWEEN_CHECKS`].
pub const LOOP_RUN_MAX_ACCESSES: usize = 32;
/// Most iterations one loop-run record stands for: the instrumentation ends a run at this count
/// even when the block countdown has not run out (a signal handler's blocks can re-arm it), so
/// a run's events stay bounded by its bytes.
pub const LOOP_RUN_MAX_ITERATIONS: u32 = 256;
const _: () = assert!(LOOP_RUN_MAX_ACCESSES + 2 <= INLINE_RECORDS_BETWEEN_CHECKS);

/// Name of the module-private global `[IdKind::COUNT x i32]` that holds a module's id bases.
pub const MODULE_BASES_GLOBAL: &str = "__rdt_module_bases";
/// Name of the module-private global `[3 x i64]` that holds the first words of a module's
/// inline block, access and branch records without their module-local ids (the tagged id
/// bases), filled by the module's constructor from the base table. Private to the pass's code.
pub const RECORD_HEADS_GLOBAL: &str = "__rdt_record_heads";
/// Name of the module-private constant that holds a module's metadata blob.
pub const MODULE_BLOB_GLOBAL: &str = "__rdt_module_meta";
/// Name of the module constructor the pass adds.
pub const MODULE_CTOR: &str = "__rdt_module_ctor";
/// Priority of the module constructor in `llvm.global_ctors` (runs before ordinary C constructors).
pub const MODULE_CTOR_PRIORITY: u32 = 1;

/// The kinds of static entities that get ids; each kind has its own dense global id space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum IdKind {
    /// Functions.
    Function = 0,
    /// Basic blocks.
    Block = 1,
    /// Memory instructions.
    MemInstr = 2,
    /// Conditional branches, switches and unconditional loop back-edges.
    Branch = 3,
    /// Natural loops.
    Loop = 4,
    /// OpenMP parallel regions (outlined functions started through `__kmpc_fork_call`).
    Region = 5,
    /// OpenMP worksharing loops (`__kmpc_for_static_init_*` / `__kmpc_dispatch_init_*` sites).
    Workshare = 6,
}

impl IdKind {
    /// Number of id kinds, the length of a module's base table.
    pub const COUNT: usize = 7;
    /// All kinds in base-table order.
    pub const ALL: [IdKind; IdKind::COUNT] = [
        IdKind::Function,
        IdKind::Block,
        IdKind::MemInstr,
        IdKind::Branch,
        IdKind::Loop,
        IdKind::Region,
        IdKind::Workshare,
    ];
}
