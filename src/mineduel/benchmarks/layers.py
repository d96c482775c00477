"""``make bench`` (layers): what each Lambda layer, and each function with dependencies of its
own, weighs once built as ``sam build`` builds it for the template's runtime and architecture.

The layers are built by their own Makefiles (``layer_builds``: what ``sam build`` runs, for
manylinux aarch64, bytecode included). A function with a ``requirements.txt`` of its own is
built as SAM's python3.12 builder does: pip into an empty directory for Python 3.12 on
manylinux aarch64 (``--platform``, binary wheels only, as the template's ``arm64`` functions
run). Each directory is measured. boto3 and
botocore come with the Lambda runtime: the figures also say whether either slipped in (a
dependency that pulls them would add some 20 MB). Needs PyPI; prints why when it cannot build.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from .layer_builds import LAMBDA_PLATFORM, LAYERS, ROOT, RUNTIME, BuildError, build_layer

FUNCTIONS = {"AvatarUploadFunction": ROOT / "functions" / "avatar_upload"}
"""Functions with a requirements.txt of their own (SAM's python3.12 builder installs it)."""


def _measured(target: Path) -> tuple[int, set[str]]:
    files = [p for p in target.rglob("*") if p.is_file()]
    names = {p.name.split("-")[0].lower() for p in target.iterdir()}
    return sum(p.stat().st_size for p in files), names


def built_size(logical_id: str) -> tuple[int, set[str]]:
    """Bytes of the built layer (or function) and the top-level names it holds."""
    with tempfile.TemporaryDirectory() as scratch:
        if logical_id in LAYERS:
            return _measured(build_layer(logical_id, Path(scratch)))
        requirements = FUNCTIONS[logical_id] / "requirements.txt"
        subprocess.run(  # noqa: S603  (our own pip, fixed arguments)
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--target",
                scratch,
                "--platform",
                LAMBDA_PLATFORM,
                "--python-version",
                RUNTIME,
                "--only-binary=:all:",
                f"--requirement={requirements}",
            ],
            check=True,
            capture_output=True,
        )
        return _measured(Path(scratch))


def main() -> None:
    """Print each layer's size and whether the AWS SDK is in it."""
    print(f"== layers: built for Python {RUNTIME} on {LAMBDA_PLATFORM} (as sam build does) ==")
    for name in (*LAYERS, *FUNCTIONS):
        try:
            size, names = built_size(name)
        except (subprocess.CalledProcessError, OSError, BuildError) as exc:
            print(f"  {name:<22} could not be built here ({type(exc).__name__}: {exc})")
            continue
        sdk = sorted(names & {"boto3", "botocore"})
        note = f"includes {', '.join(sdk)}!" if sdk else "no boto3/botocore (the runtime has them)"
        print(f"  {name:<22} {size / 1e6:6.1f} MB  {note}")
