"""Authorisation of the HTTP routes: who calls (``Principal``) and what they may do (``authorize``).

Stand-in with the interface agreed with the API-keys work (issue 26, ``api.auth``): ``Principal``,
the FastAPI dependency ``principal_dep`` and ``authorize(principal, scope, user_id)``. Until keys
with scopes land, the only credential is the bootstrap ``API_TOKEN`` (checked by
``api.auth.BearerAuthMiddleware`` before any route runs), which holds every scope and is bound to no
user. Switching to the real keys is an import change in the route modules.

Scopes: ``read`` (retrieve, list, get, history), ``write`` (tools, corrections, ingestion), ``admin``
(erasure, export of any user, jobs). A key bound to a user (``user_id``) may act on that user only;
for export and erasure such a key of that user is enough without ``admin``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fastapi import Request

Scope = Literal["read", "write", "admin"]
ALL_SCOPES: frozenset[str] = frozenset({"read", "write", "admin"})


@dataclass(frozen=True)
class Principal:
    """The caller of a request: its key id, scopes, the user it is bound to (or ``None``) and a name."""

    key_id: str
    scopes: frozenset[str]
    user_id: str | None
    name: str


class Forbidden(PermissionError):
    """The principal may not do this; ``code`` is the API error code (403)."""

    code = "forbidden"


class ForbiddenScope(Forbidden):
    code = "forbidden_scope"


class ForbiddenUser(Forbidden):
    code = "forbidden_user"


BOOTSTRAP = Principal(key_id="env", scopes=ALL_SCOPES, user_id=None, name="API_TOKEN")


def principal_dep(request: Request) -> Principal:
    """The request's principal. The bearer middleware has already refused a wrong token."""
    return BOOTSTRAP


def authorize(principal: Principal, scope: str, user_id: str | None) -> None:
    """Raise ``ForbiddenScope`` without ``scope`` and ``ForbiddenUser`` when the key is bound to another
    user than ``user_id``. ``scope == "admin"`` is also met by a key bound to ``user_id`` itself
    (a user's own export and erasure)."""
    if principal.user_id is not None and user_id is not None and principal.user_id != user_id:
        raise ForbiddenUser(f"this key is bound to another user than {user_id!r}")
    if scope in principal.scopes:
        return
    if scope == "admin" and principal.user_id is not None and principal.user_id == user_id:
        return
    raise ForbiddenScope(f"this key lacks the {scope!r} scope")
