"""What every request and response model of the API shares: strict requests, closed responses.

Request models refuse what the API does not allow (strict types, ranges, lengths), so bad input
is a 4xx before any use case runs. Response models are what the OpenAPI document is generated
from; their field names are the contract with every client: add fields, never rename or drop.

The document is as strict as the models, so a client generated from it cannot send what they
refuse. Two places need care. Integers: JSON has one number type, and in OpenAPI 3.1 (JSON
Schema 2020-12) ``37.0`` *is* an integer, while pydantic's strict mode refuses it; so request
integers are :data:`WholeNumber`, which takes a JSON number with no fraction (``37.0`` as 37)
and still refuses ``37.5``, ``true`` and ``"37"``. Enumerations checked by the service itself
(``bot_level``, ``action``) are listed in the document (``enum``) from the same constants.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict

CLIENT_SEED = r"^[A-Za-z0-9._~-]{0,64}$"
SeatKind = Literal["account", "guest", "bot", "open"]
Status = Literal["waiting", "active", "finished", "cancelled"]
ACTIONS: tuple[str, ...] = ("tap", "bomb", "guess", "reveal")
"""Every action of every variant; a variant refuses the ones it does not have (422)."""


def _integral(value: Any) -> Any:
    """A float with no fraction (``37.0``, what some JSON encoders write for 37) as an int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_integral)]
"""A request integer: ``37`` or ``37.0``, never ``37.5``, ``true`` or ``"37"``."""


class RequestModel(BaseModel):
    """A request body: strict types, unknown fields ignored."""

    model_config = ConfigDict(strict=True, extra="ignore", defer_build=True)


class ResponseModel(BaseModel):
    """A response body: only the fields it declares.

    Validators are built on first use (``defer_build``), and each route's models live in the
    module of what they describe, so a function builds the classes of its own route only."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
