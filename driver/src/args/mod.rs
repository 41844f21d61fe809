//! Classification of a clang command line.
//!
//! `rdcc` accepts clang's command line and has to split it into the pieces its own pipeline
//! needs: the inputs (sources, LLVM IR, assembly, linker inputs), the action (compile, assemble,
//! link, or hand the whole line to clang), and the flags each step gets:
//!
//! - **front end** (`clang -emit-llvm -c`): preprocessor, language, warning, optimisation,
//!   debug and target flags;
//! - **code generation** (`clang -c x.instr.bc -Xclang -disable-llvm-passes`): optimisation level,
//!   relocation model, target and assembler flags; front-end-only flags are left out;
//! - **link**: libraries, search paths, linker flags and the flags clang's link step reads
//!   (`-fopenmp`, `-pthread`, `-shared`, target, ...), kept in command-line order with the inputs
//!   because the order of `-l` and objects matters to the linker.
//!
//! Flags `rdcc` does not know are given to the front end and the link step, which is where clang
//! would read them. Every `--rd-*` flag is ours and is never given to clang.

use std::fmt;
use std::path::{Path, PathBuf};

mod flags;
mod response;

use flags::*;
use response::expand_response_files;

use crate::personality::Personality;

/// A command-line error (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Where `--rd-explain` sends the pass's explain lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExplainTarget {
    /// `--rd-explain`: standard error.
    Stderr,
    /// `--rd-explain=FILE`: this file (truncated first).
    File(PathBuf),
}

/// The `--rd-*` options, which belong to `rdcc` and are never given to clang.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RdOptions {
    /// `--rd-explain[=FILE]`: print the pass's explanation of each memory instruction's class.
    pub explain: Option<ExplainTarget>,
    /// `--rd-no-instrument`: run the same pipeline without the pass and without the runtime.
    pub no_instrument: bool,
    /// `--rd-no-inline`: call the runtime for every block, access and branch instead of appending
    /// records inline (slower; for comparison and as a fallback).
    pub no_inline: bool,
    /// `--rd-no-implied-blocks`: record every block, also those the predecessors' branch
    /// records imply (same decoded events, more records; for comparison).
    pub no_implied_blocks: bool,
    /// `--rd-no-derived-accesses`: record every access, also those whose address is an
    /// earlier access's of the same block plus a constant (same decoded events, more records;
    /// for comparison).
    pub no_derived_accesses: bool,
    /// `--rd-no-loop-runs`: record every iteration of every loop, also of single-block loops
    /// whose accesses move by constant strides (same decoded events, more records; for
    /// comparison).
    pub no_loop_runs: bool,
    /// `--rd-help`: print rdcc's own options.
    pub help: bool,
}

/// What kind of file an input is, decided like clang does: by `-x` if given, else by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A source file clang compiles to LLVM IR (C, preprocessed C, C++); instrumented.
    Source,
    /// A Fortran source file flang compiles to LLVM IR (`.f90`, `.f`, `.F90`, ...); instrumented.
    Fortran,
    /// LLVM IR (`.ll`, `.bc`, `-x ir`); instrumented directly, without clang's optimiser.
    LlvmIr,
    /// Assembly (`.s`, `.S`, `.sx`); compiled by clang unchanged, not instrumented.
    Assembly,
    /// A header (`.h`, `-x c-header`): precompiled-header generation, handed to clang.
    Header,
    /// Anything else (`.o`, `.a`, `.so`, linker scripts, ...): given to the linker as is.
    Linker,
    /// A source in a language rdcc cannot instrument (Objective-C, CUDA, OpenCL, ...): an error
    /// when rdcc would compile it, never a silent native build.
    Unsupported,
}

/// One input file in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The path as written (`-` is standard input).
    pub path: String,
    /// How rdcc treats it.
    pub kind: InputKind,
    /// The `-x` language in force when the input appeared, if any (`None` for `-x none`).
    pub language: Option<String>,
}

impl Input {
    /// Whether rdcc compiles this input itself (sources, IR and assembly).
    pub fn is_compiled(&self) -> bool {
        matches!(
            self.kind,
            InputKind::Source | InputKind::Fortran | InputKind::LlvmIr | InputKind::Assembly
        )
    }

    /// The file name without directory and extension, used to name outputs (`dir/vec.c` → `vec`).
    pub fn stem(&self) -> String {
        Path::new(&self.path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.clone())
    }
}

/// How far the pipeline runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// No `-c`/`-S`: compile every source, then link an executable (or `-shared` object).
    Link,
    /// `-c`: one object file per compiled input.
    Object,
    /// `-S`: assembly of the instrumented code, one file per compiled input.
    Assembly,
}

/// Why a command line is handed to clang unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassthroughReason {
    /// `-E`, `-M`, `-MM`: preprocessing and dependency listing produce no code.
    Preprocess,
    /// `-fsyntax-only`, `-emit-ast`, `--precompile` and similar non-code actions.
    NoCodegen,
    /// `--help`, `-###`, `-print-*`, `-dump*`: information about clang itself.
    Information,
    /// Nothing for rdcc to compile (no inputs, or only linker inputs with `-c`/`-S`).
    NothingToCompile,
    /// Header inputs (precompiled headers).
    Header,
    /// `-emit-llvm` without `-c`/`-S`, which clang rejects; clang reports the error.
    EmitLlvmLink,
}

/// What rdcc does with the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `--version`: print rdcc's version and the clang it uses.
    Version,
    /// `--rd-help`: print rdcc's own options.
    RdHelp,
    /// Hand the command line (without `--rd-*` flags) to clang.
    Passthrough(PassthroughReason),
    /// Run rdcc's pipeline up to this stage.
    Build(Stage),
}

/// One element of the link line, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkItem {
    /// A flag for the link step.
    Flag(String),
    /// The input with this index in [`Invocation::inputs`] (replaced by its object if compiled).
    Input(usize),
}

/// Dependency-file flags (`-MD`, `-MMD`, `-MF`, `-MT`, `-MQ`), given to the front-end compile.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DepOptions {
    /// `-MD` or `-MMD` was given: the front end writes a dependency file.
    pub enabled: bool,
    /// `-MF FILE`, if given.
    pub file: Option<String>,
    /// `-MT`/`-MQ` was given: the user named the target.
    pub has_target: bool,
}

/// A classified command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The compiler rdcc stands in for (from the name it was run under).
    pub personality: Personality,
    /// What to do.
    pub action: Action,
    /// The `--rd-*` options.
    pub rd: RdOptions,
    /// The whole command line without `--rd-*` flags (response files expanded), for passthrough.
    pub clang_args: Vec<String>,
    /// `-o FILE` (the last one).
    pub output: Option<String>,
    /// Inputs in command-line order.
    pub inputs: Vec<Input>,
    /// Flags for the front-end compile (source → optimised LLVM IR), in order.
    pub front_flags: Vec<String>,
    /// Flags for code generation (instrumented IR → object or assembly), in order.
    pub codegen_flags: Vec<String>,
    /// The link line: flags and inputs in order.
    pub link_items: Vec<LinkItem>,
    /// `-emit-llvm` was given (with `-c` or `-S`: write instrumented IR instead of machine code).
    pub emit_llvm: bool,
    /// Some `-g*` flag was given (rdcc then adds no `-gline-tables-only` of its own).
    pub has_debug_flag: bool,
    /// `-fopenmp` (or `-fopenmp=...`) was given.
    pub openmp: bool,
    /// `-v` was given.
    pub verbose: bool,
    /// Dependency-file options.
    pub deps: DepOptions,
}

/// Classifies a command line (without the program name).
///
/// Response files (`@file`) are expanded first. The result says what to do; it never runs
/// anything.
pub fn parse(args: &[String]) -> Result<Invocation, UsageError> {
    parse_as(Personality::C, args)
}

/// [`parse`] for rdcc run under the name of another compiler (`rdc++`, `rdflang`).
pub fn parse_as(personality: Personality, args: &[String]) -> Result<Invocation, UsageError> {
    let args = expand_response_files(args)?;
    let mut inv = Invocation {
        personality,
        action: Action::Build(Stage::Link),
        rd: RdOptions::default(),
        clang_args: Vec::with_capacity(args.len()),
        output: None,
        inputs: Vec::new(),
        front_flags: Vec::new(),
        codegen_flags: Vec::new(),
        link_items: Vec::new(),
        emit_llvm: false,
        has_debug_flag: false,
        openmp: false,
        verbose: false,
        deps: DepOptions::default(),
    };
    let mut stage = Stage::Link;
    let mut passthrough: Option<PassthroughReason> = None;
    let mut version = false;
    let mut language: Option<String> = None;
    let mut end_of_options = false;

    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;

        if end_of_options || arg == "-" || !arg.starts_with('-') {
            inv.clang_args.push(arg.clone());
            add_input(&mut inv, arg, &language);
            continue;
        }

        if let Some(rd) = arg.strip_prefix("--rd-") {
            parse_rd_option(&mut inv.rd, rd, arg)?;
            continue;
        }
        inv.clang_args.push(arg.clone());

        // Takes the value of a flag written `-flag value`; the value is kept for passthrough.
        let mut take_value = |flag: &str| -> Result<String, UsageError> {
            match args.get(i) {
                Some(value) => {
                    i += 1;
                    inv.clang_args.push(value.clone());
                    Ok(value.clone())
                }
                None => Err(UsageError(format!(
                    "argument to '{flag}' is missing (expected 1 value)"
                ))),
            }
        };

        match arg.as_str() {
            "--" => {
                end_of_options = true;
                continue;
            }
            "-c" => {
                stage = Stage::Object;
                continue;
            }
            "-S" => {
                // `-c -S` means `-S` for clang.
                stage = Stage::Assembly;
                continue;
            }
            "-E" | "-M" | "-MM" => {
                passthrough = Some(PassthroughReason::Preprocess);
                continue;
            }
            "-fsyntax-only"
            | "-emit-ast"
            | "--precompile"
            | "-precompile"
            | "-emit-module"
            | "-emit-interface-stubs"
            | "-verify-pch"
            | "--analyze"
            | "-extract-api" => {
                passthrough.get_or_insert(PassthroughReason::NoCodegen);
                continue;
            }
            "--help" | "-help" | "--help-hidden" | "-###" | "-dumpversion" | "-dumpmachine"
            | "-dumpspecs" | "-dumpfullversion" => {
                passthrough.get_or_insert(PassthroughReason::Information);
                continue;
            }
            "--version" => {
                version = true;
                continue;
            }
            "-emit-llvm" => {
                inv.emit_llvm = true;
                continue;
            }
            "-o" => {
                inv.output = Some(take_value("-o")?);
                continue;
            }
            "-x" => {
                let lang = take_value("-x")?;
                language = (lang != "none").then_some(lang);
                continue;
            }
            "-v" => {
                inv.verbose = true;
                push_flag(&mut inv, arg, ALL);
                continue;
            }
            "-MD" | "-MMD" => {
                inv.deps.enabled = true;
                push_flag(&mut inv, arg, FRONT);
                continue;
            }
            "-MF" | "-MT" | "-MQ" => {
                let value = take_value(arg)?;
                record_dep_flag(&mut inv.deps, arg, &value);
                inv.front_flags.push(arg.clone());
                inv.front_flags.push(value);
                continue;
            }
            _ => {}
        }

        if arg.starts_with("-print-") || arg.starts_with("--print-") {
            passthrough.get_or_insert(PassthroughReason::Information);
            continue;
        }
        if let Some(lang) = arg.strip_prefix("-x") {
            language = (lang != "none").then(|| lang.to_string());
            continue;
        }
        if let Some(out) = arg.strip_prefix("-o") {
            inv.output = Some(out.to_string());
            continue;
        }
        if let Some(flag) = ["-MF", "-MT", "-MQ"]
            .into_iter()
            .find(|f| arg.starts_with(f))
        {
            record_dep_flag(&mut inv.deps, flag, &arg[flag.len()..]);
            push_flag(&mut inv, arg, FRONT);
            continue;
        }
        if LINK_ONLY.contains(&arg.as_str()) {
            push_flag(&mut inv, arg, LINK);
            continue;
        }
        if FRONT_ONLY.contains(&arg.as_str()) {
            push_flag(&mut inv, arg, FRONT);
            continue;
        }

        if let Some((flag, steps)) = SEPARATE.iter().find(|(name, _)| name == arg) {
            let value = take_value(flag)?;
            push_flag_pair(&mut inv, arg, &value, *steps);
            continue;
        }
        if let Some((flag, steps)) = JOINED_OR_SEPARATE
            .iter()
            .filter(|(name, _)| arg.starts_with(name))
            // The longest matching name wins (`-iwithprefixbefore` over `-iwithprefix`).
            .max_by_key(|(name, _)| name.len())
        {
            if arg == flag {
                let value = take_value(flag)?;
                push_flag_pair(&mut inv, arg, &value, *steps);
            } else {
                push_flag(&mut inv, arg, *steps);
            }
            continue;
        }

        let steps = classify_flag(arg);
        if arg.starts_with("-g") {
            inv.has_debug_flag = true;
        }
        if arg == "-fopenmp" || arg.starts_with("-fopenmp=") {
            inv.openmp = true;
        }
        push_flag(&mut inv, arg, steps);
    }

    inv.action = if version {
        Action::Version
    } else if inv.rd.help {
        Action::RdHelp
    } else if let Some(reason) = passthrough {
        Action::Passthrough(reason)
    } else if inv
        .inputs
        .iter()
        .any(|input| input.kind == InputKind::Header)
    {
        Action::Passthrough(PassthroughReason::Header)
    } else if inv.inputs.is_empty()
        || (stage != Stage::Link && !inv.inputs.iter().any(Input::is_compiled))
    {
        Action::Passthrough(PassthroughReason::NothingToCompile)
    } else if inv.emit_llvm && stage == Stage::Link {
        Action::Passthrough(PassthroughReason::EmitLlvmLink)
    } else {
        Action::Build(stage)
    };

    if let Action::Build(_) | Action::Passthrough(PassthroughReason::NothingToCompile) = inv.action
    {
        // A source rdcc cannot instrument must never become a silently uninstrumented build.
        if let Some(input) = inv
            .inputs
            .iter()
            .find(|input| input.kind == InputKind::Unsupported)
        {
            return Err(UsageError(format!(
                "cannot instrument {}: rdtools traces C, C++ and Fortran sources (and LLVM IR); \
                 compile it with the plain compiler into an object and link that, or leave it out",
                input.path
            )));
        }
    }
    if let Action::Build(stage) = inv.action {
        let compiled = inv
            .inputs
            .iter()
            .filter(|input| input.is_compiled())
            .count();
        if stage != Stage::Link && compiled > 1 && inv.output.is_some() {
            return Err(UsageError(
                "cannot specify -o when generating multiple output files".to_string(),
            ));
        }
    }
    Ok(inv)
}

fn push_flag(inv: &mut Invocation, arg: &str, steps: Steps) {
    if steps.front {
        inv.front_flags.push(arg.to_string());
    }
    if steps.codegen {
        inv.codegen_flags.push(arg.to_string());
    }
    if steps.link {
        inv.link_items.push(LinkItem::Flag(arg.to_string()));
    }
}

fn push_flag_pair(inv: &mut Invocation, flag: &str, value: &str, steps: Steps) {
    push_flag(inv, flag, steps);
    push_flag(inv, value, steps);
}

fn record_dep_flag(deps: &mut DepOptions, flag: &str, value: &str) {
    match flag {
        "-MF" => deps.file = Some(value.to_string()),
        _ => deps.has_target = true,
    }
}

fn add_input(inv: &mut Invocation, path: &str, language: &Option<String>) {
    let kind = match language {
        Some(lang) => kind_of_language(lang),
        None => kind_of_extension(path),
    };
    inv.link_items.push(LinkItem::Input(inv.inputs.len()));
    inv.inputs.push(Input {
        path: path.to_string(),
        kind,
        language: language.clone(),
    });
}

/// The input kind for a `-x` language.
fn kind_of_language(lang: &str) -> InputKind {
    match lang {
        "ir" | "lir" => InputKind::LlvmIr,
        "assembler" | "assembler-with-cpp" => InputKind::Assembly,
        "f95" | "f95-cpp-input" | "f77" | "f77-cpp-input" | "fortran" => InputKind::Fortran,
        l if l.starts_with("objective-c") || l.starts_with("cuda") || l.starts_with("hip") => {
            InputKind::Unsupported
        }
        "cl" | "clcpp" | "renderscript" => InputKind::Unsupported,
        l if l.ends_with("-header") || l.ends_with("header-unit") => InputKind::Header,
        _ => InputKind::Source,
    }
}

/// The input kind for a file name, as clang decides it without `-x`.
fn kind_of_extension(path: &str) -> InputKind {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    match ext {
        "c" | "i" | "cc" | "cp" | "cxx" | "cpp" | "CPP" | "c++" | "C" | "ii" => InputKind::Source,
        "ll" | "bc" => InputKind::LlvmIr,
        "s" | "S" | "sx" | "asm" => InputKind::Assembly,
        "h" | "hh" | "hpp" | "hxx" => InputKind::Header,
        "f" | "for" | "ftn" | "f77" | "f90" | "f95" | "f03" | "f08" | "F" | "FOR" | "FTN"
        | "F77" | "F90" | "F95" | "F03" | "F08" | "fpp" | "FPP" => InputKind::Fortran,
        "m" | "mm" | "M" | "mi" | "mii" | "cu" | "hip" | "cl" | "clcpp" => InputKind::Unsupported,
        _ => InputKind::Linker,
    }
}

fn parse_rd_option(rd: &mut RdOptions, name: &str, arg: &str) -> Result<(), UsageError> {
    match name {
        "explain" => rd.explain = Some(ExplainTarget::Stderr),
        "no-instrument" => rd.no_instrument = true,
        "no-inline" => rd.no_inline = true,
        "no-implied-blocks" => rd.no_implied_blocks = true,
        "no-derived-accesses" => rd.no_derived_accesses = true,
        "no-loop-runs" => rd.no_loop_runs = true,
        "help" => rd.help = true,
        _ => match name.strip_prefix("explain=") {
            Some("") => return Err(UsageError("--rd-explain= needs a file name".to_string())),
            Some(file) => rd.explain = Some(ExplainTarget::File(PathBuf::from(file))),
            None => {
                return Err(UsageError(format!(
                    "unknown rdcc option '{arg}' (see `rdcc --rd-help`)"
                )))
            }
        },
    }
    Ok(())
}
