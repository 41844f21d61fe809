//! Issue 28: the modules of every crate form a tree of uses, never a cycle. A helper two modules
//! share lives below both (STYLE.md: "a shared helper lives below the modules that use it, never
//! in one of them").
//!
//! The graph is read from the sources, at every level of the module tree: in the files of
//! module `p::a`, a path `crate::p::b…` (or `super::b…`, or any path that resolves into a
//! sibling `p::b`) is an edge `p::a → p::b`; a path to an item the crate root re-exports from a
//! top-level module (`pub use b::{x, y}`) is a use of that module. Uses of an enclosing module or
//! inside one module are not edges. Every strongly connected component of more than one module
//! is a cycle, reported with the uses that close it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A crate's top-level modules and the uses between them.
struct ModuleGraph {
    /// `a -> b -> the first place a uses b` (file:line).
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of `file` below `src` (`commands/histogram/feed.rs` → commands, histogram,
/// feed; `x/mod.rs` → x); empty for the crate root.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if parts.is_empty() && matches!(stem, "lib" | "main") {
        return Vec::new();
    }
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The module paths written at the start of `s`: `a::b::c` gives [a, b, c], and a group
/// `a::{b::c, d, self}` gives [a, b, c], [a, d] and [a] (a group may span lines).
fn paths_at(s: &str) -> Vec<Vec<String>> {
    if let Some(group) = s.strip_prefix('{') {
        let mut out = Vec::new();
        let (mut depth, mut start) = (0usize, 0usize);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 0 => {
                    let element = group[start..i].trim();
                    if element == "self" {
                        out.push(Vec::new());
                    } else {
                        out.extend(paths_at(element));
                    }
                    start = i + 1;
                    if c == '}' {
                        break;
                    }
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        return out;
    }
    let head = ident(s);
    if head.is_empty() {
        return Vec::new();
    }
    let rest = &s[head.len()..];
    match rest.strip_prefix("::") {
        Some(tail) if tail.starts_with('{') || !ident(tail).is_empty() => {
            let inner = paths_at(tail);
            if inner.is_empty() {
                return vec![vec![head.to_string()]];
            }
            inner
                .into_iter()
                .map(|p| std::iter::once(head.to_string()).chain(p).collect())
                .collect()
        }
        _ => vec![vec![head.to_string()]],
    }
}

/// The code of a line without its `//` comment (good enough: no module path appears in a
/// string literal containing `//` in this workspace).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// The names the crate root re-exports from its modules: `pub use b::{x, y};` → x → b.
fn root_reexports(root: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    // Join the root's lines so that a `pub use` spanning lines reads as one statement.
    let text: String = root.lines().map(code).collect::<Vec<_>>().join(" ");
    for stmt in text.split(';') {
        let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest
            .trim()
            .trim_start_matches("crate::")
            .trim_start_matches("self::");
        let module = ident(rest);
        if !modules.contains(module) {
            continue;
        }
        let items = rest[module.len()..].trim_start_matches("::");
        let items = items.trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let item = item.trim();
            // `x as y` exports y; `sub::x` exports x.
            let exported = item.rsplit(" as ").next().unwrap_or(item);
            let exported = exported.rsplit("::").next().unwrap_or(exported).trim();
            if !exported.is_empty() && exported != "*" {
                names.insert(exported.to_string(), module.to_string());
            }
        }
    }
    names
}

impl ModuleGraph {
    /// Reads the crate whose sources are under `src`.
    fn of_crate(src: &Path) -> ModuleGraph {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        files.sort();
        // Every module with a file, and every module above one.
        let mut modules: BTreeSet<Vec<String>> = BTreeSet::new();
        for f in &files {
            let path = module_path(src, f);
            for n in 1..=path.len() {
                modules.insert(path[..n].to_vec());
            }
        }
        let top: BTreeSet<String> = modules.iter().map(|m| m[0].clone()).collect();
        let root = ["lib.rs", "main.rs"]
            .iter()
            .map(|r| src.join(r))
            .find(|r| r.exists())
            .map(|r| fs::read_to_string(r).unwrap())
            .unwrap_or_default();
        let reexports = root_reexports(&root, &top);
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for file in &files {
            let path = module_path(src, file);
            if path.is_empty() {
                continue;
            }
            let text: String = fs::read_to_string(file)
                .unwrap()
                .lines()
                .map(code)
                .collect::<Vec<_>>()
                .join("\n");
            let line_of = |i: usize| text[..i].matches('\n').count() + 1;
            // (position, absolute module path) of every path that starts at the crate root or
            // climbs with `super::`.
            let mut targets: Vec<(usize, Vec<String>)> = Vec::new();
            for (i, _) in text.match_indices("crate::") {
                // Not `rdtrace::crate::`… nor a longer identifier ending in "crate".
                let before = text[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                for target in paths_at(&text[i + "crate::".len()..]) {
                    targets.push((i, target));
                }
            }
            let mut at = 0;
            while let Some(found) = text[at..].find("super::") {
                let i = at + found;
                let before = text[..i].chars().next_back();
                let mut tail = &text[i..];
                let mut climbs = 0;
                while let Some(t) = tail.strip_prefix("super::") {
                    climbs += 1;
                    tail = t;
                }
                at = text.len() - tail.len();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    || climbs > path.len()
                {
                    continue;
                }
                let base = &path[..path.len() - climbs];
                for rest in paths_at(tail) {
                    targets.push((i, base.iter().cloned().chain(rest).collect()));
                }
            }
            for (i, mut target) in targets {
                // `crate::Thing` re-exported by the root from module b is a use of b.
                if let Some(m) = target.first().and_then(|t| reexports.get(t)) {
                    if !top.contains(&target[0]) {
                        target = vec![m.clone()];
                    }
                }
                // The edge joins the two children of the deepest module both lie in.
                let common = path.iter().zip(&target).take_while(|(a, b)| a == b).count();
                if common >= path.len() || common >= target.len() {
                    continue; // a use of an enclosing module, or inside this one
                }
                let (from, to) = (&path[..=common], &target[..=common]);
                if !modules.contains(to) {
                    continue; // an item of the enclosing module, not a sibling module
                }
                let place = format!("{}:{}", file.display(), line_of(i));
                edges
                    .entry(from.join("::"))
                    .or_default()
                    .entry(to.join("::"))
                    .or_insert(place);
            }
        }
        ModuleGraph { edges }
    }

    /// The strongly connected components of more than one module (Tarjan's algorithm).
    fn cycles(&self) -> Vec<Vec<String>> {
        struct Tarjan<'a> {
            graph: &'a ModuleGraph,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on_stack: BTreeSet<&'a str>,
            out: Vec<Vec<String>>,
        }
        impl<'a> Tarjan<'a> {
            fn visit(&mut self, v: &'a str) {
                let i = self.index.len();
                self.index.insert(v, i);
                self.low.insert(v, i);
                self.stack.push(v);
                self.on_stack.insert(v);
                let next: Vec<&'a str> = self
                    .graph
                    .edges
                    .get(v)
                    .map(|m| m.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                for w in next {
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let lw = self.low[w];
                        let lv = self.low.get_mut(v).unwrap();
                        *lv = (*lv).min(lw);
                    } else if self.on_stack.contains(w) {
                        let iw = self.index[w];
                        let lv = self.low.get_mut(v).unwrap();
                        *lv = (*lv).min(iw);
                    }
                }
                if self.low[v] == self.index[v] {
                    let mut component = Vec::new();
                    loop {
                        let w = self.stack.pop().unwrap();
                        self.on_stack.remove(w);
                        component.push(w.to_string());
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        component.sort();
                        self.out.push(component);
                    }
                }
            }
        }
        let mut t = Tarjan {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            out: Vec::new(),
        };
        for v in self.edges.keys() {
            if !t.index.contains_key(v.as_str()) {
                t.visit(v);
            }
        }
        t.out
    }

    /// The uses inside `component`, one line each.
    fn describe(&self, component: &[String]) -> String {
        let mut s = String::new();
        for a in component {
            for (b, place) in self.edges.get(a).into_iter().flatten() {
                if component.contains(b) {
                    s.push_str(&format!("    {a} -> {b} ({place})\n"));
                }
            }
        }
        s
    }
}

/// The workspace's crates: every member directory with a `src/`.
fn crate_sources() -> Vec<PathBuf> {
    let root = rdtools_e2e::workspace();
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest
        .split("members = [")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .expect("workspace members");
    let srcs: Vec<PathBuf> = members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m).join("src"))
        .filter(|s| s.is_dir())
        .collect();
    assert!(srcs.len() >= 10, "{srcs:?}");
    srcs
}

#[test]
fn no_crate_has_a_module_cycle() {
    let mut report = String::new();
    for src in crate_sources() {
        let graph = ModuleGraph::of_crate(&src);
        for cycle in graph.cycles() {
            report.push_str(&format!(
                "{}: {} form a cycle:\n{}",
                src.display(),
                cycle.join(", "),
                graph.describe(&cycle)
            ));
        }
    }
    assert!(report.is_empty(), "module cycles:\n{report}");
}

/// The reader itself: a cycle through a re-export and one through `super::` are found, at the
/// top and one level down; a use inside one module or in a comment is not an edge.
#[test]
fn the_reader_finds_cycles_through_reexports_and_super() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    fs::create_dir_all(src.join("c")).unwrap();
    fs::write(
        src.join("lib.rs"),
        "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\npub use b::{Thing, other as Alias};\n",
    )
    .unwrap();
    fs::write(src.join("a.rs"), "use crate::Thing;\n// crate::d::x\n").unwrap();
    fs::write(
        src.join("b.rs"),
        "pub struct Thing;\nuse super::c::inner;\n",
    )
    .unwrap();
    fs::write(src.join("c/mod.rs"), "pub mod inner;\n").unwrap();
    fs::write(
        src.join("c/inner.rs"),
        "use super::super::a;\nuse super::Sibling;\n",
    )
    .unwrap();
    fs::write(src.join("d.rs"), "use crate::Alias;\n").unwrap();
    fs::write(
        src.join("e.rs"),
        "use crate::{\n    a,\n    c::{self, inner},\n};\n",
    )
    .unwrap();
    // Two modules inside c that use each other: a cycle one level down.
    fs::write(src.join("c/x.rs"), "use super::y::Y;\n").unwrap();
    fs::write(src.join("c/y.rs"), "pub struct Y;\nuse crate::c::x;\n").unwrap();
    let graph = ModuleGraph::of_crate(src);
    let mut cycles = graph.cycles();
    cycles.sort();
    assert_eq!(
        cycles,
        vec![
            vec!["a".to_string(), "b".to_string(), "c".to_string()],
            vec!["c::x".to_string(), "c::y".to_string()]
        ]
    );
    // d uses b through the aliased re-export; nothing uses d (the comment in a is not a use).
    assert!(graph.edges["d"].contains_key("b"));
    assert!(!graph.edges["a"].contains_key("d"));
    // A group spanning lines names each of its heads.
    assert_eq!(graph.edges["e"].keys().collect::<Vec<_>>(), vec!["a", "c"]);
}
