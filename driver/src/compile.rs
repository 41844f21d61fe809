//! The per-input pipeline: source → optimised LLVM IR → instrumented IR → object or assembly.
//!
//! 1. Front end: `clang <front-end flags> [-gline-tables-only] -emit-llvm -c src -o N.bc`. clang
//!    runs its own optimisation pipeline at the user's `-O` level here, so the IR the pass sees is
//!    the optimised code that will run. Line tables are added when the user gave no `-g` flag:
//!    they give the trace source locations and do not change code generation.
//! 2. The pass, in process: `rdpass::instrument_file(N.bc, N.instr.bc)`.
//! 3. Code generation only: `clang <codegen flags> -Xclang -disable-llvm-passes -c N.instr.bc`.
//!    No second IR optimisation, so the trace describes exactly the optimised code.
//!
//! Fortran sources take step 1 through flang (`flang-new-19 <front-end flags> -emit-llvm -c`),
//! whose IR then goes through steps 2 and 3 like clang's. LLVM IR inputs (`.ll`, `.bc`) start at
//! step 2; assembly inputs are compiled by clang in one step and are not instrumented.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::args::{Input, InputKind, Invocation};
use crate::command::{compiler_command, run};

/// What a compiled input becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// An object file (`-c`, or an object for the link step).
    Object,
    /// Assembly text (`-S`).
    Assembly,
    /// Instrumented LLVM bitcode (`-c -emit-llvm`).
    Bitcode,
    /// Instrumented LLVM IR text (`-S -emit-llvm`).
    IrText,
}

/// Where the front end's dependency file goes when `-MD`/`-MMD` are given without `-MF`/`-MT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepNames {
    /// The dependency file, as clang would name it (`-o` with extension `.d`, else `stem.d`).
    pub file: PathBuf,
    /// The make target, as clang would name it (the `-o` path, else `stem.o`).
    pub target: String,
}

/// What the pipeline needs to compile one input.
#[derive(Debug)]
pub struct CompileJob<'a> {
    /// The clang to run.
    pub clang: &'a Path,
    /// The flang that compiles Fortran sources (found when the command line has one).
    pub flang: Option<&'a Path>,
    /// The classified command line.
    pub invocation: &'a Invocation,
    /// The input to compile.
    pub input: &'a Input,
    /// A private directory for intermediate files.
    pub temp_dir: &'a Path,
    /// A name for this input's intermediate files, unique within `temp_dir`.
    pub temp_name: String,
    /// The output to write.
    pub output: &'a Path,
    /// What to write.
    pub output_kind: OutputKind,
    /// Names for the dependency file, used when `-MD`/`-MMD` lack `-MF`/`-MT`.
    pub deps: DepNames,
    /// Run the instrumentation pass (false for `--rd-no-instrument`).
    pub instrument: bool,
    /// The pass's options: explain lines, inline records (off for `--rd-no-inline`), implied
    /// blocks, derived accesses and loop runs (off for `--rd-no-implied-blocks`,
    /// `--rd-no-derived-accesses`, `--rd-no-loop-runs`; only with inline records).
    pub pass: rdpass::PassConfig,
}

/// Compiles one input; returns the pass's explain lines (empty unless asked for).
pub fn compile(job: &CompileJob<'_>) -> Result<Vec<String>> {
    match job.input.kind {
        InputKind::Source | InputKind::Fortran => {
            let bitcode = job.temp_dir.join(format!("{}.bc", job.temp_name));
            front_end(job, &bitcode)?;
            instrument_and_emit(job, &bitcode)
        }
        InputKind::LlvmIr => {
            let ir = ir_input_path(job)?;
            instrument_and_emit(job, &ir)
        }
        InputKind::Assembly => {
            compile_directly(job)?;
            Ok(Vec::new())
        }
        InputKind::Header | InputKind::Linker | InputKind::Unsupported => {
            anyhow::bail!("internal error: {} is not a compiled input", job.input.path)
        }
    }
}

/// Step 1: source to optimised bitcode.
fn front_end(job: &CompileJob<'_>, bitcode: &Path) -> Result<()> {
    let inv = job.invocation;
    let fortran = job.input.kind == InputKind::Fortran;
    let mut command = if fortran {
        let flang = job
            .flang
            .context("internal error: no flang for a Fortran source")?;
        let mut command = std::process::Command::new(flang);
        command.args(&inv.front_flags);
        command
    } else {
        compiler_command(job.clang, inv.personality, &inv.front_flags)
    };
    if !inv.has_debug_flag {
        command.arg("-gline-tables-only");
    }
    if !fortran && job.instrument {
        // `rdtrace.h`'s markers call the runtime only under rdcc (see `runtime/include`).
        command.arg(format!("-D{}=1", rdtrace::abi::RDTRACE_MACRO));
        if let Some(dir) = crate::tools::marker_include_dir() {
            command.arg("-idirafter").arg(dir);
        }
    }
    if !fortran {
        // Keep clang's block and value names (`for.cond`, `if.then`) so traces and reports can
        // say which block is which; names never influence code generation. (flang has no such
        // flag; its block names carry no source meaning.)
        command.arg("-fno-discard-value-names");
    }
    add_dep_names(&mut command, job);
    command.args(["-emit-llvm", "-c"]);
    add_input(&mut command, job.input);
    command.arg("-o").arg(bitcode);
    run(command)
}

/// Steps 2 and 3: instrument (unless disabled) and generate the requested output.
fn instrument_and_emit(job: &CompileJob<'_>, bitcode: &Path) -> Result<Vec<String>> {
    let (ready, explain) = if job.instrument {
        let instrumented = job.temp_dir.join(format!("{}.instr.bc", job.temp_name));
        let explain = instrument(&job.input.path, bitcode, &instrumented, &job.pass)?;
        (instrumented, explain)
    } else {
        (bitcode.to_path_buf(), Vec::new())
    };
    code_generation(job, &ready)?;
    Ok(explain)
}

/// Runs the pass in process.
fn instrument(
    source: &str,
    bitcode: &Path,
    output: &Path,
    config: &rdpass::PassConfig,
) -> Result<Vec<String>> {
    let report = rdpass::instrument_file(bitcode, output, config)
        .with_context(|| format!("cannot instrument {source}"))?;
    Ok(report.explain)
}

/// Step 3: instrumented IR to the requested output, without IR optimisation.
fn code_generation(job: &CompileJob<'_>, bitcode: &Path) -> Result<()> {
    if job.output_kind == OutputKind::Bitcode {
        // The instrumented bitcode is the output; clang would only copy it.
        let written = if job.output == Path::new("-") {
            fs::File::open(bitcode).and_then(|mut f| std::io::copy(&mut f, &mut std::io::stdout()))
        } else {
            fs::copy(bitcode, job.output)
        };
        written.with_context(|| format!("cannot write {}", job.output.display()))?;
        return Ok(());
    }
    let mut command = compiler_command(
        job.clang,
        job.invocation.personality,
        &job.invocation.codegen_flags,
    );
    // Front-end flags the user gave (kept out of here) would only draw "unused" warnings, and
    // so would the rest: the user did not write this command line.
    command.args([
        "-Wno-unused-command-line-argument",
        "-Xclang",
        "-disable-llvm-passes",
    ]);
    match job.output_kind {
        OutputKind::Object => command.arg("-c"),
        OutputKind::Assembly => command.arg("-S"),
        OutputKind::IrText => command.args(["-S", "-emit-llvm"]),
        OutputKind::Bitcode => unreachable!("handled above"),
    };
    command.arg(bitcode).arg("-o").arg(job.output);
    run(command)
}

/// Assembly inputs: one clang run, no instrumentation.
fn compile_directly(job: &CompileJob<'_>) -> Result<()> {
    let inv = job.invocation;
    let mut command = compiler_command(
        job.clang,
        inv.personality,
        inv.front_flags.iter().chain(&inv.codegen_flags),
    );
    add_dep_names(&mut command, job);
    match job.output_kind {
        OutputKind::Object => command.arg("-c"),
        OutputKind::Assembly => command.arg("-S"),
        OutputKind::Bitcode => command.args(["-c", "-emit-llvm"]),
        OutputKind::IrText => command.args(["-S", "-emit-llvm"]),
    };
    add_input(&mut command, job.input);
    command.arg("-o").arg(job.output);
    run(command)
}

fn add_dep_names(command: &mut std::process::Command, job: &CompileJob<'_>) {
    let deps = &job.invocation.deps;
    if deps.enabled {
        if deps.file.is_none() {
            command.arg("-MF").arg(&job.deps.file);
        }
        if !deps.has_target {
            command.arg("-MT").arg(&job.deps.target);
        }
    }
}

fn add_input(command: &mut std::process::Command, input: &Input) {
    if let Some(language) = &input.language {
        command.arg("-x").arg(language);
    }
    command.arg(&input.path);
}

/// The path the pass reads for an IR input: the input itself (the pass tells bitcode from text
/// by its magic number), or a copy of standard input for `-`.
fn ir_input_path(job: &CompileJob<'_>) -> Result<PathBuf> {
    if job.input.path != "-" {
        return Ok(PathBuf::from(&job.input.path));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
        .context("cannot read LLVM IR from standard input")?;
    let copy = job.temp_dir.join(format!("{}.stdin", job.temp_name));
    fs::write(&copy, bytes).with_context(|| format!("cannot write {}", copy.display()))?;
    Ok(copy)
}
