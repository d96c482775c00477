"""Read a public board into the numbers' demands, and settle what they alone prove.

Every open number next to a covered cell is a *constraint*: its covered neighbours (a cell set,
as bits: ``board_bits``) must hold exactly its *need* (the number less the flags around it).
Before anything is counted, the cells that one number, or two numbers sharing at least two
cells, prove mine or safe are *settled* and taken out of every constraint. This is purely
local, hence sound whatever the global mine count: it changes no count, it only shrinks what
is left to count (on real boards most covered cells next to numbers are such known mines).

- One number: a need of 0 makes all its cells safe, a need equal to its cells all mines.
- Two numbers A and B sharing cells I: the mines in I lie between
  ``max(0, need_A - |A - I|, need_B - |B - I|)`` and ``min(|I|, need_A, need_B)``; from those
  bounds the cells of ``A - I`` (and ``B - I``, and I itself) are sometimes all mines or all
  safe.

Settled cells leave every constraint (a mine lowers its need) and the constraints touched are
looked at again, until nothing changes. A demand that can no longer be met raises
``Inconsistent``.
"""

from __future__ import annotations

from .board_bits import Grid, cells_of, grid, mark_table, marks, reversed_board
from .budget import Budget
from .position import Position

DIGITS = {str(d): d for d in range(9)}
_OPEN, _FLAGS, _EIGHTS = mark_table(b"012345678ABCDabcd"), mark_table(b"ABCDabcd"), mark_table(b"8")
_BITS = mark_table(b"1357"), mark_table(b"2367"), mark_table(b"4567")
"""The board's characters read as cell sets (``marks``): open or flagged, flagged, showing 8, and
showing a number with bit 0, 1 or 2 set."""

READ_COST = 60
"""A board's reading, in work units (``budget``): the position's checks and the scans of its
string."""
ROUND_COST = 14
"""One round of the single rule over the whole board, in work units."""
PAIR_COST = 4
"""One pair of numbers weighed by the pair rule, in work units."""
COPY_COST = 12
"""A look-ahead board's copy of the deduction (plus a unit per four numbers), in work units;
it includes a board that turns out impossible (the refusal is as dear as the copy)."""


class Inconsistent(ValueError):
    """No mine layout fits the board (a number or the mine count cannot be met)."""


class Settled:
    """A board's constraints once local deduction has settled what it can.

    ``numbers[k]`` is the cell of constraint ``k``, ``hidden[k]`` its covered cells not settled
    (0 once it is met) and ``needs[k]`` the mines they still lack. ``mines`` and ``safe`` are
    the covered cells settled (``safe`` includes the cells the seat knows safe), ``covered``
    every covered cell, ``flags`` the flagged ones, ``mines_left`` the mines under covered cells.
    ``frontier`` is every unsettled cell next to a constraint's number as ``deduce`` found it,
    None once a cell is settled or opened after (``components.split`` then works it out).
    """

    __slots__ = (
        "covered",
        "flags",
        "frontier",
        "grid",
        "hidden",
        "index",
        "mines",
        "mines_left",
        "needs",
        "numbers",
        "safe",
        "shown",
    )

    grid: Grid
    covered: int
    flags: int
    frontier: int | None
    mines: int
    safe: int
    numbers: list[int]
    hidden: list[int]
    needs: list[int]
    index: dict[int, int]  # cell of a number -> its constraint
    shown: int  # the cells of every constraint's number
    mines_left: int

    @property
    def known(self) -> int:
        """Covered cells settled as mine or safe."""
        return self.mines | self.safe

    def copy(self) -> Settled:
        """An independent copy (the masks are immutable integers; only the lists are copied)."""
        twin = Settled.__new__(Settled)
        twin.grid, twin.covered, twin.flags = self.grid, self.covered, self.flags
        twin.mines, twin.safe, twin.mines_left = self.mines, self.safe, self.mines_left
        twin.numbers, twin.hidden = list(self.numbers), list(self.hidden)
        twin.needs, twin.index = list(self.needs), dict(self.index)
        twin.shown, twin.frontier = self.shown, self.frontier
        return twin

    def revealed(self, cell: int, number: int, budget: Budget | None = None) -> Settled:
        """A settled copy for the board where covered ``cell`` opens showing ``number``.

        What was settled stays settled (more information never undoes a sound deduction), so
        only the new number and the numbers around ``cell`` are worked again: far cheaper
        than reading the whole board anew.
        """
        bit = 1 << cell
        if budget is not None:
            budget.spend(COPY_COST + len(self.numbers) // 4)
        if self.mines & bit:
            raise Inconsistent(f"cell {cell} is a certain mine")
        twin = self.copy()
        twin.covered &= ~bit
        twin.safe &= ~bit  # it is open now, no longer a covered safe cell
        around = self.grid.around[cell]
        work = []
        if not self.known & bit:
            for n in cells_of(around & self.shown):
                k = twin.index[n]
                if twin.hidden[k] & bit:
                    twin.hidden[k] &= ~bit
                    work.append(k)
        need = number - (around & (self.flags | self.mines)).bit_count()
        hidden = around & twin.covered & ~twin.known
        k = len(twin.numbers)
        twin.numbers.append(cell)
        twin.hidden.append(hidden)
        twin.needs.append(need)
        twin.index[cell] = k
        twin.shown |= bit
        work.append(k)
        twin.single(work, budget)
        return twin

    def single(self, work: list[int], budget: Budget | None) -> None:
        """Settle the cells of numbers that need none or all of them, and of the numbers
        those settle in turn: in rounds, each round's settled cells requeueing the numbers
        around them (one grid dilation per round, not one per number)."""
        hidden, needs, index, numbers = self.hidden, self.needs, self.index, self.numbers
        dilate = self.grid.dilate
        shown = self.shown
        mines, safe = self.mines, self.safe
        known = mines | safe
        visits = 0
        while work:
            fresh = 0
            for k in work:
                h = hidden[k]
                if h & known:
                    needs[k] -= (h & mines).bit_count()
                    h &= ~known
                    hidden[k] = h
                need = needs[k]
                if not h:
                    if need:
                        raise Inconsistent(f"the number at cell {numbers[k]} cannot be met")
                    continue
                if need == 0:
                    safe |= h
                elif need == h.bit_count():
                    mines |= h
                    needs[k] = 0
                elif not 0 < need < h.bit_count():
                    raise Inconsistent(f"the number at cell {numbers[k]} cannot be met")
                else:
                    continue
                known |= h
                fresh |= h
                hidden[k] = 0
            visits += len(work)
            if not fresh:
                break
            work = [j for n in cells_of(dilate(fresh) & shown) if hidden[j := index[n]]]
        self.mines, self.safe = mines, safe
        self.frontier = None
        if budget is not None:
            budget.spend(visits)

    def pairs(self, among: list[int], budget: Budget | None) -> bool:
        """Apply the pair bounds (module docstring) to numbers sharing two cells or more,
        starting from constraints ``among``; True if a cell was settled.

        The numbers sharing two of a number's cells are found from the cells themselves: a
        number next to two of them is one that reaches the second ``around`` set after the first.
        """
        hidden, needs, index, numbers = self.hidden, self.needs, self.index, self.numbers
        around = self.grid.around
        pending = [k for k in reversed(among) if hidden[k]]
        waiting = 0  # the numbers (cells) queued: each checks its pairs when its turn comes
        for k in pending:
            waiting |= 1 << numbers[k]
        active = self.shown
        known = self.known
        tried = 0
        # A number's partners, found the first time it is weighed: its cells only shrink, so
        # the numbers next to two of them then include every partner it has later, and a
        # number queued again (a third of the weighings) is not walked cell by cell again.
        near_two: dict[int, int] = {}
        while pending:
            k = pending.pop()
            me = 1 << numbers[k]
            waiting &= ~me
            h = hidden[k]
            if not h:
                continue
            twice = near_two.get(k)
            if twice is None:
                once = twice = 0
                for x in cells_of(h):
                    near = around[x]
                    twice |= once & near
                    once |= near
                near_two[k] = twice
            partners = twice & active & ~waiting & ~me
            tried += 1
            while partners:
                low = partners & -partners
                partners ^= low
                j = index[low.bit_length() - 1]
                other = hidden[j]
                if not other:
                    continue
                tried += 1
                shared = (h & other).bit_count()
                if shared < 2 or not _pair_settles(
                    needs[k], h.bit_count(), needs[j], other.bit_count(), shared
                ):
                    continue
                for t in self.pair(k, j):
                    bit = 1 << numbers[t]
                    if not waiting & bit and hidden[t]:
                        waiting |= bit
                        pending.append(t)
                h = hidden[k]
                if not h:
                    break
        if budget is not None:
            budget.spend(PAIR_COST * tried)
        return self.known != known

    def pair(self, a: int, b: int) -> list[int]:
        """Settle what numbers ``a`` and ``b`` prove together; the constraints that changed."""
        set_a, set_b = self.hidden[a], self.hidden[b]
        inner = set_a & set_b
        only_a, only_b = set_a & ~inner, set_b & ~inner
        need_a, need_b = self.needs[a], self.needs[b]
        low = max(0, need_a - only_a.bit_count(), need_b - only_b.bit_count())
        high = min(inner.bit_count(), need_a, need_b)
        if low > high:
            raise Inconsistent("two numbers contradict each other")
        mines = safe = 0
        for part, need in ((only_a, need_a), (only_b, need_b)):
            if part and need - high == part.bit_count():
                mines |= part
            elif part and need - low == 0:
                safe |= part
        if low == high and inner and low in (0, inner.bit_count()):
            if low:
                mines |= inner
            else:
                safe |= inner
        if mines & safe:
            raise Inconsistent("a cell must be both a mine and safe")
        return self.settle(mines, safe)

    def settle(self, mines: int, safe: int) -> list[int]:
        """Record cells as mines or safe and work the single rule from the numbers they touch;
        return those numbers."""
        fresh = (mines | safe) & ~self.known
        if not fresh:
            return []
        if (mines & self.safe) or (safe & self.mines):
            raise Inconsistent("a cell must be both a mine and safe")
        self.mines |= mines
        self.safe |= safe
        index, hidden = self.index, self.hidden
        touched = [
            j
            for n in cells_of(self.grid.dilate(fresh) & self.shown)
            if hidden[j := index[n]] & fresh
        ]
        self.single(list(touched), None)
        return touched


def deduce(position: Position, budget: Budget | None = None) -> Settled:
    """Every number's demand on its covered neighbours, with what they alone settle.

    The single rule runs over the whole board at once, in rounds: per cell, how many
    neighbours are unsettled covered cells and how many are known mines (``Grid.counts``, bit
    planes), so a number's need and size are compared for every number in a few dozen integer
    operations. A round settles the cells of every number that needs none or all of them; the
    rounds stop when one settles nothing. Only the numbers left with a choice become
    constraints (``Settled.numbers``) for the pair rule and the counting.
    """
    area = grid(position.width, position.height)
    text = position.text
    full = area.full
    # Every character but a covered cell's lies between the first and the last that is not
    # one, so the other planes are read from that stretch only: ``int`` parses about 20
    # machine instructions a character, and the stretch is 204 of 256 cells on average on the
    # real-play boards (found by ``find``, a C scan; ``str.strip`` cost twice as much).
    whole = reversed_board(text)
    binary = whole.translate(_OPEN)  # as ``marks`` reads it: the cells not covered
    top = binary.find(b"1")  # the last cell not covered (the board is reversed)
    if top < 0:
        top = low = len(binary)
        opened = 0
    else:
        end = binary.rfind(b"1") + 1
        low = len(binary) - end  # the first cell not covered
        opened = int(binary[top:end], 2) << low
    board = whole[top : len(whole) - low]
    covered = full ^ opened
    flags = marks(board, _FLAGS) << low if position.flagged else 0
    shown = opened ^ flags  # a cell neither covered nor flagged shows a number
    one, two, four = _BITS
    # a plane no number of the board reaches is 0 without a scan: a substring test is a
    # fifth of a ``marks`` (numbers of 4 and up are rare in play, and 8 rarer)
    d0 = marks(board, one) << low
    d1 = marks(board, two) << low
    high = "4" in text or "5" in text or "6" in text or "7" in text
    d2 = marks(board, four) << low if high else 0
    d3 = marks(board, _EIGHTS) << low if "8" in text else 0
    safe = sum(1 << c for c in position.safe) if position.safe else 0
    unknown = covered ^ safe  # (the cells known safe are covered: ``Position`` checks)
    known_mines = flags
    # per cell, its neighbours that are mines, and those that are mines or unknown: a round's
    # new mines change only the first, its new safe cells only the second
    around_mines = area.counts(known_mines)
    reach = area.counts(unknown | known_mines)
    rounds = 0
    # A rule is read again only once what it reads has changed: the mine rule (need = mines
    # and unknown cells) after new safe cells, the safe rule (need = mines) after new mines.
    # Read on the same counts, a rule finds nothing new (its cells were settled when it last
    # read them), so a round that skips it settles what the round before would have. Both
    # read every number shown (one with no unknown neighbour settles nothing), and the
    # numbers still open are found once, at the end. The grid's dilation and the planes'
    # comparison are written out (a call costs about as much as its dozen integer operations).
    width, not_first, not_last = area.width, area.not_first_col, area.not_last_col
    reach_new = mines_new = True
    empty = 0  # the numbers shown whose known mines are all they show
    while True:
        # mines first, then safe cells judged on the mines just found: a chain that alternates
        # (a mine completes a number, whose other cells are then safe) takes one round a link
        # pair, not one a link
        rounds += 1
        grow_mines = grow_safe = 0
        if reach_new:
            reach_new = False
            r0, r1, r2, r3 = reach
            full = shown & ~((d0 ^ r0) | (d1 ^ r1) | (d2 ^ r2) | (d3 ^ r3))
            if full:
                tall = full | (full << width) | (full >> width)
                grow_mines = (tall | ((tall << 1) & not_first) | ((tall >> 1) & not_last)) & unknown
                if grow_mines:
                    unknown &= ~grow_mines
                    known_mines |= grow_mines
                    around_mines = area.counts(known_mines)  # (``reach`` is as it was)
                    mines_new = True
        if mines_new:
            mines_new = False
            m0, m1, m2, m3 = around_mines
            empty = shown & ~((d0 ^ m0) | (d1 ^ m1) | (d2 ^ m2) | (d3 ^ m3))
            if empty:
                tall = empty | (empty << width) | (empty >> width)
                grow_safe = (tall | ((tall << 1) & not_first) | ((tall >> 1) & not_last)) & unknown
                if grow_safe:
                    unknown &= ~grow_safe
                    safe |= grow_safe
                    reach = area.counts(unknown | known_mines)
                    reach_new = True
        if not (grow_mines or grow_safe):
            break
    tall = unknown | (unknown << width) | (unknown >> width)
    live = shown & (tall | ((tall << 1) & not_first) | ((tall >> 1) & not_last))
    # the unknown cells next to those numbers, for the grouping (two dilations it saves)
    tall = live | (live << width) | (live >> width)
    frontier = unknown & (tall | ((tall << 1) & not_first) | ((tall >> 1) & not_last))
    # A number with no unsettled cell left must show its known mines exactly (``empty`` was
    # judged on the last mines found); one with some, a need between none and all of them:
    # none or all would have settled them in the last round, so it is enough that it shows
    # no more than its mines and unsettled cells (the borrow out of reach - digit, written
    # with XORs: an inversion costs an addition) and more than its mines (checked below, as
    # its need is listed). A cell both a mine and safe shows here too: its mine overfills the
    # number that made it safe.
    r0, r1, r2, r3 = reach
    t = r0 ^ d0
    borrow = t & d0
    t = r1 ^ d1
    borrow = (t & d1) | ((borrow | t) ^ t)
    t = r2 ^ d2
    borrow = (t & d2) | ((borrow | t) ^ t)
    t = r3 ^ d3
    borrow = (t & d3) | ((borrow | t) ^ t)
    if ((shown ^ live) & ~empty) | (live & borrow):
        raise Inconsistent("a number cannot be met")
    around = area.around
    numbers = cells_of(live)
    settled = Settled.__new__(Settled)
    settled.grid, settled.covered, settled.flags = area, covered, flags
    settled.mines = known_mines ^ flags
    settled.safe = safe
    settled.numbers = numbers
    # one pass over the numbers for both lists (a second comprehension is a second call)
    hidden: list[int] = []
    needs: list[int] = []
    keep, need = hidden.append, needs.append
    for c in numbers:
        near = around[c]
        cells = near & unknown
        missing = DIGITS[text[c]] - (near & known_mines).bit_count()
        if missing < 1:
            raise Inconsistent(f"the number at cell {c} cannot be met")
        keep(cells)
        need(missing)
    settled.hidden = hidden
    settled.needs = needs
    settled.index = dict(zip(numbers, range(len(numbers)), strict=True))
    settled.shown = live
    settled.frontier = frontier
    settled.mines_left = position.mines_left
    if budget is not None:
        budget.spend(READ_COST + ROUND_COST * rounds + len(numbers))
    return settled


def _pair_settles(need_a: int, size_a: int, need_b: int, size_b: int, inner: int) -> bool:
    """Whether the overlap bounds of two numbers (sizes only) settle a cell or contradict."""
    only_a, only_b = size_a - inner, size_b - inner
    low = max(0, need_a - only_a, need_b - only_b)
    high = min(inner, need_a, need_b)
    return (
        low > high
        or (only_a > 0 and (need_a - high == only_a or need_a == low))
        or (only_b > 0 and (need_b - high == only_b or need_b == low))
        or (low == high and low in (0, inner))
    )
