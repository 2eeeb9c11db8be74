"""Encrypted data sets at rest: ciphertexts, plaintexts and public or evaluation keys as Arrow
binary columns in Parquet files (``pip install "rnsfhe[dask]"``: pyarrow, fsspec).

Files. Each row holds one object per column in its own bytes format (``to_bytes()``: header with
the parameter fingerprint, the key pair's identity, a CRC-32 trailer), plus ``ciphertext`` (the
row's index in the data set), ``records`` (how many records it holds) and ``binding`` (below).
The schema's metadata (key ``rnsfhe``, JSON) names the file format, the library version, the bytes
format version, the scheme, the parameters (their bytes), the parameter fingerprint, the key pair's
identity (``key_id``: 64 bits of SHA-256 over the public key, computed in Rust), the data set's id
and the slot layout: the records of row ``i`` are slots ``0..records-1`` of its ciphertext, rows in
index order (``n`` records per ciphertext; a last partial ciphertext's other slots hold 0).

Data sets. A data set is a directory (any fsspec path: ``s3://...`` where the user has s3fs) of
``part-NNNNN.parquet`` files and, in ``_rnsfhe/``, one ``manifest-VVVVVVVV.json`` per version, as
Delta Lake's and Iceberg's tables have. The manifest is written last and atomically (to a
temporary name, then renamed) by `write_encrypted`, `write_manifest` and
`rnsfhe.dask.to_parquet`. It names its format, a random data-set id (128 bits), its version, the
parameter fingerprint, the key pair's id, the columns and the layout, the rows and records in all,
and per file: name, byte size, row groups, rows, records, first and last row index and a SHA-256
digest; a SHA-256 of its own content detects a torn or edited manifest.

Row binding. A row's ``binding`` cell holds, per object column, SHA-256 over the data-set id, the
row's index, its record count, the column's name and the cell's length and CRC-32 trailer (every
object's bytes end with a CRC-32 over all of them, checked when the cell loads), so that a row
swapped, moved (within a file, to another file or from another data set) or edited is refused
where it is read, and a reader of some columns checks the cells it reads. Decision: the cell
enters through its CRC-32, not a second hash of its bytes, which would cost about a tenth of a
write and of every read (``bench/dataset_write.py``); two unrelated cells share a CRC-32 with
probability 2^-32. A file's digest in the manifest is SHA-256 over its binding cells in row order:
it covers every cell through the bindings, yet opening a data set reads only three small columns
per file (index, records, binding), not the ciphertexts, which are checked against their bindings
where they are read anyway (on the workers, for `rnsfhe.dask.read_encrypted`).

Reading. `open_dataset` (and `read_encrypted`, and `read_part` of a file) trusts only the latest
manifest: a missing file, a ``.parquet`` file it does not name, a file whose size, row groups,
rows, records, indices or digest differ, are refused; reading a row group checks its row count,
each row's index and each cell's binding, then each cell's checksum, fingerprint and key pair.
Refusals raise `DatasetIntegrityError` (a ``SerializationError``), ``ContextMismatchError`` or
``KeyMismatchError`` naming the file, row group, row and column and what differs.

Writing encrypts the records of a numpy array, a dict of arrays, a pandas or Dask DataFrame or an
iterable of such chunks, in bounded memory (one row group of ciphertexts at a time). ``mode``:
``"create"`` (the default) refuses a directory that holds a data set; ``"append"`` adds part files,
indices continuing, and a manifest version listing the old and new files; ``"overwrite"`` (or
``overwrite=True``) removes every part file and manifest first (not atomic: a writer that dies
then leaves nothing readable). While a write is under way ``_rnsfhe/pending.json`` names the
version it makes and its first part number; readers ignore the part files it announces, and the
next write removes them. A writer that dies midway (an exception, a kill) thus leaves the last
complete version readable, or nothing for a first write. One writer at a time: nothing locks.

Without a manifest (a directory written by an rnsfhe before manifests, or a first write that never
finished) a data set is refused. `write_manifest` records what such a directory holds as version 1:
files without bindings get whole-file digests, which opening checks by reading them whole; it
cannot detect files or rows lost before it ran. A single file of `write_objects` carries its own
id, first index and row count in its metadata and is checked by itself; a file without bindings
(file format 1) outside a data set is read only with ``trust_unverified=True``.

What this defends against: accidental loss (a deleted or truncated file, a dropped row), a careless
copy (a file or a row of another data set, even of the same key pair; a row moved or swapped), and
a crashed writer. What it does not: whoever can write the storage can rewrite files and manifest
together and recompute every digest, for there is no writer secret (no MAC, no signature): this is
integrity against accidents, not authenticity against an adversary; nor can a reader tell a
directory rolled back whole (an older version's files and manifests restored together) from that
version.
"""

from __future__ import annotations

import hashlib
import posixpath
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional

from . import _manifest, _progress
from ._parquet import (BINDING, FILE_FORMAT, INDEX, Expect, FileWriter, check, fs_of, header,
                       key_id_of, kind, open_file, read_group, url)
from ._sources import chunks, known_length, record_blocks
from .errors import DatasetIntegrityError, KeyMismatchError

__all__ = ["write_encrypted", "write_objects", "write_manifest", "read_objects", "read_part",
           "open_dataset", "Dataset", "Part", "FILE_FORMAT"]

_MODES = ("create", "append", "overwrite")


def _cells(columns: Dict[str, List[Any]], rows) -> Dict[str, List[bytes]]:
    return {c: [columns[c][i].to_bytes() for i in rows] for c in columns}


def write_objects(path: str, context, columns: Dict[str, List[Any]], *,
                  records: Optional[List[int]] = None, layout: Optional[dict] = None,
                  first: int = 0, row_group_size: int = 32, extra: Optional[dict] = None,
                  storage_options: Optional[dict] = None) -> str:
    """Writes one Parquet file of objects (ciphertexts, plaintexts, public, relinearisation, Galois
    or bootstrapping keys; one kind per column, every column as long, every key and ciphertext of
    one key pair) of `context`; returns `path`. `records` gives each row's record count, `first`
    the first row's index. The file stands alone: its metadata holds its own id, first index and
    row count, and its rows are bound to them (see the module)."""
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
        if name in (*INDEX, BINDING):
            raise ValueError(f"column name {name!r} is reserved")
        found = {type(o).__name__ for o in objs}
        if len(found) > 1:
            raise ValueError(f"column {name!r} mixes kinds {sorted(found)}")
        kinds[name] = kind(objs[0]) if objs else "none"
        ids |= {o.key_id for o in objs if getattr(o, "key_id", None) is not None}
    if len(ids) > 1:
        raise KeyMismatchError(f"objects of different key pairs {sorted(ids)} in one file")
    fs, root = fs_of(path, storage_options)
    w = FileWriter(fs, root, context, kinds, ids.pop() if ids else None, layout,
                   _manifest.new_id(), {**(extra or {}), "standalone": {"first": first, "rows": n}})
    try:
        for s in range(0, n, row_group_size):
            rows = range(s, min(s + row_group_size, n))
            w.write([first + i for i in rows], [records[i] for i in rows], _cells(columns, rows))
    finally:
        w.close()
    return path


def _mode(mode: Optional[str], overwrite: bool) -> str:
    if mode is None:
        return "overwrite" if overwrite else "create"
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
    if overwrite and mode != "overwrite":
        raise ValueError(f"overwrite=True with mode={mode!r}")
    return mode


def _check_append(m: Dict[str, Any], where: str, context, key_id, n: int):
    check(m, where, context, key_id)
    if m["key_id"] is not None and key_id is not None and m["key_id"] != key_id:
        raise KeyMismatchError(f"{where}: encrypted under key pair {m['key_id']}, appending "
                               f"under key pair {key_id}")
    had = (m.get("layout") or {}).get("records_per_ciphertext")
    if had != n:
        raise ValueError(f"{where}: {had} records per ciphertext, appending {n}")


def write_encrypted(path: str, context, data, key, *, columns: Optional[List[str]] = None,
                    records_per_ciphertext: Optional[int] = None, row_group_size: int = 16,
                    file_size: int = 256, progress=None, overwrite: bool = False,
                    mode: Optional[str] = None,
                    storage_options: Optional[dict] = None) -> Dict[str, Any]:
    """Encrypts `data` (a 1-D or 2-D numpy array, a dict of 1-D arrays, a pandas or Dask DataFrame,
    or an iterable of such chunks) column by column into directory `path`: ``part-NNNNN.parquet``
    files of `file_size` ciphertext rows in row groups of `row_group_size`, records per ciphertext
    `records_per_ciphertext` (default: every slot, or the data set's when appending), then the
    manifest. Memory holds one row group. With the `SecretKey` (which stays here) ciphertexts are
    seeded, half the bytes of a public-key encryption. `mode` (see the module): ``"create"``
    refuses a directory holding a data set, ``"append"`` adds to it, ``"overwrite"`` (or
    `overwrite`) replaces it. Returns a summary: the files written, records, ciphertexts, bytes of
    the objects, the data set's id and version."""
    mode = _mode(mode, overwrite)
    fs, root = fs_of(path, storage_options)
    key_id = key_id_of(key)
    old = _manifest.latest(fs, root, str(path)) if mode == "append" else None
    n = records_per_ciphertext
    if n is None:
        n = old["layout"]["records_per_ciphertext"] if old else context.slots
    if not 0 < n <= context.slots:
        raise ValueError(f"records_per_ciphertext must be in 1..{context.slots}, got {n}")
    if row_group_size < 1 or file_size < 1:
        raise ValueError("row_group_size and file_size must be positive")
    if old is not None:
        _check_append(old, str(path), context, key_id, n)
    bar = _progress.callback(progress, "encrypting")
    total = known_length(data)
    state = _manifest.begin(fs, root, str(path), mode)
    old = state["manifest"]
    layout = {"records_per_ciphertext": n, "slots": [0, n], "padding": 0,
              "record": "the records of row i are slots 0..records-1 of its ciphertext"}
    writer: Optional[FileWriter] = None
    kinds: Optional[Dict[str, str]] = None
    files: List[str] = []
    entries: List[Dict[str, Any]] = []
    base = old["rows"] if old else 0
    done, index, nbytes = 0, base, 0
    group: Dict[str, List[bytes]] = {}
    rows: List[int] = []
    counts: List[int] = []

    def flush():
        nonlocal group, rows, counts
        if rows and writer is not None:
            writer.write(rows, counts, group)
        group, rows, counts = {c: [] for c in group}, [], []

    def close():
        nonlocal writer, nbytes
        if writer is not None:
            flush()
            writer.close()
            nbytes += writer.nbytes
            entries.append(writer.entry(posixpath.basename(writer.path)))
            writer = None

    try:
        for block in record_blocks(chunks(data, columns), n):
            cts = {c: context.encrypt(v, key) for c, v in block.items()}
            if kinds is None:
                kinds = {c: kind(ct) for c, ct in cts.items()}
                if old is not None and kinds != old["columns"]:
                    raise ValueError(f"{path}: appending columns {kinds}, the data set's are "
                                     f"{old['columns']}")
            if writer is None or writer.rows + len(rows) >= file_size:
                close()
                name = posixpath.join(root, _manifest.part_name(state["first_file"] + len(files)))
                writer, group = FileWriter(fs, name, context, kinds, key_id, layout,
                                           state["dataset"]), {c: [] for c in cts}
                files.append(url(path, name))
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
        close()
        kinds = kinds or (old["columns"] if old else {})
        manifest = _manifest.commit(fs, root, state, header(context, kinds, key_id, layout),
                                    entries)
    except Exception:
        if writer is not None:
            writer.close()
        _manifest.abort(fs, root, state)
        raise
    if bar is not None and total is None:
        bar(done, done)
    return {"files": files, "records": done, "ciphertexts": index - base, "bytes": nbytes,
            "dataset": manifest["dataset"], "version": manifest["version"]}


def _whole_file_digest(fs, path: str) -> str:
    h = hashlib.sha256()
    with fs.open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def write_manifest(path: str, context, *, key=None,
                   storage_options: Optional[dict] = None) -> Dict[str, Any]:
    """Records what a directory without a manifest holds (written by an rnsfhe before manifests)
    as version 1 of a data set, and returns the manifest: every ``.parquet`` file, in name order,
    its footer checked against `context` and `key`, its rows' indices contiguous from 0. Files
    without bindings get a digest over their whole bytes. It cannot detect files or rows lost
    before it ran (only gaps in the indices): check the data before adopting it."""
    fs, root = fs_of(path, storage_options)
    if _manifest.latest(fs, root, str(path)) is not None:
        raise FileExistsError(f"{path} has a manifest already")
    if _manifest.pending(fs, root) is not None:
        raise DatasetIntegrityError(f"{path}: a first write did not finish (its files are "
                                    "incomplete): write the data set again")
    found = sorted(_manifest.parts(fs, root).items())
    if not found:
        raise FileNotFoundError(f"no Parquet files in {path}")
    key_id, first_meta, entries, expect = key_id_of(key), None, [], 0
    for name, fp in found:
        f = url(path, fp)
        pf, meta = open_file(f, storage_options)
        check(meta, f, context, key_id)
        key_id = key_id or meta["key_id"]
        first_meta = first_meta or meta
        if meta["columns"] != first_meta["columns"]:
            raise DatasetIntegrityError(f"{f}: columns {meta['columns']}, the other files' are "
                                        f"{first_meta['columns']}")
        t = pf.read(columns=list(INDEX))
        idx = t.column("ciphertext").to_pylist()
        if idx != list(range(expect, expect + len(idx))):
            raise DatasetIntegrityError(
                f"{f}: rows {idx[:1]}..{idx[-1:]}, expected rows from {expect}: the indices are "
                "not contiguous (a file or rows were lost, or files of several data sets)")
        entries.append({"name": name, "bytes": int(fs.size(fp)),
                        "row_groups": pf.num_row_groups, "rows": len(idx),
                        "records": int(sum(t.column("records").to_pylist())), "first": expect,
                        "last": expect + len(idx) - 1, "digest": _whole_file_digest(fs, fp),
                        "bound": False})
        expect += len(idx)
    state = _manifest.begin(fs, root, str(path), "adopt")
    return _manifest.commit(fs, root, state, header(context, first_meta["columns"], key_id,
                                                    first_meta.get("layout")), entries)


@dataclass(frozen=True)
class Part:
    """One partition of a data set: a row group of one file, its rows' indices from `first`, bound
    (``bound``) unless its file was recorded by `write_manifest` without bindings."""

    path: str
    row_group: int
    rows: int
    first: int = 0
    bound: bool = True


def _groups(pf, entry: Dict[str, Any]) -> List[int]:
    """The index of each row group's first row."""
    firsts, at = [], entry["first"]
    for g in range(pf.num_row_groups):
        firsts.append(at)
        at += pf.metadata.row_group(g).num_rows
    return firsts


def _file_facts(f: str, fs, fp: str, pf, meta, entry: Dict[str, Any], dataset: str):
    """The cheap facts of a file (its footer and size) against its manifest entry."""
    if entry["bound"] and meta.get("dataset") != dataset:
        raise DatasetIntegrityError(f"{f}: a file of data set {meta.get('dataset')}, this data set "
                                    f"is {dataset} (copied in from another data set?)")
    got = (pf.num_row_groups, pf.metadata.num_rows)
    if got != (entry["row_groups"], entry["rows"]):
        raise DatasetIntegrityError(
            f"{f}: {got[1]} rows in {got[0]} row groups, the manifest says {entry['rows']} rows "
            f"in {entry['row_groups']} (rows dropped or added)")


def _file_size(f: str, fs, fp: str, entry: Dict[str, Any]):
    size = int(fs.size(fp))
    if size != entry["bytes"]:
        raise DatasetIntegrityError(f"{f}: {size} bytes, the manifest says {entry['bytes']} "
                                    "(the file was changed or replaced)")


def _verify_file(f: str, fs, fp: str, entry: Dict[str, Any], m: Dict[str, Any], context,
                 key_id, storage_options: Optional[dict]) -> List[Part]:
    """Every fact the manifest states of a file: its footer, dataset, rows, indices, records,
    digest (over the bindings, or the whole file for files recorded without bindings) and size."""
    pf, meta = open_file(f, storage_options)
    check(meta, f, context, key_id)
    if meta["columns"] != m["columns"]:
        raise DatasetIntegrityError(f"{f}: columns {meta['columns']}, the data set's are "
                                    f"{m['columns']}")
    _file_facts(f, fs, fp, pf, meta, entry, m["dataset"])
    bound = entry["bound"]
    t = pf.read(columns=[*INDEX, *([BINDING] if bound else [])])
    idx = t.column("ciphertext").to_pylist()
    firsts = _groups(pf, entry)
    for k, i in enumerate(idx):
        if i != entry["first"] + k:
            g = max(j for j, s in enumerate(firsts) if s <= entry["first"] + k)
            raise DatasetIntegrityError(
                f"{f} row group {g} row {entry['first'] + k - firsts[g]}: holds index {i}, "
                f"expected {entry['first'] + k} (rows swapped, moved or dropped)")
    records = int(sum(t.column("records").to_pylist()))
    if records != entry["records"]:
        raise DatasetIntegrityError(f"{f}: {records} records, the manifest says "
                                    f"{entry['records']} (a record count was edited)")
    if bound:
        digest = hashlib.sha256(b"".join(t.column(BINDING).to_pylist())).hexdigest()
    else:
        digest = _whole_file_digest(fs, fp)
    if digest != entry["digest"]:
        raise DatasetIntegrityError(f"{f}: its digest differs from the manifest's (rows edited, "
                                    "replaced or reordered)")
    _file_size(f, fs, fp, entry)
    return [Part(f, g, pf.metadata.row_group(g).num_rows, firsts[g], bound)
            for g in range(pf.num_row_groups)]


def _no_manifest(fs, root: str, where: str, found) -> Exception:
    if _manifest.pending(fs, root) is not None:
        return DatasetIntegrityError(f"{where}: no committed version: a first write did not "
                                     "finish (or is under way); write the data set again")
    if not found:
        return FileNotFoundError(f"no data set in {where} (no manifest, no Parquet files)")
    return DatasetIntegrityError(_manifest.LEGACY.format(where=where))


def _expectations(path: str, pf, meta, storage_options, trust_unverified: bool):
    """Each row group's `Expect` for a file read by itself: from its own metadata (a file of
    `write_objects`) or from its directory's manifest; None to read it unverified."""
    alone = meta.get("standalone")
    if alone is not None:
        if pf.metadata.num_rows != alone["rows"]:
            raise DatasetIntegrityError(f"{path}: {pf.metadata.num_rows} rows, its metadata says "
                                        f"{alone['rows']} (rows dropped or added)")
        entry = {"first": alone["first"]}
        return [Expect(meta["dataset"], s, pf.metadata.row_group(g).num_rows)
                for g, s in enumerate(_groups(pf, entry))]
    fs, fp = fs_of(path, storage_options)
    directory, name = posixpath.split(fp)
    m = _manifest.latest(fs, directory, url(path, directory))
    if m is None:
        if trust_unverified:
            return None
        raise DatasetIntegrityError(
            f"{path}: no manifest beside it (written by an rnsfhe before data-set manifests, or "
            "not committed): nothing shows whether its rows are all there. Read it with "
            "trust_unverified=True, or record its directory with rnsfhe.io.write_manifest")
    entry = next((e for e in m["files"] if e["name"] == name), None)
    if entry is None:
        raise DatasetIntegrityError(f"{path}: not in its data set's manifest (version "
                                    f"{m['version']}): copied in, or not committed")
    _file_facts(path, fs, fp, pf, meta, entry, m["dataset"])
    _file_size(path, fs, fp, entry)
    return [Expect(m["dataset"], s, pf.metadata.row_group(g).num_rows, entry["bound"])
            for g, s in enumerate(_groups(pf, entry))]


def _names(path: str, meta, columns) -> List[str]:
    names = list(meta["columns"]) if columns is None else list(columns)
    missing = [c for c in names if c not in meta["columns"]]
    if missing:
        raise LookupError(f"{path}: no column {missing} (it has {list(meta['columns'])})")
    return names


def read_expected(path: str, row_group: int, context, key_id: Optional[str],
                  columns: Optional[List[str]], storage_options: Optional[dict],
                  expect: Expect) -> List[Dict[str, Any]]:
    """The rows of a row group of an opened data set (`Dataset.read`, the Dask tasks)."""
    pf, meta = open_file(path, storage_options)
    check(meta, path, context, key_id)
    return read_group(path, pf, meta, row_group, context, meta["key_id"],
                      _names(path, meta, columns), expect)


def read_part(path: str, row_group: Optional[int], context, *, key=None,
              columns: Optional[List[str]] = None, storage_options: Optional[dict] = None,
              trust_unverified: bool = False) -> List[Dict[str, Any]]:
    """The rows of one row group (every row group when None) as dicts ``{column: object,
    "ciphertext": index, "records": count}``, every row checked (see the module) against the
    file's manifest entry (or its own metadata for a file of `write_objects`). A file without
    either (written by an older rnsfhe) is refused unless `trust_unverified`."""
    pf, meta = open_file(path, storage_options)
    check(meta, path, context, key_id_of(key))
    names = _names(path, meta, columns)
    expects = _expectations(path, pf, meta, storage_options, trust_unverified)
    groups = range(pf.num_row_groups) if row_group is None else [row_group]
    out = []
    for g in groups:
        out += read_group(path, pf, meta, g, context, meta["key_id"], names,
                          None if expects is None else expects[g])
    return out


def read_objects(path: str, context, *, key=None, storage_options: Optional[dict] = None,
                 trust_unverified: bool = False) -> Dict[str, List[Any]]:
    """Every column of one file written by `write_objects` (or of a data set), checked."""
    rows = read_part(path, None, context, key=key, storage_options=storage_options,
                     trust_unverified=trust_unverified)
    _, meta = open_file(path, storage_options)
    return {c: [r[c] for r in rows] for c in meta["columns"]}


class Dataset:
    """A data set's latest version, opened on the client: its manifest, and every file's footer and
    index, records and binding columns checked against it and against `context` and `key` (a key,
    its ``key_id`` or None for the data set's pair); the rows are read by `read`, on whichever
    process calls it, each row checked again."""

    def __init__(self, path: str, context, *, key=None, storage_options: Optional[dict] = None):
        fs, root = fs_of(path, storage_options)
        m = _manifest.latest(fs, root, str(path))
        found = _manifest.parts(fs, root)
        if m is None:
            raise _no_manifest(fs, root, str(path), found)
        self.context, self.storage_options = context, storage_options
        self.manifest: Dict[str, Any] = m
        self.metadata: Dict[str, Any] = m
        self.dataset: str = m["dataset"]
        self.version: int = m["version"]
        self.key_id = key_id_of(key)
        check(m, f"{path} (manifest version {m['version']})", context, self.key_id)
        self.key_id = self.key_id or m["key_id"]
        listed = [e["name"] for e in m["files"]]
        missing = [n for n in listed if n not in found]
        if missing:
            raise DatasetIntegrityError(
                f"{path}: files {missing} of version {m['version']} are missing ({len(listed)} "
                f"files, {m['rows']} rows, {m['records']} records in all): deleted, or not copied")
        later = _manifest.uncommitted(fs, root, m)
        extra = sorted(n for n in found if n not in listed and not later(n))
        if extra:
            raise DatasetIntegrityError(
                f"{path}: files {extra} are not in its manifest (version {m['version']}): copied "
                "in from elsewhere, or left by a write whose manifest is lost; remove or move them")
        self.files: List[str] = []
        self.parts: List[Part] = []
        for e in m["files"]:
            f = url(path, found[e["name"]])
            self.parts += _verify_file(f, fs, found[e["name"]], e, m, context, self.key_id,
                                       storage_options)
            self.files.append(f)

    @property
    def columns(self) -> List[str]:
        return list(self.metadata["columns"])

    @property
    def records_per_ciphertext(self) -> int:
        return int((self.metadata.get("layout") or {}).get("records_per_ciphertext", 1))

    def read(self, part: Part, columns: Optional[List[str]] = None) -> List[Dict[str, Any]]:
        return read_expected(part.path, part.row_group, self.context, self.key_id, columns,
                             self.storage_options,
                             Expect(self.dataset, part.first, part.rows, part.bound))

    def rows(self, columns: Optional[List[str]] = None) -> Iterator[Dict[str, Any]]:
        for p in self.parts:
            yield from self.read(p, columns)


def open_dataset(path: str, context, *, key=None,
                 storage_options: Optional[dict] = None) -> Dataset:
    """`Dataset(path, context, key=key)`."""
    return Dataset(path, context, key=key, storage_options=storage_options)
