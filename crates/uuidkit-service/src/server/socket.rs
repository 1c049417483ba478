//! The socket file: its path must fit in a socket address and its directory must not let
//! other users put a socket of their own there; a stale one left by a killed server is
//! replaced, anything else is left alone; a new one is bound in a private directory, given its
//! mode and group, and renamed into place.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;

use super::error::ServerError;
use super::log::Log;
use crate::sys;

/// The directory a socket path lives in (`.` for a bare file name).
fn socket_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks, before anything is created, that clients can reach a socket at `path` and that
/// nobody else can take its place:
///
/// - the path fits in a Unix socket address (`sun_path`: at most 107 bytes on Linux, 103 on
///   macOS and FreeBSD), since a longer one can be bound through a shorter directory name but
///   never connected to;
/// - its directory is owned by the server's user or root, and no other user may write to it
///   (neither "others" nor a group other than the server's own), unless it is sticky and owned
///   by the server's user (like `/tmp` for root): in such a directory anyone could bind the
///   socket first, or after a stop removed it, and answer the server's clients.
///
/// ```
/// use std::os::unix::fs::PermissionsExt;
/// use uuidkit_service::server::check_socket_path;
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-chkpath", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
/// check_socket_path(&dir.join("s.sock"))?;
/// let long = dir.join("x".repeat(120));
/// let e = check_socket_path(&long).unwrap_err();
/// assert!(e.to_string().contains("a Unix socket address holds at most"), "{e}");
/// // Writable by everyone, not sticky: anyone could put their own socket there.
/// std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777))?;
/// let e = check_socket_path(&dir.join("s.sock")).unwrap_err();
/// assert!(e.to_string().contains("writable by other users"), "{e}");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_socket_path(path: &Path) -> Result<(), ServerError> {
    let len = path.as_os_str().as_bytes().len();
    let max = sys::max_socket_path_len();
    if len > max {
        return Err(ServerError::new(format!(
            "socket path {} is {len} bytes long; a Unix socket address holds at most {max}, \
             so no client could connect: choose a shorter path",
            path.display()
        )));
    }
    if path.as_os_str().as_bytes().contains(&0) {
        return Err(ServerError::new(format!(
            "socket path {:?} contains a NUL byte",
            path.display()
        )));
    }
    let dir = socket_dir(path);
    let meta = fs::metadata(dir).map_err(|e| {
        ServerError::io(
            format!("socket directory {}: cannot stat", dir.display()),
            e,
        )
    })?;
    let me = sys::effective_uid();
    let mode = meta.mode();
    let sticky_and_mine = mode & 0o1000 != 0 && meta.uid() == me;
    if meta.uid() != me && meta.uid() != 0 {
        return Err(ServerError::new(format!(
            "socket directory {} belongs to uid {}, not to this server's user (uid {me}) or \
             root: its owner could replace the socket; use a directory of your own",
            dir.display(),
            meta.uid()
        )));
    }
    let others_write = mode & 0o002 != 0;
    let group_write = mode & 0o020 != 0 && meta.gid() != sys::effective_gid();
    if (others_write || group_write) && !sticky_and_mine {
        return Err(ServerError::new(format!(
            "socket directory {} (mode {:04o}) is writable by other users{}: another user \
             could bind the socket before this server, or after it stops, and answer its \
             clients; use a directory only this user may write (such as /run/uuidkit or \
             $XDG_RUNTIME_DIR)",
            dir.display(),
            mode & 0o7777,
            if mode & 0o1000 != 0 {
                " and, though sticky, not owned by this server's user"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

/// The group id for a group name or number (`getgrnam_r`).
///
/// ```
/// use uuidkit_service::server::group_id;
/// assert_eq!(group_id("4242")?, 4242); // a number is taken as it is
/// let e = group_id("no-such-group-uk").unwrap_err(); // a name must exist
/// assert!(e.to_string().contains("no-such-group-uk"), "{e}");
/// assert!(group_id("wheel\0").is_err());
/// # Ok::<(), uuidkit_service::server::ServerError>(())
/// ```
pub fn group_id(name: &str) -> Result<u32, ServerError> {
    if let Ok(n) = name.parse::<u32>() {
        return Ok(n);
    }
    let cname = CString::new(name)
        .map_err(|_| ServerError::new(format!("group {name:?}: contains NUL")))?;
    let mut buf = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: `group` is plain old data that getgrnam_r fills in; zeroed is a valid value.
    let mut grp: libc::group = unsafe { std::mem::zeroed() };
    let mut result: *mut libc::group = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call: a NUL-terminated name, a writable `group`,
    // a writable buffer of the length passed, and a writable result pointer.
    let rc = unsafe {
        libc::getgrnam_r(
            cname.as_ptr(),
            &mut grp,
            buf.as_mut_ptr(),
            buf.len(),
            &mut result,
        )
    };
    if rc != 0 {
        return Err(ServerError::io(
            format!("looking up group {name:?}"),
            io::Error::from_raw_os_error(rc),
        ));
    }
    if result.is_null() {
        return Err(ServerError::new(format!("no such group: {name:?}")));
    }
    Ok(grp.gr_gid)
}

/// Removes a socket left by a killed server; refuses to touch anything else.
pub(super) fn clear_stale_socket(path: &Path, log: &Log) -> Result<(), ServerError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(ServerError::io(
                format!("{}: cannot stat", path.display()),
                e,
            ))
        }
    };
    if !meta.file_type().is_socket() {
        return Err(ServerError::new(format!(
            "{} exists and is not a socket; not replacing it",
            path.display()
        )));
    }
    match UnixStream::connect(path) {
        Ok(_) => Err(ServerError::new(format!(
            "a server is already listening on {}",
            path.display()
        ))),
        Err(e) if e.raw_os_error() == Some(libc::ECONNREFUSED) => {
            log.line(format_args!("replacing stale socket {}", path.display()));
            Ok(()) // the rename in bind_private replaces it atomically
        }
        Err(e) => Err(ServerError::io(
            format!(
                "{}: cannot tell whether a server listens there",
                path.display()
            ),
            e,
        )),
    }
}

/// Binds in a private directory next to `path`, sets mode and group, renames into place.
pub(super) fn bind_private(
    path: &Path,
    mode: u32,
    group: Option<u32>,
) -> Result<UnixListener, ServerError> {
    let parent = socket_dir(path);
    let tmp_dir = parent.join(format!(
        ".uk{}-{:04x}",
        std::process::id(),
        uuidkit::generator::random_u64() as u16
    ));
    fs::DirBuilder::new()
        .mode(0o700)
        .create(&tmp_dir)
        .map_err(|e| ServerError::io(format!("cannot create {}", tmp_dir.display()), e))?;
    let tmp = tmp_dir.join("s");
    let result = (|| {
        let listener = UnixListener::bind(&tmp)
            .map_err(|e| ServerError::io(format!("cannot bind {}", tmp.display()), e))?;
        fs::set_permissions(&tmp, fs::Permissions::from_mode(mode))
            .map_err(|e| ServerError::io("cannot set the socket's mode", e))?;
        if let Some(gid) = group {
            std::os::unix::fs::chown(&tmp, None, Some(gid))
                .map_err(|e| ServerError::io(format!("cannot give the socket group {gid}"), e))?;
        }
        fs::rename(&tmp, path).map_err(|e| {
            ServerError::io(format!("cannot move the socket to {}", path.display()), e)
        })?;
        Ok(listener)
    })();
    let _ = fs::remove_file(&tmp);
    let _ = fs::remove_dir(&tmp_dir);
    result
}

/// Whether `path` is a socket file (a symbolic link is not followed): such as the one a
/// running server listens on, and removes when it stops.
///
/// ```
/// use std::os::unix::net::UnixListener;
/// use uuidkit_service::server::is_socket;
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-issock", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let _listener = UnixListener::bind(dir.join("s.sock"))?;
/// std::fs::write(dir.join("file"), b"")?;
/// assert!(is_socket(&dir.join("s.sock")));
/// assert!(!is_socket(&dir.join("file")) && !is_socket(&dir.join("missing")));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_socket(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket())
}
