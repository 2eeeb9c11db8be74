"""Every program in examples/python runs to completion (each checks its own results)."""

import runpy
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "python").glob("*.py"))


def test_examples_exist():
    assert len(EXAMPLES) >= 3


# Command lines for examples that take arguments (smaller than their defaults, to keep the suite fast).
ARGS = {"dask_statistics": ["--records", "60000"], "multiparty_hospitals": ["--small"],
        "multiparty_deep_polynomial": ["--small"],
        "multiparty_dask": ["--small"], "digits_network": ["--small"]}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs(path, capsys, monkeypatch):
    if "dask" in path.stem:
        pytest.importorskip("distributed")
    monkeypatch.setattr("sys.argv", [str(path), *ARGS.get(path.stem, [])])
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()
