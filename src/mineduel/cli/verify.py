"""``mineduel verify FILE|URL|-``: check finished games from their Verification documents.

The engine does the checking and no I/O (``verify_document``, the single source of the checks);
this command only reads the documents (a file, an http(s) URL or standard input; one document,
or NDJSON with one a line, gzip-compressed or not, a URL followed page by page: ``sources``),
prints the checks that held and, under problems, the ones that failed with what each found, and
sets an exit code a script can act on (``EXIT_CODES``).

One document gets the full report; ``--json`` prints the same as one object, with every check's
name, whether it held, and its details. A stream gets one line per game that failed or could not
be checked and a summary; ``--json`` gives every game's verdict.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Any

from mineduel_engine import Verdict, verify_document

from .sources import Entry, Unreadable, documents

HELP = "Check finished games from Verification documents (FILE, URL or -; NDJSON too)."

OK, FAILED, UNREADABLE, NOT_FINISHED = 0, 1, 2, 3
EXIT_CODES = {
    OK: "every check holds: the game was played fairly on the committed field",
    FAILED: "at least one check failed (listed under problems)",
    UNREADABLE: "the input could not be read as a JSON object (missing file, HTTP error, not "
    "JSON); a one-line message on standard error",
    NOT_FINISHED: "the game is not finished (or a daily game's day is not over): its seed is "
    "still secret, so nothing could be replayed yet, and its hash chain and head hold (a "
    "broken chain or a log cut short is 1 even then); for a stream, no game failed but at "
    "least one could not be checked",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``verify``'s arguments."""
    parser.add_argument(
        "source",
        metavar="FILE|URL|-",
        help="a Verification document, or NDJSON of them (an export, gzip or not): a file, an "
        "http(s) URL (e.g. .../v1/games/<id>/verify, .../v1/players/<name>/games/export) or - "
        "for standard input",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print the verdict as one JSON object instead of a report: "checked", "ok", '
        '"problems" and "checks" (each with "name", "description", "ok", "details")',
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "exit codes:\n" + "\n".join(
        f"  {code}  {meaning}" for code, meaning in EXIT_CODES.items()
    )


def run(args: argparse.Namespace) -> int:
    """Read, verify, report; return the exit code."""
    source = str(args.source)
    entries = documents(source, sys.stdin)
    try:
        first = next(entries, None)
        second = next(entries, None) if first is not None else None
    except Unreadable as exc:
        print(f"mineduel verify: {exc}", file=sys.stderr)
        return UNREADABLE
    if first is None or first.doc is None:
        print(f"mineduel verify: {source} holds no document", file=sys.stderr)
        return UNREADABLE
    if second is None:
        return _one(first.doc, bool(args.json))
    try:
        return _many(source, chain([first, second], entries), bool(args.json))
    except Unreadable as exc:
        print(f"mineduel verify: {exc}", file=sys.stderr)
        return UNREADABLE


def _one(doc: Mapping[str, Any], json_out: bool) -> int:
    verdict = verify_document(doc)
    if json_out:
        print(json.dumps(as_json(doc, verdict), indent=2))
    else:
        print(report(doc, verdict))
    return exit_code(verdict)


def exit_code(verdict: Verdict) -> int:
    """``OK``, ``FAILED`` or ``NOT_FINISHED`` (see ``EXIT_CODES``)."""
    if not verdict.checked:
        return NOT_FINISHED
    return OK if verdict.ok else FAILED


def as_json(doc: Mapping[str, Any], verdict: Verdict) -> dict[str, Any]:
    """The ``--json`` object: the game, the verdict and every check with its details."""
    return {
        "game_id": doc.get("game_id"),
        "status": doc.get("status"),
        **verdict.to_dict(),
        "checks": [result.to_dict() for result in verdict.results],
    }


def _many(source: str, entries: Iterable[Entry], json_out: bool) -> int:
    """Check every document of a stream; one line per failure and a summary (or JSON)."""
    results: list[dict[str, Any]] = []
    counts = {"ok": 0, "failed": 0, "not_checked": 0}
    for entry in entries:
        if entry.doc is None:
            verdict = Verdict(True, False, (entry.error or "unreadable",))
            game_id = None
        else:
            verdict = verify_document(entry.doc)
            game_id = entry.doc.get("game_id")
        kind = "ok" if verdict.ok else ("failed" if verdict.checked else "not_checked")
        counts[kind] += 1
        results.append({"line": entry.line, "game_id": game_id, **verdict.to_dict()})
        if not json_out and not verdict.ok:
            why = (
                verdict.problems[0]
                if verdict.problems
                else f"nothing to check: {verdict.unchecked_because or 'not finished'}"
            )
            more = f" (and {len(verdict.problems) - 1} more)" if len(verdict.problems) > 1 else ""
            label = "NOT CHECKED" if kind == "not_checked" else "FAILED"
            print(f"{label} line {entry.line}, game {game_id}: {why}{more}")
    games = len(results)
    if json_out:
        print(json.dumps({"source": source, "games": games, **counts, "results": results}))
    else:
        print(
            f"checked {games} games from {source}: {counts['ok']} verified, "
            f"{counts['failed']} failed, {counts['not_checked']} not checked"
        )
        if counts["ok"] == games:
            print("OK: every game was played fairly on its committed field.")
    if counts["failed"]:
        return FAILED
    return NOT_FINISHED if counts["not_checked"] else OK


def report(doc: Mapping[str, Any], verdict: Verdict) -> str:
    """The human-readable report: the game, the checks that held, then each check that
    failed (only there, under problems) with what it found, and the conclusion."""
    lines = [f"game {doc.get('game_id')!s} ({doc.get('variant')!s}, status {doc.get('status')!s})"]
    if not verdict.checked:
        why = verdict.unchecked_because or "the game is not finished"
        lines.append(f"NOT CHECKED: {why}.")
        return "\n".join(lines)
    if verdict.passed:
        lines.append("checked that:")
        lines.extend(f"  - {result.description}" for result in verdict.passed)
    if verdict.ok:
        lines.append("OK: every check holds; this game was played fairly on the committed field.")
    else:
        failed = verdict.failed
        lines.append(
            f"problems ({len(failed)} {'check' if len(failed) == 1 else 'checks'} failed, "
            f"{len(verdict.problems)} {'problem' if len(verdict.problems) == 1 else 'problems'}):"
        )
        for result in failed:
            lines.append(f"  x {result.description}")
            lines.extend(f"      ! {detail}" for detail in result.details)
        lines.append("FAILED: this document does not show a fair game.")
    claimed = doc.get("verdict")
    if isinstance(claimed, Mapping) and claimed.get("ok") is True and not verdict.ok:
        lines.append("note: the document's own verdict says ok; do not trust it.")
    return "\n".join(lines)
