"""uuid1(), uuid6() and uuid7() take their time from time.time_ns when a test has replaced it
(unittest.mock.patch, freezegun), as the standard module does; each case runs in a child
interpreter, since a time in the future moves the process-wide sequence ahead for good."""

import subprocess
import sys
import tempfile
import textwrap

GREGORIAN = 0x01B21DD213814000


def run(code):
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=120, cwd=tempfile.gettempdir())
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_mock_patch_time_ns_sets_the_timestamps():
    out = run("""
        import time, unittest.mock, uuidkit
        t = time.time_ns() + 3600 * 10**9        # an hour ahead: after every earlier value
        with unittest.mock.patch("time.time_ns", return_value=t):
            a, b, c = uuidkit.uuid7(), uuidkit.uuid1(), uuidkit.uuid6()
        print(a.time == t // 10**6, b.time == t // 100 + %d, c.time == t // 100 + %d)
        print(a.version, b.version, c.version)
        d = uuidkit.uuid7()                      # the real clock again, an hour behind
        print(d > a, d.time == a.time)
    """ % (GREGORIAN, GREGORIAN))
    assert out == ["True", "True", "True", "7", "1", "6", "True", "True"], out


def test_a_time_behind_the_sequence_keeps_the_order():
    out = run("""
        import unittest.mock, uuidkit
        a = uuidkit.uuid7()
        with unittest.mock.patch("time.time_ns", return_value=10**18):   # 2001
            b = uuidkit.uuid7()
            c = uuidkit.uuid6()
        print(b > a, b.time >= a.time)
    """)
    assert out == ["True", "True"], out


def test_freezegun_freezes_uuid7():
    out = run("""
        import freezegun, uuidkit
        with freezegun.freeze_time("2030-01-01T00:00:00Z"):
            u = uuidkit.uuid7()
            v = uuidkit.uuid7()
        print(u.time, v.time, v > u)
    """)
    assert out == ["1893456000000", "1893456000000", "True"], out


def test_a_replacement_that_fails_or_returns_nonsense_is_an_ordinary_error():
    out = run("""
        import unittest.mock, uuidkit
        def boom():
            raise RuntimeError("clock broken")
        for f, exc in ((boom, RuntimeError), (lambda: "soon", TypeError),
                       (lambda: -10**30, ValueError), (lambda: float("nan"), TypeError)):
            with unittest.mock.patch("time.time_ns", f):
                try:
                    uuidkit.uuid7()
                except exc as e:
                    print(type(e).__name__)
        print(uuidkit.uuid7().version)
    """)
    assert out == ["RuntimeError", "TypeError", "ValueError", "TypeError", "7"], out
