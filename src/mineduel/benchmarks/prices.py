"""Published AWS on-demand prices (us-east-1, USD) and the cost of a game built from them.

Prices are list prices without free tiers or savings plans, as published on the services'
pricing pages (checked 2026-11); change them here and ``make bench`` recomputes the figures.
"""

from __future__ import annotations

from dataclasses import dataclass

REGION = "us-east-1"
LAMBDA_ARCH = "arm64"  # template.yaml Globals: Architectures [arm64]


@dataclass(frozen=True)
class Prices:
    """USD per unit."""

    lambda_request: float = 0.20 / 1e6
    lambda_gb_second_arm64: float = 0.0000133334
    http_api_request: float = 1.00 / 1e6  # first 300 million a month
    dynamodb_write_unit: float = 0.625 / 1e6  # on-demand write request unit
    dynamodb_read_unit: float = 0.125 / 1e6  # on-demand read request unit
    dynamodb_storage_gb_month: float = 0.25
    kms_request: float = 0.03 / 10_000  # symmetric Encrypt/Decrypt
    scheduler_invocation: float = 1.00 / 1e6  # create/update/delete of schedules are free
    xray_trace: float = 5.00 / 1e6  # per trace recorded
    xray_sampled_share: float = 0.05
    """Lambda's own sampling with ``Tracing: Active`` (it takes no custom sampling rule): the
    first request each second per function, then 5% of the rest; at volume, 5%."""
    logs_ingest_gb: float = 0.50
    eventbridge_event: float = 1.00 / 1e6
    """EventBridge custom events put on a bus (``PutEvents``), per entry, each 64 KB chunk of an
    entry counted as one (https://aws.amazon.com/eventbridge/pricing/)."""


PRICES = Prices()


@dataclass(frozen=True)
class GameUsage:
    """What one game uses, summed over its requests."""

    requests: float
    lambda_gb_seconds: float
    read_units: float
    write_units: float
    kms_calls: float
    scheduler_invocations: float
    stored_bytes: float
    log_bytes: float
    index_write_units: float = 0.0
    """Writes of the table's global secondary indexes (measured from the items written)."""
    traced_share: float = PRICES.xray_sampled_share
    """The share of requests X-Ray records (the functions' ``Tracing``)."""


@dataclass(frozen=True)
class FanoutUsage:
    """What the live fan-out (the table stream's function) uses for one game."""

    invocations: float
    lambda_gb_seconds: float
    read_units: float
    write_units: float
    bus_events: float
    log_bytes: float
    traced_share: float = PRICES.xray_sampled_share
    """The share of invocations X-Ray records (the fan-out function's ``Tracing``)."""


def cost_lines(
    usage: GameUsage, games: int = 1000, prices: Prices = PRICES
) -> list[tuple[str, float]]:
    """(item, USD) for ``games`` games, one line per billed service."""
    n = games
    return [
        ("API Gateway HTTP API requests", n * usage.requests * prices.http_api_request),
        (
            "Lambda requests (and schedules' deliveries)",
            n * (usage.requests + usage.scheduler_invocations) * prices.lambda_request,
        ),
        (
            "Lambda duration (arm64, template memory)",
            n * usage.lambda_gb_seconds * prices.lambda_gb_second_arm64,
        ),
        ("DynamoDB writes (on-demand)", n * usage.write_units * prices.dynamodb_write_unit),
        (
            "DynamoDB writes of secondary indexes",
            n * usage.index_write_units * prices.dynamodb_write_unit,
        ),
        ("DynamoDB reads (on-demand)", n * usage.read_units * prices.dynamodb_read_unit),
        (
            "DynamoDB storage, one month",
            n * usage.stored_bytes / 1e9 * prices.dynamodb_storage_gb_month,
        ),
        ("KMS requests", n * usage.kms_calls * prices.kms_request),
        (
            "EventBridge Scheduler invocations",
            n * usage.scheduler_invocations * prices.scheduler_invocation,
        ),
        (
            f"X-Ray traces ({usage.traced_share:.0%} sampled)",
            n * usage.requests * usage.traced_share * prices.xray_trace,
        ),
        ("CloudWatch Logs ingestion", n * usage.log_bytes / 1e9 * prices.logs_ingest_gb),
    ]


def fanout_cost_lines(
    usage: FanoutUsage, games: int = 1000, prices: Prices = PRICES
) -> list[tuple[str, float]]:
    """(item, USD) of the live fan-out for ``games`` games, one line per billed service (its
    DynamoDB writes only when it made any)."""
    n = games
    lines = [
        ("live fan-out: Lambda requests", n * usage.invocations * prices.lambda_request),
        (
            "live fan-out: Lambda duration",
            n * usage.lambda_gb_seconds * prices.lambda_gb_second_arm64,
        ),
        ("live fan-out: DynamoDB reads", n * usage.read_units * prices.dynamodb_read_unit),
    ]
    if usage.write_units:
        lines.append(
            ("live fan-out: DynamoDB writes", n * usage.write_units * prices.dynamodb_write_unit)
        )
    lines += [
        ("live fan-out: EventBridge events", n * usage.bus_events * prices.eventbridge_event),
        (
            f"live fan-out: X-Ray traces ({usage.traced_share:.0%} sampled)",
            n * usage.invocations * usage.traced_share * prices.xray_trace,
        ),
        (
            "live fan-out: CloudWatch Logs ingestion",
            n * usage.log_bytes / 1e9 * prices.logs_ingest_gb,
        ),
    ]
    return lines
