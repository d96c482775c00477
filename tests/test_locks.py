"""The one lock (``uv.lock``) is what every install uses: it matches the projects' requirements,
the files exported from it for pip and SAM say the same, uv is the release the lock is read by,
and the service layer installs from it, hash-checked, for the functions' arm64 Python 3.12.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import version

from uv import find_uv_bin

from mineduel.lockfiles import EXPORTS, ROOT, RUNTIME_PROVIDED, exported, requirements, stale


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_lock_matches_every_project_s_requirements() -> None:
    """A requirement changed without `make lock` fails here (and `make setup` refuses it)."""
    done = subprocess.run(  # noqa: S603  (the pinned uv, fixed arguments)
        [find_uv_bin(), "lock", "--check", "--offline"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_exported_files_are_the_lock_s() -> None:
    assert stale() == [], "run `make lock`"
    for export in EXPORTS:
        text = requirements((ROOT / export.path).read_text())
        assert "--hash=sha256:" in text, export.path
        assert all("==" in line for line in text.splitlines() if line and line[0].isalpha())


def test_the_service_layer_leaves_out_only_what_the_runtime_brings() -> None:
    layer = exported(next(e for e in EXPORTS if e.path.startswith("layers/service")))
    names = {line.split("==")[0] for line in layer.splitlines() if line and line[0].isalpha()}
    assert names.isdisjoint(RUNTIME_PROVIDED)
    assert {"aws-lambda-powertools", "pydantic", "pydantic-core", "cryptography"} <= names


def test_uv_is_the_release_the_lock_is_written_by() -> None:
    tool = _pyproject()["tool"]
    assert isinstance(tool, dict)
    required = tool["uv"]["required-version"].removeprefix("==")
    bootstrap = (ROOT / "tools" / "uv-bootstrap.txt").read_text()
    assert f"uv=={required} " in bootstrap
    assert version("uv") == required


def test_the_service_layer_installs_hash_checked_for_the_functions_python() -> None:
    """What ``sam build`` runs (layers/service/Makefile) for arm64 and Python 3.12: every file
    found on PyPI with a hash the lock knows (a dry run: nothing is written)."""
    done = subprocess.run(  # noqa: S603  (this interpreter's pip, fixed arguments)
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--dry-run",
            "--disable-pip-version-check",
            "--target",
            str(ROOT / ".venv" / "layer-dry-run"),
            "--platform",
            "manylinux2014_aarch64",
            "--implementation",
            "cp",
            "--python-version",
            "3.12",
            "--only-binary=:all:",
            "--require-hashes",
            "-r",
            str(ROOT / "layers" / "service" / "requirements.txt"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    makefile = (ROOT / "layers" / "service" / "Makefile").read_text()
    assert "--require-hashes -r requirements.txt" in makefile
