"""What the route modules share: the app's services, a read in a session, the per-user rate limit, and
the authorisation of a user's own data (export, erasure)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Request

from api.keys import ADMIN, ForbiddenUser, Principal, authorize

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


def authorize_user_data(principal: Principal, own_scope: str, user_id: str) -> None:
    """A user's whole data (export, erasure): the ``admin`` scope, or a key bound to this very user that
    holds ``own_scope`` (``read`` to export, ``write`` to erase). A key bound to another user is
    ``forbidden_user`` whatever its scopes."""
    if principal.user_id is not None and principal.user_id != user_id:
        raise ForbiddenUser("this key is bound to another user")
    authorize(principal, own_scope if principal.user_id == user_id else ADMIN, user_id)
