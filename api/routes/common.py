"""What the route modules share: the app's services, a read in a session, the per-user rate limit, and
the error answers of authorisation and jobs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from api.authz import Forbidden
from api.models import error_body

if TYPE_CHECKING:
    from api.app import ApiServices

T = TypeVar("T")


def services_of(request: Request) -> ApiServices:
    services: ApiServices = request.app.state.services
    return services


def db_read(request: Request, load: Callable[[Any], T]) -> T:
    """``load(session)`` in a read-only session of the API's engine."""
    with services_of(request).tools.sessions() as session:
        return load(session)


def user_limit(request: Request, user_id: str) -> None:
    """The per-user rate limit (429 ``rate_limited`` with ``Retry-After``)."""
    request.app.state.rate_limits["user"].check(user_id)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Forbidden)
    async def _forbidden(_request: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse(error_body(exc.code, str(exc)), 403)
