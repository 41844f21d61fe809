//! Carrying out a classified command line: passthrough to clang, version and help output, or
//! the compile → instrument → code generation → link pipeline.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::args::{self, Action, ExplainTarget, Input, InputKind, Invocation, Stage, UsageError};
use crate::command::{self, ClangFailed};
use crate::compile::{self, CompileJob, DepNames, OutputKind};
use crate::link;
use crate::personality::Personality;
use crate::tempdir::TempDir;
use crate::tools;

/// rdcc's version, as `--version` prints it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs rdcc on a command line (without the program name) and returns its exit status:
/// 0 on success, clang's status when clang fails, 2 for usage errors, 1 for other failures.
pub fn main_with_args(args: &[String]) -> ExitCode {
    main_as(Personality::C, args)
}

/// Runs rdcc as it was called by `program` (`argv[0]`): under `rdc++`/`rdclang++` it is a
/// drop-in clang++, under `rdflang` a drop-in flang (see [`Personality`]).
pub fn main_with_program(program: &str, args: &[String]) -> ExitCode {
    main_as(Personality::from_program_name(program), args)
}

fn main_as(personality: Personality, args: &[String]) -> ExitCode {
    match run(personality, args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => exit_code_for(personality, &err),
    }
}

/// Prints an error the way rdcc reports it and returns the matching exit status.
fn exit_code_for(personality: Personality, err: &anyhow::Error) -> ExitCode {
    if let Some(failed) = err.downcast_ref::<ClangFailed>() {
        // clang has printed its diagnostics; anything from rdcc would be noise.
        return ExitCode::from(u8::try_from(failed.status).unwrap_or(1));
    }
    eprintln!("{}: error: {err:#}", personality.tool_name());
    if err.downcast_ref::<UsageError>().is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

fn run(personality: Personality, args: &[String]) -> Result<()> {
    let invocation = args::parse_as(personality, args)?;
    match invocation.action {
        Action::Version => print_version(),
        Action::RdHelp => {
            print!("{}", RD_HELP);
            Ok(())
        }
        Action::Passthrough(_) => passthrough(&invocation),
        Action::Build(stage) => build(&invocation, stage),
    }
}

/// `rdcc --version`: our version, the LLVM version of the clang we run, then clang's own text.
fn print_version() -> Result<()> {
    let clang = tools::find_clang()?;
    let (version, text) = tools::clang_version(&clang)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "rdcc {VERSION} (rdtools) — LLVM {version}, clang {}",
        clang.display()
    )?;
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// Hands the command line to clang by replacing this process, so clang's output and exit
/// status (including death by a signal) are exactly what the caller sees.
fn passthrough(invocation: &Invocation) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let (compiler, mut cmd) = if invocation.personality == Personality::Fortran {
        let flang = tools::find_flang()?;
        let cmd = command::clang_command(&flang, &invocation.clang_args);
        (flang, cmd)
    } else {
        let clang = tools::find_clang()?;
        let cmd = command::compiler_command(&clang, invocation.personality, &invocation.clang_args);
        (clang, cmd)
    };
    command::echo_if_verbose(&cmd);
    let err = cmd.exec();
    Err(err).with_context(|| format!("cannot run {}", compiler.display()))
}

/// The compile pipeline, then the link step when `stage` is [`Stage::Link`].
fn build(invocation: &Invocation, stage: Stage) -> Result<()> {
    let clang = tools::find_clang()?;
    let instrument = !invocation.rd.no_instrument;
    // Fortran needs flang (and the link its runtime): look for it before compiling anything.
    let fortran = invocation
        .inputs
        .iter()
        .any(|input| input.kind == InputKind::Fortran);
    let flang = if fortran || (stage == Stage::Link && link::needs_fortran_runtime(invocation)) {
        Some(tools::find_flang()?)
    } else {
        None
    };
    // Look for the runtime before compiling anything, so a missing runtime fails fast.
    let runtime = match (stage, instrument) {
        (Stage::Link, true) => Some(tools::find_runtime()?),
        // Objects from an earlier instrumented build may still call the hooks.
        (Stage::Link, false) => tools::find_runtime().ok(),
        _ => None,
    };
    let mut explain_sink = match &invocation.rd.explain {
        Some(target) => Some(ExplainSink::open(target)?),
        None => None,
    };

    let temp_dir = TempDir::from_env()?;
    let mut objects: Vec<Option<PathBuf>> = vec![None; invocation.inputs.len()];
    for (index, input) in invocation.inputs.iter().enumerate() {
        if !input.is_compiled() {
            continue;
        }
        let (output, output_kind) = output_for(invocation, stage, input, index, temp_dir.path());
        let job = CompileJob {
            clang: &clang,
            flang: flang.as_deref(),
            invocation,
            input,
            temp_dir: temp_dir.path(),
            temp_name: format!("{index}-{}", sanitize(&input.stem())),
            output: &output,
            output_kind,
            deps: dep_names(invocation, input),
            instrument,
            pass: rdpass::PassConfig {
                explain: explain_sink.is_some(),
                inline_records: !invocation.rd.no_inline,
                no_implied_blocks: invocation.rd.no_implied_blocks,
                no_derived_accesses: invocation.rd.no_derived_accesses,
                no_loop_runs: invocation.rd.no_loop_runs,
                ..rdpass::PassConfig::default()
            },
        };
        let explain = compile::compile(&job)?;
        if let Some(sink) = &mut explain_sink {
            sink.write(&input.path, &explain)?;
        }
        objects[index] = Some(output);
    }

    if stage == Stage::Link {
        let fortran_runtime = flang
            .as_deref()
            .filter(|_| link::needs_fortran_runtime(invocation))
            .map(tools::fortran_runtime_dir);
        link::link(
            &clang,
            invocation,
            &objects,
            runtime.as_deref(),
            fortran_runtime.as_deref(),
        )?;
    }
    Ok(())
}

/// The output of one compiled input and its kind.
fn output_for(
    invocation: &Invocation,
    stage: Stage,
    input: &Input,
    index: usize,
    temp_dir: &Path,
) -> (PathBuf, OutputKind) {
    let (kind, extension) = match (stage, invocation.emit_llvm) {
        (Stage::Link, _) => {
            let object = temp_dir.join(format!("{index}-{}.o", sanitize(&input.stem())));
            return (object, OutputKind::Object);
        }
        (Stage::Object, false) => (OutputKind::Object, "o"),
        (Stage::Object, true) => (OutputKind::Bitcode, "bc"),
        (Stage::Assembly, false) => (OutputKind::Assembly, "s"),
        (Stage::Assembly, true) => (OutputKind::IrText, "ll"),
    };
    // Like clang: `-o` if given (only one compiled input then), else `stem.ext` in the
    // current directory.
    let path = match &invocation.output {
        Some(output) => PathBuf::from(output),
        None => PathBuf::from(format!("{}.{extension}", input.stem())),
    };
    (path, kind)
}

/// Dependency-file names as clang chooses them: `-o` with extension `.d` (`out/x.o` →
/// `out/x.d`, `prog` → `prog.d`), else `stem.d`; the target is the `-o` path, else `stem.o`.
fn dep_names(invocation: &Invocation, input: &Input) -> DepNames {
    match &invocation.output {
        Some(output) => DepNames {
            file: Path::new(output).with_extension("d"),
            target: output.clone(),
        },
        None => DepNames {
            file: PathBuf::from(format!("{}.d", input.stem())),
            target: format!("{}.o", input.stem()),
        },
    }
}

/// A file-name-safe version of an input stem for intermediate files.
fn sanitize(stem: &str) -> String {
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Where `--rd-explain` lines go.
enum ExplainSink {
    Stderr,
    File(PathBuf, io::BufWriter<File>),
}

impl ExplainSink {
    fn open(target: &ExplainTarget) -> Result<ExplainSink> {
        Ok(match target {
            ExplainTarget::Stderr => ExplainSink::Stderr,
            ExplainTarget::File(path) => {
                let file = File::create(path)
                    .with_context(|| format!("cannot create explain file {}", path.display()))?;
                ExplainSink::File(path.clone(), io::BufWriter::new(file))
            }
        })
    }

    /// Writes one input's explain lines under a `# explain: <input>` header.
    fn write(&mut self, input: &str, lines: &[String]) -> Result<()> {
        fn write_all(out: &mut dyn Write, input: &str, lines: &[String]) -> io::Result<()> {
            writeln!(out, "# explain: {input}")?;
            for line in lines {
                writeln!(out, "{line}")?;
            }
            out.flush()
        }
        match self {
            ExplainSink::Stderr => write_all(&mut io::stderr().lock(), input, lines)
                .context("cannot write explain lines to stderr"),
            ExplainSink::File(path, file) => write_all(file, input, lines)
                .with_context(|| format!("cannot write explain file {}", path.display())),
        }
    }
}

/// `rdcc --rd-help`.
const RD_HELP: &str = "\
rdcc: a drop-in replacement for clang that instruments C/OpenMP programs for reuse-distance
tracing. Every clang option is accepted; sources are compiled to optimised LLVM IR, instrumented,
compiled to machine code without further IR optimisation, and linked with the rdtools runtime.

The same program under other names (symbolic links beside rdcc; scripts/install.sh makes them):
  rdclang            rdcc under a name with \"clang\" in it, for makefiles that pick flags by
                     $(CC)'s name (findstring clang,$(CC))
  rdc++, rdclang++   a drop-in clang++ (C++: links the C++ standard library)
  rdflang            a drop-in flang-new-19 (Fortran; links flang's runtime)
Fortran sources (.f .f90 .F90 .f95 .f03 .f08 ...) are compiled by flang-new-19 under any name,
and a program with Fortran objects is linked with flang's runtime. Sources rdtools cannot
instrument (Objective-C, CUDA, OpenCL) are an error, never a silent native build.

rdcc options (never given to clang):
  --rd-explain           print how each memory instruction was classified (shared/private) to stderr
  --rd-explain=FILE      write the same to FILE
  --rd-no-instrument     same pipeline without the pass (baseline builds); the runtime is linked
                         only if it is found
  --rd-no-inline         call the runtime for every block, access and branch instead of appending
                         trace records inline (slower, same trace)
  --rd-no-implied-blocks give every basic block its own record, also those its predecessors'
                         branch records imply (more records, same decoded events)
  --rd-no-derived-accesses
                         give every access its own record, also those at a constant offset
                         from an earlier access of the block (more records, same decoded events)
  --rd-no-loop-runs      record every iteration of single-block loops whose accesses move by
                         constant strides, instead of runs of iterations (more records, same
                         decoded events)
  --rd-help              this text

Handed to clang unchanged: -E, -M, -MM, -fsyntax-only, --help, -###, -print-*, -dump*, header
inputs, and command lines with nothing to compile. -S -emit-llvm and -c -emit-llvm write the
instrumented IR. .ll/.bc inputs are instrumented as they are (clang's optimiser is not run on them);
assembly inputs are compiled but not instrumented.

Environment:
  RDCC_CLANG         clang to run (default: clang-19 on PATH, else /usr/lib/llvm-19/bin/clang)
  RDCC_FLANG         flang for Fortran sources (default: flang-new-19 on PATH, else
                     /usr/lib/llvm-19/bin/flang-new)
  RDCC_RUNTIME       librdruntime.a to link (default: beside rdcc, else ../lib/ relative to it)
  RDCC_KEEP_TEMPS=1  keep the intermediate files and print where they are
  RDCC_VERBOSE=1     print every command rdcc runs
  RDTRACE            (read by the instrumented program) trace file path; default
                     <program>.<pid>.rdtrace in the current directory
";
