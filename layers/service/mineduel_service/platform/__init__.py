"""What every domain stands on: AWS (``aws``), the one DynamoDB module (``dynamo``) and every key
of the table (``keys``), configuration, the clock, tokens and callers (``auth``), server seeds
(``crypto``), turn schedules (``scheduling``), cursors (``pagination``), the per-address guest
limit (``limits``), metrics and logs (``observability``), and the kinds of refusal the domains
raise (``errors``), which know nothing of HTTP."""

USE_CASES: tuple[str, ...] = ()
