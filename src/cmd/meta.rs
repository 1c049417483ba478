//! `uuidkit completions` and `uuidkit man`: shell completion scripts and manual pages, both
//! generated from the clap definitions in args.rs, so they cannot disagree with `--help`.

use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs, ManArgs};
use crate::io::{CmdResult, Fatal, Out, Status};

/// Writes the completion script for the shell.
pub fn completions(a: CompletionsArgs) -> CmdResult {
    let mut cmd = Cli::command();
    let mut out = Out::stdout();
    clap_complete::generate(a.shell, &mut cmd, "uuidkit", out.writer());
    out.flush()?;
    Ok(Status::Ok)
}

/// Writes the manual page of uuidkit, or of the command at `a.command` (e.g. `ldap match`),
/// titled `uuidkit-ldap-match`.
pub fn man(a: ManArgs) -> CmdResult {
    let mut cmd = Cli::command();
    // Fills in the full `uuidkit ldap match` usage names of the subcommands.
    cmd.build();
    let mut page = cmd;
    let mut title = String::from("uuidkit");
    for name in &a.command {
        let sub = page.find_subcommand(name).cloned().ok_or_else(|| {
            Fatal::Msg(format!(
                "man: no command `{name}` in `{title}` (commands: {})",
                page.get_subcommands()
                    .map(|c| c.get_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        title.push('-');
        title.push_str(name);
        page = sub;
    }
    let page = page
        .display_name(title.clone())
        .version(env!("CARGO_PKG_VERSION"));
    let mut out = Out::stdout();
    clap_mangen::Man::new(page)
        .title(title.to_uppercase())
        .source(format!("uuidkit {}", env!("CARGO_PKG_VERSION")))
        .manual("User Commands")
        .render(out.writer())
        .map_err(Fatal::Write)?;
    out.flush()?;
    Ok(Status::Ok)
}
