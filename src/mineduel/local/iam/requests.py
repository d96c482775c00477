"""What IAM authorizes for one AWS API call: actions, resource ARNs and condition keys.

An API call is not always one IAM action on one resource. A DynamoDB transaction is authorized
element by element (a ``Put`` needs ``dynamodb:PutItem`` on its table, an ``Update``
``dynamodb:UpdateItem``, a ``Delete`` ``dynamodb:DeleteItem``, a ``ConditionCheck``
``dynamodb:ConditionCheckItem``); a batch is one action per table, over every key it names; a
Scheduler call that sets a target role also needs ``iam:PassRole`` on that role. Each request
carries the condition keys a policy may test: the partition keys (``dynamodb:LeadingKeys``),
the KMS encryption context, the service a role is passed to.

Only the calls the functions make are known here; any other call is reported as unknown (so
the check fails loudly, and the mapping is taught the new call) rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..provision import ACCOUNT_ID, LocalStack

TABLE_TYPE = "AWS::DynamoDB::Table"
KMS_ALIAS_TYPE = "AWS::KMS::Alias"
LEADING_KEYS = "dynamodb:LeadingKeys"
_KEY_OPERATIONS = {
    "GetItem": "Key",
    "PutItem": "Item",
    "UpdateItem": "Key",
    "DeleteItem": "Key",
}
_TRANSACT_WRITE = {
    "Put": ("PutItem", "Item"),
    "Update": ("UpdateItem", "Key"),
    "Delete": ("DeleteItem", "Key"),
    "ConditionCheck": ("ConditionCheckItem", "Key"),
}
_KMS_KEYED = {"Encrypt", "Decrypt", "GenerateDataKey", "GenerateDataKeyWithoutPlaintext"}
_SCHEDULES = {"CreateSchedule", "UpdateSchedule", "DeleteSchedule", "GetSchedule"}
_EQUALS = re.compile(r"(#?[A-Za-z0-9_.]+)\s*=\s*(:[A-Za-z0-9_]+)")


class UnknownCall(Exception):
    """A call this module cannot map to IAM requests (teach it, in this module)."""


@dataclass(frozen=True)
class IamRequest:
    """One authorization IAM makes for a call: an action on a resource, with condition keys."""

    action: str
    resource: str
    context: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    part: str = ""  # which part of the call (a transaction's element), for reports

    def describe(self) -> str:
        """``dynamodb:PutItem on arn:... (dynamodb:LeadingKeys=GAME#1)`` for reports."""
        keys = "; ".join(f"{k}={','.join(v)}" for k, v in sorted(self.context.items()))
        return f"{self.action} on {self.resource}" + (f" ({keys})" if keys else "")


def requests_for(
    service: str, operation: str, params: Mapping[str, Any], stack: LocalStack, region: str
) -> list[IamRequest]:
    """The IAM requests behind ``service``'s ``operation`` called with ``params``."""
    mapper = _MAPPERS.get(service.lower())
    if mapper is None:
        raise UnknownCall(f"{service}.{operation}: no IAM mapping for this service")
    return mapper(_Call(operation, params, stack, region))


@dataclass(frozen=True)
class _Call:
    operation: str
    params: Mapping[str, Any]
    stack: LocalStack
    region: str

    def arn(self, service: str, resource: str) -> str:
        return f"arn:aws:{service}:{self.region}:{ACCOUNT_ID}:{resource}"

    def unknown(self, why: str) -> UnknownCall:
        return UnknownCall(f"{self.operation}: {why}")


# ---------------------------------------------------------------------------- DynamoDB
def _hash_key(call: _Call, table: str) -> str:
    """The partition key's attribute name of the template's table called ``table``."""
    for logical_id, resource in call.stack.template.resources_of_type(TABLE_TYPE).items():
        if call.stack.ref(logical_id) == table:
            schema = resource.get("Properties", {}).get("KeySchema", [])
            for key in schema:
                if key.get("KeyType") == "HASH":
                    return str(key["AttributeName"])
    raise call.unknown(f"table {table!r} is not a table of the template")


def _scalar(value: Mapping[str, Any]) -> str:
    (kind, raw), *_ = value.items()
    return raw.hex() if kind == "B" and isinstance(raw, bytes) else str(raw)


def _leading(call: _Call, table: str, items: list[Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    name = _hash_key(call, table)
    values = []
    for item in items:
        if name not in item:
            raise call.unknown(f"a key of {table!r} lacks its partition key {name!r}")
        values.append(_scalar(item[name]))
    return {LEADING_KEYS: tuple(values)}


def _dynamodb(call: _Call) -> list[IamRequest]:
    op, params = call.operation, call.params

    def table_arn(table: str) -> str:
        return call.arn("dynamodb", f"table/{table}")

    if op in _KEY_OPERATIONS:
        table = str(params["TableName"])
        item = params[_KEY_OPERATIONS[op]]
        return [IamRequest(f"dynamodb:{op}", table_arn(table), _leading(call, table, [item]))]
    if op == "TransactWriteItems":
        found = []
        for index, element in enumerate(params["TransactItems"]):
            ((kind, body),) = element.items()
            action, key = _TRANSACT_WRITE[kind]
            table = str(body["TableName"])
            found.append(
                IamRequest(
                    f"dynamodb:{action}",
                    table_arn(table),
                    _leading(call, table, [body[key]]),
                    f"TransactItems[{index}].{kind}",
                )
            )
        return found
    if op == "TransactGetItems":
        return [
            IamRequest(
                "dynamodb:GetItem",
                table_arn(str(e["Get"]["TableName"])),
                _leading(call, str(e["Get"]["TableName"]), [e["Get"]["Key"]]),
                f"TransactItems[{i}].Get",
            )
            for i, e in enumerate(params["TransactItems"])
        ]
    if op == "BatchGetItem":
        return [
            IamRequest(
                "dynamodb:BatchGetItem",
                table_arn(str(table)),
                _leading(call, str(table), list(request["Keys"])),
                f"RequestItems[{table}]",
            )
            for table, request in params["RequestItems"].items()
        ]
    if op == "BatchWriteItem":
        found = []
        for table, writes in params["RequestItems"].items():
            keys = [
                w["PutRequest"]["Item"] if "PutRequest" in w else w["DeleteRequest"]["Key"]
                for w in writes
            ]
            found.append(
                IamRequest(
                    "dynamodb:BatchWriteItem",
                    table_arn(str(table)),
                    _leading(call, str(table), keys),
                    f"RequestItems[{table}]",
                )
            )
        return found
    if op in ("Query", "Scan"):
        table = str(params["TableName"])
        resource = table_arn(table)
        if params.get("IndexName"):
            resource += f"/index/{params['IndexName']}"
        context = _query_leading(call, table) if op == "Query" else {}
        return [IamRequest(f"dynamodb:{op}", resource, context)]
    if "TableName" in params:
        return [IamRequest(f"dynamodb:{op}", table_arn(str(params["TableName"])))]
    raise call.unknown("no IAM mapping for this DynamoDB operation")


def _query_leading(call: _Call, table: str) -> dict[str, tuple[str, ...]]:
    """The partition key a Query names, from its key condition."""
    params, name = call.params, _hash_key(call, table)
    if params.get("IndexName"):
        return {}  # an index has its own partition key, not the table's
    names: Mapping[str, str] = params.get("ExpressionAttributeNames") or {}
    values: Mapping[str, Any] = params.get("ExpressionAttributeValues") or {}
    for attribute, placeholder in _EQUALS.findall(str(params.get("KeyConditionExpression", ""))):
        if names.get(attribute, attribute) == name and placeholder in values:
            return {LEADING_KEYS: (_scalar(values[placeholder]),)}
    legacy = (params.get("KeyConditions") or {}).get(name)
    if legacy and legacy.get("ComparisonOperator") == "EQ":
        return {LEADING_KEYS: (_scalar(legacy["AttributeValueList"][0]),)}
    raise call.unknown("cannot find the partition key in the Query's key condition")


# ---------------------------------------------------------------------------- KMS
def _key_arn(call: _Call, key_id: str) -> str:
    if key_id.startswith("arn:") and ":key/" in key_id:
        return key_id
    if key_id.startswith(("alias/", "arn:")):
        alias = key_id.split(":", 5)[-1] if key_id.startswith("arn:") else key_id
        for logical_id in call.stack.template.resources_of_type(KMS_ALIAS_TYPE):
            if call.stack.ref(logical_id) == alias:
                props = call.stack.resolve(call.stack.template.resources[logical_id]["Properties"])
                return _key_arn(call, str(props["TargetKeyId"]))
        raise call.unknown(f"alias {alias!r} is not an alias of the template")
    return call.arn("kms", f"key/{key_id}")


def _kms(call: _Call) -> list[IamRequest]:
    if call.operation not in _KMS_KEYED:
        raise call.unknown("no IAM mapping for this KMS operation")
    key_id = call.params.get("KeyId")
    if not key_id:
        raise call.unknown("no KeyId: name the key, so the policy can name it too")
    encryption_context: Mapping[str, str] = call.params.get("EncryptionContext") or {}
    context: dict[str, tuple[str, ...]] = {
        f"kms:EncryptionContext:{k}": (str(v),) for k, v in encryption_context.items()
    }
    if encryption_context:
        context["kms:EncryptionContextKeys"] = tuple(sorted(encryption_context))
    return [IamRequest(f"kms:{call.operation}", _key_arn(call, str(key_id)), context)]


# ---------------------------------------------------------------------------- Scheduler
def _scheduler(call: _Call) -> list[IamRequest]:
    if call.operation not in _SCHEDULES:
        raise call.unknown("no IAM mapping for this Scheduler operation")
    group = call.params.get("GroupName") or "default"
    arn = call.arn("scheduler", f"schedule/{group}/{call.params['Name']}")
    found = [IamRequest(f"scheduler:{call.operation}", arn)]
    role = (call.params.get("Target") or {}).get("RoleArn")
    if role:
        passed = {"iam:PassedToService": ("scheduler.amazonaws.com",)}
        found.append(IamRequest("iam:PassRole", str(role), passed, "Target.RoleArn"))
    return found


# ---------------------------------------------------------------------------- Lambda
def _lambda(call: _Call) -> list[IamRequest]:
    if call.operation != "Invoke":
        raise call.unknown("no IAM mapping for this Lambda operation")
    name = str(call.params["FunctionName"]).removesuffix(":$LATEST")
    arn = name if name.startswith("arn:") else call.arn("lambda", f"function:{name}")
    return [IamRequest("lambda:InvokeFunction", arn)]


# ---------------------------------------------------------------------------- S3
_S3_OBJECT = {"GetObject", "PutObject", "DeleteObject", "HeadObject", "CopyObject"}


def _s3(call: _Call) -> list[IamRequest]:
    if call.operation not in _S3_OBJECT:
        raise call.unknown("no IAM mapping for this S3 operation")
    action = "GetObject" if call.operation == "HeadObject" else call.operation
    bucket, key = call.params["Bucket"], call.params["Key"]
    found = [IamRequest(f"s3:{action}", f"arn:aws:s3:::{bucket}/{key}")]
    if call.operation == "CopyObject":
        source = call.params["CopySource"]
        path = source if isinstance(source, str) else f"{source['Bucket']}/{source['Key']}"
        found.append(IamRequest("s3:GetObject", f"arn:aws:s3:::{path.lstrip('/')}", {}, "source"))
    return found


# ---------------------------------------------------------------------------- WebSocket API
_MANAGE = {"PostToConnection": "POST", "GetConnection": "GET", "DeleteConnection": "DELETE"}


def _websocket_api(call: _Call) -> tuple[str, str]:
    """The template's WebSocket API id and stage name (a management call's URL names them on
    AWS; locally it reaches the local stack's own server)."""
    template = call.stack.template
    apis = [
        logical_id
        for logical_id, r in template.resources_of_type("AWS::ApiGatewayV2::Api").items()
        if r.get("Properties", {}).get("ProtocolType") == "WEBSOCKET"
    ]
    stages = list(template.resources_of_type("AWS::ApiGatewayV2::Stage"))
    if len(apis) != 1 or len(stages) != 1:
        raise call.unknown("the template must have one WebSocket API with one stage")
    return call.stack.ref(apis[0]), call.stack.ref(stages[0])


def _management(call: _Call) -> list[IamRequest]:
    method = _MANAGE.get(call.operation)
    if method is None:
        raise call.unknown("no IAM mapping for this management API operation")
    api_id, stage = _websocket_api(call)
    connection = call.params["ConnectionId"]
    arn = call.arn("execute-api", f"{api_id}/{stage}/{method}/@connections/{connection}")
    return [IamRequest("execute-api:ManageConnections", arn)]


# ---------------------------------------------------------------------------- EventBridge
def _events(call: _Call) -> list[IamRequest]:
    if call.operation == "ListRules":  # the rules of one bus
        bus = str(call.params.get("EventBusName") or "default").rpartition("/")[2]
        return [IamRequest("events:ListRules", call.arn("events", f"rule/{bus}/*"))]
    if call.operation != "PutEvents":
        raise call.unknown("no IAM mapping for this EventBridge operation")
    found = []
    for index, entry in enumerate(call.params["Entries"]):
        bus = str(entry.get("EventBusName") or "default")
        arn = bus if bus.startswith("arn:") else call.arn("events", f"event-bus/{bus}")
        found.append(IamRequest("events:PutEvents", arn, {}, f"Entries[{index}]"))
    return found


# ---------------------------------------------------------------------------- Parameter Store
_SSM = {"GetParameter": "ssm:GetParameter", "PutParameter": "ssm:PutParameter"}


def _ssm(call: _Call) -> list[IamRequest]:
    action = _SSM.get(call.operation)
    if action is None:
        raise call.unknown("no IAM mapping for this SSM operation")
    name = str(call.params["Name"])
    arn = name if name.startswith("arn:") else call.arn("ssm", f"parameter/{name.lstrip('/')}")
    return [IamRequest(action, arn)]


# ---------------------------------------------------------------------------- SQS
def _queue_arn(call: _Call, url: str) -> str:
    """The ARN of the template's queue at ``url``."""
    for physical in call.stack.resources.values():
        if physical.attributes.get("QueueUrl") == url:
            return physical.attributes["Arn"]
    raise call.unknown(f"queue {url!r} is not a queue of the template")


def _sqs(call: _Call) -> list[IamRequest]:
    if call.operation not in ("SendMessage", "SendMessageBatch"):
        raise call.unknown("no IAM mapping for this SQS operation")
    return [IamRequest("sqs:SendMessage", _queue_arn(call, str(call.params["QueueUrl"])))]


# ---------------------------------------------------------------------------- SNS
_SNS_BY = {
    "Publish": "TargetArn",
    "CreatePlatformEndpoint": "PlatformApplicationArn",
    "GetEndpointAttributes": "EndpointArn",
    "SetEndpointAttributes": "EndpointArn",
    "DeleteEndpoint": "EndpointArn",
    "SetPlatformApplicationAttributes": "PlatformApplicationArn",
    "DeletePlatformApplication": "PlatformApplicationArn",
}


def _sns(call: _Call) -> list[IamRequest]:
    op = call.operation
    if op == "CreatePlatformApplication":
        name, platform = call.params["Name"], call.params["Platform"]
        return [IamRequest(f"sns:{op}", call.arn("sns", f"app/{platform}/{name}"))]
    field = _SNS_BY.get(op)
    if field is None:
        raise call.unknown("no IAM mapping for this SNS operation")
    target = call.params.get(field) or call.params.get("TopicArn")
    if not target:
        raise call.unknown(f"no {field}: name the resource, so the policy can name it too")
    return [IamRequest(f"sns:{op}", str(target))]


_MAPPERS = {
    "dynamodb": _dynamodb,
    "kms": _kms,
    "scheduler": _scheduler,
    "lambda": _lambda,
    "s3": _s3,
    "apigatewaymanagementapi": _management,
    "eventbridge": _events,
    "ssm": _ssm,
    "sqs": _sqs,
    "sns": _sns,
}
