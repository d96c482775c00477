"""``mineduel verify`` on streams of documents (NDJSON, as the exports give them): files, gzip,
standard input and URLs followed page by page; every game checked, one line per failure, a
summary, ``--json``, and exit 0 only when every game verifies."""

from __future__ import annotations

import gzip
import io
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from mineduel.cli import main
from mineduel.cli.sources import next_page

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "engine" / "golden").glob("*.json"))


def lines(tamper: int | None = None) -> list[str]:
    docs = [json.loads(path.read_text()) for path in GOLDEN]
    if tamper is not None:
        docs[tamper]["moves"][0]["seat"] = 1 - docs[tamper]["moves"][0]["seat"] % 2
    return [json.dumps(doc) for doc in docs]


def test_an_ndjson_file_checks_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.ndjson"
    path.write_text("\n".join(lines()) + "\n\n")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"checked {len(GOLDEN)} games from {path}: {len(GOLDEN)} verified, 0 failed" in out
    assert "OK: every game" in out


def test_one_bad_game_fails_the_stream_and_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.ndjson"
    path.write_text("\n".join([*lines(tamper=2), "not json", '{"status": "active"}']) + "\n")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED line 3, game " in out
    assert (
        f"FAILED line {len(GOLDEN) + 1}, game None: line {len(GOLDEN) + 1} is not a JSON object"
        in out
    )
    assert f"NOT CHECKED line {len(GOLDEN) + 2}" in out
    assert f"{len(GOLDEN) - 1} verified, 2 failed, 1 not checked" in out
    assert main(["verify", "--json", str(path)]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert (summary["games"], summary["ok"], summary["failed"]) == (
        len(GOLDEN) + 2,
        len(GOLDEN) - 1,
        2,
    )
    assert summary["results"][2]["problems"] and summary["results"][0]["ok"]


def test_gzip_and_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    packed = gzip.compress(("\n".join(lines()) + "\n").encode())
    path = tmp_path / "games.ndjson.gz"
    path.write_bytes(packed)
    assert main(["verify", str(path)]) == 0
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(packed)))
    assert main(["verify", "-"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines())))
    assert main(["verify", "-"]) == 0
    assert capsys.readouterr().out.count("verified, 0 failed") == 3


def test_a_lone_compact_document_gets_the_full_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.ndjson"
    path.write_text(lines()[0] + "\n")
    assert main(["verify", str(path)]) == 0
    assert "SHA-256 of the seed equals the commitment" in capsys.readouterr().out


def test_a_broken_gzip_or_an_empty_file_is_unreadable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.gz"
    broken.write_bytes(gzip.compress(b"{}\n" * 10)[:20])
    empty = tmp_path / "empty.ndjson"
    empty.write_text("\n\n")
    for path in (broken, empty):
        assert main(["verify", str(path)]) == 2
    assert "Traceback" not in capsys.readouterr().err


class _Pages(BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, tuple[bytes, str | None]]] = {}

    def do_GET(self) -> None:
        body, following = self.pages[self.path]
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        if following is not None:
            self.send_header("Link", f'<{following}>; rel="next"')
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    every = lines()
    _Pages.pages = {
        "/export?limit=3": (("\n".join(every[:3]) + "\n").encode(), "/export?limit=3&cursor=b"),
        "/export?limit=3&cursor=b": (("\n".join(every[3:6]) + "\n").encode(), "?limit=3&cursor=c"),
        "/export?limit=3&cursor=c": (("\n".join(every[6:]) + "\n").encode(), None),
        "/month.gz": (gzip.compress(("\n".join(every) + "\n").encode()), None),
    }
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_a_url_is_followed_to_its_last_page(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--json", f"{server}/export?limit=3"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == len(GOLDEN) == summary["ok"]
    assert [r["line"] for r in summary["results"]] == list(range(1, len(GOLDEN) + 1))
    assert main(["verify", f"{server}/month.gz"]) == 0


def test_next_page_links() -> None:
    base = "http://h/v1/players/a/games/export?limit=2"
    assert next_page(base, '</v1/players/a/games/export?cursor=x>; rel="next"') == (
        "http://h/v1/players/a/games/export?cursor=x"
    )
    assert next_page(base, None) is None
    assert next_page(base, '<http://h/other>; rel="prev"') is None
