"""Finished games kept and told: the Verification document (``documents``), exports
(``exports``), luck against skill (``analyses``), a game told briefly (``summaries``) and the
page to share (``share_page``, with ``share_html`` and ``share_chart``)."""

USE_CASES: tuple[str, ...] = ("analyses", "documents", "exports", "share_page", "summaries")
