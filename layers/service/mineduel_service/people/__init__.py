"""Players: profiles and usernames (``profiles`` the model; ``players`` for ``/v1/me`` and
public profiles; ``names`` finds a player by name and names a seat), guests (``guests`` issues
tokens; ``identity`` checks who is calling), a player's avatar (``avatar_uploads`` to set it,
``avatar_images`` to check it, ``avatars`` to serve it), a guest's games claimed by an account
(``guest_claims``) and a player's games (``history``). Every item of theirs is read and written
by ``store``."""

USE_CASES: tuple[str, ...] = (
    "avatar_uploads",
    "avatars",
    "guest_claims",
    "guests",
    "history",
    "players",
)
