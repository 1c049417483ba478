"""Fork safety of the CSPRNG and process-wide order of uuid7 across threads."""

import itertools
import multiprocessing
import os
import sys
import threading

import pytest

import uuidkit

FORKS = 300
PER_CHILD = 20


def _child_values():
    return [uuidkit.uuid4().bytes for _ in range(PER_CHILD)] + [uuidkit.uuid7().bytes]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is Unix-only")
def test_no_repeat_after_os_fork():
    # The parent draws first, so that its generator state exists before every fork.
    parent = [uuidkit.uuid4().bytes for _ in range(PER_CHILD)]
    seen = set(parent)
    total = len(parent)
    for _ in range(FORKS):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.close(r)
                os.write(w, b"".join(_child_values()))
            finally:
                os._exit(0)
        os.close(w)
        data = b""
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        assert status == 0
        values = [data[i:i + 16] for i in range(0, len(data), 16)]
        assert len(values) == PER_CHILD + 1
        seen.update(values)
        total += len(values)
        parent.append(uuidkit.uuid4().bytes)  # the parent goes on drawing between forks
        seen.add(parent[-1])
        total += 1
    assert len(seen) == total, "%d repeats in %d values" % (total - len(seen), total)
    print("fork test: %d forks, %d values, no repeat" % (FORKS, total))


def _pool_task(_):
    return [uuidkit.uuid4().bytes for _ in range(PER_CHILD)]


@pytest.mark.skipif(sys.platform == "win32", reason="no fork start method")
def test_no_repeat_with_multiprocessing_fork():
    uuidkit.uuid4()
    ctx = multiprocessing.get_context("fork")
    values = []
    for _ in range(10):  # new pools: new forks of a parent whose state moved on
        with ctx.Pool(4) as pool:
            for chunk in pool.map(_pool_task, range(40), chunksize=1):
                values.extend(chunk)
        values.append(uuidkit.uuid4().bytes)
    assert len(values) == 10 * (40 * PER_CHILD + 1)
    assert len(set(values)) == len(values)


def test_uuid7_from_8_threads_strictly_increasing_as_returned():
    # itertools.starmap calls uuid7 and list.extend appends without running any bytecode in
    # between, so (with the GIL) the shared list holds the values in the order the calls
    # returned, across all threads.
    log = []
    per_thread = 20000
    start = threading.Barrier(8)

    def work():
        start.wait()
        for _ in range(per_thread // 500):
            log.extend(itertools.starmap(uuidkit.uuid7, itertools.repeat((), 500)))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(log) == 8 * per_thread
    bad = sum(1 for a, b in zip(log, log[1:]) if not a < b)
    assert bad == 0, "%d out-of-order pairs" % bad
    print("threads test: 8 threads, %d uuid7, strictly increasing" % len(log))


def test_each_thread_sees_increasing_values_with_bulk_calls_mixed_in():
    results = [[] for _ in range(8)]

    def work(i):
        out = results[i]
        for n in range(2000):
            if n % 100 == 0:
                out.extend(uuidkit.uuid7_list(50))
            else:
                out.append(uuidkit.uuid7())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    everything = set()
    for out in results:
        assert all(a < b for a, b in zip(out, out[1:]))
        everything.update(out)
    assert len(everything) == sum(len(o) for o in results)


def test_8_threads_100k_uuid7_each_and_bulk_calls_from_4_threads_at_once():
    # The free-threaded check of the hardening issue, run on every build: with the GIL the
    # threads interleave at its switch interval; without it (a free-threaded build) they run
    # truly at once, which is what this is for.
    n = 100_000
    per_thread = [None] * 8
    barrier = threading.Barrier(8)

    def single(i):
        barrier.wait()
        per_thread[i] = [uuidkit.uuid7() for _ in range(n)]

    threads = [threading.Thread(target=single, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seen = set()
    for xs in per_thread:
        assert len(xs) == n
        assert all(a < b for a, b in zip(xs, xs[1:]))
        seen.update(u.int for u in xs)
    assert len(seen) == 8 * n
    bulk = [None] * 4
    barrier4 = threading.Barrier(4)

    def many(i):
        barrier4.wait()
        bulk[i] = (uuidkit.uuid7_bytes(n), uuidkit.uuid7_list(n // 10))

    threads = [threading.Thread(target=many, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for raw, lst in bulk:
        vals = [raw[k:k + 16] for k in range(0, len(raw), 16)]
        assert all(a < b for a, b in zip(vals, vals[1:]))
        assert all(a < b for a, b in zip(lst, lst[1:]))
        seen.update(int.from_bytes(v, "big") for v in vals)
        seen.update(u.int for u in lst)
    assert len(seen) == 8 * n + 4 * (n + n // 10)
