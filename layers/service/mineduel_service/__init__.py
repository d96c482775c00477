"""MineDuel's service layer: what the Lambda functions share beside the engine.

``games`` holds the use cases (create, join, commit, resign, expire, read, verify); ``store``,
``crypto``, ``scheduling`` and ``auth`` are the only modules that talk to AWS; ``http`` and
``models`` are the API's edge. Handlers in ``functions/`` only route requests to ``games``.
"""
