"""Accounts: Cognito tokens verified against the pool's JWKS; joining, invites, activation.

Runs on the moto server, which publishes the pool's keys at ``<endpoint>/<pool>/.well-known/
jwks.json`` the way Cognito does; the tokens are moto's real RS256 JWTs. To show that each claim
the API relies on is checked on its own, a real token's claims are changed one at a time and
signed again with the key moto signs with (a copy signed unchanged is accepted, so a refusal is
the changed claim's doing).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from joserfc import jwt
from joserfc.jwk import OctKey, RSAKey
from mineduel_service.platform import clock
from mineduel_service.platform.config import get_config
from moto.utilities.utils import load_resource

from mineduel.testing.accounts import claims_of

if TYPE_CHECKING:
    from conftest import Api

PASSWORD = "Correct-Horse-42"
MOTO_SIGNING_KEY = RSAKey.import_key(load_resource("cognitoidp/resources/jwks-private.json"))
MOTO_KID = "dummy"  # the key id moto's JWKS publishes
Claims = dict[str, Any]


def name_of(token: str) -> str:
    """The account's Cognito username: with email sign-in an opaque id, never the email."""
    claims = claims_of(token)
    return str(claims.get("cognito:username") or claims["username"])


def test_two_accounts_play_a_game_to_a_resignation(served_api: Api) -> None:
    alice, bob = served_api.player("alice"), served_api.player("bob", use="AccessToken")
    created = served_api.call("POST", "/v1/games", token=alice, body={"bots": 0})
    assert created.status == 201, created.body
    game = created.body
    assert game["status"] == "waiting" and game["turn"] is None
    assert [s["kind"] for s in game["seats"]] == ["account", "open"]
    assert game["seats"][0]["name"] == "alice"  # the username, never the email

    joined = served_api.call(
        "POST", f"/v1/games/{game['game_id']}/join", token=bob, body={"client_seed": "bob-1"}
    )
    assert joined.status == 200, joined.body
    active = joined.body
    assert active["status"] == "active" and active["turn"]["seat"] == 0
    assert active["seats"][1]["name"] == "bob"
    assert active["seats"][1]["client_seed"] == "bob-1"
    again = served_api.call("POST", f"/v1/games/{game['game_id']}/join", token=bob)
    assert again.status == 200 and again.body == active

    not_yours = served_api.commit(bob, game["game_id"], 0, 0, 0)
    assert not_yours.status == 403 and not_yours.error_code == "not-your-turn"
    moved = served_api.commit(alice, game["game_id"], 0, 0, 0)
    assert moved.status == 200 and [m["seat"] for m in moved.body["moves"]] == [0]

    resigned = served_api.call("POST", f"/v1/games/{game['game_id']}/resign", token=bob)
    assert resigned.status == 200
    assert resigned.body["result"]["reason"] == "resign" and resigned.body["result"]["winner"] == 0
    verdict = served_api.call("GET", f"/v1/games/{game['game_id']}/verify").body["verdict"]
    assert verdict["checked"] and verdict["ok"]


def test_a_seat_shows_a_stand_in_name_until_a_username_is_taken(served_api: Api) -> None:
    nameless = served_api.account("nameless")
    game = served_api.call("POST", "/v1/games", token=nameless, body={}).body
    name = game["seats"][0]["name"]
    assert name.startswith("Player ") and "@" not in name
    assert name_of(nameless) not in name


def test_invites_reserve_seats_and_guests_cannot_join(served_api: Api) -> None:
    alice, carol = served_api.player("alice"), served_api.player("carol")
    bob = served_api.player("bob")
    invite = ["Carol"]  # any case
    game = served_api.call(
        "POST", "/v1/games", token=alice, body={"seats": 3, "bots": 1, "invite": invite}
    ).body
    assert [s["kind"] for s in game["seats"]] == ["account", "open", "bot"]
    path = f"/v1/games/{game['game_id']}/join"
    dave = served_api.call("POST", path, token=served_api.player("dave"))
    assert dave.status == 409 and dave.error_code == "no-open-seat"
    guest = served_api.call("POST", path, token=served_api.guest())
    assert guest.status == 403 and guest.error_code == "guests-play-bots-only"
    joined = served_api.call("POST", path, token=carol)
    assert joined.status == 200 and joined.body["status"] == "active"
    for invite in (["bob", "BOB"], ["alice"], ["not a name"]):
        body = {"seats": 3, "bots": 0, "invite": invite}
        refused = served_api.call("POST", "/v1/games", token=alice, body=body)
        assert refused.status == 422 and refused.error_code == "bad-invite"
    unknown = {"seats": 2, "bots": 0, "invite": ["nobody-here"]}
    refused = served_api.call("POST", "/v1/games", token=alice, body=unknown)
    assert refused.status == 404 and refused.error_code == "player-not-found"
    assert bob


def forge(claims: Claims, key: RSAKey | OctKey = MOTO_SIGNING_KEY, **header: str) -> str:
    """``claims`` signed as moto signs its tokens (RS256, its key, its key id) unless told."""
    return jwt.encode({"alg": "RS256", "kid": MOTO_KID, **header}, claims, key)


def _without(claims: Claims, name: str) -> Claims:
    return {k: v for k, v in claims.items() if k != name}


def _for_client(claims: Claims, client_id: str) -> Claims:
    audience = "client_id" if claims["token_use"] == "access" else "aud"
    return {**claims, audience: client_id}


def _swap_use(claims: Claims) -> Claims:
    return {**claims, "token_use": "id" if claims["token_use"] == "access" else "access"}


def _issuer(claims: Claims, old: str, new: str) -> Claims:
    return {**claims, "iss": claims["iss"].replace(old, new)}


CLAIM_CHANGES: dict[str, Callable[[Claims], Claims]] = {
    "another app client": lambda c: _for_client(c, "7anotherappclient0000000000"),
    "token_use refresh": lambda c: {**c, "token_use": "refresh"},
    "no token_use": lambda c: _without(c, "token_use"),
    "an id token passed off as an access token, or back": _swap_use,
    "another pool's issuer": lambda c: {**c, "iss": c["iss"].rsplit("_", 1)[0] + "_AnotherPool"},
    "the issuer in another region": lambda c: _issuer(c, "cognito-idp.", "cognito-idp.ap-south-1."),
    "an http issuer": lambda c: _issuer(c, "https://", "http://"),
    "expired a minute ago": lambda c: {**c, "exp": int(clock.now().timestamp()) - 60},
    "no expiry": lambda c: _without(c, "exp"),
    "no subject": lambda c: _without(c, "sub"),
}


@pytest.mark.parametrize("use", ["AccessToken", "IdToken"])
def test_a_real_token_signed_again_unchanged_is_accepted(served_api: Api, use: str) -> None:
    claims = claims_of(served_api.account("ivan", use=use))
    reply = served_api.call("POST", "/v1/games", token=forge(claims), body={})
    assert reply.status == 201, reply.body
    assert reply.body["seats"][0]["player_id"] == claims["sub"]


@pytest.mark.parametrize("change", sorted(CLAIM_CHANGES))
@pytest.mark.parametrize("use", ["AccessToken", "IdToken"])
def test_each_checked_claim_refuses_a_token_on_its_own(
    served_api: Api, use: str, change: str
) -> None:
    claims = CLAIM_CHANGES[change](claims_of(served_api.account("ivan", use=use)))
    reply = served_api.call("POST", "/v1/games", token=forge(claims), body={})
    assert reply.status == 401, reply.body
    assert reply.error_code == "unauthorized"


def test_tokens_not_signed_by_the_pool_are_401(served_api: Api) -> None:
    token = served_api.account("erin")
    header, payload, signature = token.split(".")
    flipped = signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB")
    claims = claims_of(token)
    unsigned = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    forged = {
        "a flipped signature": f"{header}.{payload}.{flipped}",
        "no signature": f"{header}.{payload}.",
        "alg none": f"{unsigned}.{payload}.",
        "another RSA key under the pool's key id": forge(claims, RSAKey.generate_key(2048)),
        "HS256 with a shared secret": forge(claims, OctKey.generate_key(256), alg="HS256"),
        "a key id the pool does not publish": forge(claims, kid="rotated-away"),
        "not a token at all": "x.y.z",
    }
    for what, bad in forged.items():
        reply = served_api.call("POST", "/v1/games", token=bad, body={})
        assert reply.status == 401, (what, reply.body)


def test_an_expired_account_token_is_401(served_api: Api) -> None:
    token = served_api.account("frank")
    clock.advance(2 * 3600)  # moto's tokens live one hour, whatever the app client says
    reply = served_api.call("POST", "/v1/games", token=token, body={})
    assert reply.status == 401 and reply.error_code == "unauthorized"


def test_a_token_for_another_app_client_is_401(served_api: Api) -> None:
    config = get_config()
    cognito = boto3.client("cognito-idp", region_name=config.region)
    other = cognito.create_user_pool_client(
        UserPoolId=config.user_pool_id,
        ClientName="someone-else",
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    )["UserPoolClient"]["ClientId"]
    served_api.account("grace")
    answer = cognito.initiate_auth(
        ClientId=other,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": "grace@example.com", "PASSWORD": PASSWORD},
    )
    for use in ("IdToken", "AccessToken"):
        token = answer["AuthenticationResult"][use]
        reply = served_api.call("POST", "/v1/games", token=token, body={})
        assert reply.status == 401, (use, reply.body)


def test_a_token_of_another_user_pool_is_401(served_api: Api) -> None:
    """moto signs every pool's tokens with one key: only the issuer and client tell them apart."""
    config = get_config()
    cognito = boto3.client("cognito-idp", region_name=config.region)
    pool = cognito.create_user_pool(PoolName="someone-elses", UsernameAttributes=["email"])
    pool_id = pool["UserPool"]["Id"]
    client = cognito.create_user_pool_client(
        UserPoolId=pool_id, ClientName="theirs", ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH"]
    )["UserPoolClient"]["ClientId"]
    cognito.admin_create_user(
        UserPoolId=pool_id, Username="judy@example.com", MessageAction="SUPPRESS"
    )
    cognito.admin_set_user_password(
        UserPoolId=pool_id, Username="judy@example.com", Password=PASSWORD, Permanent=True
    )
    answer = cognito.initiate_auth(
        ClientId=client,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": "judy@example.com", "PASSWORD": PASSWORD},
    )["AuthenticationResult"]
    assert claims_of(answer["AccessToken"])["iss"].endswith(pool_id)
    for use in ("IdToken", "AccessToken"):
        reply = served_api.call("POST", "/v1/games", token=answer[use], body={})
        assert reply.status == 401, (use, reply.body)


def test_three_players_two_miss_their_deadlines(served_api: Api) -> None:
    """Expiry puts one seat out and the game goes on; a late commit puts the next one out."""
    alice, bob, carol = (
        served_api.account("alice"),
        served_api.account("bob"),
        served_api.account("carol"),
    )
    game = served_api.call(
        "POST", "/v1/games", token=alice, body={"seats": 3, "bots": 0, "move_deadline_s": 60}
    ).body
    game_id = game["game_id"]
    served_api.call("POST", f"/v1/games/{game_id}/join", token=bob)
    active = served_api.call("POST", f"/v1/games/{game_id}/join", token=carol).body
    assert active["status"] == "active"
    board, expected = active["board"], 0
    while True:  # alice taps until the turn passes to bob
        row, col = next((r, c) for r in range(16) for c in range(16) if board[r][c] == ".")
        reply = served_api.commit(alice, game_id, row, col, expected).body["game"]
        board, expected = reply["board"], reply["move_count"]
        if reply["turn"]["seat"] != 0:
            break
    assert reply["turn"]["seat"] == 1
    clock.advance(61)
    delivery = {"game_id": game_id, "move_count": expected, "deadline": reply["turn"]["deadline"]}
    assert served_api.expire(delivery) == "timed-out"
    after = served_api.call("GET", f"/v1/games/{game_id}").body
    assert after["status"] == "active" and after["seats"][1]["out"] is True
    assert after["turn"]["seat"] == 2 and after["turn"]["deadline"] > reply["turn"]["deadline"]
    clock.advance(61)
    late = served_api.commit(carol, game_id, 0, 0, after["move_count"])
    assert late.status == 409 and late.error_code == "deadline-passed"
    final = served_api.call("GET", f"/v1/games/{game_id}").body
    assert final["status"] == "finished"
    assert final["result"] == {"reason": "timeout", "winner": 0, "places": [1, 3, 2]}
    actions = [
        m["action"] for m in served_api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
    ]
    assert actions[-2:] == ["timeout", "timeout"]
