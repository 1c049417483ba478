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
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .title(title.to_uppercase())
        .source(format!("uuidkit {}", env!("CARGO_PKG_VERSION")))
        .manual("User Commands")
        .render(&mut roff)
        .map_err(Fatal::Write)?;
    let mut out = Out::stdout();
    out.bytes(&no_fill_extra(&roff))?;
    out.flush()?;
    Ok(Status::Ok)
}

/// The page with its EXTRA section (the `--help` text after the options: tables, examples,
/// exit statuses, all laid out by hand within 78 columns) in a no-fill block (`.nf` ...
/// `.fi`), so that man shows those lines as written instead of refilling them; indented by
/// 2 rather than man's 7, so that they still fit 80 columns.
fn no_fill_extra(roff: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(roff.len() + 8);
    let mut in_extra = false;
    for line in roff.split_inclusive(|&b| b == b'\n') {
        if in_extra && line.starts_with(b".SH") {
            out.extend_from_slice(b".fi\n");
            in_extra = false;
        }
        out.extend_from_slice(line);
        if line.trim_ascii_end() == b".SH EXTRA" {
            out.extend_from_slice(b".nf\n.in 2\n");
            in_extra = true;
        }
    }
    if in_extra {
        if !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        out.extend_from_slice(b".fi\n");
    }
    out
}
