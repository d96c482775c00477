"""mineseeker and windows-duel over the API: their moves and seats in the documented shapes
(``bomb_used``, ``score``, ``points``, ``auto_opened``), a wrong guess's cell hidden while the
game runs, and an action a variant does not have refused, never a 5xx."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import Api


def test_a_mineseeker_bomb_is_played_and_spent(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, variant="mineseeker")
    assert [seat["bomb_used"] for seat in game["seats"]] == [False, False]
    # The bomb hands the bot the turn with 25 cells opened, from which it may win the game at
    # once (about 3 boards in 1,000): bomb a corner after which, on the known field, it goes on.
    known = api.field(game["game_id"])
    row, col = next(
        corner
        for corner in [(0, 0), (0, 15), (15, 0), (15, 15)]
        if not api.after(game["game_id"], known, *corner, "bomb")[0].finished
    )
    reply = api.call(
        "POST",
        f"/v1/games/{game['game_id']}/moves",
        token=token,
        body={"action": "bomb", "row": row, "col": col, "expected_move": 0},
    )
    assert reply.status == 200, reply.body
    bomb = reply.body["moves"][0]
    assert (bomb["action"], bomb["result"], bomb["row"], bomb["col"]) == ("bomb", "bomb", row, col)
    assert len(bomb["opened"]) + len(bomb["flagged"]) >= 25
    assert reply.body["game"]["seats"][0]["bomb_used"] is True
    again = api.call(
        "POST",
        f"/v1/games/{game['game_id']}/moves",
        token=token,
        body={
            "action": "bomb",
            "row": 15,
            "col": 15,
            "expected_move": reply.body["game"]["move_count"],
        },
    )
    if reply.body["game"]["turn"]["seat"] == 0:  # the bot found mines and left the turn back
        assert (again.status, again.error_code) == (409, "bomb-used"), again.body
    else:
        assert (again.status, again.error_code) == (403, "not-your-turn"), again.body


def test_a_windows_duel_guess_scores_and_hides_its_cell(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, variant="windows-duel")
    assert (game["width"], game["height"], game["mines"]) == (11, 11, 15)
    assert [seat["score"] for seat in game["seats"]] == [0, 0]
    reply = api.call(
        "POST",
        f"/v1/games/{game['game_id']}/moves",
        token=token,
        body={"action": "guess", "row": 5, "col": 5, "expected_move": 0},
    )
    assert reply.status == 200, reply.body
    guess = reply.body["moves"][0]
    assert guess["action"] == "guess" and guess["points"] in (5, -2)
    assert isinstance(guess["auto_opened"], list)
    # The guesser sees its own guess, a wrong one included.
    assert (guess["row"], guess["col"]) == (5, 5)
    assert reply.body["game"]["seats"][0]["score"] == guess["points"]
    log = api.call("GET", f"/v1/games/{game['game_id']}/moves")
    assert log.status == 200 and log.body["moves"][0]["points"] == guess["points"]
    # Anybody else sees a wrong guess without its cell while the game runs.
    shown = log.body["moves"][0]
    if guess["result"] == "miss":
        assert (shown["row"], shown["col"]) == (None, None)
    else:
        assert (shown["row"], shown["col"]) == (5, 5)


def test_an_action_the_variant_lacks_is_a_422(api: Api) -> None:
    token = api.guest()
    game = api.bot_game(token, variant="windows-duel")
    reply = api.call(
        "POST",
        f"/v1/games/{game['game_id']}/moves",
        token=token,
        body={"action": "tap", "row": 5, "col": 5, "expected_move": 0},
    )
    assert reply.status == 422, reply.body
    assert reply.error_code == "bad-action"
