"""The service layer's house rules, read from the code itself (its imports, as Python parses
them), and proven to catch what they forbid.

1. One-way order: a package of ``mineduel_service`` imports only the packages before it in
   ``mineduel_service.LAYERS`` (never one beside it or after it), so no two domains import
   each other, and nothing but ``functions/`` imports the edge (``api``).
2. A use case (a module a domain lists in its ``USE_CASES``) never imports another domain's
   use case; a handler imports a domain only through its use cases.
3. Nothing outside the HTTP edge names an HTTP status: no status number given, compared or
   kept as a status, no HTTP library, no HTTP answer built (the Web Push client reads the push
   services' answers: ``PUSH_SERVICE_CLIENT``).
4. DynamoDB is spoken in one module (``platform.dynamo``), and every key of the table is built
   in one (``platform.keys``).
5. Each domain's items have one owner, its ``store``: only a store (or ``platform``) imports
   ``platform.dynamo`` or ``platform.keys`` (elsewhere, only the ``WriteConflict`` a store
   raised may be imported, to be caught), writes DynamoDB's typed values (``{"S": ...}``,
   ``item["N"]``), names a key or index attribute of the table (read from ``template.yaml``) or
   writes a DynamoDB expression. Handlers import neither module.

The checks run on a directory, so the test can plant each kind of violation in a copy of the
tree and see it reported.
"""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE = "layers/service/mineduel_service"
EDGE = "api"
STATUS_NAMES = frozenset({"status", "status_code", "statuscode"})
HTTP_LIBRARIES = ("http", "aws_lambda_powertools.event_handler")
STORED_STATUSES = {("games/store.py", "STATUS_PLAYED"), ("games/store.py", "STATUS_REFUSED")}
"""The one status outside the edge, and why: the idempotency record's item has always kept the
status its first answer had (``status``, 200, or 409 for the only refusals it keeps: a passed
deadline). It is data in the table, which this change keeps as it is; no answer is made from it
(a retry is refused again from the record's ``code``, mapped at the edge like any refusal)."""
PUSH_SERVICE_CLIENT = frozenset({"notify/webpush.py"})
"""The one module that reads statuses other servers answer: Web Push requests go to the
browsers' push services, whose status says what became of a message (RFC 8030: 201 sent, 404
or 410 the subscription is gone, 429 or a 5xx try later). It is a client of theirs and makes
no answer of ours: what it returns is an outcome (``sent``, ``gone``, ``retry``, ``refused``)."""


@dataclass(frozen=True)
class Module:
    """One module of the service layer: its package and name (``play`` and ``commit``)."""

    package: str
    name: str
    path: Path
    tree: ast.Module

    @property
    def where(self) -> str:
        return f"{self.package}/{self.name}.py"


@dataclass(frozen=True)
class Import:
    """What one import statement brings in from the service layer: a package, and the module
    in it when the statement names one."""

    line: int
    package: str
    module: str | None


_PARSED: dict[str, ast.Module] = {}
"""Trees by source text: every rule reads every module, and a planted violation's copy of the
tree differs from the tree in one file, so each text is parsed once per process (the trees are
only read)."""


def _parse(path: Path) -> ast.Module:
    text = path.read_text()
    tree = _PARSED.get(text)
    if tree is None:
        tree = _PARSED[text] = ast.parse(text, filename=str(path))
    return tree


_NODES: dict[int, list[ast.AST]] = {}


def _walk(tree: ast.Module) -> list[ast.AST]:
    """Every node of a parsed tree (``ast.walk``), listed once per tree: four rules read them."""
    nodes = _NODES.get(id(tree))
    if nodes is None:
        nodes = _NODES[id(tree)] = list(ast.walk(tree))
    return nodes


def _literal(path: Path, name: str) -> object:
    """The value of a module-level constant, read without importing the module."""
    for node in _parse(path).body:
        target: ast.expr
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == name and value is not None:
            return ast.literal_eval(value)
    raise AssertionError(f"{path} has no {name}")


def _layers(root: Path) -> dict[str, int]:
    """Each package's rank in the one-way order."""
    layers = _literal(root / SERVICE / "__init__.py", "LAYERS")
    assert isinstance(layers, tuple)
    return {package: rank for rank, entry in enumerate(layers) for package in entry}


def _use_cases(root: Path, packages: dict[str, int]) -> dict[str, set[str]]:
    """Each package's use-case modules (the edge has none: it is not a domain)."""
    found: dict[str, set[str]] = {}
    for package in packages:
        cases = (
            ()
            if package == EDGE
            else _literal(root / SERVICE / package / "__init__.py", "USE_CASES")
        )
        assert isinstance(cases, tuple), package
        found[package] = {str(case) for case in cases}
    return found


def _modules(root: Path, packages: dict[str, int]) -> list[Module]:
    modules = []
    for package in packages:
        for path in sorted((root / SERVICE / package).glob("*.py")):
            tree = _parse(path)
            modules.append(Module(package, path.stem, path, tree))
    return modules


def _resolve(root: Path, parts: list[str], names: list[str], line: int) -> list[Import]:
    """``parts`` is the imported module's path inside ``mineduel_service``."""
    if not parts:  # ``from mineduel_service import x``: x is a package
        return [Import(line, name, None) for name in names]
    package = parts[0]
    if len(parts) > 1:
        return [Import(line, package, parts[1])]
    found = []
    for name in names:  # ``from ..games import store``: a module, or a name of the package
        is_module = (root / SERVICE / package / f"{name}.py").exists()
        found.append(Import(line, package, name if is_module else None))
    return found


def imports_of(root: Path, module: Module | None, tree: ast.Module) -> list[Import]:
    """Every import of the service layer in ``tree`` (module level or inside functions);
    ``module`` places the relative ones (None for code outside the layer)."""
    found: list[Import] = []
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "mineduel_service" and len(parts) > 1:
                    module_name = parts[2] if len(parts) > 2 else None
                    found.append(Import(node.lineno, parts[1], module_name))
        elif isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names]
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] == "mineduel_service":
                    found.extend(_resolve(root, parts[1:], names, node.lineno))
            elif module is not None:
                # A module of the layer sits in a package: one dot is its package, two the layer.
                base = [module.package] if node.level == 1 else []
                parts = base + (node.module.split(".") if node.module else [])
                found.extend(_resolve(root, parts, names, node.lineno))
    return found


# ---------------------------------------------------------------------------- the rules
def order_violations(root: Path) -> list[str]:
    """Rule 1: every import points to an earlier package (or within the module's own)."""
    ranks = _layers(root)
    found = []
    for module in _modules(root, ranks):
        for imported in imports_of(root, module, module.tree):
            if imported.package == module.package:
                continue
            if imported.package not in ranks:
                found.append(f"{module.where}:{imported.line} imports unknown {imported.package}")
            elif ranks[imported.package] >= ranks[module.package]:
                found.append(
                    f"{module.where}:{imported.line} imports {imported.package}, which does not "
                    f"come before {module.package}"
                )
    return found


def use_case_violations(root: Path) -> list[str]:
    """Rule 2: no use case imports another domain's use case, and handlers reach a domain
    through its use cases only."""
    ranks = _layers(root)
    cases = _use_cases(root, ranks)
    found = []
    for module in _modules(root, ranks):
        if module.name not in cases[module.package]:
            continue
        for imported in imports_of(root, module, module.tree):
            if imported.package != module.package and imported.module in cases[imported.package]:
                found.append(
                    f"{module.where}:{imported.line} (a use case) imports the use case "
                    f"{imported.package}.{imported.module}"
                )
    open_to_handlers = {EDGE, *_layers_first(root)}
    for app in sorted((root / "functions").glob("*/app.py")):
        for imported in imports_of(root, None, _parse(app)):
            if imported.package in open_to_handlers:
                continue
            if imported.module not in cases.get(imported.package, set()):
                found.append(
                    f"{app.relative_to(root)}:{imported.line} imports "
                    f"{imported.package}.{imported.module}, which is not one of its use cases"
                )
    return found


def _layers_first(root: Path) -> tuple[str, ...]:
    """The bottom entry of the order (``platform``, ``contract``): no domain, anybody's."""
    layers = _literal(root / SERVICE / "__init__.py", "LAYERS")
    assert isinstance(layers, tuple)
    return tuple(layers[0])


def _status_number(node: ast.AST | None) -> bool:
    """An HTTP status number, written as a number or as digits (how DynamoDB numbers travel)."""
    if not isinstance(node, ast.Constant) or type(node.value) not in (int, str):
        return False
    text = str(node.value)
    return text.isdigit() and 100 <= int(text) <= 599


def _named_status(node: ast.AST) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return isinstance(name, str) and name.lower().replace("_", "") in {"status", "statuscode"}


def status_violations(root: Path) -> list[str]:
    """Rule 3: outside ``api``, nothing gives, compares or keeps a status number, imports an
    HTTP library or builds an HTTP answer."""
    ranks = _layers(root)
    found = []
    for module in _modules(root, ranks):
        if module.package == EDGE or module.where in PUSH_SERVICE_CLIENT:
            continue
        for node in _walk(module.tree):
            line = getattr(node, "lineno", 0)
            why = None
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                if any(
                    n == lib or n.startswith(f"{lib}.") for n in names for lib in HTTP_LIBRARIES
                ):
                    why = "imports an HTTP library"
            elif isinstance(node, ast.keyword) and node.arg is not None:
                if node.arg.lower() in STATUS_NAMES and _status_number(node.value):
                    why = f"passes {node.arg}={ast.unparse(node.value)}"
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_named_status(s) for s in sides) and any(_status_number(s) for s in sides):
                    why = f"compares a status: {ast.unparse(node)}"
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                named = [ast.unparse(t) for t in targets if "status" in ast.unparse(t).lower()]
                stored = all((module.where, name) in STORED_STATUSES for name in named)
                if named and _status_number(node.value) and not stored:
                    why = f"keeps a status: {ast.unparse(node)}"
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    keyed = isinstance(key, ast.Constant) and str(key.value).lower() in STATUS_NAMES
                    if keyed and _status_number(value):
                        why = f"answers with a status: {ast.unparse(node)[:60]}"
            elif isinstance(node, ast.Name) and node.id in ("HTTPStatus", "ApiError"):
                why = f"names {node.id}"
            if why:
                found.append(f"{module.where}:{line} {why}")
    return found


def dynamo_violations(root: Path) -> list[str]:
    """Rule 4: only ``platform.dynamo`` calls DynamoDB, only ``platform.keys`` builds a key."""
    found = []
    for module in _modules(root, _layers(root)):
        for node in _walk(module.tree):
            line = getattr(node, "lineno", 0)
            outside = module.where not in {"platform/dynamo.py", "platform/aws.py"}
            if isinstance(node, ast.Attribute) and node.attr == "dynamodb" and outside:
                found.append(f"{module.where}:{line} calls DynamoDB outside platform/dynamo.py")
            if isinstance(node, ast.Dict) and module.where != "platform/keys.py":
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value in ("pk", "sk")
                        and isinstance(value, ast.Dict)
                    ):
                        found.append(f"{module.where}:{line} builds a key outside platform/keys.py")
    return found


STORE = "store"
"""A domain's one module that knows its items: their keys, attribute names and typed values."""
TYPED_VALUES = frozenset({"S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"})
"""DynamoDB's attribute value types, as the low-level client writes them (``{"S": "text"}``)."""
EXPRESSION = re.compile(
    r"attribute_(not_)?exists\(|\bbegins_with\(|\bif_not_exists\(|\b(SET|ADD|REMOVE)\s+[#A-Za-z_]"
    r"|#[a-z_]\w*\s*(=|<|>)|^:[a-z_]\w*$|(=|<|>|,|\(|\bBETWEEN|\bAND|\bADD|\bDELETE)\s*:[a-z_]\w*"
)
"""The marks of a DynamoDB condition, update or key expression (``attribute_not_exists(pk)``,
``SET #s = :s``, ``pk = :pk``)."""


def _attribute_names(root: Path) -> frozenset[str]:
    """The table's key and index attributes and its TTL attribute, read from the template."""
    text = (root / "template.yaml").read_text()
    names = re.findall(r"AttributeName:\s*([A-Za-z_][A-Za-z0-9_]*)", text)
    assert "pk" in names and "sk" in names, "the template's table has no pk/sk"
    return frozenset(names)


def _owns_items(module: Module) -> bool:
    return module.name == STORE or module.package == "platform"


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings (they may describe items)."""
    found = set()
    for node in _walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def _item_shapes(module: Module, attributes: frozenset[str]) -> list[str]:
    """Where ``module`` writes a typed value, names a key attribute or writes an expression."""
    found = []
    docstrings = _docstrings(module.tree)
    for node in _walk(module.tree):
        line = getattr(node, "lineno", 0)
        keys: list[ast.expr | None] = []
        if isinstance(node, ast.Dict):
            keys = list(node.keys)
            if len(node.keys) == 1 and _constant_in(node.keys[0], TYPED_VALUES):
                found.append(f"{module.where}:{line} writes a typed value: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("get", "pop", "setdefault") and node.args:
                keys = [node.args[0]]
        elif isinstance(node, ast.Subscript):
            keys = [node.slice]
            if _constant_in(node.slice, TYPED_VALUES):
                found.append(f"{module.where}:{line} reads a typed value: {ast.unparse(node)}")
        for key in keys:
            if _constant_in(key, attributes):
                found.append(
                    f"{module.where}:{line} names the table's attribute {ast.unparse(key)}"
                )
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and EXPRESSION.search(node.value)
        ):
            found.append(f"{module.where}:{line} writes a DynamoDB expression: {node.value!r}")
    return found


def _constant_in(node: ast.AST | None, names: frozenset[str]) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names


def _speaks_dynamo(imported: Import, names: list[str]) -> bool:
    """An import of ``platform.dynamo`` or ``platform.keys`` (the exception class aside)."""
    if imported.package != "platform":
        return False
    if imported.module == "keys":
        return True
    return imported.module == "dynamo" and names != ["WriteConflict"]


def _imported_names(tree: ast.Module, line: int) -> list[str]:
    for node in _walk(tree):
        if isinstance(node, ast.ImportFrom) and node.lineno == line:
            return [alias.name for alias in node.names]
    return []


def store_violations(root: Path) -> list[str]:
    """Rule 5: a domain's items are known to its store alone; handlers know none."""
    attributes = _attribute_names(root)
    found = []
    for module in _modules(root, _layers(root)):
        if _owns_items(module):
            continue
        for imported in imports_of(root, module, module.tree):
            names = _imported_names(module.tree, imported.line)
            if _speaks_dynamo(imported, names if imported.module == "dynamo" else []):
                found.append(
                    f"{module.where}:{imported.line} imports platform.{imported.module}, "
                    "which only stores may"
                )
        found.extend(_item_shapes(module, attributes))
    for app in sorted((root / "functions").glob("*/app.py")):
        for imported in imports_of(root, None, _parse(app)):
            if imported.package == "platform" and imported.module in ("dynamo", "keys"):
                found.append(
                    f"{app.relative_to(root)}:{imported.line} imports platform.{imported.module}"
                )
    return found


def violations(root: Path) -> list[str]:
    """Every rule's findings for the tree at ``root``."""
    return [
        *order_violations(root),
        *use_case_violations(root),
        *status_violations(root),
        *dynamo_violations(root),
        *store_violations(root),
    ]


# ---------------------------------------------------------------------------- the tests
def test_the_service_layer_keeps_its_house_rules() -> None:
    assert violations(ROOT) == []


def test_every_domain_names_use_cases_that_exist() -> None:
    ranks = _layers(ROOT)
    assert set(ranks) == {
        p.name for p in (ROOT / SERVICE).iterdir() if (p / "__init__.py").exists()
    }
    for package, cases in _use_cases(ROOT, ranks).items():
        for case in cases:
            assert (ROOT / SERVICE / package / f"{case}.py").exists(), (package, case)


PLANTED = {
    "a store importing a later domain": (
        "games/record.py",
        "from ..play import results\n",
        "games/record.py",
    ),
    "two domains of one rank importing each other": (
        "lobby/start.py",
        "from ..live import store\n",
        "lobby/start.py",
    ),
    "a use case importing another domain's use case": (
        "daily/play.py",
        "from ..people.players import get_player\n",
        "(a use case) imports the use case people.players",
    ),
    "a domain choosing an HTTP status": (
        "play/commit.py",
        "REFUSED_STATUS = 409\n",
        "play/commit.py",
    ),
    "a domain comparing an HTTP status": (
        "live/spectators.py",
        "def _gone(exc):\n    return exc.status_code == 410\n",
        "live/spectators.py",
    ),
    "a domain building an HTTP answer": (
        "archive/share_page.py",
        "from aws_lambda_powertools.event_handler import Response\n",
        "archive/share_page.py",
    ),
    "DynamoDB spoken outside its module": (
        "people/profiles.py",
        "def _raw(key):\n    return aws.dynamodb().get_item(TableName='t', Key=key)\n",
        "people/profiles.py",
    ),
    "a key built outside platform/keys.py": (
        "people/profiles.py",
        'def _key(p):\n    return {"pk": {"S": "PLAYER#" + p}, "sk": {"S": "PROFILE"}}\n',
        "builds a key",
    ),
    "a use case speaking DynamoDB through the module": (
        "play/resign.py",
        "from ..platform import dynamo\n",
        "play/resign.py",
    ),
    "a use case building a key": (
        "lobby/waiting.py",
        "from ..platform.keys import game\n",
        "lobby/waiting.py",
    ),
    "a use case writing an item's typed value": (
        "daily/play.py",
        'def _day(item):\n    return item["day"]["S"]\n',
        "reads a typed value",
    ),
    "a use case naming the table's attributes": (
        "people/guests.py",
        'def _shard(item):\n    return item.get("lb_shard")\n',
        "names the table's attribute",
    ),
    "a use case writing a condition": (
        "people/guests.py",
        'ONCE = "attribute_not_exists(pk)"\n',
        "writes a DynamoDB expression",
    ),
    "a handler importing the keys": (
        "../../../functions/resign/app.py",
        "from mineduel_service.platform import keys\n",
        "imports platform.keys",
    ),
    "a handler reaching past a domain's use cases": (
        "../../../functions/resign/app.py",
        "from mineduel_service.play import advance\n",
        "functions/resign/app.py",
    ),
}


@pytest.mark.parametrize("planted", list(PLANTED), ids=list(PLANTED))
def test_the_rules_catch_a_planted_violation(tmp_path: Path, planted: str) -> None:
    """The same checks, on a copy of the tree with one violation added, report it."""
    where, code, expected = PLANTED[planted]
    shutil.copytree(
        ROOT / SERVICE, tmp_path / SERVICE, ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "functions", tmp_path / "functions")
    shutil.copy(ROOT / "template.yaml", tmp_path / "template.yaml")
    assert violations(tmp_path) == []  # the copy is as clean as the tree
    target = (tmp_path / SERVICE / where).resolve()
    target.write_text(target.read_text() + "\n\n" + code)
    found = violations(tmp_path)
    assert found, planted
    assert any(expected in line for line in found), found
