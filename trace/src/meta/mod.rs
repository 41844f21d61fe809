//! Static program metadata: what the instrumentation pass knows about every function, basic
//! block, memory instruction, branch, loop, OpenMP region and worksharing loop.
//!
//! The pass builds one [`ModuleMeta`] per translation unit with *module-local* ids and embeds it
//! in the object as a blob ([`ModuleMeta::to_blob`]). At run time the runtime assigns each module
//! a base per [`IdKind`] and writes blob + bases into the trace. A reader merges all modules into
//! one [`ProgramMeta`] whose tables are indexed by *global* id (`local + base`).

use crate::abi::IdKind;
use crate::error::TraceError;
use serde::{Deserialize, Serialize};

mod blob;
pub use blob::{blob_counts, BLOB_HEADER_LEN, BLOB_MAGIC, MAX_ACCESS_SIZE};

/// A source position from the debug line table (`file` indexes the owning `files` table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceLoc {
    /// Index into the `files` table of the module (local) or program (global).
    pub file: u32,
    /// 1-based line; 0 when unknown.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub col: u32,
}

/// What a memory instruction does to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AccessKind {
    /// A plain or vector load.
    Load,
    /// A plain or vector store.
    Store,
    /// `atomicrmw`: reads and writes.
    AtomicRmw,
    /// `cmpxchg`: reads and (maybe) writes.
    CmpXchg,
    /// Source side of `memcpy`/`memmove`.
    TransferRead,
    /// Destination side of `memcpy`/`memmove`.
    TransferWrite,
    /// `memset`.
    Set,
}

impl AccessKind {
    /// Whether the access reads memory.
    pub fn reads(self) -> bool {
        matches!(
            self,
            Self::Load | Self::AtomicRmw | Self::CmpXchg | Self::TransferRead
        )
    }
    /// Whether the access writes memory.
    pub fn writes(self) -> bool {
        !matches!(self, Self::Load | Self::TransferRead)
    }
    /// Short lower-case name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Load => "load",
            Self::Store => "store",
            Self::AtomicRmw => "atomicrmw",
            Self::CmpXchg => "cmpxchg",
            Self::TransferRead => "memcpy-src",
            Self::TransferWrite => "memcpy-dst",
            Self::Set => "memset",
        }
    }
}

/// Sharing class of a memory instruction's address, as derived by the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VarClass {
    /// Derives from a global, the heap, or a shared-variable argument of an outlined function.
    Shared,
    /// Derives from an `alloca` (the stack of the executing thread).
    Private,
}

/// One function of a module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionMeta {
    /// Symbol name (e.g. `main.omp_outlined`).
    pub name: String,
    /// Location of the function's first instruction with a debug location.
    pub loc: Option<SourceLoc>,
    /// True for functions outlined by clang for a parallel region.
    pub outlined: bool,
    /// True when the function runs inside a parallel region: outlined, or called from one.
    pub parallel: bool,
    /// Id of the first block; blocks of a function are numbered contiguously.
    pub first_block: u32,
    /// Number of blocks.
    pub num_blocks: u32,
}

/// One basic block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockMeta {
    /// Owning function id.
    pub function: u32,
    /// The block's LLVM label, or `bb<N>` when unnamed.
    pub name: String,
    /// Location of its first instruction with a debug location.
    pub loc: Option<SourceLoc>,
    /// Whether the block runs inside a parallel region (copied from its function).
    pub parallel: bool,
    /// Successor block ids, in terminator order.
    pub successors: Vec<u32>,
    /// Innermost natural loop containing the block.
    pub loop_id: Option<u32>,
    /// Id of the block's first memory instruction; instructions of a block are contiguous.
    pub first_mem_instr: u32,
    /// Number of memory instructions in the block.
    pub num_mem_instrs: u32,
    /// The block has no block record of its own ([`crate::version::V_IMPLIED_BLOCKS`]): every
    /// edge into it is a recorded branch outcome, and the decoder emits the block event right
    /// after that branch event. Carried in the blob after the tables, not in this struct's
    /// postcard encoding (which is pinned by `tests/meta_format.rs`).
    #[serde(skip)]
    pub implied: bool,
}

/// One memory instruction (for memcpy/memmove: one for each side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemInstrMeta {
    /// Owning block id.
    pub block: u32,
    /// What it does.
    pub kind: AccessKind,
    /// Static access size in bytes; 0 when the size is given per event (ranges).
    pub size: u32,
    /// True for vector (SIMD) accesses.
    pub vector: bool,
    /// Source location.
    pub loc: Option<SourceLoc>,
    /// Shared or private.
    pub class: VarClass,
    /// How the class was derived, e.g. `global @A` or `alloca %sum in main.omp_outlined`.
    pub derivation: String,
    /// The access has no record of its own ([`crate::version::V_DERIVED_ACCESSES`]): its
    /// address is another access's of the same block plus a constant, and the decoder emits it
    /// right after the access event of the instruction before it (`id - 1`). Carried in the
    /// blob after the tables, not in this struct's postcard encoding (pinned by
    /// `tests/meta_format.rs`).
    #[serde(skip)]
    pub derived: Option<DerivedAddress>,
}

/// Where a derived access's address comes from: the same execution of its block made the
/// access `anchor` (an earlier instruction of the block, recorded) with no call in between, and
/// both addresses are one pointer plus constant offsets, so this one is at `anchor`'s address
/// plus `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DerivedAddress {
    /// The recorded access whose address this one's follows from.
    pub anchor: u32,
    /// Bytes from `anchor`'s address to this one's.
    pub offset: i64,
}

/// Kind of an instrumented branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BranchKind {
    /// Two-way conditional `br`.
    Conditional,
    /// `switch`; successor 0 is the default destination.
    Switch,
    /// Unconditional `br` that is a loop back-edge (recorded so every iteration is visible).
    BackEdge,
}

/// One instrumented branch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchMeta {
    /// Block whose terminator this is.
    pub block: u32,
    /// Kind of branch.
    pub kind: BranchKind,
    /// Successor block ids, indexed by the outcome recorded in the trace.
    pub successors: Vec<u32>,
    /// For each successor: the loop whose back-edge it is, if it is one.
    pub back_edge_of: Vec<Option<u32>>,
    /// Source location.
    pub loc: Option<SourceLoc>,
    /// The branch ends a single-block loop whose iterations are recorded in runs
    /// ([`crate::version::V_LOOP_RUNS`]). Carried in the blob after the tables, not in this
    /// struct's postcard encoding (pinned by `tests/meta_format.rs`).
    #[serde(skip)]
    pub loop_run: Option<LoopRun>,
}

/// A single-block loop recorded in runs: the branch's block is a successor of itself and
/// implied, its memory instructions are all fixed-size, and each moves by the same stride in
/// every iteration of a loop instance. One loop-run event (`docs/trace-format.md`, "Loop runs")
/// gives a run's iteration count and the addresses of its last iteration (and the run-time
/// strides); the decoder emits every iteration's accesses (iteration `j` of `count`: the last
/// address minus `(count - 1 - j)` strides), the branch event and the implied block after it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LoopRun {
    /// Bytes each memory instruction of the block moves per iteration, in the block's order
    /// (one per instruction, at most [`crate::abi::LOOP_RUN_MAX_ACCESSES`]): a constant, or
    /// `None` for a value fixed before the loop starts (an array's row length, a Fortran
    /// descriptor's byte stride), which each loop-run event carries.
    pub strides: Vec<Option<i64>>,
}

/// One natural loop (computed by the pass from the dominator tree).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopMeta {
    /// Owning function.
    pub function: u32,
    /// Header block.
    pub header: u32,
    /// Enclosing loop.
    pub parent: Option<u32>,
    /// Nesting depth, 1 for outermost loops.
    pub depth: u32,
    /// Source location of the header.
    pub loc: Option<SourceLoc>,
}

/// One OpenMP parallel region (a `__kmpc_fork_call` site and the function it starts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionMeta {
    /// The outlined function started by the fork.
    pub outlined_function: u32,
    /// Block containing the `__kmpc_fork_call`.
    pub fork_block: u32,
    /// Source location of the fork call.
    pub loc: Option<SourceLoc>,
    /// Names (or `argN`) of the shared-variable arguments passed to the outlined function.
    pub shared_args: Vec<String>,
}

/// Worksharing-loop runtime entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WorkshareKind {
    /// `__kmpc_for_static_init_*`.
    Static,
    /// `__kmpc_dispatch_init_*` (dynamic, guided, runtime, ...).
    Dispatch,
}

/// One OpenMP worksharing loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkshareMeta {
    /// Function containing the init call.
    pub function: u32,
    /// Block containing the init call.
    pub block: u32,
    /// Runtime entry point.
    pub kind: WorkshareKind,
    /// libomp `sched_type` constant when it is a compile-time constant (see
    /// [`Schedule`](crate::Schedule)).
    pub schedule: Option<i32>,
    /// Chunk size when it is a compile-time constant.
    pub chunk: Option<i64>,
    /// The natural loop driven by this worksharing construct, when found.
    pub loop_id: Option<u32>,
    /// Source location of the init call.
    pub loc: Option<SourceLoc>,
}

/// The file-name table and the seven id-kind tables, in [`IdKind::ALL`] order: with
/// module-local ids inside a [`ModuleMeta`], with global ids inside a [`ProgramMeta`] (the one
/// definition both share; they reach its fields through `Deref`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaTables {
    /// Source file names referenced by `SourceLoc::file`.
    pub files: Vec<String>,
    /// Functions with bodies.
    pub functions: Vec<FunctionMeta>,
    /// Basic blocks.
    pub blocks: Vec<BlockMeta>,
    /// Memory instructions.
    pub mem_instrs: Vec<MemInstrMeta>,
    /// Branches.
    pub branches: Vec<BranchMeta>,
    /// Natural loops.
    pub loops: Vec<LoopMeta>,
    /// OpenMP parallel regions.
    pub regions: Vec<RegionMeta>,
    /// OpenMP worksharing loops.
    pub workshares: Vec<WorkshareMeta>,
}

impl MetaTables {
    /// Number of entities of each kind, in [`IdKind::ALL`] order.
    pub fn counts(&self) -> [u32; IdKind::COUNT] {
        [
            self.functions.len() as u32,
            self.blocks.len() as u32,
            self.mem_instrs.len() as u32,
            self.branches.len() as u32,
            self.loops.len() as u32,
            self.regions.len() as u32,
            self.workshares.len() as u32,
        ]
    }

    /// Formats a location as `file:line:col` (or `?` when unknown).
    pub fn format_loc(&self, loc: Option<SourceLoc>) -> String {
        format_loc(&self.files, loc)
    }

    /// Whether a block belongs to a parallel region (false for unknown ids).
    pub fn block_is_parallel(&self, bb: u32) -> bool {
        self.blocks.get(bb as usize).is_some_and(|b| b.parallel)
    }
}

/// Everything the pass knows about one translation unit, with module-local ids.
///
/// Postcard encodes a struct as its fields in order, so this `{name, content_hash, tables}`
/// encodes exactly as the flat struct it once was (`tests/meta_format.rs` pins the bytes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleMeta {
    /// Module identifier (usually the source file path given to clang).
    pub name: String,
    /// Hash of the module's bitcode before instrumentation (stable across identical builds).
    pub content_hash: u64,
    /// The module's tables, with module-local ids.
    pub tables: MetaTables,
}

/// `Deref` of a struct with a `tables: MetaTables` field to its tables, so `meta.blocks` reads
/// the same on a [`ModuleMeta`] and a [`ProgramMeta`].
macro_rules! deref_to_tables {
    ($t:ty) => {
        impl std::ops::Deref for $t {
            type Target = MetaTables;
            fn deref(&self) -> &MetaTables {
                &self.tables
            }
        }

        impl std::ops::DerefMut for $t {
            fn deref_mut(&mut self) -> &mut MetaTables {
                &mut self.tables
            }
        }
    };
}

deref_to_tables!(ModuleMeta);

/// Formats a location as `file:line:col` with `files` the file-name table `loc.file` indexes,
/// or `?` when unknown (the one formatting of source locations, for the pass's explanations and
/// every report).
pub fn format_loc(files: &[String], loc: Option<SourceLoc>) -> String {
    match loc {
        Some(l) if l.line > 0 => {
            let file = files
                .get(l.file as usize)
                .map(String::as_str)
                .unwrap_or("?");
            format!("{file}:{}:{}", l.line, l.col)
        }
        _ => "?".to_string(),
    }
}

/// The whole program's metadata: all modules merged, tables indexed by global id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramMeta {
    /// Module names with their bases, in registration order.
    pub modules: Vec<ModuleInfo>,
    /// All modules' tables, with global ids (and the global `SourceLoc::file` space).
    pub tables: MetaTables,
}

deref_to_tables!(ProgramMeta);

/// A module as registered at run time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleInfo {
    /// Module name.
    pub name: String,
    /// Content hash from the pass.
    pub content_hash: u64,
    /// Base of each id kind, in [`IdKind::ALL`] order.
    pub bases: [u32; IdKind::COUNT],
}

impl ProgramMeta {
    /// Adds a module whose ids start at `bases`. Modules must be added in base order, the order
    /// in which the runtime registered them; a gap or overlap is reported as corrupt metadata.
    pub fn add_module(
        &mut self,
        module: ModuleMeta,
        bases: [u32; IdKind::COUNT],
    ) -> Result<(), TraceError> {
        let expected = self.counts();
        if bases != expected {
            return Err(TraceError::BadMetadata(format!(
                "module {} registered at bases {bases:?}, expected {expected:?}",
                module.name
            )));
        }
        let [fb, bb, mb, _rb, lb, _gb, _wb] = bases;
        let file_base = self.files.len() as u32;
        let loc = |l: Option<SourceLoc>| {
            l.map(|l| SourceLoc {
                file: l.file + file_base,
                ..l
            })
        };
        let ModuleMeta {
            name,
            content_hash,
            tables: t,
        } = module;
        self.modules.push(ModuleInfo {
            name,
            content_hash,
            bases,
        });
        self.files.extend(t.files);
        self.functions
            .extend(t.functions.into_iter().map(|f| FunctionMeta {
                loc: loc(f.loc),
                first_block: f.first_block + bb,
                ..f
            }));
        self.blocks.extend(t.blocks.into_iter().map(|b| BlockMeta {
            function: b.function + fb,
            loc: loc(b.loc),
            successors: b.successors.iter().map(|s| s + bb).collect(),
            loop_id: b.loop_id.map(|l| l + lb),
            first_mem_instr: b.first_mem_instr + mb,
            ..b
        }));
        self.mem_instrs
            .extend(t.mem_instrs.into_iter().map(|m| MemInstrMeta {
                block: m.block + bb,
                loc: loc(m.loc),
                derived: m.derived.map(|d| DerivedAddress {
                    anchor: d.anchor + mb,
                    ..d
                }),
                ..m
            }));
        self.branches
            .extend(t.branches.into_iter().map(|b| BranchMeta {
                block: b.block + bb,
                successors: b.successors.iter().map(|s| s + bb).collect(),
                back_edge_of: b.back_edge_of.iter().map(|l| l.map(|l| l + lb)).collect(),
                loc: loc(b.loc),
                ..b
            }));
        self.loops.extend(t.loops.into_iter().map(|l| LoopMeta {
            function: l.function + fb,
            header: l.header + bb,
            parent: l.parent.map(|p| p + lb),
            loc: loc(l.loc),
            ..l
        }));
        self.regions
            .extend(t.regions.into_iter().map(|r| RegionMeta {
                outlined_function: r.outlined_function + fb,
                fork_block: r.fork_block + bb,
                loc: loc(r.loc),
                ..r
            }));
        self.workshares
            .extend(t.workshares.into_iter().map(|w| WorkshareMeta {
                function: w.function + fb,
                block: w.block + bb,
                loop_id: w.loop_id.map(|l| l + lb),
                loc: loc(w.loc),
                ..w
            }));
        Ok(())
    }
}
