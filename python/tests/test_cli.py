"""`python -m uuidkit` and `uuidkit.main` against the standard module's `python -m uuid`
(3.12 on): the same options, the same messages and exit statuses for bad arguments."""

import subprocess
import sys
import tempfile
import uuid

import pytest

import uuidkit

STD_HAS_CLI = sys.version_info >= (3, 12)


def run(module, *args):
    p = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                       timeout=60, cwd=tempfile.gettempdir(), env={"NO_COLOR": "1", "PATH": ""})
    return p.returncode, p.stdout, p.stderr


def last_line(err):
    return err.strip().splitlines()[-1] if err.strip() else ""


BAD = [
    ["-u", "uuid3"],
    ["-u", "uuid5", "-n", "@dns"],
    ["-u", "uuid5", "-N", "x"],
    ["-u", "bogus"],
    ["--bogus"],
    ["-C", "many"],
    ["-u", "uuid3", "-n", "not-a-uuid", "-N", "x"],
]


@pytest.mark.parametrize("args", BAD)
def test_bad_arguments_exit_2_with_the_standard_message(args):
    rc, out, err = run("uuidkit", *args)
    assert rc == 2 and out == ""
    msg = last_line(err)
    assert msg.startswith("python -m uuidkit: error: ") or msg.startswith("usage:"), err
    if STD_HAS_CLI:
        src, _, serr = run("uuid", *args)
        # 3.12 lets a bad namespace's ValueError escape (exit 1); 3.14 reports it (exit 2).
        if args[-3:-2] == ["not-a-uuid"] and sys.version_info < (3, 14):
            assert src == 1
            return
        ours = msg.split(": error: ", 1)[1]
        if "-C" in args and sys.version_info < (3, 14):
            # -C is 3.14's: before it the standard module does not know the option.
            assert ours == "argument -C/--count: invalid int value: 'many'"
            return
        assert src == 2
        theirs = last_line(serr).split(": error: ", 1)[1]
        theirs = theirs.replace("python -m uuid -h", "python -m uuidkit -h")
        if sys.version_info < (3, 14):
            # 3.12's choices end at uuid5; uuidkit's are 3.14's.
            theirs = theirs.replace("'uuid5')", "'uuid5', 'uuid6', 'uuid7', 'uuid8')")
        assert ours == theirs, (ours, theirs)


def test_the_message_for_a_missing_name_word_for_word():
    rc, _, err = run("uuidkit", "-u", "uuid3")
    assert rc == 2
    assert last_line(err) == (
        "python -m uuidkit: error: Incorrect number of arguments. uuid3 requires a namespace "
        "and a name. Run 'python -m uuidkit -h' for more information.")


@pytest.mark.parametrize("args,check", [
    ([], lambda u: u.version == 4),
    (["-u", "uuid1"], lambda u: u.version == 1),
    (["-u", "uuid7"], lambda u: u.version == 7),
    (["-u", "uuid5", "-n", "@dns", "-N", "python.org"],
     lambda u: u == uuid.uuid5(uuid.NAMESPACE_DNS, "python.org")),
    (["--uuid", "uuid3", "--namespace", str(uuid.NAMESPACE_URL), "--name", "x"],
     lambda u: u == uuid.uuid3(uuid.NAMESPACE_URL, "x")),
])
def test_good_arguments_print_one_uuid(args, check):
    rc, out, err = run("uuidkit", *args)
    assert rc == 0, err
    assert check(uuid.UUID(out.strip()))


def test_count_and_main():
    rc, out, _ = run("uuidkit", "-u", "uuid7", "-C", "5")
    lines = [uuid.UUID(x) for x in out.split()]
    assert rc == 0 and len(lines) == 5 and lines == sorted(lines)
    with pytest.raises(SystemExit) as e:
        uuidkit.main(["-u", "uuid5"])
    assert e.value.code == 2
    assert uuidkit.main(["-u", "uuid4", "-C", "0"]) is None


def test_help_names_every_option():
    rc, out, _ = run("uuidkit", "-h")
    assert rc == 0
    for opt in ("-u", "--uuid", "-n", "--namespace", "-N", "--name", "-C", "--count"):
        assert opt in out
