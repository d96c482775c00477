"""A game: as stored (``record``), its item, move log and idempotency records (``store``), what
a caller sees of it (``views``), which seat the caller holds (``seats``), deadlines, the players'
items that follow each write (``player_items``, written through ``writes``), who watches it
(``watchers``), the game as it stands now (``current``), and reading it (``reads``)."""

USE_CASES: tuple[str, ...] = ("reads",)
