//! The link step: the user's link line, in order, with compiled inputs replaced by their
//! objects, followed by the runtime library and the system libraries it needs.
//!
//! `-fopenmp` stays on the link line when given, so clang links libomp as it would without rdcc.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::args::{Invocation, LinkItem};
use crate::command::{clang_command, run};
use crate::tools::RUNTIME_SYSTEM_LIBS;

/// Builds the link arguments (without the clang program name).
///
/// `objects[i]` is the object compiled from input `i`, or `None` for inputs the linker reads
/// as they are.
pub fn link_arguments(
    invocation: &Invocation,
    objects: &[Option<PathBuf>],
    runtime: Option<&Path>,
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
    args
}

/// Runs the link step.
pub fn link(
    clang: &Path,
    invocation: &Invocation,
    objects: &[Option<PathBuf>],
    runtime: Option<&Path>,
) -> Result<()> {
    run(clang_command(
        clang,
        link_arguments(invocation, objects, runtime),
    ))
}
