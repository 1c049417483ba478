//! The loop the counter-based generators (v7 and the two v8 layouts) share: a fork check, one
//! clock reading per call or batch, the [`Sequencer`] for ordering, overflow and regression,
//! and then the layout's own packing of the issued (tick, counter) pair into a UUID.
//!
//! v1, v2 and v6 wrap it in `GregorianCore` (`gregorian.rs`), whose fork and regression handling
//! also renews the clock sequence and node.

use super::error::GenError;
use super::rng::fork_generation;
use super::sequencer::{Issued, Sequencer};
use super::source::{Clock, RandomSource};
use crate::Uuid;

/// The sources and state behind one per-instance generator.
#[derive(Debug, Clone)]
pub(crate) struct Driver<C, R> {
    pub(crate) seq: Sequencer,
    pub(crate) clock: C,
    pub(crate) rng: R,
    fork_gen: u64,
}

impl<C: Clock, R: RandomSource> Driver<C, R> {
    pub(crate) fn new(seq: Sequencer, clock: C, rng: R) -> Self {
        Driver {
            seq,
            clock,
            rng,
            fork_gen: fork_generation(),
        }
    }

    /// In a forked child the parent's sequence must not go on (RFC 9562 §6.9): the child
    /// leaves the parent's last tick for a later one with a fresh random counter seed (its
    /// UUIDs still follow those issued before the fork). Says whether this is the first call
    /// since a fork, for state beyond the sequence to renew.
    pub(crate) fn check_fork(&mut self) -> bool {
        let g = fork_generation();
        if g == self.fork_gen {
            return false;
        }
        self.fork_gen = g;
        self.seq.renew();
        true
    }

    /// One UUID from a fresh clock reading, packed by `make`.
    pub(crate) fn next_with(
        &mut self,
        make: impl FnOnce(Issued, &mut R) -> Uuid,
    ) -> Result<Uuid, GenError> {
        self.check_fork();
        let mut reading = self.seq.read(&self.clock)?;
        let i = self.seq.next(&self.clock, &mut reading, &mut self.rng)?;
        Ok(make(i, &mut self.rng))
    }

    /// Fills `out` with increasing UUIDs from one clock reading (re-read only while waiting
    /// under the Wait policy), one step per slot: for layouts that count ticks, not a counter,
    /// and so never issue runs. On an error, the UUIDs before the failing one are written and
    /// count as issued.
    pub(crate) fn fill_with(
        &mut self,
        out: &mut [Uuid],
        mut make: impl FnMut(Issued, &mut R) -> Uuid,
    ) -> Result<(), GenError> {
        self.check_fork();
        if out.is_empty() {
            return Ok(());
        }
        let mut reading = self.seq.read(&self.clock)?;
        for slot in out.iter_mut() {
            let i = self.seq.next(&self.clock, &mut reading, &mut self.rng)?;
            *slot = make(i, &mut self.rng);
        }
        Ok(())
    }

    /// As [`fill_with`](Self::fill_with), but runs of consecutive counters within one clock
    /// reading go to `run` (tick, first counter, the slots, the random source) in one call, so
    /// that the layout can pack them in a tight loop; `make` handles every other step. Issues
    /// exactly what one step per slot would issue.
    pub(crate) fn fill_runs(
        &mut self,
        out: &mut [Uuid],
        mut make: impl FnMut(Issued, &mut R) -> Uuid,
        mut run: impl FnMut(u64, u128, &mut [Uuid], &mut R),
    ) -> Result<(), GenError> {
        self.check_fork();
        if out.is_empty() {
            return Ok(());
        }
        let mut reading = self.seq.read(&self.clock)?;
        let mut at = 0;
        while at < out.len() {
            let rest = out.len() - at;
            if let Some((tick, first, n)) = self.seq.issue_run(&reading, rest) {
                if let Some(slots) = out.get_mut(at..at + n) {
                    run(tick, first, slots, &mut self.rng);
                }
                at += n;
                continue;
            }
            let i = self.seq.next(&self.clock, &mut reading, &mut self.rng)?;
            if let Some(slot) = out.get_mut(at) {
                *slot = make(i, &mut self.rng);
            }
            at += 1;
        }
        Ok(())
    }
}
