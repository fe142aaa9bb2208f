"""The package says what it is (issue #35): a LICENSE file (MIT) and full metadata, so `pip show pbem` names the
license, the authors and the project's addresses."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_license_file_is_mit_with_the_authors_copyright():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the pbem authors\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text


def test_pyproject_carries_the_license_authors_urls_and_classifiers():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["authors"] and project["keywords"] and project["readme"] == "README.md"
    assert {"Homepage", "Repository", "Issues"} <= project["urls"].keys()
    assert "Topic :: Games/Entertainment :: Board Games" in project["classifiers"]
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # PEP 639: the expression says it


@pytest.mark.slow
def test_pip_show_names_the_license_and_the_urls(tmp_path):
    """An editable install into a fresh environment, built by pip as a user's would be (setuptools ≥ 77 in an
    isolated build), and `pip show -v` read back: the metadata pip itself reports."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "env")], check=True)
    python = tmp_path / "env" / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    installed = subprocess.run([*pip, "install", "--no-deps", "-q", "-e", str(ROOT)], capture_output=True, text=True)
    if "No matching distribution found" in installed.stderr:
        pytest.skip("no package index to build with: " + installed.stderr.strip().splitlines()[-1])
    assert installed.returncode == 0, installed.stderr
    shown = subprocess.run([*pip, "show", "-v", "pbem"], capture_output=True, text=True, check=True).stdout
    assert "License-Expression: MIT" in shown and "Author: the pbem authors" in shown
    assert "Home-page: https://example.org/pbem" in shown and "Issues, https://example.org/pbem/issues" in shown
    assert "Topic :: Games/Entertainment :: Board Games" in shown
