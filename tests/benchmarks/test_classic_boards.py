"""The classic boards `make bench-bot` also times the engine on (beginner, intermediate,
expert): positions from games played the same way every run, and the table row's figures."""

from __future__ import annotations

import itertools
import random

import pytest
from mineduel_engine.bot.position import Position
from mineduel_engine.bot.probability import solve

from mineduel.benchmarks.classic import KINDS, Kind, play, positions
from mineduel.benchmarks.side_by_side import quantile, ratio_row


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_positions_are_flag_free_boards_a_game_reached_the_same_every_run(kind: Kind) -> None:
    boards = positions(kind, 8)
    assert boards == positions(kind, 8)
    for text in boards:
        assert len(text) == kind.width * kind.height
        assert set(text) <= set(".012345678")
        assert "0" in text  # the first tap opened an area
        assert text.count(".") > kind.mines  # a position before a tap, not a cleared board
        assert solve(Position(kind.width, kind.height, kind.mines, text)).weight > 0
    assert (
        kind.solve(boards[0])
        == solve(Position(kind.width, kind.height, kind.mines, boards[0])).mine
    )


def test_a_game_keeps_each_position_before_a_tap_and_only_opens_more() -> None:
    seen: list[str] = []
    play(KINDS[1], random.Random("a test game"), seen)
    assert seen
    for before, after in itertools.pairwise(seen):
        assert after.count(".") < before.count(".")
        assert all(b in (".", a) for b, a in zip(before, after, strict=True))


def test_a_row_gives_the_median_ratio_the_share_ours_is_faster_on_and_the_worst() -> None:
    ours = [0.001, 0.001, 0.001, 0.002]
    theirs = [0.002, 0.003, 0.0005, 0.002]
    row = ratio_row("a set", ours, theirs)
    # ratios 2, 3, 0.5, 1: median 1.5, the median times 2 and 1 ms; p99 the slowest of each
    # (3 / 2 ms); faster on 2 of 4 (a tie is not faster); the worst ratio 0.5
    assert row == "    | a set | 1.50 (2.000 / 1.000 ms) | 1.50 (3.00 / 2.00 ms) | 50% | 0.50 |"
    assert quantile([3.0, 1.0, 2.0], 0.99) == 3.0
