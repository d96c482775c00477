"""``mineduel analyze``: JSON lines in, exact chances and the bot's move out."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine.bot.components import split
from mineduel_engine.bot.deduction import deduce
from mineduel_engine.bot.position import Position
from mineduel_engine.geometry import bomb_square, neighbours

from mineduel.cli import main
from mineduel.cli.analyze import DEFAULT_MAX_WORK, _percent


def run_analyze(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *lines: str
) -> tuple[int, list[dict[str, Any]]]:
    source = tmp_path / "positions.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["analyze", str(source)])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_chances_and_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = json.dumps({"width": 3, "height": 3, "mines": 2, "board": ["1..", "...", "..."]})
    code, [answer] = run_analyze(tmp_path, capsys, line)
    assert code == 0
    rows = answer["probabilities"]
    assert rows[0][0] is None
    assert rows[0][1] == pytest.approx(1 / 3)
    assert rows[2][2] == pytest.approx(1 / 5)
    move = answer["move"]
    assert rows[move["row"]][move["col"]] == pytest.approx(1 / 3)  # hard: a likeliest cell here


def test_flags_are_certain_and_sure_mines_are_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({"width": 4, "height": 1, "mines": 2, "board": ["A2.."]})
    code, [answer] = run_analyze(tmp_path, capsys, line)
    assert code == 0
    assert answer["probabilities"] == [[1.0, None, 1.0, 0.0]]
    assert answer["move"] == {"action": "tap", "row": 0, "col": 2}


def test_bad_lines_give_errors_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps({"width": 2, "height": 1, "mines": 1, "board": ["1."]})
    impossible = json.dumps({"width": 2, "height": 1, "mines": 1, "board": ["3."]})
    short = json.dumps({"width": 3, "height": 1, "mines": 1, "board": ["1."]})
    code, answers = run_analyze(tmp_path, capsys, good, "{not json", impossible, short, "[1]")
    assert code == 1
    assert answers[0]["probabilities"] == [[None, 1.0]]
    assert all("error" in a for a in answers[1:])


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(tmp_path / "absent.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_commitment_and_move_number_reproduce_a_tie_break(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ["." * 16] * 16
    lines = [
        json.dumps({"width": 16, "height": 16, "mines": 51, "board": board, "move_number": n})
        for n in (1, 2, 3, 1)
    ]
    code, answers = run_analyze(tmp_path, capsys, *lines)
    assert code == 0
    moves = [(a["move"]["row"], a["move"]["col"]) for a in answers]
    assert moves[0] == moves[3]
    assert len(set(moves)) > 1


def test_a_mineseeker_position_reports_the_bomb_square(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ["." * 16] * 16
    fresh = json.dumps({"variant": "mineseeker", "board": board})
    # The other seat (B) has 23 mines: it lacks 3 for the majority, so the bomb fires now.
    late = ["B" * 16, "B" * 7 + "." * 9, *board[2:]]
    urgent = json.dumps({"variant": "mineseeker", "board": late, "seat": 0})
    used = json.dumps({"variant": "mineseeker", "board": late, "seat": 0, "bomb_used": True})
    behind_only = json.dumps(
        {"variant": "mineseeker", "board": late, "seat": 1, "options": {"bomb_when_behind": True}}
    )
    code, answers = run_analyze(tmp_path, capsys, fresh, urgent, used, behind_only)
    assert code == 0
    assert answers[0]["move"]["action"] == "tap"
    assert answers[0]["bomb"]["expected_mines"] == pytest.approx(25 * 51 / 256)
    move, chances = answers[1]["move"], answers[1]["probabilities"]
    assert move["action"] == "bomb"
    square = bomb_square(16, 16, move["row"], move["col"])
    # Squares clear of the B rows tie; the bot draws one, the report shows the first.
    assert sum(chances[c // 16][c % 16] for c in square) == pytest.approx(
        answers[1]["bomb"]["expected_mines"]
    )
    assert answers[2]["move"]["action"] == "tap"
    assert answers[3]["move"]["action"] == "tap", "seat 1 leads: the option forbids its bomb"


def test_a_windows_duel_position_knows_its_own_wrong_guesses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps(
        {"variant": "windows-duel", "width": 4, "height": 1, "mines": 2, "board": ["...?"]}
    )
    code, [answer] = run_analyze(tmp_path, capsys, line)
    assert code == 0
    assert answer["probabilities"] == [[pytest.approx(2 / 3)] * 3 + [0.0]]
    assert answer["move"]["action"] == "guess" and answer["move"]["col"] != 3
    assert answer["guess"]["points"] == pytest.approx(7 * 2 / 3 - 2)
    assert (answer["reveal"]["col"], answer["reveal"]["points"]) == (3, 0.0)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"variant": "chess", "board": ["."]}, "variant must be one of"),
        (
            {"variant": "mine-duel", "width": 2, "height": 1, "mines": 1, "board": ["a."]},
            "does not use",
        ),
        (
            {"variant": "mine-duel", "width": 2, "height": 1, "mines": 1, "board": ["?."]},
            "does not use",
        ),
        ({"variant": "mineseeker", "board": ["." * 16] * 16, "options": {"x": 1}}, "has no option"),
        ({"variant": "mineseeker", "board": ["." * 16] * 16, "options": [1]}, "must be an object"),
        ({"variant": "mineseeker", "board": ["." * 16] * 16, "seat": 2}, "seat must be 0 or 1"),
        ({"variant": "mineseeker", "board": ["." * 16] * 16, "bomb_used": 1}, "true or false"),
        ({"variant": "windows-duel", "board": ["." * 16] * 16}, "11 rows of 11"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_bad_variant_lines_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: dict[str, Any], words: str
) -> None:
    code, [answer] = run_analyze(tmp_path, capsys, json.dumps(line))
    assert code == 1
    assert words in answer["error"]


def tangled(side: int = 36) -> dict[str, Any]:
    """A constructed board: one colour of a checkerboard covered, two fifths of those cells
    mines, and most cells of the other colour open, true to them. Every covered cell touches
    up to four numbers, which overlap in two dimensions, so no order keeps the counting
    programme narrow: one component of hundreds of groups. (On 16x16 boards of this kind the
    frontier order keeps so few numbers open that they are counted within the budget.)"""
    rng = random.Random(7)
    table = neighbours(side, side)
    covered = [c for c in range(side * side) if (c // side + c % side) % 2]
    mines = set(rng.sample(covered, len(covered) * 2 // 5))
    rows = [
        "".join(
            str(sum(n in mines for n in table[row * side + col]))
            if (row + col) % 2 == 0 and rng.random() < 0.6
            else "."
            for col in range(side)
        )
        for row in range(side)
    ]
    return {"width": side, "height": side, "mines": len(mines), "board": rows}


TANGLED = tangled()


def test_the_tangled_board_is_what_it_claims() -> None:
    line = TANGLED
    position = Position.from_board(line["width"], line["height"], line["mines"], line["board"])
    parts, frontier = split(deduce(position))
    assert frontier.bit_count() == sum(sum(part.sizes) for part in parts) == 601
    assert max(len(part.sigs) for part in parts) >= 500


def test_the_work_budget_stops_a_tangled_board_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, [answer] = run_analyze(tmp_path, capsys, json.dumps(TANGLED))
    assert code == 3
    assert answer["too_hard"] is True
    assert answer["error"].startswith("too much work: counting this board exactly needs more")
    assert f"{DEFAULT_MAX_WORK:,} programme steps (--max-work)" in answer["error"]


def test_a_time_limit_stops_it_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tangled.jsonl"
    source.write_text(json.dumps(TANGLED) + "\n")
    code = main(["analyze", "--json", "--max-work", "0", "--time-limit", "0.2", str(source)])
    captured = capsys.readouterr()
    assert code == 3
    assert "0.2 s (--time-limit)" in json.loads(captured.out)["error"]
    assert "Traceback" not in captured.out + captured.err


def test_a_bad_line_outranks_a_too_hard_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (json.dumps(TANGLED), "{not json")
    source = tmp_path / "both.jsonl"
    source.write_text("\n".join(lines) + "\n")
    assert main(["analyze", "--json", "--max-work", "1000", str(source)]) == 1
    capsys.readouterr()


@pytest.mark.parametrize("option", [["--max-work", "-1"], ["--time-limit", "soon"]])
def test_bad_limits_are_refused_by_the_parser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["analyze", *option, str(tmp_path / "x.jsonl")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "argument" in err


def test_the_human_view_draws_the_board_in_percent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        json.dumps({"width": 3, "height": 3, "mines": 2, "board": ["1..", "...", "..."]}),
        json.dumps({"width": 4, "height": 1, "mines": 2, "board": ["A2.."]}),
        "{not json",
    ]
    source = tmp_path / "positions.jsonl"
    source.write_text("\n".join(lines) + "\n")
    assert main(["analyze", "--human", str(source)]) == 1
    out = capsys.readouterr().out
    first, second, third = out.split("\n\n")[:3]
    assert first.splitlines() == [
        "position 1: mine-duel, 3x3, 2 mines, 2 still hidden",
        "         0    1    2",
        "    0    1  33%  20%",
        "    1  33%  33%  20%",
        "    2  20%  20%  20%",
        "move: tap row 0, col 1 (33% a mine)",
    ]
    # a flag shows as its letter; certain cells, and only they, show 100% and 0%
    assert "    0    A    2 100%   0%" in second
    assert third.startswith("position 3: cannot analyse it: not JSON")


def test_a_chance_shows_as_certain_only_when_it_is() -> None:
    assert _percent(0.001) == "1%"
    assert _percent(0.999) == "99%"
    assert (_percent(0.0), _percent(1.0), _percent(0.5)) == ("0%", "100%", "50%")


def test_the_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["analyze", "--help"])
    out = capsys.readouterr().out
    assert "exit codes:" in out and "--max-work" in out and "--time-limit" in out
