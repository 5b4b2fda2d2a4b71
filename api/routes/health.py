"""Liveness, readiness and metrics: ``GET /healthz`` (needs no token), ``GET /readyz`` (503 when
PostgreSQL does not answer; Milvus and Kafka are reported to keys with the ``metrics`` or ``admin``
scope, any other key gets the status alone), ``GET /metrics`` (Prometheus; needs ``metrics`` or
``admin``, so a scraper's key reads no memory)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from api.deps import Caller, Services
from api.keys import ADMIN, METRICS, authorize
from api.models import ERROR_RESPONSES

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """Liveness: the process answers. Needs no token."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "PostgreSQL does not answer"}})
def readyz(principal: Caller, svc: Services) -> JSONResponse:
    """Readiness: PostgreSQL must answer; Milvus and Kafka are reported but not required. The checks'
    detail goes to keys with the ``metrics`` or ``admin`` scope only."""
    ready, checks = svc.readiness.check()
    body: dict[str, object] = {"status": "ready" if ready else "not_ready"}
    if principal.has(METRICS) or principal.has(ADMIN):
        body["checks"] = checks
    return JSONResponse(body, 200 if ready else 503)


@router.get("/metrics", response_class=Response, responses={403: ERROR_RESPONSES[403]})
def prometheus_metrics(principal: Caller) -> Response:
    """Prometheus metrics of this process (text exposition format); needs the ``metrics`` or ``admin``
    scope (no user binding)."""
    authorize(principal, METRICS, None)
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
