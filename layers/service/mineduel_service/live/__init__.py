"""Live push: WebSocket connections and their subscriptions (``connections``), what a client
sends (``sockets``), what a stored change of a game means (``changes``), the stream fan-out to
sockets and the stack's bus (``fanout``), and spectators (``spectators``)."""

USE_CASES: tuple[str, ...] = ("fanout", "sockets", "spectators")
