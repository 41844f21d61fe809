//! The largest static access size the reader accepts, replayed, within the time limit.

use super::*;

/// Issue 27, found by the mutants of `damage`: the reader accepts static access sizes up to
/// [`MAX_ACCESS_SIZE`] (64 KiB) and the analyses visit every 64-byte line of an access, so an
/// access costs up to 1024 line visits however few bytes the file spends on it. A 33 KB
/// sequential vecadd trace whose metadata says 64 KiB for every access, its events replayed
/// eight more times, asks for about 7 GiB of line visits: before the touch bound
/// (`rdtrace::work`), `histogram` and `paths` took 13-19 s and `measure`, `validate`,
/// `paths-predict`, `annotate` and `html` ran past 20 s (2026-11-26, two loaded cores). Now
/// every analysis refuses it at once (exit 1, naming `--max-touched`), and `info` and `dump`,
/// which visit no line, still read it.
#[test]
fn issue27_largest_access_size_keeps_commands_within_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let seed = vecadd_trace(dir.path(), "seq.rdtrace", 1, 4096, 4096);
    let bytes = std::fs::read(&seed).unwrap();
    let program = rdtrace::Trace::open(&seed).unwrap().meta;
    let mut meta = ModuleMeta {
        name: program.modules[0].name.clone(),
        content_hash: program.modules[0].content_hash,
        tables: program.tables.clone(),
    };
    for i in meta.tables.mem_instrs.iter_mut() {
        i.size = MAX_ACCESS_SIZE;
    }
    let cs = chunks(&bytes);
    let module_c = *cs.iter().find(|c| c.h.kind == ChunkKind::Module).unwrap();
    let rec = postcard_bytes(&ModuleRecord {
        bases: program.modules[0].bases,
        blob: meta.to_blob(),
    });
    let mut crafted = replace(&bytes, module_c, &reframed(module_c, &rec, 0, 0, 0));
    // The events chunks again, eight times, as the thread's next chunks.
    let cs = chunks(&crafted);
    let events: Vec<Chunk> = cs
        .iter()
        .copied()
        .filter(|c| c.h.kind == ChunkKind::Events)
        .collect();
    let end = cs.iter().find(|c| c.h.kind == ChunkKind::End).unwrap().at;
    let mut replay = Vec::new();
    let mut seq = events.iter().map(|c| c.h.seq).max().unwrap() + 1;
    for _ in 0..8 {
        for &c in &events {
            let p = payload(&crafted, c);
            replay.extend(reframed(c, &p, c.h.thread, seq, c.h.events));
            seq += 1;
        }
    }
    crafted = insert(&crafted, end, &replay);
    let path = dir.path().join("large-access.rdtrace");
    std::fs::write(&path, &crafted).unwrap();
    eprintln!("{} bytes", crafted.len());
    let mut failures = Vec::new();
    for args in commands(&path, 1, &path, &dir.path().join("out.html"))
        .into_iter()
        .filter(|c| !c.contains(&"--salvage".to_string()))
    {
        match rda_report_bounded(&args) {
            Ok(run) => {
                eprintln!("{:.1} s: {}", run.wall.as_secs_f64(), args[0]);
                let looks = args[0] == "info" || args[0] == "dump";
                let refused = run.code == 1 && run.stderr.contains("--max-touched");
                if looks && run.code != 0 {
                    failures.push(format!("rda-report {}: exit {}", args.join(" "), run.code));
                } else if looks && args[0] == "info" && !run.stderr.contains("--max-touched") {
                    failures.push(format!("info does not warn: {}", run.stderr));
                } else if !looks && !refused {
                    failures.push(format!(
                        "rda-report {}: exit {} without the touch-bound error: {}",
                        args.join(" "),
                        run.code,
                        run.stderr
                    ));
                }
            }
            Err(why) => failures.push(format!("rda-report {}: {why}", args.join(" "))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The bound is one flag away: stated explicitly it is honoured, and it is a usage error
    // when it does not parse.
    let p = path.to_str().unwrap();
    let run = rda_report_bounded(&["histogram", p, "--max-touched", "1M"]).unwrap();
    assert!(
        run.stderr.contains("over the bound of 1 MiB (as given)"),
        "{}",
        run.stderr
    );
    let (ok, _, err) = rdtools_e2e::rda_report(&["histogram", p, "--max-touched", "lots"]);
    assert!(!ok && err.contains("is not a number of bytes"), "{err}");
}
