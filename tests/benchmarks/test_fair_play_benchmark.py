"""``make bench-fair-play`` runs end to end on a small population (the full run is the
benchmark's, not a test's: its figures are printed, never asserted), and its simulated players
are judged by the service's own rule."""

from __future__ import annotations

import random

import pytest

from mineduel.benchmarks import fair_play


def test_a_small_run_prints_every_rate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sizes = {"BANK": "3", "HONEST": "12", "ASSISTED": "4", "HALF": "4", "PARTIAL": "4"}
    for name, value in {**sizes, "JOBS": "1", "SEED": "fair-play-test"}.items():
        monkeypatch.setenv(name, value)
    fair_play.main()
    out = capsys.readouterr().out
    for line in ("honest: false positives", "assisted: caught", "half: caught", "z >= 3.0"):
        assert line in out
    assert "24 players (12 honest, 4 assisted, 4 half-assisted, 4 at 0.8)" in out


def test_an_assisted_players_every_tap_matches_and_a_short_game_player_has_no_z() -> None:
    bank = [fair_play.bank_game(("fair-play-test", i)) for i in range(2)]
    rng = random.Random(1)
    engine = fair_play.Player(0, "hard-bot", "assisted", 0.0, 0.0, 0.0)
    figures, taps, _ = fair_play.play_player(engine, bank, 4, "t")
    assert all(t.engine for game in taps for t in game)
    assert sum(g.matched for g in figures) == sum(g.taps for g in figures) > 0
    short = fair_play.Player(1, "expert", "honest", 0.03, 0.0, 1.0)
    figures, _, flagged = fair_play.play_player(short, bank, 20, "t")
    assert flagged is None and fair_play.screening.window_of(figures).z is None
    assert fair_play.population(3, 0, 0, 0, rng)[0].group == "honest"
