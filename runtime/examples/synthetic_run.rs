//! A stand-in for an instrumented program: registers a module and calls the hooks the way
//! pass-generated code does, from several threads. Used by the runtime's tests.
//!
//! Usage: `synthetic_run THREADS ITERS [crash|exit-from-thread|huge-range|inline]`. With
//! `inline`, blocks, accesses and branches are appended the way code built with inline records
//! appends them: records stored at the thread-local cursor, the block countdown decremented at
//! every block entry, `__rdt_block_countdown` called when it runs out, and no other hook.

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
        derived: None,
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
        implied: false,
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
            loop_run: None,
        }],
        ..Default::default()
    };
    ModuleMeta {
        name: "synthetic.c".into(),
        content_hash: 0,
        tables,
    }
}

/// How the loop records a block, an access and a branch.
type Recorders = (fn(u32), fn(u32, *const u64), fn(u32, u32));

fn work(thread: u64, iters: u64, bases: &[u32; 7], inline: bool) {
    let a = vec![0u64; iters as usize + 1];
    let b = vec![0u64; iters as usize + 1];
    let (bb, access, branch): Recorders = if inline {
        (inline::block, inline::access, inline::branch)
    } else {
        (
            |bb| rdruntime::__rdt_bb(bb),
            |mi, addr| rdruntime::__rdt_access(mi, addr.cast()),
            |br, outcome| rdruntime::__rdt_branch(br, outcome),
        )
    };
    bb(bases[1]);
    for i in 0..iters {
        bb(bases[1] + 1);
        access(bases[2], &a[i as usize]);
        access(bases[2] + 1, &b[i as usize]);
        branch(bases[3], (i + 1 == iters) as u32);
    }
    rdruntime::__rdt_access_range(bases[2], a.as_ptr() as *const _, 8 * (thread + 1));
}

/// What instrumented code built with inline records does, without the calls it avoids.
mod inline {
    use rdtrace::raw::{RawEvent, TAG_ACCESS, TAG_BLOCK, TAG_BRANCH};

    extern "C" {
        // The runtime's thread-local cursor and countdown (its `tls.c`).
        fn __rdt_cursor_address() -> *mut *mut RawEvent;
        fn __rdt_blocks_free_address() -> *mut i32;
    }

    fn store(record: RawEvent) {
        // Safety: the runtime keeps room at the cursor between hooks (the free-space promise
        // this mode tests); our own thread's TLS.
        unsafe {
            let cursor = __rdt_cursor_address();
            (*cursor).write(record);
            *cursor = (*cursor).add(1);
        }
    }

    pub fn block(bb: u32) {
        // Safety: our own thread's TLS.
        let due = unsafe {
            let countdown = __rdt_blocks_free_address();
            *countdown -= 1;
            *countdown < 0
        };
        if due {
            rdruntime::__rdt_block_countdown();
        }
        store(RawEvent::new(TAG_BLOCK, 0, bb, 0));
    }

    pub fn access(mi: u32, addr: *const u64) {
        store(RawEvent::new(TAG_ACCESS, 0, mi, addr as u64));
    }

    pub fn branch(br: u32, outcome: u32) {
        store(RawEvent::new(TAG_BRANCH, 0, br, outcome as u64));
    }
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
    let inline = mode == "inline";
    work(0, iters, &bases, inline);
    if mode == "huge-range" {
        // A 2.5 GiB memset, as a program clearing a large buffer would record it (the runtime
        // records addresses; it never touches the memory).
        rdruntime::__rdt_access_range(bases[2] + 1, 0x1000 as *const _, 5 << 29);
    }
    let handles: Vec<_> = (1..threads)
        .map(|t| {
            let mode = mode.clone();
            std::thread::spawn(move || {
                work(t, iters, &bases, inline);
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
