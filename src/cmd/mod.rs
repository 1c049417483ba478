//! One module per command. Each turns its clap arguments into a `Config` (reporting usage
//! errors, status 2) and runs it, returning a [`CmdResult`](crate::io::CmdResult).

use crate::args::{Cli, Command};
use crate::io;

pub mod convert;
pub mod generate;
pub mod inspect;
pub mod ldap;
pub mod links;
pub mod meta;
#[cfg(unix)]
pub mod serve;
pub mod sort;
#[cfg(unix)]
pub mod state;
pub mod validate;

/// Runs the command line and returns the process exit code.
pub fn run(cli: Cli) -> std::process::ExitCode {
    crate::ui::set_color_flag(cli.color.forced());
    let result = match cli.command {
        Command::Gen(a) => match generate::Config::resolve(a) {
            Ok(c) => generate::run(c),
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
        #[cfg(unix)]
        Command::Serve(a) => match serve::Config::resolve(a) {
            Ok(c) => serve::run(c),
            Err(e) => e.exit(),
        },
        #[cfg(unix)]
        Command::State(a) => state::run(a),
        #[cfg(not(unix))]
        Command::Serve(_) => Err(io::Fatal::Msg(crate::args::unix_only("serve"))),
        #[cfg(not(unix))]
        Command::State(_) => Err(io::Fatal::Msg(crate::args::unix_only("state"))),
        Command::Completions(a) => meta::completions(a),
        Command::Man(a) => meta::man(a),
        Command::InstallLinks(a) => links::run(a),
    };
    io::finish(result)
}
