"""What a bus rule's event pattern can match, by source and detail type (``live.listeners``):
the fan-out puts an event only when some rule could match it, and errs towards putting."""

from __future__ import annotations

import json

import pytest
from mineduel_service.live.listeners import EVERYTHING, Matcher, matcher_of


@pytest.mark.parametrize(
    ("pattern", "source", "detail_type", "wanted"),
    [
        ({"source": ["mineduel.game"]}, "mineduel.game", "MovePlayed", True),
        ({"source": ["someone.else"]}, "mineduel.game", "MovePlayed", False),
        ({"detail-type": ["GameFinished"]}, "mineduel.game", "GameFinished", True),
        ({"detail-type": ["GameFinished"]}, "mineduel.game", "MovePlayed", False),
        (
            {"source": ["mineduel.game"], "detail-type": ["GameStarted", "GameFinished"]},
            "mineduel.game",
            "GameStarted",
            True,
        ),
        # matchers it does not judge count as matching: never an event a rule wanted lost
        ({"detail-type": [{"prefix": "Game"}]}, "mineduel.game", "MovePlayed", True),
        ({"source": [{"anything-but": "x"}]}, "mineduel.game", "MovePlayed", True),
        ({"$or": [{"detail-type": ["A"]}, {"source": ["b"]}]}, "mineduel.game", "Z", True),
        ({"detail": {"status": ["finished"]}}, "mineduel.game", "MovePlayed", True),
    ],
)
def test_a_rule_reaches_what_its_source_and_detail_type_allow(
    pattern: dict[str, object], source: str, detail_type: str, wanted: bool
) -> None:
    assert matcher_of(json.dumps(pattern)).wants(source, detail_type) is wanted


def test_a_pattern_that_cannot_be_read_matches_everything() -> None:
    assert matcher_of("{not json") == EVERYTHING[0]
    assert matcher_of("[1, 2]") == Matcher(None, None)
