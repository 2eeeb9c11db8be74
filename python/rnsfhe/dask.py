"""Encrypted work on a Dask cluster (``pip install "rnsfhe[dask]"``).

The client keeps the secret key: it encrypts, the workers compute with the evaluation keys, the
client decrypts. Evaluation keys reach each worker once, through a ``WorkerPlugin`` (workers that
join or restart later get them too); tasks refer to them through the ciphertexts' key pair.
Ciphertexts and keys pickle with protocol-5 out-of-band buffers, which Dask sends as separate
frames. Example::

    import numpy as np
    from distributed import Client, LocalCluster
    import rnsfhe, rnsfhe.dask as rd

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=8192, plain_modulus=65537))
    sk, pk = ctx.keygen()
    rd.publish_keys(client, ctx, relin_key=ctx.relin_key(sk))
    cts = rd.encrypt_partitions(client, ctx, np.arange(100_000) % 100, sk)  # seeded uploads
    squares = rd.map_ciphertexts(client, lambda c: c * c, cts)
    total = ctx.decrypt(rd.tree_sum(client, squares).result(), sk)   # per-slot sums mod t

Data sets at rest: the client encrypts into Parquet files (`rnsfhe.io.write_encrypted`) and the
workers read them, one partition per row group, so that no ciphertext passes through the client or
the scheduler (tasks carry a path, a row group, the parameters' bytes and what the data set's
manifest says the row group holds, which each task checks: see `rnsfhe.io`)::

    rnsfhe.io.write_encrypted("data/", ctx, {"x": np.arange(10**6) % 100}, sk)
    rows = rd.read_encrypted("data/", ctx, key=sk)          # a dask.bag of {"x": ct, ...} rows
    total = rd.gather(client, rd.tree_sum(None, rows.map(lambda r: r["x"] * r["x"])))
"""

from __future__ import annotations

import functools
import posixpath
import uuid
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import numpy as np
from distributed import Client, Future
from distributed.diagnostics.plugin import WorkerPlugin

from ._rnsfhe import BootstrappingKeys, GaloisKeys, RelinKey, SecretKey
from . import _manifest, _parquet
from .errors import KeyMismatchError, SecretKeyExportError, SerializationError

__all__ = ["EvaluationKeys", "publish_keys", "encrypt_partitions", "map_ciphertexts", "tree_sum",
           "read_encrypted", "group_sums", "to_parquet", "gather"]

# Plugin name -> (context, keys) on a worker: the context registry is weak, so the context and its
# registered keys live as long as the plugin is installed.
_HELD: dict = {}


class EvaluationKeys(WorkerPlugin):
    """Registers a key pair's relinearisation, Galois and/or bootstrapping keys (CKKS) with their
    context on every worker (once per worker, and on workers that join later), so that tasks call
    ``ct.bootstrap()``. A secret key is refused: it never leaves the client. The plugin name is per
    key pair, so publishing a pair's keys again replaces them."""

    def __init__(self, context, *, relin_key: Optional[RelinKey] = None,
                 galois_keys: Optional[GaloisKeys] = None,
                 bootstrapping_keys: Optional[BootstrappingKeys] = None):
        for arg, cls in [(relin_key, RelinKey), (galois_keys, GaloisKeys),
                         (bootstrapping_keys, BootstrappingKeys)]:
            if isinstance(arg, SecretKey):
                raise SecretKeyExportError(
                    "a SecretKey must not be shipped to Dask workers (whoever holds it can decrypt); "
                    "publish the evaluation keys made from it: relin_key=ctx.relin_key(sk), "
                    "galois_keys=ctx.galois_keys(sk, ...)")
            if arg is not None and not isinstance(arg, cls):
                raise TypeError(f"expected a {cls.__name__} or None, got {type(arg).__name__}")
        keys = [k for k in (relin_key, galois_keys, bootstrapping_keys) if k is not None]
        if not keys:
            raise ValueError("publish at least one evaluation key (relin_key=, galois_keys= or "
                             "bootstrapping_keys=)")
        if len({k.key_id for k in keys}) != 1:
            raise ValueError("the keys belong to different key pairs; publish each pair's keys "
                             "separately")
        self.context = context
        self.relin_key = relin_key
        self.galois_keys = galois_keys
        self.bootstrapping_keys = bootstrapping_keys
        self._register()  # checks the context
        self.name = f"rnsfhe-keys-{keys[0].key_id}"

    def _register(self):
        if self.relin_key is not None or self.galois_keys is not None:
            self.context.register_keys(relin_key=self.relin_key, galois_keys=self.galois_keys)
        if self.bootstrapping_keys is not None:
            self.context.register_bootstrapping_keys(self.bootstrapping_keys)

    def setup(self, worker=None):
        self._register()
        _HELD[self.name] = (self.context, self.relin_key, self.galois_keys,
                            self.bootstrapping_keys)

    def teardown(self, worker=None):
        _HELD.pop(self.name, None)


def publish_keys(client: Client, context, *, relin_key: Optional[RelinKey] = None,
                 galois_keys: Optional[GaloisKeys] = None,
                 bootstrapping_keys: Optional[BootstrappingKeys] = None) -> str:
    """Ships evaluation keys to every worker of `client`'s cluster once (an `EvaluationKeys`
    plugin); returns the plugin's name."""
    plugin = EvaluationKeys(context, relin_key=relin_key, galois_keys=galois_keys,
                            bootstrapping_keys=bootstrapping_keys)
    client.register_plugin(plugin)
    return plugin.name


def _identity(x):
    return x


def _add(a, b):
    """a + b, term by term for dicts (by key) and tuples: the rows and results of data sets."""
    if isinstance(a, dict):
        return {k: _add(a[k], b[k]) for k in a}
    if isinstance(a, tuple):
        return tuple(_add(x, y) for x, y in zip(a, b))
    return a + b


def _sum(*cts):
    return functools.reduce(_add, cts)


def _sum_list(cts):
    return _sum(*cts)


def encrypt_partitions(client: Client, context, values, key, *,
                       chunk: Optional[int] = None) -> List[Future]:
    """Encrypts on the client and hands each ciphertext to the cluster: `values` is a 1-D array
    split into chunks of `chunk` (default: the context's slot count) values, or an iterable of
    arrays, one per ciphertext. With the `SecretKey` (which stays on the client) ciphertexts are
    seeded, half the bytes of a public-key encryption. Each ciphertext is the argument of its own
    task, so Dask keeps it and recomputes it if the worker holding it dies (`client.scatter`d data
    would be lost with its worker)."""
    if isinstance(values, (list, tuple)) and values and np.isscalar(values[0]):
        values = np.asarray(values)  # a flat sequence of numbers, not one ciphertext per number
    if isinstance(values, np.ndarray) and values.ndim == 1:
        n = chunk or context.slots
        if n <= 0:
            raise ValueError(f"chunk must be positive, got {n}")
        parts: Iterable[Any] = (values[i:i + n] for i in range(0, len(values), n))
    else:
        parts = values
    token = uuid.uuid4().hex
    return [client.submit(_identity, context.encrypt(part, key), key=f"rnsfhe-ct-{token}-{i}")
            for i, part in enumerate(parts)]


def map_ciphertexts(client: Client, fn: Callable, *iterables, **kwargs) -> List[Future]:
    """`fn` applied on the workers to each ciphertext (or tuple of ciphertexts from several
    iterables of futures, like `map`); keyword arguments go to `Client.map`."""
    return client.map(fn, *iterables, **kwargs)


def tree_sum(client: Optional[Client], items, *, fan_in: int = 8):
    """The sum of ciphertexts as a tree of additions with `fan_in` inputs per task (depth
    log_fan_in(n)): a `Future` for a list of futures, or a delayed item for a Dask bag (then
    `client` may be None). Dicts and tuples of ciphertexts add term by term. Ring addition is
    exact, so the result equals the sequential sum."""
    if fan_in < 2:
        raise ValueError(f"fan_in must be at least 2, got {fan_in}")
    if hasattr(items, "reduction") and hasattr(items, "npartitions"):  # a dask.bag.Bag
        return items.reduction(_sum_list, _sum_list, split_every=fan_in)
    level = list(items)
    if not level:
        raise ValueError("tree_sum of no ciphertexts")
    if client is None:
        raise ValueError("tree_sum of futures needs the client")
    while len(level) > 1:
        level = [client.submit(_sum, *level[i:i + fan_in]) for i in range(0, len(level), fan_in)]
    return level[0]


def _context_ref(context):
    """A context as its class name and parameter bytes: what tasks carry, so that the scheduler,
    which unpickles task graphs, never builds a context (about 10 MB of tables at n = 8192, and
    the time to compute them); each worker builds it once."""
    return type(context).__name__, context.to_bytes()


@functools.lru_cache(maxsize=8)
def _context(ref):
    """The context of a `_context_ref` (equal parameters give the one registered context, so keys
    published to the worker serve it)."""
    from . import _rnsfhe

    kind, params = ref
    return getattr(_rnsfhe, kind).from_bytes(params)


def _read(ref, path, row_group, key_id, columns, storage_options, expect):
    from . import io

    return io.read_expected(path, row_group, _context(ref), key_id, columns, storage_options,
                            expect)


def read_encrypted(path: str, context, *, key=None, columns: Optional[Sequence[str]] = None,
                   storage_options: Optional[dict] = None):
    """A data set written by `rnsfhe.io.write_encrypted` (its latest version) as a
    `dask.bag.Bag` of rows ``{column: ciphertext, "ciphertext": index, "records": count}``, one
    partition per row group, read on the workers. The client opens the data set (its manifest and
    the files' footers, index, records and binding columns: `rnsfhe.io.open_dataset`), refusing
    missing, extra or changed files, other parameters or another key pair (`key`: a key, a
    ``key_id`` or None for the data set's pair); each task checks its row group's row count, its
    rows' indices and bindings, and every cell's checksum. A partition lost with its worker is read
    again."""
    import dask
    import dask.bag as db
    from dask.base import tokenize

    from . import io

    ds = io.open_dataset(path, context, key=key, storage_options=storage_options)
    cols = None if columns is None else list(columns)
    token = tokenize(str(path), context.fingerprint, ds.key_id, cols, ds.dataset, ds.version,
                     ds.parts)
    read, ref = dask.delayed(_read, pure=True), _context_ref(context)
    return db.from_delayed([
        read(ref, p.path, p.row_group, ds.key_id, cols, storage_options,
             _parquet.Expect(ds.dataset, p.first, p.rows, p.bound),
             dask_key_name=f"rnsfhe-read-{token}-{i}")
        for i, p in enumerate(ds.parts)])


def _group_terms(value: str, groups: Dict[str, str], row):
    return {name: (row[g], row[g] * row[value]) for name, g in groups.items()}


def group_sums(rows, value: str, groups: Dict[str, str], *, fan_in: int = 8):
    """Group-by-key sums without comparisons: `groups` maps a group's name to a column of encrypted
    0/1 indicators of that group; the result (a delayed item) maps each name to (count, sum of
    `value`) as per-slot totals (the client decrypts and adds the slots). One multiplication per
    group and row, on the workers."""
    return tree_sum(None, rows.map(functools.partial(_group_terms, value, dict(groups))),
                    fan_in=fan_in)


def _begin_write(path: str, mode: str, storage_options):
    fs, root = _parquet.fs_of(path, storage_options)
    return _manifest.begin(fs, root, path, mode)


def _count(items) -> int:
    return len(items) if isinstance(items, list) else 1


def _offset(at: int, items) -> int:
    return at + _count(items)


def _write_partition(items, path: str, number: int, state, first: int, ref, column: str,
                     storage_options):
    """Writes partition `number` (rows indexed from `first`) as a file of the data set whose write
    `state` began; returns its manifest entry, kinds and key pair (None for no rows)."""
    context = _context(ref)
    items = items if isinstance(items, list) else [items]
    if not items:
        return None
    rows = [i if isinstance(i, dict) else {column: i} for i in items]
    names = [c for c in rows[0] if c not in ("ciphertext", "records")]
    kinds = {c: _parquet.kind(rows[0][c]) for c in names}
    ids = {r[c].key_id for r in rows for c in names if getattr(r[c], "key_id", None) is not None}
    if len(ids) > 1:
        raise KeyMismatchError(f"objects of different key pairs {sorted(ids)} in one partition")
    key_id = ids.pop() if ids else None
    fs, root = _parquet.fs_of(path, storage_options)
    name = _manifest.part_name(state["first_file"] + number)
    w = _parquet.FileWriter(fs, posixpath.join(root, name), context, kinds, key_id, None,
                      state["dataset"])
    try:
        for s in range(0, len(rows), 32):
            chunk = rows[s:s + 32]
            w.write(list(range(first + s, first + s + len(chunk))),
                    [int(r.get("records", 0)) for r in chunk],
                    {c: [r[c].to_bytes() for r in chunk] for c in names})
    finally:
        w.close()
    return {"entry": w.entry(name), "kinds": kinds, "key_id": key_id,
            "url": _parquet.url(path, w.path)}


def _commit_write(path: str, state, ref, written, storage_options) -> List[Optional[str]]:
    """Writes the manifest of the files `written` (each partition's `_write_partition` result);
    returns each partition's file (None for an empty partition)."""
    done = [w for w in written if w is not None]
    kinds = {tuple(sorted(w["kinds"].items())) for w in done}
    ids = {w["key_id"] for w in done if w["key_id"] is not None}
    if len(kinds) > 1 or len(ids) > 1:
        raise SerializationError(f"{path}: partitions of different columns {sorted(kinds)} or "
                                    f"key pairs {sorted(ids)}; nothing committed")
    fs, root = _parquet.fs_of(path, storage_options)
    header = _parquet.header(_context(ref), done[0]["kinds"] if done else {},
                       ids.pop() if ids else None, None)
    _manifest.commit(fs, root, state, header, [w["entry"] for w in done])
    return [None if w is None else w["url"] for w in written]


def to_parquet(collection, path: str, context, *, column: str = "result",
               overwrite: bool = False, storage_options: Optional[dict] = None) -> List[Any]:
    """Writes a Dask bag (or delayed item) of ciphertexts, or of dicts of ciphertexts, as an
    encrypted data set, one file per non-empty partition, from the workers that hold them, then
    its manifest (see `rnsfhe.io`): returns delayed file paths (None for an empty partition;
    compute them, e.g. with `gather`: the manifest is written once every file is). Rows are
    indexed in the collection's order from 0 (a row's own ``ciphertext`` index is not kept); a
    directory holding a data set is refused unless `overwrite`. `rnsfhe.io.open_dataset` or
    `read_encrypted` read it again."""
    import dask

    parts = collection.to_delayed()
    parts = parts if isinstance(parts, list) else [parts]
    path, ref = str(path), _context_ref(context)
    begin = dask.delayed(_begin_write, pure=False)(
        path, "overwrite" if overwrite else "create", storage_options)
    write, offset = dask.delayed(_write_partition, pure=False), dask.delayed(_offset, pure=True)
    written, at = [], 0
    for i, p in enumerate(parts):
        written.append(write(p, path, i, begin, at, ref, column, storage_options))
        at = offset(at, p)
    commit = dask.delayed(_commit_write, pure=False)(path, begin, ref, written, storage_options)
    return [commit[i] for i in range(len(parts))]


def gather(client: Client, collections):
    """Computes Dask collections (or takes futures) and brings the results to the client straight
    from the workers (``direct=True``: Dask's default gathers through the scheduler)."""
    futures = collections
    if not isinstance(collections, Future) and not (
            isinstance(collections, (list, tuple)) and all(isinstance(f, Future)
                                                          for f in collections)):
        futures = client.compute(collections)
    return client.gather(futures, direct=True)
