"""The daily duel: one field a day for everyone (docs/daily.md): its items (``store``), the
month keys and day seeds (``seeds``), a player's game of the day (``play``), the day at a glance
(``overview``), the daily table (``table``), the housekeeping that prepares and closes days
(``housekeeping``) and the preparation a new deployment runs once (``preparation``)."""

USE_CASES: tuple[str, ...] = ("housekeeping", "overview", "play", "preparation", "table")
