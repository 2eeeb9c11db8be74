"""Encrypted data sets at rest (issue 26): ciphertexts, plaintexts and public or evaluation keys as
Arrow binary columns in Parquet files (``pip install "rnsfhe[dask]"``: pyarrow, fsspec).

A data set is a directory of ``part-NNNNN.parquet`` files (any fsspec path: ``s3://...`` where the
user has s3fs). Each row holds one object per column in its own bytes format (``to_bytes()``:
header with the parameter fingerprint, the key pair's identity, a CRC-32 trailer), plus
``ciphertext`` (the row's index in the data set) and ``records`` (how many records it holds). The
schema's metadata (key ``rnsfhe``, JSON) names the library version, the bytes format version, the
scheme, the parameters (their bytes), the parameter fingerprint, the key pair's identity
(``key_id``: 64 bits of SHA-256 over the public key, computed in Rust) and the slot layout: record
``i * n + j`` of a column is slot ``j`` of ciphertext ``i``, ``n`` records per ciphertext, the slots
past a last partial ciphertext's records hold 0.

Loading checks every file's metadata against the reader's context and key pair, then every cell's
own checksum, fingerprint and key identity, and raises ``ContextMismatchError``,
``KeyMismatchError`` or ``SerializationError`` naming the file, row group, row and column.
Writing encrypts the records of a numpy array, a dict of arrays, a pandas or Dask DataFrame or an
iterable of such chunks, in bounded memory (one row group of ciphertexts at a time).
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional

from . import _progress
from ._rnsfhe import FORMAT_VERSION, _restore
from ._sources import chunks, known_length, record_blocks
from .errors import ContextMismatchError, KeyMismatchError, RnsfheError, SerializationError

__all__ = ["write_encrypted", "write_objects", "read_objects", "open_dataset", "Dataset", "Part",
           "FILE_FORMAT"]

#: The version of this file layout (the metadata's ``rnsfhe`` field).
FILE_FORMAT = 1
_META = b"rnsfhe"
_INDEX = ("ciphertext", "records")


def _pa():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - the dask extra installs it
        raise ImportError('rnsfhe.io needs pyarrow: pip install "rnsfhe[dask]"') from e
    return pa, pq


def _fs(path: str, storage_options: Optional[dict]):
    try:
        import fsspec
    except ImportError as e:  # pragma: no cover - the dask extra installs it
        raise ImportError('rnsfhe.io needs fsspec: pip install "rnsfhe[dask]"') from e

    return fsspec.core.url_to_fs(str(path), **(storage_options or {}))


def _url(path: str, found: str) -> str:
    """`found` (a path on `path`'s file system, as fsspec lists it) with `path`'s protocol."""
    path = str(path)
    return path.split("://")[0] + "://" + found if "://" in path and "://" not in found else found


def _library_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rnsfhe")
    except PackageNotFoundError:  # pragma: no cover - a source tree on sys.path
        return "unknown"


def _kind(obj) -> str:
    """The object's kind as its pickle names it (``BfvCiphertext``, ``bfv:RelinKey``, ...); a
    secret key raises SecretKeyExportError (it never goes to disk through this module)."""
    return obj.__reduce_ex__(2)[1][0]


def _key_id(key) -> Optional[str]:
    return key if key is None or isinstance(key, str) else key.key_id


def _metadata(context, kinds: Dict[str, str], key_id, layout, extra) -> Dict[str, Any]:
    return {"rnsfhe": FILE_FORMAT, "library_version": _library_version(),
            "object_format": FORMAT_VERSION, "scheme": type(context).__name__,
            "params": context.to_bytes().hex(), "fingerprint": context.fingerprint,
            "key_id": key_id, "columns": kinds, "layout": layout, **(extra or {})}


class _FileWriter:
    """One Parquet file written row group by row group: the index columns and one large_binary
    column per object column, uncompressed (ciphertexts are uniformly random), page checksums on."""

    def __init__(self, fs, path: str, meta: Dict[str, Any]):
        pa, pq = _pa()
        self.pa = pa
        fields = [pa.field("ciphertext", pa.int64()), pa.field("records", pa.int32())]
        fields += [pa.field(c, pa.large_binary()) for c in meta["columns"]]
        self.schema = pa.schema(fields, metadata={_META: json.dumps(meta)})
        self.file = fs.open(path, "wb")
        self.writer = pq.ParquetWriter(self.file, self.schema, compression="none",
                                       use_dictionary=False, write_statistics=list(_INDEX),
                                       write_page_checksum=True)
        self.path, self.rows, self.nbytes = path, 0, 0

    def write(self, index: List[int], records: List[int], cols: Dict[str, List[bytes]]):
        arrays = [self.pa.array(index, self.pa.int64()), self.pa.array(records, self.pa.int32())]
        arrays += [self.pa.array(cols[c], self.pa.large_binary()) for c in self.schema.names[2:]]
        self.writer.write_table(self.pa.Table.from_arrays(arrays, schema=self.schema))
        self.rows += len(index)
        self.nbytes += sum(len(b) for v in cols.values() for b in v)

    def close(self):
        self.writer.close()
        self.file.close()


def write_objects(path: str, context, columns: Dict[str, List[Any]], *,
                  records: Optional[List[int]] = None, layout: Optional[dict] = None,
                  first: int = 0, row_group_size: int = 32, extra: Optional[dict] = None,
                  storage_options: Optional[dict] = None) -> str:
    """Writes one Parquet file of objects (ciphertexts, plaintexts, public, relinearisation, Galois
    or bootstrapping keys; one kind per column, every column as long, every key and ciphertext of
    one key pair) of `context`; returns `path`. `records` gives each row's record count."""
    if not columns:
        raise ValueError("write_objects needs at least one column")
    lengths = {len(v) for v in columns.values()}
    if len(lengths) != 1:
        raise ValueError(f"columns of different lengths {sorted(lengths)}")
    n = lengths.pop()
    records = records or [0] * n
    if len(records) != n:
        raise ValueError(f"{len(records)} record counts for {n} rows")
    kinds, ids = {}, set()
    for name, objs in columns.items():
        if name in _INDEX:
            raise ValueError(f"column name {name!r} is reserved")
        found = {type(o).__name__ for o in objs}
        if len(found) > 1:
            raise ValueError(f"column {name!r} mixes kinds {sorted(found)}")
        kinds[name] = _kind(objs[0]) if objs else "none"
        ids |= {o.key_id for o in objs if getattr(o, "key_id", None) is not None}
    if len(ids) > 1:
        raise KeyMismatchError(f"objects of different key pairs {sorted(ids)} in one file")
    fs, root = _fs(path, storage_options)
    w = _FileWriter(fs, root, _metadata(context, kinds, ids.pop() if ids else None,
                                        layout, extra))
    try:
        for s in range(0, max(n, 1), row_group_size):
            rows = range(s, min(s + row_group_size, n))
            w.write([first + i for i in rows], [records[i] for i in rows],
                    {c: [columns[c][i].to_bytes() for i in rows] for c in columns})
    finally:
        w.close()
    return path


def write_encrypted(path: str, context, data, key, *, columns: Optional[List[str]] = None,
                    records_per_ciphertext: Optional[int] = None, row_group_size: int = 16,
                    file_size: int = 256, progress=None, overwrite: bool = False,
                    storage_options: Optional[dict] = None) -> Dict[str, Any]:
    """Encrypts `data` (a 1-D or 2-D numpy array, a dict of 1-D arrays, a pandas or Dask DataFrame,
    or an iterable of such chunks) column by column into directory `path`: ``part-NNNNN.parquet``
    files of `file_size` ciphertext rows in row groups of `row_group_size`, records per ciphertext
    `records_per_ciphertext` (default: every slot). Memory holds one row group. With the
    `SecretKey` (which stays here) ciphertexts are seeded, half the bytes of a public-key
    encryption. A directory that holds Parquet files already is refused unless `overwrite` (which
    deletes them first). Returns a summary: files, records, ciphertexts, bytes of the objects."""
    n = context.slots if records_per_ciphertext is None else records_per_ciphertext
    if not 0 < n <= context.slots:
        raise ValueError(f"records_per_ciphertext must be in 1..{context.slots}, got {n}")
    if row_group_size < 1 or file_size < 1:
        raise ValueError("row_group_size and file_size must be positive")
    bar = _progress.callback(progress, "encrypting")
    total = known_length(data)
    fs, root = _fs(path, storage_options)
    fs.makedirs(root, exist_ok=True)
    old = fs.glob(posixpath.join(root, "*.parquet"))
    if old and not overwrite:
        raise FileExistsError(f"{path} holds Parquet files already ({len(old)}); pass "
                              "overwrite=True to replace them")
    for f in old:
        fs.rm(f)
    layout = {"records_per_ciphertext": n, "slots": [0, n], "padding": 0,
              "record": "record i*n+j of a column is slot j of row i's ciphertext"}
    writer: Optional[_FileWriter] = None
    files: List[str] = []
    done = index = nbytes = 0
    group: Dict[str, List[bytes]] = {}
    rows: List[int] = []
    counts: List[int] = []

    def flush():
        nonlocal group, rows, counts
        if rows and writer is not None:
            writer.write(rows, counts, group)
        group, rows, counts = {c: [] for c in group}, [], []

    try:
        for block in record_blocks(chunks(data, columns), n):
            cts = {c: context.encrypt(v, key) for c, v in block.items()}
            if writer is None or writer.rows + len(rows) >= file_size:
                flush()
                if writer is not None:
                    nbytes += writer.nbytes
                    writer.close()
                name = posixpath.join(root, f"part-{len(files):05d}.parquet")
                meta = _metadata(context, {c: _kind(ct) for c, ct in cts.items()},
                                 _key_id(key), layout, None)
                writer, group = _FileWriter(fs, name, meta), {c: [] for c in cts}
                files.append(_url(path, name))
            m = len(next(iter(block.values())))
            for c, ct in cts.items():
                group[c].append(ct.to_bytes())
            rows.append(index)
            counts.append(m)
            index, done = index + 1, done + m
            if len(rows) >= row_group_size:
                flush()
            if bar is not None:
                bar(done, total)
        flush()
    finally:
        if writer is not None:
            nbytes += writer.nbytes
            writer.close()
    if bar is not None and total is None:
        bar(done, done)
    return {"files": files, "records": done, "ciphertexts": index, "bytes": nbytes}


@dataclass(frozen=True)
class Part:
    """One partition of a data set: a row group of one file."""

    path: str
    row_group: int
    rows: int


def _check(meta: Dict[str, Any], where: str, context, key_id: Optional[str]):
    if meta.get("rnsfhe") != FILE_FORMAT:
        raise SerializationError(f"{where}: not an rnsfhe data set of file format {FILE_FORMAT} "
                                 f"(metadata {meta.get('rnsfhe')!r})")
    if meta["fingerprint"] != context.fingerprint:
        raise ContextMismatchError(
            f"{where}: written for parameters {meta['fingerprint']} ({meta['scheme']}, rnsfhe "
            f"{meta['library_version']}), the context's are {context.fingerprint}")
    if key_id is not None and meta["key_id"] not in (None, key_id):
        raise KeyMismatchError(f"{where}: encrypted under key pair {meta['key_id']}, "
                               f"expected key pair {key_id}")


def _parquet(path: str, storage_options: Optional[dict]):
    """An open ParquetFile and the rnsfhe metadata of `path`."""
    _, pq = _pa()
    fs, root = _fs(path, storage_options)
    try:
        pf = pq.ParquetFile(fs.open(root, "rb"), page_checksum_verification=True)
        raw = (pf.schema_arrow.metadata or {}).get(_META)
        meta = json.loads(raw) if raw is not None else {}
    except (OSError, ValueError) as e:
        raise SerializationError(f"{path}: unreadable Parquet file: {e}") from e
    return pf, meta


def _load(kind: str, params: bytes, data: bytes, key_id: Optional[str], where: str):
    try:
        obj = _restore(kind, params, data)
    except RnsfheError as e:
        raise type(e)(f"{where}: {e}") from e
    if key_id is not None and getattr(obj, "key_id", None) not in (None, key_id):
        raise KeyMismatchError(f"{where}: of key pair {obj.key_id}, the file's is {key_id}")
    return obj


def read_part(path: str, row_group: Optional[int], context, *, key=None,
              columns: Optional[List[str]] = None,
              storage_options: Optional[dict] = None) -> List[Dict[str, Any]]:
    """The rows of one row group (every row group when None) as dicts ``{column: object,
    "ciphertext": index, "records": count}``, every object checked (see the module)."""
    pf, meta = _parquet(path, storage_options)
    _check(meta, path, context, _key_id(key))
    names = list(meta["columns"]) if columns is None else list(columns)
    missing = [c for c in names if c not in meta["columns"]]
    if missing:
        raise LookupError(f"{path}: no column {missing} (it has {list(meta['columns'])})")
    params = context.to_bytes()
    groups = range(pf.num_row_groups) if row_group is None else [row_group]
    out = []
    for g in groups:
        try:
            t = pf.read_row_group(g, columns=[*_INDEX, *names])
        except (OSError, ValueError) as e:
            raise SerializationError(f"{path} row group {g}: unreadable: {e}") from e
        cols = {c: t.column(c).to_pylist() for c in (*_INDEX, *names)}
        for i in range(t.num_rows):
            row = {"ciphertext": cols["ciphertext"][i], "records": cols["records"][i]}
            for c in names:
                row[c] = _load(meta["columns"][c], params, cols[c][i], meta["key_id"],
                               f"{path} row group {g} row {i} column {c!r}")
            out.append(row)
    return out


def read_objects(path: str, context, *, key=None,
                 storage_options: Optional[dict] = None) -> Dict[str, List[Any]]:
    """Every column of one file written by `write_objects` (or `write_encrypted`), checked."""
    rows = read_part(path, None, context, key=key, storage_options=storage_options)
    pf, meta = _parquet(path, storage_options)
    return {c: [r[c] for r in rows] for c in meta["columns"]}


class Dataset:
    """A directory of encrypted Parquet files, opened on the client: only the files' footers are
    read (metadata checked against `context` and `key`: a key, its ``key_id`` or None for the
    first file's pair); the rows are read by `read_part`, on whichever process calls it."""

    def __init__(self, path: str, context, *, key=None, storage_options: Optional[dict] = None):
        fs, root = _fs(path, storage_options)
        found = sorted(_url(path, f) for f in fs.glob(posixpath.join(root, "*.parquet")))
        if not found:
            raise FileNotFoundError(f"no Parquet files in {path}")
        self.context, self.storage_options = context, storage_options
        self.key_id, self.parts, self.files = _key_id(key), [], []
        self.metadata: Dict[str, Any] = {}
        for f in found:
            pf, meta = _parquet(f, storage_options)
            _check(meta, f, context, self.key_id)
            if self.key_id is None:
                self.key_id = meta["key_id"]
            if self.metadata and meta["columns"] != self.metadata["columns"]:
                raise SerializationError(f"{f}: columns {meta['columns']}, the data set's are "
                                         f"{self.metadata['columns']}")
            self.metadata = self.metadata or meta
            self.files.append(f)
            self.parts += [Part(f, g, pf.metadata.row_group(g).num_rows)
                           for g in range(pf.num_row_groups)]

    @property
    def columns(self) -> List[str]:
        return list(self.metadata["columns"])

    @property
    def records_per_ciphertext(self) -> int:
        return int((self.metadata.get("layout") or {}).get("records_per_ciphertext", 1))

    def read(self, part: Part, columns: Optional[List[str]] = None) -> List[Dict[str, Any]]:
        return read_part(part.path, part.row_group, self.context, key=self.key_id,
                         columns=columns, storage_options=self.storage_options)

    def rows(self, columns: Optional[List[str]] = None) -> Iterator[Dict[str, Any]]:
        for p in self.parts:
            yield from self.read(p, columns)


def open_dataset(path: str, context, *, key=None,
                 storage_options: Optional[dict] = None) -> Dataset:
    """`Dataset(path, context, key=key)`."""
    return Dataset(path, context, key=key, storage_options=storage_options)
