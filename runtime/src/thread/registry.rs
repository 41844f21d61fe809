//! The registry of every thread's state (never freed, so exit and signal handlers can always
//! touch them): registering a thread under a new index, and flushing all threads.

use super::*;

pub(super) static REGISTRY: [AtomicPtr<ThreadState>; MAX_THREADS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_THREADS];

pub(super) static REGISTERED: AtomicUsize = AtomicUsize::new(0);

pub(super) static DROPPED_WARNED: AtomicBool = AtomicBool::new(false);

/// Threads that own a state now (registered, not yet exited): decides how many raw buffers
/// each may use ([`ThreadState::usable_buffers`]).
pub(super) static LIVE: AtomicUsize = AtomicUsize::new(0);

/// OpenMP workers between two regions: counted in [`LIVE`], but waiting in libomp and
/// recording nothing until their next region entry ([`ThreadState::set_idle`]).
pub(super) static IDLE: AtomicUsize = AtomicUsize::new(0);

/// Threads that may record now: registered, not exited, and not OpenMP workers between
/// regions. A thread that finds itself the only one has nothing to order its events against
/// (see `config::STAMP_EVERY_ALONE`).
pub(super) fn active_threads() -> usize {
    LIVE.load(Ordering::Relaxed)
        .saturating_sub(IDLE.load(Ordering::Relaxed))
}

/// Finds a free state or makes one, registers it under a new thread index, and writes the
/// thread chunk. Returns null when the registry is full.
#[cold]
pub(super) fn register_current_thread() -> *const ThreadState {
    crate::ensure_init();
    let registered = REGISTERED.load(Ordering::Acquire).min(MAX_THREADS);
    let mut state: *const ThreadState = std::ptr::null();
    for slot in REGISTRY.iter().take(registered) {
        let p = slot.load(Ordering::Acquire);
        // Safety: states are never freed.
        if !p.is_null()
            // SAFETY: a non-null slot points to a state, and states are never freed.
            && unsafe { &*p }
                .in_use
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            // SAFETY: as above.
            let candidate = unsafe { &*p };
            // Jobs of its last owner still with the writer use its thread index and sequence
            // counter: not yet (the count only goes down once the owner has left).
            if candidate.pending.load(Ordering::SeqCst) != 0 {
                candidate.in_use.store(false, Ordering::Release);
                continue;
            }
            state = p;
            break;
        }
    }
    if state.is_null() {
        let idx = REGISTERED.fetch_add(1, Ordering::AcqRel);
        if idx >= MAX_THREADS {
            if !DROPPED_WARNED.swap(true, Ordering::Relaxed) {
                crate::diag(&format!(
                    "more than {MAX_THREADS} threads; events of further threads are not traced"
                ));
            }
            return std::ptr::null();
        }
        let p = Box::into_raw(Box::new(ThreadState::new()));
        REGISTRY[idx].store(p, Ordering::Release);
        state = p;
    }
    LIVE.fetch_add(1, Ordering::Relaxed);
    let thread = crate::endframe::new_thread_index();
    // Safety: state is a live, never-freed state now owned by this thread.
    let s = unsafe { &*state };
    s.thread.store(thread, Ordering::Relaxed);
    s.seq.store(0, Ordering::Relaxed);
    s.open_buffers.store(0, Ordering::Relaxed);
    s.open_events.store(0, Ordering::Relaxed);
    s.recorded.store(0, Ordering::Relaxed);
    // Safety: returns the address of this thread's TLS cursor, valid for the thread's life.
    let tls = unsafe { __rdt_cursor_address() };
    s.saved_cursor
        .store(std::ptr::null_mut(), Ordering::Release);
    s.cursor.store(tls, Ordering::Release);
    s.use_buffer(s.cur_buf.load(Ordering::Relaxed));
    s.reset_cursor();
    // The first block entry stamps.
    s.reset_stamp_countdown(1);
    s.park_word.store(0, Ordering::SeqCst);
    s.parked.set(false);
    s.worker.set(false);
    s.idle.set(false);
    let info = ThreadInfo {
        thread,
        os_tid: crate::os_tid(),
        start_time: clock::now(),
    };
    crate::write_meta_chunk(
        ChunkKind::Thread,
        thread,
        &rdtrace::chunk::postcard_bytes(&info),
    );
    CURRENT.with(|c| c.set(state));
    // Touching the guard registers its destructor, which flushes at thread exit.
    let _ = EXIT_GUARD.try_with(|_| ());
    if crate::output::is_stream() {
        // In a stream a thread's first event is a stamp read after its thread chunk was
        // written, so a live reader never meets a thread with events older than chunks it has
        // already merged (see `rdtrace::stream`).
        s.push_slice(&[RawEvent::new(TAG_STAMP, 0, 0, clock::now_ordered())]);
        s.reset_stamp_countdown(config::get().stamp_every);
    }
    state
}

/// Flushes every registered thread's buffer (exit and signal paths).
pub fn flush_all(from_signal: bool) {
    let n = REGISTERED.load(Ordering::Acquire).min(MAX_THREADS);
    for slot in REGISTRY.iter().take(n) {
        let p = slot.load(Ordering::Acquire);
        if !p.is_null() {
            // Safety: states are never freed.
            unsafe { &*p }.flush(from_signal, true);
        }
    }
}
