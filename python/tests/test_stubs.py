"""The type stubs name every public method of the extension, and every method has a docstring."""

import ast
from pathlib import Path

import pytest

import rnsfhe

STUB = Path(rnsfhe.__file__).with_name("_rnsfhe.pyi")
CLASSES = ["BfvParameters", "BfvContext", "BfvPlaintext", "BfvCiphertext", "BgvParameters",
           "BgvContext", "BgvPlaintext", "BgvCiphertext", "CkksParameters",
           "CkksContext", "CkksPlaintext", "CkksCiphertext", "SecretKey", "PublicKey", "RelinKey",
           "GaloisKeys", "HprParameters", "HprContext", "HprCiphertext", "HprSecretKey",
           "HprPublicKey", "HprRelinKey", "HprGaloisKeys", "BootstrappingKeys", "CkksMatrix",
           "CkksMatrixProduct"]


def stub_members():
    tree = ast.parse(STUB.read_text())
    return {node.name: {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            for node in tree.body if isinstance(node, ast.ClassDef)}


@pytest.mark.parametrize("name", CLASSES)
def test_stub_covers_class(name):
    members = stub_members()
    assert name in members
    public = {m for m in dir(getattr(rnsfhe, name))
              if not m.startswith("_") or m in {"__add__", "__mul__", "__pow__"}}
    assert public - members[name] == set(), f"{name}: missing from _rnsfhe.pyi"
    assert getattr(rnsfhe, name).__doc__, f"{name} has no docstring"


def test_stub_docstrings_match_the_extension():
    """The stub carries the compiled module's docstrings (editors and the documentation site read
    the stub): a binding's doc comment changed without `python scripts/stub_docstrings.py` fails."""
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "scripts" / "stub_docstrings.py"
    spec = importlib.util.spec_from_file_location("stub_docstrings", script)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    from rnsfhe import _rnsfhe

    source = tool.STUB.read_text()
    assert tool.rewrite(source, _rnsfhe) == source, \
        "python/rnsfhe/_rnsfhe.pyi: docstrings differ from the extension's; run scripts/stub_docstrings.py"
