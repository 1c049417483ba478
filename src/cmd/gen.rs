//! `uuidkit gen`: generate UUIDs of any version, streamed.
//!
//! `resolve` checks the flags against the version (a flag that the version does not use is a
//! usage error rather than silently ignored) and turns them into a [`Source`]; `run` then
//! writes COUNT UUIDs through the buffered output with no allocation per UUID, so that
//! `-C 1000000000` runs in flat memory.

use uuidkit::gen::v4::fill_v4;
use uuidkit::service::client::{default_socket, ClientConfig, SystemGenerator};
use uuidkit::state::TimeVersion;
use uuidkit::{Case, NameHash, Uuid, Version};

use crate::args::{GenArgs, GenVersion, HashArg, ToForm};
use crate::form;
use crate::io::{CmdResult, Fatal, Out, Status};

/// Where the UUIDs come from.
enum Source {
    /// The same UUID every time: nil, max, and the name-based versions.
    Fixed(Uuid),
    /// Version 4 from the thread's CSPRNG.
    V4,
    /// Version 8 with 122 random custom bits (no name given).
    V8Random,
    /// v1, v6 or v7 from the system-wide service (`uuidkit serve`).
    System {
        version: TimeVersion,
        socket: std::path::PathBuf,
    },
}

/// What `gen` does.
pub struct Config {
    count: u64,
    to: ToForm,
    case: Case,
    source: Source,
}

fn usage(msg: impl std::fmt::Display) -> clap::Error {
    super::usage_error(&["gen"], msg)
}

impl Config {
    /// Checks the flags against the version and builds the source.
    pub fn resolve(a: GenArgs) -> Result<Config, clap::Error> {
        let v = a.which;
        let name_based = matches!(v, GenVersion::V3 | GenVersion::V5)
            || (v == GenVersion::V8 && (a.name.is_some() || a.name_hex.is_some()));
        // Flags that only some versions use.
        let only = |flag: &str, given: bool, ok: bool, which: &str| -> Result<(), clap::Error> {
            if given && !ok {
                Err(usage(format_args!(
                    "{flag} applies to {which} only, not to {}",
                    version_name(v)
                )))
            } else {
                Ok(())
            }
        };
        let names_ok = matches!(v, GenVersion::V3 | GenVersion::V5 | GenVersion::V8);
        only(
            "--namespace",
            a.namespace.is_some(),
            names_ok,
            "v3, v5 and v8",
        )?;
        only("--name", a.name.is_some(), names_ok, "v3, v5 and v8")?;
        only(
            "--name-hex",
            a.name_hex.is_some(),
            names_ok,
            "v3, v5 and v8",
        )?;
        only(
            "--hash",
            a.hash.is_some(),
            name_based && v == GenVersion::V8,
            "name-based v8 (with --name)",
        )?;
        only("--method", a.method.is_some(), v == GenVersion::V7, "v7")?;
        only(
            "--counter-bits",
            a.counter_bits.is_some(),
            v == GenVersion::V7,
            "v7",
        )?;
        let gregorian = matches!(v, GenVersion::V1 | GenVersion::V2 | GenVersion::V6);
        only("--node", a.node.is_some(), gregorian, "v1, v2 and v6")?;
        only("--domain", a.domain.is_some(), v == GenVersion::V2, "v2")?;
        only(
            "--local-id",
            a.local_id.is_some(),
            v == GenVersion::V2,
            "v2",
        )?;
        let timed = gregorian || v == GenVersion::V7;
        only("--time", a.time.is_some(), timed, "v1, v2, v6 and v7")?;
        if a.system {
            return Self::resolve_system(a);
        }

        let source = match v {
            GenVersion::V3 | GenVersion::V5 => Source::Fixed(name_based_uuid(&a)?),
            GenVersion::V8 if name_based => Source::Fixed(name_based_uuid(&a)?),
            GenVersion::V8 => {
                if a.namespace.is_some() {
                    return Err(usage("v8 with --namespace needs --name (or --name-hex)"));
                }
                Source::V8Random
            }
            GenVersion::Nil => Source::Fixed(Uuid::NIL),
            GenVersion::Max => Source::Fixed(Uuid::MAX),
            GenVersion::V4 => Source::V4,
            GenVersion::V1 | GenVersion::V2 | GenVersion::V6 | GenVersion::V7 => {
                return Err(usage(format_args!(
                    "{}: the time-based generators are not available in this build yet",
                    version_name(v)
                )))
            }
        };
        Ok(Config {
            count: a.count,
            to: a.format,
            case: if a.upper { Case::Upper } else { Case::Lower },
            source,
        })
    }
}

impl Config {
    /// `--system`: only v1, v6 and v7, and none of the flags that configure a local generator
    /// (the service has its own state).
    fn resolve_system(a: GenArgs) -> Result<Config, clap::Error> {
        let version = match a.which {
            GenVersion::V1 => TimeVersion::V1,
            GenVersion::V6 => TimeVersion::V6,
            GenVersion::V7 => TimeVersion::V7,
            other => {
                return Err(usage(format_args!(
                    "--system applies to v1, v6 and v7 only, not to {}",
                    version_name(other)
                )))
            }
        };
        for (flag, given) in [
            ("--time", a.time.is_some()),
            ("--node", a.node.is_some()),
            ("--method", a.method.is_some()),
            ("--counter-bits", a.counter_bits.is_some()),
        ] {
            if given {
                return Err(usage(format_args!(
                    "{flag} cannot be used with --system: the service keeps its own generator state"
                )));
            }
        }
        let socket = match a.socket.or_else(default_socket) {
            Some(p) => p,
            None => {
                return Err(usage(
                    "--system: no socket known; give --socket PATH or set UUIDKIT_SOCKET",
                ))
            }
        };
        Ok(Config {
            count: a.count,
            to: a.format,
            case: if a.upper { Case::Upper } else { Case::Lower },
            source: Source::System { version, socket },
        })
    }
}

/// The v3, v5 or name-based v8 UUID of `--namespace` and `--name`/`--name-hex`.
fn name_based_uuid(a: &GenArgs) -> Result<Uuid, clap::Error> {
    let v = a.which;
    let ns = match &a.namespace {
        Some(s) => parse_namespace(s).map_err(usage)?,
        None => {
            return Err(usage(format_args!(
                "{} needs --namespace (dns, url, oid, x500 or a UUID) and --name",
                version_name(v)
            )))
        }
    };
    let name = match (&a.name, &a.name_hex) {
        (Some(n), _) => crate::io::os_bytes(n).into_owned(),
        (None, Some(h)) => parse_hex(h).map_err(usage)?,
        (None, None) => {
            return Err(usage(format_args!(
                "{} needs --name (or --name-hex) with --namespace",
                version_name(v)
            )))
        }
    };
    Ok(match v {
        GenVersion::V3 => Uuid::new_v3(&ns, &name),
        GenVersion::V5 => Uuid::new_v5(&ns, &name),
        _ => Uuid::new_v8_name(name_hash(a.hash.unwrap_or(HashArg::Sha256)), &ns, &name),
    })
}

fn version_name(v: GenVersion) -> &'static str {
    match v {
        GenVersion::V1 => "v1",
        GenVersion::V2 => "v2",
        GenVersion::V3 => "v3",
        GenVersion::V4 => "v4",
        GenVersion::V5 => "v5",
        GenVersion::V6 => "v6",
        GenVersion::V7 => "v7",
        GenVersion::V8 => "v8",
        GenVersion::Nil => "nil",
        GenVersion::Max => "max",
    }
}

fn name_hash(h: HashArg) -> NameHash {
    match h {
        HashArg::Sha256 => NameHash::Sha256,
        HashArg::Sha512 => NameHash::Sha512,
        HashArg::Sha3_256 => NameHash::Sha3_256,
        HashArg::Shake128 => NameHash::Shake128,
    }
}

/// `dns`, `url`, `oid`, `x500` (RFC 9562 §6.6), optionally written `@dns` etc., or a UUID in
/// any text form.
fn parse_namespace(s: &str) -> Result<Uuid, String> {
    let word = s.strip_prefix('@').unwrap_or(s);
    for (name, ns) in [
        ("dns", Uuid::NAMESPACE_DNS),
        ("url", Uuid::NAMESPACE_URL),
        ("oid", Uuid::NAMESPACE_OID),
        ("x500", Uuid::NAMESPACE_X500),
    ] {
        if word.eq_ignore_ascii_case(name) {
            return Ok(ns);
        }
    }
    Uuid::parse_str(s)
        .map_err(|e| format!("--namespace {s:?}: expected dns, url, oid, x500 or a UUID ({e})"))
}

/// Bytes from hex digits (either case; pairs may be separated by `:`, `-` or spaces).
fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() / 2);
    let mut high: Option<u8> = None;
    for (i, c) in s.char_indices() {
        if matches!(c, ':' | '-' | ' ') && high.is_none() {
            continue;
        }
        let d = c.to_digit(16).ok_or_else(|| {
            format!("--name-hex: invalid character {c:?} at byte {i}: expected a hexadecimal digit")
        })?;
        match high.take() {
            None => high = Some(d as u8),
            Some(h) => out.push((h << 4) | d as u8),
        }
    }
    if high.is_some() {
        return Err(format!(
            "--name-hex: odd number of hex digits ({})",
            s.len()
        ));
    }
    Ok(out)
}

/// How many UUIDs are made per refill of the random batch.
const BATCH: usize = 256;
/// How many UUIDs `--system` asks the service for at once (the protocol's maximum).
const SYSTEM_BATCH: usize = uuidkit::service::protocol::MAX_COUNT as usize;

/// Runs `gen`.
pub fn run(c: &Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut left = c.count;
    match c.source {
        Source::Fixed(u) => {
            while left > 0 {
                form::write_line(&mut out, &u, c.to, c.case)?;
                left -= 1;
            }
        }
        Source::System {
            version,
            ref socket,
        } => {
            // No fallback: whoever asks for --system wants the machine-wide guarantees.
            let gen = SystemGenerator::new(ClientConfig::new(socket).fallback(false).block(1));
            let mut batch = vec![Uuid::NIL; SYSTEM_BATCH];
            let mut volatile = false;
            while left > 0 {
                let n = usize::try_from(left).map_or(SYSTEM_BATCH, |l| l.min(SYSTEM_BATCH));
                let filled = gen
                    .fill(version, &mut batch[..n])
                    .map_err(|e| Fatal::Msg(e.to_string()))?;
                volatile |= !filled.safety.is_durable();
                for u in &batch[..n] {
                    form::write_line(&mut out, u, c.to, c.case)?;
                }
                left -= n as u64;
            }
            out.flush()?;
            if volatile {
                crate::io::warning(format_args!(
                    "the service could not write its state file: these UUIDs are not durably \
                     safe (a restart of the service could repeat them)"
                ));
            }
            return Ok(Status::Ok);
        }
        Source::V4 | Source::V8Random => {
            let mut batch = [Uuid::NIL; BATCH];
            while left > 0 {
                let n = usize::try_from(left).map_or(BATCH, |l| l.min(BATCH));
                fill_v4(&mut batch[..n]);
                for u in &batch[..n] {
                    let u = match c.source {
                        // A v4's 122 random bits, relabelled: the same randomness, version 8.
                        Source::V8Random => u.with_version(Version::Custom),
                        _ => *u,
                    };
                    form::write_line(&mut out, &u, c.to, c.case)?;
                }
                left -= n as u64;
            }
        }
    }
    out.flush()?;
    Ok(Status::Ok)
}
