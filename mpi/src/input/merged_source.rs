//! The merged order of a multi-threaded trace as a rank's source: the collective pre-pass that
//! builds the windows ([`MergedPlan`]), then one window per source chunk.

use super::merged::{ChunkSummary, MergedPlan};
use crate::{agree, ChunkSource, MpiError};
use mpi::traits::{Communicator, CommunicatorCollectives};
use rdengines::Granularity;
use rdtrace::Trace;

/// The windows of the merged order of a multi-threaded trace ([`MergedPlan`]): every rank
/// decodes every P-th events chunk once and summarises it, the summaries are all-gathered, and
/// every rank builds the same plan with windows of about `window` accesses. Collective.
fn merged_plan<C: Communicator>(
    world: &C,
    trace: &Trace,
    window: u64,
) -> Result<MergedPlan, MpiError> {
    use mpi::datatype::PartitionMut;
    use mpi::Count;
    let chunks = trace.event_chunks();
    let (me, np) = (world.rank() as usize, world.size() as usize);
    let local = (|| {
        let mut reader = trace.chunk_reader().map_err(|e| e.to_string())?;
        let (mut words, mut events) = (Vec::new(), Vec::new());
        for i in (me..chunks.len()).step_by(np) {
            events.clear();
            reader
                .visit_chunk(&chunks[i], &mut events)
                .map_err(|e| e.to_string())?;
            words.push(i as u64);
            ChunkSummary::of(&events).encode(&mut words);
        }
        Ok(words)
    })();
    let words = agree(world, local)?;
    let mut counts = vec![0 as Count; np];
    world.all_gather_into(&(words.len() as Count), &mut counts[..]);
    let displs: Vec<Count> = counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect();
    let mut all = vec![0u64; counts.iter().map(|&c| c as usize).sum()];
    {
        let mut recv = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
        world.all_gather_varcount_into(&words[..], &mut recv);
    }
    let mut summaries = vec![ChunkSummary::default(); chunks.len()];
    let mut rest = &all[..];
    while let Some((&i, after)) = rest.split_first() {
        let (s, after) =
            ChunkSummary::decode(after).expect("summaries are decoded as this binary encoded them");
        summaries[i as usize] = s;
        rest = after;
    }
    Ok(MergedPlan::new(trace, &summaries, window))
}

/// The merged order of a multi-threaded trace, one window per source chunk.
pub struct MergedSource<'t> {
    plan: MergedPlan,
    /// Accesses per window, about.
    window: u64,
    reader: rdtrace::reader::ChunkReader<'t>,
    gran: Granularity,
}

impl<'t> MergedSource<'t> {
    /// The merged order of `trace` in windows of about `window` accesses, planned by a
    /// collective pre-pass over its chunks. Collective.
    pub fn open<C: Communicator>(
        world: &C,
        trace: &'t Trace,
        window: u64,
        gran: Granularity,
    ) -> Result<Self, MpiError> {
        let plan = merged_plan(world, trace, window)?;
        Ok(MergedSource {
            plan,
            window,
            reader: agree(world, trace.chunk_reader().map_err(|e| e.to_string()))?,
            gran,
        })
    }
}

impl ChunkSource for MergedSource<'_> {
    fn chunks(&self) -> u64 {
        self.plan.windows()
    }

    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String> {
        self.plan
            .read_window(&mut self.reader, index, self.gran, out)
    }

    fn chunk_refs(&self) -> u64 {
        self.window
    }
}
