"""Subcommands of ``mineduel``: each module has ``configure(parser)`` and ``run(args) -> int``."""
