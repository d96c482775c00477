"""template.yaml wires every docs/api.md route to its own function with least privilege, and the
local stack provisions exactly what it declares."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
from mineduel_service.platform.config import get_config

from mineduel.local.websocket import WebSocketRoutes
from mineduel.template import load_template

if TYPE_CHECKING:
    from mineduel.local.provision import LocalStack

API_MD_ROUTES = {
    ("POST", "/v1/guests"): "GuestsFunction",
    ("POST", "/v1/games"): "CreateGameFunction",
    ("POST", "/v1/games/{game_id}/join"): "JoinGameFunction",
    ("GET", "/v1/games/{game_id}"): "GetGameFunction",
    ("POST", "/v1/games/{game_id}/moves"): "CommitMoveFunction",
    ("POST", "/v1/games/{game_id}/resign"): "ResignFunction",
    ("POST", "/v1/games/{game_id}/timeout"): "ClaimTimeoutFunction",
    ("GET", "/v1/me"): "ProfileFunction",
    ("PUT", "/v1/me"): "ProfileFunction",
    ("GET", "/v1/me/games"): "MyGamesFunction",
    ("GET", "/v1/me/invites"): "MyGamesFunction",
    ("POST", "/v1/me/claim"): "ClaimGuestFunction",
    ("GET", "/v1/players/{username}"): "PlayersFunction",
    ("GET", "/v1/players/{username}/games"): "PlayersFunction",
    ("GET", "/v1/lobby"): "LobbyFunction",
    ("POST", "/v1/games/{game_id}/decline"): "WaitingGamesFunction",
    ("DELETE", "/v1/games/{game_id}"): "WaitingGamesFunction",
    ("POST", "/v1/games/{game_id}/rematch"): "RematchFunction",
    ("GET", "/v1/games/{game_id}/summary"): "GameSummaryFunction",
    ("GET", "/share/{game_id}"): "GameSummaryFunction",
    ("POST", "/v1/me/avatar"): "AvatarUploadFunction",
    ("PUT", "/v1/me/avatar"): "AvatarUploadFunction",
    ("GET", "/v1/avatars/{avatar_id}"): "AvatarImageFunction",
    ("GET", "/v1/games/{game_id}/moves"): "ListMovesFunction",
    ("GET", "/v1/games/{game_id}/verify"): "VerifyFunction",
    ("GET", "/v1/leaderboards/{variant}"): "LeaderboardFunction",
    ("ANY", "$default"): "NoRouteFunction",  # whatever no other route matches
    ("GET", "/v1/games/{game_id}/analysis"): "GameAnalysisFunction",
    ("GET", "/v1/daily"): "DailyFunction",
    ("GET", "/v1/daily/{date}/table"): "DailyFunction",
    ("POST", "/v1/daily/play"): "DailyPlayFunction",
    ("GET", "/v1/players/{username}/games/export"): "PlayerExportFunction",
    ("GET", "/v1/exports"): "ExportsFunction",
    ("DELETE", "/v1/games/{game_id}/spectators"): "SpectatorsFunction",
    ("GET", "/v1/push/vapid-key"): "PushKeyFunction",
    ("POST", "/v1/me/push-subscriptions"): "PushSubscriptionsFunction",
    ("GET", "/v1/me/push-subscriptions"): "PushSubscriptionsFunction",
    ("DELETE", "/v1/me/push-subscriptions/{subscription_id}"): "PushSubscriptionsFunction",
    ("POST", "/v1/seeks"): "SeeksFunction",
    ("GET", "/v1/seeks"): "SeeksFunction",
    ("GET", "/v1/seeks/{seek_id}"): "SeeksFunction",
    ("DELETE", "/v1/seeks/{seek_id}"): "SeeksFunction",
    ("GET", "/v1/players/{username}/fair-play"): "FairPlayFunction",
    ("GET", "/v1/moderation/cases"): "ModerationFunction",
    ("POST", "/v1/moderation/cases/{case_id}"): "ModerationFunction",
}
ROOT = Path(__file__).resolve().parents[2]
SEED_READERS = {
    "CommitMoveFunction",
    "ResignFunction",
    "ClaimTimeoutFunction",
    "ExpireTurnFunction",
    "SweepDeadlinesFunction",
    # the daily duel's month keys (encryption context daily_month, never a game's seed)
    "DailyPlayFunction",
    "DailyHousekeepingFunction",
}
MONTH_KEY_READERS = {"DailyPlayFunction", "DailyHousekeepingFunction"}
VAPID_KEY_READERS = {"NotifyDeliverFunction"}
"""Parameter Store decrypts the VAPID private key with the stack's key for it, under the
parameter's own encryption context (never a game's)."""
UNROUTED = {
    "ExpireTurnFunction",
    "SweepDeadlinesFunction",
    "LeaderboardSnapshotFunction",
    "DailyHousekeepingFunction",
    "MonthlyExportFunction",
    "FairPlayScreenFunction",
    "LiveConnectFunction",
    "LiveDisconnectFunction",
    "LiveMessageFunction",
    "LiveFanoutFunction",
    "NotifyDeliverFunction",
    "PushPlatformsFunction",
}
WEBSOCKET_ROUTES = {
    "$connect": "LiveConnectFunction",
    "$disconnect": "LiveDisconnectFunction",
    "$default": "LiveMessageFunction",
}


def _statements(properties: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for policy in properties.get("Policies", []) for s in policy.get("Statement", [])]


def _actions(properties: dict[str, Any]) -> set[str]:
    actions: set[str] = set()
    for statement in _statements(properties):
        found = statement["Action"]
        actions.update([found] if isinstance(found, str) else found)
    return actions


API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_docs_api_md_lists_every_route_of_the_template() -> None:
    """docs/api.md's route table is the index of the contract: every route API Gateway is given
    is in it (query strings aside), and nothing else is."""
    text = API_MD.read_text(encoding="utf-8")
    table = text.split("\n## Routes\n", 1)[1].strip().split("\n\n", 1)[0]
    listed = set()
    for row in table.splitlines()[2:]:
        method, path = row.split("`")[1].split(" ", 1)
        listed.add((method, path.split("?", 1)[0]))
    routes = {(r.method, r.path) for r, _ in load_template().routes() if r.path != "$default"}
    assert listed == routes


def test_every_api_md_route_has_exactly_one_function() -> None:
    template = load_template()
    routes = {(r.method, r.path): fn.logical_id for r, fn in template.routes()}
    assert routes == API_MD_ROUTES
    assert set(template.functions) == {*API_MD_ROUTES.values(), *UNROUTED}
    for fn in template.functions.values():
        assert fn.handler == "app.lambda_handler"
        assert fn.module_file.is_file(), fn.module_file
        assert fn.code_dir.parent.name == "functions"
    for logical_id in UNROUTED:
        assert template.functions[logical_id].routes == ()
    apis = template.resources_of_type("AWS::Serverless::HttpApi")
    assert list(apis) == ["HttpApi"]
    for fn in template.functions.values():
        for event in fn.properties.get("Events", {}).values():
            if event["Type"] == "DynamoDB":  # the fan-out, on the table's stream
                assert fn.logical_id == "LiveFanoutFunction"
                assert event["Properties"]["Stream"] == {"Fn::GetAtt": ["GamesTable", "StreamArn"]}
                continue
            if event["Type"] == "SQS":  # the notifications, behind their queue
                assert fn.logical_id == "NotifyDeliverFunction"
                assert event["Properties"]["Queue"] == {"Fn::GetAtt": ["NotifyQueue", "Arn"]}
                continue
            assert event["Properties"]["ApiId"] == {"Ref": "HttpApi"}


def test_the_websocket_api_routes_each_route_to_its_function() -> None:
    template = load_template()
    (api,) = template.resources_of_type("AWS::ApiGatewayV2::Api").values()
    assert api["Properties"]["ProtocolType"] == "WEBSOCKET"
    routes = WebSocketRoutes.from_template(template, "api", "live")
    assert routes.functions == WEBSOCKET_ROUTES
    assert routes.responding == {"$default"}
    permissions = template.resources_of_type("AWS::Lambda::Permission").values()
    allowed = {p["Properties"]["FunctionName"]["Ref"] for p in permissions}
    assert allowed == set(WEBSOCKET_ROUTES.values())


def test_only_the_seed_readers_may_decrypt_and_nothing_is_a_wildcard() -> None:
    template = load_template()
    for logical_id, fn in template.functions.items():
        actions = _actions(fn.properties)
        readers = SEED_READERS | VAPID_KEY_READERS
        assert ("kms:Decrypt" in actions) == (logical_id in readers), logical_id
        assert not any(a.endswith("*") for a in actions), logical_id
        for statement in _statements(fn.properties):
            assert statement["Resource"] != "*", logical_id
    # The read path may only ask the expiry function to record a passed deadline.
    assert _actions(template.functions["GetGameFunction"].properties) == {
        "dynamodb:Query",  # the game and its subscriptions (the count of watchers) in one read
        "lambda:InvokeFunction",
    }
    assert "kms:Encrypt" in _actions(template.functions["CreateGameFunction"].properties)


def test_the_table_key_and_pool_are_provisioned_as_declared(stack: LocalStack) -> None:
    config = get_config()
    dynamodb = boto3.client("dynamodb", region_name=config.region)
    table = dynamodb.describe_table(TableName=config.table_name)["Table"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    ttl = dynamodb.describe_time_to_live(TableName=config.table_name)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_ttl"}
    backups = dynamodb.describe_continuous_backups(TableName=config.table_name)
    pitr = backups["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert pitr["PointInTimeRecoveryStatus"] == "ENABLED"
    kms = boto3.client("kms", region_name=config.region)
    assert kms.get_key_rotation_status(KeyId=config.seed_key_id)["KeyRotationEnabled"]
    scheduler = boto3.client("scheduler", region_name=config.region)
    assert scheduler.get_schedule_group(Name=config.schedule_group)["State"] == "ACTIVE"
    iam = boto3.client("iam", region_name=config.region)
    role = iam.get_role(RoleName=config.scheduler_role_arn.rsplit("/", 1)[1])["Role"]
    principal = role["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
    assert principal == {"Service": "scheduler.amazonaws.com"}
    logs = boto3.client("logs", region_name=config.region)
    access_logs = stack.ref("ApiAccessLogs")
    group = logs.describe_log_groups(logGroupNamePrefix=access_logs)["logGroups"][0]
    assert group["retentionInDays"] == 30
    functions = logs.describe_log_groups(logGroupNamePrefix=stack.ref("FunctionLogs"))
    assert functions["logGroups"][0]["retentionInDays"] == 30
    cognito = boto3.client("cognito-idp", region_name=config.region)
    client = cognito.describe_user_pool_client(
        UserPoolId=config.user_pool_id, ClientId=config.user_pool_client_id
    )["UserPoolClient"]
    declared = load_template().resources["UserPoolClient"]["Properties"]
    assert client["ExplicitAuthFlows"] == declared["ExplicitAuthFlows"]
    pool = cognito.describe_user_pool(UserPoolId=config.user_pool_id)["UserPool"]
    assert pool["UsernameAttributes"] == ["email"]
    assert pool["UserPoolTier"] == "ESSENTIALS"
    assert pool["Policies"]["SignInPolicy"]["AllowedFirstAuthFactors"] == ["PASSWORD", "WEB_AUTHN"]
    mfa = cognito.get_user_pool_mfa_config(UserPoolId=config.user_pool_id)
    assert mfa["MfaConfiguration"] == "OPTIONAL"
    assert mfa["SoftwareTokenMfaConfiguration"] == {"Enabled": True}


def test_the_user_pool_takes_email_sign_up_optional_totp_and_passkeys() -> None:
    """Read from the template, because moto keeps these settings but cannot act on WebAuthn."""
    template = load_template()
    pool = template.resources["UserPool"]["Properties"]
    assert pool["UsernameAttributes"] == ["email"]
    assert pool["UsernameConfiguration"] == {"CaseSensitive": False}
    assert pool["AutoVerifiedAttributes"] == ["email"]
    assert pool["VerificationMessageTemplate"]["DefaultEmailOption"] == "CONFIRM_WITH_CODE"
    assert pool["MfaConfiguration"] == "OPTIONAL"
    assert pool["EnabledMfas"] == ["SOFTWARE_TOKEN_MFA"]
    assert pool["UserPoolTier"] == "ESSENTIALS"  # passkeys and the sign-in policy need it
    assert pool["WebAuthnRelyingPartyID"] == {"Ref": "PasskeyRelyingPartyId"}
    assert "Default" not in template.body["Parameters"]["PasskeyRelyingPartyId"]
    assert pool["WebAuthnUserVerification"] == "required"
    assert pool["WebAuthnFactorConfiguration"] == "MULTI_FACTOR_WITH_USER_VERIFICATION"
    factors = pool["Policies"]["SignInPolicy"]["AllowedFirstAuthFactors"]
    assert set(factors) == {"PASSWORD", "WEB_AUTHN"}

    client = template.resources["UserPoolClient"]["Properties"]
    assert client["UserPoolId"] == {"Ref": "UserPool"}
    assert client["GenerateSecret"] is False  # apps and the CLI cannot keep a secret
    assert set(client["ExplicitAuthFlows"]) == {
        "ALLOW_USER_AUTH",
        "ALLOW_USER_SRP_AUTH",
        "ALLOW_USER_PASSWORD_AUTH",
        "ALLOW_REFRESH_TOKEN_AUTH",
    }
    assert client["PreventUserExistenceErrors"] == "ENABLED"
    units = client["TokenValidityUnits"]
    assert (client["AccessTokenValidity"], units["AccessToken"]) == (60, "minutes")
    assert (client["IdTokenValidity"], units["IdToken"]) == (60, "minutes")
    assert (client["RefreshTokenValidity"], units["RefreshToken"]) == (30, "days")
    assert 3 <= client["AuthSessionValidity"] <= 15


def test_the_client_config_output_names_the_provisioned_pool(stack: LocalStack) -> None:
    config = get_config()
    assert json.loads(stack.outputs["ClientConfig"]) == {
        "region": config.region,
        "user_pool_id": config.user_pool_id,
        "user_pool_client_id": config.user_pool_client_id,
        "api_url": stack.outputs["ApiUrl"],
        "websocket_url": stack.outputs["LiveUrl"],
    }


def test_the_expiry_target_is_the_expiry_function(stack: LocalStack) -> None:
    arn = get_config().expiry_function_arn
    assert stack.function_for_arn(arn) == "ExpireTurnFunction"
    assert len(set(stack.function_arns.values())) == len(stack.function_arns)
    for env in stack.environments.values():
        assert all(isinstance(v, str) and "${" not in v for v in env.values())


def test_deadline_failures_have_somewhere_to_go_and_alarm(stack: LocalStack) -> None:
    """Scheduler's dead-letter queue, the expiry function's on-failure queue, and alarms on
    both and on the service's own ScheduleFailures and SweepFailures counts."""
    config = get_config()
    template = load_template()
    expiry = template.functions["ExpireTurnFunction"].properties["EventInvokeConfig"]
    assert expiry["DestinationConfig"]["OnFailure"]["Type"] == "SQS"
    sqs = boto3.client("sqs", region_name=config.region)
    for queue in ("ScheduleDeadLetterQueue", "ExpiryFailureQueue"):
        attributes = sqs.get_queue_attributes(QueueUrl=stack.ref(queue), AttributeNames=["All"])
        assert attributes["Attributes"]["MessageRetentionPeriod"] == "1209600"
    cloudwatch = boto3.client("cloudwatch", region_name=config.region)
    alarms = {a["MetricName"]: a for a in cloudwatch.describe_alarms()["MetricAlarms"]}
    assert {
        "ScheduleFailures",
        "SweepFailures",
        "ApproximateNumberOfMessagesVisible",
        "NotificationsNotQueued",
    } <= set(alarms)
    watched = {
        d["Value"]
        for a in cloudwatch.describe_alarms()["MetricAlarms"]
        for d in a["Dimensions"]
        if d["Name"] == "QueueName"
    }
    assert watched == {
        stack.attribute("ScheduleDeadLetterQueue", "QueueName"),
        stack.attribute("ExpiryFailureQueue", "QueueName"),
        stack.attribute("NotifyDeadLetterQueue", "QueueName"),
    }
    scheduler = boto3.client("scheduler", region_name=config.region)
    sweep = scheduler.get_schedule(
        Name=stack.ref("SweepSchedule"), GroupName=stack.ref("HousekeepingScheduleGroup")
    )
    assert sweep["ScheduleExpression"] == "rate(1 minute)"
    assert stack.function_for_arn(sweep["Target"]["Arn"]) == "SweepDeadlinesFunction"


def _s3_grants(properties: dict[str, Any]) -> set[tuple[str, str]]:
    """Each S3 action a function may take, with the bucket and prefix it may take it on."""
    grants = set()
    for statement in _statements(properties):
        actions = statement["Action"]
        for action in [actions] if isinstance(actions, str) else actions:
            if action.startswith("s3:"):
                resource = statement["Resource"]
                assert isinstance(resource, dict) and "Fn::Sub" in resource, resource
                grants.add((action, resource["Fn::Sub"].replace(".Arn}/", "}/")))
    return grants


def test_only_the_avatar_and_export_functions_touch_buckets_each_on_its_prefixes() -> None:
    template = load_template()
    grants = {fn: _s3_grants(spec.properties) for fn, spec in template.functions.items()}
    assert grants.pop("AvatarUploadFunction") == {
        ("s3:PutObject", "${AvatarBucket}/uploads/*"),
        ("s3:GetObject", "${AvatarBucket}/uploads/*"),
        ("s3:DeleteObject", "${AvatarBucket}/uploads/*"),
        ("s3:PutObject", "${AvatarBucket}/avatars/*"),
    }
    assert grants.pop("AvatarImageFunction") == {("s3:GetObject", "${AvatarBucket}/avatars/*")}
    assert grants.pop("MonthlyExportFunction") == {("s3:PutObject", "${ExportBucket}/exports/*")}
    assert grants.pop("ExportsFunction") == {("s3:GetObject", "${ExportBucket}/exports/*")}
    assert not any(grants.values()), grants
    for logical_id in ("AvatarUploadFunction", "AvatarImageFunction"):
        env = template.functions[logical_id].environment
        assert env["AVATAR_BUCKET"] == {"Ref": "AvatarBucket"}
    for logical_id in ("MonthlyExportFunction", "ExportsFunction"):
        env = template.functions[logical_id].environment
        assert env["EXPORT_BUCKET"] == {"Ref": "ExportBucket"}


def test_month_keys_are_decrypted_only_under_their_own_context() -> None:
    """The daily functions may decrypt a month key (context ``daily_month``), never a game's
    seed (context ``game_id``): no other function can read a day's seed before it is public."""
    template = load_template()
    for logical_id in MONTH_KEY_READERS:
        for statement in _statements(template.functions[logical_id].properties):
            actions = statement["Action"]
            if "kms:Decrypt" in ([actions] if isinstance(actions, str) else actions):
                assert set(statement["Condition"]["StringLike"]) == {
                    "kms:EncryptionContext:daily_month"
                }


def test_the_export_bucket_is_private_and_encrypted() -> None:
    bucket = load_template().resources["ExportBucket"]["Properties"]
    assert set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
    assert len(bucket["PublicAccessBlockConfiguration"]) == 4
    rule = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"


def test_the_avatar_bucket_is_private_encrypted_and_forgets_uploads() -> None:
    bucket = load_template().resources["AvatarBucket"]["Properties"]
    assert set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
    assert len(bucket["PublicAccessBlockConfiguration"]) == 4
    assert bucket["OwnershipControls"]["Rules"] == [{"ObjectOwnership": "BucketOwnerEnforced"}]
    rule = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    [lifecycle] = bucket["LifecycleConfiguration"]["Rules"]
    assert (lifecycle["Prefix"], lifecycle["ExpirationInDays"]) == ("uploads/", 1)
    assert bucket["CorsConfiguration"]["CorsRules"][0]["AllowedMethods"] == ["POST"]


_WITHOUT_PILLOW = """
import sys

class NoPillow:
    def find_spec(self, name, path=None, target=None):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("Pillow is not installed here")

sys.meta_path.insert(0, NoPillow())
from mineduel.template import load_handler_module
from mineduel.template import load_template
from mineduel.local.websocket import WebSocketRoutes

functions = load_template().functions
for logical_id, spec in functions.items():
    if logical_id != "AvatarUploadFunction":
        load_handler_module(spec)
try:
    load_handler_module(functions["AvatarUploadFunction"])
except ImportError:
    print("only the upload function needs Pillow")
"""


def test_pillow_is_the_avatar_upload_function_s_alone() -> None:
    """SAM installs a function's requirements.txt beside it: only the upload function brings
    Pillow, and every other function (with the service layer) loads without it."""
    template = load_template()
    for logical_id, fn in template.functions.items():
        requirements = fn.code_dir / "requirements.txt"
        if logical_id == "AvatarUploadFunction":
            assert "pillow" in requirements.read_text().lower()
        else:
            assert not requirements.exists(), logical_id
    assert "pillow" not in (ROOT / "layers" / "service" / "requirements.txt").read_text().lower()
    ran = subprocess.run(  # noqa: S603  (this interpreter, our own code)
        [sys.executable, "-c", _WITHOUT_PILLOW],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip() == "only the upload function needs Pillow"


def test_the_vapid_key_is_decrypted_only_under_its_parameter_s_context() -> None:
    """The delivery function may decrypt one thing with the stack's key: the VAPID private
    key, which Parameter Store decrypts under the parameter's ARN (never a game's seed)."""
    template = load_template()
    private = (
        "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:"
        "parameter/${AWS::StackName}/push/vapid/private"
    )
    for logical_id in VAPID_KEY_READERS | {"PushKeyFunction"}:  # decrypt; encrypt (making it)
        kms = [
            s
            for s in _statements(template.functions[logical_id].properties)
            if any(str(a).startswith("kms:") for a in s["Action"])
        ]
        assert kms, logical_id
        for statement in kms:
            assert statement["Condition"] == {
                "StringEquals": {"kms:EncryptionContext:PARAMETER_ARN": {"Fn::Sub": private}}
            }


def test_every_paginated_list_signs_its_cursors_with_the_stack_s_key() -> None:
    """A function that takes a ``cursor`` signs and checks cursors (platform.pagination), so it
    needs ``CURSOR_KEY``; the local stack exports every function's environment to its one
    process, so only the template can show a function without it."""
    for fn in load_template().functions.values():
        paginates = "cursor" in fn.module_file.read_text(encoding="utf-8")
        variables = fn.properties.get("Environment", {}).get("Variables", {})
        assert ("CURSOR_KEY" in variables) == paginates, fn.logical_id
