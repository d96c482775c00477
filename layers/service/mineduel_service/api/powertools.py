"""Powertools' ``event_handler`` and ``utilities.data_classes`` packages, loaded a module at a
time.

The ``event_handler`` package's ``__init__`` imports every resolver Powertools has, so that
``from aws_lambda_powertools.event_handler import X`` works for any of them: AppSync's (which
imports asyncio), AppSync Events', Bedrock's, VPC Lattice's, Function URLs'. Python runs a
package's ``__init__`` before any module in it, so even ``...event_handler.api_gateway`` alone,
or the OpenAPI ``params`` every route's signature uses, pays for all of them: about 50 ms of
every HTTP function's cold start, nearly 60 modules none of them uses (docs/cost.md, *Cold
starts*). ``utilities.data_classes`` is the same: the HTTP resolver takes five event classes
from it, and its ``__init__`` loads the classes of every event source Lambda has (S3, SQS,
Kafka, CloudWatch, CodePipeline, ...): about 40 ms more.

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
DATA_CLASSES = "aws_lambda_powertools.utilities.data_classes"
PACKAGES = (PACKAGE, DATA_CLASSES)
"""The packages replaced by their lazy twins, in the order they are installed."""


def homes(source: str, package: str = PACKAGE) -> dict[str, tuple[str, str]] | None:
    """Where each name of ``package``'s ``__init__`` (its ``source``) comes from (``name ->
    (module, attribute)``), or None when the file does anything but import names (a docstring
    and ``__all__`` aside) from the package's own modules."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level == 1:
                module = f"{package}.{node.module}"
            elif node.level == 0 and node.module.startswith(f"{package}."):
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


class _Twin(ModuleType):
    """A lazy package. A name of its ``__init__`` may also be a submodule's (``data_classes``'
    ``event_source`` is a function of the module ``event_source``): the real ``__init__`` binds
    the function after the import system has bound the module, so the function wins. Here the
    submodule may be imported after the name was read, or before it ever is, and importing a
    submodule binds it on its package: so binding a name's own module is taken to mean the
    name's value in it, as in the real package."""

    _homes: dict[str, tuple[str, str]]

    def __setattr__(self, attribute: str, value: Any) -> None:
        home = self.__dict__.get("_homes", {}).get(attribute)
        if home is not None and isinstance(value, ModuleType) and value.__name__ == home[0]:
            value = getattr(value, home[1])
        super().__setattr__(attribute, value)


def lazy_package(name: str, where: dict[str, tuple[str, str]]) -> ModuleType | None:
    """The package ``name`` with its ``__init__`` not run: each name of ``where`` is imported
    from its module the first time it is used. None when the package cannot be found."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    package = importlib.util.module_from_spec(spec)
    package.__class__ = _Twin
    package.__dict__["_homes"] = where

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
    """Replace each of ``PACKAGES`` by its lazy twin (``install_one``). True when the
    ``event_handler`` twin is the one in use."""
    found = [install_one(name) for name in PACKAGES]
    return found[0]


def install_one(name: str) -> bool:
    """Replace the package ``name`` by its lazy twin, unless it is already imported (then it
    stays as it is) or its ``__init__`` is not the plain list of imports it is today. True
    when the lazy package is the one in use."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return getattr(loaded, "__getattr__", None) is not None
    spec = importlib.util.find_spec(name)  # (imports the parent packages, as any import would)
    if spec is None or spec.origin is None:
        return False
    where = homes(Path(spec.origin).read_text(encoding="utf-8"), name)
    package = None if where is None else lazy_package(name, where)
    if package is None:
        return False
    sys.modules[name] = package
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, package)
    return True
