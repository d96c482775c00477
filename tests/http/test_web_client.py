"""The web client (web/) in a real browser: Debian's Chromium, headless, driven by Playwright,
on one local stack, by the accessible names the client's contract gives (docs/web.md): a guest
plays each variant to the end through arm and commit; two accounts find each other (quick
pairing, told live when paired; the lobby's players looking for an opponent; an invitation),
see their own fair-play status on their profile (and not another's), play live (one on a
phone, zoomed), resign, rematch, decline and cancel, and their sessions survive a day of
local clock; the waiting player may claim a time-out the moment the other's time is up; a
guest becomes an account and keeps its games, sets up an authenticator app and signs in with
its code, uploads a picture and plays the daily duel. On every screen axe-core finds no
serious or critical violation, and no page logs an error or fails a request other than those
a test provokes.

With ``MINEDUEL_SCREENSHOTS=1`` every screen is captured (desktop and phone) into docs/images/;
otherwise nothing is written."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import re
import shutil
import struct
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest
from mineduel_engine import Field, GameState, Move, rules_for
from mineduel_service.games import store
from mineduel_service.platform import crypto
from mineduel_service.play.advance import MAX_MOVES_PER_WRITE, field_for
from mineduel_service.play.bots import bot_replies
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Request, Route, expect

from mineduel import webshell
from mineduel.local import webclient
from mineduel.local.stack import RunningStack
from mineduel.testing.accounts import id_token, signed_in
from mineduel.testing.api_client import ApiClient, http_transport

pytestmark = pytest.mark.http
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
IMAGES = ROOT / "docs" / "images"
SCREENSHOTS = os.environ.get("MINEDUEL_SCREENSHOTS") == "1"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 20_000


@dataclass
class Watch:
    """Everything that went wrong on a page: console errors, uncaught exceptions, requests that
    failed or answered 4xx/5xx. ``allow`` holds URL patterns a test provokes on purpose."""

    errors: list[str] = field(default_factory=list)
    allow: list[str] = field(default_factory=list)
    allow_status: set[int] = field(default_factory=set)

    def attach(self, page: Page) -> Page:
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", self._console)
        page.on("response", self._response)
        page.on("requestfailed", self._failed)
        return page

    def _allowed(self, text: str) -> bool:
        return any(re.search(pattern, text) for pattern in self.allow)

    def _console(self, message: object) -> None:
        kind, text = message.type, message.text  # type: ignore[attr-defined]
        # Chromium logs every 4xx response as a console error too; those are judged by URL below.
        if kind == "error" and "Failed to load resource" not in text and not self._allowed(text):
            self.errors.append(f"console: {text}")

    def _response(self, response: object) -> None:
        status, url = response.status, response.url  # type: ignore[attr-defined]
        if status >= 400 and status not in self.allow_status and not self._allowed(url):
            self.errors.append(f"{status} {url}")

    def _failed(self, request: object) -> None:
        failure = request.failure or ""  # type: ignore[attr-defined]
        if "ERR_ABORTED" not in failure and not self._allowed(request.url):  # type: ignore[attr-defined]
            self.errors.append(f"failed {request.url}: {failure}")  # type: ignore[attr-defined]

    def assert_clean(self) -> None:
        assert self.errors == [], "\n".join(self.errors)


def axe_clean(page: Page, where: str) -> None:
    """axe-core (vendored from npm) finds no serious or critical violation on the page."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations
              .filter(v => v.impact === "serious" || v.impact === "critical")
              .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3)
                .map(n => n.target.join(" ")).join(", ")}`);
        }"""
    )
    assert found == [], f"axe on {where}:\n" + "\n".join(found)


def shot(page: Page, name: str, *, phone_too: bool = True) -> None:
    """With MINEDUEL_SCREENSHOTS=1, docs/images/web-<name>.png (and -phone.png at 390x844);
    otherwise nothing is written, so a test run leaves the checkout as it was."""
    if not SCREENSHOTS:
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or DESKTOP
    phone = size["width"] <= PHONE["width"]
    page.wait_for_timeout(300)
    page.screenshot(path=str(IMAGES / f"web-{name}{'-phone' if phone else ''}.png"), full_page=True)
    if phone_too and not phone:
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)
        page.screenshot(path=str(IMAGES / f"web-{name}-phone.png"), full_page=True)
        page.set_viewport_size(size)


def move_count(page: Page) -> int:
    return int(page.get_attribute("#game-title", "data-move-count") or "0")


def status(page: Page) -> str:
    return page.get_attribute("#game-title", "data-status") or ""


def wait_for_my_turn_or_end(page: Page) -> str:
    page.wait_for_function(
        """() => {
            const t = document.querySelector('#game-title');
            const turn = document.querySelector('#to-move');
            const mine = turn && turn.textContent === 'Your turn';
            return t && (t.dataset.status === 'finished' || mine);
        }""",
        timeout=WAIT_MS,
    )
    return status(page)


def wait_moved(page: Page, before: int) -> None:
    page.wait_for_function(
        """n => {
            const t = document.querySelector('#game-title');
            return Number(t.dataset.moveCount) > n || t.dataset.status === 'finished';
        }""",
        arg=before,
        timeout=WAIT_MS,
    )


def commit_on(page: Page, row: int, col: int, *, tap: bool = False) -> None:
    """Arm the cell at (row, col), then press Commit; waits until the move is shown."""
    before = move_count(page)
    cell = page.locator(f'[role="gridcell"][data-row="{row}"][data-col="{col}"]')
    if tap:
        cell.tap()
    else:
        cell.click()
    expect(cell).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("status").filter(has_text="Armed:")).to_have_text(
        f"Armed: row {row + 1}, column {col + 1}"
    )
    page.get_by_role("button", name="Commit").click()
    wait_moved(page, before)


def first_covered(page: Page, *, pick: int = 0) -> tuple[int, int]:
    cells = page.locator('[role="gridcell"][data-ch="."]')
    count = cells.count()
    cell = cells.nth(pick % count)
    return int(cell.get_attribute("data-row") or 0), int(cell.get_attribute("data-col") or 0)


def known_field(game_id: str) -> Field:
    """The game's field, read off the stack this test runs (in this process, as only a test
    can)."""
    record = store.get_game(game_id)
    assert record is not None
    return field_for(record, record.seats, crypto.decrypt_seed(record.seed_ciphertext, game_id))


def goes_on_after(game_id: str, action: str, cells: list[tuple[int, int]]) -> tuple[int, int]:
    """The first of ``cells`` where ``action`` by the seat to move leaves the game running once
    the bots have replied: played on the game's known field with the bots' own choices (a
    function of the public board and the commitment), as the commit will play them."""
    record = store.get_game(game_id)
    assert record is not None and record.state.turn is not None
    known = known_field(game_id)
    rules = rules_for(record.settings.variant)

    def play(state: GameState, seat: int, act: str, row: int, col: int) -> tuple[GameState, Move]:
        return rules.play(state, known, seat, act, row, col)

    kinds = [seat.kind for seat in record.seats]
    for row, col in cells:
        state, _ = play(record.state, record.state.turn, action, row, col)
        level, limit = record.bot_level, MAX_MOVES_PER_WRITE - 1
        state, _ = bot_replies(state, kinds, record.commitment, level, play, limit)
        if not state.finished:
            return row, col
    raise AssertionError(f"the game ends after every {action} on {cells}")


def play_to_end(page: Page, *, limit: int = 400) -> None:
    """Commit a covered cell each turn (arm, then Commit) until the game is over."""
    for _ in range(limit):
        if wait_for_my_turn_or_end(page) == "finished":
            return
        commit_on(page, *first_covered(page))
    raise AssertionError("the game did not end")


def totp(secret: str, at: float | None = None) -> str:
    """The current code of an authenticator secret (RFC 6238: SHA-1, 30 s, 6 digits)."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8), casefold=True)
    counter = int((time.time() if at is None else at) // 30)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = (struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
    return f"{number:06d}"


def fresh_totp(secret: str) -> str:
    """A code with at least five seconds left in its 30-second window (moto checks only the
    current window)."""
    if time.time() % 30 > 25:
        time.sleep(30 - time.time() % 30 + 0.2)
    return totp(secret)


# ---------------------------------------------------------------------------- fixtures
PASSWORD = "Correct-Horse-42"


def advance_clock(stack: RunningStack, seconds: int) -> None:
    moved = ApiClient(http_transport(stack.url)).call(
        "POST", "/_local/clock", {"advance_s": seconds}
    )
    assert moved.status == 200, moved.body


def new_page(browser: Browser, watch: Watch, **options: object) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=options.pop("viewport", DESKTOP), **options)  # type: ignore[arg-type]
    return context, watch.attach(context.new_page())


def go(page: Page, stack: RunningStack, route: str) -> None:
    page.goto(f"{stack.url}/{route}")
    expect(page.get_by_role("heading", level=1)).not_to_have_text("Loading…")
    page.wait_for_load_state("networkidle")


def nav(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name, exact=True).click()
    page.wait_for_load_state("networkidle")


def sign_up(page: Page, stack: RunningStack, email: str, username: str) -> None:
    """Sign up in the page: email, password, the code (the local pool takes any 6 digits), and
    a username."""
    go(page, stack, "#/account")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("Confirmation code").fill("246810")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible(timeout=WAIT_MS)
    page.get_by_label("Username").fill(username)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    expect(page.locator("#who")).to_have_text(username)


def play_the_bot(page: Page, stack: RunningStack, variant: str, level: str = "Easy") -> None:
    go(page, stack, "#/")
    page.get_by_label("Variant").select_option(label=variant)
    page.get_by_label("Level").select_option(label=level)
    page.get_by_role("button", name="Play the bot").click()
    expect(page.get_by_role("grid", name="Board")).to_be_visible(timeout=WAIT_MS)


def special_first(
    page: Page, stack: RunningStack, variant: str, usual: str, special: str, said: str
) -> Locator:
    """A bot game of ``variant`` whose first move is the ``special`` action on the middle
    square (the "Action" group starts on ``usual``); the group, once it is our turn again.

    A bomb hands the bot the turn with 25 cells open, from which it may win the game at once
    (the easy bot about 2 times in 1,000), and the group would be gone: it goes on the middle
    square or the first of three more after which, on the game's known field, the game goes
    on. ``said`` names its row as ``{row}``."""
    play_the_bot(page, stack, variant)
    row, col = 5, 5
    if special == "Bomb":
        game_id = page.url.rsplit("/", 1)[1]
        row, col = goes_on_after(game_id, "bomb", [(5, 5), (5, 10), (10, 5), (10, 10)])
    action = page.get_by_role("radiogroup", name="Action")
    expect(action.get_by_role("radio", name=usual)).to_be_checked()
    action.get_by_role("radio", name=special).check()
    commit_on(page, row, col)
    expect(page.get_by_role("list", name="Moves")).to_contain_text(said.format(row=row + 1))
    wait_for_my_turn_or_end(page)
    return action


def finished_screen_checks(page: Page, result: re.Pattern[str]) -> None:
    expect(page.locator("#result")).to_have_text(result)
    # The field is laid open by the answer that ended the game: no square is left "covered",
    # not even for a moment (the result and the field are drawn together).
    laid_open_with_the_result = page.evaluate(
        """() => document.querySelectorAll('[role="gridcell"][aria-label$=", covered"]').length"""
    )
    assert laid_open_with_the_result == 0
    expect(page.get_by_role("gridcell", name=re.compile(r", covered$"))).to_have_count(0)
    for name in ("Replay", "Share", "Verification", "Rematch"):
        expect(page.locator(".end").get_by_role("link", name=name)).to_be_visible()


# ---------------------------------------------------------------------------- journeys
def test_a_guest_plays_each_variant_to_the_end_through_arm_and_commit(
    stack: RunningStack, browser: Browser
) -> None:
    watch = Watch()
    context, page = new_page(browser, watch)
    moves_sent: list[str] = []
    page.on(
        "request",
        lambda r: moves_sent.append(r.url) if r.method == "POST" and "/moves" in r.url else None,
    )
    go(page, stack, "#/")
    expect(page.get_by_role("link", name="History")).to_be_hidden()  # only when signed in
    axe_clean(page, "home")
    shot(page, "home")

    # Mine duel, the first move by keyboard: arrows move, Space arms (nothing is sent), Enter
    # commits.
    play_the_bot(page, stack, "Mine duel")
    expect(page.locator("#to-move")).to_have_text("Your turn")
    expect(page.get_by_text("Time left")).to_be_visible()
    expect(page.get_by_text("Mines left: 51")).to_be_visible()
    expect(page.get_by_role("radiogroup", name="Action")).to_be_hidden()  # one action only
    commit = page.get_by_role("button", name="Commit")
    expect(commit).to_be_disabled()
    page.get_by_role("gridcell", name="Row 1, column 1,").focus()
    for key in ["ArrowRight"] * 3 + ["ArrowDown"] * 2:
        page.keyboard.press(key)
    page.keyboard.press("Space")
    armed = page.get_by_role("gridcell", name="Row 3, column 4,")
    expect(armed).to_have_attribute("aria-selected", "true")
    expect(page.get_by_text("Armed: row 3, column 4")).to_be_visible()
    page.wait_for_timeout(300)
    assert moves_sent == []  # arming sends nothing
    expect(commit).to_be_enabled()
    axe_clean(page, "the game, a cell armed")
    shot(page, "game-armed")
    page.keyboard.press("Enter")
    wait_moved(page, 0)
    assert len(moves_sent) == 1
    expect(page.locator('[data-row="2"][data-col="3"]')).not_to_have_attribute("data-ch", ".")
    moves = page.get_by_role("list", name="Moves")
    expect(moves.get_by_role("listitem").last).to_contain_text("You: row 3, column 4")
    expect(moves.locator("li.current")).to_have_count(1)  # newest first, and highlighted
    shot(page, "game")
    play_to_end(page)
    finished_screen_checks(page, re.compile(r"^(You won|You lost to Bot \(easy\)|Draw)$"))
    axe_clean(page, "the finished game")
    shot(page, "finished")
    game_id = page.url.rsplit("/", 1)[1]

    # The replay: move by move, each with its exact chance of a mine; the field laid open.
    page.locator(".end").get_by_role("link", name="Replay").click()
    expect(page.get_by_role("button", name="First")).to_be_visible()
    total = int(page.get_by_role("slider", name="Move").get_attribute("max") or 0)
    assert total > 10
    expect(page.get_by_role("gridcell", name=re.compile(r", covered$"))).to_have_count(0)
    page.get_by_role("button", name="First").click()
    expect(page.get_by_role("gridcell", name=re.compile(r", covered$"))).to_have_count(256)
    page.get_by_role("button", name="Next").click()
    expect(page.locator(".position")).to_contain_text(f"Move 1 of {total}: You: row 3, column 4")
    expect(page.locator(".chance")).to_contain_text("% chance of a mine")
    expect(page.locator(".chance")).to_contain_text("19.9% chance of a mine")  # 51 in 256
    page.get_by_role("button", name="Last").click()
    page.get_by_role("button", name="Previous").click()
    expect(page.locator(".position")).to_contain_text(f"Move {total - 1} of {total}")
    page.get_by_role("slider", name="Move").fill("5")
    expect(page.locator(".position")).to_contain_text(f"Move 5 of {total}")
    expect(page.get_by_role("list", name="Moves")).to_contain_text("chance of a mine")
    axe_clean(page, "the replay")
    shot(page, "replay")

    go(page, stack, f"#/verify/{game_id}")
    expect(page.locator("#verdict")).to_have_attribute("data-ok", "true")
    axe_clean(page, "the verification")
    shot(page, "verification")

    # The share page, and its way back into the app.
    go(page, stack, f"#/game/{game_id}")
    with page.expect_navigation():
        page.locator(".end").get_by_role("link", name="Share").click()
    assert f"/share/{game_id}" in page.url
    expect(page.locator("meta[property='og:title']")).to_have_count(1)
    page.get_by_role("link", name="Watch the game move by move").click()
    expect(page.get_by_role("button", name="First")).to_be_visible(timeout=WAIT_MS)
    assert page.url.endswith(f"/#/replay/{game_id}")

    # Mineseeker: the bomb once, then "Tap" is selected and "Bomb" disabled, and taps go on.
    action = special_first(page, stack, "Mineseeker", "Tap", "Bomb", "You: bomb on row {row}, col")
    expect(action.get_by_role("radio", name="Tap")).to_be_checked()
    expect(action.get_by_role("radio", name="Bomb")).to_be_disabled()
    shot(page, "mineseeker")
    play_to_end(page)
    finished_screen_checks(page, re.compile(r"^(You won|You lost to Bot \(easy\)|Draw)$"))

    # Windows duel: a guess, then reveals.
    action = special_first(page, stack, "Windows duel", "Reveal", "Guess mine", "You: guessed")
    action.get_by_role("radio", name="Reveal").check()
    shot(page, "windows-duel")
    play_to_end(page)
    finished_screen_checks(page, re.compile(r"^(You won|You lost to Bot \(easy\)|Draw)$"))

    # Four players: three bots, every seat named with its score.
    go(page, stack, "#/")
    page.get_by_label("Seats").select_option(label="4 players")
    page.get_by_role("button", name="Play the bot").click()
    players = page.get_by_role("list", name="Players").get_by_role("listitem")
    expect(players).to_have_count(4, timeout=WAIT_MS)
    expect(players.nth(3)).to_contain_text("Bot (medium)")
    commit_on(page, *first_covered(page))
    expect(page.get_by_role("list", name="Players")).not_to_contain_text("seat")
    shot(page, "four-players")
    assert page.request.get(stack.url + "/favicon.ico").status == 200
    watch.assert_clean()
    context.close()


def test_two_accounts_pair_play_live_on_a_phone_rematch_and_keep_their_session(
    stack: RunningStack, browser: Browser
) -> None:
    watch = Watch()
    ann_context, ann = new_page(browser, watch)
    bob_context, bob = new_page(browser, watch, viewport=PHONE, has_touch=True, is_mobile=True)
    go(ann, stack, "#/account")
    axe_clean(ann, "the account screen, signed out")
    shot(ann, "account")
    sign_up(ann, stack, "ann@example.com", "WebAnn")
    sign_up(bob, stack, "bob@example.com", "WebBob")
    axe_clean(bob, "the account screen, signed in (phone)")
    shot(ann, "account-signed-in")
    ann.get_by_role("checkbox", name="Show me on leaderboards").check()
    expect(ann.get_by_text("Saved.").last).to_be_visible()

    # Quick pairing: nobody waits, so Ann's seek waits (her page says so, and the lobby lists
    # her among the players looking for an opponent); Bob's "Play WebAnn" in the lobby seeks the
    # same game and is paired with it at once, and Ann's page hears of it live and opens the
    # game (her page's reads of the seek are cut off first: only the socket can tell her).
    go(ann, stack, "#/")
    ann.get_by_label("Time per move").select_option(label="5 minutes")
    ann.get_by_label("Opponents").select_option(label="Within 200 of mine")
    ann.get_by_role("button", name="Quick pairing").click()
    expect(ann.locator(".waiting")).to_contain_text("Looking for an opponent", timeout=WAIT_MS)
    expect(ann.get_by_role("button", name="Stop looking")).to_be_visible()
    ann.evaluate("window.stillThisPage = true")
    axe_clean(ann, "home, looking for an opponent")
    shot(ann, "quick-pairing")
    go(bob, stack, "#/lobby")
    seekers = bob.get_by_role("list", name="Players looking for an opponent")
    listed = seekers.get_by_role("listitem").filter(has_text="WebAnn")
    expect(listed).to_contain_text("5 minutes a move", timeout=WAIT_MS)
    expect(listed).to_contain_text("unrated")
    expect(listed).to_contain_text("opponents rated 1300 to 1700")  # a new player's 1500, +-200
    expect(listed.get_by_role("button", name="Play WebAnn")).to_be_visible()
    axe_clean(bob, "the lobby (phone)")
    shot(bob, "lobby")
    seek_reads = re.compile(r"/v1/seeks/[0-9a-f-]{36}$")
    ann.route(seek_reads, lambda route: route.abort("aborted"))
    listed.get_by_role("button", name="Play WebAnn").tap()
    expect(bob).to_have_url(re.compile(r"#/game/[0-9a-f-]{36}$"), timeout=WAIT_MS)
    game_id = bob.url.rsplit("/", 1)[1]
    expect(ann).to_have_url(re.compile(game_id), timeout=WAIT_MS)  # told live, no reload
    assert ann.evaluate("window.stillThisPage") is True
    ann.unroute(seek_reads)
    # Who moves first is drawn: one of them has the turn, the other waits for them.
    expect(bob.get_by_role("list", name="Players")).to_contain_text("WebAnn", timeout=WAIT_MS)
    expect(ann.locator("#to-move")).to_have_text(re.compile(r"^(Your turn|WebBob to move)$"))
    expect(bob.locator("#to-move")).to_have_text(re.compile(r"^(Your turn|WebAnn to move)$"))
    assert "Your turn" in (
        ann.locator("#to-move").inner_text(),
        bob.locator("#to-move").inner_text(),
    )
    expect(bob.get_by_role("list", name="Players")).to_contain_text("WebBob")

    # The phone: the board fits the width, and Zoom gives cells of at least 40 px that pan.
    board_box = bob.get_by_role("grid", name="Board").bounding_box()
    assert board_box is not None and board_box["x"] >= 0
    assert board_box["x"] + board_box["width"] <= PHONE["width"]
    bob.get_by_role("button", name="Zoom").tap()
    expect(bob.get_by_role("button", name="Zoom")).to_have_attribute("aria-pressed", "true")
    cell_box = bob.locator('[data-row="0"][data-col="0"]').bounding_box()
    assert cell_box is not None and cell_box["width"] >= 40
    frame = bob.locator(".board-wrap")
    assert frame.evaluate("w => w.scrollWidth > w.clientWidth")  # it pans
    for turn in range(6):
        if ann.locator("#to-move").inner_text() == "Your turn":
            mover, other = ann, bob
        else:
            mover, other = bob, ann
        before = move_count(other)
        row, col = first_covered(mover, pick=turn * 37 + 90)
        if mover is bob:
            bob.locator(f'[data-row="{row}"][data-col="{col}"]').scroll_into_view_if_needed()
        commit_on(mover, row, col, tap=mover is bob)
        wait_moved(other, before)  # the other screen shows it: pushed, no reload
        if status(other) != "active":
            break
    expect(ann.get_by_role("list", name="Moves").get_by_role("listitem")).not_to_have_count(0)
    axe_clean(bob, "a live game (phone, zoomed)")
    shot(bob, "duel-zoomed", phone_too=False)
    shot(ann, "duel", phone_too=False)
    assert ann.evaluate("window.stillThisPage") is True

    # Bob resigns (it asks first); each sees the end from their own side.
    resign = bob.get_by_role("button", name="Resign")
    resign.tap()
    bob.get_by_role("button", name="Yes, resign").tap()
    expect(bob.locator("#result")).to_have_text("You lost to WebAnn", timeout=WAIT_MS)
    expect(ann.locator("#result")).to_have_text("You won", timeout=WAIT_MS)
    expect(ann.get_by_role("gridcell", name=re.compile(r", covered$"))).to_have_count(0)
    shot(bob, "resigned", phone_too=False)

    # Rated, by invitation: Ann invites Bob by username; Bob accepts from his invitations.
    go(ann, stack, "#/")
    ann.get_by_label("Time per move").select_option(label="1 day")
    ann.get_by_role("checkbox", name="Rated").check()
    ann.get_by_label("Invite by username").fill("WebBob")
    ann.get_by_role("button", name="Invite", exact=True).click()
    expect(ann.locator("#to-move")).to_have_text("Waiting for a player to join", timeout=WAIT_MS)
    shot(ann, "waiting")
    rated_id = ann.url.rsplit("/", 1)[1]
    go(bob, stack, "#/")
    invitation = bob.get_by_role("list", name="Invitations").get_by_role("listitem")
    expect(invitation).to_contain_text("WebAnn invites you")
    expect(invitation).to_contain_text("rated")
    axe_clean(bob, "home with an invitation (phone)")
    shot(bob, "invitation", phone_too=False)
    invitation.get_by_role("button", name="Accept").tap()
    expect(bob).to_have_url(re.compile(rated_id), timeout=WAIT_MS)
    expect(ann.locator("#to-move")).to_have_text("Your turn", timeout=WAIT_MS)
    commit_on(ann, *first_covered(ann, pick=100))
    ann.get_by_role("button", name="Resign").click()
    ann.get_by_role("button", name="Keep playing").click()  # thought better of it
    expect(ann.get_by_role("button", name="Resign")).to_be_visible()
    ann.get_by_role("button", name="Resign").click()
    ann.get_by_role("button", name="Yes, resign").click()
    expect(ann.locator("#result")).to_have_text("You lost to WebBob", timeout=WAIT_MS)
    expect(ann.get_by_role("list", name="Players")).to_contain_text("rating")

    # Rematch: the same game again, seats rotated, Bob invited; he accepts from his list.
    ann.locator(".end").get_by_role("link", name="Rematch").click()
    expect(ann.locator("#to-move")).to_have_text("Waiting for a player to join", timeout=WAIT_MS)
    rematch_id = ann.url.rsplit("/", 1)[1]
    assert rematch_id != rated_id
    # Ann asked for it, so she may call it off, though the rotation put her in seat 1.
    expect(ann.get_by_role("button", name="Cancel game")).to_be_visible()
    go(bob, stack, "#/")
    invitation = bob.get_by_role("list", name="Invitations").get_by_role("listitem")
    expect(invitation).to_contain_text("WebAnn invites you")
    invitation.get_by_role("button", name="Accept").tap()
    expect(bob).to_have_url(re.compile(rematch_id), timeout=WAIT_MS)
    expect(bob.locator("#to-move")).to_have_text("Your turn", timeout=WAIT_MS)  # rotated
    expect(ann.locator("#to-move")).to_have_text("WebBob to move", timeout=WAIT_MS)

    # Another invitation, which Bob declines; Ann then cancels the game.
    go(ann, stack, "#/")
    ann.get_by_label("Invite by username").fill("WebBob")
    ann.get_by_role("button", name="Invite", exact=True).click()
    expect(ann.locator("#to-move")).to_have_text("Waiting for a player to join", timeout=WAIT_MS)
    go(bob, stack, "#/")
    invitation = bob.get_by_role("list", name="Invitations").get_by_role("listitem")
    expect(invitation).to_contain_text("WebAnn invites you")
    invitation.get_by_role("button", name="Decline").tap()
    expect(bob.get_by_role("list", name="Invitations").get_by_role("listitem")).to_have_count(0)
    ann.get_by_role("button", name="Cancel game").click()
    expect(ann.locator("#to-move")).to_have_text("This game was cancelled", timeout=WAIT_MS)

    # Ten more rated games (over the API, to be quick: Bob resigns each) make Ann's rating
    # established, so that the leaderboard lists her.
    ann_api = ApiClient(http_transport(stack.url), id_token(stack, "ann"))
    bob_api = ApiClient(http_transport(stack.url), id_token(stack, "bob"))
    for _ in range(10):
        invite = {"bots": 0, "rated": True, "invite": ["WebBob"]}
        game = ann_api.call("POST", "/v1/games", invite).json()
        game = bob_api.call("POST", f"/v1/games/{game['game_id']}/join", {}).json()
        moved: set[int] = set()
        while len(moved) < 2 and game["status"] == "active":  # a rated game needs a move each
            seat = game["turn"]["seat"]
            row, col = next(
                (r, c)
                for r, line in enumerate(game["board"])
                for c, ch in enumerate(line)
                if ch == "."
            )
            body = {"row": row, "col": col, "expected_move": game["move_count"]}
            mover = (ann_api, bob_api)[seat]
            game = mover.call("POST", f"/v1/games/{game['game_id']}/moves", body).json()["game"]
            moved.add(seat)
        assert bob_api.call("POST", f"/v1/games/{game['game_id']}/resign", {}).status == 200
    deadline = time.monotonic() + 60
    while (games := ann_api.call("GET", "/v1/me").json()["ratings"]["mine-duel"]["games"]) < 10:
        assert time.monotonic() < deadline, f"only {games} rated games were applied"
        time.sleep(0.2)

    # A day and a minute later (local clock), as a player coming back the next day: the hour-long
    # tokens have expired, the pages refresh them (the refresh token lasts 30 days) and go on
    # signed in; the leaderboard snapshot has run meanwhile.
    advance_clock(stack, 86_460)
    # Each page learns that its token expired from one refused request, then refreshes it.
    watch.allow_status.add(401)
    nav(ann, "Leaderboard")
    expect(ann.locator(".my-rank")).to_contain_text("Your rank: 1", timeout=WAIT_MS)
    expect(ann.get_by_role("table")).to_contain_text("WebAnn")
    expect(ann.locator("#who")).to_have_text("WebAnn")
    axe_clean(ann, "the leaderboard")
    shot(ann, "leaderboard")
    nav(ann, "History")
    history = ann.get_by_role("list", name="Finished games")
    expect(history.get_by_role("listitem")).to_have_count(10)  # a page
    # Newest first: the rematch, left with Bob to move, has ended in the day: Bob ran out of time.
    expect(history.locator(f'[data-game="{rematch_id}"]')).to_contain_text("won")
    expect(history.get_by_role("listitem").first).to_have_attribute("data-game", rematch_id)
    ann.get_by_role("button", name="Older games").click()
    expect(history.get_by_role("listitem")).to_have_count(13)
    expect(history.get_by_role("listitem").last).to_contain_text("won")  # the quick pairing
    expect(history.get_by_role("link", name="Replay")).to_have_count(13)
    expect(ann.get_by_role("button", name="Older games")).to_be_hidden()
    axe_clean(ann, "the history")
    shot(ann, "history")
    go(bob, stack, "#/players/WebBob")
    expect(bob.get_by_role("img", name="Six-month trend")).to_be_visible()
    expect(bob.get_by_role("list", name="Recent games").get_by_role("listitem")).to_have_count(10)
    expect(bob.locator("#who")).to_have_text("WebBob")
    # Bob's own profile shows his fair-play status; nobody else's view of it does. Ten games of
    # a tap or two each are never a case: a first tap ties every cell, and no z is computed
    # before a window holds 40 taps on hard positions (docs/fair-play.md).
    fair_play = bob.get_by_role("region", name="Fair play")
    expect(fair_play.locator(".fair-play")).to_have_text(re.compile(r"^Clear\b"), timeout=WAIT_MS)
    expect(fair_play.get_by_label("Fair-play figures")).to_contain_text("Rated games screened")
    axe_clean(bob, "a profile (phone)")
    shot(bob, "profile", phone_too=False)
    go(ann, stack, "#/players/WebBob")
    expect(ann.get_by_role("heading", name="Recent games")).to_be_visible()
    expect(ann.get_by_role("heading", name="Fair play")).to_have_count(0)
    shot(ann, "profile")
    # A token about to expire is refreshed before it is sent (here: on reload).
    token = "() => JSON.parse(localStorage.getItem('mineduel.session')).token"
    go(ann, stack, "#/history")
    before = ann.evaluate(token)
    ann.evaluate(
        """() => { const s = JSON.parse(localStorage.getItem('mineduel.session'));
                   s.expires_at = Date.now() + 60000;
                   localStorage.setItem('mineduel.session', JSON.stringify(s)); }"""
    )
    ann.reload()
    expect(ann.get_by_role("list", name="Finished games").get_by_role("listitem")).to_have_count(10)
    assert ann.evaluate(token) != before
    go(ann, stack, "#/account")
    expect(ann.get_by_role("heading", name="Your account")).to_be_visible()
    ann.get_by_role("button", name="Sign out").click()
    expect(ann.get_by_role("link", name="History")).to_be_hidden()
    watch.assert_clean()
    ann_context.close()
    bob_context.close()


def test_a_guest_becomes_an_account_with_an_authenticator_a_picture_and_the_daily_duel(
    stack: RunningStack, browser: Browser
) -> None:
    watch = Watch()
    context, page = new_page(browser, watch)
    play_the_bot(page, stack, "Mine duel")
    guest_game = page.url.rsplit("/", 1)[1]
    # A known mine: the guest keeps the turn, and the game stays a running one, which "Your
    # games" lists below (after a tap on an unknown cell the easy bot may win at once).
    known = known_field(guest_game)
    commit_on(page, *divmod(min(known.mines), known.width))

    # Sign up from the guest session: the guest's game comes along.
    go(page, stack, "#/account")
    expect(page.get_by_text("At least 12 characters")).to_be_visible()  # the password rule
    page.get_by_label("Email").fill("cy@example.com")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".field-error:visible")).to_contain_text("Choose a stronger password")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("Confirmation code").fill("12")
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator(".field-error:visible")).to_contain_text("6 digits")
    page.get_by_label("Confirmation code").fill("135790")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible(timeout=WAIT_MS)
    page.get_by_label("Username").fill("no spaces")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".field-error:visible")).to_contain_text("3 to 20 letters")
    page.get_by_label("Username").fill("WebCy")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    go(page, stack, "#/")
    expect(page.get_by_role("list", name="Your games")).to_contain_text("Mine duel")
    expect(page.locator(f"a[href='#/game/{guest_game}']")).to_be_visible()

    # A picture, from a file.
    go(page, stack, "#/account")
    picture = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 60, 40)).save(picture, format="PNG")
    page.get_by_label("Picture").set_input_files(
        {"name": "me.png", "mimeType": "image/png", "buffer": picture.getvalue()}
    )
    page.get_by_role("button", name="Upload picture").click()
    expect(page.locator(".current-avatar img")).to_be_visible(timeout=WAIT_MS)

    # The authenticator app: QR code and secret, a first code turns it on.
    page.get_by_role("button", name="Set up an authenticator app").click()
    expect(page.get_by_role("img", name="QR code")).to_be_visible()
    secret = page.locator("#totp-secret").inner_text().strip()
    assert re.fullmatch(r"[A-Za-z2-7]+", secret)
    axe_clean(page, "the authenticator setup")
    shot(page, "authenticator")
    page.get_by_label("Authenticator code").fill(fresh_totp(secret))
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_text("signing in now asks for your app's code")).to_be_visible()

    # Sign out, and in again with the password and the app's code.
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Play MineDuel")).to_be_visible()
    go(page, stack, "#/account")
    page.get_by_label("Email").fill("cy@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Authenticator code").fill(fresh_totp(secret))
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#who")).to_have_text("WebCy")

    # The daily duel: play it (resign at once), then the day's table.
    go(page, stack, "#/daily")
    # Days are prepared ahead, so yesterday exists when an earlier test on this stack moved its
    # clock on: the screen says what GET /v1/daily says.
    daily = ApiClient(http_transport(stack.url)).call("GET", "/v1/daily").ok()
    yesterday = page.get_by_role("region", name="Yesterday's results")
    if daily["yesterday"] is None:
        expect(yesterday.get_by_text("There was no daily duel yesterday.")).to_be_visible()
    else:
        expect(yesterday.get_by_text(re.compile(r"^\d+ players?, \d+ ranked"))).to_be_visible()
    page.get_by_role("button", name="Play today's duel").click()
    expect(page.get_by_role("grid", name="Board")).to_be_visible(timeout=WAIT_MS)
    commit_on(page, 0, 0)
    wait_for_my_turn_or_end(page)
    if status(page) == "active":
        page.get_by_role("button", name="Resign").click()
        page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#result")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("The whole field is shown once the day's duel is over")).to_be_visible()
    go(page, stack, "#/daily")
    expect(page.get_by_role("link", name="See your game")).to_be_visible()
    axe_clean(page, "the daily duel")
    shot(page, "daily")
    watch.assert_clean()
    context.close()


def test_a_guest_the_server_no_longer_knows_becomes_a_new_guest_with_a_short_message(
    stack: RunningStack, browser: Browser
) -> None:
    # The dead token's refusals: the socket's handshake and one request.
    watch = Watch(allow=[r"/v1/games$", r"/v1/me/games", r"WebSocket connection to .*\.gone"])
    context, page = new_page(browser, watch, viewport=PHONE)
    go(page, stack, "#/")
    page.evaluate(
        """() => localStorage.setItem("mineduel.session", JSON.stringify({
            kind: "guest", token: "mdg1." + "ab".repeat(16) + ".gone", name: "Guest ababab",
            player_id: "guest-" + "ab".repeat(16)}))"""
    )
    page.reload()
    page.get_by_role("button", name="Play the bot").click()
    expect(page.get_by_role("grid", name="Board")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_role("status").filter(has_text="new guest")).to_be_visible()
    expect(page.locator("#who")).not_to_contain_text("ababab")
    expect(page.get_by_text("Something went wrong")).to_have_count(0)
    watch.assert_clean()
    context.close()


def test_a_live_channel_that_cannot_connect_leaves_the_guest_its_session(
    stack: RunningStack, browser: Browser
) -> None:
    """The socket's handshakes fail while the REST API answers (a tunnel, a phone between
    networks, the live channel down): the page asks the REST API whether its token still holds,
    hears it does, and keeps its guest and the guest's game. (It once took two failed handshakes
    for a refused token and made a new guest, who was no seat of the game being played.)"""
    watch = Watch(allow=[r"WebSocket connection to .* failed"])
    context, page = new_page(browser, watch, viewport=PHONE, service_workers="block")

    def no_live_channel(route: Route) -> None:
        config = route.fetch().json()
        config["websocket_url"] = "ws://127.0.0.1:9/"  # nothing listens: refused at once
        route.fulfill(json=config)

    page.route(re.compile(r"/config\.json$"), no_live_channel)
    attempts: list[str] = []
    page.on("websocket", lambda socket: attempts.append(socket.url))
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    play_the_bot(page, stack, "Mine duel")
    guest = page.evaluate("() => JSON.parse(localStorage.getItem('mineduel.session'))")
    for _ in range(WAIT_MS // 100):  # handshakes 1 s, then 2 s, then 4 s apart
        if len(attempts) >= 3:
            break
        page.wait_for_timeout(100)
    assert len(attempts) >= 3, attempts
    row, col = first_covered(page)
    commit_on(page, row, col)  # still a seat of the game
    assert page.evaluate("() => JSON.parse(localStorage.getItem('mineduel.session'))") == guest
    assert [url for url in posts if url.endswith("/v1/guests")] == [f"{stack.url}/v1/guests"]
    asked = "(e) => e.name.endsWith('/v1/me/games?status=active&limit=1')"
    assert page.evaluate(f"() => performance.getEntriesByType('resource').some({asked})")
    watch.assert_clean()
    context.close()


def server_time(stack: RunningStack) -> float:
    """The local stack's clock, in seconds since the epoch (earlier tests may have moved it)."""
    now = ApiClient(http_transport(stack.url)).call("GET", "/_local/clock").ok()["now"]
    return datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp()


@pytest.mark.parametrize("skew_s", [3600, -3600])
def test_a_device_whose_clock_is_off_counts_down_by_the_servers(
    stack: RunningStack, browser: Browser, skew_s: int
) -> None:
    """A phone an hour fast would show a day's move as 22:59:59 left (an hour slow: "1 day 0
    hours"); the page reads the server's clock off the answers' Date header and shows 23:59."""
    watch = Watch()
    context, page = new_page(browser, watch, viewport=PHONE)
    context.clock.install(time=server_time(stack) + skew_s)
    play_the_bot(page, stack, "Mine duel")
    expect(page.locator("#countdown")).to_have_text(re.compile(r"^23:5\d:\d\d$"))
    expect(page.locator("#countdown")).not_to_have_class(re.compile("low"))
    offset_s = page.evaluate("async () => (await import('./clock.js')).offset() / 1000")
    assert abs(offset_s + skew_s) <= 5, offset_s  # the page's estimate of its own clock's error
    watch.assert_clean()
    context.close()


def test_the_clock_estimate_narrows_over_answers_and_trusts_a_clock_that_fits(
    stack: RunningStack, browser: Browser
) -> None:
    """``clock.js`` on made-up answers: the bounds each answer gives (stamped in a whole second
    between the request leaving and the answer arriving), a device clock inside them left
    alone, one outside corrected by the least that fits, a contradiction starting afresh."""
    context, page = new_page(browser, Watch())
    go(page, stack, "#/")
    found = page.evaluate(
        """async () => {
          const clock = await import('./clock.js');
          const at = (ms) => new Date(ms).toUTCString();
          const t = Date.UTC(2026, 11, 2, 12, 0, 0);
          const out = {};
          clock.forget();
          out.none = clock.offset();
          clock.heard(at(t), t - 200, t + 300);  // a right clock: 0 fits [-300, 1199]
          out.right = clock.offset();
          clock.forget();
          clock.heard(at(t + 90000), t - 100, t + 100);  // 90 s slow: [89900, 91099]
          out.slow = clock.offset();
          clock.heard(at(t + 91000), t + 1000, t + 1100);  // the next second: [89900, 90999]
          out.narrowed = clock.offset();
          clock.heard(at(t + 91000), t + 1500, t + 1600);  // stamped late in it: [89400..]
          out.still = clock.offset();
          clock.forget();
          clock.heard(at(t - 120000), t, t + 50);  // 2 minutes fast: [-120050, -119001]
          out.fast = clock.offset();
          clock.heard(at(t + 3600000), t + 1000, t + 1050);  // the server's clock moved an hour
          out.moved = clock.offset();
          clock.heard("not a date", t, t + 50);
          clock.heard(at(t), t + 50, t);  // arrived before it left: ignored
          out.ignored = clock.offset();
          clock.forget();
          return out;
        }"""
    )
    assert found == {
        "none": 0,
        "right": 0,
        "slow": 89_900,
        "narrowed": 89_900,
        "still": 89_900,
        "fast": -119_001,
        "moved": 3_598_950,
        "ignored": 3_598_950,
    }
    context.close()


def test_the_waiting_player_may_claim_the_time_out_once_the_others_time_is_up(
    stack: RunningStack, browser: Browser
) -> None:
    """Nothing about the game changes when the other player's minute runs out, yet the waiting
    player's page offers "Claim the time-out" at that moment (by the page's clock, moved with
    Playwright's); the server refuses the claim while its own clock says there is time left,
    the refusal's Date header puts the page back on the server's clock (the countdown shows
    time left again, the claim goes), and once that clock is past the deadline the time-out
    ends the game."""
    mine, theirs = signed_in(stack, "webfay"), signed_in(stack, "webgus")
    game_id = mine.create_game(bots=0, seats=2, move_deadline_s=60)["game_id"]
    theirs.call("POST", f"/v1/games/{game_id}/join").ok()

    watch = Watch(allow=[rf"/v1/games/{game_id}/timeout$"])  # the refusal the test provokes
    context, page = new_page(browser, watch)
    go(page, stack, "#/account")
    page.get_by_label("Email").fill("webfay@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible(timeout=WAIT_MS)
    go(page, stack, f"#/game/{game_id}")
    assert wait_for_my_turn_or_end(page) == "active"  # the game's creator moves first
    for pick in range(60):  # a mine flagged is another go: tap until the turn passes
        commit_on(page, *first_covered(page, pick=pick * 7))
        if page.locator("#to-move").inner_text() != "Your turn":
            break
    expect(page.locator("#to-move")).to_have_text(re.compile(r" to move$"))
    claim = page.get_by_role("button", name="Claim the time-out")
    expect(claim).to_have_count(0)

    # The page's clock, from now on moved by the test: to 5 s past the deadline the page shows
    # by its reading of the server's clock (earlier tests moved the local clock on, a day).
    page.clock.install()
    left_ms = page.evaluate(
        """async () => Date.parse(document.getElementById('countdown').dataset.deadline)
            - (await import('./clock.js')).serverNow()"""
    )
    assert left_ms <= 60_000, left_ms
    assert left_ms > 0, left_ms
    page.clock.fast_forward(int(left_ms) + 5_000)
    expect(claim).to_be_visible()
    claim.click()
    expect(page.get_by_text("They still have time by the server's clock")).to_be_visible()
    assert status(page) == "active"
    expect(claim).to_have_count(0)  # the refusal's Date: the page's clock was a minute fast
    expect(page.locator("#countdown")).not_to_have_text("no time left")

    advance_clock(stack, 65)
    expect(page.locator("#result")).to_contain_text("You won", timeout=WAIT_MS)
    expect(claim).to_have_count(0)
    watch.assert_clean()
    context.close()


# ---------------------------------------------------------------------------- notifications
# Headless Chromium refuses PushManager.subscribe ("Registration failed - permission denied":
# it has no push service to register with, and this machine no network to one). So the page's
# subscribe is answered with a subscription of the test's push receiver (made as a browser
# makes one); everything after it is real: the page posts it, the server pushes to the
# receiver, which checks and decrypts it as a push service and a browser would, and the
# decrypted payload is handed to the page's service worker the way the browser's push service
# connection hands it over (DevTools' ServiceWorker.deliverPushMessage).
FAKE_SUBSCRIBE = """
(() => {
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    const made = window.__pushSubscription;
    current = {
      endpoint: made.endpoint,
      options: {
        applicationServerKey: options.applicationServerKey.buffer || options.applicationServerKey,
        userVisibleOnly: true,
      },
      toJSON: () => made,
      unsubscribe: async () => { current = null; return true; },
    };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""


def test_notifications_in_the_browser_the_switch_the_kinds_and_the_service_worker(
    stack: RunningStack, browser: Browser
) -> None:
    from mineduel.testing.accounts import signed_in  # noqa: PLC0415
    from mineduel.testing.push_receiver import PushReceiver  # noqa: PLC0415

    vapid = ApiClient(http_transport(stack.url)).call("GET", "/v1/push/vapid-key").json()
    with PushReceiver(vapid["public_key"]) as receiver:
        made = receiver.subscribe()
        watch = Watch()
        context, page = new_page(browser, watch)
        context.grant_permissions(["notifications"], origin=stack.url)
        context.add_init_script(FAKE_SUBSCRIBE)
        sign_up(page, stack, "dee21@example.com", "WebDee")
        page.evaluate("s => { window.__pushSubscription = s; }", made.to_json())

        box = page.get_by_role("checkbox", name="Notifications")
        box.click()
        expect(page.get_by_text("Notifications are on in this browser.")).to_be_visible(
            timeout=WAIT_MS
        )
        expect(box).to_be_checked()
        axe_clean(page, "the account's notifications")
        shot(page, "account-notifications")

        # Another player invites WebDee: the push arrives, and the service worker shows it.
        host = signed_in(stack, "eve21")
        created = host.call("POST", "/v1/games", {"bots": 0, "invite": ["WebDee"]})
        assert created.status == 201, created.body
        game_id = created.json()["game_id"]
        (push,) = receiver.wait_for(made, 1)
        assert push.payload["type"] == "invited"
        assert push.payload["url"] == f"{stack.url}/#/game/{game_id}"
        cdp = context.new_cdp_session(page)
        registrations: list[dict[str, object]] = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda e: registrations.extend(e["registrations"]),
        )
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + 10
        while not registrations and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        registration = next(
            r for r in registrations if not r["isDeleted"] and r["scopeURL"] == f"{stack.url}/"
        )
        # The push goes in through DevTools, which answers before the worker has handled it and
        # drops a message it cannot deliver without a word; under load (CI, three workers) one
        # delivery in a long while left no notification. So the same message is delivered again
        # when none has shown after a few seconds: its tag is the game's, so a second delivery
        # replaces the first, and exactly one notification is still asserted.
        shown = None
        for _delivery in range(3):
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": stack.url,
                    "registrationId": registration["registrationId"],
                    "data": json.dumps(push.payload),
                },
            )
            deadline = time.monotonic() + WAIT_MS / 3000
            while shown is None and time.monotonic() < deadline:
                page.wait_for_timeout(100)
                shown = page.evaluate(
                    """async () => {
                        const r = await navigator.serviceWorker.getRegistration();
                        const found = r ? await r.getNotifications() : [];
                        const seen = found.map(n => [n.title, n.body, n.tag, n.data.url]);
                        return seen.length ? seen : null;
                    }"""
                )
            if shown is not None:
                break
        assert shown == [
            ["You are invited", push.payload["body"], f"game-{game_id}", push.payload["url"]]
        ]

        # Clicking it opens the game (the click is the test's: no system notification here).
        (worker,) = [w for w in context.service_workers if w.url.endswith("/sw.js")]
        worker.evaluate(
            """async () => {
                const [n] = await self.registration.getNotifications();
                self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n }));
            }"""
        )
        page.wait_for_url(f"**/#/game/{game_id}", timeout=WAIT_MS)
        expect(page.get_by_role("button", name="Accept")).to_be_visible(timeout=WAIT_MS)

        # The kinds: "Your turn" off is saved in the profile; the others stay on.
        go(page, stack, "#/account")
        kinds = page.get_by_role("group", name="Tell me about")
        for name in ("Your turn", "Time almost up", "Invitations", "Game over"):
            expect(kinds.get_by_role("checkbox", name=name)).to_be_checked()
        kinds.get_by_role("checkbox", name="Your turn").click()
        expect(page.get_by_text("Saved.")).to_be_visible()
        me = ApiClient(http_transport(stack.url), page.evaluate(TOKEN_OF_PAGE)).call(
            "GET", "/v1/me"
        )
        assert me.json()["settings"]["notify"]["your_turn"] is False
        assert me.json()["settings"]["notify"]["invited"] is True
        go(page, stack, "#/account")
        expect(kinds.get_by_role("checkbox", name="Your turn")).not_to_be_checked()

        # Off in this browser: the subscription goes from the server too.
        page.get_by_role("checkbox", name="Notifications").click()
        expect(page.get_by_text("Notifications are off in this browser.")).to_be_visible()
        listed = ApiClient(http_transport(stack.url), page.evaluate(TOKEN_OF_PAGE)).call(
            "GET", "/v1/me/push-subscriptions"
        )
        assert listed.json()["subscriptions"] == []

        # On again, then signing out: this browser stops telling WebDee's news.
        page.get_by_role("checkbox", name="Notifications").click()
        expect(page.get_by_text("Notifications are on in this browser.")).to_be_visible()
        as_dee = ApiClient(http_transport(stack.url), page.evaluate(TOKEN_OF_PAGE))
        assert len(as_dee.call("GET", "/v1/me/push-subscriptions").json()["subscriptions"]) == 1
        page.get_by_role("button", name="Sign out").click()
        page.wait_for_url(f"{stack.url}/#/", timeout=WAIT_MS)
        assert as_dee.call("GET", "/v1/me/push-subscriptions").json()["subscriptions"] == []
        assert page.evaluate("() => localStorage.getItem('mineduel.push')") is None

        # Someone else signs up on this browser, which still says "on" for another account
        # (a session that ended without signing out): the box is theirs to tick, unticked.
        page.evaluate(
            """async () => {
                const r = await navigator.serviceWorker.getRegistration();
                await r.pushManager.subscribe({ applicationServerKey: new Uint8Array(65) });
                localStorage.setItem('mineduel.push', 'on');
                localStorage.setItem('mineduel.push.player', 'someone-before');
            }"""
        )
        sign_up(page, stack, "dee21b@example.com", "WebDeeTwo")
        expect(page.get_by_role("checkbox", name="Notifications")).not_to_be_checked()
        assert receiver.rejected == []
        watch.assert_clean()
        context.close()


TOKEN_OF_PAGE = """() => {
    const saved = JSON.parse(localStorage.getItem("mineduel.session") || "null");
    return saved && saved.kind === "account" ? saved.token : null;
}"""


# ---------------------------------------------------------------------------- the app
# The web client as an app a phone keeps (docs/web.md, "An app"): the manifest fetched and
# valid, with icons of the sizes it names; Chromium finds the app installable and the page
# offers its install prompt; the service worker caches the client's own files (one version,
# nothing of the API) and the shell opens with the network off, showing the player's games as
# last read and refusing, in words, to commit a move (an armed move stays armed, and a move sent
# again after a lost answer carries the same Idempotency-Key); iOS Safari is told to add the
# app to the Home Screen before any permission is asked; a countdown follows the server's clock
# when the local stack's clock moves.
WEB = ROOT / "web"
# A page whose network is cut tries to reach the live socket again and again; Chromium logs each
# failed attempt as a console error. Those, and the requests the cut makes fail, are provoked.
OFFLINE_NOISE = [r"WebSocket connection to .* failed", r"ERR_INTERNET_DISCONNECTED"]
IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


def test_the_manifest_is_valid_and_chromium_finds_the_app_installable(
    stack: RunningStack, chromium_profile: BrowserContext
) -> None:
    """The manifest Chromium reads has no error, names icons of 192 and 512 px (one maskable)
    that are what they say, and Chromium reports no reason the app could not be installed (in a
    profile of its own: Chromium installs nothing from an incognito window, which Playwright's
    contexts are)."""
    watch = Watch()
    context = chromium_profile
    page = watch.attach(context.new_page())
    # Count the prompts the page hands back to Chromium (the real prompt() still runs).
    page.add_init_script(
        """(() => {
          window.prompts = 0;
          const real = BeforeInstallPromptEvent.prototype.prompt;
          BeforeInstallPromptEvent.prototype.prompt = function () {
            window.prompts += 1;
            return real.call(this);
          };
        })()"""
    )
    go(page, stack, "#/")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{stack.url}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = json.loads(manifest["data"])
    assert parsed["display"] == "standalone" and parsed["start_url"] == "./"
    assert parsed["scope"] == "./" and parsed["theme_color"] and parsed["background_color"]
    sizes = {}
    for icon in parsed["icons"]:
        answer = page.request.get(f"{stack.url}/{icon['src']}")
        assert answer.status == 200 and answer.headers["content-type"] == "image/png"
        width, height = Image.open(io.BytesIO(answer.body())).size
        assert f"{width}x{height}" == icon["sizes"], icon
        sizes.setdefault(icon["purpose"], set()).add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes["any"] and "512x512" in sizes["maskable"]
    # iOS reads the page itself: the home-screen icon, the title, the standalone flag.
    assert page.locator('link[rel="apple-touch-icon"]').get_attribute("href") == (
        "apple-touch-icon.png"
    )
    assert (
        page.locator('meta[name="apple-mobile-web-app-title"]').get_attribute("content")
        == "MineDuel"
    )
    assert page.locator('meta[name="theme-color"]').count() == 2
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors

    # Chromium, finding the app installable, offers to install it (beforeinstallprompt); the
    # page holds the browser's own bar back and offers it as a button, which hands it back.
    install = page.get_by_role("button", name="Install the app")
    expect(install).to_be_visible(timeout=WAIT_MS)
    axe_clean(page, "home, with the install button")
    install.click()
    expect(install).to_be_hidden()
    page.wait_for_function("() => window.prompts === 1")
    # Chromium offers a new prompt soon after one is dismissed: the page does not ask again.
    page.evaluate("() => window.dispatchEvent(new Event('beforeinstallprompt'))")
    expect(install).to_be_hidden()
    watch.assert_clean()


def test_the_shell_opens_offline_with_the_last_games_and_refuses_to_commit(
    stack: RunningStack, browser: Browser
) -> None:
    watch = Watch()
    context, page = new_page(browser, watch, viewport=PHONE, has_touch=True, is_mobile=True)
    # A cache of an older version, as a phone that kept the app would have (made from a page
    # of the same origin that is not the app): the new worker, once active, deletes it.
    page.goto(f"{stack.url}/openapi.json")
    page.evaluate("async () => { await caches.open('mineduel-shell-0123456789abcdef'); }")
    play_the_bot(page, stack, "Mine duel")
    game_url = page.url
    game_id = game_url.rsplit("/", 1)[1]
    go(page, stack, "#/")
    games = page.get_by_role("list", name="Your games")
    expect(games.get_by_role("listitem")).to_have_count(1)
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    # What the cache holds: the client's files of one version and its settings, nothing else.
    cached = page.evaluate(
        """async () => {
          const out = {};
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
          }
          return out;
        }"""
    )
    worker = (WEB / "sw.js").read_text(encoding="utf-8")
    version = re.search(r'const VERSION = "([0-9a-f]+)"', worker)[1]  # type: ignore[index]
    assert set(cached) == {f"mineduel-shell-{version}", "mineduel-config"}
    assert sorted(cached[f"mineduel-shell-{version}"]) == sorted(
        f"/{name}" for name in webshell.shell_files()
    )
    assert cached["mineduel-config"] == ["/config.json"]

    # The network goes: the app still opens, from the service worker's cache. (Its reads of the
    # API fail meanwhile, as they must.)
    watch.allow = [*OFFLINE_NOISE, r"/v1/"]
    context.set_offline(True)
    answer = page.reload()
    assert answer is not None and answer.from_service_worker and answer.status == 200
    expect(page.get_by_role("heading", level=1)).to_have_text("Play MineDuel")
    offline_line = page.locator("#offline")
    expect(offline_line).to_contain_text("You are offline")
    expect(games).to_contain_text("Offline: your games as they were at")
    expect(games.get_by_role("link", name="Open")).to_have_count(1)
    axe_clean(page, "home, offline")

    # The game as it was; a square can be armed, not committed, and the page says why.
    sent: list[Request] = []
    page.on("request", lambda r: sent.append(r) if r.method == "POST" else None)
    games.get_by_role("link", name="Open").click()
    expect(page.get_by_role("grid", name="Board")).to_be_visible()
    expect(page.locator("#to-move")).to_have_text("Your turn")
    row, col = first_covered(page)
    cell = page.locator(f'[role="gridcell"][data-row="{row}"][data-col="{col}"]')
    cell.tap()
    expect(cell).to_have_attribute("aria-selected", "true")
    commit = page.get_by_role("button", name="Commit")
    expect(commit).to_be_disabled()
    refusal = page.locator("#offline-move")
    expect(refusal).to_contain_text("No connection: a move can be committed once it is back")
    expect(refusal).to_contain_text("your square stays armed")
    expect(refusal).to_contain_text("The game as it was at")
    page.keyboard.press("Enter")  # the keyboard cannot commit it either
    axe_clean(page, "the game, offline, a square armed")
    assert sent == []

    # Back online: the page reads the game, the square is still armed, Commit plays it once.
    context.set_offline(False)
    expect(offline_line).to_be_hidden(timeout=WAIT_MS)
    watch.allow = OFFLINE_NOISE
    expect(refusal).to_be_hidden(timeout=WAIT_MS)
    expect(cell).to_have_attribute("aria-selected", "true")
    expect(commit).to_be_enabled(timeout=WAIT_MS)
    commit.click(timeout=WAIT_MS * 2)
    wait_moved(page, 0)
    assert [r.url for r in sent] == [f"{stack.url}/v1/games/{game_id}/moves"]
    watch.assert_clean()
    context.close()


def test_a_move_sent_again_after_its_answer_was_lost_has_the_same_idempotency_key(
    stack: RunningStack, browser: Browser
) -> None:
    """The first send of a commit dies on the way (the connection drops); the square stays
    armed, and the second send is the same request: one Idempotency-Key, so the server plays
    it at most once whatever became of the first."""
    watch = Watch(allow=[r"/moves$"])
    context, page = new_page(browser, watch, viewport=PHONE, has_touch=True, is_mobile=True)
    play_the_bot(page, stack, "Mine duel")
    keys: list[str] = []

    def lose_the_first(route: Route) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r"/v1/games/[0-9a-f-]+/moves$"), lose_the_first)
    row, col = first_covered(page)
    cell = page.locator(f'[role="gridcell"][data-row="{row}"][data-col="{col}"]')
    cell.tap()
    page.get_by_role("button", name="Commit").click()
    expect(page.get_by_role("alert").filter(has_text="No connection")).to_be_visible()
    expect(cell).to_have_attribute("aria-selected", "true")
    commit = page.get_by_role("button", name="Commit")
    expect(commit).to_be_enabled(timeout=WAIT_MS)  # the game read again: the server is there
    commit.click()
    wait_moved(page, 0)
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 36
    watch.assert_clean()
    context.close()


def test_ios_safari_is_told_to_add_the_app_to_the_home_screen_before_any_permission(
    stack: RunningStack, browser: Browser
) -> None:
    """Safari gives Web Push only to a web app opened from the Home Screen: on an iPhone's
    Safari the account screen says how to add it, and ticking "Notifications" says it again
    without asking the browser for permission or the server for its key."""
    watch = Watch()
    context, page = new_page(
        browser, watch, viewport=PHONE, has_touch=True, is_mobile=True, user_agent=IPHONE_UA
    )
    page.add_init_script(
        """window.permissionAsked = 0;
        if (window.Notification) {
          Notification.requestPermission = async () => {
            window.permissionAsked += 1;
            return "default";
          };
        }"""
    )
    asked_key: list[str] = []
    page.on("request", lambda r: asked_key.append(r.url) if "vapid-key" in r.url else None)
    sign_up(page, stack, "ios@example.com", "WebIos")
    hint = page.locator("#home-screen-hint")
    expect(hint).to_contain_text("Add to Home Screen")
    expect(hint).to_contain_text("open MineDuel from there")
    axe_clean(page, "account on iOS Safari")
    box = page.get_by_role("checkbox", name="Notifications")
    box.click()  # (not check(): the page unticks it at once, which check() takes for a failure)
    expect(page.get_by_role("alert").filter(has_text="Add to Home Screen")).to_be_visible()
    expect(box).not_to_be_checked()
    assert page.evaluate("window.permissionAsked") == 0 and asked_key == []
    watch.assert_clean()
    context.close()


def test_a_countdown_follows_the_servers_clock_when_it_moves(
    stack: RunningStack, browser: Browser
) -> None:
    """On the local stack, POST /_local/clock moves the server's clock and nothing else: the
    page, live and with nothing to hear, reads the game again within half a minute and counts
    down by the moved clock (as it would when a phone's own clock is set while it is open)."""
    watch = Watch()
    context, page = new_page(browser, watch, viewport=PHONE)
    context.clock.install(time=server_time(stack))
    go(page, stack, "#/")
    page.get_by_label("Time per move").select_option(label="1 hour")
    play_the_bot(page, stack, "Mine duel")
    countdown = page.locator("#countdown")
    expect(countdown).to_have_text(re.compile(r"^59:\d\d$"))
    deadline = countdown.get_attribute("data-deadline") or ""
    advance_clock(stack, 600)
    page.clock.fast_forward(31_000)  # half a minute later, by the device's clock
    expect(countdown).to_have_text(re.compile(r"^(49|50):\d\d$"), timeout=WAIT_MS)
    now = server_time(stack)
    left = datetime_seconds(deadline) - now
    shown = [int(part) for part in (countdown.text_content() or "0:0").split(":")]
    assert abs(shown[0] * 60 + shown[1] - left) <= 3, (shown, left)
    assert ApiClient(http_transport(stack.url)).call("GET", "/_local/clock").status == 200
    watch.assert_clean()
    context.close()


def datetime_seconds(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_a_new_deploy_takes_over_and_an_open_page_reloads_at_its_next_screen(
    stack: RunningStack, browser: Browser, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A deploy changes sw.js (its version): the browser installs the new worker, which caches
    the new version's files and deletes the old cache; a page already open is not reloaded
    under its player, but its next screen comes from the new version (a reload), so one page
    never runs modules of two deploys."""
    watch = Watch()
    context, page = new_page(browser, watch, viewport=PHONE)
    go(page, stack, "#/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    worker = (WEB / "sw.js").read_text(encoding="utf-8")
    old = re.search(r'const VERSION = "([0-9a-f]+)"', worker)[1]  # type: ignore[index]
    # The deploy: the local stack serves a copy of web/ whose worker has another version.
    deployed = tmp_path / "web"
    shutil.copytree(WEB, deployed)
    (deployed / "sw.js").write_text(worker.replace(old, "0" * 16), encoding="utf-8")
    serve = webclient.asset
    monkeypatch.setattr(webclient, "asset", lambda path, root=deployed: serve(path, root))

    page.evaluate(
        """() => {
          window.stillThisPage = true;
          window.tookOver = new Promise((done) =>
            navigator.serviceWorker.addEventListener("controllerchange", done, { once: true }));
        }"""
    )
    page.evaluate(
        "async () => { await (await navigator.serviceWorker.getRegistration()).update(); }"
    )
    page.evaluate("() => window.tookOver")  # the new worker is in charge, and then drops the old
    caches = page.evaluate(
        """async (old) => {
          for (;;) {
            const names = await caches.keys();
            if (!names.includes(`mineduel-shell-${old}`)) return names;
            await new Promise((wait) => setTimeout(wait, 50));
          }
        }""",
        old,
    )
    assert sorted(caches) == ["mineduel-config", "mineduel-shell-0000000000000000"], (old, caches)
    assert page.evaluate("window.stillThisPage === true")  # not reloaded under the player
    nav(page, "Lobby")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("window.stillThisPage === undefined")  # the next screen: a new page
    assert page.url.endswith("#/lobby")
    watch.assert_clean()
    context.close()
