"""Encrypted data sets cannot shrink, grow or reorder silently: a BFV data set of 12,288 records in 3
files of 2 row groups (2 rows of 1024 records each) is damaged as a careless user or a crashed
writer would damage it (a file deleted, a file of another data set of the same key pair copied in,
a row dropped, a record count edited, rows or cells swapped within and across files, the manifest
edited or stale), and every damage is refused with a message naming what differs. Appends, crashed
writers (an exception, a KeyboardInterrupt, a process killed with SIGKILL) on a local directory
and on fsspec's memory://, and rnsfhe.dask's reader and writer are checked against numpy's sums."""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
fsspec = pytest.importorskip("fsspec")

import rnsfhe  # noqa: E402
from rnsfhe import io  # noqa: E402

N = 1024  # records per ciphertext (the bfv fixture's slots)
RECORDS = 12 * N


def _write(path, ctx, key, x, **kw):
    kw = {"records_per_ciphertext": N, "row_group_size": 2, "file_size": 4, "progress": False,
          **kw}
    data = {"x": x} if isinstance(x, np.ndarray) else x
    return io.write_encrypted(str(path), ctx, data, key, **kw)


def _total(ds, ctx, sk):
    """(records read, their sum mod t) over every row, as a user's statistic would see them."""
    records, total = 0, 0
    for row in ds.rows():
        records += row["records"]
        total += int(ctx.decrypt(row["x"], sk)[:row["records"]].sum())
    return records, total % ctx.params.plain_modulus


@pytest.fixture()
def data(bfv, tmp_path):
    ctx, sk, *_ = bfv
    x = np.random.default_rng(36).integers(0, 100, RECORDS)
    path = tmp_path / "d"
    _write(path, ctx, sk, x)
    return path, x


def _file(path, k):
    return str(Path(path) / f"part-{k:05d}.parquet")


def _rewrite(file, edit):
    """Rewrites a file with its columns edited by `edit` (a dict of lists, changed in place); its
    schema metadata is kept; 2 rows per row group."""
    t = pq.read_table(file)
    cols = {n: t.column(n).to_pylist() for n in t.schema.names}
    edit(cols)
    arrays = [pa.array(cols[n], t.schema.field(n).type) for n in t.schema.names]
    pq.write_table(pa.Table.from_arrays(arrays, schema=t.schema), file, row_group_size=2,
                   compression="none")


def test_intact_data_set_reads_every_record(bfv, data):
    ctx, sk, pk, *_ = bfv
    path, x = data
    ds = io.open_dataset(str(path), ctx, key=sk)
    assert _total(ds, ctx, sk) == (RECORDS, int(x.sum()) % ctx.params.plain_modulus)
    assert [p.rows for p in ds.parts] == [2] * 6 and [p.first for p in ds.parts] == [0, 2, 4, 6,
                                                                                     8, 10]
    m = json.loads((path / "_rnsfhe" / "manifest-00000001.json").read_text())
    assert m["version"] == 1 and m["dataset"] == ds.dataset and len(m["dataset"]) == 32
    assert m["fingerprint"] == ctx.fingerprint and m["key_id"] == sk.key_id
    assert (m["rows"], m["records"]) == (12, RECORDS) and m["columns"] == {"x": "BfvCiphertext"}
    assert [(f["name"], f["rows"], f["first"], f["last"], f["row_groups"]) for f in m["files"]] \
        == [(f"part-0000{k}.parquet", 4, 4 * k, 4 * k + 3, 2) for k in range(3)]
    assert all(f["bytes"] == os.path.getsize(path / f["name"]) for f in m["files"])
    assert not (path / "_rnsfhe" / "pending.json").exists()
    rows = io.read_part(_file(path, 1), 1, ctx, key=pk)  # a file read by itself
    assert [r["ciphertext"] for r in rows] == [6, 7]


def test_a_deleted_file_is_refused(bfv, data):
    ctx, sk, *_ = bfv
    path, _ = data
    os.remove(_file(path, 1))  # was: 8,192 of 12,288 records read
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match=r"\['part-00001.parquet'\] of version 1 are missing.*12288 records"):
        io.open_dataset(str(path), ctx, key=sk)


def test_a_file_of_another_data_set_of_the_same_key_pair_is_refused(bfv, data, tmp_path):
    ctx, sk, *_ = bfv
    path, x = data
    _write(tmp_path / "other", ctx, sk, x)
    shutil.copy(_file(tmp_path / "other", 0), _file(path, 3))  # was: 16,384 records read
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match=r"\['part-00003.parquet'\] are not in its manifest"):
        io.open_dataset(str(path), ctx, key=sk)
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="not in its data set's manifest"):
        io.read_part(_file(path, 3), 0, ctx)
    os.remove(_file(path, 3))
    shutil.copy(_file(tmp_path / "other", 1), _file(path, 1))  # in place of one of ours
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00001.parquet: a file of data "
                       "set [0-9a-f]{32}, this data set is .*copied in from another data set"):
        io.open_dataset(str(path), ctx, key=sk)
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="a file of data set"):
        io.read_part(_file(path, 1), 0, ctx)


def test_a_dropped_row_is_refused(bfv, data):
    ctx, sk, *_ = bfv
    path, _ = data
    before = io.open_dataset(str(path), ctx, key=sk)  # as a Dask task would: opened before

    def drop(cols):
        for v in cols.values():
            del v[1]
    _rewrite(_file(path, 2), drop)  # was: 11,264 records read
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match="part-00002.parquet: 3 rows in 2 row groups, the manifest says 4 "
                             "rows in 2 .rows dropped or added"):
        io.open_dataset(str(path), ctx, key=sk)
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match="part-00002.parquet row group 0 row 1: holds index 10, expected 9 "
                             ".rows swapped, moved or dropped"):
        for part in before.parts[4:]:
            before.read(part)


def test_an_edited_record_count_is_refused(bfv, data):
    ctx, sk, *_ = bfv
    path, _ = data
    before = io.open_dataset(str(path), ctx, key=sk)

    def edit(cols):  # one record vanishes from the sum
        cols["records"][1] -= 1
    _rewrite(_file(path, 0), edit)
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match="part-00000.parquet: 12287|part-00000.parquet: 4095 records, the "
                             "manifest says 4096 .a record count was edited"):
        io.open_dataset(str(path), ctx, key=sk)

    def keep_total(cols):  # back, then one record moved between rows: the file's totals hold
        cols["records"][1] += 1
        cols["records"][0] += 1
        cols["records"][1] -= 1
    _rewrite(_file(path, 0), keep_total)
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match=r"part-00000.parquet row group 0 row 0 column 'x' \(index 0, 1025 "
                             "records\\): its binding does not match: its bytes or its record "
                             "count changed"):
        list(before.rows())


def _swap(a, b, columns):
    def edit(cols):
        for c in columns:
            cols[c][a], cols[c][b] = cols[c][b], cols[c][a]
    return edit


def test_swapped_rows_and_cells_within_a_file_are_refused(bfv, data):
    ctx, sk, *_ = bfv
    path, _ = data
    before = io.open_dataset(str(path), ctx, key=sk)
    every = ["ciphertext", "records", "binding", "x"]
    _rewrite(_file(path, 1), _swap(0, 3, every))  # whole rows: was read under other indices
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00001.parquet row group 0 row "
                       "0: holds index 7, expected 4 .rows swapped"):
        io.open_dataset(str(path), ctx, key=sk)
    _rewrite(_file(path, 1), _swap(0, 3, every))  # back
    _rewrite(_file(path, 1), _swap(2, 3, ["x"]))  # the ciphertexts alone
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match=r"part-00001.parquet row group 1 row 0 column 'x' \(index 6, 1024 "
                             r"records\): its binding does not match: it holds the cell written "
                             r"for row 1 \(index 7\): cells swapped"):
        list(before.rows())


def test_swapped_rows_and_cells_across_files_are_refused(bfv, data):
    ctx, sk, *_ = bfv
    path, _ = data
    before = io.open_dataset(str(path), ctx, key=sk)
    t0, t2 = pq.read_table(_file(path, 0)), pq.read_table(_file(path, 2))

    def take(t, columns):
        def edit(cols):
            for c in columns:
                cols[c][0] = t.column(c)[0].as_py()
        return edit
    every = ["ciphertext", "records", "binding", "x"]
    _rewrite(_file(path, 0), take(t2, every))
    _rewrite(_file(path, 2), take(t0, every))
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match="part-00000.parquet row group 0 row 0: holds index 8, expected 0"):
        io.open_dataset(str(path), ctx, key=sk)
    _rewrite(_file(path, 0), take(t0, every))
    _rewrite(_file(path, 2), take(t2, every))
    _rewrite(_file(path, 0), take(t2, ["x"]))  # the ciphertexts alone
    _rewrite(_file(path, 2), take(t0, ["x"]))
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match=r"part-00000.parquet row group 0 row 0 column 'x' \(index 0.*its "
                             "bytes or its record count changed after it was written, or it "
                             "comes from another row, file or data set"):
        list(before.rows())
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00000.parquet: .* bytes, the "
                       "manifest says .* .the file was changed or replaced"):
        io.read_part(_file(path, 0), 0, ctx)


def _manifest_path(path, v=1):
    return Path(path) / "_rnsfhe" / f"manifest-{v:08d}.json"


def test_an_edited_or_torn_manifest_is_refused(bfv, data):
    ctx, sk, *_ = bfv
    path, _ = data
    mp = _manifest_path(path)
    good = mp.read_text()
    m = json.loads(good)
    m["files"] = m["files"][:2]
    m["rows"], m["records"] = 8, 8 * N
    mp.write_text(json.dumps(m))
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="manifest-00000001.json: the manifest's "
                       "content does not match its digest .torn or edited"):
        io.open_dataset(str(path), ctx, key=sk)
    mp.write_text(good[: len(good) // 2])
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="unreadable manifest .torn or edited"):
        io.open_dataset(str(path), ctx, key=sk)

    # What it cannot detect (no writer secret): a manifest rewritten with its digest recomputed,
    # the file it drops deleted too.
    from rnsfhe import _manifest
    m["digest"] = _manifest._content_digest(m)
    mp.write_text(json.dumps(m))
    os.remove(_file(path, 2))
    assert _total(io.open_dataset(str(path), ctx, key=sk), ctx, sk)[0] == 8 * N


def test_append_and_a_stale_manifest(bfv, data):
    ctx, sk, pk, *_ = bfv
    path, x = data
    y = np.random.default_rng(1).integers(0, 100, 5000)
    v1 = io.open_dataset(str(path), ctx, key=sk)
    summary = _write(path, ctx, pk, y, mode="append")
    assert summary["version"] == 2 and summary["ciphertexts"] == 5 and summary["records"] == 5000
    assert [Path(f).name for f in summary["files"]] == ["part-00003.parquet", "part-00004.parquet"]
    ds = io.open_dataset(str(path), ctx, key=sk)
    assert ds.version == 2 and ds.dataset == v1.dataset and len(ds.files) == 5
    want = int(np.concatenate([x, y]).sum()) % ctx.params.plain_modulus
    assert _total(ds, ctx, sk) == (RECORDS + 5000, want)
    assert [r["ciphertext"] for r in ds.rows()] == list(range(17))
    assert _total(v1, ctx, sk)[0] == RECORDS  # a reader of version 1 still reads version 1

    with pytest.raises(ValueError, match="appending columns"):
        io.write_encrypted(str(path), ctx, {"y": y}, sk, mode="append", progress=False)
    sk2, _ = ctx.keygen()
    with pytest.raises(rnsfhe.KeyMismatchError, match="expected key pair"):
        _write(path, ctx, sk2, y, mode="append")
    with pytest.raises(FileExistsError, match="mode='append'.*overwrite=True"):
        _write(path, ctx, sk, y)
    assert io.open_dataset(str(path), ctx, key=sk).version == 2  # the refusals changed nothing

    m2 = _manifest_path(path, 2)
    saved = m2.read_bytes()
    shutil.copy(_manifest_path(path, 1), m2)  # an older manifest over the newer one
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="a stale manifest: it describes "
                       "version 1, its name says version 2"):
        io.open_dataset(str(path), ctx, key=sk)
    os.remove(m2)  # the newer manifest lost: its files are extra
    with pytest.raises(rnsfhe.DatasetIntegrityError,
                       match=r"\['part-00003.parquet', 'part-00004.parquet'\] are not in its "
                             r"manifest \(version 1\)"):
        io.open_dataset(str(path), ctx, key=sk)
    m2.write_bytes(saved)

    # Overwrite: a new data set, version 1, the old manifests gone.
    io.write_encrypted(str(path), ctx, {"x": y}, sk, overwrite=True, progress=False)
    assert sorted(os.listdir(path / "_rnsfhe")) == ["manifest-00000001.json"]
    ds = io.open_dataset(str(path), ctx, key=sk)
    assert ds.version == 1 and ds.dataset != v1.dataset and _total(ds, ctx, sk)[0] == 5000


class Crash(Exception):
    pass


def _chunks(x, crash_after, error):
    """`x` in chunks of 2 ciphertexts' records, raising `error` after `crash_after` chunks."""
    for k, s in enumerate(range(0, len(x), 2 * N)):
        if k == crash_after:
            raise error
        yield {"x": x[s:s + 2 * N]}


def _root(kind, tmp_path):
    return str(tmp_path / "c") if kind == "local" else f"memory://rnsfhe-it-{uuid.uuid4().hex}/c"


def _listing(root):
    fs, p = fsspec.core.url_to_fs(root)
    return sorted(Path(f).name for f in fs.glob(p + "/*.parquet"))


@pytest.mark.parametrize("kind", ["local", "memory"])
@pytest.mark.parametrize("error", [Crash("disk full"), KeyboardInterrupt()])
def test_a_writer_that_dies_leaves_the_last_version(bfv, tmp_path, kind, error):
    """Raised from inside the data iterator after 2 of its 3 files (an exception cleans up; a
    KeyboardInterrupt leaves its files, which readers ignore and the next write removes)."""
    ctx, sk, *_ = bfv
    root = _root(kind, tmp_path)
    x = np.random.default_rng(2).integers(0, 100, RECORDS)
    with pytest.raises(type(error)):
        _write(root, ctx, sk, _chunks(x, 4, error))  # a first write: nothing readable
    with pytest.raises((FileNotFoundError, rnsfhe.DatasetIntegrityError),
                       match="no data set|no committed version: a first write did not finish"):
        io.open_dataset(root, ctx, key=sk)
    _write(root, ctx, sk, x)  # written again: the leftovers are rolled back
    assert _listing(root) == [f"part-0000{k}.parquet" for k in range(3)]

    with pytest.raises(type(error)):
        _write(root, ctx, sk, _chunks(x, 4, error), mode="append")
    left = _listing(root)
    assert left == [f"part-0000{k}.parquet" for k in range(3 if isinstance(error, Crash) else 5)]
    ds = io.open_dataset(root, ctx, key=sk)
    assert ds.version == 1 and _total(ds, ctx, sk)[0] == RECORDS
    _write(root, ctx, sk, x[:3000], mode="append")
    ds = io.open_dataset(root, ctx, key=sk)
    assert ds.version == 2 and _total(ds, ctx, sk)[0] == RECORDS + 3000
    assert _listing(root) == [f"part-0000{k}.parquet" for k in range(4)]


@pytest.mark.parametrize("kind", ["local", "memory"])
def test_a_writer_that_dies_before_its_manifest(bfv, tmp_path, kind, monkeypatch):
    ctx, sk, *_ = bfv
    root = _root(kind, tmp_path)
    x = np.arange(RECORDS) % 100
    _write(root, ctx, sk, x)
    from rnsfhe import _manifest

    def killed(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(_manifest, "commit", killed)
    with pytest.raises(KeyboardInterrupt):
        _write(root, ctx, sk, x, mode="append")
    monkeypatch.undo()
    assert len(_listing(root)) == 6  # every new file written, no manifest for them
    ds = io.open_dataset(root, ctx, key=sk)
    assert ds.version == 1 and _total(ds, ctx, sk)[0] == RECORDS


_KILLED = textwrap.dedent("""
    import os, signal, sys
    import numpy as np
    import rnsfhe
    from rnsfhe import io, _manifest
    ctx = rnsfhe.BfvContext.from_bytes(bytes.fromhex(sys.argv[1]))
    pk = rnsfhe.PublicKey.from_bytes(ctx, bytes.fromhex(sys.argv[2]))
    path, where, n = sys.argv[3], sys.argv[4], 1024

    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    def chunks():
        for k in range(6):
            if where == "files" and k == 4:
                die()
            yield {"x": np.arange(2 * n) % 100}
    if where == "manifest":
        _manifest.commit = die
    io.write_encrypted(path, ctx, chunks(), pk, mode=sys.argv[5], records_per_ciphertext=n,
                       row_group_size=2, file_size=4, progress=False)
""")


@pytest.mark.parametrize("where", ["files", "manifest"])
def test_a_writer_killed_with_sigkill(bfv, tmp_path, where):
    """A process killed while writing its files, or just before its manifest: the last version
    stays readable (nothing for a first write), and the next write removes the leftovers."""
    ctx, sk, pk, *_ = bfv
    root = str(tmp_path / "k")
    env = {**os.environ, "PYTHONPATH": str(Path(rnsfhe.__file__).parents[1])}

    def run(mode):
        proc = subprocess.run([sys.executable, "-c", _KILLED, ctx.to_bytes().hex(),
                               pk.to_bytes().hex(), root, where, mode], env=env,
                              capture_output=True, timeout=120)
        assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()

    run("create")
    assert _listing(root)  # files were written
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="no committed version"):
        io.open_dataset(root, ctx, key=sk)
    x = np.arange(RECORDS) % 100
    _write(root, ctx, sk, x)
    run("append")
    assert len(_listing(root)) > 3
    ds = io.open_dataset(root, ctx, key=sk)
    assert ds.version == 1 and _total(ds, ctx, sk)[0] == RECORDS
    _write(root, ctx, sk, x[:100], mode="append")
    assert _total(io.open_dataset(root, ctx, key=sk), ctx, sk)[0] == RECORDS + 100


def test_a_data_set_without_manifest(bfv, data):
    """Written by an rnsfhe without manifests (simulated: the manifests removed, the files made
    format 1): refused until write_manifest records it; then changes are caught by digest."""
    ctx, sk, pk, *_ = bfv
    path, x = data
    shutil.rmtree(path / "_rnsfhe")

    for k in range(3):
        t = pq.read_table(_file(path, k))
        meta = json.loads(t.schema.metadata[b"rnsfhe"])
        meta["rnsfhe"] = 1
        del meta["dataset"]
        t = t.drop_columns(["binding"]).replace_schema_metadata({b"rnsfhe": json.dumps(meta)})
        pq.write_table(t, _file(path, k), row_group_size=2, compression="none")
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="no manifest.*write_manifest"):
        io.open_dataset(str(path), ctx, key=sk)
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="no manifest.*write_manifest"):
        _write(path, ctx, sk, x, mode="append")
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="no manifest beside it"):
        io.read_part(_file(path, 0), 0, ctx)
    assert len(io.read_part(_file(path, 0), 0, ctx, trust_unverified=True)) == 2

    m = io.write_manifest(str(path), ctx, key=sk)
    assert m["version"] == 1 and not any(f["bound"] for f in m["files"])
    ds = io.open_dataset(str(path), ctx, key=sk)
    assert _total(ds, ctx, sk) == (RECORDS, int(x.sum()) % ctx.params.plain_modulus)
    _write(path, ctx, sk, x[:2048], mode="append")  # appended files are bound
    ds = io.open_dataset(str(path), ctx, key=sk)
    assert ds.parts[-1].bound and not ds.parts[0].bound
    assert _total(ds, ctx, sk)[0] == RECORDS + 2048
    raw = bytearray(Path(_file(path, 1)).read_bytes())
    raw[len(raw) // 3] ^= 1
    Path(_file(path, 1)).write_bytes(bytes(raw))
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00001.parquet: its digest differs"
                       "|part-00001.parquet: unreadable"):
        io.open_dataset(str(path), ctx, key=sk)

    # A gap in the indices (a file lost before adopting) is refused.
    shutil.rmtree(path / "_rnsfhe")
    for k in (1, 3):
        os.remove(_file(path, k))
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00002.parquet: rows.*expected "
                       "rows from 4: the indices are not contiguous"):
        io.write_manifest(str(path), ctx, key=sk)


def test_a_file_of_write_objects_is_checked_by_itself(bfv, tmp_path):
    ctx, sk, *_ = bfv
    path = str(tmp_path / "o.parquet")
    cts = [ctx.encrypt([i], sk) for i in range(5)]
    io.write_objects(path, ctx, {"ct": cts}, records=[1] * 5, row_group_size=2)
    assert [c.to_bytes() for c in io.read_objects(path, ctx)["ct"]] == [c.to_bytes() for c in cts]
    _rewrite(path, _swap(0, 1, ["ct"]))
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="row 0 column 'ct'.*cells swapped"):
        io.read_objects(path, ctx)

    def drop(cols):
        for v in cols.values():
            del v[4]
    io.write_objects(path, ctx, {"ct": cts}, records=[1] * 5, row_group_size=2)
    _rewrite(path, drop)
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="4 rows, its metadata says 5"):
        io.read_objects(path, ctx)


# rnsfhe.dask: the open step refuses a missing, extra or changed file on the client; each task
# checks its rows; to_parquet commits a manifest after its files.

def test_dask_read_encrypted_refuses_damaged_data_sets(bfv, data, tmp_path):
    pytest.importorskip("distributed")
    import rnsfhe.dask as rd

    ctx, sk, *_ = bfv
    path, x = data
    rows = rd.read_encrypted(str(path), ctx, key=sk)
    assert rows.npartitions == 6
    got = rows.map(lambda r: r["records"]).compute(scheduler="sync")
    assert sum(got) == RECORDS
    saved = Path(_file(path, 1)).read_bytes()
    _rewrite(_file(path, 1), _swap(0, 1, ["x"]))  # after the open step: a task refuses it
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00001.parquet row group 0 row 0 "
                       "column 'x'.*cells swapped"):
        rows.compute(scheduler="sync")
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00001.parquet: .*bytes, the "
                       "manifest says|part-00001.parquet: its digest"):
        rd.read_encrypted(str(path), ctx, key=sk)  # changed
    Path(_file(path, 1)).write_bytes(saved)
    assert rd.read_encrypted(str(path), ctx, key=sk).npartitions == 6
    _write(tmp_path / "other", ctx, sk, x[:100])
    shutil.copy(_file(tmp_path / "other", 0), _file(path, 7))
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00007.parquet'] are not in"):
        rd.read_encrypted(str(path), ctx, key=sk)  # extra
    os.remove(_file(path, 7))
    os.remove(_file(path, 0))
    with pytest.raises(rnsfhe.DatasetIntegrityError, match="part-00000.parquet'] of version 1 "
                       "are missing"):
        rd.read_encrypted(str(path), ctx, key=sk)  # missing


def _square(row):
    return {"sq": row["x"] * row["x"], "records": row["records"]}


def test_dask_to_parquet_commits_a_manifest(bfv, data, tmp_path):
    pytest.importorskip("distributed")
    import dask
    import rnsfhe.dask as rd

    ctx, sk, pk, rlk, _ = bfv
    ctx.register_keys(relin_key=rlk)
    path, x = data
    out = str(tmp_path / "squares")
    rows = rd.read_encrypted(str(path), ctx, key=sk).map(_square)
    files = dask.compute(*rd.to_parquet(rows, out, ctx), scheduler="sync")
    assert [Path(f).name for f in files] == [f"part-0000{k}.parquet" for k in range(6)]
    ds = io.open_dataset(out, ctx, key=sk)
    got = np.concatenate([ctx.decrypt(r["sq"], sk)[:r["records"]] for r in ds.rows()])
    assert np.array_equal(got, x * x % ctx.params.plain_modulus)
    assert [r["ciphertext"] for r in ds.rows()] == list(range(12))
    with pytest.raises(FileExistsError):
        dask.compute(*rd.to_parquet(rows, out, ctx), scheduler="sync")

    def broken(row):
        if row["ciphertext"] == 9:
            raise Crash("a worker's task failed")
        return _square(row)
    rows = rd.read_encrypted(str(path), ctx, key=sk).map(broken)
    out = str(tmp_path / "broken")
    with pytest.raises(Crash):
        dask.compute(*rd.to_parquet(rows, out, ctx), scheduler="sync")
    with pytest.raises((FileNotFoundError, rnsfhe.DatasetIntegrityError),
                       match="no data set|no committed version"):
        io.open_dataset(out, ctx, key=sk)
