//! Local `mpirun`s of `rda-report` for the MPI engine's tests.

use crate::tools;
use std::path::{Path, PathBuf};
use std::process::Command;

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
