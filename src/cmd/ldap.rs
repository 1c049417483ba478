//! `uuidkit ldap`: the RFC 4530 schema elements, the two matching rules evaluated as a server
//! would, and entryUUID assignment for LDIF.

use std::ffi::OsString;

use crate::args::{usage_error, LdapArgs, LdapCommand, LdapRuleArgs};
use crate::io::{os_bytes, CmdResult, Fatal, Out, Status};
use crate::representation;
use crate::ui::{self, Origin};

/// Which rule `match`/`order` evaluates.
#[derive(Debug, Clone, Copy)]
pub enum Rule {
    /// uuidMatch (RFC 4530 §2.2).
    Equality,
    /// uuidOrderingMatch (RFC 4530 §2.3).
    Ordering,
}

/// The generator `add-entryuuid` uses.
#[derive(Debug, Clone, Copy)]
pub enum EntryUuidVersion {
    /// Random (RFC 9562 §5.4).
    V4,
    /// Time-ordered (RFC 9562 §5.7), from the process-wide generator.
    V7,
}

/// What `ldap` does.
pub enum Config {
    /// Print the schema.
    Schema,
    /// Evaluate a rule.
    Evaluate(Rule, LdapRuleArgs),
    /// Add entryUUID lines to LDIF.
    AddEntryUuid(EntryUuidVersion),
}

impl Config {
    /// From the flags; `--version` must name a generator this build has.
    pub fn resolve(a: LdapArgs) -> Result<Config, clap::Error> {
        Ok(match a.command {
            LdapCommand::Schema => Config::Schema,
            LdapCommand::Match(r) => Config::Evaluate(Rule::Equality, r),
            LdapCommand::Order(r) => Config::Evaluate(Rule::Ordering, r),
            LdapCommand::AddEntryUuid { version } => match version {
                4 => Config::AddEntryUuid(EntryUuidVersion::V4),
                7 => Config::AddEntryUuid(EntryUuidVersion::V7),
                v => {
                    return Err(usage_error(
                        &["ldap", "add-entryuuid"],
                        format_args!("ldap add-entryuuid --version {v}: expected 4 or 7"),
                    ))
                }
            },
        })
    }
}

/// Runs `ldap`.
pub fn run(c: Config) -> CmdResult {
    match c {
        Config::Schema => schema(),
        Config::Evaluate(rule, r) => evaluate(rule, &r.assertion, &r.value, r.json),
        Config::AddEntryUuid(v) => add_entry_uuid(v),
    }
}

/// The four descriptions as the attributes of a subschema subentry hold them (RFC 4512 §4.2),
/// one per line, ready to paste into LDIF.
fn schema() -> CmdResult {
    use uuidkit::ldap;
    let mut out = Out::stdout();
    for (attr, desc) in [
        ("ldapSyntaxes", ldap::SYNTAX_UUID),
        ("matchingRules", ldap::UUID_MATCH),
        ("matchingRules", ldap::UUID_ORDERING_MATCH),
        ("attributeTypes", ldap::ENTRY_UUID),
    ] {
        out.fmt(format_args!("{attr}: {desc}\n"))?;
    }
    out.flush()?;
    Ok(Status::Ok)
}

/// Evaluates the rule and prints TRUE or FALSE, or with `json` an object
/// `{"rule", "assertion", "value", "result"}`. An invalid value is reported on standard error
/// with a caret (argument 1 the assertion, 2 the value), or with `json` as an error object on
/// standard output.
fn evaluate(rule: Rule, assertion: &OsString, value: &OsString, json: bool) -> CmdResult {
    let (a, v) = (os_bytes(assertion), os_bytes(value));
    let (name, result) = match rule {
        Rule::Equality => ("uuidMatch", uuidkit::ldap::uuid_match(&a, &v)),
        Rule::Ordering => (
            "uuidOrderingMatch",
            uuidkit::ldap::uuid_ordering_rule(&a, &v),
        ),
    };
    let mut out = Out::stdout();
    let status = match result {
        Ok(truth) if json => {
            out.fmt(format_args!("{{\"rule\":\"{name}\",\"assertion\":"))?;
            representation::json_string(&mut out, &String::from_utf8_lossy(&a))?;
            out.bytes(b",\"value\":")?;
            representation::json_string(&mut out, &String::from_utf8_lossy(&v))?;
            out.fmt(format_args!(",\"result\":{truth}}}\n"))?;
            Status::Ok
        }
        Ok(truth) => {
            out.bytes(if truth { b"TRUE\n" } else { b"FALSE\n" })?;
            Status::Ok
        }
        Err(e) => {
            let (arg, bytes) = match e.side() {
                uuidkit::ldap::Side::Assertion => (1, &a),
                uuidkit::ldap::Side::Value => (2, &v),
            };
            let err = e.error();
            if json {
                representation::json_invalid(
                    &mut out,
                    arg,
                    &representation::ParseError::Uuid(err),
                    &String::from_utf8_lossy(bytes),
                )?;
            } else {
                let at = ui::BadInput {
                    origin: Origin::Argument,
                    no: arg,
                    bytes,
                    cut: false,
                    pos: err.position(),
                };
                ui::report_input(&at, &e);
            }
            Status::Invalid
        }
    };
    out.flush()?;
    Ok(status)
}

/// Copies the LDIF on standard input to standard output with entryUUID lines added.
fn add_entry_uuid(version: EntryUuidVersion) -> CmdResult {
    // A system clock outside v7's range (before 1970) is found before anything is written.
    let mut clock_error = match version {
        EntryUuidVersion::V7 => uuidkit::generator::try_v7().err(),
        EntryUuidVersion::V4 => None,
    };
    if let Some(e) = clock_error {
        return Err(Fatal::Msg(format!("ldap add-entryuuid --version 7: {e}")));
    }
    let mut next = || match version {
        EntryUuidVersion::V4 => uuidkit::v4(),
        EntryUuidVersion::V7 => match uuidkit::generator::try_v7() {
            Ok(u) => u,
            Err(e) => {
                // Reported below; the run fails with status 2.
                clock_error.get_or_insert(e);
                uuidkit::Uuid::NIL
            }
        },
    };
    let mut out = Out::stdout();
    let result = uuidkit::ldif::add_entry_uuid(std::io::stdin().lock(), out.writer(), &mut next);
    if let Some(e) = clock_error {
        return Err(Fatal::Msg(format!("ldap add-entryuuid --version 7: {e}")));
    }
    match result {
        Ok(_) => {
            out.flush()?;
            Ok(Status::Ok)
        }
        Err(e) => match e.io_error() {
            // Reading and writing errors come back merged; a closed output pipe is the one
            // that is not a failure.
            Some(io) if io.kind() == std::io::ErrorKind::BrokenPipe => Err(Fatal::Write(
                std::io::Error::from(std::io::ErrorKind::BrokenPipe),
            )),
            Some(io) => Err(Fatal::Msg(format!("ldap add-entryuuid: {io}"))),
            None => {
                out.flush()?;
                crate::io::error(format_args!("{e}"));
                Ok(Status::Invalid)
            }
        },
    }
}
