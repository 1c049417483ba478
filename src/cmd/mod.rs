//! One module per command. Each turns its clap arguments into a `Config` (reporting usage
//! errors, status 2) and runs it, returning a [`CmdResult`](crate::io::CmdResult).

use clap::CommandFactory;

use crate::args::{Cli, Command};
use crate::io;

pub mod convert;
pub mod gen;
pub mod inspect;
pub mod ldap;
pub mod meta;
pub mod serve;
pub mod sort;
pub mod state;
pub mod validate;

/// A usage error found after clap's parsing, in the subcommand named by `path`: printed like
/// clap's own (with that subcommand's usage line), status 2.
pub fn usage_error(path: &[&str], msg: impl std::fmt::Display) -> clap::Error {
    let mut cmd = Cli::command();
    cmd.build();
    subcommand(cmd, path).error(clap::error::ErrorKind::ValueValidation, msg)
}

/// The subcommand at `path`; as far as the path leads (the names are this program's own).
fn subcommand(cmd: clap::Command, path: &[&str]) -> clap::Command {
    match path.split_first() {
        Some((name, rest)) => match cmd.find_subcommand(name) {
            Some(sub) => subcommand(sub.clone(), rest),
            None => cmd,
        },
        None => cmd,
    }
}

/// Runs the command line and returns the process exit code.
pub fn run(cli: Cli) -> std::process::ExitCode {
    let result = match cli.command {
        Command::Gen(a) => match gen::Config::resolve(a) {
            Ok(c) => gen::run(c),
            Err(e) => e.exit(),
        },
        Command::Inspect(a) => inspect::run(inspect::Config::resolve(a)),
        Command::Validate(a) => validate::run(validate::Config::resolve(a)),
        Command::Convert(a) => convert::run(convert::Config::resolve(a)),
        Command::Sort(a) => sort::run(sort::Config::resolve(a)),
        Command::Compare(a) => sort::compare(a),
        Command::Ldap(a) => match ldap::Config::resolve(a) {
            Ok(c) => ldap::run(c),
            Err(e) => e.exit(),
        },
        Command::Serve(a) => match serve::Config::resolve(a) {
            Ok(c) => serve::run(c),
            Err(e) => e.exit(),
        },
        Command::State(a) => state::run(a),
        Command::Completions(a) => meta::completions(a),
        Command::Man(a) => meta::man(a),
    };
    io::finish(result)
}
