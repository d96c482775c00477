"""``mineduel ratings rebuild SOURCE``: recompute every rating from Verification documents.

SOURCE is a directory (every ``*.json`` file in it is one document, every ``*.ndjson`` or
``*.jsonl`` file one document a line), a file of either kind, or ``-`` for standard input (one
document, or one a line). The documents are what ``GET /v1/games/{id}/verify`` answers. The
command replays each rated game's log, applies the games in the recorded order, checks every
recorded before/after (``mineduel.cli.rebuild``) and prints the ratings it arrives at. Exit code:
0 when every check holds, 1 when one fails, 2 when the input cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from mineduel.cli.rebuild import Rebuilt, rebuild

HELP = "Recompute ratings from Verification documents (rebuild SOURCE)."


class Unreadable(Exception):
    """The input could not be read as Verification documents; the message says why."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``ratings``' subcommands."""
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = sub.add_parser(
        "rebuild",
        help="recompute every rating from a set of Verification documents and check them",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    build.add_argument(
        "source", metavar="SOURCE", help="a directory, a .json or NDJSON file, or - (stdin)"
    )
    build.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    """Read, rebuild, report; return the exit code."""
    try:
        documents = list(load(str(args.source), sys.stdin))
    except Unreadable as exc:
        print(f"mineduel ratings rebuild: {exc}", file=sys.stderr)
        return 2
    result = rebuild(documents)
    print(json.dumps(as_json(result), indent=2) if args.json else report(result))
    return 0 if result.ok else 1


def load(source: str, stdin: TextIO) -> Iterator[dict[str, Any]]:
    """Every document at ``source``."""
    if source == "-":
        yield from _documents(stdin.read(), "standard input")
        return
    path = Path(source)
    if path.is_dir():
        files = sorted(
            p for p in path.iterdir() if p.suffix in (".json", ".ndjson", ".jsonl") and p.is_file()
        )
        if not files:
            raise Unreadable(f"{source} has no .json, .ndjson or .jsonl files")
    elif path.is_file():
        files = [path]
    else:
        raise Unreadable(f"{source} is neither a file nor a directory")
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Unreadable(f"cannot read {file}: {exc}") from None
        yield from _documents(text, str(file))


def _documents(text: str, where: str) -> Iterator[dict[str, Any]]:
    """One JSON object, or one a line (NDJSON)."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    except RecursionError:
        raise Unreadable(f"{where} is JSON nested too deeply") from None
    if isinstance(whole, dict):
        yield whole
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise Unreadable(f"{where} line {number} is not a JSON document") from None
        if not isinstance(doc, dict):
            raise Unreadable(f"{where} line {number} is not a JSON object")
        yield doc


def as_json(result: Rebuilt) -> dict[str, Any]:
    """The result as one JSON object: the ratings by variant and player id, the counts and
    the problems."""
    ratings: dict[str, dict[str, Any]] = {}
    for (variant, player_id), rating in sorted(result.ratings.items()):
        ratings.setdefault(variant, {})[player_id] = {
            "rating": rating.skill.rating,
            "deviation": rating.skill.deviation,
            "provisional": rating.provisional,
            "games": rating.games,
            "mu": rating.skill.mu,
            "sigma": rating.skill.sigma,
        }
    return {
        "ok": result.ok,
        "rated_games": result.rated,
        "aborted_games": result.aborted,
        "skipped": result.skipped,
        "ratings": ratings,
        "problems": result.problems,
    }


def report(result: Rebuilt) -> str:
    """The human-readable report: counts, each variant's ratings, each problem, the verdict."""
    skipped = ", ".join(f"{n} {why}" for why, n in sorted(result.skipped.items())) or "none"
    lines = [f"replayed {result.rated} rated games ({result.aborted} aborted; skipped: {skipped})"]
    by_variant: dict[str, list[tuple[str, Any]]] = {}
    for (variant, player_id), rating in result.ratings.items():
        by_variant.setdefault(variant, []).append((player_id, rating))
    for variant, players in sorted(by_variant.items()):
        lines.append(f"{variant}:")
        players.sort(key=lambda p: (-p[1].skill.mu, p[0]))
        for player_id, rating in players:
            mark = " (provisional)" if rating.provisional else ""
            lines.append(
                f"  {player_id:<40} {rating.skill.rating:>5} ±{rating.skill.deviation:<4} "
                f"{rating.games:>4} games{mark}"
            )
    if result.ok:
        lines.append("OK: every recorded rating update is what the move logs give.")
    else:
        lines.append(f"problems ({len(result.problems)}):")
        lines.extend(f"  ! {problem}" for problem in result.problems)
        lines.append("FAILED: the recorded ratings do not follow from these documents.")
    return "\n".join(lines)
