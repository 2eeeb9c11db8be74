#!/usr/bin/env python3
"""Checks what `make wheel` built in DIR: one wheel and one sdist of rnsfhe, the wheel tagged
cp39-abi3 and PLATFORM, consistent with PLATFORM by `auditwheel show` (glibc symbol versions, no
foreign shared libraries), an extension that links no libpython, and machine code for the baseline
x86-64 CPU, so that the SIMD kernels are chosen at run time and not by the build machine.

The last check disassembles the extension and counts BMI1/BMI2 instructions (shlx, mulx, andn, ...).
No kernel of rnsfhe enables BMI through `#[target_feature]`; baseline code holds only the few of
functions that detect BMI2 at run time (dashu-int's product loop: 4 mulx), while a build with
`-C target-cpu=native` (or x86-64-v3, v4) uses them throughout (variable shifts, 128-bit products):
rnsfhe-math's code alone holds 735 at x86-64-v3 and none at the baseline.

Usage: check_wheel.py DIR PLATFORM   (PLATFORM such as manylinux_2_17_x86_64)
"""

import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

BMI = re.compile(r"\s(shlx|shrx|sarx|rorx|mulx|andn|bzhi|pdep|pext|blsr|blsi|blsmsk)\s")
#: The most BMI instructions that functions detecting BMI2 at run time may hold.
BMI_DISPATCHED = 16


def fail(msg: str) -> None:
    sys.exit(f"check_wheel: {msg}")


def one(paths, what):
    if len(paths) != 1:
        fail(f"expected one {what}, found {[p.name for p in paths]}")
    return paths[0]


def main(out: Path, platform: str) -> None:
    wheel = one(sorted(out.glob("rnsfhe-*.whl")), "wheel")
    sdist = one(sorted(out.glob("rnsfhe-*.tar.gz")), "sdist")
    tags = wheel.stem.split("-")[2:]
    if tags[:2] != ["cp39", "abi3"] or platform not in tags[2].split("."):
        fail(f"{wheel.name}: tags {tags}, expected cp39-abi3 and {platform}")

    show = subprocess.run(["auditwheel", "show", str(wheel)], capture_output=True, text=True)
    report = " ".join((show.stdout + show.stderr).split())
    if show.returncode != 0 or f'platform tag: "{platform}"' not in report:
        fail(f"auditwheel show does not find {wheel.name} consistent with {platform}:\n{report}")

    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        for want in ["rnsfhe/__init__.py", "rnsfhe/_rnsfhe.pyi", "rnsfhe/py.typed"]:
            if want not in names:
                fail(f"{wheel.name} lacks {want}")
        ext = one([n for n in names if re.fullmatch(r"rnsfhe/_rnsfhe\.abi3\.so", n)], "abi3 extension")
        so = Path(z.extract(ext, tmp))
        bmi = None
        if shutil.which("readelf") is None or shutil.which("objdump") is None:
            print("check_wheel: WARNING: no readelf or objdump (binutils): the libpython and "
                  "baseline-CPU checks are skipped")
        else:
            needed = subprocess.run(["readelf", "-d", str(so)], capture_output=True, text=True,
                                    check=True).stdout
            if "libpython" in needed:
                fail(f"{ext} links libpython (not an abi3 extension module)")
            if platform.endswith("x86_64"):
                asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(so)],
                                     capture_output=True, text=True, check=True).stdout
                bmi = len(BMI.findall(asm))
                if bmi > BMI_DISPATCHED:
                    fail(f"{ext} holds {bmi} BMI instructions: built for the build machine's CPU "
                         "(RUSTFLAGS or .cargo/config with target-cpu?), not for baseline x86-64")

    check_sdist(sdist)

    mib = wheel.stat().st_size / 2**20
    print(f"check_wheel: {wheel.name} ({mib:.1f} MiB): cp39-abi3, {platform} by auditwheel, "
          f"baseline x86-64 code ({'unchecked' if bmi is None else f'{bmi} BMI instructions'}); "
          f"{sdist.name} ({sdist.stat().st_size / 2**20:.1f} MiB) complete")


def locked(text: str):
    """{(name, version)} of a Cargo.lock."""
    return set(re.findall(r'^name = "([^"]+)"\nversion = "([^"]+)"', text, flags=re.M))


def check_sdist(sdist: Path) -> None:
    """The sdist holds the workspace's manifests and the package, and cargo resolves its workspace
    offline (the dependencies are in the cache after the wheel's build) to versions of Cargo.lock."""
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(sdist) as t:
        t.extractall(tmp, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        top = one([p for p in Path(tmp).iterdir() if p.is_dir()], "top directory in the sdist")
        for want in ["pyproject.toml", "Cargo.toml", "Cargo.lock", "python/rnsfhe/__init__.py",
                     "crates/rnsfhe-py/Cargo.toml", "crates/rnsfhe/Cargo.toml",
                     "crates/rnsfhe-math/Cargo.toml"]:
            if not (top / want).is_file():
                fail(f"{sdist.name} lacks {want}")
        before = locked((top / "Cargo.lock").read_text())
        meta = subprocess.run(["cargo", "metadata", "--offline", "--format-version", "1",
                               "--manifest-path", str(top / "Cargo.toml")],
                              capture_output=True, text=True)
        if meta.returncode != 0:
            fail(f"cargo cannot resolve the sdist's workspace:\n{meta.stderr}")
        if not locked((top / "Cargo.lock").read_text()) <= before:
            fail(f"{sdist.name}: cargo resolves versions other than Cargo.lock's")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        fail(__doc__.rsplit("Usage: ", 1)[1].strip())
    main(Path(sys.argv[1]), sys.argv[2])
