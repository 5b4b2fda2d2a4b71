"""What the routers and the console share, as FastAPI dependencies and plain helpers over a request.

``api.app.create_app`` puts on ``app.state``: ``settings``, ``services`` (``api.services.ApiServices``),
``jobs`` (``JobServices``), ``ingest`` (``IngestProducer``), ``rate_limits`` (``{"user", "token"}``
``KeyedRateLimiter``) and ``key_resolver``. A test may build a minimal app with one router and only the
state that router reads.

Authorisation stays in the handlers (``authorize(principal, scope, user_id)`` after the body is parsed,
since the user is named in the body), so the order of the errors a request can get is unchanged: 401
(middleware), 422 (validation), 403, 429.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from api.keys import ADMIN, ForbiddenUser, Principal, authorize, principal_dep
from api.services import ApiServices, IngestProducer, JobServices
from core.config import Settings

T = TypeVar("T")


def services_of(request: Request) -> ApiServices:
    """The app's services (``app.state.services``)."""
    services: ApiServices = request.app.state.services
    return services


def settings_of(request: Request) -> Settings:
    """The app's settings (``app.state.settings``)."""
    settings: Settings = request.app.state.settings
    return settings


def jobs_of(request: Request) -> JobServices:
    """The job store and worker (``app.state.jobs``)."""
    jobs: JobServices = request.app.state.jobs
    return jobs


def ingest_of(request: Request) -> IngestProducer:
    """The ingestion producer (``app.state.ingest``)."""
    ingest: IngestProducer = request.app.state.ingest
    return ingest


async def _services(request: Request) -> ApiServices:  # async: resolved without a thread hop
    return services_of(request)


Caller = Annotated[Principal, Depends(principal_dep)]
"""The request's principal (``api.keys``: the bearer middleware resolved it)."""
Services = Annotated[ApiServices, Depends(_services)]
"""The app's services."""


def db_read(request: Request, load: Callable[[Any], T]) -> T:
    """``load(session)`` in a read-only session of the API's engine."""
    with services_of(request).tools.sessions() as session:
        return load(session)


def user_limit(request: Request, user_id: str) -> None:
    """The per-user rate limit (429 ``rate_limited`` with ``Retry-After``)."""
    request.app.state.rate_limits["user"].check(user_id)


def authorize_user_data(principal: Principal, own_scope: str, user_id: str) -> None:
    """A user's whole data (export, erasure): the ``admin`` scope, or a key bound to this very user that
    holds ``own_scope`` (``read`` to export, ``write`` to erase). A key bound to another user is
    ``forbidden_user`` whatever its scopes."""
    if principal.user_id is not None and principal.user_id != user_id:
        raise ForbiddenUser("this key is bound to another user")
    authorize(principal, own_scope if principal.user_id == user_id else ADMIN, user_id)
