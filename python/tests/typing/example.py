"""Type-checked with `mypy --strict` by scripts/python-test: the package as a user types it."""

import uuid
from typing import List

import uuidkit


def new_ids(n: int) -> List[uuid.UUID]:
    ids: List[uuid.UUID] = [uuidkit.uuid7() for _ in range(n)]
    ids.extend(uuidkit.uuid4_list(n))
    return ids


def key(u: uuid.UUID) -> str:
    return u.hex


u: uuidkit.UUID = uuidkit.UUID("a8098c1a-f86e-11da-bd1a-00112444be1e", version=4)
v: uuid.UUID = uuidkit.uuid5(uuidkit.NAMESPACE_DNS, "python.org")
w: uuid.UUID = uuidkit.uuid8(1, 2, 3)
b: bytes = uuidkit.uuid7_bytes(10)
strings: List[str] = uuidkit.format_list(new_ids(3))
parsed: List[uuidkit.UUID] = uuidkit.parse_list(strings)
safe: uuid.SafeUUID = u.is_safe
n: int = u.int + (u.time or 0)
short: str = uuidkit.to_ulid(u) + uuidkit.to_short(v, "base58")
back: uuidkit.UUID = uuidkit.from_base64url(uuidkit.to_base64url(u))
prefix, tid = uuidkit.parse_typeid(uuidkit.typeid7("user"))
print(short, back, prefix, tid.version)
print(key(u), v, w, len(b), parsed, safe, n, uuidkit.MAX > uuidkit.NIL, uuidkit.getnode())
