"""Hypothesis properties of mineseeker and windows-duel, on random small fields and games.

- auto-reveal never opens a mine, shows true numbers, leaves nothing it should open, and opens
  exactly what brute-force enumeration of the public information says it must;
- auto-reveal never depends on hidden data: the same public history on a different field (mines
  moved where nothing public can tell) gives the same moves, auto-reveals included, and the
  rules never read a seat's private part for what they publish;
- per-viewer rendering never shows another seat's wrong guess while the game runs;
- replay and verify round-trip; any single tampering with an honest document is caught.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from hypothesis import event, given, settings
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
from mineduel_engine.auto_reveal import fixed_cells
from mineduel_engine.geometry import neighbours
from mineduel_engine.mineseeker import may_bomb
from mineduel_engine.state import COVERED, SHOWN_MINES, WRONG_GUESS

DIGITS = "012345678"


@dataclass
class Game:
    settings: Settings
    seed: bytes
    field: Field
    states: list[GameState]
    moves: list[Move]
    actions: list[tuple[str, int, int, int]]  # (action, seat, row, col) as played, or exits


def play_random(
    variant: str,
    settings_: Settings,
    field: Field,
    rng: random.Random,
    exit_rate: float,
    limit: int | None = None,
) -> tuple[list[GameState], list[Move], list[tuple[str, int, int, int]]]:
    """Random legal moves: uniform covered cells, random actions, now and then an exit."""
    rules = rules_for(variant)
    state = rules.new_game(settings_)
    states, moves, actions = [state], [], []
    while not state.finished and (limit is None or len(moves) < limit):
        assert state.turn is not None
        turn = state.turn
        if rng.random() < exit_rate:
            seat = rng.choice(state.seats_in) if rng.random() < 0.5 else turn
            reason = "resign" if seat != turn or rng.random() < 0.5 else "timeout"
            state, move = rules.eliminate(state, seat, reason)
            actions.append((reason, seat, -1, -1))
        else:
            covered = [i for i, c in enumerate(state.cells) if c == COVERED]
            row, col = divmod(rng.choice(covered), settings_.width)
            if variant == "windows-duel":
                # A player never guesses again where it knows there is no mine.
                fresh = [c for c in covered if c not in state.wrong_guesses(turn)]
                action = rng.choice(["guess", "reveal"]) if fresh else "reveal"
                if action == "guess":
                    row, col = divmod(rng.choice(fresh), settings_.width)
            elif may_bomb(state, turn) and rng.random() < 0.15:
                action = "bomb"
                row, col = divmod(rng.randrange(settings_.size), settings_.width)
            else:
                action = "tap"
            state, move = rules.play(state, field, turn, action, row, col)
            actions.append((action, turn, row, col))
        states.append(state)
        moves.append(move)
        assert len(moves) <= 4 * settings_.size + 4, "a game must end"
    return states, moves, actions


@st.composite
def games(draw: st.DrawFn, variant: str) -> Game:
    width, height = draw(st.integers(2, 8)), draw(st.integers(2, 8))
    size = width * height
    mines = draw(st.integers(1, min(size - 1, max(1, size // 3))))
    options = {"bomb_when_behind": draw(st.booleans())} if variant == "mineseeker" else None
    game_settings = Settings(variant, width, height, mines, 2)
    if options is not None:
        game_settings = game_settings.with_options(options)
    seed = draw(st.binary(min_size=32, max_size=32))
    field = Field.from_seed(seed, "prop", ["", ""], width, height, mines)
    rng = draw(st.randoms(use_true_random=False))
    exit_rate = draw(st.sampled_from([0.0, 0.0, 0.03]))
    states, moves, actions = play_random(variant, game_settings, field, rng, exit_rate)
    return Game(game_settings, seed, field, states, moves, actions)


# --- auto-reveal --------------------------------------------------------------------------


def reference_fixed(width: int, height: int, mines: int, cells: list[str]) -> set[int] | None:
    """What auto-reveal must open, by brute force over every mine layout (None: too many)."""
    table = neighbours(width, height)
    board = list(cells)
    opened: set[int] = set()
    while True:
        covered = [i for i, c in enumerate(board) if c == COVERED]
        shown = {i for i, c in enumerate(board) if c in SHOWN_MINES}
        left = mines - len(shown)
        if comb(len(covered), left) > 3000:
            return None
        numbered = [i for i, c in enumerate(board) if c in DIGITS]
        layouts = []
        for chosen in combinations(covered, left):
            placed = shown | set(chosen)
            if all(sum(n in placed for n in table[i]) == int(board[i]) for i in numbered):
                layouts.append(set(chosen))
        assert layouts, "a board from a real game always fits some layout"
        safe = {c for c in covered if not any(c in lay for lay in layouts)}
        sure = {c for c in covered if all(c in lay for lay in layouts)}
        new = {
            c for c in safe if all(board[n] != COVERED or n in safe or n in sure for n in table[c])
        }
        if not new:
            return opened
        for c in new:
            board[c] = str(sum(n in shown or n in sure for n in table[c]))
        opened |= new


@settings(max_examples=80, deadline=None)
@given(games("windows-duel"))
def test_auto_reveal_is_sound_complete_and_exact(game: Game) -> None:
    width = game.settings.width
    s = game.settings
    for after, move in zip(game.states[1:], game.moves, strict=True):
        for r, c, number in (*move.opened, *move.auto_opened):
            assert not game.field.is_mine(r * width + c)
            assert game.field.numbers[r * width + c] == number
        assert fixed_cells(s.width, s.height, s.mines, list(after.cells)) == []
        if move.is_elimination:
            continue
        before = list(after.cells)
        for r, c, _ in move.auto_opened:
            before[r * width + c] = COVERED
        expected = reference_fixed(s.width, s.height, s.mines, before)
        event("compared with brute force" if expected is not None else "too many layouts")
        if expected is not None:
            assert {r * width + c for r, c, _ in move.auto_opened} == expected


def far_twin(game: Game, upto: int, rng: random.Random) -> Field | None:
    """Another field on which the first ``upto`` moves show exactly the same: mines moved
    among covered cells that touch no open number and that nobody guessed."""
    state = game.states[upto]
    table = neighbours(game.field.width, game.field.height)
    guessed = {
        m.row * game.field.width + m.col
        for m in game.moves[:upto]
        if m.is_private and m.row is not None and m.col is not None
    }
    far = [
        c
        for c, ch in enumerate(state.cells)
        if ch == COVERED
        and c not in guessed
        and all(state.cells[n] not in DIGITS for n in table[c])
    ]
    inside = [c for c in far if game.field.is_mine(c)]
    if not inside or len(inside) == len(far):
        return None
    empty = [c for c in far if not game.field.is_mine(c)]
    moved = (set(inside) - {rng.choice(inside)}) | {rng.choice(empty)}
    return Field.from_cells(
        game.field.width, game.field.height, (game.field.mines - set(far)) | moved
    )


@settings(max_examples=80, deadline=None)
@given(games("windows-duel"), st.data())
def test_the_same_public_history_auto_reveals_the_same_cells(
    game: Game, data: st.DataObject
) -> None:
    rules = rules_for("windows-duel")
    upto = data.draw(st.integers(0, len(game.moves)))
    if upto == len(game.moves) and game.states[-1].finished:
        upto = max(0, upto - 1)  # the last move of a finished game opens the rest
    twin = far_twin(game, upto, random.Random(upto))
    event("a twin field" if twin is not None else "no twin field")
    if twin is None:
        return
    assert twin.mines != game.field.mines
    state = rules.new_game(game.settings)
    for (action, seat, row, col), logged in zip(
        game.actions[:upto], game.moves[:upto], strict=True
    ):
        if action in ("resign", "timeout"):
            state, move = rules.eliminate(state, seat, action)
        else:
            state, move = rules.play(state, twin, seat, action, row, col)
        assert move == logged
    assert state == game.states[upto]


@settings(max_examples=60, deadline=None)
@given(games("windows-duel"))
def test_the_rules_never_read_a_private_part_for_what_they_publish(game: Game) -> None:
    rules = rules_for("windows-duel")
    for before, (action, seat, row, col), logged, after in zip(
        game.states[:-1], game.actions, game.moves, game.states[1:], strict=True
    ):
        blind = before.seen_by(None)
        if action in ("resign", "timeout"):
            again, move = rules.eliminate(blind, seat, action)
        else:
            again, move = rules.play(blind, game.field, seat, action, row, col)
        assert move == logged
        assert again.to_dict() == after.to_dict()


# --- rendering for viewers ----------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(games("windows-duel"))
def test_no_viewer_ever_sees_another_seats_wrong_guess_while_the_game_runs(game: Game) -> None:
    width = game.settings.width
    for n, state in enumerate(game.states):
        moves = game.moves[:n]
        finished = state.finished
        assert WRONG_GUESS not in "".join(state.board())
        assert state.to_dict() == state.seen_by(None).to_dict()
        for viewer in (0, 1):
            board = "".join(state.board(viewer))
            marks = {i for i, ch in enumerate(board) if ch == WRONG_GUESS}
            own = {c for c in state.wrong_guesses(viewer) if state.cells[c] == COVERED}
            assert marks == own
            assert public_board(game.settings, moves, viewer) == state.board(viewer)
            for move in moves:
                shown = move.view(viewer, finished)
                if move.is_private and move.seat != viewer and not finished:
                    assert shown["row"] is None and shown["col"] is None
                else:
                    assert (shown["row"], shown["col"]) == (move.row, move.col)
        for move in moves:
            if move.is_private:
                assert move.row is not None and move.col is not None
                assert move.row * width + move.col in state.wrong_guesses(move.seat)
                assert move.to_dict()["row"] is None


# --- replay, verify, tampering ------------------------------------------------------------


def honest_document(game: Game) -> dict[str, Any]:
    return build_document(
        game_id="prop",
        settings=game.settings,
        commitment=commitment(game.seed),
        client_seeds=["", ""],
        moves=game.moves,
        status="finished",
        seed=game.seed,
        result=game.states[-1].result,
        state=game.states[-1],
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["mineseeker", "windows-duel"]).flatmap(games))
def test_replay_and_verify_round_trip(game: Game) -> None:
    final = game.states[-1]
    records = [m.to_record() for m in game.moves]
    assert replay(game.settings, game.field, game.moves) == final
    assert replay(game.settings, game.field, records) == final
    assert [Move.from_dict(r) for r in records] == game.moves
    for state in game.states:
        parts = [state.private_dict(0), state.private_dict(1)]
        assert GameState.from_dict(state.to_dict(), private=parts) == state
    verdict = verify_document(honest_document(game))
    s = game.settings
    # Small boards are not the variant's standard size: that one check fails, nothing else.
    assert len(verdict.problems) == 1, verdict.problems
    assert f"not {s.width}x{s.height} with {s.mines}" in verdict.problems[0]


def _tamper(doc: dict[str, Any], data: st.DataObject) -> str:
    """Change one thing a cheat might change; say what."""
    moves = doc["moves"]
    index = data.draw(st.integers(0, len(moves) - 1))
    move = moves[index]
    kinds = ["seat", "drop-last", "seat-counter"]
    if move["action"] in ("guess", "reveal"):
        kinds += ["result", "points"]
        if move["auto_opened"]:
            kinds.append("auto")
    if move["action"] in ("tap", "reveal", "bomb") and move["opened"]:
        kinds.append("number")
    if move["action"] == "bomb":
        kinds.append("unbomb")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "seat":
        move["seat"] = 1 - move["seat"]
    elif kind == "drop-last":
        moves.pop()
    elif kind == "seat-counter":
        seat = doc["seats"][data.draw(st.integers(0, 1))]
        key = data.draw(
            st.sampled_from(sorted(k for k in seat if k not in ("seat", "client_seed")))
        )
        value = seat[key]
        seat[key] = (not value) if isinstance(value, bool) else (value or 0) + 1
    elif kind == "result":
        flip = {
            "guess": {"mine": "miss", "miss": "mine"},
            "reveal": {"safe": "mine", "mine": "safe"},
        }
        move["result"] = flip[move["action"]][move["result"]]
    elif kind == "points":
        move["points"] += data.draw(st.sampled_from([-7, -3, 2, 5]))
    elif kind == "auto":
        move["auto_opened"].pop(data.draw(st.integers(0, len(move["auto_opened"]) - 1)))
    elif kind == "unbomb":
        move.update(action="tap", result="safe")
    else:
        cell = move["opened"][data.draw(st.integers(0, len(move["opened"]) - 1))]
        cell[2] = (cell[2] + 1) % 9
    return kind


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["mineseeker", "windows-duel"]).flatmap(games), st.data())
def test_any_single_tampering_is_caught(game: Game, data: st.DataObject) -> None:
    doc = honest_document(game)
    honest = verify_document(doc)
    kind = _tamper(doc, data)
    event(f"{game.settings.variant}: {kind}")
    tampered = verify_document(doc)
    assert not tampered.ok
    # Small boards already fail the standard-size check; tampering must add a problem to it.
    assert set(honest.problems) < set(tampered.problems), kind
