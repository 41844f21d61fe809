//! Which compiler `rdcc` stands in for, chosen by the name it is run under (as `clang++` is
//! `clang` under another name).
//!
//! Real makefiles pick flags by the compiler's name (`ifneq (,$(findstring clang,$(CC)))` adds
//! `-fopenmp`), and C++ and Fortran programs link other runtimes than C. So the same binary is
//! installed under several names, each a drop-in for one compiler:
//!
//! | name | stands in for | links |
//! |---|---|---|
//! | `rdcc`, `rdclang` | `clang-19` | the C runtime |
//! | `rdc++`, `rdclang++` | `clang++-19` (clang in `--driver-mode=g++`) | also the C++ standard library |
//! | `rdflang` | `flang-new-19` | also flang's Fortran runtime |
//!
//! Whatever the name, Fortran sources are compiled by flang and C/C++ sources by clang; the name
//! decides how C sources are read (as C++ under a `++` name, as clang++ does), which library the
//! link adds, and which compiler gets command lines rdcc hands over unchanged.

use std::path::Path;

/// The compiler rdcc stands in for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Personality {
    /// `rdcc`, `rdclang`: clang.
    #[default]
    C,
    /// `rdc++`, `rdclang++`: clang++.
    Cxx,
    /// `rdflang`: flang.
    Fortran,
}

impl Personality {
    /// The personality for the name the program was run under (`argv[0]`, any directory).
    /// Names with `++` are C++, names with `flang` or `fortran` Fortran, anything else C.
    pub fn from_program_name(argv0: &str) -> Personality {
        let name = Path::new(argv0)
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if name.contains("++") || name.contains("cxx") {
            Personality::Cxx
        } else if name.contains("flang") || name.contains("fortran") {
            Personality::Fortran
        } else {
            Personality::C
        }
    }

    /// The name rdcc goes by in this personality (for messages and `--version`).
    pub fn tool_name(self) -> &'static str {
        match self {
            Personality::C => "rdcc",
            Personality::Cxx => "rdc++",
            Personality::Fortran => "rdflang",
        }
    }

    /// Arguments that put clang into this personality's driver mode, first on its command line.
    pub fn clang_mode_args(self) -> &'static [&'static str] {
        match self {
            Personality::Cxx => &["--driver-mode=g++"],
            Personality::C | Personality::Fortran => &[],
        }
    }
}

/// The names rdcc is installed under besides `rdcc` itself (symbolic links to it).
pub const ALIASES: &[&str] = &["rdclang", "rdc++", "rdclang++", "rdflang"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_choose_the_personality() {
        for (name, want) in [
            ("rdcc", Personality::C),
            ("/usr/local/bin/rdclang", Personality::C),
            ("rdc++", Personality::Cxx),
            ("../bin/rdclang++", Personality::Cxx),
            ("rdflang", Personality::Fortran),
            ("", Personality::C),
        ] {
            assert_eq!(Personality::from_program_name(name), want, "{name}");
        }
    }
}
