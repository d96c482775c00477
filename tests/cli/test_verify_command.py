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

from mineduel.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "engine" / "golden"
HONEST = GOLDEN / "three-seats-field-done.json"


def tampered(tmp_path: Path) -> Path:
    doc = json.loads(HONEST.read_text())
    doc["moves"][4]["seat"] = (doc["moves"][4]["seat"] + 1) % 3
    path = tmp_path / "tampered.json"
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
