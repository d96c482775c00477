"""``src/mineduel``'s packages import one way, read from the code itself (its imports, as Python
parses them), and the check is proven to catch a planted violation.

The order, from the bottom: ``template`` (template.yaml as data), ``lockfiles`` (the files
exported from uv.lock), ``webshell`` (the service worker's list of web/) and ``webshape`` (the
web client's shape rule), ``openapi`` (the generator), ``local`` (the emulator, which serves
the generated document), ``testing`` (what
the tests and benchmarks share to act as a client), then ``benchmarks`` and ``cli`` side by
side (neither imports the other). A package imports only packages below it: the emulator never
reaches for the test client, the product's command never imports ``testing`` or
``benchmarks``.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "src/mineduel"
ORDER: list[set[str]] = [
    {"template", "lockfiles", "webshell", "webshape"},
    {"openapi"},
    {"local"},
    {"testing"},
    {"benchmarks", "cli"},
]
RANK = {name: rank for rank, names in enumerate(ORDER) for name in names}


def _part(path: Path, base: Path) -> str:
    relative = path.relative_to(base)
    return relative.parts[0].removesuffix(".py")


def _imported(node: ast.AST, module_path: Path, base: Path) -> list[str]:
    """The parts of ``mineduel`` an import statement names (absolute or relative)."""
    if isinstance(node, ast.Import):
        return [a.name.split(".")[1] for a in node.names if a.name.startswith("mineduel.")]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        name = node.module or ""
        if name == "mineduel":
            return [a.name for a in node.names]
        return [name.split(".")[1]] if name.startswith("mineduel.") else []
    anchor = module_path.parent
    for _ in range(node.level - 1):
        anchor = anchor.parent
    target = anchor / (node.module or "").replace(".", "/") if node.module else anchor
    if target == base:
        return [a.name for a in node.names]
    return [_part(target, base)] if base in target.parents or target == base else []


_IMPORTS: dict[str, list[ast.AST]] = {}
"""Each source text's import statements, found once per process: a planted import's copy of
the tree differs from it in one file."""


def _import_nodes(path: Path) -> list[ast.AST]:
    text = path.read_text(encoding="utf-8")
    nodes = _IMPORTS.get(text)
    if nodes is None:
        nodes = _IMPORTS[text] = [
            node
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Import | ast.ImportFrom)
        ]
    return nodes


def violations(root: Path) -> list[str]:
    """Every import of a package that is not below the importing one."""
    base = root / PACKAGE
    found = []
    for path in sorted(base.rglob("*.py")):
        if path.parent == base and path.name == "__init__.py":
            continue
        part = _part(path, base)
        for node in _import_nodes(path):
            for imported in _imported(node, path, base):
                if imported == part or imported not in RANK:
                    continue
                if RANK[imported] >= RANK[part]:
                    where = path.relative_to(base)
                    found.append(f"{where}:{node.lineno}: {part} imports {imported}")
    return found


def test_every_part_of_src_mineduel_has_a_place_in_the_order() -> None:
    base = ROOT / PACKAGE
    parts = {
        _part(p, base) for p in base.rglob("*.py") if p.relative_to(base).parts[0] != "__init__.py"
    }
    assert parts == set(RANK), parts ^ set(RANK)


def test_src_mineduel_imports_one_way() -> None:
    assert violations(ROOT) == []


@pytest.mark.parametrize(
    ("where", "code", "expected"),
    [
        (
            "local/server.py",
            "from mineduel.testing.api_client import ApiClient\n",
            "local imports testing",
        ),
        ("cli/serve.py", "from mineduel.benchmarks import cost\n", "cli imports benchmarks"),
        ("openapi/generate.py", "from ..local import stack\n", "openapi imports local"),
    ],
)
def test_a_planted_import_against_the_order_is_caught(
    tmp_path: Path, where: str, code: str, expected: str
) -> None:
    shutil.copytree(
        ROOT / PACKAGE, tmp_path / PACKAGE, ignore=shutil.ignore_patterns("__pycache__")
    )
    assert violations(tmp_path) == []
    target = tmp_path / PACKAGE / where
    target.write_text(target.read_text(encoding="utf-8") + "\n" + code, encoding="utf-8")
    found = violations(tmp_path)
    assert any(expected in line for line in found), found
