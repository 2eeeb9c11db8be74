"""The documentation's code runs as printed: every ```python block of docs/ marked `<!-- runnable -->`
(the line before its fence) runs, in order within its page, in a fresh namespace per block. The blocks
check their own results with asserts against numpy or the plain values; the pages use 128-bit
parameters where they are quick and INSECURE toy sizes, said so, where they are not (bootstrapping)."""

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
RUNNABLE = re.compile(r"<!-- runnable -->\n```python\n(.*?)```", re.S)


def pages():
    return sorted(p for p in DOCS.rglob("*.md") if RUNNABLE.search(p.read_text()))


def test_the_docs_have_runnable_examples():
    names = {p.relative_to(DOCS).as_posix() for p in pages()}
    for page in ["getting-started.md", "tutorials/integers.md", "tutorials/ckks.md",
                 "tutorials/functions.md", "tutorials/bootstrapping.md", "tutorials/multiparty.md",
                 "tutorials/datasets.md"]:
        assert page in names, f"docs/{page} has no runnable example"


def test_a_marker_always_precedes_a_python_block():
    for page in DOCS.rglob("*.md"):
        text = page.read_text()
        assert text.count("<!-- runnable -->") == len(RUNNABLE.findall(text)), \
            f"docs/{page.relative_to(DOCS)}: a runnable marker not followed by a ```python block"


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples_run(page):
    text = page.read_text()
    if "distributed import" in text:
        pytest.importorskip("distributed")
        pytest.importorskip("pyarrow")
    for number, block in enumerate(RUNNABLE.findall(text), 1):
        name = f"docs/{page.relative_to(DOCS).as_posix()}, example {number}"
        # `__main__`: the Dask example guards its cluster as a script must.
        exec(compile(block, name, "exec"), {"__name__": "__main__"})


def test_the_api_reference_covers_every_public_name():
    """Every name of `rnsfhe.__all__` has its entry in docs/reference (a `::: rnsfhe.X` directive, or
    its module's for the exceptions), so a new public class cannot go undocumented."""
    import rnsfhe

    directives = set()
    for page in (DOCS / "reference").glob("*.md"):
        directives |= set(re.findall(r"^::: rnsfhe\.([\w.]+)$", page.read_text(), flags=re.M))
    missing = []
    for name in rnsfhe.__all__:
        if name in rnsfhe.errors.__all__:
            name = "errors"
        if name not in directives:
            missing.append(name)
    assert not missing, f"not in docs/reference: {missing}"
