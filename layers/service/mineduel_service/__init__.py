"""MineDuel's service layer: what the Lambda functions share beside the engine.

One package per domain, in a one-way order: a package imports only the packages before it
(``LAYERS``), never one beside or after it, so no two domains import each other.

- ``platform``: AWS clients, the one DynamoDB module (``dynamo``) and every key of the table
  (``keys``), configuration, the clock, tokens (``auth``), seeds (``crypto``), turn schedules,
  cursors, the guest limit and the kinds of refusal (``errors``);
- ``contract``: the API's request and response shapes (pydantic), no HTTP in them;
- ``ratings``: skills, rating items, leaderboards;
- ``games``: a game as stored (``record``), its item and move log (``store``), views, seats,
  deadlines, the players' game items, reading a game;
- ``people``: profiles, usernames, guests and who is calling (``identity``), avatars, a guest's
  games claimed by an account, a player's games (``history``);
- ``play``: committing a move (``commit``), resigning, timeouts, the sweeper, bots, results;
- ``notify``: notifications (Web Push, mobile push): who is told what, the queue behind the
  stream, subscriptions, the VAPID key, delivery;
- ``lobby``: starting games (``start``: create, join, rematch), waiting games, the lobby list;
- ``live``: WebSocket connections, the stream fan-out, spectators;
- ``daily``: the daily duel's seeds, play, table and housekeeping;
- ``pairing``: quick pairing: seeks, paired into games, and the paired player told;
- ``archive``: Verification documents, exports, analyses, summaries, the share page;
- ``fairplay``: rated games screened for engine-like play from their analyses, and the
  moderators' review of the players it flags;
- ``api``: the HTTP (and WebSocket) edge: the resolver, the one table from refusals to status,
  problem type and title (``problems``), and every header; only ``functions/`` imports it.

Each domain's ``USE_CASES`` names the modules handlers call; the others are its model, store
and views, which any later domain may import. A use case never imports another domain's use
case, and nothing outside ``api`` names an HTTP status (``tests/test_service_imports.py``
holds all three rules). No facade gathers the use cases: a handler importing one would load
every use case's code in every cold start. Configuration and clients are read lazily, so the
local stack can set them first.
"""

LAYERS: tuple[tuple[str, ...], ...] = (
    ("platform", "contract"),
    ("ratings",),
    ("games",),
    ("people",),
    ("play",),
    ("notify",),
    ("lobby", "live", "daily"),
    ("pairing", "archive"),
    ("fairplay",),
    ("api",),
)
"""The packages in their one-way order: each may import the packages of earlier entries, none
of its own entry's others (they are independent of each other) nor any later one."""
