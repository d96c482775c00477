"""Create template.yaml's resources on the current boto3 endpoint and resolve the functions' env.

The endpoint is whatever boto3 talks to right now: moto in-process (inside ``mock_aws``) or a
moto server named by ``AWS_ENDPOINT_URL``. Resources are created on demand while expressions are
resolved, so a ``!Ref`` or ``!GetAtt`` always finds its target already made, whatever the order
in the file. Tests provision from the real template, so they cannot drift from the infrastructure.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from mineduel.template import ROOT_TEMPLATE, Template, TemplateError, load_template

ACCOUNT_ID = "123456789012"
DEFAULT_STACK = "mineduel-local"
# What the local stack deploys with for parameters that have no default (a deployment must
# choose them): passkeys on the local stack could only ever be used from localhost.
# Mobile push: stand-in APNs and FCM credentials, so the local stack has both SNS platform
# applications (moto takes any credentials and delivers nowhere).
LOCAL_PARAMETERS = {
    "PasskeyRelyingPartyId": "localhost",
    "ApnsSigningKey": "local-apns-signing-key",
    "ApnsKeyId": "LOCALKEY01",
    "ApnsTeamId": "LOCALTEAM1",
    "ApnsBundleId": "com.example.mineduel",
    "FcmServiceAccountJson": '{"type": "service_account", "project_id": "mineduel-local"}',
}
_SUB_VAR = re.compile(r"\$\{([^}!][^}]*)\}")
_DYNAMIC_REFERENCE = re.compile(r"\{\{resolve:(?P<service>[a-z-]+):(?P<rest>[^}]+)\}\}")


@dataclass
class Physical:
    """A created resource: what ``!Ref`` gives and what each ``!GetAtt`` attribute gives."""

    ref: str
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class LocalStack:
    """The provisioned stack: physical ids, function ARNs and resolved function environments."""

    template: Template
    region: str
    stack_name: str
    resources: dict[str, Physical]
    environments: dict[str, dict[str, str]]
    outputs: dict[str, str] = field(default_factory=dict)
    deploy_requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Custom resources served by one of the stack's functions, as ``(function ARN, Create
    request)``: what CloudFormation sends them while it creates the stack
    (``run_deploy_requests`` sends them once the functions can run)."""

    @property
    def function_arns(self) -> dict[str, str]:
        """Each function's ARN by logical id."""
        return {fn: self.resources[fn].attributes["Arn"] for fn in self.template.functions}

    def function_for_arn(self, arn: str) -> str:
        """The logical id of the function with ``arn`` (how a schedule's target is found)."""
        for logical_id, fn_arn in self.function_arns.items():
            if fn_arn == arn:
                return logical_id
        raise KeyError(f"no function of this stack has the ARN {arn}")

    def ref(self, logical_id: str) -> str:
        """What ``!Ref logical_id`` resolved to."""
        return self.resources[logical_id].ref

    def attribute(self, logical_id: str, name: str) -> str:
        """What ``!GetAtt logical_id.name`` resolved to."""
        return self.resources[logical_id].attributes[name]

    def resolve(self, value: Any) -> Any:
        """``value`` with every Ref, GetAtt, Sub and Join resolved against this stack (as
        CloudFormation would resolve a policy's resources); creates nothing."""
        builder = _Builder(self.template, self.region, self.stack_name)
        builder.created = dict(self.resources)
        return builder.resolve(value)

    def merged_environment(self) -> dict[str, str]:
        """The union of every function's environment; the functions must agree on shared names.

        All functions run in one process locally, so a name with two different values would
        make one of them see the other's configuration.
        """
        merged: dict[str, str] = {}
        for logical_id, env in self.environments.items():
            for name, value in env.items():
                if merged.setdefault(name, value) != value:
                    raise TemplateError(f"{logical_id}: {name} differs between functions")
        return merged

    def export_environment(self) -> None:
        """Put the functions' environment into ``os.environ`` and drop cached configuration."""
        from mineduel_service.platform.config import (  # noqa: PLC0415  (the local stack's own dependency)
            reset_config,
        )

        os.environ.update(self.merged_environment())
        reset_config()


def provision(
    template_path: Path | str = ROOT_TEMPLATE,
    *,
    region: str,
    stack_name: str = DEFAULT_STACK,
) -> LocalStack:
    """Create every resource the template declares and resolve each function's environment."""
    template = load_template(template_path)
    builder = _Builder(template, region, stack_name)
    for logical_id in template.resources:
        builder.ensure(logical_id)
    environments = {
        logical_id: {name: str(builder.resolve(value)) for name, value in fn.environment.items()}
        | {"AWS_REGION": region, "AWS_DEFAULT_REGION": region}
        for logical_id, fn in template.functions.items()
    }
    outputs = {
        name: str(builder.resolve(spec["Value"]))
        for name, spec in template.body.get("Outputs", {}).items()
    }
    return LocalStack(
        template,
        region,
        stack_name,
        builder.created,
        environments,
        outputs,
        builder.deploy_requests,
    )


def run_deploy_requests(stack: LocalStack, invoke: Callable[[str, Any], Any]) -> None:
    """Send each custom resource served by a function of the stack its Create request, as
    CloudFormation does while it creates the stack (the request carries no ``ResponseURL``:
    the answer is what the function returns); a ``FAILED`` answer fails the stack, as it would
    fail a deployment."""
    for arn, request in stack.deploy_requests:
        answer = invoke(stack.function_for_arn(arn), request)
        if not isinstance(answer, Mapping) or answer.get("Status") != "SUCCESS":
            raise TemplateError(
                f"{request['LogicalResourceId']}: the custom resource failed: {answer!r}"
            )


_PASSWORD_OPTIONS = frozenset(
    {
        "PasswordLength",
        "ExcludeCharacters",
        "ExcludeNumbers",
        "ExcludePunctuation",
        "ExcludeUppercase",
        "ExcludeLowercase",
        "IncludeSpace",
        "RequireEachIncludedType",
    }
)
"""The ``GenerateSecretString`` options that ``GetRandomPassword`` takes under the same name."""


class _Builder:
    """Resolves intrinsic functions, creating each referenced resource the first time it is met."""

    def __init__(self, template: Template, region: str, stack_name: str) -> None:
        self.template = template
        self.region = region
        self.stack_name = stack_name
        self.created: dict[str, Physical] = {}
        self._in_progress: set[str] = set()
        self._clients: dict[str, Any] = {}
        self._pseudo = {
            "AWS::Region": region,
            "AWS::AccountId": ACCOUNT_ID,
            "AWS::StackName": stack_name,
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
        }
        self._creators: dict[str, Callable[[str, dict[str, Any]], Physical]] = {
            "AWS::DynamoDB::Table": self._table,
            "AWS::KMS::Key": self._kms_key,
            "AWS::KMS::Alias": self._kms_alias,
            "AWS::Scheduler::ScheduleGroup": self._schedule_group,
            "AWS::IAM::Role": self._role,
            "AWS::Cognito::UserPool": self._user_pool,
            "AWS::Cognito::UserPoolClient": self._user_pool_client,
            "AWS::Cognito::UserPoolGroup": self._user_pool_group,
            "AWS::Logs::LogGroup": self._log_group,
            "AWS::Serverless::Function": self._function,
            "AWS::Serverless::HttpApi": self._http_api,
            "AWS::Serverless::LayerVersion": self._layer,
            "AWS::SQS::Queue": self._queue,
            "AWS::SecretsManager::Secret": self._secret,
            "AWS::SNS::Topic": self._topic,
            "AWS::CloudWatch::Alarm": self._alarm,
            "AWS::Scheduler::Schedule": self._schedule,
            "AWS::S3::Bucket": self._bucket,
            "AWS::Events::EventBus": self._event_bus,
            # The WebSocket API: the local stack's own WebSocket server serves its routes from
            # the template (``websocket``); moto has no socket server to create them on.
            "AWS::ApiGatewayV2::Api": self._websocket_api,
            "AWS::ApiGatewayV2::Integration": self._served_locally,
            "AWS::ApiGatewayV2::Route": self._served_locally,
            "AWS::ApiGatewayV2::RouteResponse": self._served_locally,
            "AWS::ApiGatewayV2::Stage": self._stage,
            "AWS::Lambda::Permission": self._served_locally,
            # The web client: the local stack serves web/ itself at / (``server``).
            "AWS::CloudFront::OriginAccessControl": self._origin_access_control,
            "AWS::CloudFront::Distribution": self._distribution,
            "AWS::S3::BucketPolicy": self._served_locally,
            # SNS platform applications: what the template's provider function does for
            # CloudFormation, done here with the same code (``notify.platforms``).
            "Custom::PushPlatformApplication": self._push_platform_application,
            # The daily duel's preparation: its function is sent the Create request once the
            # stack's functions can run (``run_deploy_requests``), as CloudFormation sends it.
            "Custom::DailyPreparation": self._function_served,
        }
        self.deploy_requests: list[tuple[str, dict[str, Any]]] = []

    # ------------------------------------------------------------------ resolution
    def ensure(self, logical_id: str) -> Physical:
        """The resource's physical ids, creating it first if needed."""
        if logical_id in self.created:
            return self.created[logical_id]
        resource = self.template.resources.get(logical_id)
        if resource is None:
            raise TemplateError(f"{logical_id} is referenced but not declared")
        if logical_id in self._in_progress:
            raise TemplateError(f"{logical_id} depends on itself")
        creator = self._creators.get(resource["Type"])
        if creator is None:
            raise TemplateError(f"{logical_id}: the local stack cannot create {resource['Type']}")
        self._in_progress.add(logical_id)
        try:
            physical = creator(logical_id, resource.get("Properties", {}))
        finally:
            self._in_progress.discard(logical_id)
        self.created[logical_id] = physical
        return physical

    def resolve(self, value: Any) -> Any:
        """Resolve Ref, GetAtt, Sub and Join anywhere inside ``value``."""
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, Mapping):
            return value
        if len(value) == 1:
            (key, arg), *_ = value.items()
            if key == "Ref":
                return self._ref(str(arg))
            if key == "Fn::GetAtt":
                target, attr = arg if isinstance(arg, list) else str(arg).split(".", 1)
                return self._get_att(str(target), str(attr))
            if key == "Fn::Sub":
                return self._sub(arg)
            if key == "Fn::Join":
                separator, parts = arg
                return str(separator).join(str(p) for p in self.resolve(parts))
        return {k: self.resolve(v) for k, v in value.items()}

    def _ref(self, name: str) -> str:
        if name in self._pseudo:
            return self._pseudo[name]
        if name in LOCAL_PARAMETERS:
            return LOCAL_PARAMETERS[name]
        defaults = self.template.parameter_defaults
        if name in defaults:
            if defaults[name] is None:
                raise TemplateError(f"parameter {name} has no default and no local value")
            return str(defaults[name])
        return self.ensure(name).ref

    def _get_att(self, logical_id: str, attr: str) -> str:
        attributes = self.ensure(logical_id).attributes
        if attr not in attributes:
            raise TemplateError(f"{logical_id} has no attribute {attr} in the local stack")
        return attributes[attr]

    def _sub(self, arg: Any) -> str:
        text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])
        resolved_vars = {k: str(self.resolve(v)) for k, v in variables.items()}

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in resolved_vars:
                return resolved_vars[name]
            if "." in name and not name.startswith("AWS::"):
                target, attr = name.split(".", 1)
                return self._get_att(target, attr)
            return self._ref(name)

        return self._dynamic_references(_SUB_VAR.sub(one, str(text)))

    def _dynamic_references(self, text: str) -> str:
        """``{{resolve:secretsmanager:ID}}`` replaced by the secret's value, as CloudFormation
        resolves a dynamic reference at deploy time (only whole SecretStrings are used here)."""

        def one(match: re.Match[str]) -> str:
            if match.group("service") != "secretsmanager":
                raise TemplateError(f"the local stack cannot resolve {match.group(0)}")
            secret_id = match.group("rest").split(":SecretString", 1)[0]
            answer = self._client("secretsmanager").get_secret_value(SecretId=secret_id)
            return str(answer["SecretString"])

        return _DYNAMIC_REFERENCE.sub(one, text)

    def _props(self, props: dict[str, Any]) -> dict[str, Any]:
        resolved: dict[str, Any] = self.resolve(props)
        return resolved

    def _client(self, service: str) -> Any:
        """One client per service for the whole build (making one costs about 18 ms, and
        the build makes seventy calls)."""
        client = self._clients.get(service)
        if client is None:
            client = boto3.client(service, region_name=self.region)  # type: ignore[call-overload]
            self._clients[service] = client
        return client

    def _arn(self, service: str, resource: str, *, region: bool = True) -> str:
        return f"arn:aws:{service}:{self.region if region else ''}:{ACCOUNT_ID}:{resource}"

    # ------------------------------------------------------------------ creators
    def _table(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("TableName") or f"{self.stack_name}-{logical_id}"
        kwargs: dict[str, Any] = {
            "TableName": name,
            "AttributeDefinitions": p["AttributeDefinitions"],
            "KeySchema": p["KeySchema"],
            "BillingMode": p.get("BillingMode", "PAY_PER_REQUEST"),
        }
        if p.get("GlobalSecondaryIndexes"):
            kwargs["GlobalSecondaryIndexes"] = [
                {k: v for k, v in gsi.items() if k != "ContributorInsightsSpecification"}
                for gsi in p["GlobalSecondaryIndexes"]
            ]
        if p.get("SSESpecification", {}).get("SSEEnabled"):
            kwargs["SSESpecification"] = {"Enabled": True}
        stream = p.get("StreamSpecification")
        if stream:
            kwargs["StreamSpecification"] = {
                "StreamEnabled": True,
                "StreamViewType": stream["StreamViewType"],
            }
        dynamodb = self._client("dynamodb")
        table = dynamodb.create_table(**kwargs)["TableDescription"]
        ttl = p.get("TimeToLiveSpecification")
        if ttl and ttl.get("Enabled"):
            dynamodb.update_time_to_live(
                TableName=name,
                TimeToLiveSpecification={"AttributeName": ttl["AttributeName"], "Enabled": True},
            )
        if p.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled"):
            dynamodb.update_continuous_backups(
                TableName=name,
                PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True},
            )
        attributes = {"Arn": table["TableArn"]}
        if "LatestStreamArn" in table:
            attributes["StreamArn"] = table["LatestStreamArn"]
        return Physical(name, attributes)

    def _kms_key(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        kms = self._client("kms")
        meta = kms.create_key(Description=p.get("Description", logical_id))["KeyMetadata"]
        if p.get("EnableKeyRotation"):
            kms.enable_key_rotation(KeyId=meta["KeyId"])
        return Physical(meta["KeyId"], {"Arn": meta["Arn"], "KeyId": meta["KeyId"]})

    def _kms_alias(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        self._client("kms").create_alias(AliasName=p["AliasName"], TargetKeyId=p["TargetKeyId"])
        return Physical(p["AliasName"])

    def _schedule_group(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("Name") or f"{self.stack_name}-{logical_id}"
        arn = self._client("scheduler").create_schedule_group(Name=name)["ScheduleGroupArn"]
        return Physical(name, {"Arn": arn})

    def _role(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("RoleName") or f"{self.stack_name}-{logical_id}"
        iam = self._client("iam")
        role = iam.create_role(
            RoleName=name,
            AssumeRolePolicyDocument=json.dumps(p["AssumeRolePolicyDocument"]),
        )["Role"]
        for policy in p.get("Policies", []):
            iam.put_role_policy(
                RoleName=name,
                PolicyName=policy["PolicyName"],
                PolicyDocument=json.dumps(policy["PolicyDocument"]),
            )
        return Physical(name, {"Arn": role["Arn"], "RoleId": role["RoleId"]})

    def _user_pool(self, logical_id: str, props: dict[str, Any]) -> Physical:
        """CreateUserPool with the template's settings, then SetUserPoolMfaConfig for TOTP and
        passkeys, the two calls a deployment makes. moto keeps what CreateUserPool is given and
        returns it from DescribeUserPool, but acts on little of it (docs/accounts.md)."""
        p = self._props(props)
        kwargs = {k: p[k] for k in _USER_POOL_KEYS if k in p}
        cognito = self._client("cognito-idp")
        pool = cognito.create_user_pool(
            PoolName=p.get("UserPoolName") or f"{self.stack_name}-{logical_id}", **kwargs
        )["UserPool"]
        mfa: dict[str, Any] = {}
        if "SOFTWARE_TOKEN_MFA" in p.get("EnabledMfas", []):
            mfa["SoftwareTokenMfaConfiguration"] = {"Enabled": True}
        webauthn = {
            api_name: p[cfn_name] for cfn_name, api_name in _WEBAUTHN_KEYS.items() if cfn_name in p
        }
        if webauthn:
            mfa["WebAuthnConfiguration"] = webauthn
        if mfa:
            cognito.set_user_pool_mfa_config(
                UserPoolId=pool["Id"], MfaConfiguration=p.get("MfaConfiguration", "OFF"), **mfa
            )
        return Physical(
            pool["Id"],
            {
                "Arn": pool["Arn"],
                "ProviderName": f"cognito-idp.{self.region}.amazonaws.com/{pool['Id']}",
                "ProviderURL": f"https://cognito-idp.{self.region}.amazonaws.com/{pool['Id']}",
            },
        )

    def _user_pool_client(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        kwargs = {k: p[k] for k in _USER_POOL_CLIENT_KEYS if k in p}
        client = self._client("cognito-idp").create_user_pool_client(
            UserPoolId=p["UserPoolId"],
            ClientName=p.get("ClientName") or logical_id,
            **kwargs,
        )["UserPoolClient"]
        return Physical(client["ClientId"])

    def _user_pool_group(self, logical_id: str, props: dict[str, Any]) -> Physical:
        """CreateGroup: moto then puts the group in its members' tokens (``cognito:groups``)."""
        p = self._props(props)
        kwargs = {k: p[k] for k in ("Description", "Precedence") if k in p}
        group = self._client("cognito-idp").create_group(
            GroupName=p["GroupName"], UserPoolId=p["UserPoolId"], **kwargs
        )["Group"]
        return Physical(group["GroupName"])

    def _log_group(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("LogGroupName") or f"/{self.stack_name}/{logical_id}"
        logs = self._client("logs")
        logs.create_log_group(logGroupName=name)
        if p.get("RetentionInDays"):
            logs.put_retention_policy(logGroupName=name, retentionInDays=int(p["RetentionInDays"]))
        return Physical(name, {"Arn": self._arn("logs", f"log-group:{name}:*")})

    def _queue(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("QueueName") or f"{self.stack_name}-{logical_id}"
        attributes: dict[str, str] = {
            key: str(p[key])
            for key in ("MessageRetentionPeriod", "VisibilityTimeout", "SqsManagedSseEnabled")
            if key in p
        }
        if "RedrivePolicy" in p:
            redrive = p["RedrivePolicy"]
            attributes["RedrivePolicy"] = json.dumps(
                {
                    "deadLetterTargetArn": redrive["deadLetterTargetArn"],
                    "maxReceiveCount": int(redrive["maxReceiveCount"]),
                }
            )
        sqs = self._client("sqs")
        url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        return Physical(url, {"Arn": arn, "QueueName": name, "QueueUrl": url})

    def _secret(self, logical_id: str, props: dict[str, Any]) -> Physical:
        """A secret, its value generated as ``GenerateSecretString`` asks (Secrets Manager's own
        random password, which CloudFormation uses too)."""
        p = self._props(props)
        name = p.get("Name") or f"{self.stack_name}-{logical_id}"
        client = self._client("secretsmanager")
        spec = p.get("GenerateSecretString")
        if spec is not None:
            options = {k: v for k, v in spec.items() if k in _PASSWORD_OPTIONS}
            value = client.get_random_password(**options)["RandomPassword"]
        else:
            value = str(p["SecretString"])
        arn = client.create_secret(Name=name, SecretString=value)["ARN"]
        return Physical(arn, {"Id": arn})

    def _topic(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("TopicName") or f"{self.stack_name}-{logical_id}"
        arn = self._client("sns").create_topic(Name=name)["TopicArn"]
        return Physical(arn, {"TopicArn": arn, "TopicName": name})

    def _alarm(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("AlarmName") or f"{self.stack_name}-{logical_id}"
        keys = (
            "AlarmDescription",
            "Namespace",
            "MetricName",
            "Dimensions",
            "Statistic",
            "Period",
            "EvaluationPeriods",
            "Threshold",
            "ComparisonOperator",
            "TreatMissingData",
            "AlarmActions",
        )
        kwargs = {k: p[k] for k in keys if k in p}
        for number in ("Period", "EvaluationPeriods"):
            if number in kwargs:
                kwargs[number] = int(kwargs[number])
        if "Threshold" in kwargs:
            kwargs["Threshold"] = float(kwargs["Threshold"])
        self._client("cloudwatch").put_metric_alarm(AlarmName=name, **kwargs)
        return Physical(name, {"Arn": self._arn("cloudwatch", f"alarm:{name}")})

    def _schedule(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("Name") or f"{self.stack_name}-{logical_id}"
        keys = (
            "GroupName",
            "Description",
            "ScheduleExpression",
            "ScheduleExpressionTimezone",
            "FlexibleTimeWindow",
            "Target",
            "State",
        )
        kwargs = {k: p[k] for k in keys if k in p}
        target = kwargs.get("Target", {})
        if "RetryPolicy" in target:
            target["RetryPolicy"] = {k: int(v) for k, v in target["RetryPolicy"].items()}
        arn = self._client("scheduler").create_schedule(Name=name, **kwargs)["ScheduleArn"]
        return Physical(name, {"Arn": arn})

    def _bucket(self, logical_id: str, props: dict[str, Any]) -> Physical:
        """CreateBucket, then one call per setting, as CloudFormation makes them: public access
        block, ownership, default encryption, lifecycle rules (CloudFormation's shorthand turned
        into the API's shape) and CORS. A setting the local stack cannot translate is an error
        rather than silently left out."""
        p = self._props(props)
        unknown = set(p) - _BUCKET_KEYS
        if unknown:
            raise TemplateError(f"{logical_id}: the local stack cannot apply {sorted(unknown)}")
        name = p.get("BucketName") or f"{self.stack_name}-{logical_id}".lower()
        s3 = self._client("s3")
        create: dict[str, Any] = {"Bucket": name}
        if self.region != "us-east-1":
            create["CreateBucketConfiguration"] = {"LocationConstraint": self.region}
        s3.create_bucket(**create)
        if "PublicAccessBlockConfiguration" in p:
            s3.put_public_access_block(
                Bucket=name, PublicAccessBlockConfiguration=p["PublicAccessBlockConfiguration"]
            )
        if "OwnershipControls" in p:
            s3.put_bucket_ownership_controls(Bucket=name, OwnershipControls=p["OwnershipControls"])
        if "BucketEncryption" in p:
            rules = [
                {
                    "ApplyServerSideEncryptionByDefault": rule["ServerSideEncryptionByDefault"],
                    **(
                        {"BucketKeyEnabled": rule["BucketKeyEnabled"]}
                        if "BucketKeyEnabled" in rule
                        else {}
                    ),
                }
                for rule in p["BucketEncryption"]["ServerSideEncryptionConfiguration"]
            ]
            s3.put_bucket_encryption(
                Bucket=name, ServerSideEncryptionConfiguration={"Rules": rules}
            )
        if "LifecycleConfiguration" in p:
            rules = [_lifecycle_rule(logical_id, r) for r in p["LifecycleConfiguration"]["Rules"]]
            s3.put_bucket_lifecycle_configuration(
                Bucket=name, LifecycleConfiguration={"Rules": rules}
            )
        if "CorsConfiguration" in p:
            cors = [_cors_rule(rule) for rule in p["CorsConfiguration"]["CorsRules"]]
            s3.put_bucket_cors(Bucket=name, CORSConfiguration={"CORSRules": cors})
        return Physical(
            name,
            {
                "Arn": f"arn:aws:s3:::{name}",
                "DomainName": f"{name}.s3.amazonaws.com",
                "RegionalDomainName": f"{name}.s3.{self.region}.amazonaws.com",
            },
        )

    def _event_bus(self, logical_id: str, props: dict[str, Any]) -> Physical:
        p = self._props(props)
        name = p.get("Name") or f"{self.stack_name}-{logical_id}"
        arn = self._client("events").create_event_bus(Name=name)["EventBusArn"]
        return Physical(name, {"Arn": arn, "Name": name})

    def _websocket_api(self, logical_id: str, props: dict[str, Any]) -> Physical:
        api_id = f"local{logical_id.lower()}"
        return Physical(
            api_id,
            {
                "ApiId": api_id,
                "ApiEndpoint": f"wss://{api_id}.execute-api.{self.region}.amazonaws.com",
            },
        )

    def _stage(self, logical_id: str, props: dict[str, Any]) -> Physical:
        return Physical(str(self.resolve(props.get("StageName", logical_id))))

    def _served_locally(self, logical_id: str, props: dict[str, Any]) -> Physical:
        """A resource the local stack serves itself from the template; its references are
        resolved (so they are checked) and nothing is created."""
        self._props(props)
        return Physical(f"local-{logical_id.lower()}")

    def _origin_access_control(self, logical_id: str, props: dict[str, Any]) -> Physical:
        return Physical(f"local-{logical_id.lower()}", {"Id": f"local-{logical_id.lower()}"})

    def _distribution(self, logical_id: str, props: dict[str, Any]) -> Physical:
        self._props(props)
        return Physical(
            f"local-{logical_id.lower()}", {"DomainName": "localhost", "Id": logical_id.lower()}
        )

    def _function_served(self, logical_id: str, props: dict[str, Any]) -> Physical:
        """A custom resource whose ``ServiceToken`` is a function of the stack: its Create
        request is kept for ``run_deploy_requests``."""
        p = self._props(props)
        token = str(p.pop("ServiceToken"))
        self.deploy_requests.append(
            (
                token,
                {
                    "RequestType": "Create",
                    "ServiceToken": token,
                    "StackId": f"local:{self.stack_name}",
                    "RequestId": f"local-{logical_id.lower()}",
                    "LogicalResourceId": logical_id,
                    "ResourceType": self.template.resources[logical_id]["Type"],
                    "ResourceProperties": {"ServiceToken": token, **p},
                },
            )
        )
        return Physical(f"local-{logical_id.lower()}")

    def _push_platform_application(self, logical_id: str, props: dict[str, Any]) -> Physical:
        from mineduel_service.notify.platforms import (  # noqa: PLC0415  (the provider's own code)
            apply,
        )

        p = self._props(props)
        p.pop("ServiceToken", None)
        done = apply("Create", p, None, sns=self._client("sns"))
        return Physical(done.physical_id, {"Arn": done.arn})

    def _function(self, logical_id: str, props: dict[str, Any]) -> Physical:
        name = self.resolve(props.get("FunctionName")) or logical_id
        return Physical(name, {"Arn": self._arn("lambda", f"function:{name}")})

    def _http_api(self, logical_id: str, props: dict[str, Any]) -> Physical:
        return Physical(f"local-{logical_id.lower()}")

    def _layer(self, logical_id: str, props: dict[str, Any]) -> Physical:
        return Physical(self._arn("lambda", f"layer:{logical_id}:1"))


# AWS::Cognito::UserPool properties that CreateUserPool takes under the same name. MFA and
# passkeys go to SetUserPoolMfaConfig instead (EnabledMfas, WebAuthn*), as CloudFormation does.
_USER_POOL_KEYS = (
    "UserPoolTier",
    "Policies",
    "UsernameAttributes",
    "UsernameConfiguration",
    "AutoVerifiedAttributes",
    "VerificationMessageTemplate",
    "UserAttributeUpdateSettings",
    "AccountRecoverySetting",
    "MfaConfiguration",
    "DeletionProtection",
)
_WEBAUTHN_KEYS = {
    "WebAuthnRelyingPartyID": "RelyingPartyId",
    "WebAuthnUserVerification": "UserVerification",
    "WebAuthnFactorConfiguration": "FactorConfiguration",
}
_USER_POOL_CLIENT_KEYS = (
    "GenerateSecret",
    "ExplicitAuthFlows",
    "PreventUserExistenceErrors",
    "EnableTokenRevocation",
    "AccessTokenValidity",
    "IdTokenValidity",
    "RefreshTokenValidity",
    "TokenValidityUnits",
    "AuthSessionValidity",
)
_BUCKET_KEYS = {
    "BucketName",
    "PublicAccessBlockConfiguration",
    "OwnershipControls",
    "BucketEncryption",
    "LifecycleConfiguration",
    "CorsConfiguration",
}
_LIFECYCLE_KEYS = {"Id", "Status", "Prefix", "ExpirationInDays", "AbortIncompleteMultipartUpload"}


def _lifecycle_rule(logical_id: str, rule: dict[str, Any]) -> dict[str, Any]:
    """A CloudFormation lifecycle rule in PutBucketLifecycleConfiguration's shape."""
    unknown = set(rule) - _LIFECYCLE_KEYS
    if unknown:
        raise TemplateError(f"{logical_id}: the local stack cannot apply {sorted(unknown)}")
    api: dict[str, Any] = {"Status": rule["Status"], "Filter": {"Prefix": rule.get("Prefix", "")}}
    if "Id" in rule:
        api["ID"] = rule["Id"]
    if "ExpirationInDays" in rule:
        api["Expiration"] = {"Days": int(rule["ExpirationInDays"])}
    if "AbortIncompleteMultipartUpload" in rule:
        days = rule["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"]
        api["AbortIncompleteMultipartUpload"] = {"DaysAfterInitiation": int(days)}
    return api


def _cors_rule(rule: dict[str, Any]) -> dict[str, Any]:
    """A CloudFormation CORS rule in PutBucketCors's shape."""
    api: dict[str, Any] = {
        "AllowedMethods": rule["AllowedMethods"],
        "AllowedOrigins": rule["AllowedOrigins"],
    }
    for cfn_name, api_name in (
        ("Id", "ID"),
        ("AllowedHeaders", "AllowedHeaders"),
        ("ExposedHeaders", "ExposeHeaders"),
    ):
        if cfn_name in rule:
            api[api_name] = rule[cfn_name]
    if "MaxAge" in rule:
        api["MaxAgeSeconds"] = int(rule["MaxAge"])
    return api
