#!/usr/bin/env python3
"""Prints the test executables of one workspace package, one per line, from the JSON messages of
`cargo test --no-run --message-format=json` on stdin.

`make backends` runs the scheme tests again under every other backend. Running these executables,
built once by `cargo test --workspace`, keeps the dependencies' features unified as the workspace
build has them: `cargo test -p rnsfhe` would resolve them for one package and build every test
binary a second time (gigabytes of disk on a CI machine).
usage: cargo test --workspace --no-run --message-format=json | test_binaries.py crates/rnsfhe
"""
import json
import sys
from pathlib import Path

package_dir = Path(sys.argv[1]).resolve()
for line in sys.stdin:
    try:
        message = json.loads(line)
    except json.JSONDecodeError:
        continue
    if message.get("reason") != "compiler-artifact" or not message.get("executable"):
        continue
    if not message.get("profile", {}).get("test"):
        continue
    if Path(message["manifest_path"]).resolve().parent == package_dir:
        print(message["executable"])
