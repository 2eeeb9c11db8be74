"""rnsfhe.io: every object kind round-trips through Parquet; data sets written from numpy,
dicts, pandas and Dask DataFrames and streams of chunks decrypt to their records; files of other
parameters or another key pair, and corrupted rows, are refused with the library's errors."""

import json

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import rnsfhe  # noqa: E402
from rnsfhe import io  # noqa: E402

from worst import worst_error  # noqa: E402


def _bgv():
    params = rnsfhe.BgvParameters(degree=1024, plain_modulus=65537, moduli_bits=[40, 40, 40],
                                  special_moduli_bits=[45], security="insecure")
    ctx = rnsfhe.BgvContext(params, seed=bytes(32))
    sk, pk = ctx.keygen()
    return ctx, sk, pk, ctx.relin_key(sk), ctx.galois_keys(sk, steps=[1], columns=True)


def _hpr():
    ctx = rnsfhe.HprContext(rnsfhe.HprParameters(1024, 65537, primes=1, digits=2, bits=50,
                                                 security="insecure"))
    sk, pk = ctx.keygen()
    return ctx, sk, pk, ctx.relin_key(sk), ctx.galois_keys(sk, [1])


@pytest.mark.parametrize("scheme", ["bfv", "bgv", "ckks", "hpr"])
def test_every_object_kind_round_trips(scheme, request, tmp_path):
    if scheme in ("bfv", "ckks"):
        ctx, sk, pk, rlk, gk = request.getfixturevalue(scheme)
    else:
        ctx, sk, pk, rlk, gk = {"bgv": _bgv, "hpr": _hpr}[scheme]()
    x = np.arange(8) % 5 if scheme != "ckks" else np.linspace(-1, 1, 8)
    cts = [ctx.encrypt(x, pk), ctx.encrypt(x + 1, sk), ctx.encrypt(x, pk) * ctx.encrypt(x, sk)]
    columns = {"ct": cts, "pt": [ctx.encode(x)] * 3, "pk": [pk] * 3, "rlk": [rlk] * 3,
               "gk": [gk] * 3}
    path = str(tmp_path / "objects.parquet")
    io.write_objects(path, ctx, columns, row_group_size=2)
    back = io.read_objects(path, ctx, key=sk)
    for name, objs in columns.items():
        assert [type(o) for o in back[name]] == [type(o) for o in objs]
        assert [o.to_bytes() for o in back[name]] == [o.to_bytes() for o in objs], name
    assert worst_error(ctx.decrypt(back["ct"][1], sk)[:8], x + 1) < 1e-5
    meta = json.loads(pq.read_schema(path).metadata[b"rnsfhe"])
    assert meta["fingerprint"] == ctx.fingerprint and meta["key_id"] == sk.key_id
    assert meta["object_format"] == rnsfhe.FORMAT_VERSION and meta["scheme"] == type(ctx).__name__
    with pytest.raises(rnsfhe.SecretKeyExportError):
        io.write_objects(path, ctx, {"sk": [sk]})


def test_bootstrapping_keys_round_trip(tmp_path):
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure"))
    sk, _ = ctx.keygen()
    keys = ctx.bootstrapping_keys(sk, progress=False)
    path = str(tmp_path / "bk.parquet")
    io.write_objects(path, ctx, {"keys": [keys]})
    assert io.read_objects(path, ctx, key=sk.key_id)["keys"][0].to_bytes() == keys.to_bytes()


def _decrypted(ds, ctx, sk, column):
    out = []
    for row in ds.rows([column]):
        out.append(ctx.decrypt(row[column], sk)[:row["records"]])
    return np.concatenate(out)


def test_write_from_every_source_decrypts_to_the_records(bfv, tmp_path, rng):
    ctx, sk, *_ = bfv
    a, b = rng.integers(0, 1000, 2500), rng.integers(0, 3, 2500)
    sources = {
        "numpy": (a, ["a"]),
        "numpy2d": (np.stack([a, b], axis=1), ["a", "b"]),
        "dict": ({"a": a, "b": b}, None),
        "chunks": (({"a": a[i:i + 700], "b": b[i:i + 700]} for i in range(0, 2500, 700)), None),
    }
    try:  # pandas is in the test extra; Dask DataFrames need pandas and pyarrow
        import pandas as pd
        import dask.dataframe as dd
    except ImportError:
        pd = None
    if pd is not None:
        frame = pd.DataFrame({"a": a, "b": b})
        sources["pandas"] = (frame, None)
        sources["dask"] = (dd.from_pandas(frame, npartitions=3), None)
        sources["frames"] = ((frame.iloc[i:i + 700] for i in range(0, 2500, 700)), None)
    calls = []
    for name, (data, columns) in sources.items():
        path = str(tmp_path / name)
        summary = io.write_encrypted(path, ctx, data, sk, columns=columns,
                                     records_per_ciphertext=300, row_group_size=2, file_size=4,
                                     progress=lambda d, t: calls.append((d, t)))
        assert summary["records"] == 2500 and summary["ciphertexts"] == 9  # the last holds 100
        assert len(summary["files"]) == 3
        ds = io.open_dataset(path, ctx, key=sk)
        assert [p.rows for p in ds.parts] == [2, 2, 2, 2, 1] and ds.records_per_ciphertext == 300
        assert np.array_equal(_decrypted(ds, ctx, sk, "a"), a), name
        if name != "numpy":
            assert np.array_equal(_decrypted(ds, ctx, sk, "b"), b), name
    assert calls[-1] == (2500, 2500) and all(d <= 2500 for d, _ in calls)


@pytest.mark.parametrize("scheme", ["bfv", "bgv", "ckks"])
def test_secret_key_writes_are_seeded_half_size(scheme, request, tmp_path, rng):
    """Seeded: the secret key's ciphertexts take about half the bytes of the public key's, and decrypt
    to the records."""
    ctx, sk, pk, *_ = request.getfixturevalue(scheme) if scheme != "bgv" else _bgv()
    a = rng.integers(0, 1000, 2500) if scheme != "ckks" else rng.uniform(-1, 1, 2500)
    sizes = {}
    for name, key in (("s", sk), ("p", pk)):
        path = str(tmp_path / name)
        sizes[name] = io.write_encrypted(path, ctx, {"x": a}, key, progress=False)["bytes"]
        got = _decrypted(io.open_dataset(path, ctx, key=sk), ctx, sk, "x")
        if scheme == "ckks":
            assert worst_error(got, a) <= 1e-6, name
        else:
            assert np.array_equal(got, a), name
    assert sizes["s"] * 2 < sizes["p"] + 1000, sizes


def _rewrite(path, edit):
    """Rewrites a file with one binary cell changed by `edit` (its schema and metadata kept)."""
    t = pq.read_table(path)
    cells = t.column("x").to_pylist()
    cells[1] = edit(cells[1])
    i = t.schema.get_field_index("x")
    t = t.set_column(i, t.schema.field(i), pa.array(cells, pa.large_binary()))
    pq.write_table(t, path, compression="none")


def test_foreign_and_corrupted_files_are_refused(bfv, tmp_path, rng):
    ctx, sk, pk, *_ = bfv
    x = rng.integers(0, 100, 3 * ctx.slots)
    path = str(tmp_path / "d")
    io.write_encrypted(path, ctx, {"x": x}, sk, progress=False)
    other = rnsfhe.BfvContext(rnsfhe.BfvParameters(
        degree=1024, plain_modulus=65537, moduli_bits=[50, 50, 50], special_moduli_bits=[50],
        security="insecure"))
    with pytest.raises(rnsfhe.ContextMismatchError, match=ctx.fingerprint):
        io.open_dataset(path, other)
    sk2, pk2 = ctx.keygen()
    with pytest.raises(rnsfhe.KeyMismatchError, match=f"expected key pair {sk2.key_id}"):
        io.open_dataset(path, ctx, key=sk2)
    ds = io.open_dataset(path, ctx, key=pk)
    with pytest.raises(rnsfhe.KeyMismatchError):
        io.read_part(ds.parts[0].path, 0, ctx, key=sk2.key_id)

    # A row of another key pair under this pair's metadata (a spliced file).
    part = ds.parts[0].path
    stranger = ctx.encrypt(x[:10], sk2).to_bytes()
    _rewrite(part, lambda _: stranger)
    with pytest.raises(rnsfhe.KeyMismatchError, match="row 1 column 'x'"):
        ds.read(ds.parts[0])

    # One flipped bit inside a row: its CRC-32 refuses it.
    with pytest.raises(FileExistsError, match="overwrite=True"):
        io.write_encrypted(path, ctx, {"x": x}, sk, progress=False)
    io.write_encrypted(path, ctx, {"x": x}, sk, progress=False, overwrite=True)
    ds = io.open_dataset(path, ctx, key=pk)  # a new data set: the old handle's files are gone
    _rewrite(part, lambda b: b[:500] + bytes([b[500] ^ 4]) + b[501:])
    with pytest.raises(rnsfhe.SerializationError, match="row 1 column 'x'.*checksum"):
        ds.read(ds.parts[0])

    # A flipped byte in the file itself (Parquet's page checksum or the row's CRC), a truncated
    # file and a Parquet file that is no rnsfhe data set.
    io.write_encrypted(path, ctx, {"x": x}, sk, progress=False, overwrite=True)
    ds = io.open_dataset(path, ctx, key=pk)
    raw = bytearray(open(part, "rb").read())
    raw[len(raw) // 2] ^= 1
    open(part, "wb").write(bytes(raw))
    with pytest.raises(rnsfhe.SerializationError):
        ds.read(ds.parts[0])
    open(part, "wb").write(bytes(raw[: len(raw) // 2]))
    with pytest.raises(rnsfhe.SerializationError, match="unreadable"):
        io.open_dataset(path, ctx)
    pq.write_table(pa.table({"x": [1, 2]}), part)
    with pytest.raises(rnsfhe.SerializationError, match="not an rnsfhe data set"):
        io.open_dataset(path, ctx)


def test_bad_arguments(bfv, tmp_path):
    ctx, sk, *_ = bfv
    with pytest.raises(ValueError, match="records_per_ciphertext"):
        io.write_encrypted(str(tmp_path), ctx, np.arange(4), sk, records_per_ciphertext=0)
    with pytest.raises(ValueError, match="different lengths"):
        io.write_encrypted(str(tmp_path), ctx, {"a": np.arange(4), "b": np.arange(3)}, sk)
    with pytest.raises(KeyError, match="no column"):
        io.write_encrypted(str(tmp_path), ctx, {"a": np.arange(4)}, sk, columns=["z"])
    with pytest.raises(FileNotFoundError):
        io.open_dataset(str(tmp_path / "nothing"), ctx)
    with pytest.raises(rnsfhe.KeyMismatchError, match="different key pairs"):
        sk2, _ = ctx.keygen()
        io.write_objects(str(tmp_path / "f.parquet"), ctx,
                         {"a": [ctx.encrypt([1], sk), ctx.encrypt([1], sk2)]})


def test_fsspec_paths(bfv):
    """Any fsspec URL (here the in-memory file system; s3://... where s3fs is installed)."""
    ctx, sk, *_ = bfv
    x = np.arange(3000) % 97
    summary = io.write_encrypted("memory://rnsfhe-test/ds", ctx, {"x": x}, sk, file_size=1,
                                 progress=False)
    assert len(summary["files"]) == 3 and summary["files"][0].startswith("memory://")
    ds = io.open_dataset("memory://rnsfhe-test/ds", ctx, key=sk)
    assert all(f.startswith("memory://") for f in ds.files)
    assert np.array_equal(_decrypted(ds, ctx, sk, "x"), x)
