"""Fair play: rated games screened for play that matches the exact engine more closely than
people's (``screening``, the rule; ``screen``, the scheduled screener), a player's record
(``reports``) and the moderators' review of the players it flags (``moderation``)."""

USE_CASES: tuple[str, ...] = ("moderation", "reports", "screen")
