//! The link step: the user's link line, in order, with compiled inputs replaced by their
//! objects, followed by the runtime library and the system libraries it needs.
//!
//! `-fopenmp` stays on the link line when given, so clang links libomp as it would without rdcc.
//! clang links in the personality's driver mode, so `rdc++` links the C++ standard library as
//! clang++ does; a program with Fortran objects (or linked by `rdflang`) also gets flang's
//! runtime, as flang's own link step adds it.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::args::InputKind;
use crate::args::{Invocation, LinkItem};
use crate::command::{compiler_command, run};
use crate::personality::Personality;
use crate::tools::{FORTRAN_RUNTIME_LIBS, RUNTIME_SYSTEM_LIBS};

/// Builds the link arguments (without the clang program name).
///
/// `objects[i]` is the object compiled from input `i`, or `None` for inputs the linker reads
/// as they are.
/// `fortran_runtime` is the directory of flang's runtime libraries, given when the program has
/// Fortran objects or is linked by `rdflang`.
pub fn link_arguments(
    invocation: &Invocation,
    objects: &[Option<PathBuf>],
    runtime: Option<&Path>,
    fortran_runtime: Option<&Path>,
) -> Vec<String> {
    let mut args = Vec::with_capacity(invocation.link_items.len() + 8);
    for item in &invocation.link_items {
        match item {
            LinkItem::Flag(flag) => args.push(flag.clone()),
            LinkItem::Input(index) => match objects.get(*index).and_then(Option::as_ref) {
                Some(object) => args.push(object.to_string_lossy().into_owned()),
                None => args.push(invocation.inputs[*index].path.clone()),
            },
        }
    }
    if let Some(output) = &invocation.output {
        args.push("-o".to_string());
        args.push(output.clone());
    }
    if let Some(runtime) = runtime {
        // After every user object and library, so that the linker pulls in the hooks any of
        // them calls.
        args.push(runtime.to_string_lossy().into_owned());
        args.extend(RUNTIME_SYSTEM_LIBS.iter().map(|lib| lib.to_string()));
    }
    if let Some(dir) = fortran_runtime {
        args.push(format!("-L{}", dir.display()));
        args.extend(FORTRAN_RUNTIME_LIBS.iter().map(|lib| lib.to_string()));
    }
    args
}

/// Whether the link needs flang's runtime: a Fortran input, or `rdflang` linking.
pub fn needs_fortran_runtime(invocation: &Invocation) -> bool {
    invocation.personality == Personality::Fortran
        || invocation
            .inputs
            .iter()
            .any(|input| input.kind == InputKind::Fortran)
}

/// Runs the link step.
pub fn link(
    clang: &Path,
    invocation: &Invocation,
    objects: &[Option<PathBuf>],
    runtime: Option<&Path>,
    fortran_runtime: Option<&Path>,
) -> Result<()> {
    run(compiler_command(
        clang,
        invocation.personality,
        link_arguments(invocation, objects, runtime, fortran_runtime),
    ))
}
