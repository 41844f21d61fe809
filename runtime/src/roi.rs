//! The region of interest: which events a thread records.
//!
//! Two ways to select, usable together (a thread records when both allow it):
//! * `RDTRACE_ROI=f1,f2` ([`rdtrace::roi`] says which functions a name selects): a thread
//!   records while a selected function is on its call stack, followed through OpenMP: a team's
//!   outlined body is recorded on every thread of the team when the thread that forked it was
//!   recording. The pass calls [`enter`]/[`exit`] at every function's entry and return.
//! * `RDTRACE_START()`/`RDTRACE_STOP()` from `rdtrace.h`: process-wide; a program that includes
//!   the header starts with recording off. The calling thread switches at once, every other
//!   thread at its next OpenMP event or function entry or return.
//!
//! With neither, [`armed`] is false and every hook here returns after one load.
//!
//! Function selection follows calls with a per-thread depth: an exception or `longjmp` that
//! skips a selected function's return leaves the thread recording (documented in
//! `docs/deviations.md`).

use crate::config;
use rdtrace::chunk::{ChunkKind, RoiInfo};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};
use std::sync::Mutex;

/// Any selection is active.
static ARMED: AtomicBool = AtomicBool::new(false);
/// `RDTRACE_ROI` names functions.
static BY_FUNCTION: AtomicBool = AtomicBool::new(false);
/// The program uses the markers.
static MARKERS_USED: AtomicBool = AtomicBool::new(false);
/// Between `RDTRACE_START()` and `RDTRACE_STOP()`.
static MARKERS_ON: AtomicBool = AtomicBool::new(false);

/// What the hooks look up by global id, rebuilt (and the old copy leaked, as threads may still
/// read it) whenever a module registers.
struct Tables {
    /// Per function: selected by `RDTRACE_ROI`.
    selected: Box<[bool]>,
    /// Per function: the region whose outlined body it is, or [`NOT_OUTLINED`].
    outlined_region: Box<[u32]>,
    /// Per region: forks in flight by a recording thread.
    active_forks: Box<[AtomicU32]>,
    /// Per function: whether a selected function was entered (for the end-of-run warning).
    entered: Box<[AtomicBool]>,
}

const NOT_OUTLINED: u32 = u32::MAX;

static TABLES: AtomicPtr<Tables> = AtomicPtr::new(std::ptr::null_mut());

/// The growing per-function and per-region facts, under a lock (module registration only).
struct Builder {
    patterns: Vec<String>,
    /// Per pattern: the functions (not outlined bodies) it selected, by global id.
    matched: Vec<Vec<u32>>,
    selected: Vec<bool>,
    outlined_region: Vec<u32>,
    regions: usize,
}

static BUILDER: Mutex<Option<Builder>> = Mutex::new(None);

thread_local! {
    /// Selected functions on this thread's stack, counting an outlined body whose fork was
    /// recording as one.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// One bit per outlined body on the stack (innermost lowest): whether its entry counted.
    static OUTLINED_BITS: Cell<u64> = const { Cell::new(0) };
    /// Outlined bodies on the stack (bits beyond 64 levels are taken as counted).
    static OUTLINED_LEVELS: Cell<u32> = const { Cell::new(0) };
}

/// Whether any selection is active.
#[inline(always)]
pub fn armed() -> bool {
    ARMED.load(Ordering::Relaxed)
}

/// Whether the calling thread should record now.
pub fn wanted() -> bool {
    let by_function =
        !BY_FUNCTION.load(Ordering::Relaxed) || DEPTH.try_with(Cell::get).unwrap_or(0) > 0;
    let by_markers = !MARKERS_USED.load(Ordering::Acquire) || MARKERS_ON.load(Ordering::Acquire);
    by_function && by_markers
}

/// Reads `RDTRACE_ROI` at start-up (from [`crate::ensure_init`], after the program chunk):
/// arms function selection and writes the region-of-interest chunk.
pub(crate) fn init_from_env() {
    let Some(spec) = config::get().roi_functions.as_deref() else {
        return;
    };
    let patterns = rdtrace::roi::parse_functions(spec);
    if patterns.is_empty() {
        crate::diag(&format!(
            "ignoring {}={spec:?}: it names no function",
            rdtrace::roi::ENV_FUNCTIONS
        ));
        return;
    }
    crate::write_meta_chunk(
        ChunkKind::RegionOfInterest,
        0,
        &rdtrace::chunk::postcard_bytes(&RoiInfo {
            functions: patterns.clone(),
            markers: false,
        }),
    );
    let mut b = BUILDER.lock().unwrap_or_else(|e| e.into_inner());
    *b = Some(Builder {
        matched: vec![Vec::new(); patterns.len()],
        patterns,
        selected: Vec::new(),
        outlined_region: Vec::new(),
        regions: 0,
    });
    BY_FUNCTION.store(true, Ordering::Release);
    ARMED.store(true, Ordering::Release);
}

/// A module registered with `bases`: extends the tables with its functions and regions.
pub(crate) fn add_module(blob: &[u8], bases: &[u32; rdtrace::abi::IdKind::COUNT]) {
    if !BY_FUNCTION.load(Ordering::Acquire) {
        return;
    }
    let meta = match rdtrace::meta::ModuleMeta::from_blob(blob) {
        Ok(m) => m,
        Err(e) => {
            crate::diag(&format!(
                "region of interest: a module's metadata is unusable: {e}"
            ));
            return;
        }
    };
    let mut guard = BUILDER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = guard.as_mut() else {
        return;
    };
    let fbase = bases[rdtrace::abi::IdKind::Function as usize] as usize;
    let rbase = bases[rdtrace::abi::IdKind::Region as usize];
    let selected = rdtrace::roi::selected_functions(&meta.tables, &b.patterns);
    for (p, matched) in b.patterns.iter().zip(b.matched.iter_mut()) {
        for (i, f) in meta.tables.functions.iter().enumerate() {
            if !f.outlined && rdtrace::roi::selects(p, f) {
                matched.push((fbase + i) as u32);
            }
        }
    }
    let outlined = rdtrace::roi::outlined_regions(&meta.tables);
    let end = fbase + selected.len();
    if b.selected.len() < end {
        b.selected.resize(end, false);
        b.outlined_region.resize(end, NOT_OUTLINED);
    }
    for (i, (sel, region)) in selected.into_iter().zip(outlined).enumerate() {
        b.selected[fbase + i] = sel;
        b.outlined_region[fbase + i] = region.map_or(NOT_OUTLINED, |r| rbase + r);
    }
    b.regions = b.regions.max(rbase as usize + meta.tables.regions.len());
    let old = TABLES.load(Ordering::Acquire);
    // Safety: tables are never freed.
    let old = (!old.is_null()).then(|| unsafe { &*old });
    let old_forks = old.map(|t| &t.active_forks);
    let old_entered = old.map(|t| &t.entered);
    let tables = Box::new(Tables {
        selected: b.selected.clone().into_boxed_slice(),
        outlined_region: b.outlined_region.clone().into_boxed_slice(),
        active_forks: (0..b.regions)
            .map(|r| {
                AtomicU32::new(
                    old_forks
                        .and_then(|f| f.get(r))
                        .map_or(0, |a| a.load(Ordering::Relaxed)),
                )
            })
            .collect(),
        entered: (0..b.selected.len())
            .map(|f| {
                AtomicBool::new(
                    old_entered
                        .and_then(|e| e.get(f))
                        .is_some_and(|a| a.load(Ordering::Relaxed)),
                )
            })
            .collect(),
    });
    TABLES.store(Box::into_raw(tables), Ordering::Release);
}

fn tables() -> Option<&'static Tables> {
    let p = TABLES.load(Ordering::Acquire);
    // Safety: tables are never freed.
    (!p.is_null()).then(|| unsafe { &*p })
}

/// At the entry of function `f` (global id).
#[inline]
pub fn enter(f: u32) {
    if !armed() {
        return;
    }
    if BY_FUNCTION.load(Ordering::Relaxed) {
        if let Some(t) = tables() {
            let f = f as usize;
            if t.selected.get(f).copied().unwrap_or(false) {
                DEPTH.with(|d| d.set(d.get().saturating_add(1)));
                if let Some(e) = t.entered.get(f) {
                    if !e.load(Ordering::Relaxed) {
                        e.store(true, Ordering::Relaxed);
                    }
                }
            } else if let Some(&region) = t.outlined_region.get(f).filter(|&&r| r != NOT_OUTLINED) {
                let counted = t
                    .active_forks
                    .get(region as usize)
                    .is_some_and(|a| a.load(Ordering::Acquire) > 0);
                push_outlined(counted);
                if counted {
                    DEPTH.with(|d| d.set(d.get().saturating_add(1)));
                }
            }
        }
    }
}

/// At the return of function `f` (global id).
#[inline]
pub fn exit(f: u32) {
    if !armed() {
        return;
    }
    if BY_FUNCTION.load(Ordering::Relaxed) {
        if let Some(t) = tables() {
            let f = f as usize;
            let counted = if t.selected.get(f).copied().unwrap_or(false) {
                true
            } else if t.outlined_region.get(f).is_some_and(|&r| r != NOT_OUTLINED) {
                pop_outlined()
            } else {
                false
            };
            if counted {
                DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
            }
        }
    }
}

fn push_outlined(counted: bool) {
    let level = OUTLINED_LEVELS.with(|l| {
        let v = l.get();
        l.set(v.saturating_add(1));
        v
    });
    if level < 64 {
        OUTLINED_BITS.with(|b| {
            let bits = b.get() & !(1u64 << level);
            b.set(bits | (counted as u64) << level);
        });
    }
}

fn pop_outlined() -> bool {
    let level = OUTLINED_LEVELS.with(|l| {
        let v = l.get().saturating_sub(1);
        l.set(v);
        v
    });
    level >= 64 || OUTLINED_BITS.with(|b| b.get() >> level & 1 == 1)
}

/// Before the calling thread forks `region`: a fork by a recording thread makes the team's
/// outlined body part of the region of interest.
#[inline]
pub fn fork(region: u32) {
    if armed() && BY_FUNCTION.load(Ordering::Relaxed) && DEPTH.with(Cell::get) > 0 {
        if let Some(a) = tables().and_then(|t| t.active_forks.get(region as usize)) {
            a.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// After the fork of `region` returned (the same condition as [`fork`]: the forking frame
/// has not returned in between).
#[inline]
pub fn join(region: u32) {
    if armed() && BY_FUNCTION.load(Ordering::Relaxed) && DEPTH.with(Cell::get) > 0 {
        if let Some(a) = tables().and_then(|t| t.active_forks.get(region as usize)) {
            let _ = a.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        }
    }
}

/// The program uses the markers (`__rdtrace_markers_used`, from `rdtrace.h`'s constructor or the
/// first marker): writes the region-of-interest chunk once and arms the selection. The caller
/// then syncs the calling thread's recording.
pub fn markers_used() {
    crate::ensure_init();
    if MARKERS_USED.swap(true, Ordering::AcqRel) {
        return;
    }
    if crate::output::is_open() {
        crate::write_meta_chunk(
            ChunkKind::RegionOfInterest,
            0,
            &rdtrace::chunk::postcard_bytes(&RoiInfo {
                functions: Vec::new(),
                markers: true,
            }),
        );
    }
    ARMED.store(true, Ordering::Release);
}

/// Between (`on`) or outside the markers from now (`RDTRACE_START()`/`RDTRACE_STOP()`); the
/// caller then syncs the calling thread's recording, so it switches at once.
pub fn set_markers(on: bool) {
    if !MARKERS_USED.load(Ordering::Acquire) {
        // Called through a declaration of its own, without the header's constructor.
        markers_used();
    }
    MARKERS_ON.store(on, Ordering::Release);
}

/// What the end of a run says about `RDTRACE_ROI`'s names: those that selected no function
/// (misspelt, or a static function inlined into every caller), and those whose functions were
/// never called (inlined into their callers: only their parallel regions were recorded).
pub(crate) fn unused_names() -> (Vec<String>, Vec<String>) {
    let guard = BUILDER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = guard.as_ref() else {
        return (Vec::new(), Vec::new());
    };
    let entered = |f: &u32| {
        tables()
            .and_then(|t| t.entered.get(*f as usize))
            .is_some_and(|e| e.load(Ordering::Relaxed))
    };
    let mut unmatched = Vec::new();
    let mut never_called = Vec::new();
    for (p, fs) in b.patterns.iter().zip(&b.matched) {
        if fs.is_empty() {
            unmatched.push(p.clone());
        } else if !fs.iter().any(entered) {
            never_called.push(p.clone());
        }
    }
    (unmatched, never_called)
}
