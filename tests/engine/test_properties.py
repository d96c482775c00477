"""Hypothesis properties of the rules, on random fields and random (legal) games.

Each property is checked after every move of many random games on small boards, where edge
cases (corners, walls of mines, whole-board floods, 3-4 seat endings) come up often.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine import (
    Field,
    GameState,
    Move,
    Settings,
    build_document,
    commitment,
    public_board,
    replay,
    rules_for,
    verify_document,
)
from mineduel_engine.geometry import neighbours
from mineduel_engine.state import COVERED

RULES = rules_for("mine-duel")


@dataclass
class Game:
    settings: Settings
    seed: bytes
    field: Field
    states: list[GameState]
    moves: list[Move]


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A random game played to its end: random taps, now and then a resignation or timeout."""
    width, height = draw(st.integers(2, 10)), draw(st.integers(2, 10))
    size = width * height
    mines = draw(st.integers(1, size - 1))
    seats = draw(st.integers(2, 4))
    rng = draw(st.randoms(use_true_random=False))
    exit_rate = draw(st.sampled_from([0.0, 0.0, 0.02, 0.1]))
    seed = draw(st.binary(min_size=32, max_size=32))
    client_seeds = [""] * seats
    field = Field.from_seed(seed, "prop", client_seeds, width, height, mines)
    game_settings = Settings("mine-duel", width, height, mines, seats)
    state = RULES.new_game(game_settings)
    states, moves = [state], []
    while not state.finished:
        assert state.turn is not None
        if rng.random() < exit_rate:
            seat = rng.choice(state.seats_in) if rng.random() < 0.5 else state.turn
            reason = "resign" if seat != state.turn or rng.random() < 0.5 else "timeout"
            state, move = RULES.eliminate(state, seat, reason)
        else:
            covered = [i for i, c in enumerate(state.cells) if c == COVERED]
            state, move = RULES.play(
                state, field, state.turn, "tap", *divmod(rng.choice(covered), width)
            )
        states.append(state)
        moves.append(move)
        assert len(moves) <= size + seats, "a game must end within one move per cell and seat"
    return Game(game_settings, seed, field, states, moves)


def reference_open(field: Field, cells: list[str], start: int) -> set[int]:
    """What a tap on ``start`` must open, computed differently: grow to a fixpoint."""
    table = neighbours(field.width, field.height)
    opened = {start}
    while True:
        grown = {
            n for c in opened if field.numbers[c] == 0 for n in table[c] if cells[n] == COVERED
        } | opened
        if grown == opened:
            return opened
        opened = grown


@settings(max_examples=120, deadline=None)
@given(games())
def test_flood_never_opens_a_mine_and_leaves_no_blank_cell_with_a_covered_neighbour(
    game: Game,
) -> None:
    table = neighbours(game.field.width, game.field.height)
    width = game.field.width
    for before, move, after in zip(game.states[:-1], game.moves, game.states[1:], strict=True):
        opened = {r * width + c for r, c, _ in move.opened}
        for r, c, number in move.opened:
            assert not game.field.is_mine(r * width + c)
            assert game.field.numbers[r * width + c] == number
        if move.result == "safe":
            start = (move.row or 0) * width + (move.col or 0)
            assert opened == reference_open(game.field, list(before.cells), start)
        for cell, code in enumerate(after.cells):
            if code == "0":
                assert all(after.cells[n] != COVERED for n in table[cell])
        assert [(r, c) for r, c, _ in move.opened] == sorted((r, c) for r, c, _ in move.opened)


@settings(max_examples=120, deadline=None)
@given(games())
def test_flags_and_covered_mines_always_sum_to_the_mine_count(game: Game) -> None:
    for state in game.states:
        covered_mines = sum(
            1
            for cell, code in enumerate(state.cells)
            if code == COVERED and game.field.is_mine(cell)
        )
        flags = sum(1 for code in state.cells if code in "ABCD")
        assert flags == state.flagged == sum(seat.mines for seat in state.seats)
        assert flags + covered_mines == game.settings.mines
        assert state.mines_left == covered_mines


@settings(max_examples=120, deadline=None)
@given(games())
def test_every_game_ends_with_a_consistent_result(game: Game) -> None:
    final = game.states[-1]
    result = final.result
    assert result is not None and final.turn is None
    places = result.places
    assert sorted(places)[0] == 1 and len(places) == game.settings.seats
    assert (result.winner is None) == (places.count(1) > 1)
    if result.winner is not None:
        assert places[result.winner] == 1
    for seat, state in enumerate(final.seats):
        if state.out:
            assert places[seat] > len(final.seats_in)
    if result.reason == "field-done":
        assert final.mines_left == 0
    if result.reason in ("resign", "timeout"):
        assert len(final.seats_in) == 1
    if result.reason == "reach":
        winner = result.winner
        assert winner is not None
        assert all(
            final.seats[winner].mines > final.seats[t].mines + final.mines_left
            for t in final.seats_in
            if t != winner
        )


@settings(max_examples=60, deadline=None)
@given(games())
def test_replay_is_deterministic_and_verifies(game: Game) -> None:
    final = game.states[-1]
    assert replay(game.settings, game.field, game.moves) == final
    as_dicts = [m.to_dict() for m in game.moves]
    assert replay(game.settings, game.field, as_dicts) == final
    for n, state in enumerate(game.states):
        assert public_board(game.settings, game.moves[:n]) == state.board()
        assert GameState.from_dict(state.to_dict()) == state
    doc = _honest_document(game)
    assert doc["field"] == game.field.to_strings()
    verdict = verify_document(doc)
    assert verdict.checked
    # Small boards are not the variant's standard 16x16: that one check fails, nothing else.
    assert verdict.problems == (
        f"mine-duel is played on 16x16 with 51 mines, not {game.settings.width}x"
        f"{game.settings.height} with {game.settings.mines}",
    ) or (game.settings.width, game.settings.height, game.settings.mines) == (16, 16, 51)


def _honest_document(game: Game) -> dict[str, Any]:
    return build_document(
        game_id="prop",
        settings=game.settings,
        commitment=commitment(game.seed),
        client_seeds=[""] * game.settings.seats,
        moves=game.moves,
        status="finished",
        seed=game.seed,
        result=game.states[-1].result,
    )


def _tamper(doc: dict[str, Any], data: st.DataObject) -> str:
    """Change one thing a cheat might change in one logged move; say what."""
    moves = doc["moves"]
    index = data.draw(st.integers(0, len(moves) - 1))
    move = moves[index]
    seats, width, height = len(doc["client_seeds"]), doc["width"], doc["height"]
    kinds = ["seat", "drop-last"]
    if move["action"] == "tap":
        kinds += ["cell", "result"]
        if move["opened"]:
            kinds.append("number")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "seat":
        move["seat"] = data.draw(st.sampled_from([s for s in range(seats) if s != move["seat"]]))
    elif kind == "drop-last":
        moves.pop()
    elif kind == "cell":
        # Another cell of the same blank region would be an honest game too: same outcome.
        shown = {(r, c) for r, c, _ in move["opened"]} | {(r, c) for r, c in move["flagged"]}
        cells = [(r, c) for r in range(height) for c in range(width) if (r, c) not in shown]
        if not cells:
            return "nothing"
        row, col = data.draw(st.sampled_from(cells))
        move.update(row=row, col=col)
    elif kind == "result":
        move["result"] = "safe" if move["result"] == "mine" else "mine"
    else:
        cell = move["opened"][data.draw(st.integers(0, len(move["opened"]) - 1))]
        cell[2] = data.draw(st.sampled_from([n for n in range(9) if n != cell[2]]))
    return kind


@settings(max_examples=150, deadline=None)
@given(games(), st.data())
def test_any_single_tampering_is_caught(game: Game, data: st.DataObject) -> None:
    doc = _honest_document(game)
    honest = verify_document(doc)
    kind = _tamper(doc, data)
    if kind == "nothing":
        return
    tampered = verify_document(doc)
    assert not tampered.ok
    # Small boards already fail the standard-size check; tampering must add a problem to it.
    assert set(honest.problems) < set(tampered.problems), kind
