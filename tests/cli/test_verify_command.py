"""``mineduel verify FILE|URL|-``: reads a document, reports in plain words, exits 0/1/2/3.

URLs are served by a real local HTTP server (http.server on an ephemeral port), so the command's
urllib path is exercised end to end without any network beyond the loopback.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from mineduel_engine.chain import chained
from mineduel_engine.sample_games import play_sample

from mineduel.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "engine" / "golden"
HONEST = GOLDEN / "three-seats-field-done.json"


def tampered(tmp_path: Path) -> Path:
    """The honest game with move 5 given to another seat, its chain and head recomputed (so
    only the replay can tell)."""
    doc = json.loads(HONEST.read_text())
    doc["moves"][4]["seat"] = (doc["moves"][4]["seat"] + 1) % 3
    doc["moves"] = chained(doc["commitment"], doc["moves"])
    doc["chain"] = doc["moves"][-1]["chain"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    return path


def truncated(tmp_path: Path, drop: int, *, head_too: bool) -> Path:
    """The honest game without its last ``drop`` moves; with ``head_too`` its chain head and
    move count edited to match the shorter log, as a careful forger would."""
    doc = json.loads(HONEST.read_text())
    del doc["moves"][-drop:]
    if head_too:
        doc["move_count"] = len(doc["moves"])
        doc["chain"] = doc["moves"][-1]["chain"]
    path = tmp_path / "truncated.json"
    path.write_text(json.dumps(doc))
    return path


class _Handler(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, tuple[int, bytes]]] = {}

    def do_GET(self) -> None:
        status, body = self.routes.get(self.path, (404, b'{"error": {"code": "not-found"}}'))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Keep test output quiet."""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    _Handler.routes = {
        "/v1/games/g/verify": (200, HONEST.read_bytes()),
        "/broken": (200, b"<html>not json</html>"),
    }
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_an_honest_file_exits_0_and_says_what_was_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["verify", str(HONEST)]) == 0
    out = capsys.readouterr().out
    assert "SHA-256 of the seed equals the commitment" in out
    assert "OK: every check holds" in out


def test_a_tampered_file_exits_1_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(tampered(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert "move 5 is by seat" in out
    assert "FAILED" in out
    assert "do not trust it" in out  # the document's own verdict claimed ok


def test_a_tampered_file_lists_its_failed_check_only_under_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(tampered(tmp_path))]) == 1
    out = capsys.readouterr().out
    checked, problems = out.split("problems (")
    assert "moves, replayed on that field" in problems
    assert "moves, replayed on that field" not in checked  # the failed check, only there
    assert "SHA-256 of the seed equals the commitment" in checked  # the ones that held
    assert problems.startswith("1 check failed, 1 problem):")


def test_json_output_gives_every_check_with_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--json", str(tampered(tmp_path))]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["checked"] is True and verdict["ok"] is False
    assert verdict["game_id"] == json.loads(HONEST.read_text())["game_id"]
    assert len(verdict["problems"]) == 1
    checks = {check["name"]: check for check in verdict["checks"]}
    assert set(checks) >= {"protocol", "commitment", "field", "moves", "end", "result", "seats"}
    assert all(set(c) == {"name", "description", "ok", "details"} for c in checks.values())
    assert [name for name, c in checks.items() if not c["ok"]] == ["moves"]
    assert checks["moves"]["details"] == verdict["problems"]
    assert all(c["details"] == [] for c in checks.values() if c["ok"])


@pytest.mark.parametrize("drop", [1, 2, 40])
def test_a_log_cut_short_fails_on_its_head_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], drop: int
) -> None:
    """Every link of a truncated log still holds; its head says where the log ended."""
    assert main(["verify", "--json", str(truncated(tmp_path, drop, head_too=False))]) == 1
    verdict = json.loads(capsys.readouterr().out)
    checks = {check["name"]: check for check in verdict["checks"]}
    assert checks["chain"]["ok"] is True  # the links alone cannot tell
    assert checks["chain-head"]["ok"] is False
    count = json.loads(HONEST.read_text())["move_count"]
    assert checks["chain-head"]["details"][0] == (
        f"the document says the game has {count} moves, but its log has {count - drop}; "
        "moves are missing from its end"
    )


def test_a_log_cut_short_with_its_head_edited_to_match_still_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Head and count edited consistently: the chain holds, the replay does not end there."""
    assert main(["verify", "--json", str(truncated(tmp_path, 1, head_too=True))]) == 1
    verdict = json.loads(capsys.readouterr().out)
    failed = {check["name"] for check in verdict["checks"] if not check["ok"]}
    assert failed == {"end", "result", "seats"}
    assert any("the rules do not end the game there" in p for p in verdict["problems"])


def test_a_running_game_cut_short_exits_1_not_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing of a running game can be replayed (exit 3), but its head already shows a log
    cut short (exit 1)."""
    game = play_sample("running-cli", 2, max_moves=8)
    records = [{**m.to_dict(), "at": "2026-11-29T12:00:00Z"} for m in game.moves]
    doc = game.document(chained(game.commitment, records))
    whole, cut = tmp_path / "whole.json", tmp_path / "cut.json"
    whole.write_text(json.dumps(doc))
    cut.write_text(json.dumps({**doc, "moves": doc["moves"][:-3]}))
    assert main(["verify", str(whole)]) == 3
    assert main(["verify", str(cut)]) == 1
    assert "the document says the game has 8 moves, but its log has 5" in capsys.readouterr().out


def test_a_chained_log_without_its_head_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(HONEST.read_text())
    del doc["chain"], doc["move_count"]
    path = tmp_path / "headless.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    assert "does not say where its log ends (no move_count and chain)" in capsys.readouterr().out


def test_json_output_of_an_honest_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json", str(HONEST)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is True and verdict["problems"] == []
    assert verdict["checks"] and all(check["ok"] for check in verdict["checks"])


def test_the_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    out = capsys.readouterr().out
    for code in ("0", "1", "2", "3"):
        assert f"\n  {code}  " in out
    assert "not finished" in out


def test_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(HONEST.read_text()))
    assert main(["verify", "-"]) == 0
    assert "OK" in capsys.readouterr().out


def test_a_url(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", f"{server}/v1/games/g/verify"]) == 0
    assert "OK: every check holds" in capsys.readouterr().out


def test_a_running_game_exits_3_without_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "running.json"
    path.write_text(json.dumps({"game_id": "g", "status": "active", "seed": None, "moves": []}))
    assert main(["verify", str(path)]) == 3
    assert "NOT CHECKED" in capsys.readouterr().out
    assert main(["verify", "--json", str(path)]) == 3
    verdict = json.loads(capsys.readouterr().out)
    assert verdict == {
        "game_id": "g",
        "status": "active",
        "checked": False,
        "ok": False,
        "problems": [],
        "checks": [],
    }


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{dir}/missing.json", "cannot read"),
        ("{dir}/bad.json", "is not JSON"),
        ("{dir}/list.json", "not an object"),
        ("{server}/nothing-here", "answered 404"),
        ("{server}/broken", "is not JSON"),
        ("http://127.0.0.1:9/closed", "cannot fetch"),
    ],
)
def test_unreadable_input_exits_2_with_a_clear_message(
    source: str,
    message: str,
    tmp_path: Path,
    server: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    assert main(["verify", source.format(dir=tmp_path, server=server)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err + captured.out
    assert captured.out == ""


def _set_seed(doc: dict[str, Any]) -> None:
    doc["seed"] = "00" * 32


def _set_client_seed(doc: dict[str, Any]) -> None:
    doc["client_seeds"][2] = "eve"


def _set_number(doc: dict[str, Any]) -> None:
    cell = next(m for m in doc["moves"] if m["opened"])["opened"][0]
    cell[2] = 8 - cell[2]


def _set_seat(doc: dict[str, Any]) -> None:
    doc["moves"][0]["seat"] = 2


def _set_result(doc: dict[str, Any]) -> None:
    doc["result"]["places"] = [1, 2, 3]


def _cut_log(doc: dict[str, Any]) -> None:
    del doc["moves"][-1]


@pytest.mark.parametrize(
    "tamper", [_set_seed, _set_client_seed, _set_number, _set_seat, _set_result, _cut_log]
)
def test_the_command_rejects_each_kind_of_tampering(
    tamper: Callable[[dict[str, Any]], None], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(HONEST.read_text())
    tamper(doc)
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_undecodable_standard_input_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = io.TextIOWrapper(io.BytesIO(b'{"seed": "\xff\xfe"}'), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", raw)
    assert main(["verify", "-"]) == 2
    assert "cannot read standard input" in capsys.readouterr().err


def test_absurdly_nested_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["verify", str(path)]) == 2
    assert "nested too deeply" in capsys.readouterr().err
