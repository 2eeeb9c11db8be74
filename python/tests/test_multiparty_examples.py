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
    out = run("multiparty_deep_polynomial.py", "--small")
    assert "collective refreshes" in out and "refresh 1:" in out
    assert "equals the clear computation" in out


def test_dask_one_worker_per_hospital():
    pytest.importorskip("distributed")
    out = run("multiparty_dask.py", "--small")
    assert "hospitals [0, 2] decrypt the total" in out
