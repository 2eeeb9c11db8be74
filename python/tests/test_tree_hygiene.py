"""The tree speaks of the product, not of how it was made: no tracked file's name or text refers to a
work session or an issue number ("session N", "issue N" with N a number). Git keeps the history; the
changelog is the one place that narrates it."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATTERN = re.compile(r"(?<![a-z])session[ _-]?[0-9]|(?<![a-z])issues?[ _-]?#?[0-9]+", re.IGNORECASE)
# The changelog narrates history by design.
EXEMPT = {"CHANGELOG.md"}


def tracked_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [name for name in out.stdout.decode().split("\0") if name and name not in EXEMPT]


def test_no_process_history_in_names_or_text():
    hits = []
    for name in tracked_files():
        if PATTERN.search(name):
            hits.append(f"{name}: file name")
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the work tree, or a submodule
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary (plots)
        for number, line in enumerate(text.splitlines(), 1):
            match = PATTERN.search(line)
            if match:
                hits.append(f"{name}:{number}: {match.group(0)!r}")
    assert not hits, f"{len(hits)} references to sessions or issues:\n" + "\n".join(hits[:200])


def test_the_pattern_catches_what_it_should():
    # The samples take their numbers from format fields, so that this file passes its own check.
    for sample in ["session {}4", "Session {}'s main", "issue {}4", "(Issue {}2 part 3)", "issues {}3 and 14",
                   "bootstrap-2026-11-26-session{}2-xeon", "issue #{}", "rnsfhe_issue{}2_avx2.md"]:
        text = sample.format(1)
        assert PATTERN.search(text), text
    for text in ["a session key", "the issue of scale", "sessions of the protocol", "tissue 5"]:
        assert not PATTERN.search(text), text
