"""Reading Verification documents for ``mineduel verify``: one document, or a stream of them.

A source is a file, an http(s) URL or standard input (``-``), and holds either one JSON
document (pretty-printed or not) or NDJSON: one document a line, as the player export and the
monthly export give them. gzip-compressed input (the monthly export's files) is recognised by
its first two bytes and decompressed on the fly. A URL whose answer names a next page
(``Link: <...>; rel="next"``, as the player export pages do) is followed to the last page.

Documents are read one at a time, so a month's export of many thousands of games is checked in
constant memory. A line of NDJSON that is not a JSON object is reported as that line's failure
and the rest is still read; a source that cannot be opened, or whose one document cannot be
read, raises ``Unreadable``.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO

TIMEOUT_S = 30
MAX_BYTES = 16 * 1024 * 1024
"""The largest single document (or NDJSON line) read."""
GZIP_MAGIC = b"\x1f\x8b"
_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


class Unreadable(Exception):
    """The input could not be read or is not a JSON object; the message says why."""


@dataclass(frozen=True)
class Entry:
    """One document of a source: where it was (``line``, 1 for a lone document) and the
    document, or why that line could not be read."""

    line: int
    doc: Mapping[str, Any] | None
    error: str | None = None


def documents(source: str, stdin: TextIO) -> Generator[Entry, None, None]:
    """Every document at ``source``, in order (see the module docstring)."""
    if source.startswith(("http://", "https://")):
        yield from _pages(source)
        return
    where = "standard input" if source == "-" else source
    with _open(source, stdin) as raw:
        yield from _read(_decoded(raw), where, whole_limit=None)


def load(source: str, stdin: TextIO) -> Mapping[str, Any]:
    """The one document at ``source`` (the first, if it holds NDJSON), read the way
    ``documents`` reads every source; raises ``Unreadable`` with a message a person can act on."""
    entries = documents(source, stdin)
    try:
        first = next(entries, None)
    finally:
        entries.close()
    if first is None or first.doc is None:
        raise Unreadable(first.error if first and first.error else f"{source} holds no document")
    return first.doc


def _open(source: str, stdin: TextIO) -> IO[bytes]:
    if source == "-":
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            return buffer  # type: ignore[no-any-return]
        try:
            return io.BytesIO(stdin.read().encode("utf-8"))
        except (OSError, UnicodeError) as exc:
            raise Unreadable(f"cannot read standard input: {exc}") from None
    try:
        return Path(source).open("rb")
    except OSError as exc:
        raise Unreadable(f"cannot read {source}: {exc}") from None


def _decoded(raw: IO[bytes]) -> TextIO:
    """Text from ``raw``: gunzipped when it starts like gzip, decoded as UTF-8."""
    buffered: Any = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)
    stream: Any = buffered
    if buffered.peek(2)[:2] == GZIP_MAGIC:
        stream = gzip.GzipFile(fileobj=buffered, mode="rb")
    return io.TextIOWrapper(stream, encoding="utf-8")


def _read(text: TextIO, where: str, whole_limit: int | None) -> Iterator[Entry]:
    try:
        number, first = 0, ""
        while not first.strip():
            first = text.readline(MAX_BYTES + 1)
            number += 1
            if not first:
                raise Unreadable(f"{where} is empty")
        parsed = _line_object(first)
        if parsed is None:  # not one document a line: the whole input is one document
            rest = text.read() if whole_limit is None else text.read(whole_limit + 1)
            yield Entry(1, _one_document(first + rest, where, whole_limit))
            return
        yield Entry(number, parsed)
        for line in text:
            number += 1
            if not line.strip():
                continue
            doc = _line_object(line)
            if doc is None:
                yield Entry(number, None, f"line {number} is not a JSON object")
            else:
                yield Entry(number, doc)
    except (UnicodeDecodeError, gzip.BadGzipFile, EOFError, OSError) as exc:
        raise Unreadable(f"cannot read {where}: {exc}") from None


def _line_object(line: str) -> Mapping[str, Any] | None:
    try:
        found = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def _one_document(text: str, where: str, limit: int | None) -> Mapping[str, Any]:
    if limit is not None and len(text) > limit:
        raise Unreadable(f"{where} sent more than {limit} bytes")
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


def _pages(url: str) -> Iterator[Entry]:
    """The documents at ``url``, and at every next page it names."""
    seen: set[str] = set()
    offset = 0
    following: str | None = url
    while following is not None and following not in seen:
        seen.add(following)
        response = _fetch(following)
        with response:
            last = 0
            for entry in _read(_decoded(response), following, whole_limit=MAX_BYTES):
                last = entry.line
                yield Entry(offset + entry.line, entry.doc, entry.error)
            offset += last
            following = next_page(following, response.headers.get("Link"))


def next_page(url: str, link: str | None) -> str | None:
    """The absolute URL of the ``rel="next"`` page a ``Link`` header names, if any."""
    found = _NEXT.search(link or "")
    return urllib.parse.urljoin(url, found.group(1)) if found else None


def _fetch(url: str) -> Any:
    request = urllib.request.Request(  # noqa: S310  (http(s) only, checked by the caller)
        url, headers={"Accept": "application/json, application/x-ndjson"}
    )
    try:
        return urllib.request.urlopen(request, timeout=TIMEOUT_S)  # noqa: S310
    except urllib.error.HTTPError as exc:
        raise Unreadable(f"{url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise Unreadable(f"cannot fetch {url}: {reason}") from None
