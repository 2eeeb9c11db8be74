"""One encrypted Parquet file of `rnsfhe.io`: its writer (index, records, binding and object
columns, row group by row group) and the reading of one row group with every row checked."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from . import _manifest
from ._rnsfhe import FORMAT_VERSION, _restore
from .errors import (ContextMismatchError, DatasetIntegrityError, KeyMismatchError, RnsfheError,
                     SerializationError)

#: The version of this file layout (the metadata's ``rnsfhe`` field): 2 adds the ``binding``
#: column and the data-set id; files of version 1 are read only as `rnsfhe.io` says.
FILE_FORMAT = 2
_READS = (1, 2)
META = b"rnsfhe"
INDEX = ("ciphertext", "records")
BINDING = "binding"


def pa_pq():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - the dask extra installs it
        raise ImportError('rnsfhe.io needs pyarrow: pip install "rnsfhe[dask]"') from e
    return pa, pq


def fs_of(path: str, storage_options: Optional[dict]):
    try:
        import fsspec
    except ImportError as e:  # pragma: no cover - the dask extra installs it
        raise ImportError('rnsfhe.io needs fsspec: pip install "rnsfhe[dask]"') from e

    return fsspec.core.url_to_fs(str(path), **(storage_options or {}))


def url(path: str, found: str) -> str:
    """`found` (a path on `path`'s file system, as fsspec lists it) with `path`'s protocol."""
    path = str(path)
    return path.split("://")[0] + "://" + found if "://" in path and "://" not in found else found


def _library_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rnsfhe")
    except PackageNotFoundError:  # pragma: no cover - a source tree on sys.path
        return "unknown"


def kind(obj) -> str:
    """The object's kind as its pickle names it (``BfvCiphertext``, ``bfv:RelinKey``, ...); a
    secret key raises SecretKeyExportError (it never goes to disk through this module)."""
    return obj.__reduce_ex__(2)[1][0]


def key_id_of(key) -> Optional[str]:
    return key if key is None or isinstance(key, str) else key.key_id


def header(context, kinds: Dict[str, str], key_id, layout) -> Dict[str, Any]:
    """What a file's metadata and a manifest both say of a data set."""
    return {"library_version": _library_version(), "object_format": FORMAT_VERSION,
            "scheme": type(context).__name__, "fingerprint": context.fingerprint,
            "key_id": key_id, "columns": kinds, "layout": layout}


class FileWriter:
    """One Parquet file written row group by row group: the index columns, the rows' bindings and
    one large_binary column per object column, uncompressed (ciphertexts are uniformly random),
    page checksums on. Tracks what the manifest says of the file."""

    def __init__(self, fs, path: str, context, kinds: Dict[str, str], key_id, layout,
                 dataset: str, extra: Optional[dict] = None):
        pa, pq = pa_pq()
        self.pa = pa
        meta = {"rnsfhe": FILE_FORMAT, **header(context, kinds, key_id, layout),
                "params": context.to_bytes().hex(), "dataset": dataset, **(extra or {})}
        fields = [pa.field("ciphertext", pa.int64()), pa.field("records", pa.int32()),
                  pa.field(BINDING, pa.binary())]
        fields += [pa.field(c, pa.large_binary()) for c in kinds]
        self.columns = list(kinds)
        self.schema = pa.schema(fields, metadata={META: json.dumps(meta)})
        self.fs, self.path, self.dataset = fs, path, dataset
        self.file = fs.open(path, "wb")
        self.writer = pq.ParquetWriter(self.file, self.schema, compression="none",
                                       use_dictionary=False, write_statistics=list(INDEX),
                                       write_page_checksum=True)
        self.rows = self.records = self.nbytes = self.row_groups = 0
        self.first: Optional[int] = None
        self.last = -1
        self.digest = hashlib.sha256()

    def write(self, index: List[int], records: List[int], cols: Dict[str, List[bytes]]):
        """One row group."""
        bindings = [_manifest.row_binding(self.dataset, i, r, {c: cols[c][k]
                                                               for c in self.columns})
                    for k, (i, r) in enumerate(zip(index, records))]
        for b in bindings:
            self.digest.update(b)
        arrays = [self.pa.array(index, self.pa.int64()), self.pa.array(records, self.pa.int32()),
                  self.pa.array(bindings, self.pa.binary())]
        arrays += [self.pa.array(cols[c], self.pa.large_binary()) for c in self.columns]
        self.writer.write_table(self.pa.Table.from_arrays(arrays, schema=self.schema))
        self.first = index[0] if self.first is None else self.first
        self.last = index[-1]
        self.rows += len(index)
        self.records += sum(records)
        self.row_groups += 1
        self.nbytes += sum(len(b) for v in cols.values() for b in v)

    def close(self):
        self.writer.close()
        self.file.close()

    def entry(self, name: str) -> Dict[str, Any]:
        """The file as the manifest lists it (after `close`)."""
        return {"name": name, "bytes": int(self.fs.size(self.path)),
                "row_groups": self.row_groups, "rows": self.rows, "records": self.records,
                "first": self.first if self.first is not None else self.last + 1,
                "last": self.last, "digest": self.digest.hexdigest(), "bound": True}


def check(meta: Dict[str, Any], where: str, context, key_id: Optional[str]):
    """A file's (or a manifest's) parameters and key pair against the reader's."""
    if "fingerprint" not in meta:
        raise SerializationError(f"{where}: not an rnsfhe data set of file format {FILE_FORMAT} "
                                 f"(metadata {meta.get('rnsfhe')!r})")
    if meta["fingerprint"] != context.fingerprint:
        raise ContextMismatchError(
            f"{where}: written for parameters {meta['fingerprint']} ({meta['scheme']}, rnsfhe "
            f"{meta['library_version']}), the context's are {context.fingerprint}")
    if key_id is not None and meta["key_id"] not in (None, key_id):
        raise KeyMismatchError(f"{where}: encrypted under key pair {meta['key_id']}, "
                               f"expected key pair {key_id}")


def open_file(path: str, storage_options: Optional[dict]):
    """An open ParquetFile and the rnsfhe metadata of `path` (its format checked)."""
    _, pq = pa_pq()
    fs, root = fs_of(path, storage_options)
    try:
        pf = pq.ParquetFile(fs.open(root, "rb"), page_checksum_verification=True)
        raw = (pf.schema_arrow.metadata or {}).get(META)
        meta = json.loads(raw) if raw is not None else {}
    except (OSError, ValueError) as e:
        raise SerializationError(f"{path}: unreadable Parquet file: {e}") from e
    if meta.get("rnsfhe") not in _READS:
        raise SerializationError(f"{path}: not an rnsfhe data set of file format {FILE_FORMAT} "
                                 f"(metadata {meta.get('rnsfhe')!r})")
    return pf, meta


def _load(kind_: str, params: bytes, data: bytes, key_id: Optional[str], where: str):
    try:
        obj = _restore(kind_, params, data)
    except RnsfheError as e:
        raise type(e)(f"{where}: {e}") from e
    if key_id is not None and getattr(obj, "key_id", None) not in (None, key_id):
        raise KeyMismatchError(f"{where}: of key pair {obj.key_id}, the file's is {key_id}")
    return obj


@dataclass(frozen=True)
class Expect:
    """What a row group must hold: rows of data set `dataset` with indices first..first+rows-1,
    each bound (``bound``: the file has a binding column the manifest trusts)."""

    dataset: str
    first: int
    rows: int
    bound: bool = True


def _whose(cols, dataset: bytes, column: str, pos: int, data: bytes) -> str:
    """Why a cell's binding does not match: the row of this row group it was written for, if any."""
    for j, (idx, rec, b) in enumerate(zip(cols["ciphertext"], cols["records"], cols[BINDING])):
        if b[pos:pos + 32] == _manifest.cell_binding(dataset, idx, rec, column, data):
            return f"it holds the cell written for row {j} (index {idx}): cells swapped"
    return ("its bytes or its record count changed after it was written, or it comes from "
            "another row, file or data set")


def read_group(path: str, pf, meta: Dict[str, Any], g: int, context, key_id: Optional[str],
               names: List[str], expect: Optional[Expect]) -> List[Dict[str, Any]]:
    """The rows of row group `g`, each checked: its index and binding against `expect` (when
    given), then every cell's checksum, fingerprint and key pair."""
    where = f"{path} row group {g}"
    if expect is not None:
        if expect.bound and meta.get("dataset") != expect.dataset:
            raise DatasetIntegrityError(
                f"{path}: a file of data set {meta.get('dataset')}, this data set is "
                f"{expect.dataset} (copied in from another data set?)")
        found = pf.metadata.row_group(g).num_rows
        if found != expect.rows:
            raise DatasetIntegrityError(
                f"{where}: {found} rows, the manifest says {expect.rows} (rows dropped or added)")
    bound = expect.bound if expect is not None else False
    read = [*INDEX, *([BINDING] if bound else []), *names]
    try:
        t = pf.read_row_group(g, columns=read)
    except (OSError, ValueError, KeyError) as e:
        raise SerializationError(f"{where}: unreadable: {e}") from e
    cols = {c: t.column(c).to_pylist() for c in read}
    params = context.to_bytes()
    dataset = bytes.fromhex(expect.dataset) if bound and expect is not None else b""
    order = list(meta["columns"])
    out = []
    for i in range(t.num_rows):
        index, records = cols["ciphertext"][i], cols["records"][i]
        if expect is not None and index != expect.first + i:
            raise DatasetIntegrityError(
                f"{where} row {i}: holds index {index}, expected {expect.first + i} (rows "
                "swapped, moved or dropped)")
        row = {"ciphertext": index, "records": records}
        for c in names:
            row[c] = _load(meta["columns"][c], params, cols[c][i], meta["key_id"],
                           f"{where} row {i} column {c!r}")
            if bound:
                pos = 32 * order.index(c)
                b = cols[BINDING][i]
                if b[pos:pos + 32] != _manifest.cell_binding(dataset, index, records, c,
                                                             cols[c][i]):
                    raise DatasetIntegrityError(
                        f"{where} row {i} column {c!r} (index {index}, {records} records): its "
                        f"binding does not match: {_whose(cols, dataset, c, pos, cols[c][i])}")
        out.append(row)
    return out
