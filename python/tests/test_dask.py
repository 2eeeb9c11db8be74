"""rnsfhe.dask on a LocalCluster of 2 worker processes: results equal the single-process run (BFV and
CKKS), evaluation keys reach each worker once, a worker killed mid-job loses nothing, and a job whose
keys were never published fails with MissingKeyError."""

import functools
import operator
import os
import signal
import time

import numpy as np
import pytest

pytest.importorskip("distributed")

import cloudpickle  # noqa: E402

# Worker processes cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(__import__(__name__))

import rnsfhe  # noqa: E402
from rnsfhe.dask import (  # noqa: E402
    EvaluationKeys,
    encrypt_partitions,
    map_ciphertexts,
    publish_keys,
    tree_sum,
)

from worst import worst_error  # noqa: E402


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as c:
        yield c


def _local_sum(cts):
    return functools.reduce(operator.add, cts)


def _polynomials(ct):
    """A ciphertext's bytes without its BFV noise bounds (and checksum): the polynomials are bit-exact
    whatever the order of the additions, the bounds (floating-point metadata) are not."""
    b = ct.to_bytes()
    if isinstance(ct, rnsfhe.BfvCiphertext):
        at = 16 + 8 * b[15]  # after the header (15 bytes) and the key identity
        if b[at] == 1:
            b = b[:at] + b[at + 17:]
    return b[:-4]


def _install_restore_counter():
    """On a worker: counts every object unpickled (by kind) and its payload bytes."""
    import collections
    import rnsfhe._rnsfhe as ext

    original = getattr(ext, "_original_restore", ext._restore)
    counts, sizes = collections.Counter(), collections.Counter()

    def counting(kind, params, data):
        counts[kind] += 1
        sizes[kind] += memoryview(data).nbytes
        return original(kind, params, data)

    # Pickles of objects made on this worker refer to rnsfhe._rnsfhe._restore by name.
    counting.__module__, counting.__qualname__ = "rnsfhe._rnsfhe", "_restore"
    ext._original_restore, ext._restore, ext._restore_counts = original, counting, (counts, sizes)


def _remove_restore_counter():
    import rnsfhe._rnsfhe as ext

    ext._restore = ext._original_restore


def _restore_counts():
    import rnsfhe._rnsfhe as ext

    counts, sizes = ext._restore_counts
    return dict(counts), dict(sizes)


@pytest.mark.parametrize("scheme", ["bfv", "ckks"])
def test_results_equal_the_single_process_run(client, scheme, request, rng):
    import dask.bag as db

    ctx, sk, pk, rlk, gk = request.getfixturevalue(scheme)
    publish_keys(client, ctx, relin_key=rlk, galois_keys=gk)
    if scheme == "bfv":
        values = rng.integers(0, 100, 10 * ctx.slots)

        def job(c):
            return (c * c + c).rotate_rows(1)
    else:
        values = rng.uniform(-1, 1, 10 * ctx.slots)

        def job(c):
            return (c * c + 0.5).rotate(1)
    cts = encrypt_partitions(client, ctx, values, sk)
    local = client.gather(cts)
    assert len(local) == 10 and all(c.key_id == sk.key_id for c in local)
    total = tree_sum(client, map_ciphertexts(client, job, cts), fan_in=3).result()
    expected = _local_sum([job(c) for c in local])
    assert _polynomials(total) == _polynomials(expected)  # bit for bit the single-process result
    bag = db.from_sequence(local, npartitions=4).map(job)
    assert _polynomials(tree_sum(None, bag, fan_in=2).compute()) == _polynomials(expected)

    parts = values.reshape(10, -1)
    got = ctx.decrypt(total, sk)
    if scheme == "bfv":
        t = ctx.params.plain_modulus
        rows = (parts * parts + parts).sum(axis=0).reshape(2, -1)  # rotate_rows: each row of n/2
        want = np.roll(rows, -1, axis=1).ravel() % t
        assert np.array_equal(got, want)
    else:
        want = np.roll((parts * parts + 0.5).sum(axis=0), -1)
        assert worst_error(got, want) < 1e-4


def test_keys_reach_each_worker_once(client, bfv, rng):
    ctx, sk0, *_ = bfv
    sk, _pk = ctx.keygen()  # a pair of its own, published while the workers count
    rlk = ctx.relin_key(sk)
    client.run(_install_restore_counter)
    try:
        publish_keys(client, ctx, relin_key=rlk)
        for _ in range(3):  # three jobs of 8 tasks each, every task multiplying
            cts = encrypt_partitions(client, ctx, rng.integers(0, 50, 8 * ctx.slots), sk)
            tree_sum(client, map_ciphertexts(client, lambda c: c * c, cts)).result()
        per_worker = client.run(_restore_counts)
        # The counter does see keys that travel with tasks: a closure over the key ships it each time.
        cts = encrypt_partitions(client, ctx, rng.integers(0, 50, 4 * ctx.slots), sk)
        client.gather(map_ciphertexts(client, lambda c: ctx.multiply(c, c, rlk), cts))
        shipped = sum(c.get("bfv:RelinKey", 0) for c, _ in client.run(_restore_counts).values())
    finally:
        client.run(_remove_restore_counter)
    assert len(per_worker) == 2
    ciphertexts = 0
    for counts, sizes in per_worker.values():
        # The relinearisation key arrived once (in the plugin), its full bytes, not with any task.
        assert counts.get("bfv:RelinKey") == 1, counts
        assert sizes["bfv:RelinKey"] == len(rlk.to_bytes())
        ciphertexts += counts.get("BfvCiphertext", 0)
    assert ciphertexts >= 24  # every task's input arrived as a ciphertext
    assert shipped >= 2 + 4


def test_a_secret_key_is_never_shipped_and_bad_arguments_raise(client, bfv):
    ctx, sk, pk, rlk, gk = bfv
    with pytest.raises(rnsfhe.SecretKeyExportError, match="must not be shipped"):
        EvaluationKeys(ctx, relin_key=sk)
    with pytest.raises(TypeError, match="RelinKey"):
        EvaluationKeys(ctx, relin_key=pk)
    with pytest.raises(ValueError, match="at least one"):
        EvaluationKeys(ctx)
    other_sk, _ = ctx.keygen()
    with pytest.raises(ValueError, match="different key pairs"):
        EvaluationKeys(ctx, relin_key=rlk, galois_keys=ctx.galois_keys(other_sk, steps=[1]))
    with pytest.raises(ValueError, match="chunk must be positive"):
        encrypt_partitions(client, ctx, np.arange(10), sk, chunk=-1)
    with pytest.raises(ValueError, match="no ciphertexts"):
        tree_sum(client, [])
    with pytest.raises(ValueError, match="fan_in"):
        tree_sum(client, [1, 2], fan_in=1)
    flat = encrypt_partitions(client, ctx, [1, 2, 3], sk)  # a list of numbers is one vector
    assert len(flat) == 1 and list(ctx.decrypt(flat[0].result(), sk)[:4]) == [1, 2, 3, 0]


def test_workers_without_keys_fail_fast_with_missing_key_error(client, bfv, rng):
    ctx, *_ = bfv
    sk, _pk = ctx.keygen()  # this pair's keys are never published
    cts = encrypt_partitions(client, ctx, rng.integers(0, 50, 2 * ctx.slots), sk)
    future = tree_sum(client, map_ciphertexts(client, lambda c: c * c, cts))
    with pytest.raises(rnsfhe.MissingKeyError, match=f"key pair {sk.key_id}"):
        future.result(timeout=60)


def test_a_worker_killed_mid_job_loses_nothing(client, bfv, rng):
    ctx, sk, pk, rlk, gk = bfv
    publish_keys(client, ctx, relin_key=rlk)
    values = rng.integers(0, 100, 16 * ctx.slots)
    cts = encrypt_partitions(client, ctx, values, sk)
    local = client.gather(cts)

    def slow_square(c):
        import time
        time.sleep(0.2)
        return c * c

    squares = map_ciphertexts(client, slow_square, cts)
    total = tree_sum(client, squares, fan_in=4)
    deadline = time.monotonic() + 60
    while sum(f.done() for f in squares) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not total.done()
    has_what = client.has_what()
    victim = max(has_what, key=lambda w: len(has_what[w]))
    assert has_what[victim]  # it holds ciphertexts or results that are now lost
    os.kill(client.run(os.getpid)[victim], signal.SIGKILL)

    result = total.result(timeout=120)
    assert victim not in client.scheduler_info()["workers"]
    assert _polynomials(result) == _polynomials(_local_sum([c * c for c in local]))
    t = ctx.params.plain_modulus
    assert np.array_equal(ctx.decrypt(result, sk), (values.reshape(16, -1) ** 2).sum(axis=0) % t)


def test_bootstrapping_on_workers(client, rng):
    """Bootstrapping keys reach each worker once (through the plugin, carrying their preset: the
    workers never call `bootstrappable`), and `ct.bootstrap()` runs in a mapped function."""
    params = rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure")
    ctx = rnsfhe.CkksContext(params)
    sk, pk = ctx.keygen()
    keys = ctx.bootstrapping_keys(sk, progress=False)
    client.run(_install_restore_counter)
    try:
        publish_keys(client, ctx, bootstrapping_keys=keys)
        values = rng.uniform(-1, 1, 4 * ctx.slots)
        cts = [ctx.drop_to_level(ctx.encrypt(values[i * ctx.slots:(i + 1) * ctx.slots], pk), 0)
               for i in range(4)]
        out = client.gather(map_ciphertexts(client, lambda c: c.bootstrap(), cts))
        per_worker = client.run(_restore_counts)
    finally:
        client.run(_remove_restore_counter)
    for counts, sizes in per_worker.values():
        assert counts.get("ckks:BootstrappingKeys") == 1, counts
        assert sizes["ckks:BootstrappingKeys"] == keys.nbytes
    for i, c in enumerate(out):
        assert c.level == ctx.bootstrap_level
        assert worst_error(ctx.decrypt(c, sk), values[i * ctx.slots:(i + 1) * ctx.slots]) < 2e-5
