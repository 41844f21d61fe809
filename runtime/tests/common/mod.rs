//! What the runtime's integration tests share.

use std::process::Command;

/// The synthetic program (`examples/synthetic_run.rs`), built next to the test binary's deps
/// directory, or brought up to date, once per test process: `cargo test` does not rebuild
/// examples for integration tests, and a stale binary would test old runtime code.
pub fn example() -> std::path::PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let mut p = std::env::current_exe().unwrap();
    p.pop();
    p.pop();
    p.push("examples/synthetic_run");
    BUILT.call_once(|| {
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "-q",
                "-p",
                "rdruntime",
                "--example",
                "synthetic_run",
            ])
            .status()
            .unwrap();
        assert!(status.success());
    });
    p
}
