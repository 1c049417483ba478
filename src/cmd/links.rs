//! `uuidkit install-links`: the names `uuidgen` and `uuidparse` for this binary, under which
//! it is those util-linux tools (src/personality/).

use crate::args::InstallLinksArgs;
use crate::io::{CmdResult, Fatal, Out, Status};

/// The names made, in order.
const NAMES: [&str; 2] = ["uuidgen", "uuidparse"];

/// Runs `install-links`.
pub fn run(a: InstallLinksArgs) -> CmdResult {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| Fatal::Msg(format!("install-links: cannot find this binary: {e}")))?;
    if !a.dir.is_dir() {
        return Err(Fatal::Msg(format!(
            "install-links: {} is not a directory",
            a.dir.display()
        )));
    }
    let mut out = Out::stdout();
    for name in NAMES {
        let link = a.dir.join(name);
        if link.symlink_metadata().is_ok() {
            if !a.force {
                return Err(Fatal::Msg(format!(
                    "install-links: {} exists (--force replaces it)",
                    link.display()
                )));
            }
            std::fs::remove_file(&link).map_err(|e| {
                Fatal::Msg(format!("install-links: removing {}: {e}", link.display()))
            })?;
        }
        crate::sys::link(&exe, &link)
            .map_err(|e| Fatal::Msg(format!("install-links: {}: {e}", link.display())))?;
        out.fmt(format_args!("{} -> {}\n", link.display(), exe.display()))?;
    }
    out.flush()?;
    Ok(Status::Ok)
}
