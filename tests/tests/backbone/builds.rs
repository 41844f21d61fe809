//! Builds: identical builds, and one module per source file of a program.

use super::*;

#[test]
fn identical_builds_give_identical_objects_and_ids() {
    let dir = tempfile::tempdir().unwrap();
    let objs: Vec<Vec<u8>> = (0..2)
        .map(|i| {
            let o = dir.path().join(format!("o{i}.o"));
            let s = std::process::Command::new(&tools().rdcc)
                .args(["-fopenmp", "-O2", "-c"])
                .arg(program("basic/omp_reduction.c"))
                .arg("-o")
                .arg(&o)
                .status()
                .unwrap();
            assert!(s.success());
            std::fs::read(o).unwrap()
        })
        .collect();
    assert!(objs[0] == objs[1], "two identical builds differ");
}

#[test]
fn multi_file_program_has_one_module_per_source_and_disjoint_ids() {
    let dir = tempfile::tempdir().unwrap();
    let srcs: Vec<_> = ["main.c", "vec.c", "stats.c"]
        .iter()
        .map(|f| program(&format!("multifile/{f}")))
        .collect();
    let exe = dir.path().join("mf");
    rdcc(&srcs, &["-fopenmp", "-O1"], &exe);
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("OMP_NUM_THREADS", "2")])
        .status
        .success());
    let trace = rdtrace::Trace::open(&tp).unwrap();
    let m = &trace.meta;
    assert_eq!(m.modules.len(), 3);
    // Bases are cumulative: module k's ids start where module k-1's end.
    for w in m.modules.windows(2) {
        assert!(w[0].bases.iter().zip(&w[1].bases).all(|(a, b)| a <= b));
    }
    // Every event refers to an id that exists, and blocks of each function stay inside it.
    let c = counts(&trace);
    assert!(c.blocks.keys().all(|&b| (b as usize) < m.blocks.len()));
    assert!(c
        .accesses
        .keys()
        .all(|&i| (i as usize) < m.mem_instrs.len()));
    for (fid, f) in m.functions.iter().enumerate() {
        for b in f.first_block..f.first_block + f.num_blocks {
            assert_eq!(m.blocks[b as usize].function as usize, fid);
        }
    }
}
