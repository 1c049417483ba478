//! Listeners handed over by a service manager (systemd socket activation): the
//! `LISTEN_PID`/`LISTEN_FDS`/`LISTEN_FDNAMES` variables read strictly, each descriptor checked
//! to be a listening Unix stream socket, and the kind of protocol each one speaks, from its name.
//!
//! The rules are systemd's (sd_listen_fds(3)): the descriptors are 3, 4, … up to
//! `3 + LISTEN_FDS - 1`; `LISTEN_PID` names the process they are meant for; `LISTEN_FDNAMES`,
//! if set, holds one name per descriptor, separated by colons. Anything else is an error
//! naming the variable or the descriptor, so that a broken unit fails at once instead of
//! serving on the wrong descriptor.

use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixListener;

use super::error::ServerError;

/// The protocol a listener speaks.
///
/// ```
/// use uuidkit_service::server::ListenerKind;
/// assert_eq!(ListenerKind::from_name("uuidd"), ListenerKind::Uuidd);
/// // Every other name, or none, is uuidkit's own protocol.
/// for name in ["uuidkit", "", "unknown", "connection", "UUIDD"] {
///     assert_eq!(ListenerKind::from_name(name), ListenerKind::Uuidkit);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ListenerKind {
    /// uuidkit's wire protocol ([`protocol`](crate::protocol)).
    Uuidkit,
    /// util-linux uuidd's protocol, so that libuuid clients get their UUIDs from this server.
    Uuidd,
}

impl ListenerKind {
    /// The kind for a descriptor name from `LISTEN_FDNAMES` (systemd's `FileDescriptorName=`):
    /// `uuidd` is [`Uuidd`](ListenerKind::Uuidd), anything else (`uuidkit`, systemd's
    /// defaults `unknown` and `connection`, no name) [`Uuidkit`](ListenerKind::Uuidkit).
    pub fn from_name(name: &str) -> ListenerKind {
        match name {
            "uuidd" => ListenerKind::Uuidd,
            _ => ListenerKind::Uuidkit,
        }
    }
}

/// A listening socket the server accepts on, with the protocol its connections speak: one the
/// server binds itself, or one handed over by a service manager ([`activation_listeners`]).
///
/// ```
/// use std::os::unix::net::UnixListener;
/// use uuidkit_service::server::{Listener, ListenerKind};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-listener", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let l = Listener::new(UnixListener::bind(dir.join("s.sock"))?, ListenerKind::Uuidd, "uuidd");
/// assert_eq!((l.kind(), l.name()), (ListenerKind::Uuidd, "uuidd"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Listener {
    pub(super) socket: UnixListener,
    pub(super) kind: ListenerKind,
    pub(super) name: String,
}

impl Listener {
    /// A listener speaking `kind`, called `name` in the log.
    pub fn new(socket: UnixListener, kind: ListenerKind, name: impl Into<String>) -> Listener {
        Listener {
            socket,
            kind,
            name: name.into(),
        }
    }

    /// The protocol its connections speak.
    pub fn kind(&self) -> ListenerKind {
        self.kind
    }

    /// Its name (from `LISTEN_FDNAMES`, or given to [`new`](Listener::new)).
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The variables of socket activation.
const LISTEN_PID: &str = "LISTEN_PID";
const LISTEN_FDS: &str = "LISTEN_FDS";
const LISTEN_FDNAMES: &str = "LISTEN_FDNAMES";

/// The first descriptor passed (`SD_LISTEN_FDS_START`).
const FIRST_FD: RawFd = 3;

/// The most descriptors accepted: far more than any unit passes, and few enough that a
/// corrupt value cannot make the server inspect thousands of descriptors.
const MAX_FDS: usize = 64;

/// What the activation variables say: how many descriptors, and their names.
#[derive(Debug, PartialEq, Eq)]
struct Passed {
    count: usize,
    names: Vec<String>,
}

fn text<'a>(var: &str, v: &'a OsStr) -> Result<&'a str, ServerError> {
    std::str::from_utf8(v.as_bytes())
        .map_err(|_| ServerError::new(format!("{var} is not valid UTF-8: {v:?}")))
}

/// Reads the three variables (as found; `None` when unset) for the process `me`: `None` when
/// nothing was passed, else how many descriptors and their names; an error naming the variable
/// when they are inconsistent or not meant for this process.
fn parse_passed(
    pid: Option<&OsStr>,
    fds: Option<&OsStr>,
    names: Option<&OsStr>,
    me: u32,
) -> Result<Option<Passed>, ServerError> {
    let Some(fds) = fds else {
        if let Some(v) = pid.map(|_| LISTEN_PID).or(names.map(|_| LISTEN_FDNAMES)) {
            return Err(ServerError::new(format!(
                "socket activation: {v} is set but {LISTEN_FDS} is not"
            )));
        }
        return Ok(None);
    };
    let Some(pid) = pid else {
        return Err(ServerError::new(format!(
            "socket activation: {LISTEN_FDS} is set but {LISTEN_PID} is not"
        )));
    };
    let pid_text = text(LISTEN_PID, pid)?;
    match pid_text.parse::<u32>() {
        Ok(p) if p == me => {}
        Ok(p) if p > 0 => {
            return Err(ServerError::new(format!(
                "socket activation: {LISTEN_PID}={p} is not this process (pid {me}): the \
                 descriptors were passed to another process; unset {LISTEN_PID}, {LISTEN_FDS} \
                 and {LISTEN_FDNAMES} or start the server from the service manager"
            )))
        }
        _ => {
            return Err(ServerError::new(format!(
                "socket activation: {LISTEN_PID}={pid_text:?} is not a process id"
            )))
        }
    }
    let fds_text = text(LISTEN_FDS, fds)?;
    let count = match fds_text.parse::<usize>() {
        Ok(n) if (1..=MAX_FDS).contains(&n) && fds_text.bytes().all(|b| b.is_ascii_digit()) => n,
        _ => {
            return Err(ServerError::new(format!(
                "socket activation: {LISTEN_FDS}={fds_text:?}: expected a number of \
                 descriptors from 1 to {MAX_FDS}"
            )))
        }
    };
    let names = match names {
        None => vec![String::new(); count],
        Some(v) => {
            let v = text(LISTEN_FDNAMES, v)?;
            let names: Vec<String> = v.split(':').map(str::to_string).collect();
            if names.len() != count {
                return Err(ServerError::new(format!(
                    "socket activation: {LISTEN_FDNAMES}={v:?} has {} names for {count} \
                     descriptors ({LISTEN_FDS}={count})",
                    names.len()
                )));
            }
            names
        }
    };
    Ok(Some(Passed { count, names }))
}

/// What is wrong with `fd` as a passed listener, if anything: it must be open, a socket, of
/// the Unix domain, a stream socket, and listening.
fn check_listening_unix_stream(fd: RawFd) -> Result<(), String> {
    // SAFETY: F_GETFD takes no argument and only reads the descriptor table.
    if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
        return Err(format!("is not open ({})", io::Error::last_os_error()));
    }
    // SAFETY: `st` is a live, writable stat structure; fstat only writes it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above; `fd` is open (checked just above).
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(format!(
            "cannot be examined: {}",
            io::Error::last_os_error()
        ));
    }
    if st.st_mode & libc::S_IFMT != libc::S_IFSOCK {
        return Err("is not a socket".to_string());
    }
    let int_opt = |opt: libc::c_int, what: &str| -> Result<libc::c_int, String> {
        let mut v: libc::c_int = 0;
        let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        // SAFETY: `v` is a live, writable int and `len` holds its size.
        let rc =
            unsafe { libc::getsockopt(fd, libc::SOL_SOCKET, opt, (&raw mut v).cast(), &mut len) };
        if rc != 0 {
            return Err(format!(
                "cannot be examined ({what}): {}",
                io::Error::last_os_error()
            ));
        }
        Ok(v)
    };
    // SAFETY: sockaddr_storage is plain old data; all zeroes is a valid value.
    let mut addr: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    // SAFETY: `addr` is a live, writable sockaddr_storage and `len` holds its size.
    if unsafe { libc::getsockname(fd, (&raw mut addr).cast(), &mut len) } != 0 {
        return Err(format!(
            "cannot be examined (its address): {}",
            io::Error::last_os_error()
        ));
    }
    let family = libc::c_int::from(addr.ss_family);
    if family != libc::AF_UNIX {
        let name = match family {
            libc::AF_INET => "an IPv4 socket".to_string(),
            libc::AF_INET6 => "an IPv6 socket".to_string(),
            f => format!("a socket of address family {f}"),
        };
        return Err(format!(
            "is {name}, not a Unix socket (ListenStream= must name a path)"
        ));
    }
    let ty = int_opt(libc::SO_TYPE, "its type")?;
    if ty != libc::SOCK_STREAM {
        let name = match ty {
            libc::SOCK_DGRAM => "a datagram socket (ListenDatagram=)",
            libc::SOCK_SEQPACKET => "a sequenced-packet socket (ListenSequentialPacket=)",
            _ => "not a stream socket",
        };
        return Err(format!("is {name}, not a stream socket (ListenStream=)"));
    }
    if int_opt(libc::SO_ACCEPTCONN, "whether it listens")? == 0 {
        return Err(
            "is a Unix stream socket that is not listening (a connection, as Accept=yes \
             passes, is not supported: use Accept=no)"
                .to_string(),
        );
    }
    Ok(())
}

/// Marks `fd` close-on-exec, so that programs the server might run do not inherit it.
fn set_cloexec(fd: RawFd) -> io::Result<()> {
    // SAFETY: F_GETFD takes no argument; `fd` is open (checked by the caller).
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: F_SETFD takes an integer argument; `fd` is open.
    if unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The listening sockets a service manager passed to this process (systemd socket
/// activation), in order, each with its name and [`ListenerKind`]; empty when none were
/// passed (`LISTEN_FDS` unset).
///
/// Strict: `LISTEN_PID` must be this process, `LISTEN_FDS` a number from 1 to 64,
/// `LISTEN_FDNAMES` (if set) one name per descriptor, and each descriptor from 3 on a
/// listening Unix stream socket; otherwise an error naming the variable, or the descriptor and
/// what it is instead. In every case the three variables are removed from the environment
/// (so that child processes do not take the descriptors for theirs); the descriptors are made
/// close-on-exec and non-blocking.
///
/// Call it early, from the main thread, before other threads read the environment.
///
/// ```
/// use uuidkit_service::server::activation_listeners;
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::set_var("LISTEN_FDS", "1");
///     std::env::set_var("LISTEN_PID", "1"); // not this process
/// }
/// let e = activation_listeners().unwrap_err();
/// assert!(e.to_string().contains("LISTEN_PID=1 is not this process"), "{e}");
/// assert!(std::env::var_os("LISTEN_FDS").is_none()); // removed all the same
/// assert!(activation_listeners()?.is_empty()); // nothing passed
/// # Ok::<(), uuidkit_service::server::ServerError>(())
/// ```
pub fn activation_listeners() -> Result<Vec<Listener>, ServerError> {
    let pid = std::env::var_os(LISTEN_PID);
    let fds = std::env::var_os(LISTEN_FDS);
    let names = std::env::var_os(LISTEN_FDNAMES);
    for v in [LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES] {
        // SAFETY: the documented contract above: called early, from the main thread, before
        // other threads read the environment (`uuidkit serve` calls it first), so no getenv
        // runs beside this change.
        unsafe { std::env::remove_var(v) };
    }
    let Some(passed) = parse_passed(
        pid.as_deref(),
        fds.as_deref(),
        names.as_deref(),
        std::process::id(),
    )?
    else {
        return Ok(Vec::new());
    };
    // Every descriptor is checked before any is taken: on an error none is owned, and none
    // closed, by this function.
    for i in 0..passed.count {
        let fd = FIRST_FD + i as RawFd;
        check_listening_unix_stream(fd).map_err(|why| {
            ServerError::new(format!(
                "socket activation: descriptor {fd} ({}{}) {why}",
                describe_name(&passed.names[i]),
                if passed.count > 1 {
                    format!(", {} of {}", i + 1, passed.count)
                } else {
                    String::new()
                }
            ))
        })?;
    }
    let mut out = Vec::with_capacity(passed.count);
    for (i, name) in passed.names.into_iter().enumerate() {
        let fd = FIRST_FD + i as RawFd;
        // SAFETY: the service manager passed `fd` to this process for it to own (LISTEN_PID
        // is ours), it is open (checked above), and it is taken once: the variables are gone
        // from the environment, so nothing else in the process takes it again.
        let owned = unsafe { OwnedFd::from_raw_fd(fd) };
        set_cloexec(owned.as_raw_fd()).map_err(|e| {
            ServerError::io(
                format!("socket activation: descriptor {fd}: cannot set close-on-exec"),
                e,
            )
        })?;
        let socket = UnixListener::from(owned);
        socket.set_nonblocking(true).map_err(|e| {
            ServerError::io(
                format!("socket activation: descriptor {fd}: cannot make it non-blocking"),
                e,
            )
        })?;
        let kind = ListenerKind::from_name(&name);
        out.push(Listener { socket, kind, name });
    }
    Ok(out)
}

fn describe_name(name: &str) -> String {
    if name.is_empty() {
        "no name".to_string()
    } else {
        format!("named {name:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<&OsStr> {
        Some(OsStr::new(s))
    }

    #[test]
    fn nothing_passed() {
        assert_eq!(parse_passed(None, None, None, 7).unwrap(), None);
    }

    #[test]
    fn variables_read_strictly() {
        let ok = parse_passed(os("7"), os("2"), os("uuidkit:uuidd"), 7).unwrap();
        assert_eq!(
            ok,
            Some(Passed {
                count: 2,
                names: vec!["uuidkit".into(), "uuidd".into()]
            })
        );
        let unnamed = parse_passed(os("7"), os("1"), None, 7).unwrap().unwrap();
        assert_eq!(unnamed.names, vec![String::new()]);
        // LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES, the error wanted.
        type Case<'a> = (Option<&'a str>, Option<&'a str>, Option<&'a str>, &'a str);
        let cases: &[Case] = &[
            (
                Some("8"),
                Some("1"),
                None,
                "LISTEN_PID=8 is not this process (pid 7)",
            ),
            (
                Some("x"),
                Some("1"),
                None,
                "LISTEN_PID=\"x\" is not a process id",
            ),
            (
                Some("0"),
                Some("1"),
                None,
                "LISTEN_PID=\"0\" is not a process id",
            ),
            (
                None,
                Some("1"),
                None,
                "LISTEN_FDS is set but LISTEN_PID is not",
            ),
            (
                Some("7"),
                None,
                None,
                "LISTEN_PID is set but LISTEN_FDS is not",
            ),
            (
                None,
                None,
                Some("a"),
                "LISTEN_FDNAMES is set but LISTEN_FDS is not",
            ),
            (
                Some("7"),
                Some("0"),
                None,
                "LISTEN_FDS=\"0\": expected a number",
            ),
            (
                Some("7"),
                Some("+1"),
                None,
                "LISTEN_FDS=\"+1\": expected a number",
            ),
            (Some("7"), Some("65"), None, "from 1 to 64"),
            (Some("7"), Some("two"), None, "LISTEN_FDS=\"two\""),
            (
                Some("7"),
                Some("2"),
                Some("a"),
                "has 1 names for 2 descriptors",
            ),
            (
                Some("7"),
                Some("1"),
                Some("a:b"),
                "has 2 names for 1 descriptors",
            ),
        ];
        for (pid, fds, names, want) in cases {
            let e = parse_passed(
                pid.map(OsStr::new),
                fds.map(OsStr::new),
                names.map(OsStr::new),
                7,
            )
            .unwrap_err()
            .to_string();
            assert!(e.contains(want), "{pid:?} {fds:?} {names:?}: {e}");
        }
    }

    #[test]
    fn descriptors_checked() {
        use std::os::unix::net::{UnixDatagram, UnixStream};
        let dir = std::env::temp_dir().join(format!("uk-act-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let listening = UnixListener::bind(dir.join("l.sock")).unwrap();
        assert_eq!(check_listening_unix_stream(listening.as_raw_fd()), Ok(()));
        let (a, _b) = UnixStream::pair().unwrap();
        let e = check_listening_unix_stream(a.as_raw_fd()).unwrap_err();
        assert!(e.contains("not listening"), "{e}");
        let d = UnixDatagram::unbound().unwrap();
        let e = check_listening_unix_stream(d.as_raw_fd()).unwrap_err();
        assert!(e.contains("datagram"), "{e}");
        let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let e = check_listening_unix_stream(tcp.as_raw_fd()).unwrap_err();
        assert!(e.contains("IPv4") && e.contains("not a Unix socket"), "{e}");
        let file = std::fs::File::open("/dev/null").unwrap();
        let e = check_listening_unix_stream(file.as_raw_fd()).unwrap_err();
        assert!(e.contains("not a socket"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
