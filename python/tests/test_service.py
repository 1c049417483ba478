"""The switch to the system service, against a real `uuidkit serve` started here.

The server is the repository's CLI: $UUIDKIT_BIN, else target/release/uuidkit, else
target/debug/uuidkit (scripts/python-test builds one when none is there). No binary fails the
test: it is never skipped.
"""

import os
import subprocess
import sys
import time
import uuid

import pytest

import uuidkit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def server_binary():
    env = os.environ.get("UUIDKIT_BIN")
    candidates = [env] if env else [os.path.join(ROOT, "target", d, "uuidkit") for d in ("release", "debug")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    pytest.fail("no uuidkit binary to run the service (tried %s); build it with "
                "`cargo build --release` or set UUIDKIT_BIN" % candidates)


@pytest.fixture
def service(tmp_path):
    sock = tmp_path / "uuidkit.sock"
    proc = subprocess.Popen(
        [server_binary(), "serve", "--socket", str(sock), "--state", str(tmp_path / "state")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while not sock.exists():
            if proc.poll() is not None:
                pytest.fail("uuidkit serve exited: %s" % proc.stderr.read().decode(errors="replace"))
            if time.monotonic() > deadline:
                pytest.fail("uuidkit serve did not create its socket within 20 s")
            time.sleep(0.02)
        yield str(sock)
    finally:
        uuidkit.use_system_service(False)
        proc.terminate()
        proc.wait(timeout=20)


CHILD = (
    "import sys, uuidkit; uuidkit.use_system_service(socket=sys.argv[1], block=1);"
    "print(uuidkit.uuid7(), uuidkit.uuid6(), uuidkit.uuid7().is_safe.name)"
)


def test_order_across_processes(service):
    uuidkit.use_system_service(socket=service, block=1)
    assert uuidkit.system_service_enabled()
    seq7, seq6 = [], []
    for _ in range(5):
        a7, a6 = uuidkit.uuid7(), uuidkit.uuid6()
        out = subprocess.run([sys.executable, "-c", CHILD, service], capture_output=True,
                             text=True, cwd=str(os.path.dirname(service)))
        assert out.returncode == 0, out.stderr
        b7, b6, safe = out.stdout.split()
        seq7 += [a7, uuid.UUID(b7)]
        seq6 += [a6, uuid.UUID(b6)]
        assert safe == "safe"
    seq7.append(uuidkit.uuid7())
    seq6.append(uuidkit.uuid6())
    # One order across this process and five others, as they were asked in turn.
    assert all(x < y for x, y in zip(seq7, seq7[1:])), seq7
    assert all(x < y for x, y in zip(seq6, seq6[1:])), seq6
    u = uuidkit.uuid7()
    assert u.version == 7 and u.is_safe is uuid.SafeUUID.safe
    assert uuidkit.uuid1().version == 1
    xs = uuidkit.uuid7_list(1000)
    b = uuidkit.uuid7_bytes(100)
    assert xs == sorted(xs) and len(set(xs)) == 1000 and u < xs[0]
    assert xs[-1] < uuid.UUID(bytes=b[:16])


def test_service_gone_without_fallback_raises(service, tmp_path):
    uuidkit.use_system_service(socket=str(tmp_path / "elsewhere.sock"), timeout=0.5)
    with pytest.raises(ConnectionError):
        uuidkit.uuid7()
    with pytest.raises(ConnectionError):
        uuidkit.uuid7_bytes(10)
