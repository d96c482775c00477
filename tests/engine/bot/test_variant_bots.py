"""The mineseeker and windows-duel bots: legal moves, decisions from exact chances, and a pure
function of what their seat sees (public view plus their own wrong guesses, nothing else)."""

from __future__ import annotations

import random

import pytest
from mineduel_engine import Field, GameState, Settings, commitment, rules_for
from mineduel_engine.bot import (
    BOT_LEVELS,
    BotMove,
    Position,
    SeatView,
    choose_action,
    choose_move,
    decide,
    solve,
)
from mineduel_engine.bot.mineseeker import bomb_choice, play_mineseeker, square_values
from mineduel_engine.bot.windows import (
    guess_value,
    lookahead_scores,
    play_windows,
    reveal_value,
)
from mineduel_engine.fairness import bot_stream
from mineduel_engine.geometry import bomb_square, neighbours
from mineduel_engine.state import COVERED, SeatState

SEED = bytes(range(32))
COMMITMENT = commitment(SEED)


def play_out(variant: str, level: str, game_id: str) -> tuple[GameState, list[BotMove]]:
    settings = Settings.for_variant(variant)
    field = Field.from_seed(
        SEED, game_id, ["", ""], settings.width, settings.height, settings.mines
    )
    rules = rules_for(variant)
    state = rules.new_game(settings)
    chosen: list[BotMove] = []
    while not state.finished:
        assert state.turn is not None
        move = choose_action(state, COMMITMENT, level)
        assert move.action in rules.actions
        cell = move.row * settings.width + move.col
        if move.action != "bomb":
            assert state.cells[cell] == COVERED
        if move.action == "guess":
            assert cell not in state.wrong_guesses(state.turn), "never a guess known to miss"
        chosen.append(move)
        state, _ = rules.play(state, field, state.turn, move.action, move.row, move.col)
    return state, chosen


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize("game", range(3))
def test_windows_duel_bots_finish_games_with_legal_moves(level: str, game: int) -> None:
    state, chosen = play_out("windows-duel", level, f"wd-{level}-{game}")
    assert state.result is not None and state.result.reason == "field-done"
    assert {m.action for m in chosen} <= {"guess", "reveal"}


def test_mineseeker_bot_finishes_a_game_and_uses_its_bombs() -> None:
    state, chosen = play_out("mineseeker", "hard", "ms-hard")
    assert state.result is not None
    bombs = [m for m in chosen if m.action == "bomb"]
    assert 1 <= len(bombs) <= 2, "a bomb is fired before the game is decided"
    assert sum(seat.bomb_used for seat in state.seats) == len(bombs)


def test_choose_move_is_for_mine_duel_only() -> None:
    for variant in ("mineseeker", "windows-duel"):
        state = rules_for(variant).new_game(Settings.for_variant(variant))
        with pytest.raises(ValueError, match="choose_action"):
            choose_move(state, COMMITMENT)
    state = rules_for("mine-duel").new_game(Settings())
    move = choose_action(state, COMMITMENT)
    assert move.action == "tap" and choose_move(state, COMMITMENT) == (move.row, move.col)


# --- mineseeker: the bomb -----------------------------------------------------------------


def fresh_view(mines_by_seat: tuple[int, int] = (0, 0), may_bomb: bool = True) -> SeatView:
    board = tuple(
        "B" * mines_by_seat[1] + "A" * mines_by_seat[0] + "." * (256 - sum(mines_by_seat))
    )
    return SeatView("mineseeker", Position(16, 16, 51, board), 0, 2, mines_by_seat, may_bomb)


def test_square_values_sum_the_exact_chances_of_every_clamped_square() -> None:
    position = fresh_view().position
    solution = solve(position)
    values = square_values(position, solution.mine)
    assert len(values) == 12 * 12, "each distinct 5 x 5 square once"
    for centre, value in values.items():
        cells = bomb_square(16, 16, *divmod(centre, 16))
        assert value == pytest.approx(sum(solution.mine[c] for c in cells))
    assert values[2 * 16 + 2] == pytest.approx(25 * 51 / 256)


def test_the_bomb_is_kept_on_a_fresh_board() -> None:
    view = fresh_view()
    solution = solve(view.position)
    assert bomb_choice(view, solution, bot_stream(COMMITMENT, 1)) is None
    action, _ = play_mineseeker(view, bot_stream(COMMITMENT, 1))
    assert action == "tap"


def test_the_bomb_fires_on_a_dense_square() -> None:
    # 7 x 7 with 30 mines: every square holds 25 x 30/49 = 15.3 expected mines, a tap's streak
    # on a 0.61 chance is worth 1.6: far more than the margin.
    view = SeatView("mineseeker", Position(7, 7, 30, tuple("." * 49)), 0, 2, (0, 0), True)
    action, centre = play_mineseeker(view, bot_stream(COMMITMENT, 1))
    assert action == "bomb"
    assert centre in square_values(view.position, solve(view.position).mine)
    no_bomb = SeatView("mineseeker", view.position, 0, 2, (0, 0), may_bomb=False)
    assert play_mineseeker(no_bomb, bot_stream(COMMITMENT, 1))[0] == "tap"
    assert play_mineseeker(view, bot_stream(COMMITMENT, 1), bombs=False)[0] == "tap"


def test_the_bomb_fires_before_the_other_seat_can_win() -> None:
    view = fresh_view(mines_by_seat=(0, 23))
    action, _ = play_mineseeker(view, bot_stream(COMMITMENT, 1))
    assert action == "bomb", "the other seat lacks 3 mines: an unused bomb would be wasted"


def test_a_certain_mine_is_tapped_before_any_bomb() -> None:
    # A 1 in the corner whose neighbours but (1, 1) are open: a certain mine, on a board dense
    # enough that a bomb would otherwise fire.
    cells = list("." * 49)
    cells[0], cells[1], cells[7] = "1", "2", "2"
    position = Position(7, 7, 30, tuple(cells))
    solution = solve(position)
    assert 8 in solution.certain_mines
    view = SeatView("mineseeker", position, 0, 2, (0, 0), True)
    action, cell = play_mineseeker(view, bot_stream(COMMITMENT, 1))
    assert action == "tap" and cell in solution.certain_mines


def test_bomb_ties_are_broken_by_the_public_stream_never_at_random() -> None:
    view = SeatView("mineseeker", Position(9, 9, 60, tuple("." * 81)), 0, 2, (0, 0), True)
    picks = {play_mineseeker(view, bot_stream(commitment(bytes([i]) * 32), 1)) for i in range(8)}
    assert {a for a, _ in picks} == {"bomb"}
    assert len(picks) > 1, "equal squares: the public stream picks among them"
    assert play_mineseeker(view, bot_stream(COMMITMENT, 1)) == play_mineseeker(
        view, bot_stream(COMMITMENT, 1)
    )


def test_the_bot_never_bombs_when_the_option_forbids_it() -> None:
    settings = Settings.for_variant("mineseeker", options={"bomb_when_behind": True})
    state = rules_for("mineseeker").new_game(settings)
    view = SeatView.from_state(state, 0)
    assert not view.may_bomb, "0 against 0 is not behind"
    behind = state.evolve(cells=("B",) * 3 + state.cells[3:], seats=(SeatState(), SeatState(3)))
    assert SeatView.from_state(behind, 0).may_bomb
    ahead = state.evolve(cells=("A",) * 3 + state.cells[3:], seats=(SeatState(3), SeatState()))
    assert not SeatView.from_state(ahead, 0).may_bomb
    assert choose_action(ahead, COMMITMENT).action == "tap"


# --- windows-duel -------------------------------------------------------------------------


def test_expected_points() -> None:
    assert guess_value(1.0) == 5 and guess_value(0.0) == -2
    assert guess_value(2 / 7) == pytest.approx(0.0)
    assert reveal_value(0.0) == 0 and reveal_value(1.0) == -5


def test_a_certain_mine_is_guessed() -> None:
    # The 0 at column 4 clears column 3, so the 1 at column 2 has its mine at column 1.
    position = Position.from_board(5, 1, 1, ["..1.0"])
    solution = solve(position)
    view = SeatView("windows-duel", position, 0, 2)
    action, cell = play_windows(view, bot_stream(COMMITMENT, 1), "medium")
    assert solution.certain_mines == (1,)
    assert (action, cell) == ("guess", 1)


def test_a_poor_bet_is_not_guessed_when_a_safe_reveal_exists() -> None:
    # One mine in 20 cells, nothing open: 5% everywhere; guessing loses 1.65 on average.
    position = Position(5, 4, 1, tuple("." * 20))
    view = SeatView("windows-duel", position, 0, 2)
    assert play_windows(view, bot_stream(COMMITMENT, 1), "medium")[0] == "reveal"


def test_a_good_bet_is_guessed() -> None:
    # 3 mines in 5 cells: 60% each, a guess is worth 2.2, a reveal -3.
    position = Position(5, 1, 3, tuple("....."))
    view = SeatView("windows-duel", position, 0, 2)
    assert play_windows(view, bot_stream(COMMITMENT, 1), "medium")[0] == "guess"


def test_its_own_wrong_guesses_are_safe_cells_to_it_and_to_nobody_else() -> None:
    # 2 mines in 4 cells: 50% each, a guess is worth 1.5 ... but knowing cell 3 is safe, the
    # bot sees 2 mines in 3 cells (67%): still a guess, never on cell 3.
    board = ["...?"]
    position = Position.from_board(4, 1, 2, board)
    assert position.safe == frozenset({3}) and position.cells[3] == "."
    solution = solve(position)
    assert solution.mine[3] == 0.0
    assert solution.mine[0] == pytest.approx(2 / 3)
    view = SeatView("windows-duel", position, 0, 2)
    for n in range(1, 20):
        for level in BOT_LEVELS:
            action, cell = play_windows(view, bot_stream(COMMITMENT, n), level)
            assert action == "guess" and cell != 3


def test_hard_looks_one_move_ahead() -> None:
    # Three cells, one mine, nothing open. A guess (p = 1/3) is worth 1/3 point; the other seat
    # then has nothing to gain if it was the mine, and the same 1/3 if not: score 1/3 - 2/9.
    # Revealing the middle shows a 1 (the mine is at either end): the other seat then guesses
    # at 1/2 (worth 1.5). Revealing an end shows where the mine is: the other seat takes 5.
    view = SeatView("windows-duel", Position(3, 1, 1, tuple("...")), 0, 2)
    scores = lookahead_scores(view, solve(view.position))
    for cell in range(3):
        assert scores["guess", cell] == pytest.approx(1 / 9)
    assert scores["reveal", 1] == pytest.approx(-5 / 3 - 2 / 3 * 1.5)
    assert scores["reveal", 0] == pytest.approx(-5 / 3 - 2 / 3 * 5)
    assert play_windows(view, bot_stream(COMMITMENT, 1), "hard")[0] == "guess"


def test_the_bot_sees_its_own_wrong_guesses_only() -> None:
    field = Field.from_picture(["*...*...."])
    settings = Settings("windows-duel", 9, 1, 2, 2)
    rules = rules_for("windows-duel")
    state = rules.new_game(settings)
    state, _ = rules.play(state, field, 0, "guess", 0, 2)
    state, _ = rules.play(state, field, 1, "guess", 0, 6)
    assert SeatView.from_state(state, 0).position.safe == frozenset({2})
    assert SeatView.from_state(state, 1).position.safe == frozenset({6})
    # The other seat's private part cannot change the bot's move: it is never read.
    blind = state.evolve(private=(state.private[0], state.private[0]))
    assert choose_action(blind, COMMITMENT) == choose_action(state, COMMITMENT)


@pytest.mark.parametrize("moves", [4, 10, 18])
def test_same_view_under_different_fields_gives_the_same_move(moves: int) -> None:
    """Fair by construction: a second field showing the same view gives the same move."""
    settings = Settings.for_variant("windows-duel")
    rules = rules_for("windows-duel")
    field = Field.from_seed(SEED, f"wd-fair-{moves}", ["", ""], 11, 11, 15)
    state = rules.new_game(settings)
    log = []
    while not state.finished and len(log) < moves:
        chosen = choose_action(state, COMMITMENT)
        assert state.turn is not None
        log.append((state.turn, chosen))
        state, _ = rules.play(state, field, state.turn, chosen.action, chosen.row, chosen.col)
    assert not state.finished
    table = neighbours(11, 11)
    guessed = {c for seat in (0, 1) for c in state.wrong_guesses(seat)}
    far = [
        c
        for c, ch in enumerate(state.cells)
        if ch == COVERED
        and c not in guessed
        and all(not state.cells[n].isdigit() for n in table[c])
    ]
    inside = [c for c in far if field.is_mine(c)]
    empty = [c for c in far if not field.is_mine(c)]
    assert inside and empty
    rng = random.Random(moves)
    moved = (set(inside) - {rng.choice(inside)}) | {rng.choice(empty)}
    twin = Field.from_cells(11, 11, (field.mines - set(far)) | moved)
    again = rules.new_game(settings)
    for seat, chosen in log:
        again, _ = rules.play(again, twin, seat, chosen.action, chosen.row, chosen.col)
    assert again == state
    for level in BOT_LEVELS:
        assert choose_action(again, COMMITMENT, level) == choose_action(state, COMMITMENT, level)


def test_decide_refuses_what_it_cannot_play() -> None:
    view = SeatView("chess", Position(2, 1, 1, ("..")), 0, 2)
    with pytest.raises(ValueError, match="does not play 'chess'"):
        decide(view, bot_stream(COMMITMENT, 1))
    with pytest.raises(ValueError, match="unknown bot level"):
        decide(view, bot_stream(COMMITMENT, 1), "grandmaster")
