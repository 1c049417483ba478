//! A server on a thread for the tests of the `defences`, `ranges` and `service` modules: bound
//! to `s.sock` in a test's directory, its state in `state`, shut down when dropped.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

use uuidkit_service::client::Connection;
use uuidkit_service::server::{RunSummary, Server, ServerConfig, ServerError, ShutdownHandle};
use uuidkit_service::state::{DurableGenerator, StateOptions};
use uuidkit_test_support::TempDir;

/// A running server; shut down and joined when dropped.
pub struct Running {
    pub handle: ShutdownHandle,
    pub thread: Option<JoinHandle<Result<RunSummary, ServerError>>>,
    pub sock: PathBuf,
    pub state: PathBuf,
}

impl Running {
    /// Shuts the server down and returns what its run ended with.
    pub fn stop(mut self) -> Result<RunSummary, ServerError> {
        self.handle.shutdown();
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            self.handle.shutdown();
            let _ = t.join();
        }
    }
}

/// Starts a server in `dir` with the configuration `cfg` makes of the default one.
pub fn start_with(dir: &TempDir, cfg: impl FnOnce(ServerConfig) -> ServerConfig) -> Running {
    let sock = dir.path("s.sock");
    let state = dir.path("state");
    let generator = DurableGenerator::open(&state, StateOptions::new()).unwrap();
    let server = Server::bind(cfg(ServerConfig::new(&sock)), generator).unwrap();
    let handle = server.shutdown_handle();
    let thread = std::thread::spawn(move || server.run());
    Running {
        handle,
        thread: Some(thread),
        sock,
        state,
    }
}

/// Starts a server in `dir` with the default configuration.
pub fn start(dir: &TempDir) -> Running {
    start_with(dir, |c| c)
}

/// A client connection to `sock` (10 s timeout).
pub fn connect(sock: &Path) -> Connection {
    Connection::connect(sock, Duration::from_secs(10)).unwrap()
}
