"""``mineduel verify FILE|URL|-``: check a finished game from its Verification document.

The engine does the checking and no I/O; this command only reads the document (a file, an
http(s) URL or standard input), prints what was checked and every problem in plain words, and
sets the exit code: 0 when every check holds, 1 when one fails (or the game is not finished,
so nothing could be checked), 2 when the input cannot be read as a JSON object.
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
        "--json", action="store_true", help="print the verdict as JSON instead of a report"
    )


def run(args: argparse.Namespace) -> int:
    """Read, verify, report; return the exit code."""
    try:
        doc = load(str(args.source), sys.stdin)
    except Unreadable as exc:
        print(f"mineduel verify: {exc}", file=sys.stderr)
        return 2
    verdict = verify_document(doc)
    if args.json:
        print(json.dumps({**verdict.to_dict(), "checks": list(verdict.checks)}, indent=2))
    else:
        print(report(doc, verdict))
    return 0 if verdict.ok else 1


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
    """The human-readable report: the game, what was checked, each problem, the conclusion."""
    lines = [f"game {doc.get('game_id')!s} ({doc.get('variant')!s}, status {doc.get('status')!s})"]
    if not verdict.checked:
        lines.append("NOT CHECKED: the game is not finished; its seed stays secret until it ends.")
        return "\n".join(lines)
    lines.append("checked that:")
    lines.extend(f"  - {check}" for check in verdict.checks)
    if verdict.ok:
        lines.append("OK: every check holds; this game was played fairly on the committed field.")
    else:
        lines.append(f"problems ({len(verdict.problems)}):")
        lines.extend(f"  ! {problem}" for problem in verdict.problems)
        lines.append("FAILED: this document does not show a fair game.")
    claimed = doc.get("verdict")
    if isinstance(claimed, Mapping) and claimed.get("ok") is True and not verdict.ok:
        lines.append("note: the document's own verdict says ok; do not trust it.")
    return "\n".join(lines)
