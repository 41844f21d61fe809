//! Which functions a region of interest names: the one matching rule that the runtime (which
//! decides what to record) and the reports (which say what a trace holds) share.
//!
//! `RDTRACE_ROI=kernel,Grid::update` selects every function whose name, in any of the forms
//! below, equals one of the comma-separated names:
//! * the linker symbol (`_Z6kernelPdi`, `kernel` in C);
//! * the readable name with and without parameter lists (`kernel(double*, int)`, `kernel`;
//!   see [`crate::demangle`]);
//! * the last `::` component of the short name (`update` selects `Grid::update` and
//!   `heat::update`), and either of the short forms without a trailing template argument list
//!   (`sum` selects `sum<double>`).
//!
//! An OpenMP outlined body is matched by the name of the function its region was written in
//! (`kernel.omp_outlined` by `kernel`, flang's `_QPkernel..omp_par` too), so a selected
//! function's parallel regions are recorded even where the compiler inlined the function into
//! its callers. Besides, the runtime records a team's outlined body whenever the thread that
//! forked it was recording (so a region forked by anything a selected function calls is
//! inside).

use crate::demangle::short_name;
use crate::meta::{FunctionMeta, MetaTables};

/// The environment variable that names the functions of a region of interest.
pub const ENV_FUNCTIONS: &str = "RDTRACE_ROI";

/// The names of an `RDTRACE_ROI` value: comma-separated, blanks around a name ignored, empty
/// names dropped.
pub fn parse_functions(spec: &str) -> Vec<String> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `name` without a trailing template argument list (`sum<double>` → `sum`).
fn without_template_args(name: &str) -> &str {
    if !name.ends_with('>') {
        return name;
    }
    let mut depth = 0usize;
    for (i, c) in name.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return &name[..i];
                }
            }
            _ => {}
        }
    }
    name
}

/// Whether the function with linker symbol `symbol` is named by `pattern` (see the module
/// docs).
pub fn function_matches(pattern: &str, symbol: &str) -> bool {
    if pattern == symbol {
        return true;
    }
    if !crate::demangle::is_mangled(symbol) {
        return false;
    }
    if crate::demangle::display_name(symbol) == pattern {
        return true;
    }
    let short = short_name(symbol);
    let last = short.rsplit("::").next().unwrap_or(&short);
    let named = [&*short, last]
        .into_iter()
        .any(|form| form == pattern || without_template_args(form) == pattern);
    named
}

/// The symbol of the function an outlined body was written in: its symbol up to the first `.`
/// (the suffixes compilers append, `.omp_outlined`, `..omp_par`; C, C++ and Fortran symbols
/// have no `.` of their own).
pub fn written_in(outlined_symbol: &str) -> &str {
    outlined_symbol.split('.').next().unwrap_or(outlined_symbol)
}

/// Whether `pattern` selects function `f` (an outlined body by [`written_in`]).
pub fn selects(pattern: &str, f: &FunctionMeta) -> bool {
    if f.outlined {
        function_matches(pattern, written_in(&f.name))
    } else {
        function_matches(pattern, &f.name)
    }
}

/// For each function of `tables`, whether one of `patterns` selects it ([`selects`]).
pub fn selected_functions(tables: &MetaTables, patterns: &[String]) -> Vec<bool> {
    tables
        .functions
        .iter()
        .map(|f| patterns.iter().any(|p| selects(p, f)))
        .collect()
}

/// For each function of `tables`, the region whose outlined body it is.
pub fn outlined_regions(tables: &MetaTables) -> Vec<Option<u32>> {
    let mut of = vec![None; tables.functions.len()];
    for (region, r) in tables.regions.iter().enumerate() {
        if let Some(slot) = of.get_mut(r.outlined_function as usize) {
            *slot = Some(region as u32);
        }
    }
    of
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_split_on_commas() {
        assert_eq!(
            parse_functions(" kernel, Grid::update,,"),
            vec!["kernel", "Grid::update"]
        );
        assert!(parse_functions("").is_empty());
    }

    #[test]
    fn c_names_match_only_themselves() {
        assert!(function_matches("kernel", "kernel"));
        assert!(!function_matches("kernel", "kernel2"));
        assert!(!function_matches("kernel", "main.omp_outlined"));
    }

    #[test]
    fn cxx_and_fortran_names_match_in_every_readable_form() {
        // kernel(double*, int)
        for p in ["_Z6kernelPdi", "kernel", "kernel(double*, int)"] {
            assert!(function_matches(p, "_Z6kernelPdi"), "{p}");
        }
        // Domain::update()
        for p in ["Domain::update", "update", "Domain::update()"] {
            assert!(function_matches(p, "_ZN6Domain6updateEv"), "{p}");
        }
        assert!(!function_matches("Domain", "_ZN6Domain6updateEv"));
        // double sum<double>(double const*, int)
        assert!(function_matches("sum", "_Z3sumIdET_PKS0_i"));
        assert!(function_matches("sum<double>", "_Z3sumIdET_PKS0_i"));
        // Fortran: heat::step
        assert!(function_matches("step", "_QMheatPstep"));
        assert!(function_matches("heat::step", "_QMheatPstep"));
        assert!(function_matches("kernel", "_QPkernel"));
    }

    #[test]
    fn outlined_bodies_go_by_the_function_they_were_written_in() {
        assert_eq!(written_in("kernel.omp_outlined"), "kernel");
        assert_eq!(written_in("_QMheatPstep..omp_par"), "_QMheatPstep");
        assert_eq!(written_in("main"), "main");
        let f = |name: &str, outlined| FunctionMeta {
            name: name.into(),
            loc: None,
            outlined,
            parallel: outlined,
            first_block: 0,
            num_blocks: 1,
        };
        assert!(selects("kernel", &f("kernel.omp_outlined", true)));
        assert!(selects(
            "step",
            &f("_ZN3sim9Particles4stepEd.omp_outlined", true)
        ));
        assert!(!selects("kernel", &f("main.omp_outlined", true)));
        // Only an outlined body drops its suffix.
        assert!(!selects("kernel", &f("kernel.cold", false)));
    }

    #[test]
    fn template_lists_strip_only_at_the_end() {
        assert_eq!(without_template_args("sum<double>"), "sum");
        assert_eq!(without_template_args("a<b<c>>"), "a");
        assert_eq!(without_template_args("plain"), "plain");
        assert_eq!(without_template_args("broken>"), "broken>");
    }
}
