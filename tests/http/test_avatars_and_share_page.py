"""Avatars and the share page on the local stack, as clients see them over real HTTP.

An account asks for an upload, sends the picture straight to the embedded moto's S3 with the
presigned form (a multipart POST by ``http.client``), has the server take it, and fetches it back
through the API's redirect. A game is played to the end and its share page is opened in headless
Chromium (Debian's, driven by Playwright): what a person sees, the preview tags a chat app reads,
the avatar loaded through the redirect, the link to the verification document.
"""

from __future__ import annotations

import io
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser

from mineduel.local.stack import RunningStack
from mineduel.local.upload_form import post_form
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_tap

pytestmark = pytest.mark.http


def _picture(kind: str, colour: tuple[int, int, int], size: int = 96) -> bytes:
    image = Image.new("RGB", (size, size), colour)
    for x in range(size // 4, size * 3 // 4):  # a square in the middle, so it is a picture
        for y in range(size // 4, size * 3 // 4):
            image.putpixel((x, y), (255, 255, 255))
    out = io.BytesIO()
    image.save(out, format=kind)
    return out.getvalue()


def _set_avatar(client: ApiClient, data: bytes, content_type: str) -> dict[str, Any]:
    """The three steps: ask, upload to S3 with the form, have the server take it."""
    form = client.call("POST", "/v1/me/avatar", {"content_type": content_type}).ok()
    sent = post_form(
        form["upload"]["url"], form["upload"]["fields"], data, content_type=content_type
    )
    assert sent.status == 204, sent.body
    return dict(client.call("PUT", "/v1/me/avatar").ok())


def _played_to_the_end(client: ApiClient) -> dict[str, Any]:
    """A game against the bot, played by the engine's choices for seat 0 until it ends."""
    game = client.call("POST", "/v1/games", {"bots": 1}).ok(201)
    while game["status"] == "active":
        row, col = next_tap(game)
        game = client.commit(game, row, col).ok()["game"]
    assert game["status"] == "finished"
    return dict(game)


def test_an_avatar_goes_up_to_s3_with_the_form_and_comes_back_through_the_redirect(
    stack: RunningStack,
) -> None:
    player = signed_in(stack, "uploader")
    data = _picture("JPEG", (30, 90, 200))
    form = player.call("POST", "/v1/me/avatar", {"content_type": "image/jpeg"}).ok()
    assert form["upload"]["url"].startswith(stack.endpoint_url)  # straight to S3, not the API
    assert post_form(form["upload"]["url"], form["upload"]["fields"], data).status == 204
    profile = player.call("PUT", "/v1/me/avatar").ok()
    avatar_url = profile["avatar_url"]
    assert avatar_url.startswith("/v1/avatars/")

    redirect = player.call("GET", avatar_url)
    assert redirect.status == 302
    assert redirect.headers["cache-control"].startswith("public, max-age=")
    assert redirect.headers["location"].startswith(stack.endpoint_url)
    with urllib.request.urlopen(stack.url + avatar_url, timeout=10) as answer:  # noqa: S310
        assert answer.headers["content-type"] == "image/jpeg"
        served = answer.read()
    with Image.open(io.BytesIO(served)) as image:
        assert (image.format, image.size) == ("JPEG", (96, 96))

    gif = io.BytesIO()
    Image.new("RGB", (32, 32)).save(gif, format="GIF")
    form = player.call("POST", "/v1/me/avatar").ok()
    assert post_form(form["upload"]["url"], form["upload"]["fields"], gif.getvalue()).status == 204
    refused = player.call("PUT", "/v1/me/avatar")
    assert refused.status == 415
    assert refused.json()["error"]["code"] == "avatar-unsupported-type"
    assert player.call("GET", "/v1/me").ok()["avatar_url"] == avatar_url


def test_the_local_api_passes_the_html_page_through_untouched(stack: RunningStack) -> None:
    """The share page is the one answer that is not JSON: it reaches the client as the function
    wrote it (type, body, headers), and its absolute links name the local server."""
    guest = ApiClient(http_transport(stack.url))
    guest.become_guest()
    game = guest.call("POST", "/v1/games", {"bots": 1}).ok(201)
    guest.call("POST", f"/v1/games/{game['game_id']}/resign").ok()
    page = guest.call("GET", f"/share/{game['game_id']}")
    assert page.status == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["x-content-type-options"] == "nosniff"
    text = page.body.decode("utf-8")
    assert text.startswith("<!doctype html>")
    assert f'content="{stack.url}/share/{game["game_id"]}"' in text
    missing = guest.call("GET", "/share/6f1c0d2e-1b7a-4d0e-9a55-3f2b8c1d9e70")
    assert missing.status == 404
    assert missing.headers["content-type"] == "text/html; charset=utf-8"
    assert b"No such game" in missing.body


def test_the_share_page_of_a_game_played_to_the_end_in_chromium(
    stack: RunningStack, browser: Browser, tmp_path: Path
) -> None:
    player = signed_in(stack, "ada")
    avatar_url = _set_avatar(player, _picture("PNG", (200, 60, 40)), "image/png")["avatar_url"]
    game = _played_to_the_end(player)
    game_id = game["game_id"]
    summary = player.call("GET", f"/v1/games/{game_id}/summary").ok()
    winner = game["result"]["winner"]
    names = [s["name"] for s in game["seats"]]
    assert names == ["ada", "Bot (hard)"]

    page = browser.new_page(viewport={"width": 900, "height": 700})
    try:
        response = page.goto(f"{stack.url}/share/{game_id}")
        assert response is not None and response.status == 200
        headline = f"{names[winner]} beat {names[1 - winner]}"
        assert page.title() == f"{headline} · MineDuel"
        assert page.locator("h1").inner_text() == headline
        cards = page.locator("li.seat")
        assert cards.count() == 2
        for index, seat in enumerate(summary["seats"]):
            card = cards.nth(index).inner_text()
            assert seat["name"] in card
            assert f"{seat['mines']} mine" in card
            assert f"Longest run: {seat['longest_run']} in a row" in card
            assert ("Winner" in card) == (index == winner)
        facts = page.locator("dl.facts").inner_text()
        assert f"{summary['moves']} moves" in facts
        assert str(summary["lead_changes"]) in facts
        assert "Out of reach" in page.locator("p.outcome").inner_text()

        def meta(selector: str) -> str | None:
            return page.locator(f"meta[{selector}]").get_attribute("content")

        assert meta('property="og:title"') == headline
        assert meta('property="og:type"') == "website"
        assert meta('property="og:url"') == f"{stack.url}/share/{game_id}"
        assert meta('property="og:image"') == f"{stack.url}{avatar_url}"
        assert meta('name="twitter:card"') == "summary"
        description = meta('property="og:description"') or ""
        assert "out of reach" in description and f"{summary['moves']} moves" in description

        # The avatar really loads: through the API's redirect to the presigned link.
        avatar = page.locator("img.avatar")
        assert avatar.get_attribute("src") == avatar_url
        assert page.evaluate("document.querySelector('img.avatar').naturalWidth") == 96

        shot = page.screenshot(path=str(tmp_path / "share-page.png"), full_page=True)
        assert shot.startswith(b"\x89PNG")

        verify = page.get_by_role("link", name="verification document")
        assert verify.get_attribute("href") == f"/v1/games/{game_id}/verify"
        with page.expect_navigation():
            verify.click()
        document = json.loads(page.locator("body").inner_text())
        assert document["game_id"] == game_id
        assert document["verdict"]["ok"] is True

        unknown = page.goto(f"{stack.url}/share/6f1c0d2e-1b7a-4d0e-9a55-3f2b8c1d9e70")
        assert unknown is not None and unknown.status == 404
        assert page.locator("h1").inner_text() == "No such game"
    finally:
        page.close()
