"""Server seeds: made from the OS CSPRNG, kept only as KMS ciphertext bound to their game.

The encryption context ``{"game_id": ...}`` is part of what KMS authenticates, so a ciphertext
copied into another game's item fails to decrypt there: a seed cannot be replayed across games.
Only the functions that must derive the field (commit, resign, expiry) may call ``decrypt_seed``
(their roles alone hold kms:Decrypt). Plaintext seeds are never logged and never put in errors.
"""

from __future__ import annotations

import secrets

from botocore.exceptions import ClientError

from . import aws
from .config import get_config
from .errors import ApiError

SEED_BYTES = 32


class SeedUnavailable(ApiError):
    """The seed ciphertext could not be decrypted for this game (tampered or misplaced)."""

    def __init__(self) -> None:
        super().__init__(
            500, "seed-unavailable", "The game's seed cannot be opened; nothing was played."
        )


def new_seed() -> bytes:
    """32 bytes from the operating system's CSPRNG (fairness.md step 1)."""
    return secrets.token_bytes(SEED_BYTES)


def _context(game_id: str) -> dict[str, str]:
    return {"game_id": game_id}


def encrypt_seed(seed: bytes, game_id: str) -> bytes:
    """The KMS ciphertext of ``seed``, bound to ``game_id`` by the encryption context."""
    response = aws.kms().encrypt(
        KeyId=get_config().seed_key_id, Plaintext=seed, EncryptionContext=_context(game_id)
    )
    return response["CiphertextBlob"]


def decrypt_seed(ciphertext: bytes, game_id: str) -> bytes:
    """The seed of ``game_id``; refuses a ciphertext made for any other game."""
    try:
        response = aws.kms().decrypt(
            CiphertextBlob=ciphertext,
            KeyId=get_config().seed_key_id,
            EncryptionContext=_context(game_id),
        )
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "")
        if code in {"InvalidCiphertextException", "IncorrectKeyException"}:
            raise SeedUnavailable() from None
        raise
    seed = response["Plaintext"]
    if len(seed) != SEED_BYTES:
        raise SeedUnavailable()
    return seed
