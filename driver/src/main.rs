//! The `rdcc` binary: see the library crate for what it does.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = Vec::new();
    let mut argv = std::env::args_os();
    // The name it runs under picks the compiler it stands in for (rdc++, rdflang, ...).
    let program = argv
        .next()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    for arg in argv {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(arg) => {
                eprintln!(
                    "rdcc: error: argument is not valid UTF-8: {}",
                    arg.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
    }
    rdcc::main_with_program(&program, &args)
}
