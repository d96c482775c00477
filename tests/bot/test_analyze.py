"""``mineduel analyze``: JSON lines in, exact chances and the bot's move out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mineduel_engine.geometry import bomb_square

from mineduel.cli import main


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
