import uuid as _std
from os import PathLike
from typing import Iterable, List, Optional, Union

from uuid import (
    RESERVED_FUTURE as RESERVED_FUTURE,
    RESERVED_MICROSOFT as RESERVED_MICROSOFT,
    RESERVED_NCS as RESERVED_NCS,
    RFC_4122 as RFC_4122,
    SafeUUID as SafeUUID,
    getnode as getnode,
)

__version__: str

class UUID(_std.UUID):
    """A uuid.UUID with Python 3.14's behaviour on every supported Python."""

    def __init__(
        self,
        hex: Optional[str] = None,
        bytes: Optional[bytes] = None,
        bytes_le: Optional[bytes] = None,
        fields: Optional[tuple[int, int, int, int, int, int]] = None,
        int: Optional[int] = None,
        version: Optional[int] = None,
        *,
        is_safe: SafeUUID = ...,
    ) -> None: ...

def uuid1(node: Optional[int] = None, clock_seq: Optional[int] = None) -> UUID: ...
def uuid3(namespace: _std.UUID, name: Union[str, bytes]) -> UUID: ...
def uuid4() -> UUID: ...
def uuid5(namespace: _std.UUID, name: Union[str, bytes]) -> UUID: ...
def uuid6(node: Optional[int] = None, clock_seq: Optional[int] = None) -> UUID: ...
def uuid7() -> UUID: ...
def uuid8(a: Optional[int] = None, b: Optional[int] = None, c: Optional[int] = None) -> UUID: ...

NAMESPACE_DNS: UUID
NAMESPACE_URL: UUID
NAMESPACE_OID: UUID
NAMESPACE_X500: UUID
NIL: UUID
MAX: UUID

def uuid4_list(n: int) -> List[UUID]: ...
def uuid7_list(n: int) -> List[UUID]: ...
def uuid4_bytes(n: int) -> bytes: ...
def uuid7_bytes(n: int) -> bytes: ...
def parse_list(strings: Iterable[str]) -> List[UUID]: ...
def format_list(uuids: Iterable[_std.UUID]) -> List[str]: ...
def use_system_service(
    enabled: bool = True,
    socket: Optional[Union[str, PathLike[str]]] = None,
    *,
    fallback: bool = False,
    block: int = 128,
    timeout: float = 5.0,
) -> None: ...
def system_service_enabled() -> bool: ...
