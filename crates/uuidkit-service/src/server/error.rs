//! The server's error: the socket cannot be set up, or the state could not be flushed.

use core::fmt;
use std::io;

/// An error of the server: the socket cannot be set up, or the state could not be flushed.
///
/// ```
/// use uuidkit_service::server::{Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-serr", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// // A file where the socket should go is never replaced.
/// std::fs::write(&sock, b"precious")?;
/// let e = Server::bind(ServerConfig::new(&sock), g).unwrap_err();
/// assert!(e.to_string().contains("is not a socket"), "{e}");
/// assert_eq!(std::fs::read(&sock)?, b"precious");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ServerError {
    msg: String,
    io: Option<io::Error>,
}

impl ServerError {
    pub(super) fn new(msg: impl Into<String>) -> ServerError {
        ServerError {
            msg: msg.into(),
            io: None,
        }
    }

    pub(super) fn io(msg: impl Into<String>, e: io::Error) -> ServerError {
        ServerError {
            msg: msg.into(),
            io: Some(e),
        }
    }

    /// The operating system's error, if one caused this.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-ioerr", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// // The socket's directory does not exist.
    /// let e = Server::bind(ServerConfig::new(dir.join("missing/s.sock")), g).unwrap_err();
    /// assert_eq!(e.io_error().map(|e| e.kind()), Some(ErrorKind::NotFound));
    /// assert!(e.to_string().contains("socket directory") && e.to_string().contains("missing"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn io_error(&self) -> Option<&io::Error> {
        self.io.as_ref()
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)?;
        if let Some(e) = &self.io {
            write!(f, ": {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ServerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io.as_ref().map(|e| e as _)
    }
}
