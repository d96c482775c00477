"""The web client's app shell as its service worker knows it: the list of ``web/``'s files it
caches, and a version made from their bytes (``make web-shell`` writes both into ``web/sw.js``;
a test holds them to ``web/``).

The client has no build step, so nothing else would tell a phone that a deploy changed a file:
the browser installs a new service worker only when the worker's own script changes. With the
version in it, any change to any shell file changes ``sw.js``, and the new worker caches the new
files under the new version (docs/web.md, "An app").
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
WORKER = "sw.js"
NOT_SHELL = {
    WORKER,  # the browser fetches the worker itself, bypassing every cache
    "config.json",  # made per deployment (the local stack serves its own), cached apart
    "uqr.LICENSE.txt",  # the vendored library's licence: never loaded by the page
}
BLOCK = re.compile(r"// shell:start[^\n]*\n.*?// shell:end", re.DOTALL)


def shell_files(web: Path = WEB) -> list[str]:
    """Every file the client may load, relative to ``web/``, sorted."""
    return sorted(
        path.relative_to(web).as_posix()
        for path in web.rglob("*")
        if path.is_file() and path.relative_to(web).as_posix() not in NOT_SHELL
    )


def shell_version(web: Path = WEB, files: list[str] | None = None) -> str:
    """The first 16 hex digits of SHA-256 over each file's name and bytes."""
    digest = hashlib.sha256()
    for name in files if files is not None else shell_files(web):
        data = (web / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def shell_block(web: Path = WEB) -> str:
    """The lines between the markers in ``sw.js``, as they must read."""
    files = shell_files(web)
    listed = "".join(f"\n  {json.dumps(name)}," for name in files)
    return (
        "// shell:start (written by `make web-shell`)\n"
        f'const VERSION = "{shell_version(web, files)}";\n'
        f"const SHELL = [{listed}\n];\n"
        "// shell:end"
    )


def written(worker_text: str, web: Path = WEB) -> str:
    """``sw.js``'s text with its shell block brought up to date."""
    if not BLOCK.search(worker_text):
        raise ValueError(f"{WORKER} has no '// shell:start' ... '// shell:end' block")
    return BLOCK.sub(lambda _: shell_block(web), worker_text, count=1)


def main() -> int:
    worker = WEB / WORKER
    before = worker.read_text(encoding="utf-8")
    after = written(before)
    if after != before:
        worker.write_text(after, encoding="utf-8")
    print(f"{worker}: version {shell_version()}, {len(shell_files())} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
