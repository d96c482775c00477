"""Protocol mineduel/v1: its reference vectors, and docs/fairness.md as an outsider would use it.

The doc's own vectors, its worked example, its printed fields and its reference code are read
out of docs/fairness.md and checked here, so the published recipe cannot drift from the engine.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine import Field, commitment, derive_mines, game_key, is_valid_client_seed
from mineduel_engine.fairness import bot_stream, draw_below, words
from mineduel_engine.settings import VARIANT_SPECS

SPEC_SEED = bytes.fromhex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")
DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

SPEC_VECTORS = [
    ("g-0001", [], [136, 108, 178, 130, 225, 239, 169, 91, 243, 163], 6462),
    ("g-0001", ["alice-entropy"], [91, 27, 25, 255, 229, 76, 109, 124, 5, 48], 6251),
    (
        "6f1c0d2e-1b7a-4d0e-9a55-3f2b8c1d9e70",
        ["x", "y"],
        [0, 160, 206, 38, 190, 45, 134, 204, 79, 60],
        6393,
    ),
]


def test_spec_commitment() -> None:
    assert commitment(SPEC_SEED) == (
        "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef"
    )


@pytest.mark.parametrize(("game_id", "client_seeds", "first", "total"), SPEC_VECTORS)
def test_spec_vectors(game_id: str, client_seeds: list[str], first: list[int], total: int) -> None:
    mines = derive_mines(SPEC_SEED, game_id, client_seeds, 16, 16, 51)
    assert mines[:10] == first
    assert sum(mines) == total
    assert len(set(mines)) == 51


def test_game_key_message_has_one_bar_per_client_seed() -> None:
    """Two seats without seeds: ``mineduel/v1|<id>||`` (docs/fairness.md, under the vectors)."""
    expected = hmac.new(SPEC_SEED, b"mineduel/v1|g-0001||", hashlib.sha256).digest()
    assert game_key(SPEC_SEED, "g-0001", ["", ""]) == expected
    assert (
        game_key(SPEC_SEED, "g-0001", [])
        == hmac.new(SPEC_SEED, b"mineduel/v1|g-0001", hashlib.sha256).digest()
    )


def test_draw_throws_away_words_at_the_top() -> None:
    """The doc's example: below 3, the word 2^32 - 1 is thrown away and 5 gives 2."""
    assert draw_below(iter([2**32 - 1, 5]), 3) == 2
    assert draw_below(iter([2**32 - 2]), 3) == (2**32 - 2) % 3
    with pytest.raises(ValueError, match="cannot draw"):
        draw_below(iter([1]), 0)


def test_stream_is_eight_big_endian_words_a_block() -> None:
    key = b"k" * 32
    stream = words(key, "field|")
    block1 = hmac.new(key, b"field|" + (1).to_bytes(8, "big"), hashlib.sha256).digest()
    taken = [next(stream) for _ in range(16)]
    assert taken[8:] == [int.from_bytes(block1[i : i + 4], "big") for i in range(0, 32, 4)]


def test_bot_stream_is_keyed_by_the_commitment() -> None:
    public = commitment(SPEC_SEED)
    key = bytes.fromhex(public)
    block0 = hmac.new(key, b"bot|7|" + bytes(8), hashlib.sha256).digest()
    assert bot_stream(public, 7).below(2**32) == int.from_bytes(block0[:4], "big")


@pytest.mark.parametrize(
    ("client_seed", "valid"),
    [
        ("", True),
        ("A-z.0_~9", True),
        ("x" * 64, True),
        ("x" * 65, False),
        ("a|b", False),
        ("é", False),
        ("a b", False),
    ],
)
def test_client_seed_alphabet(client_seed: str, valid: bool) -> None:
    assert is_valid_client_seed(client_seed) is valid


# --- docs/fairness.md, read as an outsider would -------------------------------------------


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _doc_seeds() -> dict[str, bytes]:
    found = re.findall(r"Server seed ([AB]) `([0-9a-f]{64})`", _doc())
    return {name: bytes.fromhex(hex_seed) for name, hex_seed in found}


def _doc_vectors() -> list[tuple[str, str, list[str], int, int, int, list[int], int]]:
    rows = []
    for line in _doc().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] not in ("A", "B"):
            continue
        seed, game_id, seeds_text, board, first, total = cells
        client_seeds = (
            []
            if seeds_text.startswith("none")
            else [s.strip().strip("`").strip('"') for s in seeds_text.split(",")]
        )
        size, mines = board.split("/")
        width, height = (int(x) for x in size.split("x"))
        rows.append(
            (
                seed,
                game_id.strip("`"),
                client_seeds,
                width,
                height,
                int(mines),
                [int(x) for x in first.split()],
                int(total),
            )
        )
    return rows


def test_doc_lists_the_spec_vectors_and_its_own() -> None:
    vectors = _doc_vectors()
    assert len(vectors) >= 7
    listed = {(v[1], tuple(v[2]), tuple(v[6]), v[7]) for v in vectors if v[0] == "A"}
    assert {(g, tuple(c), tuple(f), t) for g, c, f, t in SPEC_VECTORS} <= listed
    assert {len(v[2]) for v in vectors if v[0] == "B"} >= {2, 3, 4}


def test_doc_seeds_match_their_commitments() -> None:
    text = _doc()
    for seed in _doc_seeds().values():
        assert f"commitment `{commitment(seed)}`" in text


@pytest.mark.parametrize("vector", _doc_vectors(), ids=lambda v: f"{v[0]}-{v[1]}-{len(v[2])}")
def test_doc_vectors(vector: tuple[str, str, list[str], int, int, int, list[int], int]) -> None:
    seed_name, game_id, client_seeds, width, height, mines, first, total = vector
    derived = derive_mines(_doc_seeds()[seed_name], game_id, client_seeds, width, height, mines)
    assert derived[:10] == first
    assert sum(derived) == total


def test_doc_intermediate_values() -> None:
    seed = _doc_seeds()["B"]
    rows = re.findall(r"\| `(doc-\dp)` \| `([^`]+)` \| `([0-9a-f]{64})` \| ([\d ]+) \|", _doc())
    assert len(rows) == 3
    for game_id, message, key_hex, first_words in rows:
        parts = message.replace("\\|", "|").split("|")
        assert parts[:2] == ["mineduel/v1", game_id]
        key = game_key(seed, game_id, parts[2:])
        assert key.hex() == key_hex
        stream = words(key, "field|")
        assert [next(stream) for _ in range(3)] == [int(w) for w in first_words.split()]


def test_doc_printed_fields() -> None:
    seed = _doc_seeds()["B"]
    blocks = re.findall(r"```\n([*0-8\n]+)```", _doc())
    fields = [block.split() for block in blocks]
    small = Field.from_seed(seed, "doc-small", ["", ""], 8, 8, 10)
    big = Field.from_seed(seed, "doc-2p", ["", ""], 16, 16, 51)
    windows = Field.from_seed(seed, "doc-wd", ["alice", "bob"], 11, 11, 15)
    assert small.to_strings() in fields
    assert big.to_strings() in fields
    assert windows.to_strings() in fields


def test_doc_has_windows_duel_vectors() -> None:
    """Every variant's board size has vectors: 16x16/51 (mine-duel, mineseeker), 11x11/15."""
    boards = {(v[3], v[4], v[5]) for v in _doc_vectors()}
    assert {(16, 16, 51), (11, 11, 15)} <= boards
    assert sum(1 for v in _doc_vectors() if (v[3], v[4], v[5]) == (11, 11, 15)) >= 2


def test_doc_board_table_matches_the_variant_specs() -> None:
    rows = re.findall(r"\| `([a-z-]+)` \| (\d+) x (\d+) \| (\d+) \|", _doc())
    table = {name: (int(w), int(h), int(m)) for name, w, h, m in rows}
    assert table == {
        name: (spec.width, spec.height, spec.mines) for name, spec in VARIANT_SPECS.items()
    }


def _doc_reference_code() -> Callable[..., list[int]]:
    code = re.search(r"```python\n(.*?)```", _doc(), re.DOTALL)
    assert code is not None
    namespace: dict[str, Any] = {}
    exec(compile(code.group(1), str(DOC), "exec"), namespace)  # noqa: S102  (our own doc's code)
    function: Callable[..., list[int]] = namespace["field_mines"]
    return function


@settings(max_examples=40, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    game_id=st.text(st.characters(codec="utf-8", exclude_characters="|"), max_size=40),
    client_seeds=st.lists(st.from_regex(r"[A-Za-z0-9._~-]{0,64}", fullmatch=True), max_size=4),
    width=st.integers(1, 20),
    height=st.integers(1, 20),
    data=st.data(),
)
def test_doc_reference_code_matches_the_engine(
    seed: bytes,
    game_id: str,
    client_seeds: list[str],
    width: int,
    height: int,
    data: st.DataObject,
) -> None:
    mines = data.draw(st.integers(0, width * height))
    reference = _doc_reference_code()
    assert reference(seed, game_id, client_seeds, width, height, mines) == derive_mines(
        seed, game_id, client_seeds, width, height, mines
    )
