"""The web client reads in one sitting: no function of its own modules is longer than 80 lines
and no screen module imports another (``mineduel.webshape``; docs/web.md, "Modules"). The
checker is held to planted code too, so that a tokenizer gone blind would fail here rather than
pass everything."""

from __future__ import annotations

from mineduel import webshape


def test_no_web_function_is_longer_than_80_lines_and_no_screen_imports_a_screen() -> None:
    found = [
        problem
        for path in webshape.modules()
        for problem in webshape.problems(path.name, path.read_text(encoding="utf-8"))
    ]
    assert found == []
    names = {path.name for path in webshape.modules()}
    assert "screen-game.js" in names and "game-seats.js" in names and "uqr.js" not in names


def _body(lines: int) -> str:
    return "".join(f"  total += {i};\n" for i in range(lines))


def test_a_long_function_of_any_kind_is_caught() -> None:
    # 1 line opening, 79 of body, 1 closing: 81.
    planted = {
        "declaration": "export async function show(view) {\n" + _body(79) + "}\n",
        "arrow": "const draw = async (a, b) => {\n" + _body(79) + "};\n",
        "bare arrow": "const draw = a => {\n" + _body(79) + "};\n",
        "method": "class Screen {\n  static async draw(a) {\n" + _body(79) + "  }\n}\n",
        "object method": "const parts = {\n  draw(a) {\n" + _body(79) + "  },\n};\n",
        "expression body": "const words = (a) => [\n" + _body(79).replace(";", ",") + "];\n",
    }
    for kind, source in planted.items():
        found = webshape.problems("screen-x.js", source)
        assert len(found) == 1 and "81 lines" in found[0], (kind, found)
    assert webshape.problems("screen-x.js", "function show() {\n" + _body(78) + "}\n") == []


def test_strings_comments_templates_and_regexes_do_not_hide_or_fake_braces() -> None:
    noise = (
        '  const a = "}}} {";\n'
        "  const b = '}';\n"
        "  // } a closing brace in a comment\n"
        "  /* } and { in a block\n     comment */\n"
        "  const c = `} ${a + `nested ${b} }`} {`;\n"
        "  const d = /[}{]\\/}/g.test(a) ? 1 / 2 : 0;\n"
        "  if (/^}/.test(b)) return c;\n"
    )
    source = "function show() {\n" + noise + _body(80 - 2 - noise.count("\n")) + "}\n"
    [fn] = [f for f in webshape.functions(source) if f.name == "show"]
    assert (fn.first_line, fn.lines) == (1, 80)
    longer = source.replace("function show() {\n", "function show() {\n  total = 0;\n")
    assert [f.lines for f in webshape.functions(longer) if f.name == "show"] == [81]
    assert len(webshape.problems("screen-x.js", longer)) == 1


def test_a_screen_importing_a_screen_is_caught() -> None:
    for line in (
        'import { seatOf } from "./screen-game.js";',
        "import * as game from './screen-game.js';",
        'export { seatOf } from "./screen-game.js";',
        'const game = await import("./screen-game.js");',
    ):
        found = webshape.problems("screen-replay.js", line + "\n")
        assert found == ["screen-replay.js: a screen imports the screen ./screen-game.js"], line
    # Shared parts are what screens import; the router loads every screen; a comment is no import.
    shared = 'import { seatOf } from "./game-seats.js";\n'
    assert webshape.problems("screen-replay.js", shared) == []
    assert webshape.problems("router.js", 'const m = await import("./screen-game.js");\n') == []
    assert webshape.problems("screen-replay.js", '// import { x } from "./screen-game.js";\n') == []
