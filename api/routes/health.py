"""Liveness, readiness and metrics: ``GET /healthz`` (needs no token), ``GET /readyz`` (503 when
PostgreSQL does not answer; Milvus and Kafka are reported), ``GET /metrics`` (Prometheus)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from api.deps import Services

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """Liveness: the process answers. Needs no token."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "PostgreSQL does not answer"}})
def readyz(svc: Services) -> JSONResponse:
    """Readiness: PostgreSQL must answer; Milvus and Kafka are reported but not required."""
    ready, checks = svc.readiness.check()
    return JSONResponse({"status": "ready" if ready else "not_ready", "checks": checks},
                        200 if ready else 503)


@router.get("/metrics", response_class=Response)
def prometheus_metrics() -> Response:
    """Prometheus metrics of this process (text exposition format)."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
