"""What the fair-play routes show: a player's record with their window, and a case."""

from __future__ import annotations

from typing import Any

from .screening import MIN_GAMES, MIN_HARD_TAPS, REVIEW_Z, WINDOW, GameFigures, window_of
from .store import Case, FairPlayRecord


def _game_view(game: GameFigures) -> dict[str, Any]:
    return {
        "game_id": game.game_id,
        "ended_at": game.ended_at,
        "taps": game.taps,
        "accuracy": round(game.best / game.taps, 4),
        "engine_match": round(game.matched / game.taps, 4),
        "mean_loss": round(game.loss / game.taps, 4),
        "hard_taps": game.hard + game.subtle,
        "clear_taps": game.clear,
    }


def record_view(username: str | None, record: FairPlayRecord) -> dict[str, Any]:
    """``GET /v1/players/{username}/fair-play``."""
    window = window_of(record.games)
    return {
        "username": username,
        "games_screened": record.screened,
        "window": window.games_screened,
        "window_size": WINDOW,
        "accuracy": window.accuracy,
        "mean_loss": window.mean_loss,
        "engine_match": window.engine_match,
        "hard_taps": window.hard_taps,
        "hard_match": window.hard_match,
        "clear_taps": window.clear_taps,
        "clear_match": window.clear_match,
        "expected_hard_match": window.expected,
        "min_games": MIN_GAMES,
        "min_hard_taps": MIN_HARD_TAPS,
        "z": window.z,
        "review_z": REVIEW_Z,
        "status": record.status,
        "reviewed_at": record.reviewed_at,
        "games": [_game_view(g) for g in reversed(record.games)],
    }


def case_view(case: Case) -> dict[str, Any]:
    """A case as moderators see it."""
    return {
        "case_id": case.case_id,
        "username": case.username,
        "player_id": case.player_id,
        "z": case.z,
        "engine_match": case.engine_match,
        "accuracy": case.accuracy,
        "mean_loss": case.mean_loss,
        "games": list(case.games),
        "opened_at": case.opened_at,
        "status": case.status,
        "decided_at": case.decided_at,
        "decided_by": case.decided_by,
        "note": case.note,
        "decisions": case.decisions,
    }
