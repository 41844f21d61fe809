//! Loop detection on IR: hand-written control flow (`cfg_shapes.ll`) and clang `-O0` loops.

mod common;

use common::*;
use inkwell::context::Context;
use rdtrace::meta::{BranchKind, ModuleMeta};

/// Block id of the block named `label` in function `function`.
fn block(meta: &ModuleMeta, function: &str, label: &str) -> u32 {
    let f = &meta.functions[function_id(meta, function) as usize];
    (f.first_block..f.first_block + f.num_blocks)
        .find(|&b| meta.blocks[b as usize].name == label)
        .unwrap_or_else(|| panic!("no block {label} in {function}"))
}

fn loops_of(meta: &ModuleMeta, function: &str) -> Vec<u32> {
    let f = function_id(meta, function);
    (0..meta.loops.len() as u32)
        .filter(|&l| meta.loops[l as usize].function == f)
        .collect()
}

#[test]
fn nested_loops_nest() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "cfg_shapes.ll");
    let m = &report.meta;
    let loops = loops_of(m, "nested");
    assert_eq!(loops.len(), 2);
    let (outer, inner) = (loops[0], loops[1]);
    assert_eq!(m.loops[outer as usize].header, block(m, "nested", "outer"));
    assert_eq!(m.loops[inner as usize].header, block(m, "nested", "inner"));
    assert_eq!(m.loops[outer as usize].parent, None);
    assert_eq!(m.loops[inner as usize].parent, Some(outer));
    assert_eq!(
        (m.loops[outer as usize].depth, m.loops[inner as usize].depth),
        (1, 2)
    );
    let loop_of = |label| m.blocks[block(m, "nested", label) as usize].loop_id;
    assert_eq!(loop_of("entry"), None);
    assert_eq!(loop_of("outer"), Some(outer));
    assert_eq!(loop_of("inner"), Some(inner));
    assert_eq!(loop_of("inner.body"), Some(inner));
    assert_eq!(loop_of("outer.latch"), Some(outer));
    assert_eq!(loop_of("exit"), None);

    // Both latches end in unconditional back-edges, recorded with the loop they close.
    let back = |label| {
        let b = block(m, "nested", label);
        m.branches
            .iter()
            .find(|br| br.block == b)
            .cloned()
            .expect("branch")
    };
    assert_eq!(back("inner.body").kind, BranchKind::BackEdge);
    assert_eq!(back("inner.body").back_edge_of, vec![Some(inner)]);
    assert_eq!(back("outer.latch").back_edge_of, vec![Some(outer)]);
    // The exit of the inner loop is a conditional branch, not a back-edge.
    assert_eq!(back("inner").kind, BranchKind::Conditional);
    assert_eq!(back("inner").back_edge_of, vec![None, None]);
}

#[test]
fn a_loop_with_two_back_edges_is_one_loop() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "cfg_shapes.ll");
    let m = &report.meta;
    let loops = loops_of(m, "two_latches");
    assert_eq!(loops.len(), 1);
    let head = block(m, "two_latches", "head");
    assert_eq!(m.loops[loops[0] as usize].header, head);
    for latch in ["odd", "even"] {
        let b = block(m, "two_latches", latch);
        let br = m
            .branches
            .iter()
            .find(|br| br.block == b)
            .expect("back-edge branch");
        assert_eq!(br.kind, BranchKind::BackEdge);
        assert_eq!(br.successors, vec![head]);
        assert_eq!(br.back_edge_of, vec![Some(loops[0])]);
        assert_eq!(m.blocks[b as usize].loop_id, Some(loops[0]));
    }
}

#[test]
fn self_loop_and_irreducible_cycle() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "cfg_shapes.ll");
    let m = &report.meta;
    let spin_loops = loops_of(m, "self_loop");
    assert_eq!(spin_loops.len(), 1);
    let spin = block(m, "self_loop", "spin");
    let br = m.branches.iter().find(|br| br.block == spin).unwrap();
    assert_eq!(br.kind, BranchKind::Conditional);
    assert_eq!(br.back_edge_of, vec![Some(spin_loops[0]), None]);
    // A cycle with two entries has no header that dominates it: no natural loop.
    assert!(loops_of(m, "irreducible").is_empty());
    let f = &m.functions[function_id(m, "irreducible") as usize];
    assert!((f.first_block..f.first_block + f.num_blocks)
        .all(|b| m.blocks[b as usize].loop_id.is_none()));
}

#[test]
fn clang_o0_loops_nest_as_in_the_source() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "loops_O0.ll");
    let m = &report.meta;
    let depths = |f| {
        loops_of(m, f)
            .iter()
            .map(|&l| m.loops[l as usize].depth)
            .collect::<Vec<_>>()
    };
    assert_eq!(depths("nested"), vec![1, 2]);
    assert_eq!(depths("skip_odd"), vec![1]);
    assert_eq!(depths("classify"), vec![1]);
    assert_eq!(depths("copy"), Vec::<u32>::new());
    // Headers are the `for` conditions: their source lines are those of the loops.
    let lines: Vec<u32> = loops_of(m, "nested")
        .iter()
        .map(|&l| m.loops[l as usize].loc.expect("header location").line)
        .collect();
    assert_eq!(lines, vec![11, 12]);
}
