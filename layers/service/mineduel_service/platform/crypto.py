"""Server seeds: made from the OS CSPRNG, kept only as KMS ciphertext bound to their game.

The encryption context ``{"game_id": ...}`` is part of what KMS authenticates, so a ciphertext
copied into another game's item fails to decrypt there: a seed cannot be replayed across games.
Only the functions that must derive the field (commit, resign, expiry) may call ``decrypt_seed``
(their roles alone hold kms:Decrypt). Plaintext seeds are never logged and never put in errors.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict

from . import aws
from .config import get_config
from .errors import Fault

SEED_BYTES = 32
CACHE_ENTRIES = 128
CACHE_TTL_S = 900.0
"""A decrypted seed is kept in the function's memory for a quarter of an hour (the life of a
quick game's turns), for at most this many games: a commit that lands on the same execution
environment as the game's previous one skips KMS. Who can read a seed does not change (the
same function, which could decrypt it anyway); docs/cost.md weighs this against envelope
encryption."""


class SeedUnavailable(Fault):
    """The seed ciphertext could not be decrypted for this game (tampered or misplaced)."""

    code = "seed-unavailable"
    default_message = "The game's seed cannot be opened; nothing was played."


def new_seed() -> bytes:
    """32 bytes from the operating system's CSPRNG (docs/fairness.md step 1)."""
    return secrets.token_bytes(SEED_BYTES)


def _context(game_id: str) -> dict[str, str]:
    return {"game_id": game_id}


def encrypt_seed(seed: bytes, game_id: str) -> bytes:
    """The KMS ciphertext of ``seed``, bound to ``game_id`` by the encryption context."""
    response = aws.kms().encrypt(
        KeyId=get_config().seed_key_id, Plaintext=seed, EncryptionContext=_context(game_id)
    )
    return response["CiphertextBlob"]


class _SeedCache:
    """Recently decrypted seeds, by game and ciphertext, for ``CACHE_TTL_S`` seconds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seeds: OrderedDict[tuple[str, bytes], tuple[float, bytes]] = OrderedDict()

    @staticmethod
    def _key(ciphertext: bytes, game_id: str) -> tuple[str, bytes]:
        return game_id, hashlib.sha256(ciphertext).digest()

    def get(self, ciphertext: bytes, game_id: str) -> bytes | None:
        key = self._key(ciphertext, game_id)
        with self._lock:
            found = self._seeds.get(key)
            if found is None:
                return None
            stored_at, seed = found
            if time.monotonic() - stored_at > CACHE_TTL_S:
                del self._seeds[key]
                return None
            self._seeds.move_to_end(key)
            return seed

    def put(self, ciphertext: bytes, game_id: str, seed: bytes) -> None:
        with self._lock:
            self._seeds[self._key(ciphertext, game_id)] = (time.monotonic(), seed)
            while len(self._seeds) > CACHE_ENTRIES:
                self._seeds.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            for key in [k for k in self._seeds if k[0] == game_id]:
                del self._seeds[key]

    def clear(self) -> None:
        with self._lock:
            self._seeds.clear()


_cache = _SeedCache()


def forget_seed(game_id: str) -> None:
    """Drop a game's seed from memory (the game is over: its seed is public anyway)."""
    _cache.forget(game_id)


def clear_cache() -> None:
    """Forget every cached seed (tests that count KMS calls start from nothing)."""
    _cache.clear()


def decrypt_seed(ciphertext: bytes, game_id: str) -> bytes:
    """The seed of ``game_id``; refuses a ciphertext made for any other game.

    Served from this execution environment's memory when it decrypted the same ciphertext for
    the same game in the last ``CACHE_TTL_S`` seconds; otherwise one KMS ``Decrypt``.
    """
    cached = _cache.get(ciphertext, game_id)
    if cached is not None:
        return cached
    try:
        response = aws.kms().decrypt(
            CiphertextBlob=ciphertext,
            KeyId=get_config().seed_key_id,
            EncryptionContext=_context(game_id),
        )
    except aws.client_error() as exc:
        code = exc.response.get("Error", {}).get("Code", "")
        if code in {"InvalidCiphertextException", "IncorrectKeyException"}:
            raise SeedUnavailable() from None
        raise
    seed = response["Plaintext"]
    if len(seed) != SEED_BYTES:
        raise SeedUnavailable()
    _cache.put(ciphertext, game_id, seed)
    return seed
