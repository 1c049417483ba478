//! The command line as clap sees it: one struct per subcommand whose fields mirror the flags one
//! for one, for every command (the help texts included). Checks that involve several flags, and
//! the translation into what the work needs, happen afterwards in each command's
//! `Config::resolve` (src/cmd/*.rs), which reports a problem with [`usage_error`] the way clap
//! reports its own. Nothing here uses the commands: they depend on this module, not the other
//! way round.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

const MAIN_EXAMPLES: &str = "\
Input:
  Commands that read UUIDs take them as arguments or, when none are given,
  from standard input, one per line (a trailing \\r is dropped; nothing else is
  trimmed). For files with a UTF-8 BOM, surrounding spaces or blank lines,
  inspect, validate, convert and sort take --tokens: the input is read as
  whitespace-separated tokens, as uuidparse reads it.

Errors:
  An invalid input is reported on standard error as
  error: line 2: invalid character 'x' at byte 9: expected a hexadecimal digit
    67e55044-x0b1-426f-9247-bb680e5fe0c8
             ^
  (\"argument N\" for arguments; bytes are counted from 0). Control characters
  and bytes that are not UTF-8 are shown escaped (\\x1b, \\xff); a long input is
  shown as a window around the problem. Commands with --json report invalid
  input as JSON on standard output instead.

Terminal:
  --color always or never decides colour, whatever the environment says. With
  --color auto (the default), colour only when the output is a terminal and
  TERM is not dumb; NO_COLOR (any non-empty value) turns it off,
  CLICOLOR_FORCE (non-empty, not 0) turns it on anywhere. Help and usage
  errors follow clap's rule for auto, which differs: CLICOLOR=0 or an unset
  TERM also turn their colour off. Long runs of gen, convert and validate show
  a progress line on standard error when it is a terminal and standard output
  is not; it is shortened to fit the terminal's width, cleared at the end and
  on SIGINT or SIGTERM, and never written to a file or pipe.

Exit status:
  0  success
  1  some input was invalid (the rest was still processed)
  2  usage error, or reading/writing failed
  A closed output pipe (uuidkit gen -C 1000000 | head -1) ends quietly with
  status 0, or 1 when an invalid input was found before it closed.

Examples:
  uuidkit gen v7 -C 3
  uuidkit inspect 017F22E2-79B0-7CC3-98C4-DC0C0C07398F
  uuidkit validate < ids.txt
  uuidkit convert --to int 6ba7b810-9dad-11d1-80b4-00c04fd430c8
  uuidkit sort --unique < ids.txt
  uuidkit ldap add-entryuuid < people.ldif
  uuidkit completions bash > /usr/share/bash-completion/completions/uuidkit
  uuidkit man > uuidkit.1
  uuidkit install-links ~/.local/bin   # then run it as uuidgen, uuidparse";

/// Generate, inspect, validate, convert and sort UUIDs (RFC 9562).
#[derive(Debug, Parser)]
#[command(name = "uuidkit", version, after_help = MAIN_EXAMPLES, max_term_width = 80)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
    /// Colour on standard output and error: auto (a terminal, unless NO_COLOR),
    /// always or never (both win over NO_COLOR and CLICOLOR_FORCE).
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t = ColorWhen::Auto
    )]
    pub color: ColorWhen,
}

/// Parses the command line (argv[0] included) into a [`Cli`], with `--color` applied to
/// clap's own help and usage errors and `--version` describing the build ([`long_version`]).
pub fn parse(argv: Vec<OsString>) -> Result<Cli, clap::Error> {
    let mut cmd = Cli::command().color(ColorWhen::scan(&argv).clap());
    // Only asked for with --version (-V prints the first line alone); the CPU check of
    // `simd_level` is left out of every other run.
    if argv.iter().skip(1).any(|a| a == "--version") {
        cmd = cmd.long_version(long_version());
    }
    let m = cmd.try_get_matches_from_mut(argv)?;
    Cli::from_arg_matches(&m).map_err(|e| e.format(&mut cmd))
}

/// The name-based hashes the CLI builds the library with (its `Cargo.toml`; a test checks
/// that the two agree).
pub const LIBRARY_FEATURES: &str = "v3 v5 v8-sha2 v8-sha3";

/// What `--version` prints after `uuidkit `: the version alone on the first line (as `-V`
/// prints it, and as scripts read it), then the target, the SIMD level the text codecs use
/// on this CPU, the library's features and whether the service is built in.
pub fn long_version() -> &'static str {
    let service = if cfg!(unix) {
        "yes (serve, state, gen --system)"
    } else {
        "no (it needs Unix sockets)"
    };
    let text = format!(
        "{}\ntarget: {}\nsimd: {} (chosen at run time from the CPU's features)\n\
         features: {LIBRARY_FEATURES} (name-based UUIDs: MD5, SHA-1, SHA-2, SHA-3)\n\
         service: {service}",
        env!("CARGO_PKG_VERSION"),
        target_triple(),
        uuidkit::simd_level(),
    );
    Box::leak(text.into_boxed_str())
}

/// The target triple the binary was built for (`x86_64-unknown-linux-gnu`), from the
/// compiler's `cfg` values: architecture, vendor, system and C library (a test compares it
/// with `rustc -vV`'s host).
pub fn target_triple() -> String {
    let vendor = if cfg!(target_vendor = "apple") {
        "apple"
    } else if cfg!(target_vendor = "pc") {
        "pc"
    } else {
        "unknown"
    };
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        os => os,
    };
    let env = if cfg!(target_env = "gnu") {
        "-gnu"
    } else if cfg!(target_env = "musl") {
        "-musl"
    } else if cfg!(target_env = "msvc") {
        "-msvc"
    } else {
        ""
    };
    format!("{}-{vendor}-{os}{env}", std::env::consts::ARCH)
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set or TERM is dumb.
    Auto,
    /// Colour always, whatever the environment says.
    Always,
    /// No colour.
    Never,
}

impl ColorWhen {
    /// `Some(on)` when the choice does not depend on the environment.
    pub fn forced(self) -> Option<bool> {
        match self {
            ColorWhen::Auto => None,
            ColorWhen::Always => Some(true),
            ColorWhen::Never => Some(false),
        }
    }

    /// The last `--color WHEN` or `--color=WHEN` of `argv` before a `--`, read before clap
    /// parses the line, so that clap's own help and usage errors follow it too (an invalid
    /// value is left to clap to report).
    pub fn scan(argv: &[OsString]) -> ColorWhen {
        let mut when = ColorWhen::Auto;
        let mut args = argv.iter().skip(1).map(|a| a.to_str());
        while let Some(a) = args.next() {
            let value = match a {
                Some("--") => break,
                Some("--color") => args.next().flatten(),
                Some(a) => a.strip_prefix("--color="),
                None => None,
            };
            if let Some(w) = value.and_then(|v| ColorWhen::from_str(v, false).ok()) {
                when = w;
            }
        }
        when
    }

    /// clap's colour setting for this choice.
    pub fn clap(self) -> clap::ColorChoice {
        match self {
            ColorWhen::Auto => clap::ColorChoice::Auto,
            ColorWhen::Always => clap::ColorChoice::Always,
            ColorWhen::Never => clap::ColorChoice::Never,
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate UUIDs of any version.
    Gen(GenArgs),
    /// Decode every field of UUIDs.
    Inspect(InspectArgs),
    /// Check UUIDs; report each invalid one as LINE:COLUMN: message.
    Validate(ValidateArgs),
    /// Convert UUIDs between representations.
    Convert(ConvertArgs),
    /// Sort UUIDs in uuidOrderingMatch (byte) order.
    Sort(SortArgs),
    /// Compare two UUIDs in byte order; print -1, 0 or 1.
    Compare(CompareArgs),
    /// LDAP (RFC 4530): schema, matching rules, entryUUID for LDIF.
    Ldap(LdapArgs),
    /// Run the system-wide v1/v6/v7 generator service on a Unix socket.
    // Where there is no service (not Unix), `serve`, `state` and `gen --system` still parse, so
    // that asking for them gets `unix_only`'s sentence rather than "unrecognized subcommand",
    // but are left out of the help.
    #[cfg_attr(not(unix), command(hide = true))]
    Serve(ServeArgs),
    /// Inspect a generator state file (the one `uuidkit serve` keeps).
    #[cfg_attr(not(unix), command(hide = true))]
    State(StateArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of uuidkit or of one of its commands.
    #[command(after_help = MAN_EXAMPLES)]
    Man(ManArgs),
    /// Make the links `uuidgen` and `uuidparse` to this binary (util-linux drop-ins).
    #[command(after_help = INSTALL_LINKS_EXAMPLES)]
    InstallLinks(InstallLinksArgs),
}

const INSTALL_LINKS_EXAMPLES: &str = "\
Output:
  Makes DIR/uuidgen and DIR/uuidparse, symbolic links to this binary (hard
  links where there are no symbolic links); run under those names it takes
  util-linux's options and prints its formats. One line per link made. An
  existing file of that name is an error unless --force. The same by hand:
    ln -s \"$(command -v uuidkit)\" DIR/uuidgen     (and DIR/uuidparse)

Examples:
  uuidkit install-links ~/.local/bin
  uuidkit install-links --force /usr/local/bin";

/// `uuidkit install-links`.
#[derive(Debug, Args)]
pub struct InstallLinksArgs {
    /// Replace a file that is already there.
    #[arg(short, long)]
    pub force: bool,
    /// The directory to make the links in (it must exist).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

const COMPLETIONS_EXAMPLES: &str = "\
Output:
  The completion script for SHELL on standard output, generated from the same
  definitions as --help, so it knows every command, flag and value.

Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  uuidkit completions bash \\
      > ~/.local/share/bash-completion/completions/uuidkit
  uuidkit completions zsh > \"${fpath[1]}/_uuidkit\"
  mkdir -p ~/.config/fish/completions
  uuidkit completions fish > ~/.config/fish/completions/uuidkit.fish
  source <(uuidkit completions bash)        # this shell only";

/// `uuidkit completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

const MAN_EXAMPLES: &str = "\
Output:
  A manual page in roff on standard output: uuidkit(1) by default, or the page
  of the command named, e.g. uuidkit-gen(1) or uuidkit-ldap-match(1).

Pages:
  uuidkit, uuidkit-gen, uuidkit-inspect, uuidkit-validate, uuidkit-convert,
  uuidkit-sort, uuidkit-compare, uuidkit-ldap, uuidkit-ldap-schema,
  uuidkit-ldap-match, uuidkit-ldap-order, uuidkit-ldap-add-entryuuid,
  uuidkit-serve, uuidkit-state, uuidkit-state-show, uuidkit-state-reset,
  uuidkit-completions, uuidkit-man, uuidkit-install-links

Examples:
  uuidkit man | man -l -
  uuidkit man gen > uuidkit-gen.1
  uuidkit man ldap add-entryuuid | man -l -
  for c in '' gen inspect validate convert sort compare ldap \\
      'ldap schema' 'ldap match' 'ldap order' 'ldap add-entryuuid' \\
      serve state 'state show' 'state reset' completions man install-links; do
    p=uuidkit${c:+-${c// /-}}; uuidkit man $c > \"$p.1\"
  done";

/// `uuidkit man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (e.g. `gen`, or `ldap match`); uuidkit's own when none.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

const INSPECT_EXAMPLES: &str = "\
Output:
  Text: one block of aligned `field: value` lines per UUID, a blank line
  between blocks; an input that does not parse is reported on standard error
  as `error: line N: message`, with the input and a caret under the problem
  (see uuidkit --help), and the exit status is 1.

  --json: JSON Lines, one object per input, in input order. Keys always
  present:
    input    the input as given (invalid UTF-8 replaced by U+FFFD; lines over
             4096 bytes cut)
    uuid     lower-case hyphenated
    variant  \"ncs\", \"rfc9562\", \"microsoft\" or \"future\"
    version  the version field as an integer; null unless the variant is
             rfc9562
    kind     \"nil\", \"max\", \"v1\" ... \"v8\" or \"unknown\"
    time     RFC 3339 UTC at the layout's precision (7 fraction digits for v1,
             v2, v6; 3 for v7); null when the UUID carries no time
    int      the 128-bit value as a decimal string
    urn      urn:uuid:...
  Keys present only for their layout (never null):
    v1, v6:  gregorian_ticks, clock_seq, node (\"xx:xx:xx:xx:xx:xx\")
    v2:      gregorian_ticks (coarse: the low 32 bits read as 0), clock_seq (6
             bits), local_domain (0 person, 1 group, 2 org, ...), local_id,
             node
    v7:      unix_ts_ms, rand_a, rand_b
    v8:      custom_a, custom_b, custom_c
  Then, always, the attribute names of Python's uuid.UUID:
    time_low, time_mid, time_hi_version, clock_seq_hi_variant, clock_seq_low
             the RFC 4122 fields, as numbers
    hex      32 lower-case hex digits
    bytes_le 32 hex digits of the bytes in Microsoft GUID order
  Fields wider than 53 bits (gregorian_ticks, rand_b, custom_c, int) are
  decimal strings, so that JavaScript reads them exactly; the others are JSON
  numbers. An input that does not parse gives {\"input\", \"error\", \"line\",
  \"column\"} instead; the rest is still processed and the exit status is 1.

  --from reads the forms convert --from reads (int, oid, guid-hex, ulid,
  base32hex, base58, base58-flickr, base64url, typeid). Without it, an input
  holding a '_' is read as a TypeID (no other form has one): its prefix is
  shown on a `prefix` line (a \"prefix\" key in JSON) before the UUID's fields.

Examples:
  uuidkit inspect 017F22E2-79B0-7CC3-98C4-DC0C0C07398F
  uuidkit inspect --from int 143098242404177361603877621312831893704
  uuidkit inspect --json C232AB00-9414-11EC-B3C8-9F6BDECED846
  uuidkit gen v7 -C 5 | uuidkit inspect --json";

/// `uuidkit inspect`.
#[derive(Debug, Args)]
#[command(after_help = INSPECT_EXAMPLES)]
pub struct InspectArgs {
    /// Write JSON Lines (one object per input) instead of text blocks.
    #[arg(long)]
    pub json: bool,
    /// Read this form instead of the four text forms.
    #[arg(long, value_enum, default_value_t = FromForm::Text)]
    pub from: FromForm,
    /// Read whitespace-separated tokens, as uuidparse does: a UTF-8 BOM, spaces, tabs and
    /// blank lines are skipped (reports name the line; columns count within the token).
    #[arg(long)]
    pub tokens: bool,
    /// UUIDs in any of the four text forms or as prefixed TypeIDs; standard input when none
    /// are given.
    #[arg(value_name = "UUID")]
    pub uuids: Vec<OsString>,
}

const VALIDATE_EXAMPLES: &str = "\
Output:
  The report is the data, so it goes to standard output: one line per invalid
  input, LINE:COLUMN: message, where LINE is the index of the argument (or the
  line number of standard input) and COLUMN the 1-based byte where the problem
  was found. Valid inputs print nothing. When standard output is a terminal,
  each such line is followed by the input and a caret under the problem
  (escaped and windowed as for errors); in a file or pipe it is not. Exit
  status 0 when every input is valid, 1 otherwise.

  --json: JSON Lines, one object per invalid input, keys in this order:
    line     the line number (or argument index), 1-based
    column   the 1-based byte where the problem was found
    kind     length, char, hyphen, group_length, prefix, braces, overflow,
             leading_zero or form (what ErrorKind says; \"other\" for kinds
             added later)
    message  the same text as the plain report
    input    the input as given (invalid UTF-8 replaced by U+FFFD; lines over
             4096 bytes cut)

Examples:
  uuidkit validate 017F22E2-79B0-7CC3-98C4-DC0C0C07398F
  uuidkit validate --quiet \"$id\" && echo valid
  uuidkit validate < ids.txt
  uuidkit validate --json < ids.txt | jq -r .kind | sort | uniq -c";

/// `uuidkit validate`.
#[derive(Debug, Args)]
#[command(after_help = VALIDATE_EXAMPLES)]
pub struct ValidateArgs {
    /// Print nothing; only the exit status tells.
    #[arg(short, long, conflicts_with = "json")]
    pub quiet: bool,
    /// Write one JSON object per invalid input (JSON Lines) instead of LINE:COLUMN: message.
    #[arg(long)]
    pub json: bool,
    /// Read this form instead of the four text forms.
    #[arg(long, value_enum, default_value_t = FromForm::Text)]
    pub from: FromForm,
    /// Read whitespace-separated tokens, as uuidparse does: a UTF-8 BOM, spaces, tabs and
    /// blank lines are skipped (reports name the line; columns count within the token).
    #[arg(long)]
    pub tokens: bool,
    /// UUIDs; standard input when none are given.
    #[arg(value_name = "UUID")]
    pub uuids: Vec<OsString>,
}

/// The forms `--from` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FromForm {
    /// Hyphenated, simple (32 hex digits), braced or urn:uuid: (RFC 9562 §4), either case.
    Text,
    /// The 128-bit value in decimal.
    Int,
    /// An OID under 2.25 (`2.25.N` or `urn:oid:2.25.N`).
    Oid,
    /// 32 hex digits of the Microsoft GUID byte order (first three fields little-endian).
    GuidHex,
    /// ULID text: 26 Crockford base32 characters, either case.
    Ulid,
    /// base32hex (RFC 4648 §7), 26 characters unpadded, either case.
    Base32hex,
    /// base58, Bitcoin alphabet, 22 characters.
    Base58,
    /// base58, Flickr alphabet (short-uuid's), 22 characters.
    #[value(name = "base58-flickr")]
    Base58Flickr,
    /// base64url (RFC 4648 §5), 22 characters unpadded.
    Base64url,
    /// A TypeID (spec v0.3.0) with any prefix, or none.
    Typeid,
}

impl FromForm {
    /// The short form of the library this names, if it is one.
    pub fn short(self) -> Option<uuidkit::ShortForm> {
        use uuidkit::ShortForm as S;
        match self {
            FromForm::Ulid => Some(S::Ulid),
            FromForm::Base32hex => Some(S::Base32Hex),
            FromForm::Base58 => Some(S::Base58),
            FromForm::Base58Flickr => Some(S::Base58Flickr),
            FromForm::Base64url => Some(S::Base64Url),
            FromForm::Text
            | FromForm::Int
            | FromForm::Oid
            | FromForm::GuidHex
            | FromForm::Typeid => None,
        }
    }
}

/// The forms `--to` and `--format` write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToForm {
    /// 8-4-4-4-12 hex digits.
    Hyphenated,
    /// 32 hex digits.
    Simple,
    /// {8-4-4-4-12}.
    Braced,
    /// urn:uuid:8-4-4-4-12.
    Urn,
    /// The 128-bit value in decimal.
    Int,
    /// 2.25.N (X.667 / ITU-T OID arc for UUIDs).
    Oid,
    /// urn:oid:2.25.N.
    OidUrn,
    /// 32 hex digits of the Microsoft GUID byte order (first three fields little-endian).
    GuidHex,
    /// The 16 bytes themselves (big-endian, RFC 9562 §4), no newline: binary output.
    Bytes,
    /// The 16 bytes in base64 (RFC 4648 §4, padded: 24 characters).
    Base64,
    /// One of the short forms (ULID, base32hex, base58, base58-flickr, base64url).
    Short(uuidkit::ShortForm),
    /// A TypeID with this prefix (`typeid` alone: none).
    TypeId(uuidkit::Prefix),
}

/// The names `--to` and `--format` take (`typeid:PREFIX` aside), with their help.
const TO_FORMS: [(&str, ToForm, &str); 16] = [
    ("hyphenated", ToForm::Hyphenated, "8-4-4-4-12 hex digits"),
    ("simple", ToForm::Simple, "32 hex digits"),
    ("braced", ToForm::Braced, "{8-4-4-4-12}"),
    ("urn", ToForm::Urn, "urn:uuid:8-4-4-4-12"),
    ("int", ToForm::Int, "The 128-bit value in decimal"),
    (
        "oid",
        ToForm::Oid,
        "2.25.N (X.667 / ITU-T OID arc for UUIDs)",
    ),
    ("oid-urn", ToForm::OidUrn, "urn:oid:2.25.N"),
    (
        "guid-hex",
        ToForm::GuidHex,
        "32 hex digits of the Microsoft GUID byte order (first three fields little-endian)",
    ),
    (
        "bytes",
        ToForm::Bytes,
        "The 16 bytes themselves (big-endian, RFC 9562 §4), no newline: binary output",
    ),
    (
        "base64",
        ToForm::Base64,
        "The 16 bytes in base64 (RFC 4648 §4, padded: 24 characters)",
    ),
    (
        "ulid",
        ToForm::Short(uuidkit::ShortForm::Ulid),
        "ULID text: 26 Crockford base32 characters, upper case",
    ),
    (
        "base32hex",
        ToForm::Short(uuidkit::ShortForm::Base32Hex),
        "base32hex (RFC 4648 §7): 26 characters, unpadded, sorts like the bytes",
    ),
    (
        "base58",
        ToForm::Short(uuidkit::ShortForm::Base58),
        "base58, Bitcoin alphabet, left-padded with 1 to 22 characters",
    ),
    (
        "base58-flickr",
        ToForm::Short(uuidkit::ShortForm::Base58Flickr),
        "base58, Flickr alphabet (short-uuid's), padded to 22 characters",
    ),
    (
        "base64url",
        ToForm::Short(uuidkit::ShortForm::Base64Url),
        "base64url (RFC 4648 §5): 22 characters, unpadded",
    ),
    (
        "typeid",
        ToForm::TypeId(uuidkit::Prefix::EMPTY),
        "TypeID (spec v0.3.0) without a prefix; typeid:PREFIX for PREFIX_...",
    ),
];

/// Parses `--to`/`--format`: a name of [`TO_FORMS`] or `typeid:PREFIX`; lists the names for
/// help, man pages and completions.
#[derive(Clone, Copy)]
pub struct ToFormParser;

impl clap::builder::TypedValueParser for ToFormParser {
    type Value = ToForm;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<ToForm, clap::Error> {
        let invalid = |msg: String| {
            let mut e = clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd);
            if let Some(a) = arg {
                e.insert(
                    clap::error::ContextKind::InvalidArg,
                    clap::error::ContextValue::String(a.to_string()),
                );
            }
            e.insert(
                clap::error::ContextKind::InvalidValue,
                clap::error::ContextValue::String(msg),
            );
            e.insert(
                clap::error::ContextKind::ValidValue,
                clap::error::ContextValue::Strings(
                    TO_FORMS
                        .iter()
                        .map(|(n, ..)| n.to_string())
                        .chain(["typeid:PREFIX".to_string()])
                        .collect(),
                ),
            );
            e
        };
        let s = value.to_string_lossy();
        if let Some(p) = s.strip_prefix("typeid:") {
            return uuidkit::Prefix::new(p).map(ToForm::TypeId).map_err(|e| {
                let mut err = clap::Error::raw(
                    clap::error::ErrorKind::InvalidValue,
                    format!("invalid value '{s}': the prefix {p:?}: {e}\n"),
                );
                err = err.with_cmd(cmd);
                err
            });
        }
        TO_FORMS
            .iter()
            .find(|(n, ..)| *n == s)
            .map(|(_, f, _)| *f)
            .ok_or_else(|| invalid(s.into_owned()))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(TO_FORMS.iter().map(|(n, _, h)| {
            clap::builder::PossibleValue::new(*n).help(*h)
        })))
    }
}

const CONVERT_EXAMPLES: &str = "\
Output:
  One converted line per valid input on standard output; an invalid input is
  reported on standard error as `error: line N: message` with the input and a
  caret (see uuidkit --help), the rest is still converted, and the exit status
  is 1. --upper affects hex digits only (the urn:uuid: prefix stays lower
  case). --to bytes writes the 16 bytes of each UUID with nothing between
  them (binary); --to base64 one line of 24 characters per UUID. An argument
  that starts with '-' (base64url does, one time in 64) follows `--`.

Examples:
  uuidkit convert --to int 6ba7b810-9dad-11d1-80b4-00c04fd430c8
  uuidkit convert --to base64 6ba7b810-9dad-11d1-80b4-00c04fd430c8
  uuidkit convert --from int --to hyphenated \\
      143098242404177361603877621312831893704
  uuidkit convert --to oid-urn < ids.txt
  uuidkit convert --to typeid:user 01890a5d-ac96-774b-bcce-b302099a8057
  uuidkit convert --from ulid --to hyphenated 01H455VB4PEX5VSKNK084SN02Q
  uuidkit convert --from guid-hex --to braced --upper \\
      10b8a76bad9dd11180b400c04fd430c8";

/// `uuidkit convert`.
#[derive(Debug, Args)]
#[command(after_help = CONVERT_EXAMPLES)]
pub struct ConvertArgs {
    /// The form to write (typeid:PREFIX: a TypeID with that prefix).
    #[arg(long, value_parser = ToFormParser, value_name = "FORM")]
    pub to: ToForm,
    /// The form to read: the four text forms by default; the others cannot be told apart
    /// from them (or from each other) and must be named.
    #[arg(long, value_enum, default_value_t = FromForm::Text)]
    pub from: FromForm,
    /// Upper-case hex digits.
    #[arg(short = 'U', long)]
    pub upper: bool,
    /// Read whitespace-separated tokens, as uuidparse does: a UTF-8 BOM, spaces, tabs and
    /// blank lines are skipped (reports name the line; columns count within the token).
    #[arg(long)]
    pub tokens: bool,
    /// UUIDs; standard input when none are given.
    #[arg(value_name = "UUID")]
    pub uuids: Vec<OsString>,
}

const SORT_EXAMPLES: &str = "\
Output:
  The valid inputs in uuidOrderingMatch order (RFC 4530 §2.3: unsigned byte
  order, which for v6 and v7 is creation order), one per line, lower-case
  in the form read (--from; hyphenated for the text forms; a TypeID keeps its
  prefix) or in the --format given. --by-time orders by the timestamp
  instead, which also puts v1 UUIDs in creation order (v2's coarse time is not
  used). Invalid inputs are left out and reported on standard error as
  `error: line N: message` with the input and a caret (see uuidkit --help);
  the exit status is then 1. All input is read before anything is written;
  each UUID takes 16 bytes of memory (a TypeID kept with its prefix, 80).

Examples:
  uuidkit sort < ids.txt
  uuidkit sort --by-time --format urn < ids.txt
  uuidkit sort --unique --reverse < ids.txt
  uuidkit sort --from typeid < typeids.txt";

/// `uuidkit sort`.
#[derive(Debug, Args)]
#[command(after_help = SORT_EXAMPLES)]
pub struct SortArgs {
    /// Print each distinct UUID once.
    #[arg(short, long)]
    pub unique: bool,
    /// The output form (typeid:PREFIX: a TypeID with that prefix); by default the form
    /// read (hyphenated for --from text; each TypeID keeps its own prefix).
    #[arg(short, long, value_parser = ToFormParser, value_name = "FORM")]
    pub format: Option<ToForm>,
    /// The form to read: the four text forms by default.
    #[arg(long, value_enum, default_value_t = FromForm::Text)]
    pub from: FromForm,
    /// Upper-case hex digits.
    #[arg(short = 'U', long)]
    pub upper: bool,
    /// Order v1, v6 and v7 UUIDs by the time they carry (then by bytes); the others,
    /// which carry none, follow in byte order.
    #[arg(long)]
    pub by_time: bool,
    /// Largest first.
    #[arg(short, long)]
    pub reverse: bool,
    /// Read whitespace-separated tokens, as uuidparse does: a UTF-8 BOM, spaces, tabs and
    /// blank lines are skipped (reports name the line; columns count within the token).
    #[arg(long)]
    pub tokens: bool,
    /// UUIDs; standard input when none are given.
    #[arg(value_name = "UUID")]
    pub uuids: Vec<OsString>,
}

const COMPARE_EXAMPLES: &str = "\
Output:
  -1 if A sorts before B, 0 if they are the same UUID (in whatever text form),
  1 if after; the order is uuidOrderingMatch (unsigned byte order). An invalid
  argument is reported on standard error (\"error: argument 2: ...\", 1 for A, 2
  for B, with a caret), with status 1.

  --json: one object {\"a\", \"b\", \"result\"}: A and B lower-case hyphenated,
  result -1, 0 or 1. An invalid argument gives instead, on standard output, an
  object per invalid argument with the keys of validate --json ({\"line\",
  \"column\", \"kind\", \"message\", \"input\"}, line being the argument number), and
  status 1.

Examples:
  uuidkit compare 017f22e2-79b0-7cc3-98c4-dc0c0c07398f \\
      017F22E279B07CC398C4DC0C0C07398F
  uuidkit compare --json \"$a\" \"$b\"";

/// `uuidkit compare`.
#[derive(Debug, Args)]
#[command(after_help = COMPARE_EXAMPLES)]
pub struct CompareArgs {
    /// Write a JSON object instead of -1, 0 or 1.
    #[arg(long)]
    pub json: bool,
    /// The first UUID.
    #[arg(value_name = "A")]
    pub a: OsString,
    /// The second UUID.
    #[arg(value_name = "B")]
    pub b: OsString,
}

const LDAP_EXAMPLES: &str = "\
Examples:
  uuidkit ldap schema
  uuidkit ldap match 597ae2f6-16a6-1027-98f4-d28b5365dc14 \\
      597AE2F6-16A6-1027-98F4-D28B5365DC14
  uuidkit ldap order 597ae2f6-16a6-1027-98f4-d28b5365dc14 \\
      00000000-0000-0000-0000-000000000000
  uuidkit ldap add-entryuuid < people.ldif";

const LDAP_SCHEMA_EXAMPLES: &str = "\
Output:
  The four RFC 4530 §2 descriptions, each on one line, as the attributes of a
  subschema subentry hold them (RFC 4512 §4.2): ldapSyntaxes (UUID),
  matchingRules (uuidMatch, uuidOrderingMatch) and attributeTypes (entryUUID).

Examples:
  uuidkit ldap schema
  uuidkit ldap schema | grep attributeTypes";

/// `uuidkit ldap`.
#[derive(Debug, Args)]
#[command(after_help = LDAP_EXAMPLES)]
pub struct LdapArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: LdapCommand,
}

const LDAP_MATCH_EXAMPLES: &str = "\
Output:
  TRUE or FALSE, as an LDAP server evaluates the rule (RFC 4530 §2.2: the two
  UUIDs are equal). Both values are read in the RFC 4122 string form
  (hyphenated, either case); an invalid one is reported on standard error
  (\"error: argument 1: ...\" with a caret; 1 the assertion, 2 the value) with
  status 1; an evaluated rule exits 0 whether TRUE or FALSE.

  --json: one object {\"rule\", \"assertion\", \"value\", \"result\"}: rule
  \"uuidMatch\" or \"uuidOrderingMatch\", assertion and value as given, result
  true or false. An invalid value gives instead, on standard output, the
  object of validate --json ({\"line\", \"column\", \"kind\", \"message\", \"input\"},
  line 1 for the assertion, 2 for the value), status 1.

Examples:
  uuidkit ldap match 597ae2f6-16a6-1027-98f4-d28b5365dc14 \\
      597AE2F6-16A6-1027-98F4-D28B5365DC14
  uuidkit ldap match --json 597ae2f6-16a6-1027-98f4-d28b5365dc14 \"$value\"";

const LDAP_ORDER_EXAMPLES: &str = "\
Output:
  TRUE or FALSE, as an LDAP server evaluates the rule: uuidOrderingMatch has
  the semantics of octetStringOrderingMatch (RFC 4530 §2.3, RFC 4517 §4.2.28),
  TRUE if and only if the stored VALUE sorts before the ASSERTION in unsigned
  byte order; this is what a filter (entryUUID<=ASSERTION) tests, with
  equality checked separately. Both values are read in the RFC 4122 string
  form; an invalid one is reported on standard error (\"error: argument 1: ...\"
  with a caret; 1 the assertion, 2 the value) with status 1.

  --json: one object {\"rule\", \"assertion\", \"value\", \"result\"}: rule
  \"uuidMatch\" or \"uuidOrderingMatch\", assertion and value as given, result
  true or false. An invalid value gives instead, on standard output, the
  object of validate --json ({\"line\", \"column\", \"kind\", \"message\", \"input\"},
  line 1 for the assertion, 2 for the value), status 1.

Examples:
  uuidkit ldap order 597ae2f6-16a6-1027-98f4-d28b5365dc14 \\
      00000000-0000-0000-0000-000000000000
  uuidkit ldap order --json 597ae2f6-16a6-1027-98f4-d28b5365dc14 \"$value\"";

const LDAP_ADD_EXAMPLES: &str = "\
Output:
  The LDIF (RFC 2849) read on standard input, copied byte for byte to standard
  output with an `entryUUID: ...` line added at the end of every entry that
  has none: content records and `changetype: add` records; other change
  records pass through untouched. An existing entryUUID must be valid (RFC
  4530 §2.1) and single; if not, the error is reported on standard error with
  its line number and the entry's dn, processing stops after the entries
  before it have been written, and the exit status is 1. So is input that is
  not LDIF: a record that does not start with dn: (after an optional
  version: 1), a second dn: in one record, a line without a colon, an invalid
  base64 value, or CR-only line endings. A line of whitespace only ends a
  record as an empty line does.

Examples:
  uuidkit ldap add-entryuuid < people.ldif > people-with-uuids.ldif
  uuidkit ldap add-entryuuid --version 7 < people.ldif";

/// The `ldap` subcommands.
#[derive(Debug, Subcommand)]
pub enum LdapCommand {
    /// Print the RFC 4530 §2 schema definitions (syntax, matching rules, entryUUID).
    #[command(after_help = LDAP_SCHEMA_EXAMPLES)]
    Schema,
    /// Evaluate uuidMatch (RFC 4530 §2.2): print TRUE or FALSE.
    #[command(after_help = LDAP_MATCH_EXAMPLES)]
    Match(LdapRuleArgs),
    /// Evaluate uuidOrderingMatch (RFC 4530 §2.3): print TRUE or FALSE.
    #[command(after_help = LDAP_ORDER_EXAMPLES)]
    Order(LdapRuleArgs),
    /// Add an entryUUID to every entry of the LDIF on standard input.
    #[command(name = "add-entryuuid", after_help = LDAP_ADD_EXAMPLES)]
    AddEntryUuid {
        /// The UUID version to assign: 4 (random) or 7 (time-ordered).
        #[arg(long, value_name = "4|7", default_value_t = 4)]
        version: u8,
    },
}

/// `uuidkit ldap match` and `uuidkit ldap order`: the two values a matching rule compares.
#[derive(Debug, Args)]
pub struct LdapRuleArgs {
    /// Write a JSON object instead of TRUE or FALSE.
    #[arg(long)]
    pub json: bool,
    /// The assertion value.
    #[arg(value_name = "ASSERTION")]
    pub assertion: OsString,
    /// The stored attribute value.
    #[arg(value_name = "VALUE")]
    pub value: OsString,
}

/// The `--system` line of `gen`'s examples: only where the service exists (Unix).
#[cfg(unix)]
macro_rules! gen_system_example {
    () => {
        "  uuidkit gen v7 --system -C 10                from the service (serve)\n"
    };
}
#[cfg(not(unix))]
macro_rules! gen_system_example {
    () => {
        ""
    };
}

const GEN_EXAMPLES: &str = concat!(
    "\
Versions:
  v1  Gregorian time + clock sequence + node
  v2  DCE Security: coarse time, --domain and --local-id (default: person,
      current uid)
  v3  MD5 of --namespace + --name
  v4  random (the default)
  v5  SHA-1 of --namespace + --name
  v6  v1 reordered so that bytes sort by time
  v7  Unix milliseconds + counter + random
  v8  with --name: name-based, --hash (default sha256); without: time-based
      (RFC 9562 Appendix B.1)
  nil, max  the special values (RFC 9562 §5.9, §5.10)

  Time-based versions (v1, v2, v6, v7, v8 without a name) never repeat within
  a run and their timestamps never go back, even when the system clock does:
  they stay at their last timestamp, counting, until the clock catches up (v6,
  v7, v8 also sort as bytes). When a timestamp's ticks or counter values run
  out, the timestamp moves ahead of the clock (v2: at most 64 UUIDs per time
  step of about 7 minutes). --time fixes the clock; ticks or counter values
  after that instant are then handed out one by one.
  v7 --method: 1 counter (--counter-bits 12-42, default 26), 2 random
  increment, 3 12-bit sub-millisecond fraction (plus a counter of
  --counter-bits 0 for none, the default, or 12-42: RFC 9562 §6.2).
  The default, method 1 with 26 counter bits, is the layout of the library's
  uuidkit::v7(): the counter starts at a random 25-bit value each millisecond
  and the other 48 bits are random in every UUID.
  A flag the chosen version does not use is a usage error.

Examples:
  uuidkit gen                                  one random (v4) UUID
  uuidkit gen v7 -C 1000000 > ids.txt          a million time-ordered UUIDs
  uuidkit gen v5 -n @dns -N www.example.com    RFC 9562 Appendix A.4
  uuidkit gen v8 --hash sha256 -n dns -N www.example.com
  uuidkit gen v7 --time 2022-02-22T19:22:22Z   for a given instant
",
    gen_system_example!(),
    "  uuidkit gen v4 -C 3 --format urn --upper\n",
    "  uuidkit gen v7 --format typeid:user          user_01h455vb4pex5vsknk084sn02q"
);

/// `uuidkit gen`.
#[derive(Debug, Args)]
#[command(after_help = GEN_EXAMPLES)]
pub struct GenArgs {
    /// The version to generate.
    #[arg(value_enum, default_value_t = GenVersion::V4, value_name = "VERSION")]
    pub which: GenVersion,
    /// How many UUIDs to generate.
    #[arg(short = 'C', long, default_value_t = 1, value_name = "COUNT")]
    pub count: u64,
    /// The output form (typeid:PREFIX: a TypeID with that prefix).
    #[arg(short, long, value_parser = ToFormParser, default_value = "hyphenated", value_name = "FORM")]
    pub format: ToForm,
    /// Upper-case hex digits.
    #[arg(short = 'U', long)]
    pub upper: bool,
    /// Namespace for v3, v5 and name-based v8: dns, url, oid, x500 (or @dns, @url, ...), or a
    /// UUID.
    #[arg(
        short,
        long,
        value_name = "NAMESPACE",
        value_parser = NamespaceArg,
        hide_possible_values = true
    )]
    pub namespace: Option<String>,
    /// The name (its UTF-8 bytes) for v3, v5 and name-based v8; it may start with `-`.
    #[arg(
        short = 'N',
        long,
        value_name = "NAME",
        conflicts_with = "name_hex",
        allow_hyphen_values = true
    )]
    pub name: Option<OsString>,
    /// The name as hex-encoded bytes (for names that are not text).
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub name_hex: Option<String>,
    /// The hash for name-based v8 (RFC 9562 Appendix B.2 uses sha256).
    #[arg(long, value_enum, value_name = "HASH")]
    pub hash: Option<HashArg>,
    /// v7: how the rand_a/rand_b bits keep UUIDs of one millisecond in order (RFC 9562 §6.2):
    /// 1 a counter, 2 a random increment, 3 sub-millisecond time in rand_a.
    #[arg(long, value_name = "1|2|3")]
    pub method: Option<u8>,
    /// v7 --method 1: the counter's width in bits, 12 to 42 (default 26, as
    /// `uuidkit::v7()`); --method 3: 0 (no counter, the default) or 12 to 42 (RFC 9562 §6.2).
    #[arg(long, value_name = "BITS")]
    pub counter_bits: Option<u8>,
    /// v1, v2, v6: the node: `random` (the default; multicast bit set, RFC 9562 §6.10) or 12
    /// hex digits (colons or hyphens allowed).
    #[arg(long, value_name = "random|HEX")]
    pub node: Option<String>,
    /// v2: the local domain: person, group, org, or a number 0-255.
    #[arg(long, value_name = "DOMAIN")]
    pub domain: Option<String>,
    /// v2: the local identifier (a POSIX uid or gid), 0 to 4294967295.
    #[arg(long, value_name = "ID")]
    pub local_id: Option<u32>,
    /// Generate as if the clock read this RFC 3339 time (v1, v2, v6, v7, time-based v8).
    #[arg(long, value_name = "RFC3339")]
    pub time: Option<String>,
    /// v1, v6, v7: get the UUIDs from the system-wide service (`uuidkit serve`), unique and
    /// ordered across every process of the machine.
    #[arg(long)]
    #[cfg_attr(not(unix), arg(hide = true))]
    pub system: bool,
    /// The service's socket for --system [default: the first that answers of
    /// $UUIDKIT_SOCKET, $XDG_RUNTIME_DIR/uuidkit.sock and /run/uuidkit/uuidkit.sock].
    #[arg(long, value_name = "PATH", requires = "system")]
    #[cfg_attr(not(unix), arg(hide = true))]
    pub socket: Option<PathBuf>,
    /// With --system: one more user id the service may run as, besides root and your own
    /// [default: $UUIDKIT_SERVER_UID]; a service run by anyone else is refused.
    #[arg(long, value_name = "UID", requires = "system")]
    #[cfg_attr(not(unix), arg(hide = true))]
    pub server_uid: Option<u32>,
}

/// `gen --namespace`: any text (checked later: a name or a UUID), with the four names offered
/// to shell completion.
#[derive(Debug, Clone, Copy)]
pub struct NamespaceArg;

impl clap::builder::TypedValueParser for NamespaceArg {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            ["dns", "url", "oid", "x500"]
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// The versions `gen` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenVersion {
    /// Gregorian time and node.
    V1,
    /// DCE Security.
    V2,
    /// MD5 name-based.
    V3,
    /// Random.
    V4,
    /// SHA-1 name-based.
    V5,
    /// Reordered Gregorian time.
    V6,
    /// Unix time, sortable.
    V7,
    /// Custom / modern-hash name-based.
    V8,
    /// All zeros.
    Nil,
    /// All ones.
    Max,
}

/// The hashes for name-based v8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HashArg {
    /// SHA-256 (RFC 9562 Appendix B.2).
    Sha256,
    /// SHA-512.
    Sha512,
    /// SHA3-256.
    #[value(name = "sha3-256")]
    Sha3_256,
    /// SHAKE128.
    Shake128,
}

const SERVE_HELP: &str = "\
What it does:
  Hands out v1, v6 and v7 UUIDs over a Unix socket so that every UUID issued
  on the machine is unique and, per version, increasing in the order requests
  are served. The generator state (v1/v6 timestamp, clock sequence and node;
  v7 millisecond and counter) is kept in the state file, written ahead (a
  reservation --reserve ahead of the clock, renewed twice per reserve under
  load) and atomically, so that a crash or kill -9 at any moment cannot make a
  UUID repeat, and every v6 and v7 after a restart is greater than all before
  it (v1 continues the same timeline, with a new clock sequence if the clock
  went back).

  Runs in the foreground only (--foreground is accepted and changes nothing):
  start it from systemd or another supervisor. Logs go to standard error.
  SIGTERM, SIGINT, SIGHUP and SIGQUIT write the exact state and exit with
  status 0 (2 if that last write failed); they are caught from the very start.
  A clean stop removes the socket and the lock files (SOCKET.lock,
  STATE.lock): only the state file stays.
  After an unclean shutdown, the start waits until the clock passes the last
  run's reservations (at most --reserve + 1 s; logged before it starts), so
  that repeated crashes do not push timestamps ahead of the clock; a stop
  signal ends that wait and exits with status 0, leaving the state file as it
  was. When v6/v7 run ahead of the clock (the clock was set back), each
  restart moves v7 at most 1 ms and v1/v6 a tenth of --reserve further.

  One server per socket: a second one fails at once; a stale socket left by a
  killed server (connecting is refused) is replaced. One process per state
  file: a second one fails at once. The socket's path must fit in a socket
  address (at most 107 bytes on Linux, 103 on macOS and FreeBSD), and its
  directory must not be writable by other users (unless it is sticky and owned
  by the server's user, as /tmp is for root): otherwise the server refuses to
  start. Clients accept only a server that runs as root or as their own user
  (or the one named by gen --server-uid or UUIDKIT_SERVER_UID).

systemd:
  Socket activation: the listening Unix stream sockets passed in LISTEN_FDS
  (for this process: LISTEN_PID) are served; one named uuidd in
  LISTEN_FDNAMES speaks util-linux uuidd's protocol, any other name
  uuidkit's. Then no --socket is bound unless given, and the passed sockets
  are left in place at stop (systemd owns them). Wrong values, or a
  descriptor that is not a listening Unix stream socket: an error naming it,
  exit status 2. With NOTIFY_SOCKET set (Type=notify), it sends READY=1 once
  it serves, STATUS= lines, and STOPPING=1 when it stops. --idle-exit SECONDS
  stops it cleanly (status 0) after SECONDS without a connection, for a
  server started on demand: the next client starts it again.

Limits:
  A client has 2 s to send a whole request once it has begun, and --timeout to
  send the next one or to read a whole reply. One user may hold half of
  --max-connections. One user (by uid, root too) may take v1/v6 timestamps at
  the clock's speed (10 million a second) beyond a burst of 1 s of them, on
  both sockets together, so that no user moves the v1/v6 clock ahead: faster
  requests wait, and after 3 s get a busy reply (uuidd: closed). Past the
  limits, and when the process runs out of file descriptors, clients get a
  busy reply.

Defaults:
  --socket  $XDG_RUNTIME_DIR/uuidkit.sock; for root /run/uuidkit/uuidkit.sock
            (the system socket), unless systemd passed the sockets
  --state   $XDG_STATE_HOME/uuidkit/state (else ~/.local/state/uuidkit/state);
            for root /var/lib/uuidkit/state
  --mode    666 for the system socket: every local user may ask for UUIDs,
            as from uuidd (a request discloses nothing and moves only the
            sequence, v1/v6 time at most 1 s ahead per user; connections
            per user are limited); 600 for any
            other socket; 660 with --group. --mode/--group restrict it.
  Directories of the default paths are created (0755 for the socket's, 0700
  for the state's).

State file problems:
  Missing, unreadable, corrupt, or writable by others: a warning, a new random
  clock sequence, and the server starts. With --strict it refuses to start
  instead (a missing file is still accepted as the first start). A symbolic
  link is never followed: an error either way. When the state file cannot be
  written, UUIDs are still served but marked not durable in the reply
  (`uuidkit gen --system` then warns); with --strict they are refused instead.

Clients:
  Without --socket they try $UUIDKIT_SOCKET, $XDG_RUNTIME_DIR/uuidkit.sock,
  then /run/uuidkit/uuidkit.sock, whoever they are; the first that answers
  serves them.
  uuidkit gen v7 --system -C 10         ten v7 UUIDs from the service
  UUIDKIT_SOCKET=/path/to.sock uuidkit gen v1 --system
  The protocol is described in DESIGN.md, section The wire protocol.

util-linux uuidd clients (--uuidd-socket):
  Also speaks uuidd's protocol on PATH (default /run/uuidd/request, the path
  compiled into libuuid; /run/uuidd is created when missing), mode 0666 like
  uuidd's, so that uuid_generate_time(), uuidgen -t and `uuidd -t` get
  v1 UUIDs with this server's clock sequence and node from the same durable
  sequence; a bulk request gets a block of consecutive timestamps the state
  file covers. Stop uuidd first (systemctl disable --now uuidd.socket
  uuidd.service): a socket another server listens on is an error.

Examples:
  uuidkit serve --foreground
  uuidkit serve --socket /run/uuidkit/uuidkit.sock --group uuidkit \\
      --state /var/lib/uuidkit/state
  uuidkit serve --uuidd-socket   # and libuuid's clients (/run/uuidd/request)
  systemd-socket-activate -l /run/uuidkit/uuidkit.sock --fdname=uuidkit \\
      -E NOTIFY_SOCKET -- uuidkit serve --idle-exit 60";

/// `uuidkit serve`.
#[derive(Debug, Args)]
#[command(after_help = SERVE_HELP)]
pub struct ServeArgs {
    /// The Unix socket to listen on.
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// The state file.
    #[arg(long, value_name = "PATH")]
    pub state: Option<PathBuf>,
    /// The socket's permissions in octal [default: 666 for the system socket,
    /// else 600; 660 with --group].
    #[arg(long, value_name = "OCTAL")]
    pub mode: Option<String>,
    /// The group (name or number) given the socket, so that its members may connect.
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
    /// Stay in the foreground, logging to standard error (the only mode there is).
    #[arg(long)]
    pub foreground: bool,
    /// Strict safety: refuse to start on an unreadable or corrupt state file, and never hand
    /// out a UUID the state file does not cover.
    #[arg(long)]
    pub strict: bool,
    /// How far ahead of the clock the state file reserves, in milliseconds (1 to 3600000).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub reserve: u64,
    /// The most connections open at once; more are refused with a "busy" reply. Lowered to
    /// what the open-file limit allows (the soft limit is first raised to the hard one).
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// The most connections open at once from one user id [default: half of
    /// --max-connections]; more are refused with a "busy" reply.
    #[arg(long, value_name = "N")]
    pub max_connections_per_user: Option<usize>,
    /// How long, in seconds, a connection may stay idle between requests and take to read a
    /// whole reply; after it the connection is closed (a request must come whole within 2 s
    /// of its first byte).
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
    /// Exit cleanly (the state written, status 0) after SECONDS with no connection
    /// open: for a server its service manager starts on demand.
    #[arg(long, value_name = "SECONDS")]
    pub idle_exit: Option<u64>,
    /// Log every connection and every rejected request.
    #[arg(short, long)]
    pub verbose: bool,
    /// Also serve util-linux uuidd's protocol on PATH [default: /run/uuidd/request].
    #[arg(long, value_name = "PATH", num_args = 0..=1,
          default_missing_value = "/run/uuidd/request")]
    pub uuidd_socket: Option<PathBuf>,
}

const STATE_HELP: &str = "\
Output of `show`:
  One `field: value` line per stored value. Exit status 0 for a valid file, 1
  when the file is corrupt or not trusted (owned by another user, writable by
  others), 2 when it cannot be opened or is a symbolic link (never followed).

`reset`:
  For a state that cannot go on: a v7 bound at the end of its range (v7
  unavailable for good) or far ahead of a clock that was set back. Takes the
  state file's lock, so it refuses (exit status 2, naming the process) while
  `uuidkit serve` or another generator uses the file: stop the server first.
  It writes a clean state with
    - a new random v1/v6 clock sequence, different from the stored one, and
      the stored node (a random one if the file was corrupt or untrusted);
    - the v1/v6 timestamp and the v7 millisecond set to the clock now.
  v1/v6 stay unique (new clock sequence); v7 stay unique (random bits); v6 and
  v7 increase from the reset on, but those issued after it may sort before
  those issued before it when the old bounds lay ahead of the clock: the one
  promise a reset gives up. It prints the values before and after. A missing
  file or a symbolic link is an error.

Examples:
  uuidkit state show /var/lib/uuidkit/state
  uuidkit state show ~/.local/state/uuidkit/state
  systemctl stop uuidkit && uuidkit state reset /var/lib/uuidkit/state";

/// `uuidkit state`.
#[derive(Debug, Args)]
#[command(after_help = STATE_HELP)]
pub struct StateArgs {
    /// What to do with the state file.
    #[command(subcommand)]
    pub action: StateAction,
}

/// `uuidkit state` subcommands.
#[derive(Debug, Subcommand)]
pub enum StateAction {
    /// Print a state file's fields.
    Show {
        /// The state file.
        #[arg(value_name = "PATH")]
        path: PathBuf,
    },
    /// Reset a state file that cannot go on (v7 bound at the end of its range or far ahead of
    /// the clock): new random clock sequence, bounds at the clock; refused while in use.
    Reset {
        /// The state file.
        #[arg(value_name = "PATH")]
        path: PathBuf,
    },
}

/// A usage error found after clap's parsing, in the subcommand named by `path`: printed like
/// clap's own (with that subcommand's usage line), status 2.
pub fn usage_error(path: &[&str], msg: impl std::fmt::Display) -> clap::Error {
    let mut cmd = Cli::command();
    cmd.build();
    subcommand(cmd, path).error(clap::error::ErrorKind::ValueValidation, msg)
}

/// What `serve`, `state` and `gen --system` (named by `what`) say where the generator service
/// cannot run: it needs Unix sockets, and the service crate is built only for Unix.
#[cfg(not(unix))]
pub fn unix_only(what: &str) -> String {
    let platform = if cfg!(windows) {
        "Windows"
    } else {
        std::env::consts::OS
    };
    format!(
        "uuidkit {what} is not available on {platform}: the generator service (uuidkit serve, \
         uuidkit state, uuidkit gen --system) needs Unix sockets"
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn color_scan_takes_the_last_valid_flag_before_a_double_dash() {
        let scan = |args: &[&str]| {
            let argv: Vec<OsString> = std::iter::once("uuidkit")
                .chain(args.iter().copied())
                .map(OsString::from)
                .collect();
            ColorWhen::scan(&argv)
        };
        assert_eq!(scan(&["gen"]), ColorWhen::Auto);
        assert_eq!(scan(&["--color", "never", "gen"]), ColorWhen::Never);
        assert_eq!(scan(&["gen", "--color=always"]), ColorWhen::Always);
        assert_eq!(
            scan(&["--color", "never", "gen", "--color", "always"]),
            ColorWhen::Always
        );
        // An invalid value is clap's to report; the scan keeps what it had.
        assert_eq!(scan(&["--color", "never", "--color=bad"]), ColorWhen::Never);
        assert_eq!(scan(&["validate", "--", "--color=never"]), ColorWhen::Auto);
        assert_eq!(scan(&["--color"]), ColorWhen::Auto);
    }

    #[test]
    fn parse_reads_the_color_flag_anywhere() {
        let cli = parse(
            ["uuidkit", "gen", "--color", "never", "v4"]
                .map(OsString::from)
                .to_vec(),
        );
        assert_eq!(cli.map(|c| c.color).ok(), Some(ColorWhen::Never));
        let cli = parse(["uuidkit", "gen"].map(OsString::from).to_vec());
        assert_eq!(cli.map(|c| c.color).ok(), Some(ColorWhen::Auto));
    }
}
