"""Quick pairing: a player says what game they want (variant, move deadline, rated, the
ratings they will play) and is paired with another who wants the same, or waits until one
comes (``seeks``); the waiting player is told live and on the stack's bus when it happens
(``announce``). Seeks are stored in ``store``; what makes two seeks fit is ``matching``."""

USE_CASES: tuple[str, ...] = ("announce", "seeks")
