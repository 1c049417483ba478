"""UUID columns at memory speed: uuidkit's Rust kernels on Arrow arrays.

Every function takes any object that speaks the Arrow PyCapsule interface
(``__arrow_c_array__`` or ``__arrow_c_stream__``): a pyarrow ``Array``, ``ChunkedArray``,
``Table`` or ``RecordBatch`` of one column, a Polars ``Series``, a DuckDB result's
``.arrow()``, a nanoarrow array, or a result of this module. Neither pyarrow nor any other
Arrow library is needed to import or use it.

Results are :class:`Array` (for one array in, and for the generators) or
:class:`ChunkedArray` (one chunk per chunk of a chunked array or stream in). Both speak the
same interface, so ``pyarrow.array(r)``, ``pyarrow.chunked_array(r)``, ``polars.Series(r)``
and ``duckdb`` read them; pyarrow gets the very buffers the kernels wrote (no copy).

UUID columns are ``FixedSizeBinary(16)`` (the 16 bytes in RFC 9562 order) with Arrow's
canonical extension type ``arrow.uuid`` on their field; ``binary``, ``large_binary`` and
``binary_view`` columns whose values are all 16 bytes are read as UUID columns too (Polars
keeps UUIDs as binary).

- ``parse(column, form=None, errors="raise")``: text -> ``arrow.uuid``. ``form=None`` reads
  the four RFC forms (hyphenated, simple, braced, URN; either case) as ``uuid.UUID`` does;
  ``"hyphenated"``, ``"simple"``, ``"braced"``, ``"urn"``, ``"typeid"``, ``"ulid"``,
  ``"base32hex"``, ``"base58"``, ``"base58-flickr"``, ``"base64url"`` read only that form.
  ``errors="raise"`` raises ``ValueError`` naming the row and the character; ``"null"``
  makes bad rows null.
- ``format(column, form="hyphenated", prefix=None)``: ``arrow.uuid`` -> text in any form
  the library writes (the RFC forms also as ``"hyphenated-upper"`` etc.; ``"typeid"`` with
  ``prefix=``).
- ``uuid4(n)``, ``uuid7(n)``: ``n`` new UUIDs; ``uuid7``'s strictly increasing and
  continuing ``uuidkit.uuid7()``'s sequence.
- ``timestamp(column)``: ``timestamp[ms, tz=UTC]`` of v1, v6 and v7 UUIDs (null otherwise);
  ``version(column)``: ``uint8`` (null where the variant is not RFC 9562's);
  ``validate(column, form=None)``: ``bool``, true where the text parses.

``table(**columns)`` gives named columns as one stream of record batches (a table).

Nulls stay null. A column of the wrong type raises ``TypeError`` naming the type. The
kernels run with the GIL released; ``parse``, ``format``, ``timestamp``, ``uuid4`` and
``uuid7`` split columns of 2 x 2^18 rows and more over the machine's cores
(``set_max_threads``).

Results of 4 MiB and more are memory of their own that the consumer (pyarrow, Polars,
DuckDB) frees through the Arrow release callback; freed ones are kept for the next calls, up
to ``cache_limit()`` bytes (1 GiB, or a sixteenth of the machine's memory where that is less),
so that a call reuses memory already in place instead of fresh pages the system must zero.
``set_cache_limit(0)`` gives all of it back.
"""

from typing import Any, Optional

from . import _uuidkit as _native

__all__ = [
    "Array",
    "ChunkedArray",
    "parse",
    "format",
    "validate",
    "uuid4",
    "uuid7",
    "timestamp",
    "version",
    "Table",
    "table",
    "set_max_threads",
    "max_threads",
    "set_cache_limit",
    "cache_limit",
    "cache_held",
]

Array = _native.Array
ChunkedArray = _native.ChunkedArray
Table = _native.Table



def parse(column: Any, form: Optional[str] = None, errors: str = "raise") -> Any:
    """Text column -> ``arrow.uuid`` column (see the module docs for ``form`` and ``errors``)."""
    return _native._arrow_parse(column, form, errors)


def format(column: Any, form: str = "hyphenated", prefix: Optional[str] = None) -> Any:  # noqa: A001
    """UUID column -> text column in ``form`` (``prefix=`` for ``form="typeid"``)."""
    return _native._arrow_format(column, form, prefix)


def validate(column: Any, form: Optional[str] = None) -> Any:
    """Text column -> ``bool`` column: true where the row parses in ``form``."""
    return _native._arrow_validate(column, form)


def uuid4(n: int) -> Any:
    """``n`` random (version 4) UUIDs as an ``arrow.uuid`` column."""
    return _native._arrow_uuid4(n)


def uuid7(n: int) -> Any:
    """``n`` version 7 UUIDs, strictly increasing, after every ``uuidkit.uuid7()`` before."""
    return _native._arrow_uuid7(n)


def timestamp(column: Any) -> Any:
    """UUID column -> ``timestamp[ms, tz=UTC]`` column (v1, v6, v7; null otherwise)."""
    return _native._arrow_timestamp(column)


def version(column: Any) -> Any:
    """UUID column -> ``uint8`` version column (null where the variant is not RFC 9562's)."""
    return _native._arrow_version(column)


def set_max_threads(n: int) -> None:
    """The most threads a kernel splits a large column over (columns of 2 x 2^18 rows and more,
    parts of at least 2^18): 1 keeps every call on the calling thread, 0 (the default) means
    the machine's parallelism. Results do not depend on it."""
    _native._arrow_set_max_threads(n)


def max_threads() -> int:
    """The most threads a kernel uses (see :func:`set_max_threads`)."""
    return int(_native._arrow_max_threads())


def set_cache_limit(n: int) -> None:
    """The most bytes of freed result memory kept for later calls (results of 4 MiB and more
    only); what is kept beyond it is given back to the system at once, and 0 gives back
    everything and keeps nothing. Results do not depend on it, only how long a call takes."""
    _native._arrow_set_cache_limit(n)


def cache_limit() -> int:
    """The most bytes of freed result memory kept (see :func:`set_cache_limit`)."""
    return int(_native._arrow_cache_limit())


def cache_held() -> int:
    """The bytes of freed result memory kept now (0 while another thread is using the cache)."""
    return int(_native._arrow_cache_held())


def table(**columns: Any) -> Any:
    """Named columns of equal length (results of this module or any Arrow column) as one Arrow
    stream of record batches, for consumers that want a table: ``duckdb.from_arrow`` (DuckDB
    before 2.0 takes no bare column), ``pyarrow.table``, ``polars.DataFrame``. No data is
    copied: the batches are slices of the columns."""
    return _native._arrow_table(list(columns), list(columns.values()))
