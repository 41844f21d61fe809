//! The `rdcc` binary: see the library crate for what it does.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
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
    rdcc::main_with_args(&args)
}
