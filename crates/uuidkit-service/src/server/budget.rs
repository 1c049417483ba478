//! How fast one user may take v1/v6 timestamps: a budget per peer user id (root included),
//! so that no client, nor all clients of one user together, can push the machine-wide
//! v1/v6 timeline far ahead of the clock.
//!
//! Every v1/v6 timestamp the server hands out — one UUID of a generate request, each one of a
//! range, of a uuidd bulk time block — is one 100-ns tick of the one timeline. When they are
//! taken faster than the clock advances (ten million a second), the timeline runs ahead of
//! the clock, every user's v1/v6 then carry later times than the real ones, and (since the
//! state file keeps the timeline across restarts) it stays ahead until the clock catches up.
//!
//! So each user id has a bucket of [`TICK_BURST`] ticks (1 s of timestamps), refilled at the
//! clock's speed (one tick per 100 ns of real time, measured on the monotonic clock, so
//! setting the wall clock changes nothing). A request is charged before it is served; when the
//! bucket does not hold enough, the request waits until it would (the debt is paid back in
//! real time), so a user's requests are served in full, at most at the clock's speed. A large
//! request (more than [`SMALL_TICKS`]) that would take the user's debt beyond [`MAX_DEBT`]
//! (1 s of waiting) is not charged but waits for room; a small one is charged as long as the
//! debt stays within [`MAX_WAIT`] (3 s), so that a single UUID is never starved by a
//! stream of large requests. A request that cannot be served within [`MAX_WAIT`] (or the
//! connection's timeout) is refused. Hence, for one user, the timestamps served by any
//! moment number at most 1 s of timestamps more than the real time elapsed: whatever the
//! user's connections ask, the timeline runs at most 1 s ahead of where it would be without
//! them. A user who stops asking is served again after the debt it ran up (at most 1 s when
//! its requests were large, 3 s in all), and has a full bucket again 1 s later.
//!
//! Several users asking at full speed at once each get the clock's speed: they can together
//! move the timeline ahead of the clock faster than one can (a bound per user, not per
//! machine); a limit on the whole machine would let one user starve all the others.
//!
//! v7 needs no budget: a v7 range or batch takes counter values within one millisecond (2^41
//! and more of them), not milliseconds.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many v1/v6 timestamps (100-ns ticks) one user may take at once beyond the clock's
/// speed: 1 s of them.
pub const TICK_BURST: u64 = 10_000_000;

/// How far a large request (more than [`SMALL_TICKS`]) may take its user's bucket below zero
/// (ticks): beyond that it waits for room instead of being charged. 1 s of timestamps.
pub const MAX_DEBT: u64 = 10_000_000;

/// The longest a request waits for its user's budget before it is refused: less than a
/// client's default timeout (5 s), so that it gets the refusal rather than a timeout.
pub const MAX_WAIT: Duration = Duration::from_secs(3);

/// Requests of at most this many timestamps (a batch of up to 8192 UUIDs, a single one) are
/// charged whenever the debt stays within [`MAX_WAIT`]; larger ones only within [`MAX_DEBT`].
pub const SMALL_TICKS: u64 = 8192;

/// Ticks of the 100-ns timeline per nanosecond of real time.
const NANOS_PER_TICK: u128 = 100;

/// Beyond this many user ids, the full buckets (users idle for 2 s) are forgotten.
const PRUNE_AT: usize = 1024;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Ticks that may be taken now; negative: the debt still to be paid back.
    credit: i64,
    /// When `credit` was last brought up to date.
    at: Instant,
}

impl Bucket {
    /// The credit at `now`, refilled at one tick per 100 ns, at most [`TICK_BURST`].
    fn refill(&mut self, now: Instant) {
        let ticks = now.saturating_duration_since(self.at).as_nanos() / NANOS_PER_TICK;
        match i64::try_from(ticks) {
            // Beyond 2^40 ticks (30 hours) the bucket is full whatever it held.
            Ok(t) if t < 1 << 40 => {
                self.credit = self.credit.saturating_add(t).min(TICK_BURST as i64);
                // Forward by whole ticks only, keeping the part of a tick not yet counted.
                self.at += Duration::from_nanos(t.unsigned_abs() * NANOS_PER_TICK as u64);
            }
            _ => {
                self.credit = TICK_BURST as i64;
                self.at = now;
            }
        }
    }
}

/// What [`TickBudget::charge`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Charge {
    /// Charged: serve the request after this long (zero: at once).
    ServeAfter(Duration),
    /// Not charged: the debt would exceed [`MAX_DEBT`]; ask again after this long.
    RetryAfter(Duration),
}

/// The buckets of the users that asked for v1/v6 timestamps.
#[derive(Debug, Default)]
pub(super) struct TickBudget {
    buckets: Mutex<HashMap<u32, Bucket>>,
}

fn ticks_to_time(ticks: u64) -> Duration {
    Duration::from_nanos(ticks.saturating_mul(NANOS_PER_TICK as u64))
}

impl TickBudget {
    /// Charges `ticks` timestamps to `uid` at `now`, or says how long to wait for room: a
    /// request is charged only if it may then be served within `limit` (and [`MAX_WAIT`]).
    pub(super) fn charge(&self, uid: u32, ticks: u64, now: Instant, limit: Duration) -> Charge {
        let mut map = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= PRUNE_AT && !map.contains_key(&uid) {
            map.retain(|_, b| {
                b.refill(now);
                b.credit < TICK_BURST as i64
            });
        }
        let b = map.entry(uid).or_insert(Bucket {
            credit: TICK_BURST as i64,
            at: now,
        });
        b.refill(now);
        let ticks = i64::try_from(ticks).unwrap_or(i64::MAX);
        let after = b.credit.saturating_sub(ticks);
        // A request larger than the whole debt allowance still fits an idle user's bucket.
        let longest = (limit.min(MAX_WAIT).as_nanos() / NANOS_PER_TICK) as i64;
        let floor = if ticks <= SMALL_TICKS as i64 {
            -longest
        } else {
            -longest.min(MAX_DEBT as i64)
        };
        if after < floor && b.credit < TICK_BURST as i64 {
            let short = (floor - after).min(TICK_BURST as i64 - b.credit);
            return Charge::RetryAfter(ticks_to_time(short.unsigned_abs()));
        }
        b.credit = after;
        Charge::ServeAfter(ticks_to_time(after.min(0).unsigned_abs()))
    }

    /// Charges `ticks` to `uid` and waits until the request may be served: `Err` with the
    /// refusal's reason when that would take more than `limit`, or `closing` says the server
    /// stops (polled at least every 50 ms).
    pub(super) fn wait_for(
        &self,
        uid: u32,
        ticks: u64,
        limit: Duration,
        closing: impl Fn() -> bool,
    ) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if closing() {
                return Err("the server is shutting down".into());
            }
            match self.charge(uid, ticks, Instant::now(), limit) {
                Charge::ServeAfter(wait) => {
                    let until = Instant::now() + wait;
                    loop {
                        let left = until.saturating_duration_since(Instant::now());
                        if left.is_zero() || closing() {
                            return Ok(());
                        }
                        std::thread::sleep(left.min(Duration::from_millis(50)));
                    }
                }
                Charge::RetryAfter(wait) => {
                    if start.elapsed() + wait > limit {
                        return Err(format!(
                            "uid {uid} has asked for v1/v6 timestamps faster than the clock \
                             advances for too long (each user may take at most the clock's \
                             speed, 10 million a second, beyond a burst of 1 s of them, so \
                             that no user moves the machine's v1/v6 timeline ahead of the \
                             clock); try again later"
                        ));
                    }
                    std::thread::sleep(
                        wait.clamp(Duration::from_millis(1), Duration::from_millis(50)),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEC: u64 = 10_000_000;

    #[test]
    fn a_full_bucket_serves_a_burst_at_once_then_debt_is_paid_in_real_time() {
        let b = TickBudget::default();
        let t0 = Instant::now();
        assert_eq!(
            b.charge(7, SEC, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::ZERO)
        );
        // Empty now: the next 0.5 s of timestamps wait 0.5 s.
        assert_eq!(
            b.charge(7, SEC / 2, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::from_millis(500))
        );
        // Another user is not charged for it.
        assert_eq!(
            b.charge(8, SEC, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::ZERO)
        );
        // 0.5 s later the debt is paid.
        let t1 = t0 + Duration::from_millis(500);
        assert_eq!(
            b.charge(7, 0, t1, MAX_WAIT),
            Charge::ServeAfter(Duration::ZERO)
        );
    }

    #[test]
    fn debt_beyond_the_limit_is_refused_until_there_is_room() {
        let b = TickBudget::default();
        let t0 = Instant::now();
        assert_eq!(
            b.charge(0, SEC, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::ZERO)
        );
        assert_eq!(
            b.charge(0, SEC, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::from_secs(1))
        );
        // 1 s of debt: 0.1 s more must wait 0.1 s for room.
        assert_eq!(
            b.charge(0, SEC / 10, t0, MAX_WAIT),
            Charge::RetryAfter(Duration::from_millis(100))
        );
        let t1 = t0 + Duration::from_millis(100);
        assert_eq!(
            b.charge(0, SEC / 10, t1, MAX_WAIT),
            Charge::ServeAfter(Duration::from_secs(1))
        );
    }

    #[test]
    fn a_small_request_is_charged_past_the_debt_limit_up_to_the_longest_wait() {
        let b = TickBudget::default();
        let t0 = Instant::now();
        assert_eq!(
            b.charge(5, 2 * SEC, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::from_secs(1))
        );
        // 1 s of debt: a large request waits for room, a single UUID is charged.
        assert!(matches!(
            b.charge(5, 65_536, t0, MAX_WAIT),
            Charge::RetryAfter(_)
        ));
        assert_eq!(
            b.charge(5, 1, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::from_nanos(1_000_000_100))
        );
        // Small requests up to 3 s of debt, then they too wait.
        for _ in 0..(2 * SEC / 8192) {
            assert!(matches!(
                b.charge(5, 8192, t0, MAX_WAIT),
                Charge::ServeAfter(_)
            ));
        }
        assert!(matches!(
            b.charge(5, 8192, t0, MAX_WAIT),
            Charge::RetryAfter(_)
        ));
    }

    #[test]
    fn a_shorter_limit_lowers_the_debt_allowed_and_a_refusal_says_why() {
        let b = TickBudget::default();
        let t0 = Instant::now();
        let limit = Duration::from_millis(100);
        assert_eq!(
            b.charge(9, SEC, t0, limit),
            Charge::ServeAfter(Duration::ZERO)
        );
        // 0.1 s of debt is all a 100 ms limit allows.
        assert_eq!(
            b.charge(9, SEC / 10, t0, limit),
            Charge::ServeAfter(Duration::from_millis(100))
        );
        assert!(matches!(b.charge(9, 1, t0, limit), Charge::RetryAfter(_)));
        // Waiting for room longer than the limit: refused, naming the user and the rule.
        b.charge(9, 4 * SEC, Instant::now(), MAX_WAIT);
        let e = b
            .wait_for(9, 65_536, Duration::from_millis(20), || false)
            .unwrap_err();
        assert!(
            e.contains("uid 9") && e.contains("faster than the clock"),
            "{e}"
        );
        // A server that stops ends the wait.
        let e = b.wait_for(9, 1, MAX_WAIT, || true).unwrap_err();
        assert!(e.contains("shutting down"), "{e}");
    }

    #[test]
    fn the_bucket_refills_to_the_burst_and_no_further() {
        let b = TickBudget::default();
        let t0 = Instant::now();
        assert_eq!(
            b.charge(1, 3 * SEC, t0, MAX_WAIT),
            Charge::ServeAfter(Duration::from_secs(2))
        );
        // An hour later: full, not an hour's worth.
        let t1 = t0 + Duration::from_secs(3600);
        assert_eq!(
            b.charge(1, SEC, t1, MAX_WAIT),
            Charge::ServeAfter(Duration::ZERO)
        );
        assert_eq!(
            b.charge(1, 1, t1, MAX_WAIT),
            Charge::ServeAfter(Duration::from_nanos(100))
        );
    }

    /// What the budget promises: whatever one user asks, the timestamps served by any moment
    /// are at most the burst plus the real time elapsed (in ticks).
    #[test]
    fn served_timestamps_never_exceed_the_burst_plus_real_time() {
        let b = TickBudget::default();
        let t0 = Instant::now();
        let mut served: Vec<(Instant, u64)> = Vec::new();
        // A greedy client asking every 1 ms for 65,536 ticks, for 5 s of simulated time.
        for ms in 0..5_000u64 {
            let now = t0 + Duration::from_millis(ms);
            for _ in 0..64 {
                if let Charge::ServeAfter(w) = b.charge(3, 65_536, now, MAX_WAIT) {
                    served.push((now + w, 65_536));
                }
            }
        }
        served.sort();
        let mut total = 0u64;
        for (at, n) in served {
            total += n;
            let elapsed = at.duration_since(t0).as_nanos() as u64 / 100;
            assert!(
                total <= TICK_BURST + elapsed + 1,
                "{total} served by {elapsed}"
            );
        }
        assert!(total > 5 * SEC, "the client got the clock's speed: {total}");
    }
}
