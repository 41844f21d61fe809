//! A crashing program keeps its trace; damaged traces get clear answers.

use super::*;

#[test]
fn crashing_program_keeps_its_trace() {
    let src = "basic/crash.c";
    let (trace, out, d) = build_and_trace(src, &["-O0", "-g", "-DN=200000"], &[]);
    assert!(!out.status.success());
    assert_eq!(
        trace.exit.as_ref().map(|e| e.reason),
        Some(ExitReason::Signal(11))
    );
    let c = counts(&trace);
    let line = line_of(src, "a[i] = i;");
    let store: Vec<u32> = mem_instrs_at(&trace, "crash.c", line)
        .into_iter()
        .filter(|&m| trace.meta.mem_instrs[m as usize].kind == AccessKind::Store)
        .filter(|&m| trace.meta.mem_instrs[m as usize].class == VarClass::Shared)
        .collect();
    assert_eq!(store.len(), 1);
    let a = &c.accesses[&store[0]];
    assert_eq!(a.len(), 100_001, "every store up to and including i = N/2");
    assert!(a.windows(2).all(|w| w[1] - w[0] == 4));
    let (ok, text, err) = rda_report(&["info", d.path().join("prog.rdtrace").to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(text.contains("signal 11"), "{text}");
}

#[test]
fn damaged_traces_get_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("p");
    rdcc(
        &[program("basic/serial_loop.c")],
        &["-O1", "-DN=200000"],
        &exe,
    );
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("RDTRACE_CHUNK_EVENTS", "4096")])
        .status
        .success());
    let bytes = std::fs::read(&tp).unwrap();
    let trace = rdtrace::Trace::open(&tp).unwrap();
    let chunks = trace.event_chunks().to_vec();
    assert!(chunks.len() > 4);

    // Truncated inside the last events chunk: exit 0, a warning, the whole chunks analysed.
    let cut = dir.path().join("cut.rdtrace");
    std::fs::write(&cut, &bytes[..chunks[3].offset as usize + 50]).unwrap();
    let (ok, out, err) = rda_report(&["histogram", cut.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    assert!(err.contains("truncated at offset"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["total"].as_u64().unwrap() > 0);

    // A flipped bit in a payload (issue 10): the thread ends before that chunk, with a
    // warning naming the file, the offset and the thread; exit 0. With --strict: exit 1.
    let flip = dir.path().join("flip.rdtrace");
    let mut b = bytes.clone();
    b[chunks[2].offset as usize + 40] ^= 1;
    std::fs::write(&flip, &b).unwrap();
    let (ok, out, err) = rda_report(&["histogram", flip.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    assert!(
        err.contains(&format!(
            "thread 0: corrupt chunk at offset {}",
            chunks[2].offset
        )) && err.contains("flip.rdtrace"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["total"].as_u64().unwrap() > 0);
    let o = std::process::Command::new(&tools().rda_report)
        .arg("histogram")
        .arg(&flip)
        .arg("--strict")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("corrupt chunk at offset {}", chunks[2].offset)),
        "{err}"
    );

    // Not a trace at all.
    let o = std::process::Command::new(&tools().rda_report)
        .arg("info")
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an rdtools trace"));

    // A usage error is status 2.
    let o = std::process::Command::new(&tools().rda_report)
        .arg("histogram")
        .arg(&tp)
        .args(["--line", "48"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("48 is not a power of two"));
}
