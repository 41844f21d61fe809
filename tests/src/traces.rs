//! Reading traces: chunk layout, per-entity counts, and blocks and memory instructions found by
//! name or source line.

use crate::program;
use rdtrace::{Event, EventVisitor, Trace};
use std::collections::BTreeMap;
use std::path::Path;

/// `(offset, header)` of every chunk of the trace file `bytes`, in file order (up to the first
/// incomplete header).
pub fn chunk_layout(bytes: &[u8]) -> Vec<(usize, rdtrace::chunk::ChunkHeader)> {
    use rdtrace::chunk::{parse_chunk_header, CHUNK_HEADER_LEN, FILE_HEADER_LEN};
    let mut out = Vec::new();
    let mut at = FILE_HEADER_LEN;
    while at + CHUNK_HEADER_LEN <= bytes.len() {
        let h: [u8; CHUNK_HEADER_LEN] = bytes[at..at + CHUNK_HEADER_LEN].try_into().unwrap();
        let header = parse_chunk_header(&h).unwrap();
        let next = at + CHUNK_HEADER_LEN + header.stored_len as usize;
        out.push((at, header));
        at = next;
    }
    out
}

/// Per-entity counts over a whole trace (all threads).
#[derive(Default, Debug, Clone)]
pub struct Counts {
    /// Executions per block id.
    pub blocks: BTreeMap<u32, u64>,
    /// Addresses per memory instruction, in each thread's order (threads concatenated).
    pub accesses: BTreeMap<u32, Vec<u64>>,
    /// Outcome counts per branch: `(branch, outcome) -> n`.
    pub branches: BTreeMap<(u32, u32), u64>,
    /// Every other event.
    pub other: Vec<Event>,
}

impl EventVisitor for Counts {
    fn block(&mut self, bb: u32) {
        *self.blocks.entry(bb).or_default() += 1;
    }
    fn access(&mut self, mi: u32, addr: u64, _len: u64) {
        self.accesses.entry(mi).or_default().push(addr);
    }
    fn branch(&mut self, br: u32, outcome: u32) {
        *self.branches.entry((br, outcome)).or_default() += 1;
    }
    fn other(&mut self, e: Event) {
        self.other.push(e);
    }
}

/// The one memory instruction at `needle` of `src` (under test-programs/) that `keep` selects;
/// its addresses per thread index (panics unless exactly one instruction is selected).
pub fn addresses_at(
    trace: &Trace,
    src: &str,
    needle: &str,
    keep: impl Fn(&rdtrace::meta::MemInstrMeta) -> bool,
) -> Vec<Vec<u64>> {
    let file = Path::new(src).file_name().unwrap().to_str().unwrap();
    let ids: Vec<u32> = mem_instrs_at(trace, file, line_of(src, needle))
        .into_iter()
        .filter(|&m| keep(&trace.meta.mem_instrs[m as usize]))
        .collect();
    assert_eq!(ids.len(), 1, "{needle}: {ids:?}");
    trace
        .thread_indices()
        .into_iter()
        .map(|t| {
            let mut c = Counts::default();
            trace.visit_thread(t, &mut c).unwrap();
            c.accesses.get(&ids[0]).cloned().unwrap_or_default()
        })
        .collect()
}

/// Counts of every thread of a trace.
pub fn counts(trace: &Trace) -> Counts {
    let mut c = Counts::default();
    for t in trace.thread_indices() {
        trace.visit_thread(t, &mut c).unwrap();
    }
    c
}

/// Ids of the blocks of function `func` whose label starts with `prefix`, in id order.
pub fn blocks_named(trace: &Trace, func: &str, prefix: &str) -> Vec<u32> {
    let m = &trace.meta;
    m.blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            m.functions[b.function as usize].name == func && b.name.starts_with(prefix)
        })
        .map(|(i, _)| i as u32)
        .collect()
}

/// Memory instructions whose source line is `line` in a file ending with `file`.
pub fn mem_instrs_at(trace: &Trace, file: &str, line: u32) -> Vec<u32> {
    let m = &trace.meta;
    m.mem_instrs
        .iter()
        .enumerate()
        .filter(|(_, i)| {
            i.loc
                .is_some_and(|l| l.line == line && m.files[l.file as usize].ends_with(file))
        })
        .map(|(i, _)| i as u32)
        .collect()
}

/// The 1-based line of the first line of `file` containing `needle` (keeps tests independent of
/// edits that move code around).
pub fn line_of(rel: &str, needle: &str) -> u32 {
    let text = std::fs::read_to_string(program(rel)).unwrap();
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in {rel}")) as u32
        + 1
}
