"""The OpenAPI generator: docs/openapi.json built from the handlers' own models and routes.

``generate`` builds the document from template.yaml's routed functions (each handler module's
Powertools resolver describes its operations) and writes it atomically (``make openapi``,
``python -m mineduel.openapi --output docs/openapi.json``); ``examples`` holds an example of
every request and answer. The local stack serves the same document at ``/openapi.json``.
"""
