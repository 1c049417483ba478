//! The connection threads that wait for the next connection after theirs ended.

use std::collections::VecDeque;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::activation::ListenerKind;

/// A connection waiting for a thread: the stream, its number, and its listener's kind.
pub(super) type Queued = (Arc<UnixStream>, u64, ListenerKind);

/// Connection threads that finished their connection and wait (a while) for another, so that
/// clients connecting once per request do not pay a thread start each time.
///
/// Invariant, kept under the lock: a connection is queued only while more threads wait than
/// connections are queued, and a thread leaves only when the queue is empty; so every queued
/// connection has a thread to take it.
#[derive(Default)]
pub(super) struct Pool {
    state: Mutex<PoolState>,
    pub(super) ready: Condvar,
}

#[derive(Default)]
struct PoolState {
    idle: usize,
    queue: VecDeque<Queued>,
}

/// How many finished threads wait for new connections, and for how long.
const POOL_MAX_IDLE: usize = 32;
const POOL_IDLE_TIME: Duration = Duration::from_secs(10);

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hands a connection to a waiting thread; gives it back if none waits.
    pub(super) fn offer(&self, conn: Queued) -> Option<Queued> {
        let mut st = self.lock();
        if st.idle > st.queue.len() {
            st.queue.push_back(conn);
            drop(st);
            self.ready.notify_one();
            None
        } else {
            Some(conn)
        }
    }

    /// Waits for the next connection; `None` when none came in time, the pool is full, or the
    /// server is closing.
    pub(super) fn wait(&self, closing: &AtomicBool) -> Option<Queued> {
        let mut st = self.lock();
        if st.idle >= POOL_MAX_IDLE {
            return None;
        }
        st.idle += 1;
        let deadline = Instant::now() + POOL_IDLE_TIME;
        loop {
            if let Some(c) = st.queue.pop_front() {
                st.idle -= 1;
                return Some(c);
            }
            let now = Instant::now();
            if now >= deadline || closing.load(Ordering::SeqCst) {
                st.idle -= 1;
                return None;
            }
            st = self
                .ready
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}
