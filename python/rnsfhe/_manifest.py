"""Data-set versions: row bindings, manifests and the commit protocol of `rnsfhe.io` (whose module
docstring says what they defend against and what they do not).

A data set directory holds ``part-NNNNN.parquet`` files and ``_rnsfhe/``: one
``manifest-VVVVVVVV.json`` per committed version, and ``pending.json`` while a write is under way.
A write (1) rolls back what an interrupted write left, (2) writes ``pending.json`` naming the
version it makes and the first part number it will use, (3) writes its part files under their
final names, (4) writes the manifest to a temporary name and renames it into place, (5) removes
``pending.json``. Readers trust only the latest manifest: a ``.parquet`` file it does not name is
refused, unless ``pending.json`` announces it as part of a newer, uncommitted version (then it is
ignored). One writer at a time: nothing locks the directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import secrets
import struct
import uuid
from typing import Any, Callable, Dict, List, Optional

from .errors import DatasetIntegrityError

#: The version of the manifest's own layout (its ``format`` field).
MANIFEST_FORMAT = 1
DIR = "_rnsfhe"
PENDING = "pending.json"
_MANIFEST = re.compile(r"manifest-(\d{8})\.json$")
_PART = re.compile(r"part-(\d{5,})\.parquet$")
_TAG = b"rnsfhe row binding 1\x00"
BINDING_SIZE = 32


def new_id() -> str:
    """A random data-set id: 128 bits from the operating system's CSPRNG, as hex."""
    return secrets.token_hex(16)


def cell_binding(dataset: bytes, index: int, records: int, column: str, data: bytes) -> bytes:
    """SHA-256 over a tag, the data-set id (16 bytes), the row's index and record count (8-byte
    little-endian each), the column's name (after its length), and the cell's length and CRC-32
    trailer (its last 4 bytes: every rnsfhe object's bytes end with a CRC-32 of what precedes it,
    which loading checks). The cell enters through its CRC-32 rather than a second pass over its
    bytes: hashing every byte again costs about a tenth of a BFV n = 4096 write and as much again
    on every read, while a swapped or moved cell goes unnoticed only if its CRC-32 equals the
    expected cell's (probability 2^-32 for unrelated cells)."""
    name = column.encode()
    h = hashlib.sha256(_TAG)
    h.update(dataset)
    h.update(struct.pack("<qqI", index, records, len(name)))
    h.update(name)
    h.update(struct.pack("<Q", len(data)))
    h.update(data[-4:])
    return h.digest()


def row_binding(dataset: str, index: int, records: int, cells: Dict[str, bytes]) -> bytes:
    """A row's binding: its cells' bindings (`cell_binding`) in column order, 32 bytes each, so
    that a reader of some of the columns checks the cells it reads."""
    d = bytes.fromhex(dataset)
    return b"".join(cell_binding(d, index, records, c, b) for c, b in cells.items())


def part_name(number: int) -> str:
    return f"part-{number:05d}.parquet"


def part_number(name: str) -> Optional[int]:
    m = _PART.fullmatch(name)
    return int(m.group(1)) if m else None


def _content_digest(body: Dict[str, Any]) -> str:
    text = json.dumps({k: v for k, v in body.items() if k != "digest"}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _write_atomic(fs, path: str, data: bytes):
    """`data` at `path`, all or nothing for a process that dies: written to a temporary name
    beside it, then renamed (``os.replace`` on a local disk, ``fs.mv`` on other file systems).
    Decision: no ``fsync`` (the part files have none either): surviving a power loss is left to
    the file system."""
    tmp = posixpath.join(posixpath.dirname(path), f".{posixpath.basename(path)}.{uuid.uuid4().hex}")
    if type(fs).__name__ == "LocalFileSystem":
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return
    with fs.open(tmp, "wb") as f:
        f.write(data)
    fs.mv(tmp, path)


def _manifests(fs, root: str) -> Dict[int, str]:
    d = posixpath.join(root, DIR)
    try:
        names = fs.ls(d, detail=False)
    except FileNotFoundError:
        return {}
    found = {}
    for n in names:
        m = _MANIFEST.fullmatch(posixpath.basename(n))
        if m:
            found[int(m.group(1))] = posixpath.join(d, posixpath.basename(n))
    return found


def parts(fs, root: str) -> Dict[str, str]:
    """The directory's ``.parquet`` files: name -> path."""
    return {posixpath.basename(f): f for f in fs.glob(posixpath.join(root, "*.parquet"))}


def _check_files(m: Dict[str, Any], where: str):
    """The manifest's files hold rows 0..rows-1, in order, without gaps or repeats."""
    expect, records, seen = 0, 0, set()
    for f in m["files"]:
        name = f["name"]
        if posixpath.basename(name) != name or name in seen:
            raise DatasetIntegrityError(f"{where}: bad or repeated file name {name!r}")
        seen.add(name)
        if f["first"] != expect or f["last"] != f["first"] + f["rows"] - 1:
            raise DatasetIntegrityError(
                f"{where}: {name} holds rows {f['first']}..{f['last']} ({f['rows']} rows), "
                f"expected rows from {expect}: the rows are not contiguous")
        expect, records = expect + f["rows"], records + f["records"]
    if (expect, records) != (m["rows"], m["records"]):
        raise DatasetIntegrityError(f"{where}: its files hold {expect} rows and {records} records, "
                                    f"it says {m['rows']} and {m['records']}")


def latest(fs, root: str, where: str) -> Optional[Dict[str, Any]]:
    """The latest manifest of the directory, checked (its content digest, its version against its
    name, its files' rows contiguous), or None when there is none."""
    found = _manifests(fs, root)
    if not found:
        return None
    version = max(found)
    path = found[version]
    name = f"{where.rstrip('/')}/{DIR}/{posixpath.basename(path)}"
    try:
        m = json.loads(fs.cat_file(path))
        ok = isinstance(m, dict) and m.get("digest") == _content_digest(m)
    except (ValueError, UnicodeDecodeError) as e:
        raise DatasetIntegrityError(f"{name}: unreadable manifest (torn or edited): {e}") from e
    if not ok:
        raise DatasetIntegrityError(
            f"{name}: the manifest's content does not match its digest (torn or edited); restore "
            "it, or write the data set again")
    if m.get("format") != MANIFEST_FORMAT:
        raise DatasetIntegrityError(f"{name}: manifest format {m.get('format')!r}, this rnsfhe "
                                    f"reads format {MANIFEST_FORMAT}: upgrade rnsfhe")
    if m.get("version") != version:
        raise DatasetIntegrityError(
            f"{name}: a stale manifest: it describes version {m.get('version')}, its name says "
            f"version {version} (an older manifest copied over a newer one?)")
    _check_files(m, name)
    return m


def pending(fs, root: str) -> Optional[Dict[str, Any]]:
    path = posixpath.join(root, DIR, PENDING)
    try:
        return json.loads(fs.cat_file(path))
    except FileNotFoundError:
        return None
    except ValueError:  # torn while written: it announced nothing yet
        return {"version": 0, "first_file": None}


def uncommitted(fs, root: str, m: Optional[Dict[str, Any]]) -> Callable[[str], bool]:
    """Whether a file name belongs to a write under way or interrupted (after `m`'s version)."""
    p = pending(fs, root)
    if p is None or p.get("first_file") is None:
        return lambda name: False
    if m is not None and p.get("version", 0) <= m["version"]:
        return lambda name: False
    listed = {f["name"] for f in m["files"]} if m else set()
    first = p["first_file"]

    def later(name: str) -> bool:
        number = part_number(name)
        return name not in listed and number is not None and number >= first
    return later


def _rollback(fs, root: str, m: Optional[Dict[str, Any]]):
    """Removes what an interrupted write left: its part files and ``pending.json``."""
    if pending(fs, root) is None:
        return
    is_uncommitted = uncommitted(fs, root, m)
    for name, path in parts(fs, root).items():
        if is_uncommitted(name):
            fs.rm(path)
    fs.rm(posixpath.join(root, DIR, PENDING))


LEGACY = ("{where} holds Parquet files but no manifest: written by an rnsfhe without data-set "
          "manifests, or by a first write that did not finish. To use it as it is, record its "
          "files with rnsfhe.io.write_manifest(path, context, key=...) (this cannot detect files "
          "or rows lost before), or write it again")


def begin(fs, root: str, where: str, mode: str) -> Dict[str, Any]:
    """Starts a write of mode ``create``, ``append``, ``overwrite`` or ``adopt`` (a manifest for
    the files there, `rnsfhe.io.write_manifest`): checks the directory,
    rolls back an interrupted write, writes ``pending.json``; returns the write's state (data-set
    id, version, first part number, the latest manifest)."""
    fs.makedirs(root, exist_ok=True)
    if mode == "overwrite":
        for path in parts(fs, root).values():
            fs.rm(path)
        if fs.exists(posixpath.join(root, DIR)):
            fs.rm(posixpath.join(root, DIR), recursive=True)
    m = latest(fs, root, where)
    _rollback(fs, root, m)
    found = parts(fs, root)
    if m is None:
        if found and mode == "append":
            raise DatasetIntegrityError(LEGACY.format(where=where))
        if found and mode != "adopt":
            raise FileExistsError(f"{where} holds Parquet files already ({len(found)}); pass "
                                  "overwrite=True to replace them")
        state = {"dataset": new_id(), "version": 1, "first_file": 0, "manifest": None}
    else:
        if mode == "create":
            raise FileExistsError(
                f"{where} holds a data set already (version {m['version']}, {len(m['files'])} "
                "files); pass mode='append' to add to it or overwrite=True to replace it")
        extra = sorted(set(found) - {f["name"] for f in m["files"]})
        if extra:
            raise DatasetIntegrityError(f"{where}: files {extra} are not in its manifest "
                                        f"(version {m['version']}); nothing appended")
        numbers = [part_number(f["name"]) for f in m["files"]]
        state = {"dataset": m["dataset"], "version": m["version"] + 1,
                 "first_file": max([n for n in numbers if n is not None], default=-1) + 1,
                 "manifest": m}
    if m is None:
        fs.makedirs(posixpath.join(root, DIR), exist_ok=True)
    marker = {"version": state["version"], "first_file": state["first_file"]}
    _write_atomic(fs, posixpath.join(root, DIR, PENDING), json.dumps(marker).encode())
    return state


def commit(fs, root: str, state: Dict[str, Any], header: Dict[str, Any],
           entries: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Writes the manifest of the write's version (the previous version's files, then `entries`)
    atomically, then removes ``pending.json``; returns the manifest."""
    old = state["manifest"]
    files = (old["files"] if old else []) + entries
    body = {"format": MANIFEST_FORMAT, "dataset": state["dataset"], "version": state["version"],
            **header, "rows": sum(f["rows"] for f in files),
            "records": sum(f["records"] for f in files), "files": files}
    body["digest"] = _content_digest(body)
    _check_files(body, "the manifest being written")
    path = posixpath.join(root, DIR, f"manifest-{state['version']:08d}.json")
    _write_atomic(fs, path, json.dumps(body, indent=1).encode())
    fs.rm(posixpath.join(root, DIR, PENDING))
    return body


def abort(fs, root: str, state: Dict[str, Any]):
    """Removes what a failed write wrote (best effort: what stays is rolled back by the next
    write, and ignored by readers meanwhile)."""
    try:
        _rollback(fs, root, state["manifest"])
    except Exception:  # noqa: BLE001 - the write's own error is the one to report
        pass
