"""``mineduel account`` against the local stack, as a newcomer runs it: the pool found through
``GET /_local/config``, an account signed up, confirmed and signed in, an authenticator app set
up (moto checks TOTP codes here: ``MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP`` is on in the local
stack's embedded moto), and the printed token used on the API over HTTP.

Most runs are in-process (``mineduel.cli.main``); the TOTP set-up runs as a real process that
prints the secret and then waits for the app's code on standard input, which only a second
process can answer after reading the secret.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time

import boto3
import pytest
from moto.cognitoidp.utils import cognito_totp

from mineduel.cli import main as mineduel_main
from mineduel.local.stack import RunningStack
from mineduel.testing.accounts import claims_of
from mineduel.testing.api_client import ApiClient, http_transport

pytestmark = pytest.mark.http
PASSWORD = "Correct-Horse-42"
TOTP_STEP_S = 30


def account(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    """Run ``mineduel account ARGS`` in-process: exit code, stdout, stderr."""
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = mineduel_main(["account", *args])
    out, err = capsys.readouterr()
    return code, without_stack_output(out), err


def without_stack_output(out: str) -> str:
    """The command's own standard output. The stack serves from threads of this process, so
    a function that runs meanwhile (a stream consumer after a write, say) prints its log line
    or its metrics (one JSON object a line) into the same captured stream; on a real machine
    they are another process's output. Only whole lines that are a Powertools log record or an
    embedded-metrics document are dropped: everything else the command printed stays."""
    kept = []
    for line in out.splitlines(keepends=True):
        try:
            record = json.loads(line)
        except ValueError:
            kept.append(line)
            continue
        if isinstance(record, dict) and ("_aws" in record or "location" in record):
            continue
        kept.append(line)
    return "".join(kept)


def fresh_code(secret: str) -> str:
    """The authenticator's code now, never in the last seconds of its 30-second step (moto
    accepts only the current step's code)."""
    left = TOTP_STEP_S - time.time() % TOTP_STEP_S
    if left < 3:
        time.sleep(left + 0.2)
    return cognito_totp(secret).generate(int(time.time())).decode()


def confirmed_account(
    stack: RunningStack,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    email: str,
) -> None:
    api = ["--api", stack.url, "--email", email]
    assert account(capsys, monkeypatch, "sign-up", *api, "--password-stdin", stdin=PASSWORD)[0] == 0
    assert account(capsys, monkeypatch, "confirm", *api, "--code", "123456")[0] == 0


def test_local_config_names_the_pool_the_api_checks_tokens_against(stack: RunningStack) -> None:
    client = ApiClient(http_transport(stack.url))
    reply = client.call("GET", "/_local/config")
    assert reply.status == 200
    assert reply.headers["access-control-allow-origin"] == "*"
    config = reply.json()
    functions = stack.provisioned.merged_environment()
    assert config == {
        "region": stack.provisioned.region,
        "aws_endpoint": stack.endpoint_url,
        "user_pool_id": functions["USER_POOL_ID"],
        "user_pool_client_id": functions["USER_POOL_CLIENT_ID"],
        "websocket_url": stack.live.url,  # live push (docs/live.md)
    }
    cognito = boto3.client(
        "cognito-idp", region_name=config["region"], endpoint_url=config["aws_endpoint"]
    )
    described = cognito.describe_user_pool_client(
        UserPoolId=config["user_pool_id"], ClientId=config["user_pool_client_id"]
    )["UserPoolClient"]
    assert "ALLOW_USER_PASSWORD_AUTH" in described["ExplicitAuthFlows"]
    refused = client.call("POST", "/_local/config", {})
    assert refused.status == 405


def test_sign_up_confirm_sign_in_and_play_with_the_printed_token(
    stack: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    api = ["--api", stack.url, "--email", "Ada@Example.com"]
    code, out, err = account(
        capsys, monkeypatch, "sign-up", *api, "--password-stdin", stdin=PASSWORD
    )
    assert code == 0 and out == ""
    assert "ada@example.com" in err and "confirm" in err

    code, out, err = account(
        capsys, monkeypatch, "sign-in", *api, "--password-stdin", stdin=PASSWORD
    )
    assert code == 4 and out == ""
    assert "not confirmed" in err

    code, out, err = account(capsys, monkeypatch, "confirm", *api, stdin="123 456\n")
    assert code == 0 and "Confirmed ada@example.com" in err

    code, out, err = account(
        capsys, monkeypatch, "sign-in", *api, "--password-stdin", stdin=PASSWORD
    )
    assert code == 0 and "Bearer" in err
    token = out.strip()
    assert "\n" not in token
    claims = claims_of(token)
    assert claims["token_use"] == "access"
    assert claims["client_id"] == stack.provisioned.merged_environment()["USER_POOL_CLIENT_ID"]

    player = ApiClient(http_transport(stack.url), token)
    game = player.create_game()
    assert game["status"] == "active"
    assert game["seats"][0]["kind"] == "account"
    assert game["seats"][0]["player_id"] == claims["sub"]
    assert "@" not in game["seats"][0]["name"]

    code, out, _ = account(
        capsys, monkeypatch, "sign-in", *api, "--password-stdin", "--json", stdin=PASSWORD
    )
    tokens = json.loads(out)
    assert code == 0
    assert set(tokens) == {"access_token", "id_token", "refresh_token", "expires_in", "token_type"}
    assert claims_of(tokens["id_token"])["token_use"] == "id"
    as_id = ApiClient(http_transport(stack.url), tokens["id_token"]).call("GET", "/v1/games/x")
    assert as_id.status == 404  # authenticated, and no such game


@pytest.mark.parametrize(
    ("action", "extra", "stdin", "exit_code", "says"),
    [
        ("sign-up", ["--email", "taken@example.com"], PASSWORD, 5, "exists already"),
        ("sign-up", ["--email", "weak@example.com"], "short", 1, "12 characters"),
        (
            "sign-in",
            ["--email", "taken@example.com"],
            "Wrong-Horse-42",
            3,
            "Wrong email or password",
        ),
        ("sign-in", ["--email", "nobody@example.com"], PASSWORD, 3, "Wrong email or password"),
        ("sign-in", ["--email", "taken@example.com"], "", 2, "No password"),
        ("sign-in", ["--email", "not-an-email"], PASSWORD, 2, "not an email address"),
        ("confirm", ["--email", "taken@example.com", "--code", "12ab56"], "", 6, "6 digits"),
    ],
)
def test_refusals_are_one_line_and_an_exit_code(
    stack: RunningStack,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    action: str,
    extra: list[str],
    stdin: str,
    exit_code: int,
    says: str,
) -> None:
    taken = ["--api", stack.url, "--email", "taken@example.com", "--password-stdin"]
    account(capsys, monkeypatch, "sign-up", *taken, stdin=PASSWORD)  # first time only: 0
    args = ["--api", stack.url, *extra]
    if action != "confirm":
        args.append("--password-stdin")
    code, out, err = account(capsys, monkeypatch, action, *args, stdin=stdin)
    assert (code, out) == (exit_code, "")
    assert says in err
    assert err.startswith(f"mineduel account {action}: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--api", "http://127.0.0.1:9"], "No local stack answers"),
        (["--stack", "s", "--user-pool-client-id", "c"], "not both"),
        (["--api", "http://127.0.0.1:9", "--stack", "s"], "one or the other"),
        (["--region", "eu-west-1"], "--region goes with"),
    ],
)
def test_a_pool_that_cannot_be_found_is_exit_code_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    says: str,
) -> None:
    code, out, err = account(
        capsys, monkeypatch, "sign-in", *args, "--email", "a@example.com", "--password-stdin"
    )
    assert (code, out) == (2, "")
    assert says in err


def test_a_deployed_stack_is_found_by_its_outputs_or_by_client_id(
    stack: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The AWS ways, on moto: the stack's ClientConfig output through DescribeStacks, or the app
    client and region outright (boto3 reaches moto through AWS_ENDPOINT_URL, as it would AWS)."""
    confirmed_account(stack, capsys, monkeypatch, "outputs@example.com")
    region = stack.provisioned.region
    client_config = {
        k: v
        for k, v in json.loads(stack.provisioned.outputs["ClientConfig"]).items()
        if k != "api_url"
    }
    template = {
        "Resources": {"Topic": {"Type": "AWS::SNS::Topic"}},
        "Outputs": {"ClientConfig": {"Value": json.dumps(client_config)}},
    }
    cloudformation = boto3.client("cloudformation", region_name=region)
    cloudformation.create_stack(StackName="mineduel-deployed", TemplateBody=json.dumps(template))
    for where in (
        ["--stack", "mineduel-deployed", "--region", region],
        ["--user-pool-client-id", client_config["user_pool_client_id"], "--region", region],
    ):
        code, out, err = account(
            capsys,
            monkeypatch,
            "sign-in",
            *where,
            "--email",
            "outputs@example.com",
            "--password-stdin",
            stdin=PASSWORD,
        )
        assert code == 0, err
        assert ApiClient(http_transport(stack.url), out.strip()).create_game()["seats"]
    code, _, err = account(
        capsys,
        monkeypatch,
        "sign-in",
        "--stack",
        "no-such-stack",
        "--region",
        region,
        "--email",
        "outputs@example.com",
        "--password-stdin",
        stdin=PASSWORD,
    )
    assert code == 2 and "no-such-stack" in err


def test_totp_setup_then_sign_in_answers_the_challenge(
    stack: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    email = "tessa@example.com"
    confirmed_account(stack, capsys, monkeypatch, email)
    api = ["--api", stack.url, "--email", email]

    setup = subprocess.Popen(  # noqa: S603  (our own command, fixed arguments)
        [sys.executable, "-m", "mineduel.cli", "account", "totp-setup", *api, "--password-stdin"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert setup.stdin is not None and setup.stdout is not None
        setup.stdin.write(PASSWORD + "\n")
        setup.stdin.flush()
        secret_line, uri_line = setup.stdout.readline(), setup.stdout.readline()
        assert secret_line.startswith("secret: ")
        secret = secret_line.split()[1]
        assert uri_line.split()[1].startswith("otpauth://totp/MineDuel%20local%3Atessa%40")
        assert f"secret={secret}" in uri_line
        _, err = setup.communicate(fresh_code(secret) + "\n", timeout=60)
    finally:
        if setup.poll() is None:
            setup.kill()
            setup.wait()
    assert setup.returncode == 0, err
    assert "TOTP is on" in err and "Traceback" not in err

    code, out, err = account(
        capsys, monkeypatch, "sign-in", *api, "--password-stdin", stdin=PASSWORD
    )
    assert (code, out) == (2, "")  # the challenge came, and no code was given
    assert "authenticator app" in err

    wrong = f"{(int(fresh_code(secret)) + 1) % 1_000_000:06d}"
    code, out, err = account(
        capsys,
        monkeypatch,
        "sign-in",
        *api,
        "--password-stdin",
        "--totp-code",
        wrong,
        stdin=PASSWORD,
    )
    assert (code, out) == (6, "")
    assert "code is not right" in err

    code, out, _ = account(
        capsys,
        monkeypatch,
        "sign-in",
        *api,
        "--password-stdin",
        stdin=f"{PASSWORD}\n{fresh_code(secret)}\n",
    )
    assert code == 0
    player = ApiClient(http_transport(stack.url), out.strip())
    assert player.create_game()["seats"][0]["kind"] == "account"

    code, out, _ = account(
        capsys,
        monkeypatch,
        "sign-in",
        *api,
        "--password-stdin",
        "--totp-code",
        fresh_code(secret),
        stdin=PASSWORD,
    )
    assert code == 0 and claims_of(out.strip())["token_use"] == "access"


def test_a_moderator_is_made_on_the_local_stack_and_reviews_cases(
    stack: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``account moderator`` puts an account in the pool's moderators group; a token issued
    after that carries the group, and the moderation routes answer it; ``--list`` and
    ``--remove`` read and undo it."""
    email = "mo@example.com"
    confirmed_account(stack, capsys, monkeypatch, email)
    sign_in = ["--api", stack.url, "--email", email, "--password-stdin"]

    def cases(token: str) -> int:
        return (
            ApiClient(http_transport(stack.url), token).call("GET", "/v1/moderation/cases").status
        )

    before = account(capsys, monkeypatch, "sign-in", *sign_in, stdin=PASSWORD)[1].strip()
    assert cases(before) == 403

    code, out, err = account(
        capsys, monkeypatch, "moderator", "--api", stack.url, "--email", "Mo@Example.com"
    )
    assert (code, out) == (0, "") and f"{email} is in moderators" in err and "sign-in" in err
    code, out, _ = account(capsys, monkeypatch, "moderator", "--api", stack.url, "--list")
    assert (code, out) == (0, f"{email}\n")
    after = account(capsys, monkeypatch, "sign-in", *sign_in, stdin=PASSWORD)[1].strip()
    assert "moderators" in claims_of(after).get("cognito:groups", [])
    assert cases(after) == 200
    assert cases(before) == 403  # a token issued before joining does not carry the group

    code, _, err = account(
        capsys, monkeypatch, "moderator", "--api", stack.url, "--email", email, "--remove"
    )
    assert code == 0 and "no longer" in err
    assert account(capsys, monkeypatch, "moderator", "--api", stack.url, "--list")[1] == ""
    fresh = account(capsys, monkeypatch, "sign-in", *sign_in, stdin=PASSWORD)[1].strip()
    assert cases(fresh) == 403


@pytest.mark.parametrize(
    ("args", "exit_code", "says"),
    [
        (["--email", "nobody@example.com"], 3, "No account has the email nobody@example.com"),
        ([], 2, "Give --email"),
        (["--list", "--email", "a@example.com"], 2, "no --email"),
    ],
)
def test_moderator_refusals_are_one_line_and_an_exit_code(
    stack: RunningStack,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    exit_code: int,
    says: str,
) -> None:
    code, out, err = account(capsys, monkeypatch, "moderator", "--api", stack.url, *args)
    assert (code, out) == (exit_code, "")
    assert says in err and err.startswith("mineduel account moderator: ")


def test_a_moderator_on_an_app_client_alone_needs_the_pool_id(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--region", "eu-west-1", "--user-pool-client-id", "c", "--email", "a@example.com"]
    code, out, err = account(capsys, monkeypatch, "moderator", *args)
    assert (code, out) == (2, "") and "--user-pool-id" in err
