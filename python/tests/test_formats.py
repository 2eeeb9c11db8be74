"""Semantic versioning covers the bytes formats. docs/formats.md lists, per release, the version of each
format the release writes and the versions it reads; the current release's row must be what the library
writes and reads, every listed release has a CHANGELOG section, and between two listed releases a format
change is never a patch release (and a format no longer read is a breaking one)."""

import re
from pathlib import Path

import numpy as np
import pytest

import rnsfhe
import rnsfhe._manifest
import rnsfhe._parquet
import rnsfhe.io

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "docs" / "formats.md"
CHANGELOG = ROOT / "CHANGELOG.md"
COLUMNS = ["object bytes", "bootstrappable preset", "Parquet file", "data-set manifest"]
CELL = re.compile(r"(\d+) \(reads (\d+) to (\d+)\)")


def version_key(v: str):
    return tuple(int(x) for x in v.split("."))


def release_rows(text: str):
    """{release: {format: (writes, oldest read, newest read)}} from the table of releases."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 1 + len(COLUMNS) and re.fullmatch(r"\d+\.\d+\.\d+", cells[0]):
            parsed = [CELL.fullmatch(c) for c in cells[1:]]
            assert all(parsed), f"docs/formats.md: a cell of {cells[0]} is not 'N (reads A to B)'"
            rows[cells[0]] = {k: tuple(int(g) for g in m.groups()) for k, m in zip(COLUMNS, parsed)}
    return rows


def semver_violations(rows):
    """The pairs of consecutive releases whose version step is too small for their format change."""
    bad = []
    releases = sorted(rows, key=version_key)
    for old, new in zip(releases, releases[1:]):
        (o_major, o_minor, _), (n_major, n_minor, _) = version_key(old), version_key(new)
        changed = any(rows[old][f][0] != rows[new][f][0] for f in COLUMNS)
        dropped = any(rows[new][f][1] > rows[old][f][1] for f in COLUMNS)
        if (changed or dropped) and (o_major, o_minor) == (n_major, n_minor):
            bad.append((old, new, "a format change in a patch release"))
        if dropped and o_major >= 1 and o_major == n_major:
            bad.append((old, new, "a format no longer read without a major release"))
    return bad


def library_formats():
    """What this build writes and reads, found by running it, not by reading the table."""
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=1024, levels=1, security="insecure"))
    sk, pk = ctx.keygen()
    blob = bytearray(ctx.encrypt(np.ones(4), pk).to_bytes())
    assert blob[:4] == b"RNSF"
    written = int.from_bytes(blob[4:6], "little")
    blob[4:6] = (0xFFFF).to_bytes(2, "little")
    with pytest.raises(rnsfhe.SerializationError) as e:
        ctx.ciphertext_from_bytes(bytes(blob))
    lo, hi = map(int, re.search(r"reads versions (\d+) to (\d+)", str(e.value)).groups())

    preset = rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure").to_bytes()
    tag = re.search(rb"rnsfBTP(\d)", preset)
    assert tag, "the bootstrappable parameters' bytes carry no preset tag"
    return {
        "object bytes": (written, lo, hi),
        # The preset's read range sits in the Rust loader (rnsfBTP1 and rnsfBTP2), not observable here.
        "bootstrappable preset": (int(tag.group(1)), None, None),
        "Parquet file": (rnsfhe.io.FILE_FORMAT, min(rnsfhe._parquet._READS), max(rnsfhe._parquet._READS)),
        "data-set manifest": (rnsfhe._manifest.MANIFEST_FORMAT,) * 3,
    }


def test_the_current_release_row_is_what_the_library_writes_and_reads():
    rows = release_rows(FORMATS.read_text())
    assert rnsfhe.__version__ in rows, (
        f"docs/formats.md lists no formats for {rnsfhe.__version__}: add its row "
        "(and a CHANGELOG section)")
    found = library_formats()
    assert rnsfhe.FORMAT_VERSION == found["object bytes"][0]
    for fmt, (writes, lo, hi) in found.items():
        listed = rows[rnsfhe.__version__][fmt]
        assert listed[0] == writes, (
            f"{fmt}: this build writes version {writes}, docs/formats.md lists {listed[0]} for "
            f"{rnsfhe.__version__}. A format change is a version change: raise the version in "
            "Cargo.toml, add a row to docs/formats.md and a section to CHANGELOG.md")
        if lo is not None:
            assert listed[1:] == (lo, hi), f"{fmt}: reads {lo} to {hi}, docs/formats.md says {listed[1:]}"


def test_the_listed_releases_follow_semantic_versioning():
    rows = release_rows(FORMATS.read_text())
    assert semver_violations(rows) == []
    changelog = CHANGELOG.read_text()
    for release in rows:
        assert re.search(rf"^## \[{re.escape(release)}\]", changelog, flags=re.M), \
            f"CHANGELOG.md has no section for {release}, which docs/formats.md lists"


@pytest.mark.parametrize("new, writes, reads_from, ok", [
    ("0.1.1", 6, 2, True),    # nothing changed: a patch is fine
    ("0.1.1", 7, 2, False),   # a new format in a patch release
    ("0.2.0", 7, 2, True),    # a new format in a minor release (before 1.0)
    ("0.2.0", 6, 3, True),    # no longer reading 2: breaking, a minor step before 1.0
    ("0.1.1", 6, 3, False),   # ... but never in a patch
])
def test_the_semver_rule_itself(new, writes, reads_from, ok):
    def row(w, lo):
        return {f: (w, lo, w) for f in COLUMNS}
    assert (semver_violations({"0.1.0": row(6, 2), new: row(writes, reads_from)}) == []) == ok
    after_one = {"1.0.0": row(6, 2), "1.1.0": row(6, 3)}
    assert semver_violations(after_one) == [("1.0.0", "1.1.0", "a format no longer read without a major release")]


def test_changelog_keeps_a_changelog_and_links_the_formats():
    text = CHANGELOG.read_text()
    assert text.startswith("# Changelog\n")
    assert "keepachangelog.com/en/1.1.0" in text and "semver.org" in text
    assert "`docs/formats.md`" in text  # named, not linked: the docs site includes this file as its changelog page
    for heading in re.findall(r"^## (.*)$", text, flags=re.M):
        assert re.fullmatch(r"\[Unreleased\]|\[\d+\.\d+\.\d+\] - (\d{4}-\d{2}-\d{2}|Unreleased)", heading), heading
    for kind in re.findall(r"^### (.*)$", text, flags=re.M):
        assert kind in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kind
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, flags=re.M)
    assert releases == sorted(releases, key=version_key, reverse=True), "newest release first"
