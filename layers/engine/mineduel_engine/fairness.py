"""Protocol ``mineduel/v1``: how a field is derived from seeds, committed to and checked.

Everything a third party needs to rebuild a field lives here, with nothing but SHA-256 and
HMAC-SHA256 from the standard library, so an outside verifier can reimplement it from
``docs/fairness.md`` alone; the vectors published there are tests.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Sequence

PROTOCOL = "mineduel/v1"
SEED_BYTES = 32
FIELD_LABEL = "field|"
CLIENT_SEED_PATTERN = re.compile(r"[A-Za-z0-9._~-]{0,64}")

_TWO_32 = 1 << 32


def commitment(server_seed: bytes) -> str:
    """Return the public commitment to a server seed: lower-case hex SHA-256 of its bytes."""
    return hashlib.sha256(server_seed).hexdigest()


def is_valid_client_seed(client_seed: str) -> bool:
    """True when a client seed is 0 to 64 characters of ``A-Z a-z 0-9 . _ ~ -``.

    The alphabet excludes ``|``, which keeps the game-key message unambiguous.
    """
    return CLIENT_SEED_PATTERN.fullmatch(client_seed) is not None


def game_key(server_seed: bytes, game_id: str, client_seeds: Sequence[str]) -> bytes:
    """Derive the game key: HMAC-SHA256(server seed, "mineduel/v1|" + id + "|" + seeds...).

    There is one client seed per seat, in seat order; an empty string stands for none.
    """
    message = "|".join([PROTOCOL, game_id, *client_seeds]).encode("utf-8")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def words(key: bytes, label: str) -> Iterator[int]:
    """Yield the protocol's stream of big-endian uint32 words for ``label`` under ``key``.

    Block i is HMAC-SHA256(key, label + u64be(i)); each block gives eight words, in order.
    """
    prefix = label.encode("utf-8")
    block = 0
    while True:
        digest = hmac.new(key, prefix + block.to_bytes(8, "big"), hashlib.sha256).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(digest[offset : offset + 4], "big")
        block += 1


class Stream:
    """Unbiased draws from one labelled stream (rejection sampling, never a modulo bias)."""

    def __init__(self, key: bytes, label: str) -> None:
        self._words = words(key, label)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``: step 6 of the protocol."""
        return draw_below(self._words, n)


def draw_below(stream_words: Iterator[int], n: int) -> int:
    """Step 6: take words until one is below ``2^32 - (2^32 mod n)``; return it ``mod n``.

    Kept apart from ``Stream`` so the rejection rule can be shown (and tested) on given words.
    """
    if not 0 < n <= _TWO_32:
        raise ValueError(f"cannot draw below {n}")
    limit = _TWO_32 - (_TWO_32 % n)
    while True:
        word = next(stream_words)
        if word < limit:
            return word % n


def mine_cells(key: bytes, width: int, height: int, mines: int) -> list[int]:
    """Return the mine cells in draw order (a partial Fisher-Yates over all cell indexes)."""
    size = width * height
    if not 0 <= mines <= size:
        raise ValueError(f"{mines} mines do not fit a {width}x{height} field")
    stream = Stream(key, FIELD_LABEL)
    cells = list(range(size))
    for i in range(mines):
        j = i + stream.below(size - i)
        cells[i], cells[j] = cells[j], cells[i]
    return cells[:mines]


def derive_mines(
    server_seed: bytes,
    game_id: str,
    client_seeds: Sequence[str],
    width: int,
    height: int,
    mines: int,
) -> list[int]:
    """Return a game's mine cells in draw order, from its seeds alone (steps 4 to 7)."""
    return mine_cells(game_key(server_seed, game_id, client_seeds), width, height, mines)


def bot_stream(commitment_hex: str, move_number: int) -> Stream:
    """The bot's public tie-break stream for move ``move_number`` (step 8).

    Keyed by the commitment's 32 bytes, which everybody sees, so every bot choice can be
    re-run by anyone; the label is ``bot|<move number>|``.
    """
    return Stream(bytes.fromhex(commitment_hex), f"bot|{move_number}|")
