"""Build the Lambda layers exactly as ``sam build`` does: by running each layer's own Makefile.

``template.yaml`` builds ``EngineLayer`` and ``ServiceLayer`` with ``BuildMethod: makefile``, so
``make build-<LogicalId> ARTIFACTS_DIR=...`` in the layer's folder is the whole build: the
benchmarks run that same target, for the functions' platform (to weigh what ships) or for this
machine's (to import what ships, with its bytecode, in a Lambda-like interpreter).
"""

from __future__ import annotations

import functools
import platform
import shutil
import subprocess
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LAYERS = {"EngineLayer": ROOT / "layers" / "engine", "ServiceLayer": ROOT / "layers" / "service"}
RUNTIME = "3.12"
LAMBDA_PLATFORM = "manylinux2014_aarch64"
"""The functions' platform (``Architectures: [arm64]`` in template.yaml)."""


class BuildError(RuntimeError):
    """A layer could not be built here (no ``python3.12`` or ``make``, or pip failed)."""


@functools.cache
def runtime_python() -> str:
    """The interpreter the layers are built with: the runtime's Python version, as SAM needs.
    ``python3.12`` on PATH if it runs (a pyenv shim may name a version it will not start),
    else a pyenv installation of it."""
    candidates = [shutil.which(f"python{RUNTIME}")]
    candidates += sorted(
        str(p) for p in Path.home().glob(f".pyenv/versions/{RUNTIME}*/bin/python{RUNTIME}")
    )
    for candidate in candidates:
        if candidate and _starts(candidate):
            return candidate
    raise BuildError(f"no working python{RUNTIME} (on PATH or in pyenv)")


def _starts(python: str) -> bool:
    done = subprocess.run(  # noqa: S603  (a candidate interpreter, fixed arguments)
        [python, "-c", "pass"], check=False, capture_output=True
    )
    return done.returncode == 0


def host_platform() -> str:
    """The wheel platform of this machine, for a build that can be imported here."""
    return f"manylinux2014_{platform.machine()}"


def build_layer(logical_id: str, artifacts: Path, wheel_platform: str = LAMBDA_PLATFORM) -> Path:
    """Run ``logical_id``'s Makefile target into ``artifacts``; return its ``python`` folder
    (what Lambda mounts as ``/opt/python``)."""
    make = shutil.which("make")
    if make is None:
        raise BuildError("make is not on PATH")
    done = subprocess.run(  # noqa: S603  (our own Makefile, fixed arguments)
        [
            make,
            "-s",
            "-C",
            str(LAYERS[logical_id]),
            f"build-{logical_id}",
            f"ARTIFACTS_DIR={artifacts}",
            f"PLATFORM={wheel_platform}",
            f"PYTHON={runtime_python()}",
        ],
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BuildError(f"{logical_id}: {done.stderr.strip().splitlines()[-1:]}")
    return artifacts / "python"


def install_runtime_sdk(target: Path) -> Path:
    """boto3 and botocore in ``target``: what the Lambda runtime provides beside the layers (at
    the version the tests run with: AWS's runtime brings its own, which the lock cannot pin);
    with the packages the functions bring of their own (``functions/*/requirements.txt``,
    which SAM installs beside each one's app.py, hashed), so every handler can be imported."""
    sdk = [f"boto3=={version('boto3')}"]
    own = [f"--requirement={r}" for r in sorted((ROOT / "functions").glob("*/requirements.txt"))]
    # Two installs: pip checks every hash of a file that has some, and the SDK pin has none.
    for pins in (sdk, own):
        done = subprocess.run(  # noqa: S603  (our own pip, fixed arguments)
            [runtime_python(), "-m", "pip", "install", "--quiet", "--target", str(target), *pins],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise BuildError(f"{pins[0]}: {done.stderr.strip().splitlines()[-1:]}")
    return target
