"""Whatever a client sends, in whatever order, the stored game stays exactly what its log says.

Random sequences of commits (fresh, stale, repeated, off the board, on open cells, with and
without Idempotency-Keys) against a bot game; after every request: no 5xx, the move log is
numbered 1..move_count, and the game's board is the board the log builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mineduel_engine import Move, Settings, public_board

if TYPE_CHECKING:
    from conftest import Api

actions = st.lists(
    st.tuples(
        st.integers(0, 17),  # row (16 and 17 are off the board)
        st.integers(0, 15),  # col
        st.sampled_from([0, 0, 0, -1, 1]),  # offset from the move count the client saw
        st.sampled_from([None, "k1", "k2"]),  # Idempotency-Key
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=actions)
def test_the_stored_game_is_always_what_its_log_builds(
    api: Api, steps: list[tuple[int, int, int, str | None]]
) -> None:
    token = api.guest()
    game = api.bot_game(token, bot_level="easy")
    game_id = game["game_id"]
    settings_ = Settings.for_variant("mine-duel", seats=2)
    for row, col, offset, key in steps:
        headers = {"Idempotency-Key": key} if key else None
        expected = max(0, game["move_count"] + offset)
        reply = api.commit(token, game_id, row, col, expected, headers=headers)
        assert reply.status < 500, reply.body
        game = api.call("GET", f"/v1/games/{game_id}").body
        log = api.call("GET", f"/v1/games/{game_id}/moves").body["moves"]
        assert [m["n"] for m in log] == list(range(1, game["move_count"] + 1))
        assert game["board"] == public_board(settings_, [Move.from_dict(m) for m in log])
        if reply.status == 200 and reply.body["game"]["move_count"] == game["move_count"]:
            assert reply.body["game"] == game
