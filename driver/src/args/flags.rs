//! The flag tables: which clang flags take a value and which steps (front end, code
//! generation, link) each flag goes to. The handlers that apply them are in the parent module.

/// Which steps a flag goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Steps {
    pub(super) front: bool,
    pub(super) codegen: bool,
    pub(super) link: bool,
}

pub(super) const FRONT: Steps = Steps {
    front: true,
    codegen: false,
    link: false,
};
pub(super) const CODEGEN: Steps = Steps {
    front: false,
    codegen: true,
    link: false,
};
pub(super) const LINK: Steps = Steps {
    front: false,
    codegen: false,
    link: true,
};
pub(super) const FRONT_LINK: Steps = Steps {
    front: true,
    codegen: false,
    link: true,
};
pub(super) const FRONT_CODEGEN: Steps = Steps {
    front: true,
    codegen: true,
    link: false,
};
pub(super) const ALL: Steps = Steps {
    front: true,
    codegen: true,
    link: true,
};

/// Flags whose value may be the next argument (`-I dir`) or joined (`-Idir`), and where they go.
pub(super) const JOINED_OR_SEPARATE: &[(&str, Steps)] = &[
    ("-I", FRONT),
    ("-D", FRONT),
    ("-U", FRONT),
    ("-L", LINK),
    ("-l", LINK),
    ("-T", LINK),
    ("-u", LINK),
    ("-B", ALL),
    ("-F", FRONT_LINK),
    ("-iquote", FRONT),
    ("-isystem", FRONT),
    ("-idirafter", FRONT),
    ("-iprefix", FRONT),
    ("-iwithprefix", FRONT),
    ("-iwithprefixbefore", FRONT),
    ("-isysroot", FRONT_LINK),
    ("-iframework", FRONT),
    ("-imacros", FRONT),
    ("-include", FRONT),
    // flang: where `.mod` files are written and searched (`-J dir`, `-Jdir`).
    ("-J", FRONT),
];

/// Flags that always take the next argument as their value, and where they go.
pub(super) const SEPARATE: &[(&str, Steps)] = &[
    ("-Xlinker", LINK),
    ("-z", LINK),
    ("-e", LINK),
    ("-Xclang", FRONT),
    ("-Xpreprocessor", FRONT),
    ("-Xassembler", CODEGEN),
    ("-mllvm", FRONT_CODEGEN),
    ("-target", ALL),
    ("-arch", ALL),
    ("--sysroot", ALL),
    ("-include-pch", FRONT),
    ("-ivfsoverlay", FRONT),
    ("-imultilib", FRONT),
    ("-isystem-after", FRONT),
    ("-cxx-isystem", FRONT),
    ("-MJ", FRONT),
    ("--param", FRONT),
    ("-Xopenmp-target", FRONT_LINK),
    ("-working-directory", ALL),
    ("-dependency-file", FRONT),
    ("-serialize-diagnostics", FRONT),
    // flang's front end only: module directories, options to its MLIR passes.
    ("-module-dir", FRONT),
    ("-fintrinsic-modules-path", FRONT),
    ("-mmlir", FRONT),
];

/// Link-only flags without a value.
pub(super) const LINK_ONLY: &[&str] = &[
    "-shared",
    "-static",
    "-static-pie",
    "-static-libgcc",
    "-shared-libgcc",
    "-static-libsan",
    "-shared-libsan",
    "-rdynamic",
    "-nostdlib",
    "-nostartfiles",
    "-nodefaultlibs",
    "-nolibc",
    "-pie",
    "-no-pie",
    "-s",
    "-r",
];

/// Front-end-only flags without a value (beyond the prefix families handled in code).
pub(super) const FRONT_ONLY: &[&str] = &[
    "-nostdinc",
    "-nostdlibinc",
    "-nobuiltininc",
    "-ansi",
    "-pedantic",
    "-pedantic-errors",
    "-trigraphs",
    "-traditional-cpp",
    "-undef",
    "-C",
    "-CC",
    "-H",
    "-P",
    "-MP",
    "-MG",
    "-pipe",
    "-save-temps",
    "-w",
    // flang's front-end options (source form, preprocessing, default kinds, dialect): clang,
    // which compiles the instrumented IR and links, rejects them.
    "-cpp",
    "-nocpp",
    "-ffree-form",
    "-ffixed-form",
    "-fdefault-real-8",
    "-fdefault-integer-8",
    "-fdefault-double-8",
    "-flarge-sizes",
    "-fbackslash",
    "-fno-backslash",
    "-fimplicit-none",
    "-fno-implicit-none",
    "-fxor-operator",
    "-fno-xor-operator",
    "-flogical-abbreviations",
    "-fno-logical-abbreviations",
    "-falternative-parameter-statement",
    "-fno-automatic",
    "-funderscoring",
    "-fno-underscoring",
    "-fstack-arrays",
    "-fno-stack-arrays",
];

/// Prefixes of flang's front-end options with a joined value (`-ffixed-line-length=132`).
pub(super) const FORTRAN_FRONT_PREFIXES: &[&str] = &["-ffixed-line-length", "-fconvert="];

/// Where a flag without a separate value goes, for the flags not in the tables.
pub(super) fn classify_flag(arg: &str) -> Steps {
    if arg.starts_with("-Wl,") {
        return LINK;
    }
    if arg.starts_with("-Wa,") {
        return CODEGEN;
    }
    if arg.starts_with("-Wp,") {
        return FRONT;
    }
    // Warnings and remarks are front-end diagnostics; `-std=`, `-stdlib=` the language.
    if arg.starts_with("-W") || arg.starts_with("-R") || arg.starts_with("-std=") {
        return FRONT;
    }
    if arg.starts_with("-stdlib=") {
        return FRONT_LINK;
    }
    // Link-time choices of libraries and linkers.
    if arg.starts_with("-fuse-ld=")
        || arg.starts_with("--ld-path=")
        || arg.starts_with("--rtlib=")
        || arg.starts_with("-rtlib=")
        || arg.starts_with("--unwindlib=")
        || arg.starts_with("-unwindlib=")
    {
        return LINK;
    }
    if FORTRAN_FRONT_PREFIXES.iter().any(|p| arg.starts_with(p)) {
        return FRONT;
    }
    // `-fopenmp` makes the front end emit OpenMP runtime calls and the link step add libomp;
    // the instrumented IR needs nothing more from it.
    if arg == "-fopenmp" || arg.starts_with("-fopenmp") || arg == "-pthread" {
        return FRONT_LINK;
    }
    // Optimisation level, debug info, target, code-model and machine flags matter at every
    // step: the front end optimises, code generation selects instructions, clang's link step
    // reads -m32, -fsanitize=..., -flto and the like.
    if arg.starts_with("-O")
        || arg.starts_with("-g")
        || arg.starts_with("-f")
        || arg.starts_with("-m")
        || arg.starts_with("--target=")
        || arg.starts_with("-target=")
        || arg.starts_with("--sysroot=")
        || arg.starts_with("--gcc-toolchain=")
        || arg.starts_with("-resource-dir")
        || arg.starts_with("--config")
        || arg.starts_with("-no-canonical-prefixes")
    {
        return ALL;
    }
    // A flag we do not know: clang would read it in the front end or the link step.
    FRONT_LINK
}
