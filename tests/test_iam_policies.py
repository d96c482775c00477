"""Each function's policy in template.yaml equals the AWS calls its code makes, both ways.

Runs after every other test (``after_all``), on the calls they all made (see ``conftest.py``):
no call was refused, no call was of a kind the check cannot judge and, when the whole suite
ran, every action on every resource (and partition key pattern) a policy grants was used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from mineduel.template import load_template

if TYPE_CHECKING:
    from conftest import IamRun


@pytest.mark.after_all
def test_every_policy_equals_the_calls_of_its_function(iam_run: IamRun) -> None:
    template = load_template()
    # Unused grants are judged only after a whole, green run: a partial run cannot know what
    # the rest would have called, and a failed test may have stopped before its calls.
    judge_unused = iam_run.complete and iam_run.other_failures == 0
    report = iam_run.audit.report(template, judge_unused=judge_unused)
    assert not report, report
