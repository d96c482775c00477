"""The screening rule on its own (pure): how a position is classed, a seat's figures from its
analysis and positions, the window's z and its minimums, and the replayed positions against
the engine's own analysis of the same game."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from mineduel_engine.analysis import analyze
from mineduel_engine.sample_games import play_bot_game, play_sample
from mineduel_service.fairplay import screening
from mineduel_service.fairplay.positions import difficulties
from mineduel_service.fairplay.screening import (
    Difficulty,
    GameFigures,
    difficulty,
    seat_figures,
    window_of,
)


def _board(*chances: float, rest: int = 20, low: float = 0.1) -> dict[int, float]:
    """A board whose first cells have ``chances`` and ``rest`` more cells ``low``."""
    cells = dict(enumerate(chances))
    cells.update({len(chances) + i: low for i in range(rest)})
    return cells


@pytest.mark.parametrize(
    ("chances", "exact", "kind"),
    [
        ({i: 51 / 256 for i in range(256)}, True, "trivial"),  # a first tap: every cell ties
        (_board(1.0, 0.5), True, "trivial"),  # a certain mine on the board
        (_board(0.5, 0.3), False, "trivial"),  # estimated past the budget
        (_board(0.5, 0.5, 0.5, 0.5, 0.5), True, "tied"),  # five likeliest cells
        (_board(0.5, 0.5, 0.5, 0.5, 0.3), True, "clear"),  # four, well ahead
        (_board(0.6, 0.3), True, "clear"),
        (_board(0.5, 0.45), True, "hard"),
        (_board(0.5, 0.49), True, "subtle"),
    ],
)
def test_a_position_is_classed_by_its_chances(
    chances: dict[int, float], exact: bool, kind: str
) -> None:
    assert difficulty(chances, exact).kind == kind


@pytest.mark.parametrize(
    ("chances", "grade"),
    [
        (_board(0.5, 0.49), 0),  # subtle, two candidates
        (_board(0.5, 0.49, 0.48, 0.47, 0.46), 2),  # subtle, five
        (_board(0.5, 0.47, 0.46), 4),  # a lead of 0.03, three candidates
        (_board(0.5, 0.44), 6),  # a lead of 0.06, two candidates
        (_board(0.5, 0.44, low=0.44), 8),  # ... and twenty-two
        (_board(0.5, 0.35), 9),  # clear, a lead under 0.2
        (_board(0.6, 0.3), 10),  # clear, a wider lead
        (_board(0.5, 0.5, 0.5, 0.5, 0.5), None),  # ties: no grade
        (_board(1.0, 0.5), None),  # a certain mine: no grade
    ],
)
def test_a_hard_position_is_graded_by_its_lead_and_candidates(
    chances: dict[int, float], grade: int | None
) -> None:
    assert difficulty(chances).grade == grade


def test_a_seats_figures_count_its_taps_by_the_kind_of_position() -> None:
    def tap(n: int, seat: int, loss: float, bot: list[int] | None = None) -> dict[str, Any]:
        return {
            "n": n,
            "seat": seat,
            "action": "tap",
            "row": 3,
            "col": 4,
            "p_mine": 0.5 - loss,
            "p_best": 0.5,
            "loss": loss,
            "bot": bot,
        }

    hard = Difficulty(0.5, 1, 0.05, True, near=2)
    positions = {
        1: Difficulty(51 / 256, 256, 1.0, True),  # the first tap: trivial
        2: hard,
        3: hard,
        4: Difficulty(0.5, 1, 0.3, True),  # clear
        5: Difficulty(0.5, 1, 0.01, True, near=2),  # subtle
        6: hard,
    }
    analysis = {
        "moves": [
            tap(1, 0, 0.0),
            tap(2, 0, 0.25, bot=[3, 4]),  # not likeliest, but the hard bot's own cell
            tap(3, 0, 0.25, bot=[5, 5]),  # neither
            tap(4, 0, 0.0),
            tap(5, 0, 0.0),
            tap(6, 1, 0.0),  # the other seat's
            {**tap(7, 0, 0.0), "exact": False},  # past the work budget: not counted
            {"n": 8, "seat": 0, "action": "resign", "p_mine": None},
        ]
    }
    found = seat_figures(analysis, 0, "g", "2026-12-01T00:00:00Z", positions)
    assert found == GameFigures(
        "g",
        "2026-12-01T00:00:00Z",
        taps=5,
        best=3,
        matched=4,
        loss=0.5,
        hard=2,
        hard_matched=1,
        clear=1,
        clear_matched=1,
        subtle=1,
        subtle_matched=1,
        graded=((1, 1), *((0, 0),) * 5, (2, 1), (0, 0), (0, 0), (0, 0), (1, 1)),
    )
    assert GameFigures.from_dict(found.to_dict()) == found
    older = {k: v for k, v in found.to_dict().items() if k != "graded"}
    assert GameFigures.from_dict(older).graded == ()  # screened before grades were counted
    assert seat_figures(analysis, 2, "g", "t", positions) is None


SUBTLE_GRADE, HARD_GRADE, CLEAR_GRADE = 2, 8, 10
"""Subtle and hard positions of five candidates or more (the most common grades), and clear
ones of a lead of 0.2 or more."""


def _games(
    n: int, hard: int, matched: int, clear: int = 10, clear_matched: int = 10, subtle_first=False
) -> list[GameFigures]:
    """``n`` games, each with ``hard`` hard taps (a quarter of them subtle, all of five
    candidates or more) of which ``matched`` on an engine's cell (the hard ones first, or the
    subtle ones)."""
    subtle = hard // 4
    on_subtle = min(matched, subtle) if subtle_first else max(matched - (hard - subtle), 0)
    graded = [(0, 0)] * screening.GRADES
    graded[SUBTLE_GRADE] = (subtle, on_subtle)
    graded[HARD_GRADE] = (hard - subtle, matched - on_subtle)
    graded[CLEAR_GRADE] = (clear, clear_matched)
    return [
        GameFigures(
            f"g{i:02d}",
            f"2026-12-01T00:00:{i:02d}Z",
            taps=hard + clear,
            best=matched + clear_matched,
            matched=matched + clear_matched,
            loss=0.0,
            hard=hard - subtle,
            hard_matched=matched - on_subtle,
            clear=clear,
            clear_matched=clear_matched,
            subtle=subtle,
            subtle_matched=on_subtle,
            graded=tuple(graded),
        )
        for i in range(n)
    ]


def test_a_window_needs_ten_games_and_enough_hard_taps_before_any_z() -> None:
    assert window_of(_games(9, 8, 8)).z is None  # every hard tap the engine's, but nine games
    few = window_of(_games(20, 1, 1))  # twenty games, twenty hard taps: not enough
    assert few.hard_taps == 20 < screening.MIN_HARD_TAPS and few.z is None and not few.flagged
    engine = window_of(_games(10, 8, 8))
    assert engine.hard_taps == 80 and engine.hard_match == 1.0 and engine.flagged
    person = window_of(_games(20, 8, 5))  # perfect on clear taps, 62% on hard ones
    assert person.z is not None and not person.flagged
    older = [dataclasses.replace(g, graded=()) for g in _games(20, 8, 8)]
    assert window_of(older).z is None  # screened before grades were counted: nothing to judge


def test_a_match_where_people_rarely_match_weighs_more() -> None:
    """The same number of matches, on the subtle positions (where the strongest people match
    under half the time) or on the hard ones of a wider lead (where they match most of the
    time): the first window is much further from people."""
    on_hard = window_of(_games(20, 8, 4, clear_matched=9))
    on_subtle = window_of(_games(20, 8, 4, clear_matched=9, subtle_first=True))
    assert on_hard.hard_match == on_subtle.hard_match == 0.5
    assert on_hard.z is not None and on_subtle.z is not None and on_subtle.z > on_hard.z + 1
    assert not on_hard.flagged
    assert window_of(_games(25, 8, 8)).games_screened == screening.WINDOW
    assert window_of(_games(9, 8, 8) + _games(9, 8, 8)).games_screened == 9  # each game once


def test_short_games_never_make_a_case() -> None:
    """Twenty rated games of one tap each (the first tap of a game, every cell alike), each
    on a likeliest cell: nothing to judge, no z, no case; nor from ties or certain mines."""
    first = Difficulty(51 / 256, 256, 1.0, True)
    analysis = {
        "moves": [
            {"n": 1, "seat": 0, "action": "tap", "row": 0, "col": 0, "p_mine": 0.2, "loss": 0.0}
        ]
    }
    games = [
        seat_figures(analysis, 0, f"g{i}", f"2026-12-01T00:00:{i:02d}Z", {1: first})
        for i in range(screening.WINDOW)
    ]
    window = window_of([g for g in games if g is not None])
    assert window.games_screened == screening.WINDOW and window.engine_match == 1.0
    assert window.hard_taps == 0 and window.z is None and not window.flagged
    tied = Difficulty(0.5, 6, 0.2, True)
    certain = Difficulty(1.0, 1, 0.5, True)
    many = [
        GameFigures.of_taps(
            f"t{i}",
            f"2026-12-02T00:00:{i:02d}Z",
            [screening.Tap(d, True, True, 0.0) for d in (tied, certain) * 20],
        )
        for i in range(screening.WINDOW)
    ]
    assert window_of([g for g in many if g is not None]).z is None


@pytest.mark.parametrize("label", ["fair-play-positions-1", "fair-play-positions-2"])
def test_replayed_positions_agree_with_the_analysis(label: str) -> None:
    """The screener's replay counts each position as the engine's analysis does: the same
    best chance, the same exactness, on a hard bot's game and on a game of random taps."""
    game = play_bot_game(label) if label.endswith("1") else play_sample(label)
    found = difficulties(game.settings, game.field, [m.to_dict() for m in game.moves])
    analysis = analyze(game.game_id, game.settings, game.field, game.moves, game.commitment)
    assert set(found) == {m["n"] for m in analysis["moves"]}
    for move in analysis["moves"]:
        mine = found[move["n"]]
        assert round(mine.p_best, 6) == move["p_best"] and mine.exact == move["exact"]
        assert mine.ties >= 1 and 0.0 < mine.gap <= 1.0
    if label.endswith("1"):  # the bot opens the board: every kind of position comes up
        kinds = {found[m["n"]].kind for m in analysis["moves"]}
        assert {"trivial", "clear", "hard"} <= kinds
