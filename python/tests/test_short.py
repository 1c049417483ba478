"""The library's short forms and TypeID as package functions."""

import uuid

import pytest

import uuidkit

FORMS = {"ulid": 26, "base32hex": 26, "base58": 22, "base58-flickr": 22, "base64url": 22}


@pytest.mark.parametrize("form,length", sorted(FORMS.items()))
def test_round_trips(form, length):
    for u in [uuidkit.NIL, uuidkit.MAX, uuid.uuid4(), *uuidkit.uuid7_list(200)]:
        s = uuidkit.to_short(u, form)
        assert isinstance(s, str) and len(s) == length
        back = uuidkit.from_short(s, form)
        assert back == u and type(back) is uuidkit.UUID
        assert uuidkit.from_short(s.encode(), form) == u


def test_known_values():
    # ULID of the max value, and base64url as the standard library encodes the 16 bytes.
    assert uuidkit.to_ulid(uuidkit.MAX) == "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
    import base64
    u = uuid.uuid4()
    assert uuidkit.to_base64url(u) == base64.urlsafe_b64encode(u.bytes).decode().rstrip("=")
    assert uuidkit.from_base64url(uuidkit.to_base64url(u)) == u
    assert uuidkit.from_ulid(uuidkit.to_ulid(u).lower()) == u
    assert uuidkit.from_base58(uuidkit.to_base58(u)) == u
    assert uuidkit.from_base32hex(uuidkit.to_base32hex(u)) == u
    xs = sorted(uuidkit.uuid4_list(100))
    assert [uuidkit.to_base32hex(x) for x in xs] == sorted(uuidkit.to_base32hex(x) for x in xs)


def test_typeid():
    u = uuidkit.UUID("01890a5d-ac96-774b-bcce-b302099a8057")
    assert uuidkit.to_typeid(u, "prefix") == "prefix_01h455vb4pex5vsknk084sn02q"
    assert uuidkit.parse_typeid("prefix_01h455vb4pex5vsknk084sn02q") == ("prefix", u)
    assert uuidkit.to_typeid(uuidkit.MAX) == "7zzzzzzzzzzzzzzzzzzzzzzzzz"
    p, v = uuidkit.parse_typeid(uuidkit.typeid7("user"))
    assert p == "user" and v.version == 7 and type(v) is uuidkit.UUID


@pytest.mark.parametrize("s,form,where", [
    ("01H455VB4PEX5VSKNK084SN0", "ulid", "length"), ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "ulid", ""),
    ("01H455VB4PEX5VSKNK084SN0IQ", "ulid", "byte 24"), ("0OOOOOOOOOOOOOOOOOOOOO", "base58", ""),
    ("!" * 22, "base64url", "byte 0"), ("é" * 22, "base64url", ""), ("\ud800" * 22, "base58", ""),
])
def test_bad_strings_are_value_errors_with_the_library_message(s, form, where):
    with pytest.raises(ValueError) as e:
        uuidkit.from_short(s, form)
    assert str(e.value) and where in str(e.value)


def test_bad_typeids_and_prefixes():
    with pytest.raises(ValueError, match="byte 0"):
        uuidkit.parse_typeid("_01h455vb4pex5vsknk084sn02q")
    with pytest.raises(ValueError, match="expected 26 characters, found 25"):
        uuidkit.parse_typeid("user_01h455vb4pex5vsknk084sn02")
    with pytest.raises(ValueError):
        uuidkit.to_typeid(uuidkit.NIL, "Bad")
    with pytest.raises(ValueError):
        uuidkit.typeid7("x" * 64)


def test_wrong_types_and_forms():
    with pytest.raises(TypeError):
        uuidkit.to_short("not a uuid", "ulid")
    with pytest.raises(TypeError):
        uuidkit.from_short(5, "ulid")
    with pytest.raises(TypeError):
        uuidkit.parse_typeid(None)
    with pytest.raises(ValueError, match="unknown short form"):
        uuidkit.to_short(uuidkit.NIL, "base99")
    with pytest.raises(ValueError, match="unknown short form"):
        uuidkit.from_short("x", "hex")
