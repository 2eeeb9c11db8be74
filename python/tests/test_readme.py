"""The README's Python quickstart runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_quickstart_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no Python quickstart"
    exec(compile(blocks[0], "README.md", "exec"), {})
    assert "[-4 -1  4]" in capsys.readouterr().out
