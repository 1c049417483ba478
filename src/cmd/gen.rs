//! `uuidkit gen`: generate UUIDs.

use crate::args::GenArgs;
use crate::io::{CmdResult, Fatal};

/// What `gen` does.
pub struct Config {}

impl Config {
    /// From the flags.
    pub fn resolve(_a: GenArgs) -> Result<Config, clap::Error> {
        Err(super::usage_error(&["gen"], "not yet implemented"))
    }
}

/// Runs `gen`.
pub fn run(_c: &Config) -> CmdResult {
    Err(Fatal::Msg("not yet implemented".into()))
}
