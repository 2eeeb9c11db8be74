"""The built wheel installs into a fresh virtual environment with no Rust toolchain on PATH and runs the
Python quickstart: `examples/python/quickstart.py`, which README's first Python block must equal.

`make python` builds the wheel once (`make wheel`), installs it for this suite and names it in
RNSFHE_WHEEL, so that this test must find it; run by hand, the test looks for
target/wheels/rnsfhe-<version>-*.whl and skips when there is none. RNSFHE_WHEEL_SMOKE_LOG names a
file for the measured time and the wheel's size."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rnsfhe

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
QUICKSTART = ROOT / "examples" / "python" / "quickstart.py"
RUST_TOOLS = ("cargo", "rustc", "rustup")


def test_readme_quickstart_is_the_example_file():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README.md has no Python block"
    assert blocks[0] == QUICKSTART.read_text(), (
        "README.md's first Python block differs from examples/python/quickstart.py, which the wheel "
        "test runs: change both together")


def built_wheel() -> Path:
    named = os.environ.get("RNSFHE_WHEEL")
    if named:
        assert Path(named).is_file(), f"RNSFHE_WHEEL={named} does not exist"
        return Path(named)
    found = sorted((ROOT / "target" / "wheels").glob(f"rnsfhe-{rnsfhe.__version__}-*.whl"))
    if not found:
        pytest.skip("no wheel built (make wheel)")
    return max(found, key=lambda p: p.stat().st_mtime)


def path_without_rust() -> str:
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not any((Path(d) / tool).exists() for tool in RUST_TOOLS)]
    return os.pathsep.join(keep)


def test_wheel_installs_and_runs_the_quickstart_without_rust(tmp_path):
    wheel = built_wheel()
    path = path_without_rust()
    for tool in RUST_TOOLS:
        assert shutil.which(tool, path=path) is None, f"{tool} still on PATH"
    # A minimal environment: no CARGO_HOME, RUSTUP_HOME, PYTHONPATH or RNSFHE_* of this run; pip's
    # own settings and proxies pass (a CI machine may need them to reach the index).
    env = {"PATH": path, "HOME": os.environ.get("HOME", str(tmp_path)), "LANG": "C.UTF-8",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.update({k: v for k, v in os.environ.items()
                if k.startswith("PIP_") or k.lower() in {"http_proxy", "https_proxy", "no_proxy"}})

    def run(*args):
        done = subprocess.run([str(a) for a in args], cwd=tmp_path, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    venv = tmp_path / "venv"
    start = time.perf_counter()
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    # --only-binary: nothing may be built from source (there is no compiler to build it with).
    run(python, "-m", "pip", "install", "--quiet", "--only-binary=:all:", wheel)
    out = run(python, "-I", QUICKSTART)
    seconds = time.perf_counter() - start

    assert "[-4 -1  4]" in out, out
    where = run(python, "-I", "-c", "import rnsfhe; print(rnsfhe.__version__); print(rnsfhe.__file__)")
    version, location = where.split()
    assert version == rnsfhe.__version__
    assert Path(location).resolve().is_relative_to(venv.resolve())

    report = (f"wheel {wheel.name}: {wheel.stat().st_size / 2**20:.1f} MiB; fresh venv, install and "
              f"quickstart without Rust on PATH: {seconds:.1f} s")
    print(report)
    if os.environ.get("RNSFHE_WHEEL_SMOKE_LOG"):
        Path(os.environ["RNSFHE_WHEEL_SMOKE_LOG"]).write_text(report + "\n")
