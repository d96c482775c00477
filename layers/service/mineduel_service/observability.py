"""Powertools logger, tracer and metrics shared by every function (one instance each).

Configured by the environment template.yaml sets (service name, namespace, log level). Events
are never logged whole (``POWERTOOLS_LOGGER_LOG_EVENT`` is false and handlers pass
``log_event=False``): a request carries tokens, and a finished commit carries the seed.
"""

from __future__ import annotations

import warnings

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger()
tracer = Tracer()
metrics = Metrics()

# Reads publish no metric on purpose; Powertools would warn about that on every request.
warnings.filterwarnings("ignore", message="No application metrics to publish")
