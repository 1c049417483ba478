//! `uuidkit ldap`: RFC 4530 schema, matching rules and entryUUID for LDIF.

use crate::args::LdapArgs;
use crate::io::{CmdResult, Fatal};

/// What `ldap` does.
pub struct Config {}

impl Config {
    /// From the flags.
    pub fn resolve(_a: LdapArgs) -> Result<Config, clap::Error> {
        Err(super::usage_error("not yet implemented"))
    }
}

/// Runs `ldap`.
pub fn run(_c: Config) -> CmdResult {
    Err(Fatal::Msg("not yet implemented".into()))
}
