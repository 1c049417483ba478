//! Standard output: straight to descriptor 1 ([`RawStdout`]), through a buffer of its own that
//! formatters write into in place ([`Out`]), every failure (a closed pipe among others) a
//! [`Fatal::Write`].

use std::fmt;
use std::io::{self, Write};

use super::exit::Fatal;

/// Size of the output buffer.
const OUT_BUF: usize = 64 * 1024;

/// Standard output written straight to descriptor 1, without the standard library's
/// `Stdout`, which reports a write that fails with EBADF (standard output closed, or open
/// only for reading) as a success: output lost with status 0. Here that failure is an error
/// like any other write error (status 2, see [`super::finish`]). Unbuffered: [`Out`] buffers.
pub struct RawStdout;

impl Write for RawStdout {
    #[cfg(unix)]
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        use std::os::fd::FromRawFd;
        // SAFETY: descriptor 1 is open for the whole run (the start-up opens /dev/null on it
        // when it is closed; see `sys::start`); the `File` is never dropped, so it does not
        // close it.
        let mut f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
        f.write(b)
    }
    #[cfg(not(unix))]
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        io::stdout().write(b)
    }
    fn flush(&mut self) -> io::Result<()> {
        #[cfg(not(unix))]
        io::stdout().flush()?;
        Ok(())
    }
}

/// Whether standard output is open for writing: an error (EBADF) when it is open only for
/// reading, as after a start with it closed (see [`RawStdout`]), for output written through
/// the standard library's `Stdout` (clap's help), which would otherwise report success.
pub fn stdout_writable() -> io::Result<()> {
    #[cfg(unix)]
    {
        // SAFETY: F_GETFL on descriptor 1 only reads its flags.
        let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
        if flags == -1 {
            return Err(io::Error::last_os_error());
        }
        if flags & libc::O_ACCMODE == libc::O_RDONLY {
            return Err(io::Error::from_raw_os_error(libc::EBADF));
        }
    }
    Ok(())
}

/// Writes `b` on standard output at once (see [`RawStdout`]): for text written once, such as
/// help, a version or a single UUID.
pub fn write_stdout(b: &[u8]) -> io::Result<()> {
    let mut lock = io::stdout().lock();
    lock.flush()?;
    RawStdout.write_all(b)
}

/// Buffered standard output. Every write reports failure as [`Fatal::Write`], so that `?`
/// carries a closed pipe up to [`super::finish`].
///
/// The buffer is its own (not a `BufWriter`) so that [`Out::slot`] can let a formatter write a
/// line straight into it: at tens of millions of UUIDs per second, copying each small piece in
/// with a `memcpy` call was a third of the time of `gen` and `convert`.
pub struct Out {
    /// Held while the `Out` lives, so that nothing else writes standard output in between.
    _lock: io::StdoutLock<'static>,
    w: RawStdout,
    buf: Box<[u8]>,
    len: usize,
    /// Set after a failed write, so that dropping does not write again.
    failed: bool,
}

impl Out {
    /// Standard output with a 64 KiB buffer.
    pub fn stdout() -> Out {
        let mut lock = io::stdout().lock();
        // Whatever was written through `std::io::stdout` goes out before this.
        let _ = lock.flush();
        Out {
            _lock: lock,
            w: RawStdout,
            buf: vec![0; OUT_BUF].into_boxed_slice(),
            len: 0,
            failed: false,
        }
    }

    /// Writes the buffered bytes out.
    fn drain(&mut self) -> Result<(), Fatal> {
        let pending = &self.buf[..self.len];
        self.len = 0;
        if let Err(e) = self.w.write_all(pending) {
            self.failed = true;
            return Err(Fatal::Write(e));
        }
        Ok(())
    }
    /// Writes bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.bytes_with(b, <[u8]>::copy_from_slice)
    }

    /// [`bytes`](Self::bytes) for a short piece (a message): copied in 16-byte blocks
    /// (`scan::copy_short`) instead of through a call of `memcpy`.
    #[inline(always)]
    pub fn short_bytes(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.bytes_with(b, crate::scan::copy_short)
    }

    /// `b` into the buffer with `copy` (given a room of exactly `b.len()` bytes), or through
    /// [`bytes_slow`](Self::bytes_slow) when the buffer has no room left.
    #[inline(always)]
    fn bytes_with(&mut self, b: &[u8], copy: impl FnOnce(&mut [u8], &[u8])) -> Result<(), Fatal> {
        if let Some(room) = self.buf.get_mut(self.len..self.len + b.len()) {
            copy(room, b);
            self.len += b.len();
            return Ok(());
        }
        self.bytes_slow(b)
    }

    #[cold]
    fn bytes_slow(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.drain()?;
        if b.len() >= OUT_BUF {
            return self.w.write_all(b).map_err(|e| {
                self.failed = true;
                Fatal::Write(e)
            });
        }
        self.buf[..b.len()].copy_from_slice(b);
        self.len = b.len();
        Ok(())
    }

    /// Lets `f` write up to `N` bytes in place and return how many it wrote (at most `N`).
    #[inline]
    pub fn slot<const N: usize>(
        &mut self,
        f: impl FnOnce(&mut [u8; N]) -> usize,
    ) -> Result<(), Fatal> {
        const { assert!(N <= OUT_BUF) };
        if self.len + N > OUT_BUF {
            self.drain()?;
        }
        if let Some(room) = self
            .buf
            .get_mut(self.len..)
            .and_then(|r| r.first_chunk_mut::<N>())
        {
            let n = f(room);
            self.len += n.min(N);
        }
        Ok(())
    }

    /// Lets `f` write up to `max` bytes (at most the buffer's size) in place and return how
    /// many it wrote.
    #[inline]
    pub fn slot_dyn(
        &mut self,
        max: usize,
        f: impl FnOnce(&mut [u8]) -> usize,
    ) -> Result<(), Fatal> {
        let max = max.min(OUT_BUF);
        if self.len + max > OUT_BUF {
            self.drain()?;
        }
        if let Some(room) = self.buf.get_mut(self.len..self.len + max) {
            let n = f(room);
            self.len += n.min(max);
        }
        Ok(())
    }

    /// Writes formatted text (no allocation: the pieces go straight into the buffer).
    #[inline]
    pub fn fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), Fatal> {
        struct Adapter<'a> {
            out: &'a mut Out,
            err: Option<Fatal>,
        }
        impl fmt::Write for Adapter<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.out.bytes(s.as_bytes()).map_err(|e| {
                    self.err = Some(e);
                    fmt::Error
                })
            }
        }
        let mut a = Adapter {
            out: self,
            err: None,
        };
        match fmt::write(&mut a, args) {
            Ok(()) => Ok(()),
            Err(_) => Err(a
                .err
                .unwrap_or_else(|| Fatal::Msg("formatting failed".into()))),
        }
    }

    /// The writer, for library functions that take `impl Write`.
    pub fn writer(&mut self) -> &mut Out {
        self
    }

    /// Flushes the buffer; call before returning so that errors are seen.
    pub fn flush(&mut self) -> Result<(), Fatal> {
        self.drain()?;
        self.w.flush().map_err(|e| {
            self.failed = true;
            Fatal::Write(e)
        })
    }
}

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.write_all(b)?;
        Ok(b.len())
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self.bytes(b) {
            Ok(()) => Ok(()),
            Err(Fatal::Write(e)) => Err(e),
            Err(_) => Err(io::Error::other("write failed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match Out::flush(self) {
            Ok(()) => Ok(()),
            Err(Fatal::Write(e)) => Err(e),
            Err(_) => Err(io::Error::other("flush failed")),
        }
    }
}

impl Drop for Out {
    /// Like `BufWriter`: what is still buffered is written, errors ignored (a command that
    /// cares calls [`Out::flush`] first).
    fn drop(&mut self) {
        if !self.failed {
            let _ = self.drain();
            let _ = self.w.flush();
        }
    }
}
