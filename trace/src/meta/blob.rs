//! The module metadata blob the pass embeds and the runtime registers: its bytes (a fixed
//! header, the postcard encoding of [`ModuleMeta`], and from version 5 the implied blocks, from
//! 7 the derived accesses, from 9 the loop runs),
//! and the checks every blob passes before a reader indexes anything with its ids.

use super::*;

/// Largest static access size (bytes) a memory instruction may declare. The pass records the
/// store size of a load's or store's LLVM type: scalars, vectors (64 bytes on AVX-512; a loop
/// vectorizer's interleaved groups a few hundred) and small first-class aggregates; clang and
/// flang copy larger objects with `memcpy`, recorded as ranged accesses (size 0, length per
/// event). An analysis visits every line an access touches, so a larger size (4 GiB, in a
/// crafted file) is refused as corrupt metadata rather than trusted.
pub const MAX_ACCESS_SIZE: u32 = 1 << 16;

/// Magic at the start of a module metadata blob.
pub const BLOB_MAGIC: [u8; 4] = *b"RDMM";
/// Length of the fixed blob header: magic, version, one count per [`IdKind`].
pub const BLOB_HEADER_LEN: usize = 8 + 4 * IdKind::COUNT;

impl ModuleMeta {
    /// Serialises the module into the blob the pass embeds: a fixed header
    /// (`"RDMM"`, format version, counts) followed by the postcard encoding of `self`; when
    /// some blocks are implied ([`BlockMeta::implied`]) or some accesses derived
    /// ([`MemInstrMeta::derived`]), then the postcard encoding of the implied blocks' ids (a
    /// `Vec<u32>`, ascending), with version [`crate::version::V_IMPLIED_BLOCKS`] in the header,
    /// and when some accesses are derived, that of `(id, anchor, offset)` per derived access (a
    /// `Vec<(u32, u32, i64)>`, ascending ids), with version
    /// [`crate::version::V_DERIVED_ACCESSES`]; when some branches' loops are recorded in runs
    /// ([`BranchMeta::loop_run`]), both lists (possibly empty) and then that of
    /// `(branch, strides)` per such branch (a `Vec<(u32, Vec<Option<i64>>)>`, ascending ids), with
    /// version [`crate::version::V_LOOP_RUNS`].
    pub fn to_blob(&self) -> Vec<u8> {
        let implied: Vec<u32> = (0..self.blocks.len() as u32)
            .filter(|&b| self.blocks[b as usize].implied)
            .collect();
        let derived: Vec<(u32, u32, i64)> = (self.mem_instrs.iter().enumerate())
            .filter_map(|(i, m)| m.derived.map(|d| (i as u32, d.anchor, d.offset)))
            .collect();
        let loop_runs: Vec<(u32, &[Option<i64>])> = (self.branches.iter().enumerate())
            .filter_map(|(i, b)| (b.loop_run.as_ref()).map(|r| (i as u32, &r.strides[..])))
            .collect();
        let version = if !loop_runs.is_empty() {
            crate::version::V_LOOP_RUNS
        } else if !derived.is_empty() {
            crate::version::V_DERIVED_ACCESSES
        } else if !implied.is_empty() {
            crate::version::V_IMPLIED_BLOCKS
        } else {
            crate::version::META_BLOB
        };
        let mut out = Vec::with_capacity(BLOB_HEADER_LEN + 64 * self.blocks.len());
        out.extend_from_slice(&BLOB_MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        for c in self.counts() {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&postcard::to_stdvec(self).expect("metadata serialises"));
        if version >= crate::version::V_IMPLIED_BLOCKS {
            out.extend_from_slice(&postcard::to_stdvec(&implied).expect("ids serialise"));
        }
        if version >= crate::version::V_DERIVED_ACCESSES {
            out.extend_from_slice(&postcard::to_stdvec(&derived).expect("ids serialise"));
        }
        if version >= crate::version::V_LOOP_RUNS {
            out.extend_from_slice(&postcard::to_stdvec(&loop_runs).expect("ids serialise"));
        }
        out
    }

    /// Parses a blob written by [`ModuleMeta::to_blob`].
    /// Every cross-reference is checked ([`ModuleMeta::validate`]), so readers may index the
    /// tables with the ids the metadata holds.
    pub fn from_blob(blob: &[u8]) -> Result<Self, TraceError> {
        let counts = blob_counts(blob)?;
        let undecodable = |e: postcard::Error| {
            TraceError::BadMetadata(format!("module metadata does not decode: {e}"))
        };
        let (mut meta, rest): (ModuleMeta, &[u8]) =
            postcard::take_from_bytes(&blob[BLOB_HEADER_LEN..]).map_err(undecodable)?;
        let version = blob_version(blob);
        if version >= crate::version::V_IMPLIED_BLOCKS {
            let (implied, rest): (Vec<u32>, &[u8]) =
                postcard::take_from_bytes(rest).map_err(undecodable)?;
            if version >= crate::version::V_DERIVED_ACCESSES {
                let (derived, rest): (Vec<(u32, u32, i64)>, &[u8]) =
                    postcard::take_from_bytes(rest).map_err(undecodable)?;
                if version >= crate::version::V_LOOP_RUNS {
                    let loop_runs: Vec<(u32, Vec<Option<i64>>)> =
                        postcard::from_bytes(rest).map_err(undecodable)?;
                    for (br, strides) in loop_runs {
                        let Some(b) = meta.tables.branches.get_mut(br as usize) else {
                            return Err(TraceError::BadMetadata(format!(
                                "module {}: loop-run branch {br} is not in the module ({} \
                                 branches)",
                                meta.name,
                                meta.tables.branches.len()
                            )));
                        };
                        b.loop_run = Some(LoopRun { strides });
                    }
                }
                for (mi, anchor, offset) in derived {
                    let Some(m) = meta.tables.mem_instrs.get_mut(mi as usize) else {
                        return Err(TraceError::BadMetadata(format!(
                            "module {}: derived access {mi} is not in the module ({} memory \
                             instructions)",
                            meta.name,
                            meta.tables.mem_instrs.len()
                        )));
                    };
                    m.derived = Some(DerivedAddress { anchor, offset });
                }
            }
            for b in implied {
                let Some(block) = meta.tables.blocks.get_mut(b as usize) else {
                    return Err(TraceError::BadMetadata(format!(
                        "module {}: implied block {b} is not in the module ({} blocks)",
                        meta.name,
                        meta.tables.blocks.len()
                    )));
                };
                block.implied = true;
            }
        }
        if meta.counts() != counts {
            return Err(TraceError::BadMetadata(format!(
                "module {} has counts {:?}, its blob header says {counts:?}",
                meta.name,
                meta.counts()
            )));
        }
        meta.validate()?;
        Ok(meta)
    }

    /// Checks that every id the module's tables hold refers to an entry of the module (blocks
    /// to functions and loops, instructions to blocks, ranges of blocks and instructions within
    /// their tables, locations to files, ...).
    pub fn validate(&self) -> Result<(), TraceError> {
        let [nf, nb, nm, _nbr, nl, _nr, _nw] = self.counts();
        let nfiles = self.files.len() as u32;
        let bad = |what: String| {
            Err(TraceError::BadMetadata(format!(
                "module {}: {what}",
                self.name
            )))
        };
        let loc_ok = |l: &Option<SourceLoc>| l.is_none_or(|l| l.file < nfiles);
        let range_ok =
            |first: u32, n: u32, len: u32| first.checked_add(n).is_some_and(|e| e <= len);
        for (i, f) in self.functions.iter().enumerate() {
            if !loc_ok(&f.loc) || !range_ok(f.first_block, f.num_blocks, nb) {
                return bad(format!("function {i} refers outside the module"));
            }
        }
        for (i, b) in self.blocks.iter().enumerate() {
            if b.function >= nf
                || !loc_ok(&b.loc)
                || b.successors.iter().any(|&s| s >= nb)
                || b.loop_id.is_some_and(|l| l >= nl)
                || !range_ok(b.first_mem_instr, b.num_mem_instrs, nm)
            {
                return bad(format!("block {i} refers outside the module"));
            }
            // A function's entry has no recorded edge into it: it always has its own record.
            if b.implied && self.functions[b.function as usize].first_block == i as u32 {
                return bad(format!("block {i} is implied but is its function's entry"));
            }
        }
        for (i, m) in self.mem_instrs.iter().enumerate() {
            if m.block >= nb || !loc_ok(&m.loc) {
                return bad(format!("memory instruction {i} refers outside the module"));
            }
            if let Some(d) = m.derived {
                if let Err(why) = self.derived_ok(i, d) {
                    return bad(format!("derived access {i} (anchor {}): {why}", d.anchor));
                }
            }
            if m.size > MAX_ACCESS_SIZE {
                return bad(format!(
                    "memory instruction {i} has a static size of {} bytes; the pass emits at most \
                     {MAX_ACCESS_SIZE}",
                    m.size
                ));
            }
        }
        for (i, b) in self.branches.iter().enumerate() {
            if b.block >= nb
                || !loc_ok(&b.loc)
                || b.successors.iter().any(|&s| s >= nb)
                || b.back_edge_of.len() != b.successors.len()
                || b.back_edge_of.iter().flatten().any(|&l| l >= nl)
            {
                return bad(format!("branch {i} refers outside the module"));
            }
            if let Some(run) = &b.loop_run {
                if let Err(why) = self.loop_run_ok(b, run) {
                    return bad(format!("loop run of branch {i} (block {}): {why}", b.block));
                }
            }
        }
        for (i, l) in self.loops.iter().enumerate() {
            // Depth one more than the parent's keeps the parent links a forest (no cycles).
            let depth_ok = match l.parent {
                None => l.depth == 1,
                Some(p) => self
                    .loops
                    .get(p as usize)
                    .is_some_and(|p| p.depth.checked_add(1) == Some(l.depth)),
            };
            if l.function >= nf || l.header >= nb || !depth_ok || !loc_ok(&l.loc) {
                return bad(format!("loop {i} refers outside the module"));
            }
        }
        for (i, r) in self.regions.iter().enumerate() {
            if r.outlined_function >= nf || r.fork_block >= nb || !loc_ok(&r.loc) {
                return bad(format!("region {i} refers outside the module"));
            }
        }
        for (i, w) in self.workshares.iter().enumerate() {
            if w.function >= nf
                || w.block >= nb
                || w.loop_id.is_some_and(|l| l >= nl)
                || !loc_ok(&w.loc)
            {
                return bad(format!("worksharing loop {i} refers outside the module"));
            }
        }
        Ok(())
    }

    /// Whether memory instruction `i` may be derived from `d.anchor` (see
    /// [`MemInstrMeta::derived`]): the anchor is an earlier, recorded, fixed-size access of the
    /// same block, and so is the instruction right before `i`, after whose event the decoder
    /// emits it.
    fn derived_ok(&self, i: usize, d: DerivedAddress) -> Result<(), &'static str> {
        let m = &self.mem_instrs[i];
        let anchor = self
            .mem_instrs
            .get(d.anchor as usize)
            .filter(|_| (d.anchor as usize) < i)
            .ok_or("the anchor is not an earlier instruction")?;
        let before = &self.mem_instrs[i - 1];
        if anchor.block != m.block || before.block != m.block {
            return Err("the anchor or the instruction before it is in another block");
        }
        if m.size == 0 || anchor.size == 0 || before.size == 0 {
            return Err("a ranged access takes part");
        }
        if anchor.derived.is_some() {
            return Err("the anchor is derived itself");
        }
        Ok(())
    }
}

impl ModuleMeta {
    /// Whether branch `b`'s loop may be recorded in runs (see [`BranchMeta::loop_run`]): it has
    /// two successors, exactly one of them its own block (the back outcome), which is implied
    /// and has one stride per memory instruction (at least one, at most
    /// [`crate::abi::LOOP_RUN_MAX_ACCESSES`]), every one of fixed size and recorded (not
    /// derived). `b`'s ids are in the module ([`ModuleMeta::validate`] checked them first).
    fn loop_run_ok(&self, b: &BranchMeta, run: &LoopRun) -> Result<(), String> {
        if b.successors.len() != 2 {
            return Err(format!(
                "the branch has {} successors, not two",
                b.successors.len()
            ));
        }
        if b.successors.iter().filter(|&&s| s == b.block).count() != 1 {
            return Err("not exactly one successor is the branch's own block".into());
        }
        let block = &self.blocks[b.block as usize];
        if !block.implied {
            return Err("the loop's block is not implied".into());
        }
        let n = block.num_mem_instrs as usize;
        if !(1..=crate::abi::LOOP_RUN_MAX_ACCESSES).contains(&n) {
            return Err(format!(
                "the loop's block has {n} memory instructions; a loop run has 1 to {}",
                crate::abi::LOOP_RUN_MAX_ACCESSES
            ));
        }
        if run.strides.len() != n {
            return Err(format!(
                "{} strides for the block's {n} memory instructions",
                run.strides.len()
            ));
        }
        let first = block.first_mem_instr as usize;
        for (k, m) in self.mem_instrs[first..first + n].iter().enumerate() {
            if m.size == 0 {
                return Err(format!("memory instruction {} is ranged", first + k));
            }
            if m.derived.is_some() {
                return Err(format!("memory instruction {} is derived", first + k));
            }
        }
        Ok(())
    }
}

/// Reads only the counts of a blob's fixed header (what the runtime needs to assign bases).
pub fn blob_counts(blob: &[u8]) -> Result<[u32; IdKind::COUNT], TraceError> {
    if blob.len() < BLOB_HEADER_LEN || blob[..4] != BLOB_MAGIC {
        return Err(TraceError::BadMetadata(
            "module metadata blob has no RDMM header".into(),
        ));
    }
    let version = blob_version(blob);
    if !(crate::version::OLDEST_SUPPORTED..=crate::version::CURRENT).contains(&version) {
        return Err(TraceError::BadMetadata(format!(
            "module metadata version {version} is not supported (this build reads {}..={})",
            crate::version::OLDEST_SUPPORTED,
            crate::version::CURRENT
        )));
    }
    let mut counts = [0u32; IdKind::COUNT];
    for (i, c) in counts.iter_mut().enumerate() {
        let at = 8 + 4 * i;
        *c = u32::from_le_bytes(blob[at..at + 4].try_into().unwrap());
    }
    Ok(counts)
}

/// The format version in a blob's header (which [`blob_counts`] has checked is there).
fn blob_version(blob: &[u8]) -> u32 {
    u32::from_le_bytes(blob[4..8].try_into().unwrap())
}
