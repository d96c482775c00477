"""Lighthouse on the web client's screens at phone size (``make lighthouse``): a measurement that
prints figures, not a test (Lighthouse's scores move with the machine's load).

A local stack is started on free ports with a player, a game against the bot running and one
finished; then Lighthouse 12.2.3 (npm, pinned; ``make lighthouse`` installs it once into
``.lighthouse/``, which git ignores) runs in Debian's Chromium, headless, with its default
mobile emulation (a mid-range phone, throttled), on the home, game, finished game, profile and
account screens, as a visitor opening a link. For each it prints the four categories, the
console errors Lighthouse saw, and once, Chromium's own verdict on installing the app (its
installability errors, read through Playwright in a profile of its own: Lighthouse 12 no longer
checks it). The figures go to docs/web.md ("An app").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.accounts import signed_in

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROMIUM = Path("/usr/bin/chromium")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"


def screens(stack: RunningStack) -> dict[str, str]:
    """The routes to measure, with the games and the player they show made first."""
    ann = signed_in(stack, "LightAnn")
    running = ann.create_game(bots=1, bot_level="easy", move_deadline_s=86400)
    ann.commit(running, 7, 7).ok()
    finished = ann.play_out(ann.create_game(bots=1, bot_level="easy"), "easy")
    return {
        "home": "#/",
        "game": f"#/game/{running['game_id']}",
        "finished game": f"#/game/{finished['game_id']}",
        "profile": "#/players/LightAnn",
        "account": "#/account",
    }


def lighthouse(binary: Path, url: str) -> dict[str, Any]:
    """One Lighthouse run's report (JSON) on ``url``."""
    env = {**os.environ, "CHROME_PATH": str(chromium())}
    done = subprocess.run(  # noqa: S603  (our pinned Lighthouse, fixed arguments)
        [
            str(binary),
            url,
            "--quiet",
            "--output=json",
            "--output-path=stdout",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={CHROME_FLAGS}",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse {url} exited {done.returncode}: {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def chromium() -> Path:
    found = CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")
    if not found:
        raise SystemExit("Debian's chromium is needed: apt-get install -y chromium")
    return Path(found)


def installability(url: str) -> list[str]:
    """Chromium's reasons not to install the app at ``url`` (none: it is installable)."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415  (only this measurement)

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(chromium()),
            args=["--headless", "--no-sandbox", "--disable-gpu"],
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
        )
        page = context.new_page()
        page.goto(url)
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        context.close()
    return [e["errorId"] for e in errors]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lighthouse", type=Path, default=Path(".lighthouse/node_modules/.bin/lighthouse")
    )
    parser.add_argument("--runs", type=int, default=1, help="runs per screen (the lowest is kept)")
    parser.add_argument("--save", type=Path, help="a folder for each run's full report (JSON)")
    parser.add_argument("--only", nargs="*", help="measure only these screens (by name)")
    args = parser.parse_args()
    if not args.lighthouse.exists():
        raise SystemExit(f"{args.lighthouse} is missing: `make lighthouse` installs it")
    stack = start_local_stack(port=0)
    try:
        routes = screens(stack)
        version = ""
        print(f"{'screen':<14} " + " ".join(f"{c:>14}" for c in CATEGORIES) + "  console errors")
        for name, route in routes.items():
            if args.only and name not in args.only:
                continue
            lowest: dict[str, int] = {}
            console = 0
            for run in range(args.runs):
                report = lighthouse(args.lighthouse, f"{stack.url}/{route}")
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"{name.replace(' ', '-')}-{run + 1}.json").write_text(
                        json.dumps(report)
                    )
                version = report.get("lighthouseVersion", version)
                for category in CATEGORIES:
                    score = round(100 * (report["categories"][category]["score"] or 0))
                    lowest[category] = min(score, lowest.get(category, 100))
                items = report["audits"]["errors-in-console"].get("details", {}).get("items", [])
                console = max(console, len(items))
            figures = " ".join(f"{lowest[c]:>14}" for c in CATEGORIES)
            print(f"{name:<14} {figures}  {console}", flush=True)
        errors = installability(f"{stack.url}/#/")
        print(f"Lighthouse {version}, {chromium()}; installability errors: {errors or 'none'}")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
