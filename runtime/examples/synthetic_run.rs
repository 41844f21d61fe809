//! A stand-in for an instrumented program: registers a module and calls the hooks the way
//! pass-generated code does, from several threads. Used by the runtime's tests.
//!
//! Usage: `synthetic_run THREADS ITERS [crash|exit-from-thread|huge-range]`.

use rdtrace::meta::*;

fn module() -> ModuleMeta {
    let mi = |kind| MemInstrMeta {
        block: 1,
        kind,
        size: 8,
        vector: false,
        loc: None,
        class: VarClass::Shared,
        derivation: "global @A".into(),
    };
    let block = |name: &str, first_mem_instr, num_mem_instrs| BlockMeta {
        function: 0,
        name: name.into(),
        loc: None,
        parallel: false,
        successors: vec![],
        loop_id: None,
        first_mem_instr,
        num_mem_instrs,
    };
    let tables = MetaTables {
        files: vec!["synthetic.c".into()],
        functions: vec![FunctionMeta {
            name: "main".into(),
            loc: None,
            outlined: false,
            parallel: false,
            first_block: 0,
            num_blocks: 2,
        }],
        blocks: vec![block("entry", 0, 0), block("loop", 0, 2)],
        mem_instrs: vec![mi(AccessKind::Load), mi(AccessKind::Store)],
        branches: vec![BranchMeta {
            block: 1,
            kind: BranchKind::Conditional,
            successors: vec![1, 0],
            back_edge_of: vec![None, None],
            loc: None,
        }],
        ..Default::default()
    };
    ModuleMeta {
        name: "synthetic.c".into(),
        content_hash: 0,
        tables,
    }
}

fn work(thread: u64, iters: u64, bases: &[u32; 7]) {
    let a = vec![0u64; iters as usize + 1];
    let b = vec![0u64; iters as usize + 1];
    rdruntime::__rdt_bb(bases[1]);
    for i in 0..iters {
        rdruntime::__rdt_bb(bases[1] + 1);
        rdruntime::__rdt_access(bases[2], (&a[i as usize]) as *const u64 as *const _);
        rdruntime::__rdt_access(bases[2] + 1, (&b[i as usize]) as *const u64 as *const _);
        rdruntime::__rdt_branch(bases[3], (i + 1 == iters) as u32);
    }
    rdruntime::__rdt_access_range(bases[2], a.as_ptr() as *const _, 8 * (thread + 1));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads: u64 = args[1].parse().unwrap();
    let iters: u64 = args[2].parse().unwrap();
    let mode = args.get(3).cloned().unwrap_or_default();
    let blob = module().to_blob();
    let mut bases = [0u32; 7];
    // Safety: blob and bases are valid for the call.
    unsafe {
        rdruntime::__rdt_register_module(blob.as_ptr(), blob.len() as u64, bases.as_mut_ptr())
    };
    work(0, iters, &bases);
    if mode == "huge-range" {
        // A 2.5 GiB memset, as a program clearing a large buffer would record it (the runtime
        // records addresses; it never touches the memory).
        rdruntime::__rdt_access_range(bases[2] + 1, 0x1000 as *const _, 5 << 29);
    }
    let handles: Vec<_> = (1..threads)
        .map(|t| {
            let mode = mode.clone();
            std::thread::spawn(move || {
                work(t, iters, &bases);
                if mode == "exit-from-thread" && t == 1 {
                    std::process::exit(3);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    if mode == "crash" {
        // Die like a failed C assert would. (Rust's std already handles SIGSEGV in this
        // binary, and the runtime leaves existing handlers alone; C programs have none.)
        std::process::abort();
    }
}
