"""Post-game analysis (``mineduel_engine.analysis``): exact chances from what each seat saw, the
hard bot's choices, luck and skill loss that add up, a work budget that degrades to an estimate,
and a refusal for anything that is not a finished game whose moves replay."""

from __future__ import annotations

import copy
import json
import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine import Field, Settings, commitment, rules_for
from mineduel_engine import analysis as analysis_module
from mineduel_engine.analysis import (
    POSITION_BUDGET,
    AnalysisError,
    analyze,
    analyze_document,
    position_chances,
)
from mineduel_engine.bot.local import local_chances
from mineduel_engine.bot.position import Position
from mineduel_engine.fairness import Stream
from mineduel_engine.geometry import neighbours
from mineduel_engine.sample_games import play_bot_game, sample_seed
from mineduel_engine.state import COVERED

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("*.json"))


def bot_game(variant: str, label: str) -> dict[str, Any]:
    """A finished game of the hard bot against itself, as its Verification document."""
    return play_bot_game(label, variant).document()


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_golden_game_adds_up(path: Path) -> None:
    doc = json.loads(path.read_text())
    result = analyze_document(doc)
    assert result["game_id"] == doc["game_id"] and result["variant"] == doc["variant"]
    cells = [m for m in doc["moves"] if m["action"] not in ("resign", "timeout")]
    assert [m["n"] for m in result["moves"]] == [m["n"] for m in cells]
    for move in result["moves"]:
        if move["action"] == "bomb":
            assert move["p_mine"] is None
            assert 0.0 <= move["expected_mines"] <= move["best_expected_mines"] + 1e-9
            continue
        assert 0.0 <= move["p_mine"] <= move["p_best"] <= 1.0
        if move["result"] == "mine" and move["action"] == "tap":
            assert move["p_mine"] > 0.0  # a mine found where the board said "safe" is a bug
    for seat, line in enumerate(result["seats"]):
        declared = doc["seats"][seat]["mines"]
        assert line["mines"] == declared
        assert line["luck"] == pytest.approx(line["mines"] - line["expected_mines"], abs=1e-5)
        assert line["skill_loss"] >= 0.0
        entries = [m for m in result["moves"] if m["seat"] == seat]
        assert line["expected_mines"] == pytest.approx(
            sum(m["expected_mines"] for m in entries), abs=1e-4
        )
        if result["skill_unit"] == "points":
            assert line["points"] == doc["seats"][seat]["score"] - sum(
                m.get("points", 0) or 0
                for m in doc["moves"]
                if m["seat"] == seat and m["action"] in ("resign", "timeout")
            )
    assert result["budget"] == {
        "terms": POSITION_BUDGET,
        "estimated": [],
        "estimate": "local counting",
    }
    assert json.loads(json.dumps(result)) == result
    assert analyze_document(copy.deepcopy(doc)) == result  # the same numbers every time


@pytest.mark.parametrize("variant", ["mine-duel", "mineseeker", "windows-duel"])
def test_the_hard_bot_agrees_with_itself_on_every_move(variant: str) -> None:
    """Both seats are the hard bot: the analysis's ``bot`` is each move exactly."""
    result = analyze_document(bot_game(variant, f"agree-{variant}"))
    for move in result["moves"]:
        assert (move["bot_action"], *move["bot"]) == (move["action"], move["row"], move["col"])
    assert all(s["bot_moves"] == s["moves"] for s in result["seats"])
    if variant == "windows-duel":
        first = result["moves"][0]
        assert {"expected_points", "best_points", "points", "points_luck", "p_safest"} <= set(first)


def _brute_force(position: Position) -> dict[int, float]:
    """Each covered cell's mine chance by listing every layout that fits the board."""
    covered = position.covered
    counts = dict.fromkeys(covered, 0)
    fits = 0
    for mines in combinations(covered, position.mines_left):
        chosen = set(mines)
        ok = all(
            sum(1 for n in position.table[c] if n in chosen or position.is_flag(n))
            == position.number(c)
            for c in range(len(position.cells))
            if position.number(c) is not None
        )
        if ok:
            fits += 1
            for c in chosen:
                counts[c] += 1
    return {c: counts[c] / fits for c in covered}


@pytest.mark.parametrize("label", ["a", "b", "c", "d"])
def test_chances_are_exact_on_small_boards(label: str) -> None:
    """On a 5 x 5 board with 4 mines, every move's p_mine and p_best are what listing every
    layout consistent with the board just before it gives."""
    settings = Settings("mine-duel", 5, 5, 4, 2)
    seed = sample_seed(f"small-{label}")
    field = Field.from_seed(seed, label, ["", ""], 5, 5, 4)
    rules = rules_for("mine-duel")
    state = rules.new_game(settings)
    picker = Stream(seed, "picker|")
    moves, positions = [], []
    while not state.finished:
        covered = [i for i, c in enumerate(state.cells) if c == COVERED]
        row, col = divmod(covered[picker.below(len(covered))], 5)
        positions.append(Position(5, 5, 4, state.cells))
        state, move = rules.play(state, field, state.turn, "tap", row, col)
        moves.append(move)
    result = analyze(label, settings, field, moves, commitment(seed))
    for move, position in zip(result["moves"], positions, strict=True):
        exact = _brute_force(position)
        assert move["p_mine"] == pytest.approx(exact[move["row"] * 5 + move["col"]], abs=1e-6)
        assert move["p_best"] == pytest.approx(max(exact.values()), abs=1e-6)


def test_past_the_budget_a_position_is_estimated_and_said_so() -> None:
    doc = bot_game("mine-duel", "budget")
    tight = analyze_document(doc, budget=1)
    everything = [m["n"] for m in tight["moves"]]
    assert tight["budget"]["estimated"] == everything and tight["budget"]["terms"] == 1
    assert not any(m["exact"] for m in tight["moves"])
    assert analyze_document(doc, budget=1) == tight  # counted work, not time: deterministic
    # The estimate is local counting on what the seat saw, which is not always exact.
    exact = analyze_document(doc)
    differ = [
        i
        for i, (a, b) in enumerate(zip(tight["moves"], exact["moves"], strict=True))
        if abs(a["p_mine"] - b["p_mine"]) > 1e-3
    ]
    assert differ
    rules = rules_for("mine-duel")
    field = Field.from_strings(doc["field"])
    state = rules.new_game(Settings.for_variant("mine-duel", 2))
    for record in doc["moves"][: differ[0]]:
        state, _ = rules.play(state, field, record["seat"], "tap", record["row"], record["col"])
    move = doc["moves"][differ[0]]
    guess = local_chances(Position.from_state(state))[move["row"] * 16 + move["col"]]
    assert tight["moves"][differ[0]]["p_mine"] == pytest.approx(guess, abs=1e-6)
    assert exact["budget"]["estimated"] == [] and all(m["exact"] for m in exact["moves"])


def test_only_finished_games_that_replay_are_analysed() -> None:
    doc = bot_game("mine-duel", "refusals")
    running = {**doc, "status": "active", "seed": None, "field": None}
    with pytest.raises(AnalysisError, match="only finished games"):
        analyze_document(running)
    flipped = copy.deepcopy(doc)
    safe = next(m for m in flipped["moves"] if m["result"] == "safe")
    safe["result"] = "mine"
    with pytest.raises(AnalysisError, match="does not replay"):
        analyze_document(flipped)
    cut = {**doc, "moves": doc["moves"][:-1]}
    with pytest.raises(AnalysisError, match="not finished"):
        analyze_document(cut)
    for broken in (
        {**doc, "commitment": "xyz"},
        {**doc, "client_seeds": "ab"},
        {**doc, "width": 9},
        {**doc, "field": ["*"], "seed": None},
        {**doc, "field": None, "seed": None},
        {**doc, "moves": [{"n": 1}]},
        {**doc, "variant": "chess"},
    ):
        with pytest.raises(AnalysisError):
            analyze_document(broken)
    # Without the published field, the seed rebuilds it (mineduel/v1).
    assert analyze_document({**doc, "field": None}) == analyze_document(doc)


def test_a_pathological_board_stops_at_the_budget() -> None:
    """A 32 x 32 board, every other cell open and true to a random layout: one wide tangled
    component. Counting it exactly would pass the budget, so it is estimated (local counting),
    after a bounded amount of work whatever the machine."""
    side = 32
    rng = random.Random(7)
    table = neighbours(side, side)
    odd = [c for c in range(side * side) if (c // side + c % side) % 2]
    mines = set(rng.sample(odd, len(odd) * 2 // 5))
    cells = tuple(
        str(sum(1 for n in table[c] if n in mines))
        if (c // side + c % side) % 2 == 0 and rng.random() < 0.6
        else COVERED
        for c in range(side * side)
    )
    board = Position(side, side, len(mines), cells)
    chances, exact = position_chances(board)
    assert not exact and chances == local_chances(board)
    assert position_chances(board, 10**9)[1]  # with room enough, it is counted exactly


def test_a_game_stops_counting_exactly_once_its_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The counts of a whole game share one budget: once it is spent, the remaining
    positions are estimated (and listed), so a game of pathological boards is bounded too."""
    doc = bot_game("mine-duel", "game-budget")
    full = analyze_document(doc)
    assert full["budget"]["estimated"] == []
    monkeypatch.setattr(analysis_module, "GAME_BUDGET", 3_000)
    capped = analyze_document(doc)
    estimated = capped["budget"]["estimated"]
    exact = [m["n"] for m in capped["moves"] if m["exact"]]
    assert estimated and exact  # some counted exactly, the rest estimated
    assert max(exact) < min(estimated)  # exactly up to where the budget ran out
    assert estimated == [m["n"] for m in capped["moves"] if not m["exact"]]
