"""The OpenAPI document's examples: one or more for every request body and every answer.

They are documentation, so they live beside the document's generator and in no function. They
are real answers: the game ones come from a game played on the local stack (a guest against
the medium bot: two taps, then the guest resigned), and the errors are built with the
service's own ``ApiError``. tests/openapi/test_document.py validates every example against its
schema, and the finished game's Verification document against the verifier.

The first example of a request body is the one Swagger UI's "Try it out" fills in: each one
works as it stands for a new guest (a game against the bot, the first tap in the centre).
``request`` and ``response`` refuse to guess: a route without examples here stops ``make
openapi``, so a new route cannot be published without them.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from mineduel_engine import Field, Settings, rules_for
from mineduel_engine.chain import chained, link
from mineduel_engine.daily import day_seed
from mineduel_engine.fairness import commitment
from mineduel_engine.verify import build_document
from mineduel_service.api.problems import ApiError
from mineduel_service.daily.errors import DailyNotReady

Examples = dict[str, dict[str, Any]]

GAME_ID = "dd3614eb-f85d-434c-98e0-8829682579b2"
GUEST_ID = "guest-71ed19f07d0541ba83c577dc7f6553af"
GUEST_TOKEN = "mdg1.71ed19f07d0541ba83c577dc7f6553af.example-only-not-a-real-secret-0000000000"  # noqa: S105
COMMITMENT = "a82ee00268926fc3ba61ea6804e86f20d21932356d88bb1593c88f2969fb9bc5"
SEED = "7e7b1b8f8be6410f5f4808891b0a5ed756243c200daa8d2a0a7d1cab72e27c7e"
FIELD = [
    "2**100001*102*31",
    "*321001122324**1",
    "1100001*22**5*31",
    "11000012*45**321",
    "*10001233**323*2",
    "111111**222102*2",
    "001*123310000111",
    "112111*100111000",
    "3*321211001*2110",
    "***4*31100112*32",
    "344**5*3222112**",
    "*23*4***2**10122",
    "12*2234322210011",
    "132201*10000001*",
    "*2*2111100012332",
    "122*10000001***1",
]
EMPTY_BOARD = ["." * 16] * 16
BOARD = [
    *EMPTY_BOARD[:7],
    ".......1........",
    *EMPTY_BOARD[8:11],
    "...........1....",
    *EMPTY_BOARD[12:],
]
ACCOUNT_ID = "3f1e4c52-9b8a-4d47-8f0e-2a6d1c9b7e31"
AVATAR_URL = "/v1/avatars/5b1e0c3a9f7d2e4c6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a1c3b5d7f9e0a"


def _seat(seat: int, **fields: Any) -> dict[str, Any]:
    base = {
        "seat": seat,
        "player_id": GUEST_ID if seat == 0 else "bot-medium",
        "name": "Guest 71ed19" if seat == 0 else "Bot (medium)",
        "kind": "guest" if seat == 0 else "bot",
        "mines": 0,
        "safe_taps": 0,
        "out": False,
        "client_seed": "",
        "place": None,
        "rating_before": None,
        "rating_after": None,
    }
    return {**base, **fields}


MOVES: list[dict[str, Any]] = [
    {
        "n": 1,
        "seat": 0,
        "action": "tap",
        "row": 7,
        "col": 7,
        "result": "safe",
        "opened": [[7, 7, 1]],
        "flagged": [],
        "at": "2026-11-30T12:07:21Z",
    },
    {
        "n": 2,
        "seat": 1,
        "action": "tap",
        "row": 11,
        "col": 11,
        "result": "safe",
        "opened": [[11, 11, 1]],
        "flagged": [],
        "at": "2026-11-30T12:07:21Z",
    },
]
RESIGNATION: dict[str, Any] = {
    "n": 3,
    "seat": 0,
    "action": "resign",
    "row": None,
    "col": None,
    "result": None,
    "opened": [],
    "flagged": [],
    "at": "2026-11-30T12:07:21Z",
}
A_MINE: dict[str, Any] = {
    "n": 4,
    "seat": 0,
    "action": "tap",
    "row": 8,
    "col": 6,
    "result": "mine",
    "opened": [],
    "flagged": [[8, 6]],
    "at": "2026-11-30T12:07:40Z",
}
# Each move carries its chain value, computed here as the server computes it (the engine's
# ``chained``), so the Verification example's hash chain checks; A_MINE follows a move 3 that
# is not shown.
*MOVES, RESIGNATION = chained(COMMITMENT, [*MOVES, RESIGNATION])
A_MINE = {**A_MINE, "chain": link(RESIGNATION["chain"], A_MINE)}
NEW_GAME: dict[str, Any] = {
    "game_id": GAME_ID,
    "variant": "mine-duel",
    "status": "active",
    "width": 16,
    "height": 16,
    "mines": 51,
    "mines_left": 51,
    "move_deadline_s": 86400,
    "rated": False,
    "created_at": "2026-11-30T12:07:20Z",
    "creator_seat": 0,
    "seats": [_seat(0), _seat(1)],
    "turn": {"seat": 0, "deadline": "2026-12-01T12:07:20Z"},
    "move_count": 0,
    "board": EMPTY_BOARD,
    "commitment": COMMITMENT,
    "seed": None,
    "result": None,
    "bot_level": "medium",
    "options": {},
    "chain": None,
    "daily": None,
    "spectators_off": False,
    "watchers": None,
}
PLAYED_GAME: dict[str, Any] = {
    **NEW_GAME,
    "seats": [_seat(0, safe_taps=1), _seat(1, safe_taps=1)],
    "turn": {"seat": 0, "deadline": "2026-12-01T12:07:21Z"},
    "move_count": 2,
    "board": BOARD,
    "chain": MOVES[-1]["chain"],
}
FINISHED_GAME: dict[str, Any] = {
    **PLAYED_GAME,
    "status": "finished",
    "seats": [_seat(0, safe_taps=1, out=True, place=2), _seat(1, safe_taps=1, place=1)],
    "turn": None,
    "move_count": 3,
    "seed": SEED,
    "result": {"reason": "resign", "winner": 1, "places": [2, 1]},
    "chain": RESIGNATION["chain"],
}
VERIFICATION_RUNNING: dict[str, Any] = {
    "game_id": GAME_ID,
    "protocol": "mineduel/v1",
    "variant": "mine-duel",
    "status": "active",
    "width": 16,
    "height": 16,
    "mines": 51,
    "commitment": COMMITMENT,
    "seed": None,
    "client_seeds": ["", ""],
    "field": None,
    "moves": MOVES,
    "result": None,
    "move_count": len(MOVES),
    "chain": MOVES[-1]["chain"],
    "verdict": {"checked": False, "ok": False, "problems": []},
    "rated": False,
    "rating": None,
    "options": {},
    "seats": None,
}
VERIFICATION_FINISHED: dict[str, Any] = {
    **VERIFICATION_RUNNING,
    "status": "finished",
    "seed": SEED,
    "field": FIELD,
    "moves": [*MOVES, RESIGNATION],
    "move_count": len(MOVES) + 1,
    "chain": RESIGNATION["chain"],
    "result": FINISHED_GAME["result"],
    "verdict": {"checked": True, "ok": True, "problems": []},
    "seats": [
        {"seat": 0, "mines": 0, "safe_taps": 1, "out": True, "place": 2, "client_seed": ""},
        {"seat": 1, "mines": 0, "safe_taps": 1, "out": False, "place": 1, "client_seed": ""},
    ],
}
WINDOWS_GAME: dict[str, Any] = {
    **NEW_GAME,
    "game_id": "b9952080-362e-4e19-af11-f2c1c1e72738",
    "variant": "windows-duel",
    "width": 11,
    "height": 11,
    "mines": 15,
    "mines_left": 14,
    "seats": [
        _seat(0, score=-2, player_id=GUEST_ID),
        _seat(1, score=-5, player_id="bot-hard", name="Bot (hard)"),
    ],
    "move_count": 2,
    "board": ["...b.......", *["." * 11] * 4, ".....?.....", *["." * 11] * 5],
    "commitment": "7675b7faf2c2292e3a1c8fd8ace4ee97dc027e699e35899aea129cccdcb1a81a",
    "bot_level": "hard",
}
WINDOWS_MOVES: list[dict[str, Any]] = [
    {
        "n": 1,
        "seat": 0,
        "action": "guess",
        "row": 5,
        "col": 5,
        "result": "miss",
        "opened": [],
        "flagged": [],
        "at": "2026-11-30T12:16:10Z",
        "points": -2,
        "auto_opened": [],
    },
    {
        "n": 2,
        "seat": 1,
        "action": "reveal",
        "row": 0,
        "col": 3,
        "result": "mine",
        "opened": [],
        "flagged": [],
        "at": "2026-11-30T12:16:10Z",
        "points": -5,
        "auto_opened": [],
    },
]
WINDOWS_MOVES = chained(WINDOWS_GAME["commitment"], WINDOWS_MOVES)
WINDOWS_GAME["chain"] = WINDOWS_MOVES[-1]["chain"]
SUMMARY: dict[str, Any] = {
    "game_id": GAME_ID,
    "variant": "mine-duel",
    "status": "finished",
    "created_at": "2026-11-30T12:07:20Z",
    "ended_at": "2026-11-30T12:07:21Z",
    "rated": False,
    "seats": [
        {
            "seat": seat["seat"],
            "player_id": seat["player_id"],
            "name": seat["name"],
            "kind": seat["kind"],
            "mines": 0,
            "place": seat["place"],
            "avatar_url": None,
            "longest_run": 0,
            "rating_before": None,
            "rating_after": None,
            "rating_change": None,
        }
        for seat in FINISHED_GAME["seats"]
    ],
    "turn": None,
    "my_seat": None,
    "result": FINISHED_GAME["result"],
    "moves": 3,
    "lead_changes": 0,
    "move_count": 3,
    "commitment": COMMITMENT,
    "seed": SEED,
}
MY_GAMES: dict[str, Any] = {
    "games": [
        {
            "game_id": GAME_ID,
            "variant": "mine-duel",
            "status": "active",
            "created_at": "2026-11-30T12:07:20Z",
            "ended_at": None,
            "rated": False,
            "seats": [
                {k: seat[k] for k in ("seat", "player_id", "name", "kind", "mines", "place")}
                for seat in PLAYED_GAME["seats"]
            ],
            "turn": PLAYED_GAME["turn"],
            "move_count": 2,
            "my_seat": 0,
            "daily": None,
        }
    ],
    "next": None,
}
WAITING_GAMES: dict[str, Any] = {
    "games": [
        {
            "game_id": "0b7e6f0e-4f8e-4a63-9d0c-6f51b2e8d3a4",
            "variant": "mine-duel",
            "status": "waiting",
            "created_at": "2026-11-30T11:58:02Z",
            "ended_at": None,
            "rated": True,
            "seats": [
                {
                    "seat": 0,
                    "player_id": ACCOUNT_ID,
                    "name": "ann",
                    "kind": "account",
                    "mines": 0,
                    "place": None,
                },
                {
                    "seat": 1,
                    "player_id": None,
                    "name": "Open seat",
                    "kind": "open",
                    "mines": 0,
                    "place": None,
                },
            ],
            "turn": None,
            "move_count": 0,
            "my_seat": None,
            "daily": None,
        }
    ],
    "next": "eyJsIjoiMjAyNi0xMS0zMFQxMTo1ODowMloifQ",
}
_MONTHS = ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]
PROFILE: dict[str, Any] = {
    "player_id": ACCOUNT_ID,
    "username": "ann",
    "name": "ann",
    "avatar_url": AVATAR_URL,
    "created_at": "2026-11-02T09:14:11Z",
    "stats": {
        "games": 14,
        "wins": 9,
        "losses": 5,
        "draws": 0,
        "win_rate": 0.6428571428571429,
        "mines_total": 301,
        "mines_avg": 21.5,
        "mines_best": 27,
        "streak": 3,
        "best_streak": 4,
        "months": [
            {
                "month": month,
                "games": 14 if month == "2026-11" else 0,
                "wins": 9 * (month == "2026-11"),
            }
            for month in _MONTHS
        ],
    },
    "ratings": {
        "mine-duel": {
            "rating": 1611,
            "deviation": 212,
            "provisional": False,
            "games": 12,
            "months": [
                {
                    "month": month,
                    "rating": 1611 if month == "2026-11" else None,
                    "deviation": 212 if month == "2026-11" else None,
                }
                for month in _MONTHS
            ],
        }
    },
}
MY_PROFILE: dict[str, Any] = {
    **PROFILE,
    "settings": {
        "leaderboard": True,
        "spectators": True,
        "notify": {
            "your_turn": True,
            "time_almost_up": True,
            "invited": True,
            "game_over": False,
            "paired": True,
        },
    },
}
VAPID_PUBLIC_KEY = (
    "BO29Ax4QCtaoLY89DpeFU3rBkfBjgB7q5sJpDMOWluzhqMD2l5_pgDYm2T8OYvN4OBmM_WldVVopaYl68C63BnU"
)
WEB_SUBSCRIPTION = {
    "kind": "web",
    "endpoint": "https://fcm.googleapis.com/fcm/send/eXaMpLe0tOkEn:APA91bGexample-only",
    "expirationTime": None,
    "keys": {
        "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpk"
        "NtoIAiw4",
        "auth": "BTBZMqHH6r4Tts7J_aSIgg",
    },
}
PUSH_SUBSCRIPTION = {
    "subscription_id": "kq3m1Y5rJ0bW8cX2vN4tUg",
    "kind": "web",
    "created_at": "2026-11-30T12:00:00Z",
    "updated_at": "2026-11-30T12:00:00Z",
    "push_service": "fcm.googleapis.com",
}
PHONE_SUBSCRIPTION = {
    "subscription_id": "Zb7Qw2xK9mN4pR1sT6vY3a",
    "kind": "apns",
    "created_at": "2026-11-29T08:30:00Z",
    "updated_at": "2026-11-29T08:30:00Z",
    "push_service": None,
}
LEADERBOARD: dict[str, Any] = {
    "variant": "mine-duel",
    "entries": [
        {"rank": 1, "username": "ann", "rating": 1611, "deviation": 212, "games": 12},
        {"rank": 2, "username": "ben", "rating": 1389, "deviation": 215, "games": 11},
    ],
    "next": None,
    "me": {"rank": 1, "rating": 1611},
    "updated_at": "2026-11-30T12:05:00Z",
}
AVATAR_UPLOAD: dict[str, Any] = {
    "upload": {
        "url": "https://mineduel-avatarbucket-1x2y3z.s3.amazonaws.com/",
        "fields": {
            "Content-Type": "image/png",
            "key": f"uploads/{ACCOUNT_ID}/9a0c3e1f5b7d4e2a8c6b0d1f3e5a7c9b",
            "policy": "eyJleHBpcmF0aW9uIjogIjIwMjYtMTEtMzBUMTI6MTI6MDBaIn0=",
            "x-amz-algorithm": "AWS4-HMAC-SHA256",
            "x-amz-credential": "ASIAEXAMPLE/20261130/us-east-1/s3/aws4_request",
            "x-amz-date": "20261130T120700Z",
            "x-amz-signature": "0f3c" * 16,
        },
    },
    "expires_at": "2026-11-30T12:12:00Z",
    "max_bytes": 262144,
    "content_type": "image/png",
}
# The daily duel. The month keys are made up for the examples (a real one is secret until its
# month is over); the day seeds and every commitment follow from them as the server makes them.
_MONTH_KEYS = {
    month: hashlib.sha256(f"example month key {month}".encode()).digest()
    for month in ("2026-10", "2026-11", "2026-12")
}


def _day_commitment(day: str) -> str:
    return commitment(day_seed(_MONTH_KEYS[day[:7]], day))


DAILY_GAME_ID = "5c0f3a7e-2b9d-4e61-8a14-7d3c9e2b6f05"
DAILY_GAME: dict[str, Any] = {
    **NEW_GAME,
    "game_id": DAILY_GAME_ID,
    "move_deadline_s": 3600,
    "created_at": "2026-11-30T09:12:05Z",
    "seats": [
        _seat(0, player_id=ACCOUNT_ID, name="ann", kind="account"),
        _seat(1, player_id="bot-hard", name="Bot (hard)"),
    ],
    "turn": {"seat": 0, "deadline": "2026-11-30T10:12:05Z"},
    "commitment": _day_commitment("2026-11-30"),
    "bot_level": "hard",
    "daily": "2026-11-30",
}
DAILY_TODAY: dict[str, Any] = {
    "date": "2026-11-30",
    "closes_at": "2026-12-01T00:00:00Z",
    "commitment": _day_commitment("2026-11-30"),
    "month": "2026-11",
    "month_commitment": commitment(_MONTH_KEYS["2026-11"]),
    "tomorrow": {"date": "2026-12-01", "commitment": _day_commitment("2026-12-01")},
    "next_month": {"month": "2026-12", "commitment": commitment(_MONTH_KEYS["2026-12"])},
    "played": True,
    "game": {
        "game_id": DAILY_GAME_ID,
        "variant": "mine-duel",
        "status": "finished",
        "created_at": "2026-11-30T09:12:05Z",
        "ended_at": "2026-11-30T09:31:48Z",
        "rated": False,
        "seats": [
            {
                "seat": 0,
                "player_id": ACCOUNT_ID,
                "name": "ann",
                "kind": "account",
                "mines": 27,
                "place": 1,
            },
            {
                "seat": 1,
                "player_id": "bot-hard",
                "name": "Bot (hard)",
                "kind": "bot",
                "mines": 19,
                "place": 2,
            },
        ],
        "turn": None,
        "move_count": 88,
        "my_seat": 0,
        "daily": "2026-11-30",
    },
    "table": "/v1/daily/2026-11-30/table",
}
DAILY_TABLE_OPEN: dict[str, Any] = {
    "date": "2026-11-30",
    "status": "open",
    "commitment": _day_commitment("2026-11-30"),
    "seed": None,
    "month": "2026-11",
    "month_commitment": commitment(_MONTH_KEYS["2026-11"]),
    "month_key": None,
    "players": 41,
    "ranked": 3,
    "updated_at": "2026-11-30T12:05:00Z",
    "entries": [
        {
            "rank": 1,
            "name": "ann",
            "mines": 27,
            "safe_taps": 9,
            "ended_at": "2026-11-30T09:31:48Z",
            "game_id": None,
        },
        {
            "rank": 2,
            "name": "ben",
            "mines": 24,
            "safe_taps": 11,
            "ended_at": "2026-11-30T07:02:13Z",
            "game_id": None,
        },
        {
            "rank": 2,
            "name": "cleo",
            "mines": 24,
            "safe_taps": 11,
            "ended_at": "2026-11-30T11:40:57Z",
            "game_id": None,
        },
    ],
    "next": None,
}
DAILY_TABLE_CLOSED: dict[str, Any] = {
    "date": "2026-10-31",
    "status": "closed",
    "commitment": _day_commitment("2026-10-31"),
    "seed": day_seed(_MONTH_KEYS["2026-10"], "2026-10-31").hex(),
    "month": "2026-10",
    "month_commitment": commitment(_MONTH_KEYS["2026-10"]),
    "month_key": _MONTH_KEYS["2026-10"].hex(),
    "players": 38,
    "ranked": 2,
    "updated_at": "2026-11-01T00:05:00Z",
    "entries": [
        {
            "rank": 1,
            "name": "ben",
            "mines": 29,
            "safe_taps": 8,
            "ended_at": "2026-10-31T18:22:40Z",
            "game_id": "e41b7c90-5a3f-4d28-9c6e-0f2a8b1d7e53",
        },
        {
            "rank": 2,
            "name": "ann",
            "mines": 23,
            "safe_taps": 12,
            "ended_at": "2026-10-31T08:15:09Z",
            "game_id": "7a2d9f14-c3e8-4b05-a61f-92d0e5c8b347",
        },
    ],
    "next": None,
}


def _daily_verification() -> dict[str, Any]:
    """A guest's game of the closed day above (guests play unranked), as the server publishes
    it once the month is over: the guest opens a number, the bot flags a mine and opens a
    number, the guest resigns. Built by the
    engine on the day's field (field id ``daily-2026-10-31``, empty client seeds), so the
    example verifies, daily checks included."""
    day, game_id = "2026-10-31", "0b6d2f84-7e1a-4c39-a5d0-3f8e6b2c9a17"
    settings = Settings.for_variant("mine-duel", seats=2)
    seed = day_seed(_MONTH_KEYS[day[:7]], day)
    field = Field.from_seed(seed, f"daily-{day}", ["", ""], 16, 16, 51)
    numbers = [divmod(i, 16) for i, n in enumerate(field.numbers) if n > 0]
    mine = divmod(min(field.mines), 16)
    rules = rules_for("mine-duel")
    state, records = rules.new_game(settings), list[dict[str, Any]]()
    for seat, cell in ((0, numbers[0]), (1, mine), (1, numbers[1]), (0, None)):
        state, move = (
            rules.eliminate(state, seat, "resign")
            if cell is None
            else rules.play(state, field, seat, "tap", *cell)
        )
        at = f"2026-10-31T18:{20 + len(records):02d}:05Z"
        records.append({**move.to_record(), "at": at})
    doc = build_document(
        game_id=game_id,
        settings=settings,
        commitment=commitment(seed),
        client_seeds=["", ""],
        moves=chained(commitment(seed), records),
        status="finished",
        seed=seed,
        result=state.result,
        field=field,
        state=state,
        seat_details=[
            {"player_id": GUEST_ID, "name": "Guest 71ed19", "kind": "guest"},
            {"player_id": "bot-hard", "name": "Bot (hard)", "kind": "bot"},
        ],
        field_id=f"daily-{day}",
        daily={
            "date": day,
            "month": day[:7],
            "month_commitment": commitment(_MONTH_KEYS[day[:7]]),
            "month_key": _MONTH_KEYS[day[:7]].hex(),
        },
    )
    return {**doc, "rated": False, "rating": None}


VERIFICATION_DAILY = _daily_verification()
ANALYSIS: dict[str, Any] = {
    # The example game's analysis, as the engine's analyze_document gives it.
    "game_id": GAME_ID,
    "analysis": "mineduel-analysis/v1",
    "variant": "mine-duel",
    "bot_level": "hard",
    "skill_unit": "mines",
    "budget": {"terms": 250000, "estimated": [], "estimate": "local counting"},
    "moves": [
        {
            "n": 1,
            "seat": 0,
            "action": "tap",
            "row": 7,
            "col": 7,
            "result": "safe",
            "p_mine": 0.199219,
            "p_best": 0.199219,
            "bot": [0, 1],
            "bot_action": "tap",
            "exact": True,
            "found": 0,
            "expected_mines": 0.199219,
            "luck": -0.199219,
            "loss": 0.0,
        },
        {
            "n": 2,
            "seat": 1,
            "action": "tap",
            "row": 11,
            "col": 11,
            "result": "safe",
            "p_mine": 0.202429,
            "p_best": 0.202429,
            "bot": [0, 2],
            "bot_action": "tap",
            "exact": True,
            "found": 0,
            "expected_mines": 0.202429,
            "luck": -0.202429,
            "loss": 0.0,
        },
    ],
    "seats": [
        {
            "seat": 0,
            "mines": 0,
            "expected_mines": 0.199219,
            "luck": -0.199219,
            "skill_loss": 0.0,
            "moves": 1,
            "best_moves": 1,
            "bot_moves": 0,
        },
        {
            "seat": 1,
            "mines": 0,
            "expected_mines": 0.202429,
            "luck": -0.202429,
            "skill_loss": 0.0,
            "moves": 1,
            "best_moves": 1,
            "bot_moves": 0,
        },
    ],
    "swings": [
        {"n": 2, "seat": 1, "action": "tap", "swing": -0.202429},
        {"n": 1, "seat": 0, "action": "tap", "swing": -0.199219},
    ],
}
_EXPORT_LINK = (
    "https://mineduel-exportbucket-1x2y3z.s3.amazonaws.com/exports/games-{month}.ndjson.gz"
    "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAEXAMPLE%2F20261201%2Fus-east-1"
    "%2Fs3%2Faws4_request&X-Amz-Date=20261201T090000Z&X-Amz-Expires=900"
    "&X-Amz-SignedHeaders=host&X-Amz-Security-Token=example&X-Amz-Signature={signature}"
)
EXPORTS: dict[str, Any] = {
    "exports": [
        {
            "month": "2026-11",
            "games": 1000,
            "bytes": 412733,
            "sha256": "4f6d2a9c1e8b7035d2c4a6e8f0b1d3c5e7f9a2b4c6d8e0f1a3b5c7d9e2f4a6b8",
            "created_at": "2026-12-01T00:07:12Z",
            "url": _EXPORT_LINK.format(month="2026-11", signature="8c1e" * 16),
            "expires_at": "2026-12-01T09:15:00Z",
        },
        {
            "month": "2026-10",
            "games": 812,
            "bytes": 339102,
            "sha256": "b2e4f6a8c0d1e3f5a7b9c2d4e6f8a0b1c3d5e7f9a1b2c4d6e8f0a2b4c6d8e0f1",
            "created_at": "2026-11-01T00:07:09Z",
            "url": _EXPORT_LINK.format(month="2026-10", signature="3d7a" * 16),
            "expires_at": "2026-12-01T09:15:00Z",
        },
    ]
}
# A page of a player's export: one Verification document a line (compact JSON, newest first).
EXPORT_PAGE = json.dumps(VERIFICATION_FINISHED, separators=(",", ":")) + "\n"
SEEK_ID = "3f0c8a52-6d1e-4b7a-9c20-5e8f1a4d7b96"
SEEK_OPEN: dict[str, Any] = {
    "seek_id": SEEK_ID,
    "variant": "mine-duel",
    "move_deadline_s": 86400,
    "rated": True,
    "rating_range": [1400, 1600],
    "status": "open",
    "game_id": None,
    "expires_at": "2026-12-02T12:07:20Z",
    "created_at": "2026-12-01T12:07:20Z",
    "rating": 1512,
    "name": None,
}
SEEK_PAIRED: dict[str, Any] = {**SEEK_OPEN, "status": "paired", "game_id": GAME_ID}
SEEKS: dict[str, Any] = {
    "seeks": [
        {**SEEK_OPEN, "name": "ann"},
        {
            **SEEK_OPEN,
            "seek_id": "9b2e4d61-0a7c-4f38-8e15-c6d3a9f2b084",
            "rating_range": None,
            "rating": 1688,
            "name": "ben",
            "created_at": "2026-12-01T12:09:02Z",
            "expires_at": "2026-12-02T12:09:02Z",
        },
    ],
    "next": None,
}
CASE_ID = "20261201T120720Z-5c1a9e3f"
CASE: dict[str, Any] = {
    "case_id": CASE_ID,
    "username": "zed",
    "player_id": ACCOUNT_ID,
    "z": 5.12,
    "engine_match": 1.0,
    "accuracy": 0.8127,
    "mean_loss": 0.0291,
    "games": [GAME_ID, "e41b7c90-5a3f-4d28-9c6e-0f2a8b1d7e53"],
    "opened_at": "2026-12-01T12:07:20Z",
    "status": "open",
    "decided_at": None,
    "decided_by": None,
    "note": None,
    "decisions": 0,
}
CASE_RESTRICTED: dict[str, Any] = {
    **CASE,
    "status": "restricted",
    "decided_at": "2026-12-01T15:40:02Z",
    "decided_by": "mo",
    "note": "Every tap the engine's, ten games running.",
    "decisions": 1,
}
FAIR_PLAY: dict[str, Any] = {
    "username": "ann",
    "games_screened": 14,
    "window": 14,
    "window_size": 20,
    "accuracy": 0.6311,
    "mean_loss": 0.1184,
    "engine_match": 0.7012,
    "hard_taps": 71,
    "hard_match": 0.3944,
    "clear_taps": 112,
    "clear_match": 0.6518,
    "expected_hard_match": 0.4,
    "min_games": 10,
    "min_hard_taps": 40,
    "z": 0.42,
    "review_z": 3.75,
    "status": "clear",
    "reviewed_at": None,
    "games": [
        {
            "game_id": GAME_ID,
            "ended_at": "2026-12-01T11:52:40Z",
            "taps": 31,
            "accuracy": 0.6129,
            "engine_match": 0.7097,
            "mean_loss": 0.1021,
            "hard_taps": 6,
            "clear_taps": 8,
        }
    ],
}
_PAGE = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} · MineDuel'
    "</title>{meta}</head><body><h1>{title}</h1><p>{text}</p></body></html>"
)
SHARE_PAGES = {
    200: _PAGE.format(
        title="Bot (medium) beat Guest 71ed19",
        meta='<meta property="og:title" content="Bot (medium) beat Guest 71ed19">...',
        text="Guest 71ed19 resigned. ... (shortened)",
    ),
    404: _PAGE.format(
        title="No such game",
        meta='<meta name="robots" content="noindex">',
        text="There is no MineDuel game at this address; check the link you were given.",
    ),
    409: _PAGE.format(
        title="This game is still being played",
        meta='<meta name="robots" content="noindex">',
        text="Its page fills in when it ends.",
    ),
}


def _example(summary: str, value: Any) -> dict[str, Any]:
    return {"summary": summary, "value": copy.deepcopy(value)}


REQUESTS: dict[str, Examples] = {
    "CreateGameRequest": {
        "bot": _example("Play the bot (the defaults: mine-duel, hard, 2 seats)", {"bots": 1}),
        "easy": _example(
            "Play the easy bot, 10 minutes a move", {"bot_level": "easy", "move_deadline_s": 600}
        ),
        "mineseeker": _example("Play the bot at mineseeker", {"variant": "mineseeker"}),
        "windows-duel": _example("Play the bot at windows-duel", {"variant": "windows-duel"}),
        "friend": _example(
            "A rated game against a friend (accounts only)",
            {"bots": 0, "rated": True, "invite": ["ben"]},
        ),
    },
    "JoinRequest": {
        "plain": _example("Take the open seat", {}),
        "seed": _example("Take it with a client seed of your own", {"client_seed": "my-seed-42"}),
    },
    "CommitRequest": {
        "centre": _example("Tap the centre on move 0", {"row": 7, "col": 7, "expected_move": 0}),
        "keyed": _example(
            "Tap (row 8, col 6) on move 3",
            {"row": 8, "col": 6, "expected_move": 3, "action": "tap"},
        ),
        "bomb": _example(
            "mineseeker: bomb the 5 x 5 square around (4, 12)",
            {"action": "bomb", "row": 4, "col": 12, "expected_move": 9},
        ),
        "guess": _example(
            "windows-duel: guess that (5, 5) is a mine",
            {"action": "guess", "row": 5, "col": 5, "expected_move": 0},
        ),
        "reveal": _example(
            "windows-duel: reveal (0, 0) as safe",
            {"action": "reveal", "row": 0, "col": 0, "expected_move": 1},
        ),
    },
    "UpdateMeRequest": {
        "both": _example(
            "Pick a username and join the leaderboard",
            {"username": "ann", "settings": {"leaderboard": True}},
        ),
        "private": _example("Hide from spectators", {"settings": {"spectators": False}}),
        "quiet": _example(
            "No more notifications of the end of a game (the other kinds stay as they are)",
            {"settings": {"notify": {"game_over": False}}},
        ),
    },
    "PushSubscriptionRequest": {
        "chrome": _example("This browser (PushSubscription.toJSON(), Chrome)", WEB_SUBSCRIPTION),
        "firefox": _example(
            "This browser (Firefox)",
            {
                **WEB_SUBSCRIPTION,
                "endpoint": "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABexample",
            },
        ),
        "iphone": _example(
            "An iPhone's APNs device token",
            {
                "kind": "apns",
                "device_token": "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
            },
        ),
        "android": _example(
            "An Android phone's FCM registration token",
            {"kind": "fcm", "device_token": "cXample-FCM-token:APA91bExampleOnly"},
        ),
    },
    "AvatarUploadRequest": {
        "png": _example("A PNG picture", {"content_type": "image/png"}),
        "jpeg": _example("A JPEG picture", {"content_type": "image/jpeg"}),
    },
    "SeekRequest": {
        "rated": _example(
            "Mine duel, a day a move, rated, opponents rated 1400 to 1600",
            {
                "variant": "mine-duel",
                "move_deadline_s": 86400,
                "rated": True,
                "rating_range": [1400, 1600],
            },
        ),
        "any": _example("The defaults: mine duel, a day a move, unrated, anybody", {}),
        "live": _example(
            "Five minutes a move, windows duel", {"variant": "windows-duel", "move_deadline_s": 300}
        ),
    },
    "DecisionRequest": {
        "restrict": _example(
            "Restrict: off the leaderboards and rated games",
            {"decision": "restrict", "note": "Every tap the engine's, ten games running."},
        ),
        "clear": _example("Clear", {"decision": "clear", "note": "Strong, and human."}),
    },
    "ClaimRequest": {
        "claim": _example(
            "The guest token the games were played with", {"guest_token": GUEST_TOKEN}
        ),
    },
}

SUCCESSES: dict[str, Examples] = {
    "VapidKeyOut": {
        "key": _example("The stack's VAPID public key", {"public_key": VAPID_PUBLIC_KEY})
    },
    "PushSubscriptionOut": {"web": _example("This browser's subscription", PUSH_SUBSCRIPTION)},
    "PushSubscriptionsOut": {
        "two": _example(
            "A browser and a phone",
            {"subscriptions": [PHONE_SUBSCRIPTION, PUSH_SUBSCRIPTION], "next": None},
        ),
        "none": _example("Notifications are off everywhere", {"subscriptions": [], "next": None}),
    },
    "GuestOut": {
        "guest": _example(
            "A new guest",
            {"token": GUEST_TOKEN, "player_id": GUEST_ID, "expires_at": "2026-12-07T12:07:20Z"},
        )
    },
    "GameOut": {
        "new": _example("A new game against the bot, seat 0 to move", NEW_GAME),
        "played": _example("After a tap and the bot's reply", PLAYED_GAME),
        "finished": _example("Finished: seat 0 resigned, so its seed is public", FINISHED_GAME),
    },
    "CommitOut": {
        "safe": _example(
            "A safe tap, then the bot's reply: the turn is back",
            {"game": PLAYED_GAME, "moves": MOVES},
        ),
        "windows-duel": _example(
            "windows-duel: a wrong guess (its cell, `?` on the board, shown to its own seat "
            "only until the end), then the bot revealed a mine",
            {"game": WINDOWS_GAME, "moves": WINDOWS_MOVES},
        ),
    },
    "MovesOut": {
        "log": _example("The log after move 0, oldest first", {"moves": MOVES}),
        "mine": _example("A mine: flagged for the tapper, who moves again", {"moves": [A_MINE]}),
    },
    "VerificationOut": {
        "finished": _example(
            "A finished game: seed, field and the server's verdict", VERIFICATION_FINISHED
        ),
        "running": _example("A running game: nothing to check yet", VERIFICATION_RUNNING),
        "daily": _example(
            "A daily game of a month that is over: its field id, and the month key that gives "
            "the day's seed",
            VERIFICATION_DAILY,
        ),
    },
    "SummaryOut": {"finished": _example("How a finished game played out", SUMMARY)},
    "GameListOut": {
        "mine": _example("The caller's games, the one waiting on them first", MY_GAMES),
        "open": _example("A page of waiting games, with the cursor of the next", WAITING_GAMES),
    },
    "ProfileOut": {"player": _example("A player's profile", PROFILE)},
    "LeaderboardOut": {"top": _example("The top of mine-duel's leaderboard", LEADERBOARD)},
    "AvatarUploadOut": {"form": _example("Where to POST the picture", AVATAR_UPLOAD)},
    "ClaimOut": {"claimed": _example("Three games moved to the account", {"claimed_games": 3})},
    "AnalysisOut": {"finished": _example("The example game's analysis", ANALYSIS)},
    "DailyOut": {
        "played": _example("With a token: today's attempt made, and its game", DAILY_TODAY),
        "anonymous": _example(
            "Without a token (or before playing)", {**DAILY_TODAY, "played": False, "game": None}
        ),
    },
    "DailyTableOut": {
        "open": _example(
            "A day still running: no seed, no game ids; equal mines and safe taps share a rank",
            DAILY_TABLE_OPEN,
        ),
        "closed": _example(
            "A closed day of a month that is over: its seed and the month key are public",
            DAILY_TABLE_CLOSED,
        ),
    },
    "ExportsOut": {"months": _example("Two months exported, newest first", EXPORTS)},
    "SeekOut": {"open": _example("An open seek, waiting", SEEK_OPEN)},
    "SeekListOut": {"open": _example("Open seeks of mine-duel", SEEKS)},
    "FairPlayOut": {"clear": _example("A player's own record", FAIR_PLAY)},
    "CaseOut": {"open": _example("An open case", CASE)},
    "CaseListOut": {"open": _example("Open cases, newest first", {"cases": [CASE], "next": None})},
}
_BY_OPERATION: dict[str, Examples] = {
    "getMe": {"me": _example("The caller's own profile, with settings", MY_PROFILE)},
    "updateMe": {"me": _example("The profile after the change", MY_PROFILE)},
    "acceptAvatarUpload": {"me": _example("The profile with its new picture", MY_PROFILE)},
    "listLobby": {"open": _example("A page of waiting games", WAITING_GAMES)},
    "listPlayerGames": {
        "finished": _example(
            "Finished games, newest first",
            {"games": [{**WAITING_GAMES["games"][0], "status": "finished"}], "next": None},
        )
    },
    "resignGame": {"finished": _example("The game after the caller resigned", FINISHED_GAME)},
    "claimTimeout": {"finished": _example("The overdue seat is out", FINISHED_GAME)},
    "getGame": {
        **SUCCESSES["GameOut"],
        "watched": _example("Followed live by three spectators", {**PLAYED_GAME, "watchers": 3}),
    },
    "playDaily": {"daily": _example("Today's daily game: the day's commitment", DAILY_GAME)},
    "turnOffSpectators": {
        "off": _example(
            "Spectators off for the rest of the game", {**PLAYED_GAME, "spectators_off": True}
        )
    },
    "getSeek": {
        "open": _example("Still waiting", SEEK_OPEN),
        "paired": _example("Paired: the game is ready", SEEK_PAIRED),
    },
    "cancelSeek": {
        "cancelled": _example("Cancelled", {**SEEK_OPEN, "status": "cancelled"}),
    },
    "decideCase": {
        "restricted": _example("Restricted, and logged", CASE_RESTRICTED),
    },
    "exportPlayerGames": {
        "page": _example("A page of one game (a line of NDJSON)", EXPORT_PAGE),
        "empty": _example("No game matches the filters: an empty body", ""),
    },
}

_BY_STATUS: dict[tuple[str, int], Examples] = {
    # one operation, two successes of one schema: each its own example
    ("createSeek", 201): {"open": _example("Nobody fits yet: the seek waits", SEEK_OPEN)},
    ("createSeek", 200): {
        "paired": _example("An open seek fitted: paired at once into a new game", SEEK_PAIRED)
    },
}

_GAME_PATH = f"/v1/games/{GAME_ID}"


def _problem(status: int, code: str, message: str, path: str, **extra: Any) -> dict[str, Any]:
    return ApiError(status, code, message, extra.get("details")).body(path)


_ERRORS: dict[int, tuple[str, str, str]] = {
    400: ("malformed-request", "The body is not valid JSON.", _GAME_PATH + "/moves"),
    401: ("unauthorized", "Send a valid token in the Authorization header.", _GAME_PATH),
    403: ("not-your-turn", "It is seat 1's turn, not yours.", _GAME_PATH + "/moves"),
    404: ("game-not-found", "There is no such game.", _GAME_PATH),
    409: (
        "stale-move",
        "The game is at move 2, not 0: reload it and commit again.",
        _GAME_PATH + "/moves",
    ),
    413: ("body-too-large", "Send a request body of at most 16384 bytes.", _GAME_PATH + "/moves"),
    415: (
        "unsupported-media-type",
        "Send the body as JSON, with the header 'content-type: application/json'.",
        _GAME_PATH + "/moves",
    ),
    500: ("internal-error", "Something went wrong on our side; try again.", _GAME_PATH + "/moves"),
    503: (
        "auth-unavailable",
        "Account sign-in cannot be checked right now; try again.",
        _GAME_PATH + "/moves",
    ),
}
_ERRORS_BY_OPERATION: dict[tuple[str, int], tuple[str, str, str]] = {
    ("getPlayer", 404): ("player-not-found", "No player has that username.", "/v1/players/zed"),
    ("listPlayerGames", 404): (
        "player-not-found",
        "No player has that username.",
        "/v1/players/zed/games",
    ),
    ("getLeaderboard", 404): (
        "leaderboard-not-found",
        "chess has no leaderboard; rated variants: mine-duel.",
        "/v1/leaderboards/chess",
    ),
    ("getAvatar", 404): ("avatar-not-found", "There is no avatar with that id.", AVATAR_URL),
    ("getGameSummary", 409): (
        "game-not-finished",
        "The game is active; its summary comes at the end.",
        _GAME_PATH + "/summary",
    ),
    ("getMe", 403): (
        "accounts-only",
        "Sign in to an account for this; guests have no profile.",
        "/v1/me",
    ),
    ("createGame", 422): (
        "too-many-invites",
        "Invite at most one player per open seat.",
        "/v1/games",
    ),
    ("createGame", 403): (
        "guests-play-bots-only",
        "Guests may only play bots: fill every other seat with a bot.",
        "/v1/games",
    ),
    ("getGameAnalysis", 409): (
        "game-not-finished",
        "The game is active; its analysis comes at the end.",
        _GAME_PATH + "/analysis",
    ),
    ("getDaily", 401): (
        "unauthorized",
        "Send a valid token in the Authorization header.",
        "/v1/daily",
    ),
    ("getDailyTable", 400): (
        "bad-cursor",
        "The cursor is not valid here; start again without a cursor.",
        "/v1/daily/2026-11-30/table",
    ),
    ("getDailyTable", 404): (
        "day-not-found",
        "There is no daily duel for 2026-12-24 (yet).",
        "/v1/daily/2026-12-24/table",
    ),
    ("getDailyTable", 422): (
        "bad-date",
        "A day is written YYYY-MM-DD, e.g. 2026-12-01.",
        "/v1/daily/30-11-2026/table",
    ),
    ("playDaily", 409): (
        "daily-already-played",
        f"You have had your attempt at 2026-11-30's daily duel (game {DAILY_GAME_ID}).",
        "/v1/daily/play",
    ),
    ("playDaily", 503): (
        "daily-not-ready",
        DailyNotReady.default_message,
        "/v1/daily/play",
    ),
    ("turnOffSpectators", 403): (
        "not-your-seat",
        "You do not hold a seat in this game.",
        _GAME_PATH + "/spectators",
    ),
    ("turnOffSpectators", 409): (
        "game-over",
        "The game is finished; nobody watches it live.",
        _GAME_PATH + "/spectators",
    ),
    ("addPushSubscription", 403): (
        "accounts-only",
        "Sign in to an account for this; guests have no profile.",
        "/v1/me/push-subscriptions",
    ),
    ("addPushSubscription", 409): (
        "too-many-subscriptions",
        "You have 10 devices and browsers set up for notifications: remove one first.",
        "/v1/me/push-subscriptions",
    ),
    ("addPushSubscription", 422): (
        "push-endpoint-not-allowed",
        "Notifications go only to the browsers' push services (https on fcm.googleapis.com, "
        "updates.push.services.mozilla.com, *.push.apple.com or *.notify.windows.com).",
        "/v1/me/push-subscriptions",
    ),
    ("listPushSubscriptions", 403): (
        "accounts-only",
        "Sign in to an account for this; guests have no profile.",
        "/v1/me/push-subscriptions",
    ),
    ("deletePushSubscription", 404): (
        "subscription-not-found",
        "There is no such notification subscription of yours.",
        "/v1/me/push-subscriptions/kq3m1Y5rJ0bW8cX2vN4tUg",
    ),
    ("getVapidKey", 503): (
        "push-key-unavailable",
        "Notifications cannot be set up right now; try again in a minute.",
        "/v1/push/vapid-key",
    ),
    ("exportPlayerGames", 400): (
        "bad-cursor",
        "The cursor is not valid here; start again without a cursor.",
        "/v1/players/ann/games/export",
    ),
    ("exportPlayerGames", 404): (
        "player-not-found",
        "No player has that username.",
        "/v1/players/zed/games/export",
    ),
    ("exportPlayerGames", 422): (
        "bad-variant",
        "variant is one of mine-duel, mineseeker, windows-duel.",
        "/v1/players/ann/games/export",
    ),
}
_ERRORS_BY_OPERATION.update(
    {
        ("createSeek", 403): (
            "accounts-only",
            "Sign in to an account for this; guests have no profile.",
            "/v1/seeks",
        ),
        ("createSeek", 409): (
            "seek-open",
            f"You already have an open seek in mine-duel ({SEEK_ID}); cancel it first.",
            "/v1/seeks",
        ),
        ("getSeek", 403): (
            "accounts-only",
            "Sign in to an account for this; guests have no profile.",
            f"/v1/seeks/{SEEK_ID}",
        ),
        ("getSeek", 404): (
            "seek-not-found",
            "You have no seek with that id.",
            f"/v1/seeks/{SEEK_ID}",
        ),
        ("cancelSeek", 403): (
            "accounts-only",
            "Sign in to an account for this; guests have no profile.",
            f"/v1/seeks/{SEEK_ID}",
        ),
        ("cancelSeek", 404): (
            "seek-not-found",
            "You have no seek with that id.",
            f"/v1/seeks/{SEEK_ID}",
        ),
        ("cancelSeek", 409): (
            "seek-not-open",
            f"The seek was paired into game {GAME_ID}.",
            f"/v1/seeks/{SEEK_ID}",
        ),
        ("listSeeks", 400): (
            "bad-cursor",
            "The cursor is not valid here; start again without a cursor.",
            "/v1/seeks",
        ),
        ("getFairPlay", 403): (
            "fair-play-private",
            "Only the player and moderators see a player's fair-play record.",
            "/v1/players/ann/fair-play",
        ),
        ("getFairPlay", 404): (
            "player-not-found",
            "No player has that username.",
            "/v1/players/zed/fair-play",
        ),
        ("listCases", 403): (
            "not-a-moderator",
            "Only moderators may do this.",
            "/v1/moderation/cases",
        ),
        ("listCases", 400): (
            "bad-cursor",
            "The cursor is not valid here; start again without a cursor.",
            "/v1/moderation/cases",
        ),
        ("decideCase", 403): (
            "not-a-moderator",
            "Only moderators may do this.",
            f"/v1/moderation/cases/{CASE_ID}",
        ),
        ("decideCase", 404): (
            "case-not-found",
            "There is no case with that id.",
            f"/v1/moderation/cases/{CASE_ID}",
        ),
        ("decideCase", 409): (
            "fair-play-conflict",
            "The player's record changed at the same moment; try again.",
            f"/v1/moderation/cases/{CASE_ID}",
        ),
    }
)
_INVALID = _problem(
    422,
    "invalid-request",
    "Fix these fields and send again: row, col.",
    _GAME_PATH + "/moves",
    details=[
        {"loc": ["body", "row"], "msg": "Input should be a valid integer", "type": "int_type"},
        {"loc": ["body", "col"], "msg": "Field required", "type": "missing"},
    ],
)
_GATEWAY_MESSAGES = {
    413: ("API Gateway's own answer to a body over 10 MB", "Request Entity Too Large"),
    429: ("API Gateway's throttle of the route", "Too Many Requests"),
    500: (
        "API Gateway's own answer: the function could not answer at all",
        "Internal Server Error",
    ),
}
_TOO_MANY_GUESTS = (
    "too-many-requests",
    "Too many new guests from your address; try again in 42 s.",
    "/v1/guests",
)


def request(operation_id: str, schema: str | None) -> Examples:
    """The examples of ``operation_id``'s request body (whose schema is ``schema``)."""
    found = REQUESTS.get(schema or "")
    if found is None:
        raise KeyError(f"{operation_id}: no request examples for schema {schema!r}")
    return copy.deepcopy(found)


def response(operation_id: str, status: int, media_type: str, schema: str | None) -> Examples:
    """The examples of one answer of ``operation_id`` (``status``, ``media_type``, ``schema``)."""
    if schema == "GatewayMessageOut":
        summary, message = _GATEWAY_MESSAGES[status]
        return {"gateway": _example(summary, {"message": message})}
    if media_type.startswith("text/html"):
        return {"page": _example("The page (shortened)", SHARE_PAGES[status])}
    if schema == "ErrorOut":
        return {"problem": _example("A problem of this kind", _error(operation_id, status))}
    found = _BY_STATUS.get((operation_id, status)) or (
        _BY_OPERATION.get(operation_id) if status < 300 else None
    )
    found = found or SUCCESSES.get(schema or "")
    if found is None:
        raise KeyError(f"{operation_id} {status}: no examples for schema {schema!r}")
    return copy.deepcopy(found)


def _error(operation_id: str, status: int) -> dict[str, Any]:
    if status == 422 and (operation_id, status) not in _ERRORS_BY_OPERATION:
        return copy.deepcopy(_INVALID)
    if (operation_id, status) == ("createGuest", 429):
        code, message, path = _TOO_MANY_GUESTS
    else:
        code, message, path = _ERRORS_BY_OPERATION.get((operation_id, status)) or _ERRORS[status]
    return _problem(status, code, message, path)
