"""Deterministic sample games: whole games played by a seeded picker, for benchmarks, tests,
golden files and docs.

The picker draws from the protocol's own stream (``fairness.Stream``) rather than ``random``, so
the same arguments give the same game on every Python version and machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import Any

from .fairness import Stream, commitment
from .field import Field
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
) -> SampleGame:
    """Play a game whose every tap is a uniform choice among covered cells.

    ``exits`` may put the seat to move out (``"resign"`` or ``"timeout"``) before its tap;
    ``max_moves`` stops early, leaving a running game.
    """
    settings = Settings.for_variant("mine-duel", seats)
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
            covered = [i for i, c in enumerate(state.cells) if c == COVERED]
            row, col = divmod(covered[picker.below(len(covered))], settings.width)
            state, move = rules.play(state, field, turn, "tap", row, col)
        moves.append(move)
    return SampleGame(game_id, settings, seed, seeds, field, tuple(moves), state)


# One scripted step: ("tap", row, col) by the seat to move, ("resign", seat), or ("timeout",)
# against the seat to move.
Step = tuple[str | int, ...]


def play_script(
    settings: Settings, field: Field, steps: Sequence[Step]
) -> tuple[GameState, list[Move]]:
    """Play scripted steps from a new game; the rules refuse illegal steps as usual.

    Taps and timeouts act for the seat whose turn it is, so a script reads like a game record
    ("tap here, tap there, seat 2 resigns") without repeating who moves.
    """
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    moves: list[Move] = []
    for step in steps:
        action, args = str(step[0]), step[1:]
        turn = -1 if state.turn is None else state.turn
        if action == "tap":
            row, col = (int(x) for x in args)
            state, move = rules.play(state, field, turn, "tap", row, col)
        elif action == "resign":
            state, move = rules.eliminate(state, int(args[0]), "resign")
        else:
            state, move = rules.eliminate(state, turn, action)
        moves.append(move)
    return state, moves
