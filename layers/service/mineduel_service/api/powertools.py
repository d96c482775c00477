"""Powertools' ``event_handler`` package, loaded a module at a time.

The package's ``__init__`` imports every resolver Powertools has, so that ``from
aws_lambda_powertools.event_handler import X`` works for any of them: AppSync's (which imports
asyncio), AppSync Events', Bedrock's, VPC Lattice's, Function URLs'. Python runs a package's
``__init__`` before any module in it, so even ``...event_handler.api_gateway`` alone, or the
OpenAPI ``params`` every route's signature uses, pays for all of them: about 50 ms of every HTTP
function's cold start, nearly 60 modules none of them uses (docs/cost.md, *Cold starts*).

``install`` puts in its place, before anything has imported it, the same package whose names
load on first use (PEP 562): each name the real ``__init__`` imports comes from the module it
imports it from, read from that very file (so the names of a newer Powertools follow); any
other name is looked up as a submodule, as in any package. If the real ``__init__`` ever does
more than import names (a statement of another kind), nothing is replaced and the package loads
as Powertools ships it: slower, never wrong.

The edge (``mineduel_service.api``) installs it when it is first imported, which is why handlers
take Powertools' HTTP names (``Response``, ``Body``, ``Query``, ...) from ``api.http`` rather than
from Powertools: an earlier ``import aws_lambda_powertools.event_handler`` would load the whole
package first (``tests/service/test_handler_imports.py`` holds both).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = "aws_lambda_powertools.event_handler"


def homes(source: str) -> dict[str, tuple[str, str]] | None:
    """Where each name of a package ``__init__``'s source comes from (``name -> (module,
    attribute)``), or None when the file does anything but import names (a docstring and
    ``__all__`` aside)."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level == 1:
                module = f"{PACKAGE}.{node.module}"
            elif node.level == 0 and node.module.startswith(f"{PACKAGE}."):
                module = node.module
            else:
                return None
            for alias in node.names:
                if alias.name == "*":
                    return None
                found[alias.asname or alias.name] = (module, alias.name)
            continue
        return None
    return found


def lazy_package(name: str, where: dict[str, tuple[str, str]]) -> ModuleType | None:
    """The package ``name`` with its ``__init__`` not run: each name of ``where`` is imported
    from its module the first time it is used. None when the package cannot be found."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    package = importlib.util.module_from_spec(spec)

    def __getattr__(attribute: str) -> Any:  # noqa: N807  (PEP 562's name)
        if attribute not in where:
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
        module, original = where[attribute]
        value = getattr(importlib.import_module(module), original)
        setattr(package, attribute, value)
        return value

    package.__getattr__ = __getattr__  # type: ignore[method-assign]
    package.__dict__["__all__"] = sorted(where)
    return package


def install() -> bool:
    """Replace Powertools' ``event_handler`` package by its lazy twin, unless it is already
    imported (then it stays as it is) or its ``__init__`` is not the plain list of imports it
    is today. True when the lazy package is the one in use."""
    loaded = sys.modules.get(PACKAGE)
    if loaded is not None:
        return getattr(loaded, "__getattr__", None) is not None
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        return False
    where = homes(Path(spec.origin).read_text(encoding="utf-8"))
    package = None if where is None else lazy_package(PACKAGE, where)
    if package is None:
        return False
    sys.modules[PACKAGE] = package
    parent, _, child = PACKAGE.rpartition(".")
    setattr(sys.modules[parent], child, package)
    return True
