"""What an HTTP function's cold start imports: Powertools' HTTP resolver without the rest of
its ``event_handler`` package (the edge's lazy twin of it), and the models of its own routes.

These are facts about imports, checked in a fresh interpreter (the test process has long
imported everything); how long the imports take is the benchmark's business (``make bench``,
docs/cost.md), never a test's.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from mineduel_service.api import powertools

ROOT = Path(__file__).resolve().parents[1]
HTTP_HANDLERS = sorted(
    path for path in (ROOT / "functions").glob("*/app.py") if "http.new_app()" in path.read_text()
)
ENVIRONMENT = {
    "TABLE_NAME": "t",
    "SEED_KEY_ID": "k",
    "SCHEDULE_GROUP": "g",
    "SCHEDULER_ROLE_ARN": "arn:aws:iam::123456789012:role/r",
    "EXPIRY_FUNCTION_ARN": "arn:aws:lambda:us-east-1:123456789012:function:f",
    "SCHEDULE_DLQ_ARN": "arn:aws:sqs:us-east-1:123456789012:q",
    "USER_POOL_ID": "us-east-1_x",
    "USER_POOL_CLIENT_ID": "c",
    "AWS_DEFAULT_REGION": "us-east-1",
    "POWERTOOLS_METRICS_NAMESPACE": "test",
}

_FRESH = """
import importlib.util, json, sys
DATA_CLASSES = "aws_lambda_powertools.utilities.data_classes"
def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
paths = json.loads(sys.argv[1])
handlers = [load(path, f"handler_{n}") for n, path in enumerate(paths)]
package = sys.modules["aws_lambda_powertools.event_handler"]
seen = {
    "asyncio": "asyncio" in sys.modules,
    "lazy": "__getattr__" in vars(package),
    "loaded": sorted(m for m in sys.modules if m.startswith(package.__name__ + ".")),
    "contract": sorted(m for m in sys.modules if m.startswith("mineduel_service.contract.")),
    "data_classes_lazy": "__getattr__" in vars(sys.modules[DATA_CLASSES]),
    "data_classes": sorted(m for m in sys.modules if m.startswith(DATA_CLASSES + ".")),
}
from mineduel.local.invoke import LambdaContext  # (after the imports are seen)
context = LambdaContext("commit", "arn:aws:lambda:us-east-1:123456789012:function:commit")
seen["answers"] = [handlers[0].lambda_handler(e, context) for e in json.loads(sys.argv[2])]
print(json.dumps(seen))
"""


def _fresh(paths: list[Path], events: list[dict[str, object]]) -> dict[str, object]:
    """Import ``paths`` in a new interpreter, have the first answer ``events``; what it saw."""
    done = subprocess.run(  # noqa: S603  (our interpreter, our code)
        [sys.executable, "-c", _FRESH, json.dumps([str(p) for p in paths]), json.dumps(events)],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", **ENVIRONMENT},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert isinstance(found, dict)
    return found


def _event(name: str, **changes: object) -> dict[str, object]:
    event = json.loads((ROOT / "events" / name).read_text())
    event.update(changes)
    return dict(event)


def test_no_handler_imports_powertools_event_handler_itself() -> None:
    """Handlers take Powertools' HTTP names from the edge (``api.http``), which installs the
    lazy package first: a handler importing Powertools' package before it would load all of it."""
    offenders = []
    for path in sorted((ROOT / "functions").glob("*/app.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.startswith(powertools.PACKAGE) for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], "import Response, Body, Query, Header from mineduel_service.api.http"


def test_every_http_handler_imports_without_asyncio_and_answers() -> None:
    """All the HTTP handlers in one fresh interpreter: Powertools' packages are the lazy twins,
    none of its other resolvers (AppSync's, with asyncio) nor the other event sources' classes
    is loaded, and the resolver still validates and answers through them (a commit without its
    cell: 422; an unknown route: 404)."""
    commit = ROOT / "functions" / "commit_move" / "app.py"
    events = [
        _event("moves_post.json", body=json.dumps({"expected_move": 0})),
        _event("moves_post.json", rawPath="/v1/nowhere", routeKey="$default"),
    ]
    found = _fresh([commit, *(p for p in HTTP_HANDLERS if p != commit)], events)
    assert found["lazy"] is True
    assert found["asyncio"] is False
    loaded = found["loaded"]
    assert isinstance(loaded, list)
    assert not [m for m in loaded if "appsync" in m or "bedrock" in m or "vpc_lattice" in m]
    assert found["data_classes_lazy"] is True
    events = found["data_classes"]
    assert isinstance(events, list)
    unused = ("s3_event", "sqs_event", "kafka_event", "code_pipeline_job_event", "ses_event")
    assert not [m for m in events if m.rsplit(".", 1)[-1] in unused], events
    answers = found["answers"]
    assert isinstance(answers, list)
    invalid, missing = answers
    assert invalid["statusCode"] == 422, invalid
    assert json.loads(invalid["body"])["code"] == "invalid-request"
    assert missing["statusCode"] == 404, missing


def test_the_commit_handler_builds_only_its_own_models() -> None:
    """The commit imports the Game, the moves and the problem bodies, not every route's models."""
    found = _fresh([ROOT / "functions" / "commit_move" / "app.py"], [])
    assert found["contract"] == [
        "mineduel_service.contract.base",
        "mineduel_service.contract.games",
        "mineduel_service.contract.moves",
        "mineduel_service.contract.problems",
    ]
    assert found["asyncio"] is False


@pytest.mark.parametrize("package", powertools.PACKAGES)
def test_the_lazy_package_knows_every_name_of_the_real_one(package: str) -> None:
    """Every name the package's ``__init__`` exports has a home, and it is the same object."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text()
    homes = powertools.homes(source, package)
    assert homes is not None, f"{package}'s __init__ is no longer a plain list of imports"
    exported = next(
        ast.literal_eval(node.value)
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
    )
    assert set(exported) <= set(homes)
    twin = powertools.lazy_package(package, homes)
    assert twin is not None
    real = importlib.import_module(package)  # (the test process has the real one)
    for name in homes:
        assert getattr(twin, name) is getattr(real, name), name


_COLLISION = """
import sys
import mineduel_service.api
package = sys.modules["aws_lambda_powertools.utilities.data_classes"]
assert "__getattr__" in vars(package)
import aws_lambda_powertools.utilities.data_classes.event_source
module = sys.modules["aws_lambda_powertools.utilities.data_classes.event_source"]
from aws_lambda_powertools.utilities.data_classes import event_source
assert callable(event_source) and event_source is module.event_source, event_source
print("ok")
"""


def test_a_name_that_is_also_a_submodule_stays_the_name() -> None:
    """``data_classes.event_source`` is a function of the module of the same name: importing the
    module (which binds it on the package) leaves the package's name the function, as in the
    real package."""
    done = subprocess.run(  # noqa: S603  (our interpreter, our code)
        [sys.executable, "-c", _COLLISION],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", **ENVIRONMENT},
        cwd=ROOT,
    )
    assert done.stdout.strip() == "ok", done.stderr[-3000:]


def test_an_init_that_does_more_than_import_keeps_the_real_package() -> None:
    """A Powertools whose ``__init__`` runs code of its own is left as it is (slower, right)."""
    plain = '"""doc"""\nfrom aws_lambda_powertools.event_handler.api_gateway import Response\n'
    assert powertools.homes(plain) == {
        "Response": ("aws_lambda_powertools.event_handler.api_gateway", "Response")
    }
    assert powertools.homes(plain + "import os\n") is None
    assert powertools.homes(plain + "setup()\n") is None
    assert powertools.homes("from aws_lambda_powertools.logging import Logger\n") is None
    assert powertools.homes("from .api_gateway import *\n") is None
