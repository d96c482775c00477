"""The IAM check itself: calls become IAM's requests, policies judge them as IAM would, and the
report names what to add and what to remove (on the template provisioned on moto)."""

from __future__ import annotations

import copy
import dataclasses
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service.platform.config import get_config

from mineduel.local.iam import Audit, FunctionPolicy, IamRequest, UnknownCall, requests_for
from mineduel.local.invoke import RUNNING, Running, running
from mineduel.local.provision import ACCOUNT_ID, LocalStack
from mineduel.template import Template

if TYPE_CHECKING:
    from conftest import IamRun

GAME = {"pk": {"S": "GAME#g1"}, "sk": {"S": "GAME"}}


def _table_arn(stack: LocalStack) -> str:
    return stack.attribute("GamesTable", "Arn")


def _requests(stack: LocalStack, service: str, operation: str, **params: Any) -> list[IamRequest]:
    return requests_for(service, operation, params, stack, stack.region)


def test_a_transaction_is_authorized_element_by_element(stack: LocalStack) -> None:
    table = stack.ref("GamesTable")
    found = _requests(
        stack,
        "DynamoDB",
        "TransactWriteItems",
        TransactItems=[
            {"Put": {"TableName": table, "Item": {**GAME, "x": {"N": "1"}}}},
            {"Update": {"TableName": table, "Key": {"pk": {"S": "IDEM#p#k"}, "sk": {"S": "I"}}}},
            {"Delete": {"TableName": table, "Key": {"pk": {"S": "GUEST#h"}, "sk": {"S": "G"}}}},
            {"ConditionCheck": {"TableName": table, "Key": GAME}},
        ],
    )
    assert [(r.action, r.resource, r.context["dynamodb:LeadingKeys"]) for r in found] == [
        ("dynamodb:PutItem", _table_arn(stack), ("GAME#g1",)),
        ("dynamodb:UpdateItem", _table_arn(stack), ("IDEM#p#k",)),
        ("dynamodb:DeleteItem", _table_arn(stack), ("GUEST#h",)),
        ("dynamodb:ConditionCheckItem", _table_arn(stack), ("GAME#g1",)),
    ]


def test_batches_queries_keys_and_schedules_name_what_iam_checks(stack: LocalStack) -> None:
    table = stack.ref("GamesTable")
    (batch,) = _requests(
        stack,
        "DynamoDB",
        "BatchGetItem",
        RequestItems={table: {"Keys": [GAME, {"pk": {"S": "IDEM#a#b"}, "sk": {"S": "IDEM"}}]}},
    )
    assert batch.context["dynamodb:LeadingKeys"] == ("GAME#g1", "IDEM#a#b")
    (query,) = _requests(
        stack,
        "DynamoDB",
        "Query",
        TableName=table,
        KeyConditionExpression="#p = :pk AND sk > :from",
        ExpressionAttributeNames={"#p": "pk"},
        ExpressionAttributeValues={":pk": {"S": "GAME#g1"}, ":from": {"S": "MOVE#"}},
    )
    assert (query.action, query.context) == (
        "dynamodb:Query",
        {"dynamodb:LeadingKeys": ("GAME#g1",)},
    )
    (by_alias,) = _requests(
        stack, "KMS", "Decrypt", KeyId=stack.ref("SeedKeyAlias"), EncryptionContext={"game_id": "g"}
    )
    assert by_alias.resource == stack.attribute("SeedKey", "Arn")
    assert by_alias.context["kms:EncryptionContext:game_id"] == ("g",)
    group = stack.ref("TurnScheduleGroup")
    schedule, passed = _requests(
        stack,
        "Scheduler",
        "UpdateSchedule",
        Name="turn-g",
        GroupName=group,
        Target={"Arn": "x", "RoleArn": stack.attribute("SchedulerRole", "Arn")},
    )
    assert schedule.resource == (
        f"arn:aws:scheduler:{stack.region}:{ACCOUNT_ID}:schedule/{group}/turn-g"
    )
    assert (passed.action, passed.context) == (
        "iam:PassRole",
        {"iam:PassedToService": ("scheduler.amazonaws.com",)},
    )
    (invoke,) = _requests(stack, "Lambda", "Invoke", FunctionName="f")
    assert (invoke.action, invoke.resource) == (
        "lambda:InvokeFunction",
        f"arn:aws:lambda:{stack.region}:{ACCOUNT_ID}:function:f",
    )
    with pytest.raises(UnknownCall):
        _requests(stack, "Lambda", "ListFunctions")
    with pytest.raises(UnknownCall):
        _requests(stack, "KMS", "Decrypt", CiphertextBlob=b"x")  # which key? the policy must say


def test_policies_judge_actions_resources_and_every_condition(stack: LocalStack) -> None:
    commit = FunctionPolicy(stack, "CommitMoveFunction")
    table = _table_arn(stack)

    def item(action: str, key: str) -> IamRequest:
        return IamRequest(action, table, {"dynamodb:LeadingKeys": (key,)})

    assert commit.decide(item("dynamodb:GetItem", "GAME#g")).allowed
    assert commit.decide(item("dynamodb:PutItem", "IDEM#p#k")).allowed
    assert not commit.decide(item("dynamodb:GetItem", "GUEST#h")).allowed  # not its prefix
    assert not commit.decide(item("dynamodb:DeleteItem", "GAME#g")).allowed  # only PLAYER#
    assert not commit.decide(IamRequest("dynamodb:GetItem", table)).allowed  # keys unknown
    key = stack.attribute("SeedKey", "Arn")
    bound = {"kms:EncryptionContext:game_id": ("g",)}
    assert commit.decide(IamRequest("kms:Decrypt", key, bound)).allowed
    assert not commit.decide(IamRequest("kms:Decrypt", key)).allowed  # no encryption context
    assert (
        not FunctionPolicy(stack, "CreateGameFunction")
        .decide(IamRequest("kms:Decrypt", key, bound))
        .allowed
    )
    role = stack.attribute("SchedulerRole", "Arn")
    elsewhere = {"iam:PassedToService": ("lambda.amazonaws.com",)}
    assert not commit.decide(IamRequest("iam:PassRole", role, elsewhere)).allowed


def _altered(stack: LocalStack, function: str, statements: list[dict[str, Any]]) -> LocalStack:
    """``stack`` with ``function``'s policy replaced (nothing else changes)."""
    functions = dict(stack.template.functions)
    spec = functions[function]
    properties = copy.deepcopy(spec.properties)
    properties["Policies"] = [{"Statement": statements}]
    functions[function] = dataclasses.replace(spec, properties=properties)
    template = Template(stack.template.path, stack.template.body, functions)
    return dataclasses.replace(stack, template=template)


def test_the_report_says_what_to_add_and_what_to_remove(stack: LocalStack) -> None:
    altered = _altered(
        stack,
        "GetGameFunction",
        [
            {
                "Effect": "Allow",
                "Action": ["dynamodb:GetItem", "dynamodb:UpdateItem"],
                "Resource": {"Fn::GetAtt": ["GamesTable", "Arn"]},
                "Condition": {
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["GUEST#*", "GAME#*"]}
                },
            }
        ],
    )
    audit = Audit()
    key = {"pk": {"S": "GAME#g1"}, "sk": {"S": "GAME"}}
    audit.record(
        Running("GetGameFunction", altered),
        "DynamoDB",
        "GetItem",
        {"TableName": stack.ref("GamesTable"), "Key": key},
        stack.region,
    )
    audit.record(
        Running("GetGameFunction", altered),
        "DynamoDB",
        "Query",
        {
            "TableName": stack.ref("GamesTable"),
            "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": "GAME#g1"}},
        },
        stack.region,
    )
    report = audit.report(altered.template, judge_unused=True)
    assert (
        "not allowed (add it): GetGameFunction: DynamoDB.Query needs dynamodb:Query on " in report
    )
    assert "dynamodb:LeadingKeys=GAME#g1" in report
    unused = [line for line in report.splitlines() if "unused (remove it): GetGameFunction" in line]
    assert sorted(line.split(": ", 2)[2] for line in unused) == [
        "dynamodb:GetItem on !GetAtt GamesTable.Arn for partition keys GUEST#* (statement 1)",
        "dynamodb:UpdateItem on !GetAtt GamesTable.Arn for partition keys GAME#* (statement 1)",
        "dynamodb:UpdateItem on !GetAtt GamesTable.Arn for partition keys GUEST#* (statement 1)",
    ]
    assert (
        "GetGameFunction needs exactly (Policies, from the calls recorded):\n"
        "      Policies:\n"
        "        - Statement:\n"
        "            - Effect: Allow\n"
        "              Action: [dynamodb:GetItem, dynamodb:Query]\n"
        "              Resource: !GetAtt GamesTable.Arn\n"
        "              Condition:\n"
        "                ForAllValues:StringLike:\n"
        '                  dynamodb:LeadingKeys: ["GAME#*"]'
    ) in report
    # Without the whole suite behind it, only what was called is judged.
    assert "unused" not in audit.report(altered.template, judge_unused=False)


def test_a_call_is_charged_to_the_function_running_in_its_thread(
    stack: LocalStack, iam_run: IamRun
) -> None:
    config = get_config()
    client = boto3.client("dynamodb", region_name=config.region)
    before = iam_run.audit.calls
    client.get_item(TableName=config.table_name, Key=GAME)  # no function runs: not charged
    assert iam_run.audit.calls == before
    with running("ListMovesFunction", stack):
        assert RUNNING.get() == Running("ListMovesFunction", stack)
        client.get_item(TableName=config.table_name, Key=GAME)
    assert RUNNING.get() is None
    assert iam_run.audit.calls == before + 1
    assert "ListMovesFunction" in iam_run.audit.functions_seen()
