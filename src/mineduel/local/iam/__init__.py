"""Hold each function's AWS calls against its IAM policy in template.yaml, both ways.

moto checks no IAM policy, so a missing permission would show only on AWS, and a permission
nobody uses would never show at all. ``audit.Audit`` records the calls the functions make
(``requests`` turns each into the IAM requests it needs) and judges them by the functions'
policies (``policy``); the test suite installs one for its whole run.
"""

from .audit import Audit, Denial, install
from .policy import FunctionPolicy, Grant, PolicyNotUnderstood
from .requests import IamRequest, UnknownCall, requests_for

__all__ = [
    "Audit",
    "Denial",
    "FunctionPolicy",
    "Grant",
    "IamRequest",
    "PolicyNotUnderstood",
    "UnknownCall",
    "install",
    "requests_for",
]
