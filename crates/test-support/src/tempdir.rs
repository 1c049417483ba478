//! A scratch directory for one test, removed when dropped. Shared by the state-file, service
//! and fault tests and by the CLI's server tests.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new empty directory under /tmp. The path stays short: a Unix socket path inside it
    /// must fit in 108 bytes.
    // Not `Default`: each call makes a directory.
    #[allow(clippy::new_without_default)]
    pub fn new() -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let p = PathBuf::from(format!(
            "/tmp/uk-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&p);
        fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    /// A path inside the directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
