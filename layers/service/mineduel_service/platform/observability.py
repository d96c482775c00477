"""Powertools logger and metrics shared by every function (one instance each).

Tracing is Lambda's own (``Tracing`` in template.yaml: each invocation's segment, its init and
its duration), without the X-Ray SDK: the SDK's per-call subsegments cost a third of a cold
start's imports and bring botocore into the layer (docs/cost.md).

Configured by Powertools' own environment variables, which template.yaml sets; the defaults
below are the template's values, so a module imported before the environment is exported (as
in tests) still logs under the right service and publishes metrics under the right namespace.
Events are never logged whole (``POWERTOOLS_LOGGER_LOG_EVENT`` is false and handlers pass
``log_event=False``): a request carries tokens, and a finished commit carries the seed.
"""

from __future__ import annotations

import logging
import os
import threading

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME") or "mineduel"
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "MineDuel"

logger = Logger(service=SERVICE)
metrics = Metrics(service=SERVICE, namespace=NAMESPACE)


# Lambda runs one invocation at a time per process, but the local stack runs concurrent requests
# in one process, sharing ``metrics``: recording and flushing take turns so a flush never
# iterates the metric set while another request adds to it. Uncontended on Lambda.
_metrics_lock = threading.Lock()


def count(name: str, value: float = 1) -> None:
    """Add ``value`` to the count metric ``name`` for this invocation."""
    with _metrics_lock:
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def publish_metrics() -> None:
    """Flush this invocation's metrics (EMF on stdout), if it recorded any.

    Used instead of ``@metrics.log_metrics``, which warns on every read: reads record no metric
    on purpose.
    """
    with _metrics_lock:
        if metrics.metric_set:
            metrics.flush_metrics()


# At DEBUG, botocore logs whole response bodies, and KMS Decrypt's body is the seed. However
# the application's log level is set, the AWS SDK's loggers never go below WARNING.
QUIET_LOGGERS = ("botocore", "boto3", "urllib3", "s3transfer")
for _name in QUIET_LOGGERS:
    logging.getLogger(_name).setLevel(logging.WARNING)
