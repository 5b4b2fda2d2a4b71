"""The console's login and logout: ``GET|POST /console/login``, ``POST /console/logout``.

A login takes ``API_TOKEN`` or an API key with the ``admin`` scope (a key without it: 403), refuses a
cross-site Origin (403), answers a failure after ``CONSOLE_LOGIN_FAILURE_DELAY_SEC`` and limits failures
per client address (429 with ``Retry-After``); success opens a server-side session row and sets the
signed cookie. Every outcome is in the audit log. Logout (CSRF-checked) revokes the session row.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from api.console.context import CSRF_FAILED, actor_of, console_of, guarded, read_form
from api.console.forms import CsrfForm, InputError, LoginForm
from api.console.proxy import normalise_origin
from api.console.session import COOKIE_NAME, COOKIE_PATH, SESSION_MAX_AGE_SEC, ConsoleSession
from api.console.templating import PREFIX, SECURITY_HEADERS
from api.keys import Principal
from api.ratelimit import retry_after_header
from core import keys as key_store

router = APIRouter(prefix=PREFIX, include_in_schema=False)


@router.get("/login")
async def login_page(request: Request) -> Response:
    """The login form (503 when the console is disabled)."""
    ctx = console_of(request)
    if ctx.signer is None:
        return ctx.render(request, "disabled.html", 503)
    return ctx.render(request, "login.html", next_path=PREFIX + "/users")


@router.post("/login")
async def login(request: Request) -> Response:
    """Check the credential and open a session (see the module doc)."""
    ctx = console_of(request)
    signer = ctx.signer
    if signer is None:
        return ctx.render(request, "disabled.html", 503)
    seen = ctx.view(request)
    origin = request.headers.get("origin")
    if origin is not None and normalise_origin(origin) != seen.origin:
        return ctx.render(request, "login.html", 403, login_error="cross-site login refused")
    client = seen.client or "unknown"
    blocked = ctx.failures.wait(client)
    if blocked > 0:
        await ctx.audit("console.login", "denied", request, "console:unknown",
                        detail={"reason": "too many failed logins"})
        response = ctx.render(request, "login.html", 429,
                              login_error="too many failed logins from this address; try again later")
        response.headers["retry-after"] = retry_after_header(blocked)
        return response
    try:
        form = await read_form(request, LoginForm)
    except InputError as exc:
        return ctx.render(request, "login.html", 422, login_error=exc.message)
    principal = await ctx.admin_principal(request, form.token)
    if not isinstance(principal, Principal):
        ctx.failures.acquire(client)  # counts the failure; the next attempt over the limit gets 429
        await asyncio.sleep(ctx.settings.CONSOLE_LOGIN_FAILURE_DELAY_SEC)
        lacks = principal is False
        await ctx.audit("console.login", "failed", request, "console:unknown",
                        detail={"reason": "key without the admin scope" if lacks else "wrong token"})
        if lacks:
            return ctx.render(request, "login.html", 403, login_error="this key lacks the admin scope")
        return ctx.render(request, "login.html", 401, login_error="wrong token")
    value = signer.issue()
    nonce = value.split(".")[2]
    expires = datetime.now(UTC) + timedelta(seconds=SESSION_MAX_AGE_SEC)
    await ctx.db(key_store.open_console_session, nonce, principal.key_id, expires)
    await ctx.audit("console.login", "ok", request, f"console:{principal.key_id}",
                    detail={"key": principal.name})
    redirect = RedirectResponse(PREFIX + "/users", status_code=303)
    redirect.set_cookie(COOKIE_NAME, value, max_age=SESSION_MAX_AGE_SEC, path=COOKIE_PATH,
                        httponly=True, samesite="strict", secure=seen.secure)
    redirect.headers.update(SECURITY_HEADERS)
    return redirect


@router.post("/logout")
@guarded
async def logout(request: Request, session: ConsoleSession) -> Response:
    """End the session (CSRF-checked): the session row is revoked for every process."""
    ctx = console_of(request)
    form = await read_form(request, CsrfForm)
    if not ctx.csrf_ok(session, form.csrf):
        raise CSRF_FAILED
    if session.nonce != "bearer":
        await ctx.db(key_store.revoke_console_session, session.nonce)
    await ctx.audit("console.logout", "ok", request, actor_of(session))
    response = RedirectResponse(PREFIX + "/login", status_code=303)
    response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, httponly=True, samesite="strict",
                           secure=ctx.view(request).secure)
    return response
