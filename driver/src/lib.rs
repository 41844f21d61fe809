//! `rdcc`: a drop-in replacement for clang that instruments C/OpenMP programs for
//! reuse-distance tracing.
//!
//! Sources are compiled by clang to optimised LLVM IR, instrumented in process by
//! [`rdpass`], compiled to machine code without a second IR optimisation, and linked with the
//! rdtools runtime (`librdruntime.a`) and, with `-fopenmp`, libomp. Everything else about the
//! command line behaves as with clang, so `make CC=rdcc` and `cmake -DCMAKE_C_COMPILER=rdcc` work.
//!
//! The library half of the crate exists so that the command-line classification can be tested
//! from `tests/`; the binary is a thin wrapper around [`main_with_args`]. This crate runs clang
//! as a separate process and must not depend on the runtime crate (it only links its archive).

pub mod args;
pub mod command;
pub mod compile;
pub mod link;
pub mod personality;
pub mod pipeline;
pub mod tempdir;
pub mod tools;

pub use pipeline::{main_with_args, main_with_program, VERSION};
