import sys
import uuid

import pytest

# The standard module of this Python accepts versions 1-5 only before 3.14 and lacks
# uuid6/uuid7/uuid8; uuidkit has 3.14's behaviour everywhere.
STD_HAS_314 = sys.version_info >= (3, 14)


def outcome(f, *args, **kwargs):
    """('ok', value) or ('err', exception type) of a call."""
    try:
        r = f(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 - the type is what is compared
        return ("err", type(e))
    if isinstance(r, uuid.UUID):
        return ("ok", (r.int, r.is_safe))
    return ("ok", r)


@pytest.fixture
def std():
    return uuid
