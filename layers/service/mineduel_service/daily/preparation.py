"""The daily duel prepared as the stack is deployed: the template's ``DailyPreparation``
(``Custom::DailyPreparation``), served by the housekeeping function.

A new deployment would otherwise have no commitment for today until the first scheduled
housekeeping run, minutes later, and ``POST /v1/daily/play`` refuses until there is one
(``play``). CloudFormation creates this resource before the stack is complete, so today's,
tomorrow's and the day after's commitments (and their months') are public by the time the
deployment is. Update does the same (it only ever adds what is missing); Delete changes
nothing: the commitments already published stay, as do the month keys behind them.
"""

from __future__ import annotations

from typing import Any

from ..platform import clock, custom_resources
from ..platform.observability import logger
from .housekeeping import prepare

PHYSICAL_ID = "daily-preparation"


def handle(event: dict[str, Any]) -> dict[str, Any]:
    """One custom resource request, answered at its ``ResponseURL``; the answer sent. Never
    raises: a custom resource that never answers holds the stack for an hour."""
    if event.get("RequestType") == "Delete":
        return custom_resources.answer(event, physical_id=PHYSICAL_ID)
    try:
        done = prepare(clock.now())
    except Exception as exc:
        logger.error("daily duel not prepared", extra={"error": type(exc).__name__})
        return custom_resources.answer(
            event, physical_id=PHYSICAL_ID, reason=f"{type(exc).__name__}: see the function's log"
        )
    logger.info("daily duel prepared", extra=done)
    return custom_resources.answer(
        event,
        physical_id=PHYSICAL_ID,
        data={"Days": ",".join(done["days"]), "Months": ",".join(done["months"])},
    )
