//! How far the live merge lags behind the stream it has read.

use super::*;

/// Serves `data`, then reports `WouldBlock` (as a pipe with nothing in it yet would block): the
/// events a merge emits before that are the events it can emit from that much of the stream.
struct Prefix<'a> {
    data: &'a [u8],
}

impl Read for Prefix<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() {
            return Err(std::io::ErrorKind::WouldBlock.into());
        }
        let n = buf.len().min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn emitted_from_prefix(stream: &[u8], len: usize) -> usize {
    let mut live = LiveTrace::new(
        Prefix {
            data: &stream[..len],
        },
        "<test>",
        None,
    )
    .unwrap();
    let mut n = 0;
    while let Ok(Some(_)) = live.next_merged() {
        n += 1;
    }
    n
}

#[test]
fn the_merge_lags_by_at_most_the_open_chunk_and_one_floor() {
    // Thread 1 writes one chunk and parks; thread 0 runs and writes two chunks; after each
    // chunk the writer publishes the clock as thread 1's floor.
    let a = |mi| Event::Access {
        mi,
        addr: 64 * mi as u64,
        len: 8,
    };
    let s = |time| Event::Stamp { time };
    let both = Both::default();
    let mut w = writer(&both);
    let mut cuts = Vec::new();
    let mut mark = |both: &Both| cuts.push(both.0.borrow().stream.len());
    w.thread(&ThreadInfo {
        thread: 1,
        os_tid: 1,
        start_time: 5,
    })
    .unwrap();
    w.events(1, &[s(10), a(0), a(1), s(20), a(2)]).unwrap();
    mark(&both); // P1
    both.floors(&[Floor {
        thread: 1,
        next_seq: 1,
        time: 21,
    }]);
    mark(&both); // P2
    w.thread(&ThreadInfo {
        thread: 0,
        os_tid: 0,
        start_time: 25,
    })
    .unwrap();
    w.events(0, &[s(30), a(3), a(4), s(40), a(5), a(6)])
        .unwrap();
    mark(&both); // P3
    both.floors(&[Floor {
        thread: 1,
        next_seq: 1,
        time: 41,
    }]);
    mark(&both); // P4
    w.events(0, &[s(50), a(7), s(60), a(0)]).unwrap();
    mark(&both); // P5
    both.floors(&[Floor {
        thread: 1,
        next_seq: 1,
        time: 61,
    }]);
    mark(&both); // P6
    end(w);
    let (stream, file) = both.finish();
    let emitted: Vec<usize> = cuts
        .iter()
        .map(|&c| emitted_from_prefix(&stream, c))
        .collect();
    // P1: thread 1's chunk is all there is, and its events go at once (5).
    // P2: the floor ends thread 1's last segment; nothing else is known yet (5).
    // P3: thread 0's segment at 30 waits: thread 1's floor 21 does not rule out a stamp
    //     below 30 (5).
    // P4: floor 41 lets segments 30 and 40 go; 40 is thread 0's open segment, which goes
    //     event by event (5 + 6 = 11).
    // P5: segment 50 waits for a floor above 50 (11).
    // P6: floor 61 lets 50 and 60 go (11 + 4 = 15): the merge lags only thread 0's open
    //     chunk and the floor that follows each chunk.
    assert_eq!(emitted, vec![5, 5, 5, 11, 11, 15]);
    let mut live = LiveTrace::new(&stream[..], "<test>", None).unwrap();
    while live.next_merged().unwrap().is_some() {}
    let stats = live.stats();
    assert_eq!(stats.event_chunks, 3);
    assert_eq!(stats.floor_chunks, 3);
    assert!(stats.bytes_read > FILE_HEADER_LEN as u64);
    assert_eq!(live_merged(&stream), offline_merged(&file));
}
