"""The version is written in one place, `[workspace.package]` of the workspace's Cargo.toml: the
crates inherit it, maturin gives it to the wheel, the extension reports it as `rnsfhe.__version__`,
and the CHANGELOG has a section for it."""

import importlib.metadata
import re
from pathlib import Path

import pytest

import rnsfhe

ROOT = Path(__file__).resolve().parents[2]


def cargo_version() -> str:
    section = (ROOT / "Cargo.toml").read_text().split("[workspace.package]", 1)[1].split("\n[", 1)[0]
    found = re.search(r'^version\s*=\s*"([^"]+)"', section, flags=re.M)
    assert found, "no version in [workspace.package] of Cargo.toml"
    return found.group(1)


def test_version_is_the_cargo_workspace_version():
    assert rnsfhe.__version__ == cargo_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", rnsfhe.__version__), \
        "a pre-release version needs its PEP 440 spelling compared with the wheel's metadata"


@pytest.mark.parametrize("crate", ["rnsfhe-py", "rnsfhe-cli", "rnsfhe", "rnsfhe-math"])
def test_crates_inherit_the_workspace_version(crate):
    manifest = (ROOT / "crates" / crate / "Cargo.toml").read_text()
    assert re.search(r"^version\.workspace\s*=\s*true", manifest, flags=re.M), \
        f"crates/{crate}/Cargo.toml writes its own version"


def test_pyproject_takes_the_version_from_cargo():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', pyproject, flags=re.M)
    assert not re.search(r"^version\s*=", pyproject, flags=re.M)


def test_installed_distribution_has_the_same_version():
    try:
        installed = importlib.metadata.version("rnsfhe")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("rnsfhe runs from the source tree without an installed distribution")
    assert installed == rnsfhe.__version__


def test_changelog_has_a_section_for_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(rnsfhe.__version__)}\]", changelog, flags=re.M), \
        f"CHANGELOG.md has no section for {rnsfhe.__version__}"
