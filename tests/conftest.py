"""Settings for every suite.

Hypothesis: on a shared 2-core CI machine, generating a whole random game can be slow for
reasons unrelated to the code under test, so the "too slow" health check and per-example
deadlines are off everywhere (speed is measured by the benchmarks, never by tests). Each test
still sets its own ``max_examples``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("mineduel", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mineduel")
