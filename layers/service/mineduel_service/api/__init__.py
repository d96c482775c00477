"""The edge: HTTP (``http``: the resolver, bodies, who is calling), the one table from refusals
to status, problem type and title (``problems``), every response header (``headers``), and the
WebSocket handshake (``live``). Only ``functions/`` imports it; nothing below it knows HTTP.

Importing it first replaces Powertools' ``event_handler`` package by a twin that loads a module
at a time (``powertools``): handlers take Powertools' HTTP names from ``http``, never from
Powertools itself."""

from .powertools import install

install()
