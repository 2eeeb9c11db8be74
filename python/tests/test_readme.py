"""README.md, the front page: its Python quickstart runs as written, and every link in it leads to a
file of the repository."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_readme_python_quickstart_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no Python quickstart"
    exec(compile(blocks[0], "README.md", "exec"), {})
    assert "[-4 -1  4]" in capsys.readouterr().out


def test_readme_quickstarts_are_on_the_first_screen():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200, f"README has {len(lines)} lines: the front page holds at most 200"
    rust = next(i for i, line in enumerate(lines) if line == "```rust")
    assert rust < 70, f"the Rust quickstart starts at line {rust + 1}"


def test_readme_links_exist():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text())
    local = [link for link in links if "://" not in link]
    assert len(local) >= 10, local
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, f"README links to missing files: {missing}"
