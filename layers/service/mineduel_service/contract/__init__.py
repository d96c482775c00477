"""The API's request and response shapes (pydantic): what use cases are given and what the
handlers declare, from which docs/openapi.json is generated. No HTTP here: statuses, headers
and problem bodies are the edge's (``api``)."""

USE_CASES: tuple[str, ...] = ()
