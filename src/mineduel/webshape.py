"""The web client's shape: every function of its own modules fits on a screen (at most
``MAX_FUNCTION_LINES`` lines), and no screen module imports another screen module.

A screen's ``show`` that grows into one long closure cannot be read in one sitting, and a
screen that borrows from another drags that screen along when it loads; the parts two screens
share live in modules of their own (docs/web.md, "Modules"). ``python -m mineduel.webshape``
prints what breaks the rule; a test holds ``web/`` to it.

The client has no build step and this check needs no JavaScript toolchain: a small tokenizer
skips strings, template literals (their ``${...}`` parts are code), comments and regular
expression literals, which is enough to match braces and find functions in this code.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
MAX_FUNCTION_LINES = 80
MAX_LINE_CHARS = 120
# Copied in unchanged from npm (tools/vendored.tsv): not ours to shape.
VENDORED = {"uqr.js"}
SCREEN = re.compile(r"(?:^|/)screen-[\w.-]*\.js$")
# Words that may stand before "(...) {" without naming a function.
CONTROL = {"if", "for", "while", "switch", "catch", "with", "function", "return", "typeof"}
# After these words a "/" starts a regular expression, not a division.
BEFORE_REGEX = {
    "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
    "case", "do", "else", "yield", "await",
}  # fmt: skip
# Words that may stand before a function's or a method's name.
MODIFIERS = {"function", "async", "get", "set", "static", "*"}
PUNCTUATORS = ("=>", "...", "?.", "??", "&&", "||")


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is "name", "punct", "string" (quoted, template text or regex)."""

    kind: str
    text: str
    line: int


@dataclass(frozen=True)
class Function:
    """A function found in a module: its name ("<arrow>" or "<function>" when it has none)."""

    name: str
    first_line: int
    last_line: int

    @property
    def lines(self) -> int:
        return self.last_line - self.first_line + 1


def tokens(source: str) -> list[Token]:
    """The code tokens of ``source``: comments dropped, each string, template text and regex
    literal one "string" token (its text without the quotes), ``${...}`` parts tokenized."""
    out: list[Token] = []
    line = 1
    i = 0
    n = len(source)
    templates: list[int] = []  # for each open ${...}: the braces opened inside it

    def regex_may_start() -> bool:
        if not out:
            return True
        last = out[-1]
        if last.kind == "string":
            return False
        if last.kind == "name":
            return last.text in BEFORE_REGEX
        return last.text not in {")", "]", "}"}

    def template(start: int) -> int:
        """Scan template text from ``start`` (after "`" or "}") to "`" or "${"."""
        nonlocal line
        j = start
        text = []
        while j < n:
            c = source[j]
            if c == "\\":
                text.append(source[j : j + 2])
                line += source[j : j + 2].count("\n")
                j += 2
                continue
            if c == "`":
                out.append(Token("string", "".join(text), line))
                return j + 1
            if c == "$" and source.startswith("${", j):
                out.append(Token("string", "".join(text), line))
                templates.append(0)
                return j + 2
            if c == "\n":
                line += 1
            text.append(c)
            j += 1
        return j

    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += source.count("\n", i, end)
            i = end
        elif c in "'\"":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append(Token("string", source[i + 1 : j], line))
            i = j + 1
        elif c == "`":
            i = template(i + 1)
        elif c == "/" and regex_may_start():
            j = i + 1
            in_class = False
            while j < n and source[j] != "\n":
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                elif source[j] == "/" and not in_class:
                    break
                j += 1
            out.append(Token("string", source[i + 1 : j], line))
            i = j + 1
            while i < n and (source[i].isalnum() or source[i] == "_"):
                i += 1  # flags
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (source[j].isalnum() or source[j] in "_$"):
                j += 1
            out.append(Token("name", source[i:j], line))
            i = j
        elif c == "}" and templates and templates[-1] == 0:
            templates.pop()
            i = template(i + 1)
        else:
            if templates and c == "{":
                templates[-1] += 1
            elif templates and c == "}":
                templates[-1] -= 1
            punct = next((p for p in PUNCTUATORS if source.startswith(p, i)), c)
            out.append(Token("punct", punct, line))
            i += len(punct)
    return out


def _closing(toks: list[Token], at: int) -> int:
    """The index of the bracket that closes the one at ``at``."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    depth = 0
    for k in range(at, len(toks)):
        text = toks[k].text if toks[k].kind == "punct" else ""
        if text in pairs:
            depth += 1
        elif text in pairs.values():
            depth -= 1
            if depth == 0:
                return k
    return len(toks) - 1


def _expression_end(toks: list[Token], at: int) -> int:
    """The last token of the expression that starts at ``at`` (an arrow's body without braces)."""
    depth = 0
    for k in range(at, len(toks)):
        text = toks[k].text if toks[k].kind == "punct" else ""
        if text in {"(", "[", "{"}:
            depth += 1
        elif text in {")", "]", "}"}:
            if depth == 0:
                return k - 1
            depth -= 1
        elif text in {",", ";"} and depth == 0:
            return k - 1
    return len(toks) - 1


def _opener(toks: list[Token], close: int) -> int:
    """The index of the "(" that the ")" at ``close`` closes."""
    depth = 0
    for k in range(close, -1, -1):
        text = toks[k].text if toks[k].kind == "punct" else ""
        if text == ")":
            depth += 1
        elif text == "(":
            depth -= 1
            if depth == 0:
                return k
    return 0


def _arrow(toks: list[Token], arrow: int) -> Function:
    """The arrow function whose "=>" is at ``arrow``, named after what it is assigned to."""
    start = arrow - 1
    if toks[start].text == ")" and toks[start].kind == "punct":
        start = _opener(toks, start)
    if start > 0 and toks[start - 1].text == "async":
        start -= 1
    name = "<arrow>"
    if start > 1 and toks[start - 1].text in {"=", ":"} and toks[start - 2].kind == "name":
        name = toks[start - 2].text
        start -= 2
    body = arrow + 1
    if body < len(toks) and toks[body].text == "{" and toks[body].kind == "punct":
        end = _closing(toks, body)
    else:
        end = _expression_end(toks, body)
    return Function(name, toks[start].line, toks[max(end, body)].line)


def functions(source: str) -> list[Function]:
    """Every function in ``source``: declarations and expressions, methods, arrow functions."""
    toks = tokens(source)
    found: list[Function] = []
    for k, tok in enumerate(toks):
        if tok.kind == "punct" and tok.text == "=>":
            found.append(_arrow(toks, k))
            continue
        if tok.kind == "punct" and tok.text == "(" and k > 0:
            before = toks[k - 1]
            close = _closing(toks, k)
            after = close + 1
            if after >= len(toks) or toks[after].kind != "punct" or toks[after].text != "{":
                continue
            if before.kind == "name" and before.text == "function":
                name = "<function>"
            elif before.kind == "name" and before.text not in CONTROL:
                name = before.text
            else:
                continue
            first = k - 1
            while first > 0 and toks[first - 1].text in MODIFIERS:
                first -= 1
            found.append(Function(name, toks[first].line, toks[_closing(toks, after)].line))
    return found


def screen_imports(source: str) -> list[str]:
    """The screen modules that ``source`` imports (statically, re-exported or dynamically)."""
    toks = tokens(source)
    named = []
    for k, tok in enumerate(toks):
        if tok.kind != "string" or k == 0:
            continue
        before = toks[k - 1].text
        dynamic = before == "(" and k > 1 and toks[k - 2].text == "import"
        if (before in {"from", "import"} or dynamic) and SCREEN.search(tok.text):
            named.append(tok.text)
    return named


def problems(name: str, source: str) -> list[str]:
    """What in module ``name`` (``source``) breaks the shape rule, in words."""
    found = [
        f"{name}:{f.first_line}: {f.name} is {f.lines} lines (at most {MAX_FUNCTION_LINES})"
        for f in functions(source)
        if f.lines > MAX_FUNCTION_LINES
    ]
    if SCREEN.search(name):
        found += [f"{name}: a screen imports the screen {o}" for o in screen_imports(source)]
    return found


def modules(web: Path = WEB) -> list[Path]:
    """The client's own modules (not the vendored ones), sorted."""
    return sorted(p for p in web.glob("*.js") if p.name not in VENDORED)


def long_lines(web: Path = WEB) -> list[str]:
    """The lines of the client's own modules longer than ``MAX_LINE_CHARS``."""
    return [
        f"{path.name}:{number}: {len(text)} characters"
        for path in modules(web)
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(text) > MAX_LINE_CHARS
    ]


def main() -> int:
    """Print every function over the limit and every screen importing a screen."""
    found = [p for path in modules() for p in problems(path.name, path.read_text(encoding="utf-8"))]
    for problem in found:
        print(problem)
    print(f"{len(long_lines())} lines over {MAX_LINE_CHARS} characters")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
