"""The frontier order (``bot/ordering.py``) and the counts it steers.

Any order of a component's groups gives the same exact count; the order only decides the cost.
So the sweeps are held to textbook references (breadth-first from a group, with the same
tie-break; a far end at the greatest distance), an order's width to a step-by-step count of
the numbers open, and on components of the sizes real play reaches (up to a few dozen groups,
too many for a brute-force count) the programme over the chosen order is held to the
programme over other orders and to the listing, which shares none of its bookkeeping.
"""

from __future__ import annotations

import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st
from mineduel_engine.bot import counting
from mineduel_engine.bot.components import Part, split
from mineduel_engine.bot.deduction import deduce
from mineduel_engine.bot.ordering import (
    breadth_first,
    far_end,
    frontier_order,
    highest_first,
    listing_order,
    lowest_first,
    width,
)
from mineduel_engine.bot.position import Position
from mineduel_engine.geometry import neighbours


def opened_at_random(side: int, seed: int, mines: int, opened: float) -> Position:
    """A board true to a hidden layout, safe cells opened at random (no flood fill): its
    frontier is tangled, with components of up to a few dozen groups."""
    rng = random.Random(seed)
    size = side * side
    hidden = set(rng.sample(range(size), mines))
    table = neighbours(side, side)
    cells = tuple(
        str(sum(n in hidden for n in table[c]))
        if c not in hidden and rng.random() < opened
        else "."
        for c in range(size)
    )
    return Position(side, side, mines, cells)


@st.composite
def boards(draw: st.DrawFn) -> Position:
    side = draw(st.integers(6, 11))
    mines = draw(st.integers(side * side // 8, side * side // 4))
    opened = draw(st.floats(0.3, 0.7))
    return opened_at_random(side, draw(st.integers(0, 2**32 - 1)), mines, opened)


def parts_of(position: Position) -> list[Part]:
    return [part for part in split(deduce(position))[0] if len(part.sigs) > 1]


def textbook_breadth_first(sigs: list[int], start: int) -> list[int]:
    """Breadth-first over groups sharing a number, each group's unseen neighbours in index
    order, with a queue and a seen set."""
    seen = {start}
    order = [start]
    queue = deque([start])
    while queue:
        g = queue.popleft()
        for h in range(len(sigs)):
            if h not in seen and sigs[h] & sigs[g]:
                seen.add(h)
                order.append(h)
                queue.append(h)
    return order


def distances(sigs: list[int], start: int) -> list[int]:
    far = [-1] * len(sigs)
    far[start] = 0
    queue = deque([start])
    while queue:
        g = queue.popleft()
        for h in range(len(sigs)):
            if far[h] < 0 and sigs[h] & sigs[g]:
                far[h] = far[g] + 1
                queue.append(h)
    return far


def stepwise_width(part: Part, order: list[int]) -> tuple[int, int]:
    """At each step, the numbers with a group at or before it and one at or after it."""
    counts = []
    for i in range(len(order)):
        before = after = 0
        for g in order[: i + 1]:
            before |= part.sigs[g]
        for g in order[i:]:
            after |= part.sigs[g]
        counts.append((before & after).bit_count())
    return max(counts), sum(3 ** min(c, 63) for c in counts)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_the_sweeps_are_breadth_first_and_reach_a_far_end(position: Position) -> None:
    for part in parts_of(position):
        for sigs in (part.sigs, part.touch):  # (the packed fields share the same numbers)
            for start in {0, len(sigs) - 1, len(sigs) // 2}:
                order, checks = breadth_first(sigs, start)
                assert order == textbook_breadth_first(sigs, start)
                assert 0 <= checks <= len(sigs) ** 2
                end, _ = far_end(sigs, start)
                far = distances(sigs, start)
                assert far[end] == max(far)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_the_listing_order_takes_the_groups_by_their_lowest_number(position: Position) -> None:
    """Lowest number first (numbers in cell order), and among the groups of one number those
    reaching higher numbers first: so each number's last group is the one that finishes it."""
    for part in parts_of(position):
        order = lowest_first(part.touch, part.fields.bit_length())
        lowest = [(t & -t).bit_length() for t in part.touch]
        assert sorted(order) == list(range(len(part.sigs)))
        assert order == sorted(order, key=lambda g: (lowest[g], -part.touch[g]))


@settings(max_examples=60, deadline=None)
@given(boards())
def test_the_listing_order_may_take_the_numbers_from_the_last(position: Position) -> None:
    """Highest number first, and among the groups of one number those reaching lower numbers
    first: each number's last group is again the one that finishes it. The listing's order is
    one of the two, and the listing counts the same over either."""
    for part in parts_of(position):
        span = part.fields.bit_length()
        order = highest_first(part.touch, span)
        highest = [t.bit_length() for t in part.touch]
        lowest = [(t & -t).bit_length() for t in part.touch]
        assert sorted(order) == list(range(len(part.sigs)))
        assert order == sorted(order, key=lambda g: (-highest[g], lowest[g]))
        assert listing_order(part) in (order, lowest_first(part.touch, span))
        if len(part.sigs) > 1:
            first = counting._listed(part, order, 60, None)
            second = counting._listed(part, lowest_first(part.touch, span), 60, None)
            if first is None or second is None:  # (past the listing's steps)
                continue
            assert (first.low, first.totals, first.marginals) == (
                second.low,
                second.totals,
                second.marginals,
            )


@settings(max_examples=60, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_an_orders_width_is_the_numbers_open_step_by_step(
    position: Position, rng: random.Random
) -> None:
    for part in parts_of(position):
        chosen = frontier_order(part)
        assert sorted(chosen) == list(range(len(part.sigs)))
        shuffled = list(range(len(part.sigs)))
        rng.shuffle(shuffled)
        for order in (chosen, shuffled):
            assert width(part, order) == stepwise_width(part, order)


@settings(max_examples=40, deadline=None)
@given(boards(), st.integers(0, 40), st.randoms(use_true_random=False))
def test_every_order_counts_a_component_alike(
    position: Position, limit: int, rng: random.Random
) -> None:
    """The programme over the frontier order, over the groups as numbered and over the
    reverse, and the listing (never giving up) over breadth-first, lowest-number-first and
    shuffled orders (groups that finish a number, or hold no mines, anywhere in the order),
    on components of up to dozens of groups."""
    saved = counting.LISTED_NODES
    counting.LISTED_NODES = 10**9
    try:
        for part in parts_of(position):
            groups = len(part.sigs)
            chosen = frontier_order(part)
            first = counting._programme(part, chosen, limit, None)
            expected = (first.low, first.totals, first.marginals)
            for order in (list(range(groups)), chosen[::-1]):
                other = counting._programme(part, order, limit, None)
                assert (other.low, other.totals, other.marginals) == expected
            span = part.fields.bit_length()
            shuffled = list(range(groups))
            rng.shuffle(shuffled)
            for order in (
                breadth_first(part.touch, 0)[0],
                lowest_first(part.touch, span),
                shuffled,
            ):
                listed = counting._listed(part, order, limit, None)
                assert listed is not None
                assert (listed.low, listed.totals, listed.marginals) == expected
            found = counting.count(part, limit)
            assert (found.low, found.totals, found.marginals) == expected
    finally:
        counting.LISTED_NODES = saved


def test_the_boards_reach_the_band_of_the_programme() -> None:
    """Boards drawn as above do reach components past the listing's size (13 groups or
    more), where the frontier order and the programme do the counting."""
    largest = max(
        len(part.sigs)
        for seed in range(20)
        for part in parts_of(opened_at_random(11, seed, 22, 0.5))
    )
    assert largest > counting.LISTED_GROUPS


def test_two_and_three_groups_in_closed_form_count_as_the_listing() -> None:
    """``count`` takes components of two and three groups in closed form (``_pair``,
    ``_triple``): on hundreds of them, from tangled boards, with every mine cap that can
    bind, the same count as the listing's."""
    seen = {2: 0, 3: 0}
    for seed in range(400):
        for part in parts_of(opened_at_random(10, seed, 15, 0.2)):
            groups = len(part.sigs)
            if groups > 3:
                continue
            seen[groups] += 1
            for limit in range(sum(part.sizes) + 1):
                listed = counting._listed(part, list(range(groups)), limit, None)
                found = counting.count(part, limit)
                assert listed is not None
                assert (found.low, found.totals, found.marginals) == (
                    listed.low,
                    listed.totals,
                    listed.marginals,
                )
    assert min(seen.values()) >= 50
