//! The background writer of a durable generator: renews the reservation in its own thread,
//! so that issuing does not wait for `fsync` while the current reservation still covers it.
//! One write in flight at most.

use std::sync::{mpsc, Arc};

use super::error::StateError;
use super::file::StateFile;
use super::format::State;

/// The background writer: one write in flight at most.
#[derive(Debug)]
pub(super) struct Writer {
    /// Jobs: the states to write.
    pub(super) tx: mpsc::Sender<State>,
    /// Outcomes, one per job.
    pub(super) rx: mpsc::Receiver<Result<State, StateError>>,
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
    /// Whether a job was sent whose outcome has not been received.
    pub(super) in_flight: bool,
}

impl Writer {
    /// Starts the thread; `None` if it cannot be started (writes are then synchronous).
    pub(super) fn start(file: &Arc<StateFile>) -> Option<Writer> {
        let (tx, jobs) = mpsc::channel::<State>();
        let (done, rx) = mpsc::channel();
        let file = Arc::clone(file);
        let thread = std::thread::Builder::new()
            .name("uuidkit-state".into())
            .stack_size(64 * 1024)
            .spawn(move || {
                for s in jobs {
                    if done.send(file.write(&s).map(|()| s)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Writer {
            tx,
            rx,
            thread: Some(thread),
            in_flight: false,
        })
    }
}
