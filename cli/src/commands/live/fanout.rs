//! One live run read by several analyses at once: the program's trace pipe copied, as it
//! arrives, to a pipe of each analysis's own, so that every analysis that reads a stream reads
//! the run while it runs, side by side, each with the offline command's own reader.
//!
//! Bytes are copied as they come (a trace stream is about half a byte per access, so the copy
//! costs little beside decoding it once per analysis). The slowest analysis sets the pace: a
//! full pipe blocks the copier, and with it the program's writer, as a single analysis does.
//! An analysis that ends (at the trace's end chunk, or by failing) closes its pipe; the copier
//! then goes on with the others, and stops when none is left.

use super::os::pipe;
use anyhow::{Context, Result};
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::FromRawFd;
use std::thread::ScopedJoinHandle;

/// Pipes carrying one copy of the program's trace each, and the thread that fills them.
pub(super) struct Fanout<'scope> {
    /// The read end of each copy, in the order asked for.
    pub readers: Vec<File>,
    /// The copier (none for a single reader: it reads the program's pipe itself).
    copier: Option<ScopedJoinHandle<'scope, std::io::Result<()>>>,
}

/// Hands `input` (the program's trace pipe) to `readers` readers: for one, a duplicate of its
/// descriptor; for more, a new pipe each, filled by a copier thread in `scope`.
pub(super) fn fan_out<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    input: &File,
    readers: usize,
) -> Result<Fanout<'scope>> {
    let input = input.try_clone().context("duplicating the trace pipe")?;
    if readers <= 1 {
        return Ok(Fanout {
            readers: vec![input],
            copier: None,
        });
    }
    let mut read_ends = Vec::with_capacity(readers);
    let mut write_ends = Vec::with_capacity(readers);
    for _ in 0..readers {
        let (r, w) = pipe()?;
        // As the program's pipe: room for a whole compressed chunk. Safety: fcntl on our own
        // descriptor; failure only leaves the default size.
        unsafe { libc::fcntl(r, libc::F_SETPIPE_SZ, 1 << 20) };
        // Safety: r and w are our new descriptors, owned from here on by the files.
        let (r, w) = unsafe { (File::from_raw_fd(r), File::from_raw_fd(w)) };
        read_ends.push(r);
        write_ends.push(w);
    }
    let copier = std::thread::Builder::new()
        .name("live-fanout".into())
        .spawn_scoped(scope, move || copy_to_all(input, write_ends))
        .context("starting the trace copier")?;
    Ok(Fanout {
        readers: read_ends,
        copier: Some(copier),
    })
}

impl Fanout<'_> {
    /// Waits for the copier (after every reader has ended): whether reading the program's pipe
    /// failed.
    pub(super) fn finish(self) -> Result<()> {
        match self.copier.map(|c| c.join()) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => Err(e).context("reading the trace pipe"),
            Some(Err(_)) => anyhow::bail!("the trace copier panicked"),
        }
    }
}

/// Copies `input` to every output until `input` ends or no output is left; an output whose
/// reader has gone (a broken pipe, or any write error) is dropped.
fn copy_to_all(mut input: File, mut outputs: Vec<File>) -> std::io::Result<()> {
    let mut buf = vec![0u8; 1 << 20];
    while !outputs.is_empty() {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        outputs.retain_mut(|out| out.write_all(&buf[..n]).is_ok());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reader_gets_every_byte_and_a_closed_one_does_not_stop_the_others() {
        let (r, w) = pipe().unwrap();
        // Safety: our new descriptors.
        let (input, mut program) = unsafe { (File::from_raw_fd(r), File::from_raw_fd(w)) };
        let data: Vec<u8> = (0..5_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::thread::scope(|s| {
            let fan = fan_out(s, &input, 3).unwrap();
            let mut readers = fan.readers.into_iter();
            let first = readers.next().unwrap();
            // The second reader goes away at once.
            drop(readers.next());
            let third = readers.next().unwrap();
            let fan = Fanout {
                readers: Vec::new(),
                copier: fan.copier,
            };
            let writer = s.spawn(move || {
                program.write_all(&data).unwrap();
                data
            });
            let read_all = |mut f: File| {
                s.spawn(move || {
                    let mut v = Vec::new();
                    f.read_to_end(&mut v).unwrap();
                    v
                })
            };
            let (a, c) = (read_all(first), read_all(third));
            let data = writer.join().unwrap();
            // The program ends: its end of the pipe closes, and the copies end.
            fan.finish().unwrap();
            assert!(a.join().unwrap() == data);
            assert!(c.join().unwrap() == data);
        });
    }
}
