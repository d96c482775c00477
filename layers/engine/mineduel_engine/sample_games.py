"""Deterministic sample games of every variant: whole games played by a seeded picker, for
benchmarks, tests, golden files and docs.

The picker draws from the protocol's own stream (``fairness.Stream``) rather than ``random``, so
the same arguments give the same game on every Python version and machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import Any

from .bot import choose_action
from .fairness import Stream, commitment
from .field import Field
from .mineseeker import may_bomb
from .moves import Move
from .rules import rules_for
from .settings import Settings
from .state import COVERED, GameState
from .verify import build_document

# Decides, before each tap, whether a seat goes out instead: (state, move number) -> reason.
Exit = Callable[[GameState, int], str | None]


@dataclass(frozen=True)
class SampleGame:
    """A finished (or abandoned) sample game with everything a Verification document needs."""

    game_id: str
    settings: Settings
    seed: bytes
    client_seeds: tuple[str, ...]
    field: Field
    moves: tuple[Move, ...]
    state: GameState

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, as published when the game was created."""
        return commitment(self.seed)

    def document(
        self,
        moves: Sequence[Move | Mapping[str, Any]] | None = None,
        move_deadline_s: int | None = None,
    ) -> dict[str, Any]:
        """The game's Verification document (``moves`` may replace the log, e.g. with ``at``).

        The status is ``finished`` once the game has a result, else ``active``; the seed is
        always handed over, so this also shows ``build_document`` withholding it while running.
        """
        return build_document(
            game_id=self.game_id,
            settings=self.settings,
            commitment=self.commitment,
            client_seeds=self.client_seeds,
            moves=self.moves if moves is None else moves,
            status="finished" if self.state.finished else "active",
            seed=self.seed,
            result=self.state.result,
            field=self.field,
            move_deadline_s=move_deadline_s,
            state=self.state,
        )


def sample_seed(label: str) -> bytes:
    """A 32-byte server seed derived from ``label`` (samples only; real seeds are random)."""
    return sha256(f"mineduel sample seed|{label}".encode()).digest()


def play_sample(
    label: str,
    seats: int = 2,
    client_seeds: Sequence[str] | None = None,
    exits: Exit | None = None,
    max_moves: int | None = None,
    variant: str = "mine-duel",
    options: Mapping[str, object] | None = None,
) -> SampleGame:
    """Play a game whose every move is a uniform choice among covered cells.

    mine-duel and mineseeker tap; a mineseeker seat now and then (1 move in ``BOMB_ODDS``, when
    the rules allow it) bombs a uniform cell instead; a windows-duel seat guesses 1 move in
    ``GUESS_ODDS`` and reveals otherwise. ``exits`` may put the seat to move out (``"resign"``
    or ``"timeout"``) before its move; ``max_moves`` stops early, leaving a running game.
    """
    settings = Settings.for_variant(variant, seats, options)
    seeds = tuple(client_seeds) if client_seeds is not None else ("",) * seats
    seed = sample_seed(label)
    game_id = f"sample-{label}"
    field = Field.from_seed(seed, game_id, seeds, settings.width, settings.height, settings.mines)
    rules = rules_for(settings.variant)
    picker = Stream(seed, "sample-picker|")
    state = rules.new_game(settings)
    moves: list[Move] = []
    while not state.finished and (max_moves is None or len(moves) < max_moves):
        turn = state.turn
        if turn is None:
            raise RuntimeError("a running game without a seat to move")
        reason = exits(state, state.move_count + 1) if exits else None
        if reason is not None:
            state, move = rules.eliminate(state, turn, reason)
        else:
            action = _sample_action(state, turn, picker)
            if action == "bomb":
                row, col = divmod(picker.below(settings.size), settings.width)
            else:
                covered = [i for i, c in enumerate(state.cells) if c == COVERED]
                row, col = divmod(covered[picker.below(len(covered))], settings.width)
            state, move = rules.play(state, field, turn, action, row, col)
        moves.append(move)
    return SampleGame(game_id, settings, seed, seeds, field, tuple(moves), state)


def play_bot_game(label: str, variant: str = "mine-duel", level: str = "hard") -> SampleGame:
    """A whole 2-seat game of the bot at ``level`` against itself (each move its choice from
    the public state alone, as in a real game): what the analysis is measured and tested on."""
    settings = Settings.for_variant(variant, 2)
    seeds = ("", "")
    seed = sample_seed(label)
    game_id = f"sample-{label}"
    field = Field.from_seed(seed, game_id, seeds, settings.width, settings.height, settings.mines)
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    moves: list[Move] = []
    while not state.finished:
        turn = state.turn
        if turn is None:
            raise RuntimeError("a running game without a seat to move")
        chosen = choose_action(state, commitment(seed), level)
        state, move = rules.play(state, field, turn, chosen.action, chosen.row, chosen.col)
        moves.append(move)
    return SampleGame(game_id, settings, seed, seeds, field, tuple(moves), state)


BOMB_ODDS = 25
GUESS_ODDS = 3


def _sample_action(state: GameState, seat: int, picker: Stream) -> str:
    """The sample player's action: mine-duel draws nothing here, so its games stay as ever."""
    variant = state.settings.variant
    if variant == "mineseeker" and may_bomb(state, seat) and picker.below(BOMB_ODDS) == 0:
        return "bomb"
    if variant == "windows-duel":
        return "guess" if picker.below(GUESS_ODDS) == 0 else "reveal"
    return "tap"


# One scripted step: (action, row, col) by the seat to move (``tap``, ``bomb``, ``guess``,
# ``reveal``), ("resign", seat), or ("timeout",) against the seat to move.
Step = tuple[str | int, ...]


def play_script(
    settings: Settings, field: Field, steps: Sequence[Step]
) -> tuple[GameState, list[Move]]:
    """Play scripted steps from a new game; the rules refuse illegal steps as usual.

    Cell actions and timeouts act for the seat whose turn it is, so a script reads like a game
    record ("tap here, tap there, seat 2 resigns") without repeating who moves.
    """
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    moves: list[Move] = []
    for step in steps:
        action, args = str(step[0]), step[1:]
        turn = -1 if state.turn is None else state.turn
        if action in ("tap", "bomb", "guess", "reveal"):
            row, col = (int(x) for x in args)
            state, move = rules.play(state, field, turn, action, row, col)
        elif action == "resign":
            state, move = rules.eliminate(state, int(args[0]), "resign")
        else:
            state, move = rules.eliminate(state, turn, action)
        moves.append(move)
    return state, moves
