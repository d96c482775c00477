"""The files exported from ``uv.lock`` for the installers that cannot read it.

``uv.lock`` is the one lock: every package the tools, the tests and both layers use, at one
version, with the hash of every file it may be installed from. Three installers read
requirements files instead, so those are written from the lock (``make lock``) and a test holds
them to it (``check``):

- ``tools/uv-bootstrap.txt``: uv itself, which the Makefile installs with pip into ``.venv``
  before anything else (only Python and make are needed on a fresh machine);
- ``layers/service/requirements.txt``: what ``sam build`` puts in the service layer, for the
  functions' arm64 Python 3.12 (``layers/service/Makefile``), without what the Lambda runtime
  brings itself (boto3 and its own dependencies, ``RUNTIME_PROVIDED``);
- ``functions/avatar_upload/requirements.txt``: Pillow, which SAM installs beside that function.

``python -m mineduel.lockfiles`` writes them; ``python -m mineduel.lockfiles --check`` says
which differ from the lock and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from uv import find_uv_bin

ROOT = Path(__file__).resolve().parents[2]

RUNTIME_PROVIDED = ("boto3", "botocore", "s3transfer", "urllib3", "python-dateutil", "six")
"""What the Lambda runtime brings with boto3: never shipped in a layer (the runtime's own
version is AWS's, the one part of production the lock cannot pin)."""


@dataclass(frozen=True)
class Export:
    """One requirements file and the ``uv export`` selection it holds."""

    path: str
    selection: tuple[str, ...]

    def command(self) -> list[str]:
        """``uv export`` of this selection, from the lock as it is (never resolved anew)."""
        return [find_uv_bin(), "export", "--frozen", "--quiet", *self.selection, "-o", self.path]


EXPORTS = (
    Export("tools/uv-bootstrap.txt", ("--only-group", "uv", "--no-emit-project")),
    Export(
        "layers/service/requirements.txt",
        (
            "--package",
            "mineduel-service",
            "--no-dev",
            "--no-emit-workspace",
            *(arg for name in RUNTIME_PROVIDED for arg in ("--no-emit-package", name)),
        ),
    ),
    Export(
        "functions/avatar_upload/requirements.txt",
        ("--only-group", "avatar-function", "--no-emit-project"),
    ),
)


def requirements(text: str) -> str:
    """A requirements file without uv's header (which names the command that wrote it)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("#"))


def exported(export: Export) -> str:
    """The file's requirements as the lock gives them now (uv's export to stdout)."""
    command = export.command()
    done = subprocess.run(  # noqa: S603  (the pinned uv, fixed arguments)
        command[: command.index("-o")], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return requirements(done.stdout)


def write() -> None:
    """Write every export from the lock."""
    for export in EXPORTS:
        subprocess.run(export.command(), cwd=ROOT, check=True)  # noqa: S603  (as above)


def stale() -> list[str]:
    """The exports whose file differs from what the lock gives."""
    return [e.path for e in EXPORTS if requirements((ROOT / e.path).read_text()) != exported(e)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mineduel.lockfiles", description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    if not args.check:
        write()
        return 0
    differing = stale()
    for path in differing:
        print(f"{path} differs from uv.lock: run `make lock`", file=sys.stderr)
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
