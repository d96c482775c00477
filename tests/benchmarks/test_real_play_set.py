"""The real-play position set `make bench-bot` times the engine on: kept in the package so
sessions compare on the same boards, read strictly, and drawn the way its header says."""

from __future__ import annotations

from pathlib import Path

import pytest
from mineduel_engine.bot.position import Position
from mineduel_engine.bot.probability import solve

from mineduel.benchmarks import bot


def test_the_pinned_set_is_three_hundred_real_boards() -> None:
    boards = bot.pinned_positions()
    assert len(boards) == 300
    assert len(set(boards)) > 250  # drawn from positions, a few may repeat across games
    for cells in boards:
        assert len(cells) == 256
        assert set(cells) <= set(".012345678")  # flag-free: the problem ms_toollib solves
        solution = solve(Position(16, 16, 51, cells))  # consistent: a game reached it
        assert solution.weight > 0
    opened = [cells for cells in boards if set(cells) != {"."}]
    assert len(opened) > 280  # (a game's first position is all covered: a few are)
    assert bot.real_positions(300) == boards
    assert bot.real_positions(10) == boards[:10]


def test_the_timing_refuses_more_positions_than_the_set_holds() -> None:
    with pytest.raises(ValueError, match="holds 300 positions, not 301"):
        bot.real_positions(301)


def test_a_written_set_reads_back() -> None:
    boards = bot.pinned_positions()[:3]
    text = bot.write_positions(boards, "three boards\nfor a test")
    assert text.startswith("# three boards\n# for a test\n")
    assert bot.read_positions(text) == boards


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("." * 255, "not a flag-free 16x16 board"),  # one cell short
        ("A" + "." * 255, "not a flag-free 16x16 board"),  # a flag
        ("0" * 256, "mine count does not fit"),  # nowhere to put 51 mines
    ],
)
def test_a_bad_line_is_refused_with_its_number(line: str, why: str) -> None:
    good = "".join(bot.pinned_positions()[0])
    with pytest.raises(ValueError, match=why) as caught:
        bot.read_positions(f"# header\n{good}\n{line}\n")
    if "16x16" in why:
        assert "line 3" in str(caught.value)


def test_drawing_the_set_anew_writes_what_the_games_gave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot, "REAL_GAMES", 1)  # one game's positions, drawn as the set's were
    target = tmp_path / "set.txt"
    bot.draw_positions(20, target)
    text = target.read_text(encoding="ascii")
    assert text.startswith("# 20 real-play positions")
    assert "from 1 hard-vs-medium games" in text
    drawn = bot.read_positions(text)
    assert drawn == bot.played_positions(20)
    monkeypatch.setenv("REAL_SET", "played")
    assert bot.real_positions(20) == drawn
