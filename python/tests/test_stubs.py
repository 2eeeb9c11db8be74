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
