//! Helpers for the end-to-end tests: find (or build) `rdcc`, `rda-report` and the runtime,
//! compile programs from `test-programs/`, run them with a trace path, and summarise traces.
//!
//! Architecture invariant: the tests drive the real binaries as a user would; they never call
//! the pass or the runtime as libraries.

use rdtrace::{Event, EventVisitor, Trace};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The workspace root.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A file under `test-programs/`.
pub fn program(rel: &str) -> PathBuf {
    workspace().join("test-programs").join(rel)
}

/// The built tools of the profile these tests were built in.
pub struct Tools {
    /// Path of `rdcc`.
    pub rdcc: PathBuf,
    /// `rdc++`: rdcc as a drop-in clang++ (a link to rdcc, made here if missing).
    pub rdcxx: PathBuf,
    /// `rdflang`: rdcc as a drop-in flang (a link to rdcc).
    pub rdflang: PathBuf,
    /// `rdclang`: rdcc under a name with "clang" in it (a link to rdcc).
    pub rdclang: PathBuf,
    /// Path of `rda-report`.
    pub rda_report: PathBuf,
}

/// Set (to anything) by `scripts/test.sh`, which builds the whole workspace with the tests'
/// features before it runs them: the tools are then used as built, without a `cargo build`
/// per test process.
pub const PREBUILT_ENV: &str = "RDTOOLS_E2E_PREBUILT";

/// Finds the tools next to the test binary (`target/<profile>/`). Unless [`PREBUILT_ENV`] says
/// they were built already, builds them once per test process first: `cargo test` does not
/// rebuild binaries of other packages, and a stale `rdcc` would test old code (a no-op when
/// they are up to date).
pub fn tools() -> &'static Tools {
    static TOOLS: OnceLock<Tools> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let mut dir = std::env::current_exe().unwrap();
        dir.pop(); // deps
        dir.pop(); // <profile>
        if std::env::var_os(PREBUILT_ENV).is_none() {
            build_tools(&dir);
        }
        for tool in ["rdcc", "rda-report", "librdruntime.a"] {
            assert!(
                dir.join(tool).exists(),
                "{} is missing: build the workspace first (or unset {PREBUILT_ENV})",
                dir.join(tool).display()
            );
        }
        // rdcc's other names are links to it, as `scripts/aliases.sh` makes them.
        let alias = |name: &str| {
            let link = dir.join(name);
            if std::fs::read_link(&link).is_err() {
                let _ = std::fs::remove_file(&link);
                // Several test processes may race here; one of them makes the link.
                let _ = std::os::unix::fs::symlink("rdcc", &link);
            }
            link
        };
        alias("rdclang++");
        Tools {
            rdcxx: alias("rdc++"),
            rdflang: alias("rdflang"),
            rdclang: alias("rdclang"),
            rdcc: dir.join("rdcc"),
            rda_report: dir.join("rda-report"),
        }
    })
}

/// `cargo build`s rdcc, rda-report and the runtime into `dir` (`target/<profile>/`) with the
/// features this test build has.
fn build_tools(dir: &Path) {
    let mut cmd = Command::new(env!("CARGO"));
    // Into the target directory this test binary lives in, whatever CARGO_TARGET_DIR says.
    cmd.current_dir(workspace())
        .env("CARGO_TARGET_DIR", dir.parent().expect("target dir"))
        .args([
            "build",
            "-q",
            "-p",
            "rdcc",
            "-p",
            "rda-report",
            "-p",
            "rdruntime",
        ]);
    if dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    // Same features as this test build, or the build below would replace a GPU-enabled
    // rda-report by one without `hprda-gpu`.
    if cfg!(feature = "gpu") {
        cmd.args(["--features", "rda-report/gpu"]);
    }
    if cfg!(feature = "mpi") {
        cmd.args(["--features", "rda-report/mpi"]);
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "building the tools failed");
}

/// A two-thread OpenMP trace of `simt/vecadd.c` (a static worksharing loop) in `dir`, in many
/// small chunks of `chunk_events` events: the seed the hostile-input tests damage.
pub fn small_chunk_vecadd_trace(dir: &Path, chunk_events: u32) -> PathBuf {
    vecadd_trace(dir, "seed.rdtrace", 2, chunk_events, 1024)
}

/// A trace `dir/name` of `simt/vecadd.c` on `n` elements (1 to 4096) run with `threads` OpenMP
/// threads, in chunks of `chunk_events` events (the program is built into `dir` once).
pub fn vecadd_trace(dir: &Path, name: &str, threads: u32, chunk_events: u32, n: u32) -> PathBuf {
    let exe = dir.join("vecadd");
    if !exe.exists() {
        rdcc(
            &[program("simt/vecadd.c")],
            &["-O1", "-g", "-fopenmp"],
            &exe,
        );
    }
    let t = dir.join(name);
    let events = chunk_events.to_string();
    let threads = threads.to_string();
    let mut cmd = Command::new(&exe);
    cmd.arg(n.to_string())
        .env("RDTRACE_QUIET", "1")
        .env("OMP_NUM_THREADS", &threads)
        .env("RDTRACE_CHUNK_EVENTS", &events)
        // A chunk holds at least one raw buffer: small buffers, small chunks.
        .env("RDTRACE_BUFFER_EVENTS", &events);
    let o = output_traced(&mut cmd, &t);
    assert!(o.status.success(), "{o:?}");
    t
}

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

/// Compiles `sources` with `rdcc flags… -o out`; panics with clang's diagnostics on failure.
pub fn rdcc(sources: &[PathBuf], flags: &[&str], out: &Path) {
    let o = Command::new(&tools().rdcc)
        .args(flags)
        .args(sources)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "rdcc {flags:?} {sources:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs `rda-report live <args> -- <exe> <prog_args>` in `cwd` with `env` (the runtime quiet,
/// no trace variables inherited).
pub fn live(
    cwd: &Path,
    args: &[&str],
    exe: &Path,
    prog_args: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.current_dir(cwd)
        .arg("live")
        .args(args)
        .arg("--")
        .arg(exe)
        .args(prog_args)
        .env("RDTRACE_QUIET", "1")
        .env_remove("RDTRACE_TEE")
        .env_remove("RDTRACE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Runs a program with `RDTRACE=trace` and the given environment; returns its output.
pub fn run_traced(exe: &Path, trace: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.env("RDTRACE_QUIET", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    output_traced(&mut cmd, trace)
}

/// Runs `cmd` (a program built with `rdcc`, arguments and environment set by the caller) with
/// `RDTRACE=trace`, puts the trace through [`check_invariants`] and returns the program's output:
/// the one way e2e tests run a traced program.
pub fn output_traced(cmd: &mut Command, trace: &Path) -> Output {
    let out = cmd
        .env("RDTRACE", trace)
        .output()
        .unwrap_or_else(|e| panic!("running {:?}: {e}", cmd.get_program()));
    check_invariants(trace);
    out
}

/// Runs the trace invariant checker (`rda-report check`'s library, [`rdtrace::check`]) on the
/// trace at `path` and panics with the violations if any invariant is broken. Every trace an e2e
/// test produces goes through it: programs run by [`output_traced`] (and [`run_traced`],
/// [`trace_program`], [`build_and_trace`] on top of it) and the traces tests write with
/// `rdtrace`'s writer, except those made to break an invariant (`check_e2e`) or damaged on
/// purpose (`hostile_traces` mutates traces that passed here); `live_e2e` checks the
/// `RDTRACE_TEE` copies of live runs. A missing or unreadable trace is left to the test (some
/// check exactly that).
pub fn check_invariants(path: &Path) {
    let Ok(trace) = Trace::open(path) else {
        return;
    };
    let report = rdtrace::check::check_trace(&trace, 20)
        .unwrap_or_else(|e| panic!("checking {}: {e}", path.display()));
    assert!(
        report.is_clean(),
        "{}: {} invariant violation(s), first ones: {:#?}",
        path.display(),
        report.violations_total,
        report.violations
    );
}

/// The stdout of a command's `out`put (UTF-8); panics with its status, stdout and stderr unless
/// it succeeded (`what` names the command in the message).
pub fn success_stdout(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed with {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs `rda-report args…`; returns (status ok, stdout, stderr).
pub fn rda_report(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Builds `rel` (under test-programs/) with `flags` into a temp dir, runs it traced with `env`,
/// checks it succeeded, and returns the directory (keep it alive) and the trace's path.
pub fn trace_program(
    rel: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdcc(&[program(rel)], flags, &exe);
    let trace = dir.path().join("prog.rdtrace");
    let out = run_traced(&exe, &trace, env);
    assert!(
        out.status.success(),
        "{rel} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, trace)
}

/// Runs `rda-report args…`, checks it succeeded, and parses its standard output as JSON.
pub fn rda_report_json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = rda_report(args);
    assert!(ok, "rda-report {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// The count `v[key]` of a JSON report, or a panic naming the key and the report.
pub fn count(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not a count: {v}"))
}

/// Builds `rel` (under test-programs/) with `flags` into a temp dir, runs it traced with `env`,
/// checks it succeeded, and opens the trace.
pub fn build_and_trace(
    rel: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (Trace, Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdcc(&[program(rel)], flags, &exe);
    let trace_path = dir.path().join("prog.rdtrace");
    let out = run_traced(&exe, &trace_path, env);
    let trace = Trace::open(&trace_path).unwrap();
    (trace, out, dir)
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

/// What a finished child cost, from the kernel's accounting (`wait4`).
#[derive(Clone, Copy, Debug)]
pub struct ChildCost {
    /// Wall time from spawn to exit.
    pub wall: std::time::Duration,
    /// User plus system CPU seconds.
    pub cpu_s: f64,
    /// Peak resident set, KiB (the child's own, or the largest child it reaped).
    pub peak_rss_kib: u64,
}

/// `mpirun` starting `np` local ranks of `rda-report`, as this machine and CI need it: loopback
/// only, more ranks than cores allowed, ob1 over shared memory, root allowed; behind `wrapper`
/// (a command and its arguments, such as `timeout 120`) when one is given. The caller adds
/// `rda-report`'s arguments.
pub fn local_mpirun(np: usize, wrapper: &[&str]) -> Command {
    let mut cmd = match wrapper.split_first() {
        Some((program, args)) => {
            let mut c = Command::new(program);
            c.args(args).arg("mpirun");
            c
        }
        None => Command::new("mpirun"),
    };
    cmd.args(["--oversubscribe", "--bind-to", "none"])
        // ob1 over shared memory: the default UCX layer spends 0.2 s probing for devices at
        // every start (see docs/distributed.md).
        .args(["--mca", "btl", "self,vader", "--mca", "pml", "ob1"])
        .args(["-np", &np.to_string()])
        .arg(&tools().rda_report)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        // Containers often forbid the cross-memory-attach single copy; plain copies always work.
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        // A session directory tree of its own: concurrent mpiruns sharing /tmp/ompi.HOST.UID
        // race (one removes it while another creates its pid directory in it, and orte_init
        // fails with "unable to create the desired directory").
        .env("OMPI_MCA_orte_tmpdir_base", mpirun_session_base());
    cmd
}

/// A fresh directory for one `mpirun`'s session tree, under one per test process in the
/// temporary directory. OpenMPI empties it when the mpirun ends; the first call of a process
/// removes the trees of test processes that are gone.
fn mpirun_session_base() -> PathBuf {
    const PREFIX: &str = "rdtools-mpirun-";
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = std::env::temp_dir();
    if n == 0 {
        for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let pid = name.to_str().and_then(|n| n.strip_prefix(PREFIX));
            if pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let process = tmp.join(format!("{PREFIX}{}", std::process::id()));
    let dir = process.join(n.to_string());
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Spawns `cmd` (stdin closed; stdout and stderr as the caller set them), waits for it with
/// `wait4`, asserts it exited with status 0, and returns its wall time, CPU time and peak RSS.
// The child is reaped by `wait4` (which also gives its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn run_measured(cmd: &mut Command) -> ChildCost {
    let t = std::time::Instant::now();
    let child = cmd
        .stdin(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: status and usage are valid out-pointers; the pid is our own unreaped child.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = t.elapsed();
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{cmd:?} failed: status {status:#x}"
    );
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    ChildCost {
        wall,
        cpu_s: secs(usage.ru_utime) + secs(usage.ru_stime),
        peak_rss_kib: usage.ru_maxrss as u64,
    }
}

/// Wall-clock limit of every command on a hostile trace (issue 27).
pub const HOSTILE_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);
/// Address-space limit (`setrlimit(RLIMIT_AS)`) of every command on a hostile trace (issue 27).
pub const HOSTILE_MEM_LIMIT: u64 = 4 << 30;

/// A bounded `rda-report` run that ended as a hostile input allows: exit 0, or exit 1 with an
/// error message.
#[derive(Clone, Debug)]
pub struct BoundedRun {
    /// The exit status: 0 or 1.
    pub code: i32,
    /// Its standard error.
    pub stderr: String,
    /// Wall time from spawn to exit.
    pub wall: std::time::Duration,
    /// Peak resident set, KiB (from `wait4`).
    pub peak_rss_kib: u64,
}

/// Runs `rda-report args…` under [`HOSTILE_TIME_LIMIT`] and [`HOSTILE_MEM_LIMIT`] (set with
/// `setrlimit(RLIMIT_AS)` between fork and exec, with two malloc arenas so that the limit is on
/// what it allocates, not on reserved arenas), standard output discarded. `Err` says why a run
/// is not acceptable: a signal (an abort from a failed allocation included), a panic (101), a
/// usage error (2), a timeout (the child is killed), or exit 1 without an `rda-report: error:`
/// message.
// The child is reaped by `wait4` (which also gives its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn rda_report_bounded<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Result<BoundedRun, String> {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args)
        .env("MALLOC_ARENA_MAX", "2")
        .env("RAYON_NUM_THREADS", "2")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: HOSTILE_MEM_LIMIT,
                rlim_max: HOSTILE_MEM_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = std::time::Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("spawn: {e}"))?;
    let pid = child.id() as i32;
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: status and usage are valid out-pointers; the pid is our own unreaped child.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            return Err(format!("wait4: {}", std::io::Error::last_os_error()));
        }
        if start.elapsed() > HOSTILE_TIME_LIMIT && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let wall = start.elapsed();
    let err = reader.join().unwrap();
    let tail: String = {
        let chars: Vec<char> = err.chars().collect();
        chars[chars.len().saturating_sub(600)..].iter().collect()
    };
    if timed_out {
        return Err(format!(
            "still running after {HOSTILE_TIME_LIMIT:?}: {tail}"
        ));
    }
    let run = |code| BoundedRun {
        code,
        stderr: err.clone(),
        wall,
        peak_rss_kib: usage.ru_maxrss as u64,
    };
    if libc::WIFSIGNALED(status) {
        return Err(format!(
            "killed by signal {}: {tail}",
            libc::WTERMSIG(status)
        ));
    }
    match libc::WEXITSTATUS(status) {
        0 => Ok(run(0)),
        1 if err.contains("rda-report: error:") => Ok(run(1)),
        1 => Err(format!("exit status 1 without an error message: {tail}")),
        c => Err(format!("exit status {c}: {tail}")),
    }
}
