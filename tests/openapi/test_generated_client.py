"""A client generated from docs/openapi.json plays a whole game against the bot.

The client is made at test time by openapi-python-client (a maintained generator from PyPI, in
the dev extra) into a temporary directory, with warnings treated as failures, and imported from
there; then it creates a guest, a game, commits every move, reads the game with its ETag, gets a
refusal as a typed problem, and checks the finished game's Verification document, all through
the generated functions and models against a local stack. If the document stops describing
what the server does (a schema, a status, a header), this is where a client author would
notice.
"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mineduel_service.games import store
from mineduel_service.platform import crypto
from mineduel_service.play.advance import field_for

from mineduel.local.stack import RunningStack
from mineduel.testing.players import next_tap

pytestmark = pytest.mark.http
DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
PACKAGE = "mineduel_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
# The generator reads only JSON, text/* and octet-stream answers; a player's export is NDJSON
# (text, one JSON document a line), so it is told to read it as text (its documented option).
CONFIG = (
    f"package_name_override: {PACKAGE}\nproject_name_override: mineduel-client\npost_hooks: []\n"
    "content_type_overrides:\n  application/x-ndjson: text/plain\n"
)


def generate(into: Path) -> Path:
    """Generate the client package from the document into ``into``; its directory."""
    config = into / "generator.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    target = into / PACKAGE
    done = subprocess.run(  # noqa: S603  (the generator installed beside this interpreter)
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(DOCUMENT),
            "--meta",
            "none",
            "--config",
            str(config),
            "--output-path",
            str(target),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return target


def load_package(directory: Path) -> ModuleType:
    """Import the generated package from ``directory`` (registered under its own name, so its
    relative imports resolve; nothing is added to ``sys.path``)."""
    spec = importlib.util.spec_from_file_location(
        PACKAGE, directory / "__init__.py", submodule_search_locations=[str(directory)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    package = load_package(generate(tmp_path_factory.mktemp("generated")))
    yield package
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def _api(name: str) -> Any:
    """A generated module (``api.games.create_game``, ``models``, ...)."""
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_the_generator_names_operations_after_the_documents_ids(
    client_package: ModuleType,
) -> None:
    for module in (
        "api.accounts.create_guest",
        "api.games.create_game",
        "api.games.get_game",
        "api.moves.commit_move",
        "api.moves.list_moves",
        "api.verification.get_verification",
        "api.leaderboards.get_leaderboard",
        "api.daily.play_daily",
        "api.exports.export_player_games",
        "api.analysis.get_game_analysis",
    ):
        assert callable(_api(module).sync), module
    assert client_package.AuthenticatedClient and client_package.Client


def _mines(game_id: str) -> list[tuple[int, int]]:
    """The game's mines, from its field read off the stack this test runs (in this process, as
    only a test can): a tap on one keeps the turn, and the bot does not move."""
    record = store.get_game(game_id)
    assert record is not None
    field = field_for(record, record.seats, crypto.decrypt_seed(record.seed_ciphertext, game_id))
    return [divmod(cell, field.width) for cell in sorted(field.mines)]


def test_a_generated_client_plays_a_whole_game_against_the_bot(
    client_package: ModuleType, stack: RunningStack
) -> None:
    models = _api("models")
    public = client_package.Client(base_url=stack.url, raise_on_unexpected_status=True)
    guest = _api("api.accounts.create_guest").sync(client=public)
    assert isinstance(guest, models.GuestOut)
    client = client_package.AuthenticatedClient(
        base_url=stack.url, token=guest.token, raise_on_unexpected_status=True
    )

    game = _api("api.games.create_game").sync(
        client=client,
        body=models.CreateGameRequest(bots=1, bot_level=models.CreateGameRequestBotLevel.EASY),
    )
    assert isinstance(game, models.GameOut), game
    assert game.status == models.GameOutStatus.ACTIVE and game.seed is None

    commit = _api("api.moves.commit_move")
    # The first four taps are known mines (the guest keeps the turn), so the game lasts five
    # commits or more whatever the field: from unknown cells the easy bot won within the
    # guest's first four taps about 4 times in 10,000.
    opening = _mines(game.game_id)[:4]
    played = 0
    while game.status == models.GameOutStatus.ACTIVE:
        if played < len(opening):
            row, col = opening[played]
        else:
            row, col = next_tap(game.to_dict(), "medium")
        body = models.CommitRequest(row=row, col=col, expected_move=game.move_count)
        answer = commit.sync(
            client=client, game_id=game.game_id, body=body, idempotency_key=str(uuid.uuid4())
        )
        assert isinstance(answer, models.CommitOut), answer
        assert answer.moves and answer.moves[0].n == game.move_count + 1
        game = answer.game
        played += 1
    assert game.status == models.GameOutStatus.FINISHED
    assert game.result is not None and game.seed is not None
    assert played >= 5

    moves = _api("api.moves.list_moves").sync(client=client, game_id=game.game_id, after=0)
    assert isinstance(moves, models.MovesOut)
    assert [move.n for move in moves.moves] == list(range(1, game.move_count + 1))

    document = _api("api.verification.get_verification").sync(client=public, game_id=game.game_id)
    assert isinstance(document, models.VerificationOut)
    assert document.verdict.checked and document.verdict.ok, document.verdict.problems
    assert document.seed == game.seed


def test_etags_refusals_and_retries_through_the_generated_client(
    client_package: ModuleType, stack: RunningStack
) -> None:
    models = _api("models")
    public = client_package.Client(base_url=stack.url)
    guest = _api("api.accounts.create_guest").sync(client=public)
    client = client_package.AuthenticatedClient(base_url=stack.url, token=guest.token)
    game = _api("api.games.create_game").sync(client=client, body=models.CreateGameRequest())

    read = _api("api.games.get_game")
    first = read.sync_detailed(client=client, game_id=game.game_id)
    assert first.status_code == 200
    tag = first.headers["etag"]
    again = read.sync_detailed(client=client, game_id=game.game_id, if_none_match=tag)
    assert (again.status_code, again.parsed) == (304, None)

    commit = _api("api.moves.commit_move")
    # A known mine: the guest keeps the turn and the game goes on, so the last commit below is
    # refused as stale (after a tap on an unknown cell the hard bot won the game at once about
    # 1 time in 1,000, and it was refused as game-not-active).
    row, col = _mines(game.game_id)[0]
    body = models.CommitRequest(row=row, col=col, expected_move=0)
    key = str(uuid.uuid4())
    once = commit.sync(client=client, game_id=game.game_id, body=body, idempotency_key=key)
    twice = commit.sync(client=client, game_id=game.game_id, body=body, idempotency_key=key)
    assert isinstance(once, models.CommitOut) and twice.to_dict() == once.to_dict()

    stale = commit.sync_detailed(client=client, game_id=game.game_id, body=body)
    assert stale.status_code == 409
    assert isinstance(stale.parsed, models.ErrorOut)
    assert stale.parsed.code == "stale-move" and stale.parsed.status == 409

    missing = read.sync_detailed(client=public, game_id=str(uuid.uuid4()))
    assert missing.status_code == 404 and missing.parsed.code == "game-not-found"
