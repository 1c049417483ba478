//! Drop-in personalities: when the binary is run under the name `uuidgen` or `uuidparse` (a
//! symlink or hard link, as multi-call tools do), it takes that util-linux tool's options and
//! writes its formats, so that scripts written for util-linux keep working. `main` picks the
//! personality from the file name of argv[0] ([`invoked_as`]).
//!
//! The options are read as glibc's `getopt_long` reads them (the tools use it): short options
//! may be bundled (`-sn@dns`), a value may be attached or the next argument (whatever it
//! starts with: `-N -foo`), a long option may be abbreviated to any unambiguous prefix and take
//! its value as `--name=V` or `--name V`, operands may come before options, `--` ends options.
//! Its messages and exit status 1 for bad usage are the ones util-linux prints.
//!
//! Where these personalities deliberately differ from util-linux 2.38 is listed in the README
//! section "Drop-in for uuidgen and uuidparse" and in each `--help`.

use std::ffi::{OsStr, OsString};
use std::process::ExitCode;

// Option reading and output conventions shared by both (the layer below them).
mod getopt;
pub mod uuidgen;
pub mod uuidparse;

/// Which tool the binary was invoked as, from argv[0]; `None` for uuidkit itself.
pub fn invoked_as(argv0: &OsStr) -> Option<fn(Vec<OsString>) -> ExitCode> {
    let name = std::path::Path::new(argv0).file_name()?.to_str()?;
    let name = name.strip_suffix(".exe").unwrap_or(name);
    match name {
        "uuidgen" => Some(uuidgen::main),
        "uuidparse" => Some(uuidparse::main),
        _ => None,
    }
}
