//! Where a traced run's CPU time went, for the line the runtime prints at exit: the busiest
//! program thread against the busiest of the background writer's workers, read from
//! `/proc/self/task` once everything is written.
//!
//! Why: on a machine with a CPU for every thread, the traced run lasts about as long as its
//! busiest thread. When that is a writer worker (encoding and compressing cost the writer about
//! three times what recording costs the program), more workers (`RDTRACE_WRITERS`) or more
//! CPUs would shorten it; when it is a program thread, only cheaper recording would.

use std::fs;

/// CPU seconds (user and system) of the busiest threads, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpuSplit {
    /// The busiest thread that is not a writer worker (the program's, libomp's).
    pub program_s: f64,
    /// The busiest writer worker.
    pub writer_s: f64,
    /// Writer workers found.
    pub workers: usize,
}

/// Name prefix of the writer's workers (`comm` holds 15 bytes of `rdtrace-writer-N`).
const WORKER_PREFIX: &str = "rdtrace-writer";

/// The split of the threads alive now (a thread that has exited is not counted); `None` when
/// `/proc` cannot be read.
pub fn busiest_threads() -> Option<CpuSplit> {
    // Safety: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks <= 0 {
        return None;
    }
    let mut split = CpuSplit::default();
    for entry in fs::read_dir("/proc/self/task").ok()?.flatten() {
        let dir = entry.path();
        let (Ok(stat), Ok(comm)) = (
            fs::read_to_string(dir.join("stat")),
            fs::read_to_string(dir.join("comm")),
        ) else {
            continue;
        };
        let Some(ticks_used) = cpu_ticks(&stat) else {
            continue;
        };
        let seconds = ticks_used as f64 / ticks as f64;
        if comm.trim_end().starts_with(WORKER_PREFIX) {
            split.workers += 1;
            split.writer_s = split.writer_s.max(seconds);
        } else {
            split.program_s = split.program_s.max(seconds);
        }
    }
    Some(split)
}

/// User plus system clock ticks from a `/proc/.../stat` line: fields 14 and 15, counted after
/// the command name, which is in parentheses and may itself hold spaces and parentheses.
fn cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    // After the name: state (field 3) ... utime (14), stime (15).
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// The exit line's words for `split`: both times, and which kind bounded the run.
pub fn describe(split: &CpuSplit) -> String {
    let bound = if split.writer_s > 1.1 * split.program_s {
        "; the writer was the busiest: with more CPUs for it (RDTRACE_WRITERS) the run would be \
         shorter"
    } else {
        ""
    };
    format!(
        "CPU s: busiest program thread {:.2}, busiest of {} writer workers {:.2}{bound}",
        split.program_s, split.workers, split.writer_s
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_read_after_a_name_with_spaces_and_parentheses() {
        let stat = "4242 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 250 31 0 0 20 0 1 0";
        assert_eq!(cpu_ticks(stat), Some(281));
        assert_eq!(cpu_ticks("4242 (x) S 1 2"), None);
        assert_eq!(cpu_ticks("no name"), None);
    }

    #[test]
    fn this_process_has_a_busiest_thread_and_no_workers() {
        let split = busiest_threads().expect("/proc/self/task");
        assert_eq!(split.workers, 0);
        assert!(split.program_s >= 0.0);
    }

    #[test]
    fn the_writer_is_named_only_when_it_was_the_busiest() {
        let busy = CpuSplit {
            program_s: 1.0,
            writer_s: 2.0,
            workers: 2,
        };
        assert!(describe(&busy).contains("the writer was the busiest"));
        let idle = CpuSplit {
            writer_s: 0.5,
            ..busy
        };
        let line = describe(&idle);
        assert_eq!(
            line,
            "CPU s: busiest program thread 1.00, busiest of 2 writer workers 0.50"
        );
    }
}
