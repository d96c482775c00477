"""What the tests and the benchmarks share to drive the API as a client does.

``api_client``: the one API client (over real HTTP, or any transport that takes an
``HttpRequest``), with its ``Reply``. ``accounts``: the one account maker (an account in the
stack's user pool, signed in as a client signs in). ``players``: the one bot-player loop (the
engine's bot choosing each move from the public Game, as a person sees it). Routes are matched
by the local stack's own API Gateway router (``mineduel.local.routing``), never by a second one.
Nothing here is product code: the ``mineduel`` command never imports it.
"""
