"""rnsfhe.dask over encrypted Parquet data sets on a LocalCluster of 2 worker processes:
statistics computed by the workers from the files equal numpy's, results written back by the
workers read again, no ciphertext byte passes through the scheduler, and a worker killed mid-job
loses nothing (its partitions are read again from the files)."""

import os
import signal
import time

import numpy as np
import pytest

pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

import cloudpickle  # noqa: E402

cloudpickle.register_pickle_by_value(__import__(__name__))

import rnsfhe  # noqa: E402
import rnsfhe.dask as rd  # noqa: E402
from rnsfhe import io  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as c:
        yield cluster, c


@pytest.fixture(scope="module")
def data(bfv, tmp_path_factory):
    """2400 records of a weight and its group (3 groups as 0/1 indicator columns), 100 records per
    ciphertext, in 4 files of 2 row groups each."""
    ctx, sk, pk, rlk, gk = bfv
    rng = np.random.default_rng(26)
    weight, group = rng.integers(80, 250, 2400), rng.integers(0, 3, 2400)
    cols = {"w": weight, **{f"g{g}": (group == g).astype(np.int64) for g in range(3)}}
    path = str(tmp_path_factory.mktemp("records"))
    io.write_encrypted(path, ctx, cols, sk, records_per_ciphertext=100, row_group_size=3,
                       file_size=6, progress=False)
    return path, weight, group


def _stats(row):
    w = row["w"]
    return {"s": w, "s2": w * w}


def _slots(ctx, sk, x):
    """The decrypted per-slot totals of the 100 slots the layout uses."""
    got = ctx.decrypt(x, sk)
    assert not got[100:].any()
    return got[:100]


def _want(values, t):
    """numpy's per-slot totals mod t: record i*100+j is slot j of ciphertext i."""
    return values.reshape(-1, 100).sum(axis=0) % t


def test_statistics_from_files_equal_numpy(cluster, bfv, data):
    _, client = cluster
    ctx, sk, pk, rlk, gk = bfv
    path, weight, group = data
    rd.publish_keys(client, ctx, relin_key=rlk)
    rows = rd.read_encrypted(path, ctx, key=sk)
    assert rows.npartitions == 8
    stats, groups = rd.gather(client, [
        rd.tree_sum(None, rows.map(_stats), fan_in=3),
        rd.group_sums(rows, "w", {"a": "g0", "b": "g1", "c": "g2"})])
    t = ctx.params.plain_modulus
    assert np.array_equal(_slots(ctx, sk, stats["s"]), _want(weight, t))
    assert np.array_equal(_slots(ctx, sk, stats["s2"]), _want(weight * weight, t))
    for g, name in enumerate("abc"):
        count, total = groups[name]
        assert np.array_equal(_slots(ctx, sk, count), _want(group == g, t))
        assert np.array_equal(_slots(ctx, sk, total), _want(weight * (group == g), t))

    # Written back by the workers (one file per partition of per-row results), read again.
    out = os.path.join(os.path.dirname(path), "squares")
    files = rd.gather(client, rd.to_parquet(rows.map(lambda r: {"sq": r["w"] * r["w"],
                                                                "records": r["records"]}),
                                            out, ctx))
    assert len(files) == 8
    back = list(io.open_dataset(out, ctx, key=sk).rows())
    got = np.concatenate([ctx.decrypt(r["sq"], sk)[:r["records"]] for r in back])
    assert np.array_equal(got, weight * weight % t)


def test_ckks_statistics_from_files_to_stated_precision(cluster, ckks, tmp_path):
    """CKKS: mean and mean square of 5000 reals in [-1, 1] from 5 files, within 1e-6 of numpy's."""
    _, client = cluster
    ctx, sk, pk, rlk, gk = ckks
    x = np.random.default_rng(5).uniform(-1, 1, 5000)
    io.write_encrypted(str(tmp_path), ctx, {"x": x}, pk, row_group_size=1, file_size=1,
                       progress=False)
    rd.publish_keys(client, ctx, relin_key=rlk)
    rows = rd.read_encrypted(str(tmp_path), ctx, key=sk)
    assert rows.npartitions == 5  # 1024 slots per ciphertext, one per file
    total = rd.gather(client, rd.tree_sum(None, rows.map(lambda r: {"s": r["x"],
                                                                    "s2": r["x"] * r["x"]})))
    assert abs(ctx.decrypt(total["s"], sk).real.sum() / 5000 - x.mean()) < 1e-6
    assert abs(ctx.decrypt(total["s2"], sk).real.sum() / 5000 - (x * x).mean()) < 1e-6


def _install_scheduler_counter(dask_scheduler):
    """Counts the bytes of every graph the scheduler receives and its gathers and scatters."""
    counts = {"graph_bytes": 0, "gather": 0, "scatter": 0}
    update = dask_scheduler.stream_handlers["update-graph"]

    async def counting_update(*args, expr_ser=None, **kwargs):
        counts["graph_bytes"] += sum(memoryview(f).nbytes for f in expr_ser.frames)
        return await update(*args, expr_ser=expr_ser, **kwargs)

    def counting(name, handler):
        async def wrapped(*args, **kwargs):
            counts[name] += 1
            return await handler(*args, **kwargs)
        return wrapped

    dask_scheduler._rnsfhe_saved = {
        "update-graph": update, "gather": dask_scheduler.handlers["gather"],
        "scatter": dask_scheduler.handlers["scatter"]}
    dask_scheduler.stream_handlers["update-graph"] = counting_update
    dask_scheduler.handlers["gather"] = counting("gather", dask_scheduler.handlers["gather"])
    dask_scheduler.handlers["scatter"] = counting("scatter", dask_scheduler.handlers["scatter"])
    dask_scheduler._rnsfhe_counts = counts


def _remove_scheduler_counter(dask_scheduler):
    saved = dask_scheduler._rnsfhe_saved
    dask_scheduler.stream_handlers["update-graph"] = saved["update-graph"]
    dask_scheduler.handlers["gather"] = saved["gather"]
    dask_scheduler.handlers["scatter"] = saved["scatter"]
    return dict(dask_scheduler._rnsfhe_counts)


def test_no_ciphertext_byte_passes_through_the_scheduler(cluster, bfv, data):
    _, client = cluster
    ctx, sk, pk, rlk, gk = bfv
    path, weight, _ = data
    rd.publish_keys(client, ctx, relin_key=rlk)
    on_disk = sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))
    client.run_on_scheduler(_install_scheduler_counter)
    try:
        rows = rd.read_encrypted(path, ctx, key=sk)
        stats = rd.gather(client, rd.tree_sum(None, rows.map(_stats)))
        from_files = client.run_on_scheduler(_remove_scheduler_counter)
        # The counter sees ciphertexts that do travel in a graph: encrypt_partitions' uploads.
        client.run_on_scheduler(_install_scheduler_counter)
        uploaded = rd.encrypt_partitions(client, ctx, weight[:4 * ctx.slots], sk)
        rd.gather(client, uploaded)
        uploads = client.run_on_scheduler(_remove_scheduler_counter)
    except BaseException:
        client.run_on_scheduler(_remove_scheduler_counter)
        raise
    assert np.array_equal(_slots(ctx, sk, stats["s"]), _want(weight, ctx.params.plain_modulus))
    ct_bytes = len(ctx.encrypt(weight[:10], sk).to_bytes())
    # The data set's graph holds paths, row groups and the parameters' bytes: less than one
    # ciphertext's bytes in all, whatever the data set's size; nothing is gathered or scattered
    # through the scheduler.
    assert from_files["graph_bytes"] < ct_bytes < on_disk / 20, (from_files, ct_bytes, on_disk)
    assert from_files["gather"] == from_files["scatter"] == 0
    assert uploads["graph_bytes"] > 2 * ct_bytes, uploads  # 4 ciphertexts (frames compressed)


def test_a_worker_killed_mid_job_loses_nothing(cluster, bfv, data):
    _, client = cluster
    ctx, sk, pk, rlk, gk = bfv
    path, weight, _ = data
    rd.publish_keys(client, ctx, relin_key=rlk)

    def slow_square(row):
        import time
        time.sleep(0.1)
        return row["w"] * row["w"]

    squares = rd.read_encrypted(path, ctx, key=sk).map(slow_square)
    total = client.compute(rd.tree_sum(None, squares, fan_in=2))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(client.has_what().values()):
        time.sleep(0.05)
    time.sleep(0.3)
    assert not total.done()
    has_what = client.has_what()
    victim = max(has_what, key=lambda w: len(has_what[w]))
    assert has_what[victim]  # it holds partitions or partial sums that are now lost
    os.kill(client.run(os.getpid)[victim], signal.SIGKILL)
    result = client.gather(total, direct=True)
    assert victim not in client.scheduler_info()["workers"]
    assert np.array_equal(_slots(ctx, sk, result),
                          _want(weight * weight, ctx.params.plain_modulus))


def test_the_example_from_files(tmp_path, capsys, monkeypatch):
    """examples/python/dask_statistics.py --files: written to Parquet, computed from the files with
    1 and 2 worker processes, every figure checked against numpy by the example itself."""
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "python" / "dask_statistics.py"
    monkeypatch.setattr("sys.argv", [str(example), "--files", str(tmp_path / "births"),
                                     "--records", "20000"])
    runpy.run_path(str(example), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count("every figure equals numpy's") == 2 and "bytes on disk per record" in out
