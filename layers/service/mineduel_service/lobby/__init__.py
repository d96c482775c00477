"""Games before they start: creating, joining and rematching (``start``), an invited player
declining and the creator cancelling (``waiting``), and the lobby list of open games
(``listing``)."""

USE_CASES: tuple[str, ...] = ("listing", "start", "waiting")
