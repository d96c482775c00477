"""MineDuel's service layer: what the Lambda functions share beside the engine.

Use cases: ``games`` (the facade the handlers call, and the commit path), ``identity`` (guests,
who is calling), ``lobby`` (create, join), ``reads`` (view, log, verification) and ``turns``
(steps every write shares: bot replies, deadlines, schedules). AWS is touched only by ``store``,
``crypto``, ``scheduling`` and ``auth`` (through ``aws``); ``http`` and ``models`` are the
API's edge; ``clock`` and ``config`` are read lazily so the local stack can set them first.
"""
