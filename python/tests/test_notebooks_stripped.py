"""The notebooks of examples/notebooks are committed without outputs: no cell holds outputs or an
execution count, and the notebook metadata keeps no widget state (`make notebooks` runs them; a
notebook saved after a run would put figures and timings of one machine into the tree)."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "examples" / "notebooks").glob("*.ipynb"))


def test_the_three_notebooks_are_there():
    names = {p.name for p in NOTEBOOKS}
    assert {"quickstart.ipynb", "encrypted_statistics.ipynb", "bootstrapping.ipynb"} <= names, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_outputs(path):
    nb = json.loads(path.read_text())
    assert nb.get("nbformat") == 4, f"{path.name}: not an nbformat 4 notebook"
    dirty = [i for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
             and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert not dirty, (f"{path.name}: cells {dirty} hold outputs; clear them before committing "
                       f"(Jupyter: Edit > Clear Outputs of All Cells, or "
                       f"jupyter nbconvert --clear-output --inplace {path.name})")
    assert "widgets" not in nb.get("metadata", {}), f"{path.name}: widget state in the metadata"
