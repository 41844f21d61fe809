//! The module metadata blob's bytes are part of the trace format: a blob written before the
//! id tables were shared by `ModuleMeta` and `ProgramMeta` (one `MetaTables`) must still read,
//! and this build must write the same bytes for the same module.

use rdtrace::meta::*;

/// One entry in every table, every optional field set, so each field's encoding is pinned.
fn every_table() -> ModuleMeta {
    let loc = Some(SourceLoc {
        file: 1,
        line: 12,
        col: 5,
    });
    let mut m = rdtrace::testing::one_block_module("fmt", 1);
    m.name = "fmt.c".into();
    m.content_hash = 0x0123_4567_89ab_cdef;
    m.files.push("fmt.h".into());
    m.blocks[0].loc = loc;
    m.blocks[0].successors = vec![0];
    m.blocks[0].loop_id = Some(0);
    m.mem_instrs[0].loc = loc;
    m.branches.push(BranchMeta {
        block: 0,
        kind: BranchKind::BackEdge,
        successors: vec![0],
        back_edge_of: vec![Some(0)],
        loc,
        loop_run: None,
    });
    m.loops.push(LoopMeta {
        function: 0,
        header: 0,
        parent: None,
        depth: 1,
        loc,
    });
    m.regions.push(RegionMeta {
        outlined_function: 0,
        fork_block: 0,
        loc,
        shared_args: vec!["a".into()],
    });
    m.workshares.push(WorkshareMeta {
        function: 0,
        block: 0,
        kind: WorkshareKind::Dispatch,
        schedule: Some(35),
        chunk: Some(-4),
        loop_id: Some(0),
        loc,
    });
    m
}

/// `every_table().to_blob()` as the flat `ModuleMeta` (name, hash, then the eight tables as
/// its own fields) wrote it, before the tables moved into `MetaTables`.
const OLD_BLOB: &str = "52444d4d010000000100000001000000010000000100000001000000010000000100000005666d742e63ef9bafcdf8acd191010205666d742e6305666d742e6801046d61696e0000000001010005656e74727901010c0500010001000001010000080001010c050009676c6f62616c204041010002010001010001010c05010000000101010c0501000001010c050101610100000101460107010001010c05";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn old_blob_still_reads_and_is_written_byte_identically() {
    let module = every_table();
    assert_eq!(hex(&module.to_blob()), OLD_BLOB);
    assert_eq!(ModuleMeta::from_blob(&unhex(OLD_BLOB)).unwrap(), module);
}
