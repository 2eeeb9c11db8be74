"""The multiparty examples as a user runs them: one command, separate processes, results checked
inside (each example asserts that the decryptions equal the clear computation)."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"


def run(name, *args):
    out = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_hospitals_three_processes():
    out = run("multiparty_hospitals.py", "--small")
    assert "hospitals [0, 1] decrypt" in out and "hospitals [1, 2] decrypt" in out
    assert "hospital 0 alone: refused" in out
    assert out.count(" bytes") >= 3
    assert "equal the clear computation" in out


def test_deep_polynomial_refreshed_across_processes():
    """Refreshes by 2-of-3 hospitals, a fourth hospital joining by re-sharing (3-of-4, the keys
    unchanged), an old secret refused next to new ones, then refreshes and the decryption by new
    groups with the fourth hospital among them."""
    out = run("multiparty_deep_polynomial.py", "--small")
    lines = out.splitlines()
    join = next(i for i, line in enumerate(lines) if line.startswith("hospital 3 joins"))
    assert "3-of-4 group [0, 1, 2, 3]" in lines[join] and "keys unchanged" in lines[join]
    before = [line for line in lines[:join] if line.startswith("refresh ")]
    after = [line for line in lines[join:] if line.startswith("refresh ")]
    assert before and all("(2-of-3)" in line for line in before), out
    assert after and all("(3-of-4)" in line and "3]" in line for line in after), out
    assert "old secret" in out and "refused (stale" in out
    assert "decrypted by hospitals [0, 2, 3] (3-of-4)" in out
    assert "collective refresh" in out and "equals the clear computation" in out


def test_dask_one_worker_per_hospital():
    pytest.importorskip("distributed")
    out = run("multiparty_dask.py", "--small")
    assert "hospitals [0, 2] decrypt the total" in out
