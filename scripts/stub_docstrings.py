"""Copies the extension module's docstrings into its type stub, python/rnsfhe/_rnsfhe.pyi.

The docstrings of the compiled classes and functions are the Rust doc comments of the bindings
(crates/rnsfhe-py). Editors and the documentation site read the stub, not the compiled module,
so the stub carries the same text. Run after changing a binding's doc comment, with the package
built from this tree installed:

    python scripts/stub_docstrings.py          # rewrites the stub in place
    python scripts/stub_docstrings.py --check  # exit 1 if the stub's docstrings are stale

Signatures, types and the order of the stub are left as written; only docstrings change.
"""

import argparse
import ast
import inspect
import sys
from pathlib import Path

STUB = Path(__file__).resolve().parents[1] / "python" / "rnsfhe" / "_rnsfhe.pyi"


def runtime_doc(module, path):
    """The cleaned docstring of `module.<path...>`, or None (no such object, or no docstring)."""
    obj = module
    for i, name in enumerate(path):
        holder = obj
        obj = vars(holder).get(name) if i and inspect.isclass(holder) else getattr(holder, name, None)
        if obj is None:
            return None
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    if inspect.isclass(obj) and path and doc.startswith(path[-1] + "("):
        return None  # PyO3's generated "Name(args)" line, not a docstring
    return inspect.cleandoc(doc)


def docstring_lines(doc, indent):
    """`doc` as the lines of a triple-quoted literal at `indent`."""
    text = doc.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = text.splitlines()
    pad = " " * indent
    if len(lines) == 1 and not lines[0].endswith('"'):
        return [f'{pad}"""{lines[0]}"""']
    out = [f'{pad}"""{lines[0]}']
    out += [f"{pad}{line}" if line.strip() else "" for line in lines[1:]]
    out.append(f'{pad}"""')
    return out


def has_docstring(node):
    first = node.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str)


def rewrite(source, module):
    """The stub `source` with every docstring taken from `module`."""
    lines = source.splitlines()
    edits = []  # (first line index, last line index, replacement lines, prefix kept on first line)

    def visit(node, path, indent):
        doc = runtime_doc(module, path)
        body_indent = indent + 4
        first = node.body[0]
        if has_docstring(node):
            if doc is not None:
                start, end = first.lineno - 1, first.end_lineno - 1
                edits.append((start, end, docstring_lines(doc, body_indent), None))
        elif doc is not None:
            if lines[first.lineno - 1][: first.col_offset].strip():
                # `def f(...) -> T: ...` or `class C: ...` on one line: the body moves below.
                row = first.lineno - 1
                head = lines[row][: first.col_offset].rstrip()
                tail_is_ellipsis = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and first.value.value is Ellipsis and len(node.body) == 1
                new = docstring_lines(doc, body_indent)
                if not tail_is_ellipsis:
                    new.append(" " * body_indent + lines[row][first.col_offset:])
                edits.append((row, row, new, head))
            else:
                row = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])]) - 1
                edits.append((row, row - 1, docstring_lines(doc, body_indent), None))
        if isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, ast.FunctionDef) and not child.name.startswith("__"):
                    visit(child, path + [child.name], body_indent)

    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            visit(node, [node.name], 0)

    # Bottom up; at one line, the replacement of the line before the insertion above it.
    for start, end, new, head in sorted(edits, key=lambda e: (e[0], e[1] >= e[0]), reverse=True):
        if head is not None:
            lines[start:end + 1] = [head] + new
        else:
            lines[start:end + 1] = new
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the stub is current")
    args = parser.parse_args()
    from rnsfhe import _rnsfhe

    old = STUB.read_text()
    new = rewrite(old, _rnsfhe)
    if args.check:
        if new != old:
            print(f"{STUB}: docstrings differ from the compiled module's; run {sys.argv[0]}")
            return 1
        return 0
    STUB.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
