"""Playing a running game: committing a move (``commit``), a player resigning (``resign``),
timeouts and a waiting game lapsing (``timeouts``), the minute sweeper (``sweeper``), "time
almost up" warnings (``turn_warnings``), the bots' moves (``bots``), the steps every write of a
running game shares (``advance``), and a finished game counted into its players' statistics
and ratings (``results``)."""

USE_CASES: tuple[str, ...] = ("commit", "resign", "sweeper", "timeouts")
