"""template.yaml as data: the functions (code, handler, environment, routes) and the resources.

Read with a YAML loader that knows CloudFormation's short intrinsic forms (``!Ref``, ``!Sub``,
``!GetAtt`` ...) and turns them into the long ones (``{"Fn::Sub": ...}``), as CloudFormation
does, into plain dicts, lists and strings. Expressions are kept unresolved; ``provision``
resolves them. (cfn-lint's own decoder would do too, but importing cfn-lint costs every start
of the local stack about a second; cfn-lint stays the template's linter in ``make test``.)
"""

from __future__ import annotations

import importlib.util
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

FUNCTION_TYPE = "AWS::Serverless::Function"
ROOT_TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"


class TemplateError(Exception):
    """template.yaml cannot be read, or lacks something the local stack needs."""


@dataclass(frozen=True)
class Route:
    """One HTTP API route of a function: method and path (``{name}`` marks a path parameter)."""

    method: str
    path: str


@dataclass(frozen=True)
class FunctionSpec:
    """A Lambda function as the template declares it."""

    logical_id: str
    code_dir: Path
    handler: str
    environment: dict[str, Any]
    routes: tuple[Route, ...]
    properties: dict[str, Any] = field(repr=False)

    @property
    def module_file(self) -> Path:
        """The handler's source file (``app.lambda_handler`` lives in ``<code_dir>/app.py``)."""
        module, _, _ = self.handler.rpartition(".")
        return self.code_dir / (module.replace(".", "/") + ".py")

    @property
    def handler_name(self) -> str:
        """The handler's attribute name in its module."""
        return self.handler.rpartition(".")[2]


@dataclass(frozen=True)
class Template:
    """A decoded template: plain data plus the functions with Globals merged in."""

    path: Path
    body: dict[str, Any]
    functions: dict[str, FunctionSpec]

    @property
    def resources(self) -> dict[str, dict[str, Any]]:
        """Every resource by logical id."""
        resources: dict[str, dict[str, Any]] = self.body.get("Resources", {})
        return resources

    def resources_of_type(self, resource_type: str) -> dict[str, dict[str, Any]]:
        """The resources of one CloudFormation type, by logical id."""
        return {k: v for k, v in self.resources.items() if v.get("Type") == resource_type}

    @property
    def parameter_defaults(self) -> dict[str, Any]:
        """Each parameter's default value (what a local stack deploys with)."""
        params: dict[str, Any] = self.body.get("Parameters", {})
        return {name: spec.get("Default") for name, spec in params.items()}

    def routes(self) -> list[tuple[Route, FunctionSpec]]:
        """Every HTTP route with the function that serves it."""
        return [(route, fn) for fn in self.functions.values() for route in fn.routes]


try:  # libyaml's safe loader (thirty times faster: every local stack reads the template)
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # PyYAML built without libyaml: the pure-Python one, the same documents
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]


class _CloudFormationLoader(_SafeLoader):
    """YAML with CloudFormation's tags: ``!GetAtt A.B`` is ``{"Fn::GetAtt": ["A", "B"]}``,
    ``!Ref X`` is ``{"Ref": "X"}``, ``!Condition C`` is ``{"Condition": "C"}``, and any other
    ``!Name value`` is ``{"Fn::Name": value}``."""


def _intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    elif isinstance(node, yaml.MappingNode):
        value = loader.construct_mapping(node, deep=True)
    else:  # pragma: no cover  (YAML has no other node kinds)
        raise TemplateError(f"cannot read !{suffix}")
    if suffix in ("Ref", "Condition"):
        return {suffix: value}
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{suffix}": value}


_CloudFormationLoader.add_multi_constructor("!", _intrinsic)


def plain(node: Any) -> Any:
    """Deep-convert decoded YAML into builtin dicts (string keys), lists and strings."""
    if isinstance(node, Mapping):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    return node


def load_template(path: Path | str = ROOT_TEMPLATE) -> Template:
    """Decode ``path`` and collect its functions (Globals.Function merged under each one)."""
    path = Path(path).resolve()
    try:
        decoded = yaml.load(path.read_text(encoding="utf-8"), Loader=_CloudFormationLoader)  # noqa: S506  (a SafeLoader with CloudFormation's tags)
    except (OSError, yaml.YAMLError) as exc:
        raise TemplateError(f"{path}: {exc}") from None
    if not isinstance(decoded, Mapping):
        raise TemplateError(f"{path}: not a template")
    body: dict[str, Any] = plain(decoded)
    global_fn: dict[str, Any] = body.get("Globals", {}).get("Function", {})
    functions = {
        logical_id: _function_spec(path.parent, logical_id, resource, global_fn)
        for logical_id, resource in body.get("Resources", {}).items()
        if resource.get("Type") == FUNCTION_TYPE
    }
    return Template(path=path, body=body, functions=functions)


def _function_spec(
    root: Path, logical_id: str, resource: dict[str, Any], global_fn: dict[str, Any]
) -> FunctionSpec:
    props = {**global_fn, **resource.get("Properties", {})}
    environment = {
        **global_fn.get("Environment", {}).get("Variables", {}),
        **resource.get("Properties", {}).get("Environment", {}).get("Variables", {}),
    }
    code_uri, handler = props.get("CodeUri"), props.get("Handler")
    if not isinstance(code_uri, str) or not isinstance(handler, str):
        raise TemplateError(f"{logical_id}: CodeUri and Handler must be plain strings")
    routes = tuple(
        Route(str(event["Properties"]["Method"]).upper(), str(event["Properties"]["Path"]))
        for event in props.get("Events", {}).values()
        if event.get("Type") == "HttpApi"
    )
    return FunctionSpec(
        logical_id=logical_id,
        code_dir=(root / code_uri).resolve(),
        handler=handler,
        environment=environment,
        routes=routes,
        properties=props,
    )


def load_handler_module(spec: FunctionSpec) -> ModuleType:
    """A new, private copy of ``spec``'s handler module (what one environment's init runs).

    The copy is registered in ``sys.modules`` under a unique name, because pydantic resolves a
    model's annotations through its module there.
    """
    name = f"mineduel_env_{spec.logical_id}_{uuid.uuid4().hex[:12]}"
    module_spec = importlib.util.spec_from_file_location(name, spec.module_file)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {spec.module_file}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module
