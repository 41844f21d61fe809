// HP-RDA (Li et al., "HP-RDA: highly parallel reuse distance analysis on GPUs") as WGSL compute
// kernels. One batch of the collapsed trace (dense 32-bit block ids, see gpu/src/lib.rs) is
// analysed by five entry points, dispatched in this order:
//
//   thread_level   one invocation per thread-local trace (ST refs): local array + per-trace
//                  hash table (Fig. 5c); exact local distances, access_info records, count[t].
//   block_prefix   one invocation per thread block: prefix sums of count[t] over its NB traces.
//   record_insert  one invocation per access_info record: insert the block into its thread
//                  block's hash table (lock-free CAS) and push the record on the block's list.
//   thread_merge   one invocation per thread-block hash-table slot: walk the block's records in
//                  tid order, formula (1) between consecutive ones, block-level access_info.
//   block_offsets  one invocation: each thread block's start position in the whole stream and
//                  its offset in the batch's output (prefix sums of the exact block counts).
//   block_merge    dispatched once per thread block, in stream order (the host sets P.cur):
//                  one invocation per block-level entry, formula (1) against the global table
//                  that persists across batches (64-bit positions as two u32 words).
//   adjust         once, at the end: formulas (2)-(3) on the distinct merged distances (held
//                  in outd as (lo, hi) pairs, P.n of them), in exact integer arithmetic.
//
// WGSL has no 64-bit integers and only 32-bit atomics: every per-batch quantity fits 32 bits
// (a batch holds < 2^32 references); the only unbounded values (positions in the whole stream,
// block-level distances) are `vec2<u32>` (lo, hi) pairs with explicit carries.

struct Params {
    n: u32,        // collapsed references in this batch
    st: u32,       // ST: references per thread-local trace
    nb: u32,       // NB: thread-local traces per thread block
    ntraces: u32,  // ceil(n / st)
    nblocks: u32,  // ceil(n / (st * nb))
    tcap: u32,     // per-trace hash table capacity (power of two)
    bcap: u32,     // per-thread-block hash table capacity (power of two)
    bwords: u32,   // u32 words of one local-array bitmap: ceil(st / 32)
    cur: u32,      // block_merge: the thread block of this dispatch
    adj_m: u32,    // adjust: M, the distinct blocks of the whole stream
    adj_tc: vec2<u32>, // adjust: Σ_i count[i] over every thread-local trace, (lo, hi)
}

@group(0) @binding(0) var<uniform> P: Params;
// Dense block ids of the batch.
@group(0) @binding(1) var<storage, read> refs: array<u32>;
// Local arrays (Fig. 5b): bit i of trace t is set iff entry i is the latest access of its block.
@group(0) @binding(2) var<storage, read_write> bitmap: array<u32>;
// Per-trace hash tables: (key = id + 1, last position, first rank), 3 words per slot.
@group(0) @binding(3) var<storage, read_write> ttab: array<u32>;
// count[t] (distinct blocks of trace t), then after block_prefix: tprefix[t] at ntraces + t.
@group(0) @binding(4) var<storage, read_write> counts: array<u32>;
// access_info records, slot t * st + first: (id, latest, next + 1).
@group(0) @binding(5) var<storage, read_write> rec: array<u32>;
// Per-thread-block hash tables: (key = id + 1, head record + 1), 2 words per slot.
@group(0) @binding(6) var<storage, read_write> btab: array<atomic<u32>>;
// Block-level access_info, compacted per thread block at g * st * nb + e: (id, first, latest).
@group(0) @binding(7) var<storage, read_write> ents: array<u32>;
// Per thread block: [0, nblocks) exact distinct count (pool pointer), [nblocks, 2 nblocks)
// Σ count[t] over its traces.
@group(0) @binding(8) var<storage, read_write> bcount: array<atomic<u32>>;
// Exact distances inside thread-local traces, by distance (< st).
@group(0) @binding(9) var<storage, read_write> hist_local: array<atomic<u32>>;
// Formula (1) distances between traces of one thread block, by distance (< st * nb).
@group(0) @binding(10) var<storage, read_write> hist_cross: array<atomic<u32>>;
// Global table, persistent: per dense id, the end position P_{g+1} of the last thread block g
// that touched it, as (lo, hi) ((0, 0) = never seen: P_{g+1} ≥ 1), and its block-level latest
// there (which may exceed the exact count: it sums per-trace counts, as on the CPU).
@group(0) @binding(11) var<storage, read_write> gtab: array<u32>;
// Block-level formula (1) distances of this batch as (lo, hi); (~0, ~0) = cold miss.
@group(0) @binding(12) var<storage, read_write> outd: array<u32>;
// [0, 1]: persistent stream position P (Σ exact thread-block counts so far) as (lo, hi);
// [2]: cold misses in this batch; [3]: block-level entries written in this batch.
@group(0) @binding(13) var<storage, read_write> state: array<atomic<u32>>;
// Per thread block g of the batch, from block_offsets: (P_g lo, P_g hi, output offset), where
// P_g is the stream position before g (Σ exact counts of all earlier thread blocks).
@group(0) @binding(14) var<storage, read_write> boffs: array<u32>;

const NIL: u32 = 0xffffffffu;

fn hash32(x: u32) -> u32 {
    var h = x * 0x9e3779b1u;
    h = h ^ (h >> 15u);
    h = h * 0x85ebca77u;
    h = h ^ (h >> 13u);
    return h;
}

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn sub64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

// Invocation index in a 2-D grid of 64-wide workgroups (the x dimension is capped at the
// adapter's per-dimension limit).
fn linear_id(wid: vec3<u32>, nwg: vec3<u32>, lid: vec3<u32>) -> u32 {
    return (wid.y * nwg.x + wid.x) * 64u + lid.x;
}

// Number of set bits of trace `base`'s bitmap at positions in (lo, hi), exclusive both ends.
fn ones_between(base: u32, lo: u32, hi: u32) -> u32 {
    let start = lo + 1u;
    if start >= hi {
        return 0u;
    }
    let ws = start / 32u;
    let we = (hi - 1u) / 32u;
    let lo_mask = 0xffffffffu << (start % 32u);
    let hi_mask = 0xffffffffu >> (31u - (hi - 1u) % 32u);
    if ws == we {
        return countOneBits(bitmap[base + ws] & lo_mask & hi_mask);
    }
    var s = countOneBits(bitmap[base + ws] & lo_mask) + countOneBits(bitmap[base + we] & hi_mask);
    for (var w = ws + 1u; w < we; w = w + 1u) {
        s = s + countOneBits(bitmap[base + w]);
    }
    return s;
}

// Slot of `key` in trace t's table (the key's slot or the empty slot where it belongs).
fn tslot(tbase: u32, key: u32) -> u32 {
    let mask = P.tcap - 1u;
    var h = hash32(key) & mask;
    loop {
        let k = ttab[(tbase + h) * 3u];
        if k == 0u || k == key {
            return tbase + h;
        }
        h = (h + 1u) & mask;
    }
    return 0u; // unreachable: the table is never full (capacity ≥ 2 ST)
}

// See: HP-RDA §III-C, Fig. 5(c) — thread-level analysis of one thread-local trace.
@compute @workgroup_size(64)
fn thread_level(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let t = linear_id(wid, nwg, lid);
    if t >= P.ntraces {
        return;
    }
    let start = t * P.st;
    let len = min(P.st, P.n - start);
    let bbase = t * P.bwords;
    let tbase = t * P.tcap;
    // Step 1 (tables and bitmaps are cleared by the host before the dispatch).
    var distinct = 0u;
    // Step 2: each access in order; Get_Last_Access through the trace's hash table.
    for (var i = 0u; i < len; i = i + 1u) {
        let key = refs[start + i] + 1u;
        let s = tslot(tbase, key);
        if ttab[s * 3u] == 0u {
            ttab[s * 3u] = key;
            ttab[s * 3u + 2u] = distinct;
            distinct = distinct + 1u;
        } else {
            let tv = ttab[s * 3u + 1u];
            // See: HP-RDA Fig. 5(b) — distance = non-zero local-array entries between tv and i.
            atomicAdd(&hist_local[ones_between(bbase, tv, i)], 1u);
            bitmap[bbase + tv / 32u] = bitmap[bbase + tv / 32u] & ~(1u << (tv % 32u));
        }
        ttab[s * 3u + 1u] = i;
        bitmap[bbase + i / 32u] = bitmap[bbase + i / 32u] | (1u << (i % 32u));
    }
    // Step 3: the set bits are the distinct blocks; latest(v) = count - 1 - rank(last(v)).
    counts[t] = distinct;
    var rank = 0u;
    for (var w = 0u; w < P.bwords; w = w + 1u) {
        var bits = bitmap[bbase + w];
        while bits != 0u {
            let i = w * 32u + firstTrailingBit(bits);
            let key = refs[start + i] + 1u;
            let s = tslot(tbase, key);
            let r = start + ttab[s * 3u + 2u];
            rec[r * 3u] = key - 1u;
            rec[r * 3u + 1u] = distinct - 1u - rank;
            rec[r * 3u + 2u] = 0u;
            rank = rank + 1u;
            bits = bits & (bits - 1u);
        }
    }
}

// Prefix sums of count[t] inside each thread block (the Σ count[k] of formula (1)).
@compute @workgroup_size(64)
fn block_prefix(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let g = linear_id(wid, nwg, lid);
    if g >= P.nblocks {
        return;
    }
    var acc = 0u;
    for (var k = 0u; k < P.nb; k = k + 1u) {
        let t = g * P.nb + k;
        if t >= P.ntraces {
            break;
        }
        counts[P.ntraces + t] = acc;
        acc = acc + counts[t];
    }
    atomicStore(&bcount[P.nblocks + g], acc);
}

// Record_Access_Info: lock-free insertion into the thread block's table, list push.
@compute @workgroup_size(64)
fn record_insert(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let r = linear_id(wid, nwg, lid);
    let t = r / P.st;
    if t >= P.ntraces || r % P.st >= counts[t] {
        return;
    }
    let g = t / P.nb;
    let key = rec[r * 3u] + 1u;
    let mask = P.bcap - 1u;
    var h = hash32(key) & mask;
    loop {
        let s = (g * P.bcap + h) * 2u;
        let res = atomicCompareExchangeWeak(&btab[s], 0u, key);
        if res.exchanged || res.old_value == key {
            rec[r * 3u + 2u] = atomicExchange(&btab[s + 1u], r + 1u);
            return;
        }
        if res.old_value != 0u {
            h = (h + 1u) & mask;
        }
        // old_value == 0 and not exchanged: a spurious failure, retry the same slot.
    }
}

// See: HP-RDA §III-D, Fig. 7 — thread-level merge of one block's access_info list.
@compute @workgroup_size(64)
fn thread_merge(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let s = linear_id(wid, nwg, lid);
    if s >= P.nblocks * P.bcap {
        return;
    }
    let key = atomicLoad(&btab[s * 2u]);
    if key == 0u {
        return;
    }
    let head = atomicLoad(&btab[s * 2u + 1u]);
    let g = s / P.bcap;
    let pre = P.ntraces;
    // The list was pushed in any order; visit it in increasing tid (selection, ≤ NB records).
    var have_prev = false;
    var prev_t = 0u;
    var prev_latest = 0u;
    var first_b = 0u;
    loop {
        var best_t = NIL;
        var best_r = 0u;
        var p = head;
        while p != 0u {
            let r = p - 1u;
            let t = r / P.st;
            if (!have_prev || t > prev_t) && t < best_t {
                best_t = t;
                best_r = r;
            }
            p = rec[r * 3u + 2u];
        }
        if best_t == NIL {
            break;
        }
        let first = best_r % P.st;
        if have_prev {
            // See: HP-RDA formula (1): latest_i + Σ_{k=i+1}^{j-1} count[k] + first_j.
            let between = counts[pre + best_t] - (counts[pre + prev_t] + counts[prev_t]);
            atomicAdd(&hist_cross[prev_latest + between + first], 1u);
        } else {
            first_b = counts[pre + best_t] + first;
        }
        have_prev = true;
        prev_t = best_t;
        prev_latest = rec[best_r * 3u + 1u];
    }
    // Block-level access_info: first/latest relative to the whole thread block.
    let total = atomicLoad(&bcount[P.nblocks + g]);
    let latest_b = prev_latest + (total - (counts[pre + prev_t] + counts[prev_t]));
    let e = atomicAdd(&bcount[g], 1u);
    let o = (g * P.st * P.nb + e) * 3u;
    ents[o] = key - 1u;
    ents[o + 1u] = first_b;
    ents[o + 2u] = latest_b;
}

// See: HP-RDA §IV-A step 3 — the positions the thread-block-level merge needs, so that each
// thread block's entries can then be merged by all invocations at once.
@compute @workgroup_size(1)
fn block_offsets() {
    var p = vec2<u32>(atomicLoad(&state[0]), atomicLoad(&state[1]));
    var off = 0u;
    for (var g = 0u; g < P.nblocks; g = g + 1u) {
        boffs[g * 3u] = p.x;
        boffs[g * 3u + 1u] = p.y;
        boffs[g * 3u + 2u] = off;
        let cnt = atomicLoad(&bcount[g]);
        p = add64(p, vec2<u32>(cnt, 0u));
        off = off + cnt;
    }
    atomicStore(&state[0], p.x);
    atomicStore(&state[1], p.y);
    atomicStore(&state[3], off);
}

// See: HP-RDA §IV-A step 3 — thread-block-level merge of thread block P.cur against the global
// table. Thread blocks are dispatched in stream order (each dispatch sees the table as the
// earlier ones left it); inside one, the entries are distinct blocks, so every invocation
// reads and writes its own table slot.
@compute @workgroup_size(64)
fn block_merge(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let g = P.cur;
    if g >= P.nblocks {
        return;
    }
    let e = linear_id(wid, nwg, lid);
    let cnt = atomicLoad(&bcount[g]);
    if e >= cnt {
        return;
    }
    let p = vec2<u32>(boffs[g * 3u], boffs[g * 3u + 1u]);
    let off = boffs[g * 3u + 2u];
    let pnext = add64(p, vec2<u32>(cnt, 0u));
    let o = (g * P.st * P.nb + e) * 3u;
    let v = ents[o];
    let first = ents[o + 1u];
    let latest = ents[o + 2u];
    let pend = vec2<u32>(gtab[v * 3u], gtab[v * 3u + 1u]);
    var d = vec2<u32>(NIL, NIL);
    if pend.x == 0u && pend.y == 0u {
        atomicAdd(&state[2], 1u);
    } else {
        // See: HP-RDA formula (1) at thread-block level:
        // latest_pg + Σ_{pg<h<g} count[h] + first_g = (P_g - P_{pg+1}) + latest + first.
        d = add64(sub64(p, pend), vec2<u32>(gtab[v * 3u + 2u] + first, 0u));
    }
    outd[(off + e) * 2u] = d.x;
    outd[(off + e) * 2u + 1u] = d.y;
    gtab[v * 3u] = pnext.x;
    gtab[v * 3u + 1u] = pnext.y;
    gtab[v * 3u + 2u] = latest;
}

// 32 × 32 → 64-bit product as (lo, hi), from 16-bit halves.
fn mul32(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let mid = a0 * b1 + (p00 >> 16u);
    let mid2 = (mid & 0xffffu) + a1 * b0;
    return vec2<u32>((mid2 << 16u) | (p00 & 0xffffu), a1 * b1 + (mid >> 16u) + (mid2 >> 16u));
}

// a + b + carry_in as (sum, carry out).
fn addc(a: u32, b: u32, c: u32) -> vec2<u32> {
    let s = a + b;
    let t = s + c;
    return vec2<u32>(t, select(0u, 1u, s < a) + select(0u, 1u, t < s));
}

// See: HP-RDA formulas (2)-(3): a merged distance d > M becomes d · ef, ef = M / Σ_i count[i],
// rounded to nearest (halves up) exactly as `rdengines::hprda::adjust_distance` does on the
// CPU: floor((2·d·M + T) / (2·T)), T = Σ_i count[i]. WGSL has no 64-bit integers, so the
// numerator is a 128-bit number in four u32 limbs and the division is restoring long division,
// one quotient bit per step (the quotient is at most d: T ≥ M, every block is counted by at
// least one trace).
@compute @workgroup_size(64)
fn adjust(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let i = linear_id(wid, nwg, lid);
    if i >= P.n {
        return;
    }
    let d0 = outd[i * 2u];
    let d1 = outd[i * 2u + 1u];
    let m = P.adj_m;
    let t = P.adj_tc;
    if (d1 == 0u && d0 <= m) || (t.x == 0u && t.y == 0u) {
        return;
    }
    // d · M in three limbs.
    let lo = mul32(d0, m);
    let hi = mul32(d1, m);
    let s1 = addc(lo.y, hi.x, 0u);
    var n = array<u32, 4>(lo.x, s1.x, hi.y + s1.y, 0u);
    // × 2.
    n[3] = n[2] >> 31u;
    n[2] = (n[2] << 1u) | (n[1] >> 31u);
    n[1] = (n[1] << 1u) | (n[0] >> 31u);
    n[0] = n[0] << 1u;
    // + T.
    let a0 = addc(n[0], t.x, 0u);
    let a1 = addc(n[1], t.y, a0.y);
    let a2 = addc(n[2], 0u, a1.y);
    n[0] = a0.x;
    n[1] = a1.x;
    n[2] = a2.x;
    n[3] = n[3] + a2.y;
    // Divisor 2·T in three limbs.
    let v = array<u32, 3>(t.x << 1u, (t.y << 1u) | (t.x >> 31u), t.y >> 31u);
    var r = array<u32, 4>(0u, 0u, 0u, 0u);
    var q = vec2<u32>(0u, 0u);
    for (var b = 127i; b >= 0; b = b - 1i) {
        // r = r · 2 + bit b of n.
        let bit = (n[u32(b) / 32u] >> (u32(b) % 32u)) & 1u;
        r[3] = (r[3] << 1u) | (r[2] >> 31u);
        r[2] = (r[2] << 1u) | (r[1] >> 31u);
        r[1] = (r[1] << 1u) | (r[0] >> 31u);
        r[0] = (r[0] << 1u) | bit;
        // r ≥ v (v has no fourth limb)?
        var ge = r[3] != 0u;
        if !ge {
            if r[2] != v[2] {
                ge = r[2] > v[2];
            } else if r[1] != v[1] {
                ge = r[1] > v[1];
            } else {
                ge = r[0] >= v[0];
            }
        }
        if ge {
            let s0 = r[0] - v[0];
            let b0 = select(0u, 1u, r[0] < v[0]);
            let s1b = r[1] - v[1] - b0;
            let b1 = select(0u, 1u, r[1] < v[1] || (r[1] == v[1] && b0 == 1u));
            let s2 = r[2] - v[2] - b1;
            let b2 = select(0u, 1u, r[2] < v[2] || (r[2] == v[2] && b1 == 1u));
            r[0] = s0;
            r[1] = s1b;
            r[2] = s2;
            r[3] = r[3] - b2;
            if b < 32 {
                q.x = q.x | (1u << u32(b));
            } else if b < 64 {
                q.y = q.y | (1u << u32(b - 32));
            }
        }
    }
    outd[i * 2u] = q.x;
    outd[i * 2u + 1u] = q.y;
}
