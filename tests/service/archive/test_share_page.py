"""The share page of a finished game: server-rendered HTML with who played, how it ended and how
it played out, Open Graph and Twitter card tags, clear pages for an unknown or unfinished game,
and every value escaped."""

from __future__ import annotations

import io
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

import pytest
from mineduel_service.api import headers
from mineduel_service.archive import share_page
from PIL import Image

from mineduel.local.upload_form import post_form

if TYPE_CHECKING:
    from conftest import Api

HOST = "abc123.execute-api.eu-west-1.amazonaws.com"  # the sample event's host


@pytest.fixture
def api(served_api: Api) -> Api:
    """Players with avatars are accounts, whose tokens need the pool's keys over HTTP."""
    return served_api


class Page(HTMLParser):
    """The parts of a page the tests look at: meta tags, text, links and images."""

    def __init__(self, document: str) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[str] = []
        self.images: list[str] = []
        self.scripts = 0
        self.chunks: list[str] = []
        self.title = ""
        self._in_title = False
        self.feed(document)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "meta" and ("property" in found or "name" in found):
            self.meta[found.get("property") or found["name"]] = found.get("content", "")
        elif tag == "a":
            self.links.append(found.get("href", ""))
        elif tag == "img":
            self.images.append(found.get("src", ""))
        elif tag == "script":
            self.scripts += 1
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        self.chunks.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.chunks).split())


def _finished(api: Api, token: str) -> dict[str, Any]:
    game = api.bot_game(token)
    # A known safe cell showing a number: the bot replies, from one number too little to win
    # from (after a tap on an unknown cell it may win at once, and there is nothing to resign).
    known = api.field(game["game_id"])
    safe = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
    assert api.commit(token, game["game_id"], *divmod(safe, 16), 0).status == 200
    reply = api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _avatar(api: Api, token: str) -> str:
    image = io.BytesIO()
    Image.new("RGB", (48, 48), (250, 180, 0)).save(image, format="PNG")
    form = api.call("POST", "/v1/me/avatar", token=token).body["upload"]
    assert post_form(form["url"], form["fields"], image.getvalue()).status == 204
    reply = api.call("PUT", "/v1/me/avatar", token=token)
    assert reply.status == 200, reply.body
    return str(reply.body["avatar_url"])


def test_a_finished_game_is_a_page_with_everything_and_preview_tags(api: Api) -> None:
    token = api.player("sharer")
    avatar = _avatar(api, token)
    game = _finished(api, token)
    game_id = game["game_id"]
    reply = api.call("GET", f"/share/{game_id}")
    assert reply.status == 200
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    assert reply.headers["cache-control"] == "public, max-age=300"
    assert "script-src" not in reply.headers["content-security-policy"]
    assert "default-src 'none'" in reply.headers["content-security-policy"]
    page = Page(reply.body)
    summary = api.call("GET", f"/v1/games/{game_id}/summary").body

    assert page.title == "Bot (hard) beat sharer · MineDuel"
    assert page.meta["og:title"] == "Bot (hard) beat sharer"
    assert page.meta["og:type"] == "website"
    assert page.meta["og:url"] == f"https://{HOST}/share/{game_id}"
    assert page.meta["og:image"] == f"https://{HOST}{avatar}"
    assert page.meta["twitter:card"] == "summary"
    assert page.meta["twitter:image"] == page.meta["og:image"]
    description = page.meta["og:description"]
    assert description == page.meta["twitter:description"] == page.meta["description"]
    assert "by resignation" in description
    assert f"{summary['moves']} move" in description
    mines = [s["mines"] for s in summary["seats"]]
    assert f"sharer {mines[0]}, Bot (hard) {mines[1]}" in description

    text = page.text
    assert "Ended by resignation." in text
    assert f"sharer 2nd {mines[0]} mine" in text
    assert f"Bot (hard) Winner {mines[1]} mine" in text
    runs = [s["longest_run"] for s in summary["seats"]]
    assert f"Longest run: {runs[0]} in a row" in text
    assert f"Lead changes {summary['lead_changes']}" in text
    assert f"Length {summary['moves']} move" in text
    assert "on a 16 × 16 board with 51 mines." in text
    assert f"/v1/games/{game_id}/verify" in page.links
    assert page.images == [avatar]  # the bot has no avatar: its initial stands in
    assert page.scripts == 0


def test_without_any_avatar_there_is_no_preview_image(api: Api) -> None:
    guest = api.guest()
    game = _finished(api, guest)
    page = Page(api.call("GET", f"/share/{game['game_id']}").body)
    assert "og:image" not in page.meta and "twitter:image" not in page.meta
    assert page.meta["twitter:card"] == "summary"
    assert page.images == []


def test_an_unknown_game_is_a_404_page(api: Api) -> None:
    for game_id in ("6f1c0d2e-1b7a-4d0e-9a55-3f2b8c1d9e70", "not-a-game", "%3Cscript%3E"):
        reply = api.call("GET", f"/share/{game_id}")
        assert reply.status == 404
        assert reply.headers["content-type"] == "text/html; charset=utf-8"
        assert reply.headers["cache-control"] == "no-store"
        page = Page(reply.body)
        assert page.title == "No such game · MineDuel"
        assert page.meta["robots"] == "noindex"
        assert "<script>" not in reply.body


@pytest.mark.parametrize("status", ["waiting", "active", "cancelled"])
def test_a_game_not_finished_is_a_409_page_that_shows_nothing_of_it(api: Api, status: str) -> None:
    token = api.player("unfinished")
    if status == "active":
        game = api.bot_game(token)
    else:
        game = api.call("POST", "/v1/games", token=token, body={"bots": 0}).body
        if status == "cancelled":
            api.call("DELETE", f"/v1/games/{game['game_id']}", token=token)
    reply = api.call("GET", f"/share/{game['game_id']}")
    assert reply.status == 409
    page = Page(reply.body)
    headline = {
        "waiting": "This game has not started yet",
        "active": "This game is still being played",
        "cancelled": "This game was cancelled",
    }[status]
    assert page.title == f"{headline} · MineDuel"
    assert page.meta["robots"] == "noindex"
    assert "og:title" not in page.meta
    assert game["commitment"] not in reply.body and "unfinished" not in reply.body


def _summary(names: list[str], winner: int | None) -> dict[str, Any]:
    places = [1 if winner in (None, i) else 2 for i in range(len(names))]
    return {
        "created_at": "2026-11-30T10:00:00Z",
        "ended_at": "2026-11-30T10:04:12Z",
        "moves": 61,
        "lead_changes": 1,
        "result": {"reason": "field-done", "winner": winner, "places": places},
        "seats": [
            {
                "seat": i,
                "name": name,
                "mines": 10 + i,
                "place": places[i],
                "avatar_url": f'/v1/avatars/{i}"><script>x</script>',
                "longest_run": 2,
            }
            for i, name in enumerate(names)
        ],
    }


def test_every_value_is_escaped(api: Api) -> None:
    """Names are user input: whatever they hold, they come out as text, in the body and in
    every attribute (the Open Graph tags included)."""
    token = api.guest()
    record_id = _finished(api, token)["game_id"]
    from mineduel_service.games.current import existing  # noqa: PLC0415

    record = existing(record_id)
    hostile = ['<script>alert("x")</script>', "\"'><img src=x onerror=alert(1)>", "a&b"]
    document = share_page.render(record, _summary(hostile, 0), 'https://evil"><script>')
    page = Page(document)
    assert page.scripts == 0
    assert page.meta["og:title"] == f"{hostile[0]} won against {hostile[1]} and a&b"
    assert hostile[1] in page.text and "a&b" in page.text
    assert all(src.endswith('"><script>x</script>') for src in page.images)
    assert "<script>" not in document and "<img src=x" not in document


def test_the_words_for_each_ending() -> None:
    assert share_page.headline_of([{"name": "a"}, {"name": "b"}], 0) == "a beat b"
    seats = [{"name": n, "place": p} for n, p in [("a", 1), ("b", 1), ("c", 3)]]
    assert share_page.headline_of(seats, None) == "Draw: a and b share first place"
    assert share_page.duration("2026-11-30T10:00:00Z", "2026-11-30T10:04:12Z") == "4 min 12 s"
    assert share_page.duration("2026-11-28T10:00:00Z", "2026-11-30T14:00:00Z") == "2 d 4 h"
    assert share_page.duration("2026-11-30T10:00:00Z", "2026-11-30T10:00:09Z") == "9 s"


def test_the_page_links_back_to_where_it_was_reached() -> None:
    sample = {"x-forwarded-proto": "https", "host": "ignored.example"}
    assert headers.origin(sample, "play.example.com") == "https://play.example.com"
    assert headers.origin({"Host": "127.0.0.1:3000", "X-Forwarded-Proto": "http"}, None) == (
        "http://127.0.0.1:3000"
    )
    assert headers.origin({"host": "bad host<>"}, None) == ""
    assert headers.origin({"x-forwarded-proto": "gopher"}, "a.example") == "https://a.example"
