"""``mineduel verify FILE|URL|-``: check a finished game from its Verification document.

The engine does the checking and no I/O (``verify_document``, the single source of the checks);
this command only reads the document (a file, an http(s) URL or standard input), prints the
checks that held and, under problems, the ones that failed with what each found, and sets an
exit code a script can act on (``EXIT_CODES``). ``--json`` prints the same as one object, with
every check's name, whether it held, and its details.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from mineduel_engine import Verdict, verify_document

HELP = "Check a finished game from its Verification document (FILE, URL or -)."
TIMEOUT_S = 30
MAX_BYTES = 16 * 1024 * 1024

OK, FAILED, UNREADABLE, NOT_FINISHED = 0, 1, 2, 3
EXIT_CODES = {
    OK: "every check holds: the game was played fairly on the committed field",
    FAILED: "at least one check failed (listed under problems)",
    UNREADABLE: "the input could not be read as a JSON object (missing file, HTTP error, not "
    "JSON); a one-line message on standard error",
    NOT_FINISHED: "the game is not finished: its seed is still secret, so nothing could be "
    "checked yet (nothing is wrong either)",
}


class Unreadable(Exception):
    """The input could not be read or is not a JSON object; the message says why."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``verify``'s arguments."""
    parser.add_argument(
        "source",
        metavar="FILE|URL|-",
        help="a Verification document: a file, an http(s) URL "
        "(e.g. .../v1/games/<id>/verify) or - for standard input",
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
    try:
        doc = load(str(args.source), sys.stdin)
    except Unreadable as exc:
        print(f"mineduel verify: {exc}", file=sys.stderr)
        return UNREADABLE
    verdict = verify_document(doc)
    if args.json:
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


def load(source: str, stdin: TextIO) -> Mapping[str, Any]:
    """The JSON object at ``source``; raises ``Unreadable`` with a message a person can act on."""
    if source == "-":
        where = "standard input"
        try:
            text = stdin.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise Unreadable(f"cannot read {where}: {exc}") from None
    elif source.startswith(("http://", "https://")):
        text = _fetch(source)
        where = source
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Unreadable(f"cannot read {source}: {exc}") from None
        where = source
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"{where} is not JSON: {exc}") from None
    except RecursionError:
        raise Unreadable(
            f"{where} is JSON nested too deeply to be a Verification document"
        ) from None
    if not isinstance(doc, dict):
        raise Unreadable(f"{where} holds JSON, but not an object (a Verification document)")
    return doc


def _fetch(url: str) -> str:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:  # noqa: S310
            body: bytes = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise Unreadable(f"{url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise Unreadable(f"cannot fetch {url}: {reason}") from None
    if len(body) > MAX_BYTES:
        raise Unreadable(f"{url} sent more than {MAX_BYTES} bytes")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(f"{url} did not send UTF-8 text") from None


def report(doc: Mapping[str, Any], verdict: Verdict) -> str:
    """The human-readable report: the game, the checks that held, then each check that
    failed (only there, under problems) with what it found, and the conclusion."""
    lines = [f"game {doc.get('game_id')!s} ({doc.get('variant')!s}, status {doc.get('status')!s})"]
    if not verdict.checked:
        lines.append("NOT CHECKED: the game is not finished; its seed stays secret until it ends.")
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
