"""The package metadata is in the forms current setuptools reads without a warning."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_license_is_an_spdx_expression_read_by_the_setuptools_required() -> None:
    config = tomllib.loads(PYPROJECT.read_text())
    # A table ({text = "MIT"}) is deprecated since setuptools 77, which reads SPDX strings.
    assert config["project"]["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in config["project"].get("classifiers", []))
    (setuptools,) = [r for r in config["build-system"]["requires"] if r.startswith("setuptools")]
    minimum = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert minimum is not None and int(minimum.group(1)) >= 77


def test_every_file_of_the_web_client_ships_in_the_wheel() -> None:
    # The client is served from the installed package: a file no package-data glob
    # matches would be missing from a fresh install (and the page broken offline).
    config = tomllib.loads(PYPROJECT.read_text())
    globs = config["tool"]["setuptools"]["package-data"]["pokerhouse"]
    package = PYPROJECT.parent / "src" / "pokerhouse"
    files = [p for p in (package / "web").rglob("*") if p.is_file()]
    assert (package / "web" / "index.html") in files
    missing = [
        str(p.relative_to(package))
        for p in files
        if not any(p.relative_to(package).match(pattern) for pattern in globs)
    ]
    assert missing == []
