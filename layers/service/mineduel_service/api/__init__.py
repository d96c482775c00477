"""The edge: HTTP (``http``: the resolver, bodies, who is calling), the one table from refusals
to status, problem type and title (``problems``), every response header (``headers``), and the
WebSocket handshake (``live``). Only ``functions/`` imports it; nothing below it knows HTTP."""
