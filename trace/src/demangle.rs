//! Readable names for the linker symbols the metadata records ([`crate::meta::FunctionMeta`]'s
//! `name` is the LLVM function name, so a C++ function is `_Z6kernelPdi` and a Fortran one
//! `_QPkernel`). Reports print [`display_name`] (or [`short_name`] where space is short) and keep
//! the symbol itself in their JSON.
//!
//! * Itanium C++ names (`_Z…`, what clang and GCC emit on Linux) go through the `cpp_demangle`
//!   crate: `_Z6kernelPdi` → `kernel(double*, int)`, `_ZN6Domain6updateEv` → `Domain::update()`.
//! * flang's uniqued names (`_Q…`, see flang's `docs/BijectiveInternalNameUniquing.md`): the
//!   scopes `M` (module), `S` (submodule) and `F` (host procedure) and the procedure `P` become a
//!   `::` path, `_QPkernel` → `kernel`, `_QMheatPstep` → `heat::step`; the main program `_QQmain`
//!   (whose own name flang does not keep in the symbol) → `main program`.
//! * A suffix that the compiler appended to a symbol after a `.` stays, so an outlined region
//!   reads like a C one (`main.omp_outlined`): `_Z6kernelPdi.omp_outlined` →
//!   `kernel(double*, int).omp_outlined`, and flang's `..omp_par` becomes `.omp_par`
//!   (`_QQmain..omp_par` → `main program.omp_par`).
//! * Everything else (C names, Rust names, anything that does not parse) comes back unchanged
//!   and borrowed.
//!
//! Neither function panics, whatever the input, and both bound their work: a symbol longer than
//! [`MAX_SYMBOL_LEN`] bytes or a readable form longer than [`MAX_DISPLAY_LEN`] bytes is given
//! back raw (template back-references can make a short symbol expand enormously).

use std::borrow::Cow;
use std::fmt;

/// Longest symbol demangled; longer ones are shown raw.
pub const MAX_SYMBOL_LEN: usize = 4096;

/// Longest readable form produced; a symbol whose readable form would be longer is shown raw.
pub const MAX_DISPLAY_LEN: usize = 8192;

/// The readable form of `symbol`: C++ with its parameter list (`kernel(double*, int)`), Fortran
/// as a `::` path (`heat::step`), anything else unchanged.
pub fn display_name(symbol: &str) -> Cow<'_, str> {
    readable(symbol, Form::Full)
}

/// [`display_name`] without C++ parameter lists and return types (`Domain::update`,
/// `sum<double>`), for lists and narrow columns.
pub fn short_name(symbol: &str) -> Cow<'_, str> {
    readable(symbol, Form::Short)
}

/// Whether [`display_name`] would change `symbol` (a C++ or Fortran name it can read).
pub fn is_mangled(symbol: &str) -> bool {
    matches!(display_name(symbol), Cow::Owned(_))
}

/// [`display_name`] when it differs from `symbol`, else `None`: what a JSON document puts beside
/// a field holding the symbol (C names need nothing beside them).
pub fn demangled(symbol: &str) -> Option<String> {
    match display_name(symbol) {
        Cow::Owned(name) => Some(name),
        Cow::Borrowed(_) => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Full,
    Short,
}

fn readable(symbol: &str, form: Form) -> Cow<'_, str> {
    if symbol.len() > MAX_SYMBOL_LEN {
        return Cow::Borrowed(symbol);
    }
    // Mangled names never contain a dot; clang, GCC and flang append theirs after one
    // (`.omp_outlined`, `.omp_outlined_debug__`, `.extracted`, `.cold`, `..omp_par`).
    let (head, suffix) = symbol.split_at(symbol.find('.').unwrap_or(symbol.len()));
    let name = if head.starts_with("_Z") {
        itanium(head, form)
    } else if head.starts_with("_Q") {
        fortran(head)
    } else {
        None
    };
    match name {
        Some(mut name) => {
            // flang separates its suffixes with two dots; one reads better after a path.
            let suffix = if head.starts_with("_Q") {
                suffix.strip_prefix('.').unwrap_or(suffix)
            } else {
                suffix
            };
            name.push_str(suffix);
            if name.len() > MAX_DISPLAY_LEN {
                Cow::Borrowed(symbol)
            } else {
                Cow::Owned(name)
            }
        }
        None => Cow::Borrowed(symbol),
    }
}

/// A `fmt::Write` that fails once more than [`MAX_DISPLAY_LEN`] bytes were written, which stops
/// the demangler early.
struct Capped(String);

impl fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.0.len() + s.len() > MAX_DISPLAY_LEN {
            return Err(fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// An Itanium C++ name (without compiler suffix), or `None` when it does not parse.
fn itanium(mangled: &str, form: Form) -> Option<String> {
    let demangle = || {
        // The crate's default recursion limits keep the stack bounded even in debug builds.
        let symbol = cpp_demangle::Symbol::new(mangled.as_bytes()).ok()?;
        let mut options = cpp_demangle::DemangleOptions::new();
        if form == Form::Short {
            options = options.no_params().no_return_type();
        }
        let mut out = Capped(String::new());
        symbol.structured_demangle(&mut out, &options).ok()?;
        let mut name = out.0;
        if form == Form::Short {
            // Without its parameters a method's qualifiers (`operator() const`) read as noise.
            while let Some(q) = [" const", " volatile", " &&", " &"]
                .into_iter()
                .find(|q| name.ends_with(q))
            {
                name.truncate(name.len() - q.len());
            }
        }
        Some(name)
    };
    // A demangler bug must not take a report down: such a name is shown raw.
    std::panic::catch_unwind(demangle)
        .ok()
        .flatten()
        .filter(|s| !s.is_empty())
}

/// A flang procedure name: `_Q` then tagged scopes, each an upper-case tag and a lower-case
/// name (`_QMmodSsubmodFhostPproc`); `None` for other uniqued names (variables, types,
/// compiler-generated `_QQ…` names other than the main program) and anything malformed.
fn fortran(mangled: &str) -> Option<String> {
    let rest = mangled.strip_prefix("_Q")?;
    if rest == "Qmain" {
        return Some("main program".into());
    }
    let bytes = rest.as_bytes();
    let mut parts: Vec<&str> = Vec::new();
    let mut i = 0;
    let mut procedure = false;
    while i < bytes.len() {
        let tag = bytes[i];
        // Tags and names are ASCII; anything else is not a flang name (and slicing after the
        // first byte of a multi-byte character would not be at a character boundary).
        if !tag.is_ascii() {
            return None;
        }
        let start = i + 1;
        let mut end = start;
        while end < bytes.len()
            && (bytes[end].is_ascii_lowercase()
                || bytes[end].is_ascii_digit()
                || bytes[end] == b'_')
        {
            end += 1;
        }
        let name = &rest[start..end];
        match tag {
            // A procedure is the last component.
            b'P' if !procedure && !name.is_empty() && end == bytes.len() => {
                procedure = true;
                parts.push(name);
            }
            b'M' | b'S' if !name.is_empty() => parts.push(name),
            // A host procedure; the main program's internal procedures have an empty host.
            b'F' => parts.push(if name.is_empty() {
                "main program"
            } else {
                name
            }),
            _ => return None,
        }
        i = end;
    }
    procedure.then(|| parts.join("::"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Found by `never_panics_on_arbitrary_text`: a non-ASCII byte where a flang scope tag
    /// goes was sliced after its first byte, inside the character.
    #[test]
    fn fortran_names_with_non_ascii_tags_are_not_demangled() {
        assert_eq!(fortran("_Q\u{a1}"), None);
        assert_eq!(fortran("_QMmod\u{e9}Pproc"), None);
        assert_eq!(display_name("_Q\u{a1}"), "_Q\u{a1}");
        let _ = short_name("_Q\u{a1}");
    }

    #[test]
    fn cxx_functions_methods_and_templates() {
        let cases = [
            ("_Z6kernelPdi", "kernel(double*, int)", "kernel"),
            ("_ZN6Domain6updateEv", "Domain::update()", "Domain::update"),
            (
                "_ZN9Particles4stepEd",
                "Particles::step(double)",
                "Particles::step",
            ),
            (
                "_Z3sumIdET_RKSt6vectorIS0_SaIS0_EE",
                "double sum<double>(std::vector<double, std::allocator<double> > const&)",
                "sum<double>",
            ),
            (
                "_ZNSt6vectorIdSaIdEEixEm",
                "std::vector<double, std::allocator<double> >::operator[](unsigned long)",
                "std::vector<double, std::allocator<double> >::operator[]",
            ),
        ];
        for (sym, full, short) in cases {
            assert_eq!(display_name(sym), full, "{sym}");
            assert_eq!(short_name(sym), short, "{sym}");
            assert!(is_mangled(sym));
            assert_eq!(demangled(sym).as_deref(), Some(full));
        }
    }

    #[test]
    fn lambdas() {
        assert_eq!(
            display_name("_ZZ4mainENKUliE_clEi"),
            "main::{lambda(int)#1}::operator()(int) const"
        );
        // clang's name for a lambda with internal linkage.
        let d = display_name("_ZZ4mainENK3$_0clEi");
        assert_eq!(d, "main::$_0::operator()(int) const");
        assert_eq!(short_name("_ZZ4mainENK3$_0clEi"), "main::$_0::operator()");
    }

    #[test]
    fn compiler_suffixes_stay() {
        assert_eq!(
            display_name("_Z6kernelPdi.omp_outlined"),
            "kernel(double*, int).omp_outlined"
        );
        assert_eq!(
            short_name("_Z6kernelPdi.omp_outlined"),
            "kernel.omp_outlined"
        );
        assert_eq!(
            display_name("_ZN6Domain6updateEv.omp_outlined_debug__"),
            "Domain::update().omp_outlined_debug__"
        );
        assert_eq!(
            display_name("_ZN6Domain6updateEv.omp_outlined.1"),
            "Domain::update().omp_outlined.1"
        );
        assert_eq!(
            display_name("_Z6kernelPdi.extracted"),
            "kernel(double*, int).extracted"
        );
    }

    #[test]
    fn fortran_names() {
        assert_eq!(display_name("_QPkernel"), "kernel");
        assert_eq!(display_name("_QMheatPstep"), "heat::step");
        assert_eq!(
            display_name("_QMmodSs1modSs2modFsubPfun"),
            "mod::s1mod::s2mod::sub::fun"
        );
        assert_eq!(display_name("_QFkernelPinner"), "kernel::inner");
        assert_eq!(display_name("_QFPinner"), "main program::inner");
        assert_eq!(display_name("_QQmain"), "main program");
        assert_eq!(display_name("_QQmain..omp_par"), "main program.omp_par");
        assert_eq!(display_name("_QPkernel..omp_par.1"), "kernel.omp_par.1");
        assert_eq!(
            display_name("_QMkernelsPdyn..omp_par"),
            "kernels::dyn.omp_par"
        );
        assert_eq!(short_name("_QMheatPstep"), "heat::step");
    }

    #[test]
    fn everything_else_is_unchanged_and_borrowed() {
        for s in [
            "main",
            "main.omp_outlined",
            "kernel",
            "__kmpc_fork_call",
            "_GLOBAL__sub_I_particles.cpp",
            "__cxx_global_var_init",
            "_ZN3foo17h0123456789abcdefE_not_itanium",
            "_Z",
            "_Zfoo",
            "_Q",
            "_QQcl.2f746d70",
            "_QMmodEintvar",
            "_QPKernel",
            "_QPa_QPb",
            "",
            ".",
            "_Z.",
            ".omp.reduction.func",
        ] {
            assert!(
                matches!(display_name(s), Cow::Borrowed(b) if b == s),
                "{s:?} -> {:?}",
                display_name(s)
            );
            assert!(matches!(short_name(s), Cow::Borrowed(b) if b == s), "{s:?}");
            assert!(!is_mangled(s));
            assert_eq!(demangled(s), None);
        }
    }

    #[test]
    fn hostile_names_come_back_raw() {
        // Longer than the cap: not even looked at.
        let long = format!("_Z{}kernelv", "N3abc".repeat(MAX_SYMBOL_LEN));
        assert_eq!(display_name(&long), long.as_str());
        // Short, but every parameter points one level deeper than the one before (`a*`,
        // `a**`, …, through back-references): the readable form grows with the square of the
        // length and passes the cap, so the raw symbol comes back.
        let base36 = |mut n: usize| {
            let digits = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
            let mut s = Vec::new();
            loop {
                s.push(digits[n % 36]);
                n /= 36;
                if n == 0 {
                    break;
                }
            }
            s.reverse();
            String::from_utf8(s).unwrap()
        };
        let mut sym = String::from("_Z1fP1a");
        for j in 1..400 {
            sym.push_str(&format!("PS{}_", base36(j - 1)));
        }
        assert!(sym.len() < MAX_SYMBOL_LEN);
        assert_eq!(display_name(&sym), sym.as_str());
        // The same shape, small enough, reads normally.
        assert_eq!(display_name("_Z1fP1aPS0_"), "f(a*, a**)");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn never_panics_on_arbitrary_text(s in ".{0,200}") {
            let d = display_name(&s);
            prop_assert!(d.len() <= MAX_DISPLAY_LEN.max(s.len()));
            let _ = short_name(&s);
        }

        #[test]
        fn never_panics_on_mangled_looking_text(
            prefix in prop::sample::select(vec!["_Z", "_ZN", "_ZZ", "_ZSt", "_ZTV", "_Q", "_QM", "_QP", "_QQ", "_QF"]),
            body in "[A-Za-z0-9_$.]{0,120}",
        ) {
            let s = format!("{prefix}{body}");
            let d = display_name(&s);
            prop_assert!(d.len() <= MAX_DISPLAY_LEN.max(s.len()));
            let _ = short_name(&s);
        }

        #[test]
        fn names_that_do_not_look_mangled_pass_through(s in "[a-zA-Y][A-Za-z0-9_.$]{0,60}") {
            prop_assert_eq!(display_name(&s), s.as_str());
        }
    }
}
