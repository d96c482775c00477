"""The service worker's list of the web client's files and their version (``web/sw.js``,
written by ``make web-shell``) are those of ``web/``: a file changed without them would never
reach a phone that keeps the app (docs/web.md, "An app")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mineduel import webshell

WEB = Path(__file__).resolve().parents[1] / "web"


def test_the_service_workers_files_and_version_are_those_of_web() -> None:
    """sw.js lists every file of web/ the page may load, and a version made from their bytes:
    a change to any of them without ``make web-shell`` fails here, since a phone would never
    learn of it."""
    worker = (WEB / "sw.js").read_text(encoding="utf-8")
    assert webshell.written(worker) == worker, "web/ changed: run `make web-shell`"
    block = worker[worker.index("const SHELL = [") : worker.index("// shell:end")]
    listed = re.findall(r'^  "([^"]+)",$', block, re.MULTILINE)
    assert listed == webshell.shell_files()
    assert "index.html" in listed and "app.js" in listed and "manifest.webmanifest" in listed
    assert "sw.js" not in listed and "config.json" not in listed
    # Every module the page imports is in the shell (a module left out would not load offline).
    imported = set()
    for module in WEB.glob("*.js"):
        text = module.read_text(encoding="utf-8")
        imported |= set(re.findall(r"""(?:from\s+|import\()\s*["']\./([\w.-]+\.js)["']""", text))
    assert imported and imported <= set(listed), imported - set(listed)


def test_the_version_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html>")
    (tmp_path / "app.js").write_text("export {};")
    (tmp_path / "sw.js").write_text("// shell:start\nconst VERSION = '';\n// shell:end\n")
    before = webshell.shell_version(tmp_path)
    (tmp_path / "app.js").write_text("export const x = 1;")
    assert webshell.shell_version(tmp_path) != before
    assert webshell.shell_files(tmp_path) == ["app.js", "index.html"]
    with pytest.raises(ValueError, match="shell:start"):
        webshell.written("no block here", tmp_path)
