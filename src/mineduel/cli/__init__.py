"""The single ``mineduel`` command: ``serve``, ``verify``, ``analyze``, ``account``, ``ratings``.

Each subcommand lives in ``mineduel.cli.<name>`` and exposes ``HELP``, ``configure(parser)``
and ``run(args) -> int``. Modules are imported only when their command runs, so ``mineduel
verify`` starts fast and needs nothing beyond the engine.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, str] = {
    "serve": "Run the backend locally on an embedded AWS (moto), as template.yaml defines it.",
    "verify": "Check finished games from Verification documents (FILE, URL or -; NDJSON too).",
    "analyze": "Exact mine chances and the bot's move for positions; --game: luck and skill.",
    "account": "A player account: sign up, confirm, sign in (prints a token), set up TOTP.",
    "ratings": "Recompute every rating from Verification documents and check them (rebuild).",
}


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser, with the full options of only the subcommand being run."""
    parser = argparse.ArgumentParser(prog="mineduel", description="MineDuel tools.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = next((a for a in argv if a in COMMANDS), None)
    for name, help_text in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = importlib.import_module(f"mineduel.cli.{name}")
            module.configure(command_parser)
            command_parser.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mineduel`` console script; returns the process exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(args_list).parse_args(args_list)
    code: int = args.run(args)
    return code
