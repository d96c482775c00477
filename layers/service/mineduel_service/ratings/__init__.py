"""Ratings: each player's skill per rated variant (``model``, openskill's Plackett-Luce), their
rating items and the leaderboard index (``store``), and the leaderboards read from a snapshot
(``leaderboards``)."""

USE_CASES: tuple[str, ...] = ("leaderboards",)
