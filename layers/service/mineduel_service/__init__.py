"""MineDuel's service layer: what the Lambda functions share beside the engine.

Use cases, each handler importing only the module of its own: ``commits`` (the commit path),
``eliminations`` (resign, timeouts, the sweeper), ``identity`` (guests, who is calling),
``lobby`` (create, join), ``reads`` (view, log, verification) and ``turns`` (steps every write
shares: bot replies, deadlines, schedules). No facade gathers them: a handler importing one
would load every use case's code in every cold start. AWS is touched only by ``store``,
``crypto``, ``scheduling`` and ``auth`` (through ``aws``); ``http`` and ``models`` are the
API's edge; ``clock`` and ``config`` are read lazily so the local stack can set them first.
"""
