//! What the runtime's integration tests share.

use std::process::Command;

/// The synthetic program (`examples/synthetic_run.rs`), built next to the test binary's deps
/// directory, or brought up to date, once per test process: `cargo test` does not rebuild
/// examples for integration tests, and a stale binary would test old runtime code. Built with
/// the test binary's own profile (the name of the directory above its deps): under
/// `cargo test --release` a dev build of the example left the release one stale, and the
/// stamp-rule tests then ran a synthetic program from an older runtime.
pub fn example() -> std::path::PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let mut p = std::env::current_exe().unwrap();
    p.pop();
    p.pop();
    let profile = match p.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev".to_string(),
        Some(name) => name.to_string(),
    };
    p.push("examples/synthetic_run");
    BUILT.call_once(|| {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "--profile", &profile, "-p", "rdruntime"])
            .args(["--example", "synthetic_run"])
            .status()
            .unwrap();
        assert!(status.success());
    });
    p
}
