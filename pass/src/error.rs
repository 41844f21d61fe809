//! The pass's error type.

use std::path::PathBuf;

/// Why instrumenting a module failed.
#[derive(Debug, thiserror::Error)]
pub enum PassError {
    /// The input file could not be read or parsed as LLVM bitcode or textual IR.
    #[error("cannot read LLVM module {path}: {message}")]
    Read {
        /// Input path.
        path: PathBuf,
        /// LLVM's diagnostic.
        message: String,
    },
    /// The instrumented module could not be written.
    #[error("cannot write LLVM module {path}: {message}")]
    Write {
        /// Output path.
        path: PathBuf,
        /// LLVM's diagnostic.
        message: String,
    },
    /// The module already carries rdtools instrumentation (its metadata blob global exists).
    #[error("module {0} is already instrumented")]
    AlreadyInstrumented(String),
    /// A hook or helper symbol already exists in the module with a different signature.
    #[error("symbol @{name} already exists with a different type: {found}")]
    SymbolClash {
        /// Symbol name.
        name: String,
        /// The type found in the module.
        found: String,
    },
    /// The IR builder refused an instruction (a bug in the pass).
    #[error("cannot build instrumentation: {0}")]
    Build(String),
    /// The instrumented module does not verify (a bug in the pass, or an invalid input).
    #[error("instrumented module does not verify: {0}")]
    Verify(String),
}

impl From<inkwell::builder::BuilderError> for PassError {
    fn from(e: inkwell::builder::BuilderError) -> Self {
        Self::Build(e.to_string())
    }
}
