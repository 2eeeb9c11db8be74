"""The README's Python quickstart runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_quickstart_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no Python quickstart"
    exec(compile(blocks[0], "README.md", "exec"), {})
    assert "[-4 -1  4]" in capsys.readouterr().out


def test_readme_any_m_example_runs(capsys):
    """The README's boolean-SIMD example over Phi_255 prints the AND, XOR, NOT and rotation it claims."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    block = next(b for b in blocks if "cyclotomic_index=255" in b)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    claimed = [line.split("# ")[1].split(": ")[-1] for line in block.splitlines()
               if line.startswith("print(ctx.decrypt(")]
    assert out[1:] == claimed


def test_readme_matrix_example_runs():
    """The README's batch and encrypted-matrix example (its asserts compare against numpy)."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    block = next(b for b in blocks if "matmul_encrypted" in b)
    exec(compile(block, "README.md", "exec"), {})


def test_readme_comparison_example_runs(capsys):
    """The README's comparison example (its asserts compare against numpy) bootstraps by itself."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    block = next(b for b in blocks if "ctx.argmax" in b)
    exec(compile(block, "README.md", "exec"), {})
    assert int(capsys.readouterr().out.split()[0]) > 0
