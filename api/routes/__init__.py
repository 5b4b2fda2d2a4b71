"""The HTTP API's routers, one module per group of routes, each an ``APIRouter`` of named handlers that
reach their services through ``api.deps`` (so a test can mount one router on a minimal app):

- ``health``: ``/healthz``, ``/readyz``, ``/metrics``;
- ``retrieve``: ``POST /v1/retrieve``;
- ``tools``: the four memory tools (``/v1/memories/save|append|delete``, ``GET /v1/memories``);
- ``memories``: memories by id and their history, a correction (``PATCH``);
- ``users``: a user's export and erasure, the erasure job;
- ``ingest``: ``POST /v1/messages``.

``ROUTERS`` is the order ``api.app.create_app`` includes them in. The routers carry no prefix: the
unknown-query-parameter check (``api.strict``) resolves a request inside an included router only when
the router's routes hold their full paths. ``examples`` adds the OpenAPI examples.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.routes import health, ingest, memories, retrieve, tools, users

ROUTERS: tuple[APIRouter, ...] = (health.router, retrieve.router, tools.router, memories.router, users.router,
                                  ingest.router)
METERED_ROUTERS: tuple[APIRouter, ...] = (health.router, retrieve.router, tools.router)
"""The routers whose paths label the request metric and the spans by name (every other path, the
templated ones and the console's included, counts as ``other``: a bounded label set)."""


def openapi_components() -> dict[str, Any]:
    """Schemas the OpenAPI document refers to that no route declares (the ingestion body's)."""
    return ingest.openapi_components()
