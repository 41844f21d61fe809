//! rdpass: the rdtools instrumentation pass over LLVM 19 IR (through inkwell).
//!
//! It labels every function, basic block, memory instruction, branch, natural loop, OpenMP
//! parallel region and worksharing loop of a module with dense module-local ids, inserts calls
//! to the runtime hooks named in [`rdtrace::abi`], and embeds the module's static metadata
//! ([`rdtrace::meta::ModuleMeta`]) together with a constructor that registers it at start-up.
//!
//! It depends on `rdtrace` only for the ABI names and the metadata types; it knows nothing of
//! the runtime's implementation, the trace file format, or the analyses.
//!
//! Code map: `ids` walks the original module and numbers everything, `dominators` and `loops`
//! find natural loops, `openmp` recognises the libomp lowering of clang and flang, `classify`
//! labels addresses shared or private, `debugloc` reads source locations, `fortran` records the
//! array traffic of flang's runtime calls, `names` prints values as the textual
//! IR does, `hooks` and `instrument` insert the calls, `embed` adds the blob and constructor.
//!
//! If instrumentation fails part-way (an error other than a read error), the module is left
//! partially instrumented and should be discarded.

mod classify;
mod debugloc;
mod derived;
pub mod dominators;
mod embed;
mod error;
mod fortran;
mod fortran_runtime;
mod hooks;
mod ids;
mod implied;
mod instrument;
mod ir;
mod loop_runs;
pub mod loops;
mod names;
mod openmp;

use std::path::Path;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use rdtrace::abi;
use rdtrace::meta::{
    BlockMeta, BranchMeta, FunctionMeta, LoopMeta, MemInstrMeta, ModuleMeta, RegionMeta, VarClass,
    WorkshareMeta,
};

pub use error::PassError;

use classify::Classifier;
use debugloc::FileTable;
use ids::ModuleLayout;
use names::ValueNames;

/// Options of the pass.
#[derive(Clone, Debug, Default)]
pub struct PassConfig {
    /// Fill [`InstrumentReport::explain`] with one line per memory instruction.
    pub explain: bool,
    /// Name recorded in [`ModuleMeta::name`]; the module's source file name when `None`.
    pub module_name: Option<String>,
    /// Append block, fixed-size access and branch records inline at the thread-local cursor
    /// (`rdtrace::abi::CURSOR_TLS`) instead of calling `__rdt_bb` / `__rdt_access` /
    /// `__rdt_branch`, with a `__rdt_check` after every call and inside long blocks, and a
    /// thread-local block countdown (`rdtrace::abi::COUNTDOWN_TLS`) that calls
    /// `__rdt_block_countdown` every few blocks for the ordering stamps. Much cheaper per event;
    /// the trace is the same. `rdcc` turns it on unless `--rd-no-inline` is given.
    pub inline_records: bool,
    /// With [`PassConfig::inline_records`]: give every block its own block record, instead of
    /// leaving out the records of blocks that their predecessors' branch records already imply
    /// (`rdtrace::version::V_IMPLIED_BLOCKS`; the decoded events are the same either way).
    /// `rdcc --rd-no-implied-blocks`.
    pub no_implied_blocks: bool,
    /// With [`PassConfig::inline_records`]: give every access its own record, instead of
    /// leaving out those whose address is an earlier access's of the same block plus a constant
    /// (`rdtrace::version::V_DERIVED_ACCESSES`; the decoded events are the same either way).
    /// `rdcc --rd-no-derived-accesses`.
    pub no_derived_accesses: bool,
    /// With [`PassConfig::inline_records`] and implied blocks: record every iteration of every
    /// loop, instead of recording single-block loops whose accesses move by constant strides in
    /// runs of iterations (`rdtrace::version::V_LOOP_RUNS`; the decoded events are the same
    /// either way). `rdcc --rd-no-loop-runs`.
    pub no_loop_runs: bool,
}

/// What the pass did to a module.
#[derive(Clone, Debug)]
pub struct InstrumentReport {
    /// The metadata embedded in the module (module-local ids).
    pub meta: ModuleMeta,
    /// With [`PassConfig::explain`]: one line per memory instruction, e.g.
    /// `mi 12 jacobi.c:20:9 load shared: %4 loaded -> shared variable argument %3 of main.omp_outlined`,
    /// plus `-` lines for memory instructions that are not traced.
    pub explain: Vec<String>,
}

/// Instruments `module` in place and verifies the result.
pub fn instrument_module(
    module: &Module<'_>,
    cfg: &PassConfig,
) -> Result<InstrumentReport, PassError> {
    if module.get_global(abi::MODULE_BLOB_GLOBAL).is_some()
        || module.get_global(abi::MODULE_BASES_GLOBAL).is_some()
    {
        return Err(PassError::AlreadyInstrumented(hooks::module_label(module)));
    }
    let content_hash = fnv1a64(module.write_bitcode_to_memory().as_slice());

    // Everything is read from the original module before the first insertion.
    let names = ValueNames::compute(module);
    let layout = ModuleLayout::scan(module);
    let omp = openmp::analyse(&layout);
    // Implied blocks need the inline records' edge records (see `implied`).
    let implied = if cfg.inline_records && !cfg.no_implied_blocks {
        implied::ImpliedEntries::compute(&layout)
    } else {
        implied::ImpliedEntries::none(layout.blocks.len())
    };
    // Loops recorded in runs need implied blocks (see `loop_runs`).
    let runs = if cfg.inline_records && !cfg.no_implied_blocks && !cfg.no_loop_runs {
        loop_runs::LoopRuns::compute(module, &layout, &implied)
    } else {
        loop_runs::LoopRuns::none(&layout)
    };
    // The inline records' checks, and the derived accesses they bound (see `derived`).
    let derived = if cfg.inline_records {
        let derive = !cfg.no_derived_accesses;
        derived::DerivedAccesses::compute(module, &layout, (&implied, &runs), derive)
    } else {
        derived::DerivedAccesses::none(&layout)
    };
    let mut files = FileTable::default();
    if fortran::is_flang_module(module) {
        let functions = layout.functions.iter();
        files.inherit_missing(functions.map(|f| (f.blocks.as_slice(), f.succs.as_slice())));
    }
    let mut meta = ModuleMeta {
        name: cfg
            .module_name
            .clone()
            .unwrap_or_else(|| hooks::module_label(module)),
        content_hash,
        ..ModuleMeta::default()
    };
    let mut explain = build_meta(&mut meta, &mut files, &layout, &omp, &names, cfg.explain);
    for (block, &implied) in meta.blocks.iter_mut().zip(&implied.implied) {
        block.implied = implied;
    }
    for (mi, &derived) in meta.mem_instrs.iter_mut().zip(&derived.derived) {
        mi.derived = derived;
    }
    for (br, run) in runs.iter() {
        let strides = run.strides.iter().map(|s| s.constant()).collect();
        meta.branches[br as usize].loop_run = Some(rdtrace::meta::LoopRun { strides });
        let (first, _) = layout.block_mem_range[run.block as usize];
        // Runs that end where a narrow index could wrap say so (see `loop_runs::WrapCheck`).
        let checked = match run.wrap_checks.len() {
            0 => String::new(),
            1 => ", ends where a narrow index could wrap".to_string(),
            n => format!(", ends where one of {n} narrow indices could wrap"),
        };
        for (k, stride) in run.strides.iter().enumerate() {
            if let Some(line) = explain.get_mut(first as usize + k) {
                let per = match stride.constant() {
                    Some(c) => format!("{c:+}"),
                    None => "a run-time stride".to_string(),
                };
                line.push_str(&format!(
                    " (no record: loop run, {per} per iteration{checked})"
                ));
            }
        }
    }
    // The explain lines start with one per memory instruction, in id order.
    for (line, d) in explain.iter_mut().zip(&derived.derived) {
        if let Some(d) = d {
            line.push_str(&format!(
                " (no record: at mi {}'s address {:+})",
                d.anchor, d.offset
            ));
        }
    }
    meta.files = files.into_files();
    if cfg.module_name.is_none() && fortran::is_flang_module(module) {
        // Every flang module is called `FIRModule`; its first source file says more.
        if let Some(source) = meta.files.first() {
            meta.name = source.clone();
        }
    }

    let ctx = module.get_context();
    let builder = ctx.create_builder();
    let hooks = hooks::Hooks::declare(module)?;
    let inline = if cfg.inline_records {
        let loop_runs = runs.iter().next().is_some();
        Some(instrument::InlineRecords::declare(
            module, &hooks, loop_runs,
        )?)
    } else {
        None
    };
    let (entries, exits) = instrument::insert_hooks(
        &builder,
        &hooks,
        &layout,
        &omp,
        inline.as_ref(),
        (&implied, &derived, &runs),
    )?;
    fortran::insert_array_accesses(module, &builder, &hooks, &layout)?;
    // The layout's raw references are not used after this (see `instrument::exit_edges`).
    instrument::connect_exit_edges(&exits)?;
    embed::embed_metadata(module, &builder, &hooks, &meta.to_blob())?;
    instrument::split_block_entries(&builder, &hooks, inline.as_ref(), &entries)?;
    if let Some(inline) = &inline {
        instrument::coalesce_records(module, inline.cursor_global(), [hooks.bases, hooks.heads]);
    }
    module
        .verify()
        .map_err(|e| PassError::Verify(e.to_string()))?;
    Ok(InstrumentReport { meta, explain })
}

/// Reads LLVM bitcode or textual IR from `input`, instruments it, and writes bitcode to
/// `output` (textual IR when `output` ends in `.ll`).
pub fn instrument_file(
    input: &Path,
    output: &Path,
    cfg: &PassConfig,
) -> Result<InstrumentReport, PassError> {
    let context = Context::create();
    let module = read_module(&context, input)?;
    let report = instrument_module(&module, cfg)?;
    let write_err = |message: String| PassError::Write {
        path: output.to_path_buf(),
        message,
    };
    if output.extension().is_some_and(|e| e == "ll") {
        module
            .print_to_file(output)
            .map_err(|e| write_err(e.to_string()))?;
    } else if !module.write_bitcode_to_path(output) {
        return Err(write_err("LLVM could not write the bitcode".into()));
    }
    Ok(report)
}

/// Parses `path` as bitcode (by its magic number) or else as textual IR.
pub fn read_module<'ctx>(context: &'ctx Context, path: &Path) -> Result<Module<'ctx>, PassError> {
    let read_err = |message: String| PassError::Read {
        path: path.to_path_buf(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| read_err(e.to_string()))?;
    // Raw bitcode starts with `BC\xC0\xDE`; the bitcode wrapper (Darwin) with 0x0B17C0DE.
    let is_bitcode =
        bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]);
    let name = path.to_string_lossy();
    let buffer = MemoryBuffer::create_from_memory_range_copy(&bytes, &name);
    if is_bitcode {
        Module::parse_bitcode_from_buffer(&buffer, context).map_err(|e| read_err(e.to_string()))
    } else {
        context
            .create_module_from_ir(buffer)
            .map_err(|e| read_err(e.to_string()))
    }
}

/// Fills `meta` from the analyses; returns the explain lines (empty unless `explain`).
fn build_meta(
    meta: &mut ModuleMeta,
    files: &mut FileTable,
    layout: &ModuleLayout<'_>,
    omp: &openmp::OmpAnalysis<'_>,
    names: &ValueNames,
    explain: bool,
) -> Vec<String> {
    for (f, info) in layout.functions.iter().enumerate() {
        let loc = info.blocks.iter().find_map(|&bb| files.block_loc(bb));
        meta.functions.push(FunctionMeta {
            name: info.name.clone(),
            loc,
            outlined: omp.outlined[f],
            parallel: omp.parallel[f],
            first_block: info.first_block,
            num_blocks: info.blocks.len() as u32,
        });
        for lp in &info.loops.loops {
            meta.loops.push(LoopMeta {
                function: f as u32,
                header: info.first_block + lp.header as u32,
                parent: lp.parent.map(|p| info.first_loop + p as u32),
                depth: lp.depth,
                loc: files.block_loc(info.blocks[lp.header]),
            });
        }
    }
    for (b, &bb) in layout.blocks.iter().enumerate() {
        let f = layout.block_function[b] as usize;
        let info = &layout.functions[f];
        let local = b - info.first_block as usize;
        let mut successors: Vec<u32> = Vec::new();
        for &s in &info.succs[local] {
            let id = info.first_block + s as u32;
            if !successors.contains(&id) {
                successors.push(id);
            }
        }
        let label = names.block_label(bb);
        let name = if label.chars().all(|c| c.is_ascii_digit()) {
            format!("bb{label}")
        } else {
            label
        };
        let (first_mem_instr, num_mem_instrs) = layout.block_mem_range[b];
        meta.blocks.push(BlockMeta {
            function: f as u32,
            name,
            loc: files.block_loc(bb),
            parallel: omp.parallel[f],
            successors,
            loop_id: info
                .loops
                .innermost(local)
                .map(|l| info.first_loop + l as u32),
            first_mem_instr,
            num_mem_instrs,
            // Set by `instrument_module` once it has decided.
            implied: false,
        });
    }

    let mut classifier = Classifier::new(names, omp);
    let mut lines = Vec::new();
    for (mi, site) in layout.mem_sites.iter().enumerate() {
        let derivation = if site.descriptor {
            classifier.classify_descriptor_data(site.ptr)
        } else {
            classifier.classify(site.ptr)
        };
        let loc = files.loc_of(site.inst);
        if explain {
            let class = match derivation.class {
                VarClass::Shared => "shared",
                VarClass::Private => "private",
            };
            lines.push(format!(
                "mi {mi} {} {} {class}: {}",
                files.format(loc),
                site.kind.name(),
                derivation.text()
            ));
        }
        meta.mem_instrs.push(MemInstrMeta {
            block: site.block,
            kind: site.kind,
            size: site.size,
            vector: site.vector,
            loc,
            class: derivation.class,
            derivation: derivation.text(),
            derived: None,
        });
    }
    if explain {
        for site in &layout.untraced {
            let loc = files.loc_of(site.inst);
            let func = &layout.functions[site.function as usize].name;
            lines.push(format!(
                "- {} {} in {func}: not traced ({})",
                files.format(loc),
                site.what,
                site.reason
            ));
        }
    }

    for site in &layout.branches {
        meta.branches.push(BranchMeta {
            block: site.block,
            kind: site.kind,
            successors: site.successors.clone(),
            back_edge_of: site.back_edge_of.clone(),
            loc: files.loc_of(site.inst),
            loop_run: None,
        });
    }
    for r in &omp.regions {
        meta.regions.push(RegionMeta {
            outlined_function: r.function,
            fork_block: r.fork_block,
            loc: files.loc_of(r.fork_call),
            shared_args: r.shared_args.clone(),
        });
    }
    for w in &omp.workshares {
        // flang's init calls have no location of their own, and the one they would inherit
        // can be a neighbouring construct's (flang hoists shared code): the loop's is safer.
        let loop_loc = w.loop_id.and_then(|l| meta.loops[l as usize].loc);
        let loc = files
            .own_loc(w.call)
            .or(loop_loc)
            .or_else(|| files.loc_of(w.call));
        meta.workshares.push(WorkshareMeta {
            function: w.function,
            block: w.block,
            kind: w.kind,
            schedule: w.schedule,
            chunk: w.chunk,
            loop_id: w.loop_id,
            loc,
        });
    }
    lines
}

/// 64-bit FNV-1a: a stable, dependency-free hash of the module's original bitcode.
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ b as u64).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    #[test]
    fn fnv1a64_matches_reference_values() {
        // Reference values of the FNV-1a 64-bit test suite.
        assert_eq!(super::fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(super::fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
