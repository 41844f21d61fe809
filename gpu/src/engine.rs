//! [`GpuHpRdaEngine`]: GPU memory, batching and the [`ReuseEngine`] implementation.

use crate::adapter::AdapterSummary;
use crate::context::GpuContext;
use crate::kernel::{
    Geometry, Params, ADJUST, BLOCK_MERGE, BLOCK_OFFSETS, GTAB_BYTES, MAX_IDS, PARAMS_CUR_OFFSET,
    WG,
};
use crate::GpuError;
use rdengines::hprda::finish_histogram;
use rdengines::{Histogram, HpRdaConfig, ReuseEngine};
use rustc_hash::FxHashMap as FastMap;
use std::collections::BTreeMap;

/// GPU memory of one engine.
struct Buffers {
    params: wgpu::Buffer,
    /// Bindings 1..=10, 12 and 14 in order (see [`Geometry::sizes`]), sized for `blocks`
    /// thread blocks; allocated for the first batch and grown when a batch needs more.
    batch: Vec<wgpu::Buffer>,
    blocks: u64,
    /// `0, 1, …, blocks - 1` as `u32`: copied into `Params::cur` before each `block_merge`.
    block_numbers: wgpu::Buffer,
    /// The global table, [`GTAB_BYTES`] per dense id; grows by doubling.
    gtab: wgpu::Buffer,
    gtab_ids: u64,
    /// Persistent state (binding 13): stream position P, per-batch tallies.
    state: wgpu::Buffer,
    bind: wgpu::BindGroup,
}

/// HP-RDA on the GPU; see the crate documentation.
pub struct GpuHpRdaEngine {
    ctx: GpuContext,
    cfg: HpRdaConfig,
    bound: Option<u64>,
    geo: Geometry,
    bufs: Buffers,
    prev: Option<u64>,
    /// Block address → dense id (first-touch order).
    ids: FastMap<u64, u32>,
    /// Dense ids of the current batch.
    buf: Vec<u32>,
    /// Exact distances by distance (local) plus repeats at 0.
    exact: Vec<u64>,
    cold: u64,
    /// Formula (1) distances, thread- and block-level, before adjustment.
    merged: BTreeMap<u64, u64>,
    pub(crate) thread_counts: u64,
    /// Most distinct blocks ([`MAX_IDS`]; smaller in tests).
    pub(crate) max_ids: usize,
    /// Set when the stream outgrew `max_ids`; the rest of the stream is ignored.
    failure: Option<String>,
}

fn storage_usage() -> wgpu::BufferUsages {
    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC
}

impl GpuHpRdaEngine {
    /// Opens a device (adapter `adapter` or the best one) and sets up an engine with the CPU
    /// engine's parameters; with a bound, distances ≥ bound are reported as overflow.
    pub fn new(
        cfg: HpRdaConfig,
        bound: Option<u64>,
        adapter: Option<&str>,
    ) -> Result<Self, GpuError> {
        Self::with_context(GpuContext::new(adapter)?, cfg, bound)
    }

    /// As [`GpuHpRdaEngine::new`] on an already open device.
    pub fn with_context(
        ctx: GpuContext,
        cfg: HpRdaConfig,
        bound: Option<u64>,
    ) -> Result<Self, GpuError> {
        let cfg = HpRdaConfig {
            st: cfg.st.max(1),
            nb: cfg.nb.max(1),
            ..cfg
        };
        let per_block = cfg.st as u64 * cfg.nb as u64;
        // Keep batch indices (and i * 3 word offsets) well inside u32.
        let index_cap = (u32::MAX as u64 / 16) / per_block.max(1);
        let one = Geometry::new(cfg.st, cfg.nb, 1);
        let largest = one.sizes().into_iter().max().unwrap_or(0);
        if per_block > u32::MAX as u64 / 16 || largest > ctx.max_binding {
            return Err(GpuError::TooLarge {
                refs: per_block,
                bytes: largest,
                limit: ctx.max_binding,
            });
        }
        // Thread blocks per batch: at least the CPU batch (rounded up to whole thread blocks)
        // and at least 4 Mi references (fewer round trips; results do not depend on it),
        // capped so that every buffer fits the adapter's binding size, the dispatch grid, and
        // ~1 GiB. Buffers are allocated for what the first batch actually holds.
        let want = (cfg.batch.max(1 << 22) as u64).div_ceil(per_block);
        let by_binding = ctx.max_binding / largest.max(1);
        let by_total = (1u64 << 30) / one.bytes_total().max(1);
        let by_grid = (ctx.max_groups as u64 * WG as u64 * ctx.max_groups as u64)
            / (one.bcap as u64).max(per_block);
        let blocks = want
            .min(by_binding)
            .min(by_total.max(1))
            .min(by_grid)
            .min(index_cap)
            .max(1) as usize;
        let geo = Geometry::new(cfg.st, cfg.nb, blocks);
        let bufs = Self::alloc(&ctx, &Geometry::new(cfg.st, cfg.nb, 1), 1 << 12);
        Ok(GpuHpRdaEngine {
            ctx,
            cfg,
            bound,
            geo,
            bufs,
            prev: None,
            ids: FastMap::default(),
            buf: Vec::with_capacity(1 << 16),
            exact: Vec::new(),
            cold: 0,
            merged: BTreeMap::new(),
            thread_counts: 0,
            max_ids: MAX_IDS,
            failure: None,
        })
    }

    /// The configuration in use (ST and NB at least 1).
    pub fn config(&self) -> HpRdaConfig {
        self.cfg
    }

    /// References per GPU batch (whole thread blocks, fitted to the adapter's limits).
    pub fn batch_refs(&self) -> usize {
        self.geo.batch as usize
    }

    /// The adapter in use.
    pub fn adapter(&self) -> &AdapterSummary {
        self.ctx.adapter()
    }

    fn alloc(ctx: &GpuContext, geo: &Geometry, gtab_ids: u64) -> Buffers {
        let d = &ctx.device;
        let params = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: std::mem::size_of::<Params>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let batch = Self::alloc_batch(ctx, geo);
        let block_numbers = Self::block_numbers(ctx, geo.blocks());
        let gtab = Self::storage(ctx, "gtab", gtab_ids * GTAB_BYTES);
        let state = Self::storage(ctx, "state", 16);
        let bind = Self::bind(ctx, &params, &batch, &gtab, &state);
        Buffers {
            params,
            batch,
            blocks: geo.blocks(),
            block_numbers,
            gtab,
            gtab_ids,
            state,
            bind,
        }
    }

    fn storage(ctx: &GpuContext, label: &str, size: u64) -> wgpu::Buffer {
        ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: size.max(16).next_multiple_of(16),
            usage: storage_usage(),
            mapped_at_creation: false,
        })
    }

    fn block_numbers(ctx: &GpuContext, blocks: u64) -> wgpu::Buffer {
        let numbers: Vec<u32> = (0..blocks as u32).collect();
        let buf = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("block numbers"),
            size: (4 * blocks).max(4),
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ctx.queue
            .write_buffer(&buf, 0, bytemuck::cast_slice(&numbers));
        buf
    }

    fn alloc_batch(ctx: &GpuContext, geo: &Geometry) -> Vec<wgpu::Buffer> {
        geo.sizes()
            .iter()
            .map(|&size| Self::storage(ctx, "batch", size))
            .collect()
    }

    /// Makes the batch buffers hold `blocks` thread blocks.
    fn ensure_batch(&mut self, blocks: u64) {
        if blocks <= self.bufs.blocks {
            return;
        }
        let geo = Geometry::new(self.cfg.st, self.cfg.nb, blocks as usize);
        self.bufs.batch = Self::alloc_batch(&self.ctx, &geo);
        self.bufs.block_numbers = Self::block_numbers(&self.ctx, blocks);
        self.bufs.blocks = blocks;
        self.rebind();
    }

    fn rebind(&mut self) {
        let b = &self.bufs;
        self.bufs.bind = Self::bind(&self.ctx, &b.params, &b.batch, &b.gtab, &b.state);
    }

    fn bind(
        ctx: &GpuContext,
        params: &wgpu::Buffer,
        batch: &[wgpu::Buffer],
        gtab: &wgpu::Buffer,
        state: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: 0,
            resource: params.as_entire_binding(),
        }];
        for (i, b) in batch.iter().enumerate() {
            let binding = match i {
                0..10 => i as u32 + 1,
                10 => 12,
                _ => 14,
            };
            entries.push(wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            });
        }
        entries.push(wgpu::BindGroupEntry {
            binding: 11,
            resource: gtab.as_entire_binding(),
        });
        entries.push(wgpu::BindGroupEntry {
            binding: 13,
            resource: state.as_entire_binding(),
        });
        ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hprda"),
            layout: &ctx.layout,
            entries: &entries,
        })
    }

    /// Grows the global table to hold `ids` dense ids (doubling, contents kept).
    fn ensure_gtab(&mut self, ids: u64) {
        if ids <= self.bufs.gtab_ids {
            return;
        }
        let mut cap = self.bufs.gtab_ids;
        while cap < ids {
            cap *= 2;
        }
        let d = &self.ctx.device;
        let bigger = Self::storage(&self.ctx, "gtab", cap * GTAB_BYTES);
        let mut enc = d.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(
            &self.bufs.gtab,
            0,
            &bigger,
            0,
            self.bufs.gtab_ids * GTAB_BYTES,
        );
        self.ctx.queue.submit([enc.finish()]);
        self.bufs.gtab = bigger;
        self.bufs.gtab_ids = cap;
        self.rebind();
    }

    /// Dispatches `n` invocations of 64 as a 2-D grid within the per-dimension limit.
    fn grid(&self, n: u64) -> (u32, u32) {
        let groups = n.div_ceil(WG as u64).max(1);
        let x = groups.min(self.ctx.max_groups as u64);
        (x as u32, groups.div_ceil(x) as u32)
    }

    /// Reads the first `bytes` bytes of each buffer back to the host, in one copy and wait.
    fn read_back(&self, parts: &[(&wgpu::Buffer, u64)]) -> Vec<Vec<u32>> {
        let total: u64 = parts.iter().map(|p| p.1).sum();
        if total == 0 {
            return parts.iter().map(|_| Vec::new()).collect();
        }
        let d = &self.ctx.device;
        let staging = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("staging"),
            size: total,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut enc = d.create_command_encoder(&Default::default());
        let mut at = 0;
        for &(src, bytes) in parts {
            if bytes > 0 {
                enc.copy_buffer_to_buffer(src, 0, &staging, at, bytes);
            }
            at += bytes;
        }
        self.ctx.queue.submit([enc.finish()]);
        let slice = staging.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        d.poll(wgpu::PollType::wait_indefinitely())
            .expect("GPU device lost while waiting for HP-RDA results");
        rx.recv()
            .expect("map callback")
            .expect("GPU buffer mapping failed");
        let all: Vec<u32> =
            bytemuck::cast_slice::<u8, u32>(&slice.get_mapped_range().expect("mapped")).to_vec();
        staging.unmap();
        let mut out = Vec::with_capacity(parts.len());
        let mut at = 0usize;
        for &(_, bytes) in parts {
            let words = (bytes / 4) as usize;
            out.push(all[at..at + words].to_vec());
            at += words;
        }
        out
    }

    /// Formulas (2)-(3) on the GPU (`adjust` kernel) for every distinct merged distance, with
    /// M = `distinct` and the Σ count[i] of the whole stream; returns (adjusted distance,
    /// count) pairs. Bit for bit `rdengines::hprda::adjust_distance` (exact rounding).
    pub(crate) fn adjust_on_gpu(
        &mut self,
        merged: &BTreeMap<u64, u64>,
        distinct: u64,
    ) -> Vec<(u64, u64)> {
        let outd = &self.bufs.batch[10];
        let cap = (outd.size() / 8).max(1) as usize;
        let keys: Vec<u64> = merged.keys().copied().collect();
        let mut out = Vec::with_capacity(keys.len());
        for piece in keys.chunks(cap) {
            let words: Vec<u32> = piece
                .iter()
                .flat_map(|&d| [d as u32, (d >> 32) as u32])
                .collect();
            let q = &self.ctx.queue;
            q.write_buffer(outd, 0, bytemuck::cast_slice(&words));
            let params = Params {
                // M < 2^32: dense ids are 32-bit (MAX_IDS).
                adj_m: distinct as u32,
                adj_tc: [self.thread_counts as u32, (self.thread_counts >> 32) as u32],
                ..self.geo.params(piece.len() as u32, 0, 0)
            };
            q.write_buffer(&self.bufs.params, 0, bytemuck::bytes_of(&params));
            let mut enc = self.ctx.device.create_command_encoder(&Default::default());
            let (x, y) = self.grid(piece.len() as u64);
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.ctx.pipelines[ADJUST]);
            pass.set_bind_group(0, &self.bufs.bind, &[]);
            pass.dispatch_workgroups(x, y, 1);
            drop(pass);
            q.submit([enc.finish()]);
            let back = self
                .read_back(&[(outd, 8 * piece.len() as u64)])
                .pop()
                .unwrap_or_default();
            for (w, d) in back.chunks_exact(2).zip(piece) {
                out.push((w[0] as u64 | (w[1] as u64) << 32, merged[d]));
            }
        }
        out
    }

    /// Analyses the buffered batch on the GPU and folds its results into the host tallies.
    fn run_batch(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        self.ensure_gtab(self.ids.len() as u64);
        let g = self.geo;
        let n = self.buf.len() as u64;
        let ntraces = n.div_ceil(g.st as u64);
        let nblocks = n.div_ceil(g.st as u64 * g.nb as u64);
        self.ensure_batch(nblocks);
        let q = &self.ctx.queue;
        let b = &self.bufs.batch;
        q.write_buffer(&b[0], 0, bytemuck::cast_slice(&self.buf));
        let mut enc = self.ctx.device.create_command_encoder(&Default::default());
        // Clear only what this batch uses: bitmaps, trace tables, block tables, pools, hists.
        let clear = |enc: &mut wgpu::CommandEncoder, i: usize, bytes: u64| {
            enc.clear_buffer(&b[i], 0, Some(bytes.next_multiple_of(4)));
        };
        clear(&mut enc, 1, 4 * ntraces * g.bwords as u64);
        clear(&mut enc, 2, 12 * ntraces * g.tcap as u64);
        clear(&mut enc, 5, 8 * nblocks * g.bcap as u64);
        clear(&mut enc, 7, 8 * nblocks);
        clear(&mut enc, 8, 4 * g.st as u64);
        clear(&mut enc, 9, 4 * g.st as u64 * g.nb as u64);
        // state[2] (cold) and state[3] (entries) are per batch; state[0..2] (P) persists.
        enc.clear_buffer(&self.bufs.state, 8, Some(8));
        let dispatches = [
            ntraces,
            nblocks,
            ntraces * g.st as u64,
            nblocks * g.bcap as u64,
        ];
        let params = g.params(n as u32, ntraces as u32, nblocks as u32);
        q.write_buffer(&self.bufs.params, 0, bytemuck::bytes_of(&params));
        for (k, &count) in dispatches.iter().enumerate() {
            let (x, y) = self.grid(count);
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.ctx.pipelines[k]);
            pass.set_bind_group(0, &self.bufs.bind, &[]);
            pass.dispatch_workgroups(x, y, 1);
            drop(pass);
        }
        // The thread-block-level merge: each thread block's position in the stream, then one
        // dispatch per thread block in stream order, over all of its entries at once.
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.ctx.pipelines[BLOCK_OFFSETS]);
        pass.set_bind_group(0, &self.bufs.bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
        drop(pass);
        let (x, y) = self.grid(g.st as u64 * g.nb as u64);
        for block in 0..nblocks {
            enc.copy_buffer_to_buffer(
                &self.bufs.block_numbers,
                4 * block,
                &self.bufs.params,
                PARAMS_CUR_OFFSET,
                4,
            );
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.ctx.pipelines[BLOCK_MERGE]);
            pass.set_bind_group(0, &self.bufs.bind, &[]);
            pass.dispatch_workgroups(x, y, 1);
            drop(pass);
        }
        self.ctx.queue.submit([enc.finish()]);

        // Results: local and cross histograms, per-thread-block Σ count, state, distances.
        let mut r = self
            .read_back(&[
                (&b[8], 4 * g.st as u64),
                (&b[9], 4 * g.st as u64 * g.nb as u64),
                (&b[7], 8 * nblocks),
                (&self.bufs.state, 16),
            ])
            .into_iter();
        let (local, cross, bcount, state) = (
            r.next().unwrap_or_default(),
            r.next().unwrap_or_default(),
            r.next().unwrap_or_default(),
            r.next().unwrap_or_default(),
        );
        let entries = state[3] as u64;
        let outd = self
            .read_back(&[(&b[10], 8 * entries)])
            .pop()
            .unwrap_or_default();
        if self.exact.len() < local.len() {
            self.exact.resize(local.len(), 0);
        }
        for (d, &c) in local.iter().enumerate() {
            self.exact[d] += c as u64;
        }
        for (d, &c) in cross.iter().enumerate() {
            if c != 0 {
                *self.merged.entry(d as u64).or_insert(0) += c as u64;
            }
        }
        self.thread_counts += bcount[nblocks as usize..]
            .iter()
            .map(|&c| c as u64)
            .sum::<u64>();
        self.cold += state[2] as u64;
        for w in outd.chunks_exact(2) {
            if w[0] == u32::MAX && w[1] == u32::MAX {
                continue;
            }
            let d = w[0] as u64 | (w[1] as u64) << 32;
            *self.merged.entry(d).or_insert(0) += 1;
        }
        self.buf.clear();
    }
}

impl ReuseEngine for GpuHpRdaEngine {
    fn name(&self) -> &'static str {
        "hprda-gpu"
    }

    fn is_exact(&self) -> bool {
        false
    }

    fn process(&mut self, blocks: &[u64]) {
        if self.failure.is_some() {
            return;
        }
        let batch = self.geo.batch as usize;
        for &b in blocks {
            // Run-length pre-processing; a repeat is a distance-0 reuse.
            if self.prev == Some(b) {
                if self.exact.is_empty() {
                    self.exact.push(0);
                }
                self.exact[0] += 1;
                continue;
            }
            self.prev = Some(b);
            // Dense 32-bit id, streaming: assigned at first touch.
            let next = self.ids.len();
            let id = match self.ids.entry(b) {
                std::collections::hash_map::Entry::Occupied(o) => *o.get(),
                std::collections::hash_map::Entry::Vacant(v) if next < self.max_ids => {
                    *v.insert(next as u32)
                }
                std::collections::hash_map::Entry::Vacant(_) => {
                    self.failure = Some(format!(
                        "hprda-gpu: the stream touches more than {} distinct blocks, the most \
                         the GPU engine's 32-bit ids can name; use --engine hprda (CPU) or a \
                         larger --line",
                        self.max_ids
                    ));
                    return;
                }
            };
            self.buf.push(id);
            if self.buf.len() >= batch {
                self.run_batch();
            }
        }
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }

    fn finish(mut self: Box<Self>) -> Histogram {
        self.run_batch();
        let mut exact = Histogram {
            cold: self.cold,
            ..Histogram::default()
        };
        for (d, &n) in self.exact.iter().enumerate() {
            if n != 0 {
                exact.add(d as u64, n);
            }
        }
        let merged = std::mem::take(&mut self.merged);
        let distinct = self.ids.len() as u64;
        // Formulas (2)-(3) run on the GPU; the host only re-bins what comes back.
        let merged = if self.cfg.adjust {
            self.adjust_on_gpu(&merged, distinct)
        } else {
            merged.into_iter().collect()
        };
        finish_histogram(
            exact,
            merged,
            distinct,
            self.thread_counts,
            false,
            self.bound,
        )
    }
}
