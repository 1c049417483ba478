//! `uuidkit gen`: generate UUIDs of any version, streamed.
//!
//! `resolve` checks the flags against the version (a flag that the version does not use is a
//! usage error rather than silently ignored) and turns them into a [`Plan`]: a generator in
//! this process ([`Source`]) or the system-wide service; `run` then writes COUNT UUIDs through
//! the buffered output with no allocation per UUID, so that `-C 1000000000` runs in flat memory.

use uuidkit::generator::v4::fill_v4;
use uuidkit::generator::{
    Clock, Csprng, FixedClock, GenError, GregorianBuilder, SystemClock, V1Generator, V2Generator,
    V6Generator, V7Builder, V7Generator, V7Method, V8TimeBuilder, V8TimeGenerator,
};
use uuidkit::{Case, Domain, NameHash, Timestamp, Uuid};
#[cfg(unix)]
use uuidkit_service::client::{default_sockets, ClientConfig, SystemGenerator};
#[cfg(unix)]
use uuidkit_service::state::TimeVersion;

use crate::args::{usage_error, GenArgs, GenVersion, HashArg, ToForm};
use crate::io::{CmdResult, Fatal, Out, Status};
use crate::representation;
use crate::ui::Progress;

/// The clock the time-based generators read: the system's, or the instant of `--time`.
#[derive(Debug, Clone, Copy)]
enum CliClock {
    System(SystemClock),
    Fixed(FixedClock),
}

impl Clock for CliClock {
    fn now(&self) -> Timestamp {
        match self {
            CliClock::System(c) => c.now(),
            CliClock::Fixed(c) => c.now(),
        }
    }
    fn resolution_nanos(&self) -> u64 {
        match self {
            CliClock::System(c) => c.resolution_nanos(),
            CliClock::Fixed(c) => c.resolution_nanos(),
        }
    }
}

/// The time-based generators' own CSPRNG (the same fork-safe generator as the thread's, but
/// owned: drawing from it needs no thread-local lookup, which at tens of millions of UUIDs per
/// second matters). Like the thread's, it ends the process if the OS cannot seed it.
fn csprng() -> Csprng {
    match Csprng::new() {
        Ok(r) => r,
        Err(e) => {
            crate::io::error(format_args!("gen: {e}"));
            std::process::exit(crate::io::EXIT_FAILURE.into())
        }
    }
}

/// Whose v2 UUIDs to make.
#[derive(Debug, Clone, Copy)]
enum V2Id {
    /// The process's real user id, domain person (DCE's default).
    #[cfg(unix)]
    CurrentUser,
    /// The process's real group id, domain group.
    #[cfg(unix)]
    CurrentGroup,
    /// A given domain and id.
    Given(Domain, u32),
}

impl V2Id {
    /// The next UUID for this id. The current user's or group's id is asked of the OS once,
    /// with the first UUID, and then kept as a given one: a system call per UUID would cost
    /// more than making the UUID.
    fn next(&mut self, g: &mut V2Generator<CliClock, Csprng>) -> Result<Uuid, GenError> {
        match *self {
            V2Id::Given(domain, id) => g.next(domain, id),
            #[cfg(unix)]
            V2Id::CurrentUser => g.next_person().map(|u| self.keep(u)),
            #[cfg(unix)]
            V2Id::CurrentGroup => g.next_group().map(|u| self.keep(u)),
        }
    }

    /// Turns this into the domain and id that `u` carries, and returns `u`.
    #[cfg(unix)]
    fn keep(&mut self, u: Uuid) -> Uuid {
        if let (Some(domain), Some(id)) = (u.local_domain(), u.local_id()) {
            *self = V2Id::Given(domain, id);
        }
        u
    }
}

/// Where the UUIDs come from.
enum Source {
    /// The same UUID every time: nil, max, and the name-based versions.
    Fixed(Uuid),
    /// Version 4 from the thread's CSPRNG.
    V4,
    /// Version 1 (RFC 9562 §5.1).
    V1(V1Generator<CliClock, Csprng>),
    /// Version 2 (DCE Security) for one domain and local id.
    V2 {
        g: V2Generator<CliClock, Csprng>,
        who: V2Id,
    },
    /// Version 6 (§5.6).
    V6(V6Generator<CliClock, Csprng>),
    /// Version 7 (§5.7) with the chosen §6.2 method.
    V7(V7Generator<CliClock, Csprng>),
    /// Version 8, time-based as in Appendix B.1 (no name given).
    V8Time(V8TimeGenerator<CliClock, Csprng>),
}

/// Who makes the UUIDs.
enum Plan {
    /// A generator in this process (boxed: it holds a CSPRNG's buffer).
    Local(Box<Source>),
    /// v1, v6 or v7 from the system-wide service (`uuidkit serve`); see [`run_system`].
    #[cfg(unix)]
    System {
        version: TimeVersion,
        /// The sockets to try, in order.
        sockets: Vec<std::path::PathBuf>,
        server_uid: Option<u32>,
    },
}

/// What `gen` does.
pub struct Config {
    count: u64,
    to: ToForm,
    case: Case,
    plan: Plan,
}

fn usage(msg: impl std::fmt::Display) -> clap::Error {
    usage_error(&["gen"], msg)
}

/// A flag that only some versions use.
struct VersionFlag {
    flag: &'static str,
    given: bool,
    /// Whether the chosen version uses it.
    used: bool,
    /// The versions that do, for the message.
    which: &'static str,
}

/// Whether the version makes its UUID from a name: v3, v5, and v8 when a name is given.
fn name_based(a: &GenArgs) -> bool {
    matches!(a.which, GenVersion::V3 | GenVersion::V5)
        || (a.which == GenVersion::V8 && (a.name.is_some() || a.name_hex.is_some()))
}

/// The flags that only some versions use, in the order they are checked (of several misplaced
/// flags, the first is reported).
fn version_flags(a: &GenArgs) -> [VersionFlag; 10] {
    let v = a.which;
    let name_based = name_based(a);
    let names = matches!(v, GenVersion::V3 | GenVersion::V5 | GenVersion::V8);
    let gregorian = matches!(v, GenVersion::V1 | GenVersion::V2 | GenVersion::V6);
    let timed = gregorian || v == GenVersion::V7 || (v == GenVersion::V8 && !name_based);
    let row = |flag, given, used, which| VersionFlag {
        flag,
        given,
        used,
        which,
    };
    [
        row("--namespace", a.namespace.is_some(), names, "v3, v5 and v8"),
        row("--name", a.name.is_some(), names, "v3, v5 and v8"),
        row("--name-hex", a.name_hex.is_some(), names, "v3, v5 and v8"),
        row(
            "--hash",
            a.hash.is_some(),
            name_based && v == GenVersion::V8,
            "name-based v8 (with --name)",
        ),
        row("--method", a.method.is_some(), v == GenVersion::V7, "v7"),
        row(
            "--counter-bits",
            a.counter_bits.is_some(),
            v == GenVersion::V7,
            "v7",
        ),
        row("--node", a.node.is_some(), gregorian, "v1, v2 and v6"),
        row("--domain", a.domain.is_some(), v == GenVersion::V2, "v2"),
        row(
            "--local-id",
            a.local_id.is_some(),
            v == GenVersion::V2,
            "v2",
        ),
        row(
            "--time",
            a.time.is_some(),
            timed,
            "v1, v2, v6, v7 and time-based v8",
        ),
    ]
}

/// The flags of [`version_flags`] that configure a local generator and so cannot go with
/// `--system` (the service has its own state), in the order they are checked.
#[cfg(unix)]
const NOT_WITH_SYSTEM: [&str; 4] = ["--time", "--node", "--method", "--counter-bits"];

impl Config {
    /// Checks the flags against the version and makes the plan.
    pub fn resolve(a: GenArgs) -> Result<Config, clap::Error> {
        let flags = version_flags(&a);
        if let Some(f) = flags.iter().find(|f| f.given && !f.used) {
            return Err(usage(format_args!(
                "{} applies to {} only, not to {}",
                f.flag,
                f.which,
                version_name(a.which)
            )));
        }
        let (count, to, case) = (a.count, a.format, representation::case(a.upper));
        let plan = if a.system {
            system_plan(a, &flags)?
        } else {
            Plan::Local(Box::new(local_source(&a)?))
        };
        Ok(Config {
            count,
            to,
            case,
            plan,
        })
    }
}

/// `--system`: only v1, v6 and v7, and none of the flags that configure a local generator
/// (the service has its own state).
#[cfg(unix)]
fn system_plan(a: GenArgs, flags: &[VersionFlag]) -> Result<Plan, clap::Error> {
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
    let given = |name: &str| flags.iter().any(|f| f.flag == name && f.given);
    if let Some(flag) = NOT_WITH_SYSTEM.into_iter().find(|&name| given(name)) {
        return Err(usage(format_args!(
            "{flag} cannot be used with --system: the service keeps its own generator state"
        )));
    }
    // The socket given, else every place a service may be, in order.
    let sockets = match a.socket {
        Some(p) => vec![p],
        None => default_sockets(),
    };
    let server_uid = a.server_uid;
    Ok(Plan::System {
        version,
        sockets,
        server_uid,
    })
}

/// `--system` where there is no service.
#[cfg(not(unix))]
fn system_plan(_: GenArgs, _: &[VersionFlag]) -> Result<Plan, clap::Error> {
    Err(usage(crate::args::unix_only("gen --system")))
}

/// `gen v7`'s counter width when none is given: the one `uuidkit::v7()` uses.
const V7_DEFAULT_COUNTER_BITS: u8 = 26;

/// The generator (or fixed UUID) in this process for the version and flags.
fn local_source(a: &GenArgs) -> Result<Source, clap::Error> {
    let v = a.which;
    let clock = match &a.time {
        None => CliClock::System(SystemClock),
        Some(t) => CliClock::Fixed(FixedClock::new(
            Timestamp::parse_rfc3339(t).map_err(|e| usage(format_args!("--time {t:?}: {e}")))?,
        )),
    };
    let gregorian = || -> Result<GregorianBuilder, clap::Error> {
        Ok(
            match a
                .node
                .as_deref()
                .map(parse_node)
                .transpose()
                .map_err(usage)?
            {
                Some(Some(node)) => GregorianBuilder::new().node(node),
                // `random`, or no --node: the builder draws one with the multicast bit set.
                _ => GregorianBuilder::new(),
            },
        )
    };
    let config = |e: GenError| usage(format_args!("{}: {e}", version_name(v)));
    Ok(match v {
        GenVersion::V3 | GenVersion::V5 => Source::Fixed(name_based_uuid(a)?),
        GenVersion::V8 if name_based(a) => Source::Fixed(name_based_uuid(a)?),
        GenVersion::V8 => {
            if a.namespace.is_some() {
                return Err(usage("v8 with --namespace needs --name (or --name-hex)"));
            }
            Source::V8Time(V8TimeBuilder::new().build(clock, csprng()))
        }
        GenVersion::Nil => Source::Fixed(Uuid::NIL),
        GenVersion::Max => Source::Fixed(Uuid::MAX),
        GenVersion::V4 => Source::V4,
        GenVersion::V1 => Source::V1(gregorian()?.build_v1(clock, csprng()).map_err(config)?),
        GenVersion::V6 => Source::V6(gregorian()?.build_v6(clock, csprng()).map_err(config)?),
        GenVersion::V2 => {
            let domain = match &a.domain {
                None => Domain::Person,
                Some(d) => parse_domain(d).map_err(usage)?,
            };
            let who = match (a.local_id, domain) {
                (Some(id), d) => V2Id::Given(d, id),
                #[cfg(unix)]
                (None, Domain::Person) => V2Id::CurrentUser,
                #[cfg(unix)]
                (None, Domain::Group) => V2Id::CurrentGroup,
                (None, _) => {
                    return Err(usage(
                        "v2 needs --local-id (only person and group default to the current user or group on Unix)",
                    ))
                }
            };
            Source::V2 {
                g: gregorian()?.build_v2(clock, csprng()).map_err(config)?,
                who,
            }
        }
        GenVersion::V7 => {
            let method =
                match (a.method, a.counter_bits) {
                    // The layout of `uuidkit::v7()`: a 26-bit counter (seeded with 25 random
                    // bits each millisecond) and 48 random bits in every UUID.
                    (None | Some(1), bits) => V7Method::Counter {
                        bits: bits.unwrap_or(V7_DEFAULT_COUNTER_BITS),
                    },
                    (Some(2), None) => V7Method::monotonic_random(),
                    (Some(2), Some(_)) => return Err(usage(
                        "--counter-bits applies to --method 1 and 3; method 2 has no counter field",
                    )),
                    (Some(3), bits) => V7Method::SubMillis {
                        fraction_bits: 12,
                        counter_bits: bits.unwrap_or(0),
                    },
                    (Some(m), _) => {
                        return Err(usage(format_args!("--method {m}: expected 1, 2 or 3")))
                    }
                };
            Source::V7(
                V7Builder::new()
                    .method(method)
                    .build(clock, csprng())
                    .map_err(config)?,
            )
        }
    })
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

/// `random` (None) or 12 hex digits, optionally separated by `:` or `-` (Some).
fn parse_node(s: &str) -> Result<Option<[u8; 6]>, String> {
    if s.eq_ignore_ascii_case("random") {
        return Ok(None);
    }
    let bytes = parse_hex(s).map_err(|e| e.replacen("--name-hex", "--node", 1))?;
    <[u8; 6]>::try_from(bytes.as_slice())
        .map(Some)
        .map_err(|_| {
            format!(
                "--node {s:?}: expected `random` or 12 hex digits (6 bytes), found {} bytes",
                bytes.len()
            )
        })
}

/// `person`, `group`, `org`, or a number 0–255.
fn parse_domain(s: &str) -> Result<Domain, String> {
    match s.to_ascii_lowercase().as_str() {
        "person" => Ok(Domain::Person),
        "group" => Ok(Domain::Group),
        "org" => Ok(Domain::Org),
        n => n.parse::<u8>().map(Domain::from_u8).map_err(|_| {
            format!("--domain {s:?}: expected person, group, org or a number from 0 to 255")
        }),
    }
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
#[cfg(unix)]
const SYSTEM_BATCH: usize = uuidkit_service::protocol::MAX_COUNT as usize;

/// Runs `gen`.
pub fn run(c: Config) -> CmdResult {
    match c.plan {
        Plan::Local(source) => run_local(*source, c.count, c.to, c.case),
        #[cfg(unix)]
        Plan::System {
            version,
            sockets,
            server_uid,
        } => run_system(version, &sockets, server_uid, c.count, c.to, c.case),
    }
}

/// UUIDs from a generator in this process, in batches of [`BATCH`].
fn run_local(mut source: Source, count: u64, to: ToForm, case: Case) -> CmdResult {
    let mut out = Out::stdout();
    let mut left = count;
    let mut batch = [Uuid::NIL; BATCH];
    let mut progress = Progress::new("generated", Some(count), true, false);
    while left > 0 {
        progress.tick(count - left);
        let n = usize::try_from(left).map_or(BATCH, |l| l.min(BATCH));
        let slots = &mut batch[..n];
        let made = match &mut source {
            Source::Fixed(u) => {
                slots.fill(*u);
                Ok(())
            }
            Source::V4 => {
                fill_v4(slots);
                Ok(())
            }
            Source::V1(g) => g.fill(slots),
            Source::V6(g) => g.fill(slots),
            Source::V7(g) => g.fill(slots),
            Source::V8Time(g) => g.fill(slots),
            Source::V2 { g, who } => slots.iter_mut().try_for_each(|s| {
                *s = who.next(g)?;
                Ok(())
            }),
        };
        if let Err(e) = made {
            // Everything up to the previous batch is written; the failed batch is dropped.
            out.flush()?;
            return Err(Fatal::Msg(format!("gen: {e}")));
        }
        representation::write_lines(&mut out, slots, to, case)?;
        left -= n as u64;
    }
    progress.finish();
    out.flush()?;
    Ok(Status::Ok)
}

/// The message for a failed `--system` request. When no service listens (nothing at the path,
/// or nothing accepting on it), a second line says how to start one: `uuidkit serve` on the
/// one socket tried (the `--socket` given), or on its default socket when several were tried;
/// `systemctl start uuidkit.socket` too when the system socket was among them.
#[cfg(unix)]
fn no_service_hint(
    e: &uuidkit_service::client::ServiceError,
    sockets: &[std::path::PathBuf],
) -> String {
    use std::error::Error;
    use uuidkit_service::client::{ServiceErrorKind, SYSTEM_SOCKET};
    if e.kind() != ServiceErrorKind::Unavailable {
        return e.to_string();
    }
    // One socket: its reason is the source; several: each reason is in the message.
    let nobody = match e.source().and_then(|s| s.downcast_ref::<std::io::Error>()) {
        Some(os) => matches!(
            os.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
        ),
        None => sockets.len() > 1,
    };
    if !nobody {
        return e.to_string();
    }
    let (whom, serve) = match sockets {
        [one] => (
            format!("no uuidkit service at {}", one.display()),
            format!("uuidkit serve --socket {}", one.display()),
        ),
        _ => (
            "no uuidkit service at any of them".to_string(),
            "uuidkit serve".to_string(),
        ),
    };
    let systemd = if sockets
        .iter()
        .any(|p| p.as_path() == std::path::Path::new(SYSTEM_SOCKET))
    {
        " (or `systemctl start uuidkit.socket` where the package is installed)"
    } else {
        ""
    };
    format!("{e}\n  {whom}: start one with `{serve}`{systemd}")
}

/// `gen --system`: UUIDs from the service, in requests of up to [`SYSTEM_BATCH`].
#[cfg(unix)]
fn run_system(
    version: TimeVersion,
    sockets: &[std::path::PathBuf],
    server_uid: Option<u32>,
    count: u64,
    to: ToForm,
    case: Case,
) -> CmdResult {
    // No fallback: whoever asks for --system wants the machine-wide guarantees.
    let mut cfg = ClientConfig::from_env()
        .sockets(sockets.iter().cloned())
        .fallback(false)
        .block(1);
    if let Some(uid) = server_uid {
        cfg = cfg.server_uid(uid);
    }
    let g = SystemGenerator::new(cfg);
    let mut out = Out::stdout();
    let mut batch = vec![Uuid::NIL; SYSTEM_BATCH];
    let mut volatile = false;
    let mut left = count;
    while left > 0 {
        let n = usize::try_from(left).map_or(SYSTEM_BATCH, |l| l.min(SYSTEM_BATCH));
        let filled = match g.fill(version, &mut batch[..n]) {
            Ok(f) => f,
            Err(e) => {
                out.flush()?;
                return Err(Fatal::Msg(no_service_hint(&e, sockets)));
            }
        };
        volatile |= !filled.safety.is_durable();
        representation::write_lines(&mut out, &batch[..n], to, case)?;
        left -= n as u64;
    }
    out.flush()?;
    if volatile {
        crate::io::warning(format_args!(
            "the service could not write its state file: these UUIDs are not durably safe \
             (a restart of the service could repeat them)"
        ));
    }
    Ok(Status::Ok)
}
