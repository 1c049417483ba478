//! The connection threads that wait for the next connection after theirs ended.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Connection threads that finished their connection and wait (a while) for another, so that
/// clients connecting once per request do not pay a thread start each time.
///
/// Invariant, kept under the lock: a connection is queued only while more threads wait than
/// connections are queued, and a thread leaves only when the queue is empty; so every queued
/// connection has a thread to take it. `T` is what a thread needs to serve a connection.
pub(super) struct Pool<T> {
    state: Mutex<PoolState<T>>,
    pub(super) ready: Condvar,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            state: Mutex::new(PoolState {
                idle: 0,
                queue: VecDeque::new(),
            }),
            ready: Condvar::new(),
        }
    }
}

struct PoolState<T> {
    idle: usize,
    queue: VecDeque<T>,
}

/// How many finished threads wait for new connections, and for how long.
const POOL_MAX_IDLE: usize = 32;
const POOL_IDLE_TIME: Duration = Duration::from_secs(10);

impl<T> Pool<T> {
    fn lock(&self) -> MutexGuard<'_, PoolState<T>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hands a connection to a waiting thread; gives it back if none waits.
    pub(super) fn offer(&self, conn: T) -> Option<T> {
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
    pub(super) fn wait(&self, closing: &AtomicBool) -> Option<T> {
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
