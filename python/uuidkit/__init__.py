"""uuidkit: a faster drop-in for the standard :mod:`uuid` module, with Python 3.14's API.

``import uuidkit as uuid`` works wherever the standard module is used. Every UUID it returns
is a :class:`uuid.UUID` (``uuidkit.UUID`` is a subclass of the standard class without any
state of its own), so ORMs, pydantic, json encoders and database adapters accept it as is.

Beyond the standard module: ``uuid6()``, ``uuid7()``, ``uuid8()``, ``NIL`` and ``MAX`` on
every Python from 3.9; bulk generation (``uuid4_list``, ``uuid7_list``, ``uuid4_bytes``,
``uuid7_bytes``), bulk parsing and formatting (``parse_list``, ``format_list``), and a switch
to the system service for order across processes (``use_system_service``, Unix).

Generators are uuidkit's (Rust): ``uuid4()`` draws from a ChaCha20 CSPRNG per thread, seeded
by the operating system and reseeded after ``fork()`` (no value repeats in a child);
``uuid1()``, ``uuid6()`` and ``uuid7()`` are process-wide and strictly increasing across all
threads of a process.
"""

import sys as _sys
import uuid as _std
from uuid import (
    RESERVED_FUTURE,
    RESERVED_MICROSOFT,
    RESERVED_NCS,
    RFC_4122,
    SafeUUID,
    getnode,
)

from . import _uuidkit as _native

__all__ = [
    "UUID",
    "SafeUUID",
    "getnode",
    "uuid1",
    "uuid3",
    "uuid4",
    "uuid5",
    "uuid6",
    "uuid7",
    "uuid8",
    "NAMESPACE_DNS",
    "NAMESPACE_URL",
    "NAMESPACE_OID",
    "NAMESPACE_X500",
    "NIL",
    "MAX",
    "RESERVED_NCS",
    "RFC_4122",
    "RESERVED_MICROSOFT",
    "RESERVED_FUTURE",
    "uuid4_list",
    "uuid7_list",
    "uuid4_bytes",
    "uuid7_bytes",
    "parse_list",
    "format_list",
    "use_system_service",
    "system_service_enabled",
    "to_short",
    "from_short",
    "to_ulid",
    "from_ulid",
    "to_base32hex",
    "from_base32hex",
    "to_base58",
    "from_base58",
    "to_base64url",
    "from_base64url",
    "to_typeid",
    "parse_typeid",
    "typeid7",
    "main",
]

__version__ = "0.1.0"

_int = int
_bytes = bytes
_UINT128_MAX = (1 << 128) - 1
# The variant (2 bits) and version (4 bits) fields.
_VARIANT_VERSION_MASK = (0xC000 << 48) | (0xF000 << 64)


class _Methods:
    """The Python-level attributes of :class:`UUID`, given to the native class by setup()."""

    def __init__(
        self,
        hex=None,
        bytes=None,
        bytes_le=None,
        fields=None,
        int=None,
        version=None,
        *,
        is_safe=SafeUUID.unknown,
    ):
        """Exactly one of hex, bytes, bytes_le, fields or int; see :class:`uuid.UUID`.

        The common forms (a plain string, ``bytes=``, ``int=``) are handled in native code
        before this runs; this is the general path, with the standard checks in the standard
        order, so each bad input raises what the standard module raises.
        """
        if (hex, bytes, bytes_le, fields, int).count(None) != 4:
            raise TypeError(
                "one of the hex, bytes, bytes_le, fields, or int arguments must be given"
            )
        if int is not None:
            value = int
        elif hex is not None:
            # Prefixes, braces and hyphens are optional (and removed wherever they are).
            digits = hex.replace("urn:", "").replace("uuid:", "")
            digits = digits.strip("{}").replace("-", "")
            if len(digits) != 32:
                raise ValueError("badly formed hexadecimal UUID string")
            value = _int(digits, 16)
        elif bytes_le is not None:
            if len(bytes_le) != 16:
                raise ValueError("bytes_le is not a 16-char string")
            assert isinstance(bytes_le, _bytes), repr(bytes_le)
            # time_low, time_mid and time_hi_version are little-endian in this form.
            big = bytes_le[3::-1] + bytes_le[5:3:-1] + bytes_le[7:5:-1] + bytes_le[8:]
            value = _int.from_bytes(big, "big")
        elif bytes is not None:
            if len(bytes) != 16:
                raise ValueError("bytes is not a 16-char string")
            assert isinstance(bytes, _bytes), repr(bytes)
            value = _int.from_bytes(bytes, "big")
        else:
            if len(fields) != 6:
                raise ValueError("fields is not a 6-tuple")
            (time_low, time_mid, time_hi_version, clock_seq_hi_variant, clock_seq_low, node) = (
                fields
            )
            widths = (32, 16, 16, 8, 8, 48)
            unpacked = (time_low, time_mid, time_hi_version, clock_seq_hi_variant, clock_seq_low, node)
            for n, (field, width) in enumerate(zip(unpacked, widths), 1):
                if not 0 <= field < (1 << width):
                    raise ValueError(
                        "field %d out of range (need a %d-bit value)" % (n, width)
                        if width != 8
                        else "field %d out of range (need an 8-bit value)" % n
                    )
            value = (
                (time_low << 96)
                | (time_mid << 80)
                | (time_hi_version << 64)
                | (((clock_seq_hi_variant << 8) | clock_seq_low) << 48)
                | node
            )
        if not 0 <= value <= _UINT128_MAX:
            raise ValueError("int is out of range (need a 128-bit value)")
        if version is not None:
            if not 1 <= version <= 8:
                raise ValueError("illegal version number")
            # Variant 10 (RFC 9562), then the version.
            value = (value & ~_VARIANT_VERSION_MASK) | (0x8000 << 48) | (version << 76)
        object.__setattr__(self, "int", value)
        object.__setattr__(self, "is_safe", is_safe)

    @property
    def time(self):
        """The timestamp: 60-bit Gregorian ticks for v1 and v6, Unix milliseconds for v7.

        Any other version reads the v1 layout (as the standard module does).
        """
        v = self.int
        version = self.version
        if version == 6:
            return ((v >> 96) << 28) | (((v >> 80) & 0xFFFF) << 12) | ((v >> 64) & 0x0FFF)
        if version == 7:
            return v >> 80
        return (((v >> 64) & 0x0FFF) << 48) | (((v >> 80) & 0xFFFF) << 32) | (v >> 96)

    def __reduce__(self):
        # A plain uuid.UUID on loading: a pickle must load where uuidkit is not installed.
        return (_std.UUID, (None, None, None, None, self.int), self.__getstate__())

    def __copy__(self):
        return self  # immutable

    def __deepcopy__(self, memo):
        return self


def _make_class():
    probe = object.__new__(_std.UUID)
    int_mark, safe_mark = object(), object()
    object.__setattr__(probe, "int", int_mark)
    object.__setattr__(probe, "is_safe", safe_mark)
    methods = {
        k: v for k, v in vars(_Methods).items() if k not in ("__dict__", "__weakref__", "__module__")
    }
    methods["__doc__"] = """A UUID (RFC 9562): the standard :class:`uuid.UUID` with Python 3.14's behaviour.

    Instances are ``uuid.UUID`` instances: same constructor (``hex``, ``bytes``,
    ``bytes_le``, ``fields``, ``int``, ``version``, ``is_safe``), attributes, comparisons,
    hash, ``repr`` and exceptions, on every Python from 3.9. Versions 6, 7 and 8 are accepted
    by ``version=`` and ``time`` reads v6 and v7 timestamps as 3.14 does.

    A pickle of one loads as a plain ``uuid.UUID`` (equal to it) where uuidkit is not
    installed.
    """
    for f in (methods["__init__"], methods["__reduce__"], methods["__copy__"], methods["__deepcopy__"]):
        f.__qualname__ = "UUID." + f.__name__
    import time

    return _native.setup(
        _std.UUID,
        methods,
        probe,
        int_mark,
        safe_mark,
        SafeUUID,
        _sys.hash_info.modulus,
        time,
    )


UUID = _make_class()
del _make_class, _Methods

_from_int = _native._from_int
_uuid1 = _native._uuid1
_uuid6 = _native._uuid6

uuid4 = _native.uuid4
uuid7 = _native.uuid7
uuid3 = _native.uuid3
uuid5 = _native.uuid5
uuid4_list = _native.uuid4_list
uuid7_list = _native.uuid7_list
uuid4_bytes = _native.uuid4_bytes
uuid7_bytes = _native.uuid7_bytes
parse_list = _native.parse_list
format_list = _native.format_list

# The library's short text forms and TypeID: a bad string is a ValueError naming the rule
# broken and the byte, a wrong type a TypeError.
to_short = _native.to_short
from_short = _native.from_short
to_typeid = _native.to_typeid
parse_typeid = _native.parse_typeid
typeid7 = _native.typeid7


def to_ulid(u):
    """``u`` as ULID text: 26 characters of Crockford's base32, upper case."""
    return to_short(u, "ulid")


def from_ulid(s):
    """A UUID from ULID text (either case; I, L, O, U are errors)."""
    return from_short(s, "ulid")


def to_base32hex(u):
    """``u`` in base32hex (RFC 4648 section 7): 26 characters that sort like the bytes."""
    return to_short(u, "base32hex")


def from_base32hex(s):
    """A UUID from base32hex text."""
    return from_short(s, "base32hex")


def to_base58(u):
    """``u`` in base58, Bitcoin's alphabet, padded to 22 characters."""
    return to_short(u, "base58")


def from_base58(s):
    """A UUID from base58 text (Bitcoin's alphabet)."""
    return from_short(s, "base58")


def to_base64url(u):
    """``u`` in unpadded base64url (RFC 4648 section 5): 22 characters."""
    return to_short(u, "base64url")


def from_base64url(s):
    """A UUID from unpadded base64url text."""
    return from_short(s, "base64url")


try:
    use_system_service = _native.use_system_service
    system_service_enabled = _native.system_service_enabled
except AttributeError:  # not Unix: there is no service

    def use_system_service(enabled=True, socket=None, *, fallback=False, block=128, timeout=5.0):
        """The system service is Unix-only."""
        if enabled:
            raise OSError("uuidkit: the system service exists on Unix only")

    def system_service_enabled():
        """Always False here (the system service is Unix-only)."""
        return False


def uuid1(node=None, clock_seq=None):
    """A version-1 UUID from the process-wide generator (strictly increasing timestamps).

    Without ``node`` the node is :func:`getnode` (the hardware address, or the standard
    module's random multicast node when it finds none), as in the standard module. ``node``
    and ``clock_seq`` replace the generated ones, with the standard module's checks.
    """
    if node is None and clock_seq is None:
        return _uuid1(getnode())
    u = _uuid1()
    if clock_seq is None:
        clock_seq = u.clock_seq
    if node is None:
        node = getnode()
    return UUID(
        fields=(
            u.time_low,
            u.time_mid,
            u.time_hi_version & 0x0FFF,
            (clock_seq >> 8) & 0x3F,
            clock_seq & 0xFF,
            node,
        ),
        version=1,
    )


def uuid6(node=None, clock_seq=None):
    """A version-6 UUID from the process-wide generator (strictly increasing).

    Without ``node`` the node is :func:`getnode`, as in Python 3.14. ``node`` (48 bits kept)
    and ``clock_seq`` (14 bits kept) replace the generated ones, as in Python 3.14.
    """
    if node is None:
        node = getnode()
    if clock_seq is None:
        return _uuid6(node & 0xFFFF_FFFF_FFFF)
    value = _uuid6().int
    if clock_seq is not None:
        value = (value & ~(0x3FFF << 48)) | ((clock_seq & 0x3FFF) << 48)
    if node is not None:
        value = (value & ~0xFFFF_FFFF_FFFF) | (node & 0xFFFF_FFFF_FFFF)
    return _from_int(value)


def uuid8(a=None, b=None, c=None):
    """A version-8 UUID from three custom blocks, as in Python 3.14.

    ``a`` is the first 48 bits, ``b`` the next 12, ``c`` the last 62; a block not given is
    drawn from uuidkit's CSPRNG (the standard module uses ``random``).
    """
    if a is None or b is None or c is None:
        r = _native._random_u128()
        if a is None:
            a = r >> 80
        if b is None:
            b = (r >> 64) & 0xFFF
        if c is None:
            c = r & 0x3FFF_FFFF_FFFF_FFFF
    value = (a & 0xFFFF_FFFF_FFFF) << 80
    value |= (b & 0xFFF) << 64
    value |= c & 0x3FFF_FFFF_FFFF_FFFF
    value |= (8 << 76) | (0x8000 << 48)
    return _from_int(value)


NAMESPACE_DNS = UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_URL = UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_OID = UUID("6ba7b812-9dad-11d1-80b4-00c04fd430c8")
NAMESPACE_X500 = UUID("6ba7b814-9dad-11d1-80b4-00c04fd430c8")

NIL = UUID(int=0)
MAX = UUID(int=_UINT128_MAX)


def main(argv=None):
    """Run the uuid command line interface (``python -m uuidkit``), as ``uuid.main()``."""
    from uuidkit._cli import main as _main

    return _main(argv)
