"""What every console page shares: the ``ConsoleContext`` (session signing, the trusted proxies, the
login-failure limiter, the settings and services; on ``app.state.console``) and ``guarded``, which
turns a page handler ``(request, session)`` into a route that answers 503 when the console is disabled
(no ``API_TOKEN``), 401 with the login form without a valid session, and a 422 error page for a
refused input (``InputError``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from api.console.forms import InputError, UserPath, form_pairs, validate
from api.console.proxy import ClientView, client_view, parse_trusted
from api.console.session import COOKIE_NAME, ConsoleSession, SessionSigner
from api.console.templating import render_template
from api.keys import ADMIN, Principal
from api.ratelimit import KeyedRateLimiter
from api.services import ApiServices
from core import keys as key_store
from core.config import Settings

CSRF_FAILED = InputError("csrf_failed", "the form's CSRF token is missing or wrong; reload the page", "csrf")

PageHandler = Callable[[Request, ConsoleSession], Awaitable[Response]]


class Unauthenticated(Exception):
    """The request has no live console session and no admin bearer credential."""


class ConsoleContext:
    """The console's state and the helpers its pages call (one per app; ``console_of(request)``)."""

    def __init__(self, settings: Settings, services: ApiServices, token: str | None) -> None:
        self.settings = settings
        self.services = services
        self.signer = SessionSigner(token) if token else None
        self.trusted = parse_trusted(settings.CONSOLE_TRUSTED_PROXIES)
        self.failures = KeyedRateLimiter("console_login", settings.CONSOLE_LOGIN_FAILURES_PER_MIN / 60.0,
                                         max(1, int(settings.CONSOLE_LOGIN_FAILURES_PER_MIN)))

    def view(self, request: Request) -> ClientView:
        """The browser's scheme, host and address (through the trusted proxies)."""
        return client_view(request, self.trusted)

    async def admin_principal(self, request: Request, credential: str) -> Principal | bool | None:
        """``API_TOKEN`` or an API key: its principal; ``None`` unknown; ``False`` a key without admin."""
        assert self.signer is not None
        if self.signer.token_matches(credential):
            return Principal(key_id=key_store.BOOTSTRAP_KEY_ID, scopes=frozenset({ADMIN}), user_id=None,
                             name="API_TOKEN")
        resolver = getattr(request.app.state, "key_resolver", None)
        principal = await resolver(credential) if resolver is not None else None
        if principal is None:
            return None
        if ADMIN not in principal.scopes or principal.user_id is not None:
            return False
        return principal

    def db(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(session, ...)`` in a thread, in one committed unit of work (an awaitable)."""
        def run() -> Any:
            from core.storage.db import transaction

            with transaction(self.services.tools.sessions) as session:
                return fn(session, *args, **kwargs)
        return run_in_threadpool(run)

    def audit(self, action: str, outcome: str, request: Request, actor: str, target: str | None = None,
              detail: dict[str, Any] | None = None) -> Any:
        """Write an audit log entry (an awaitable) with the client's address."""
        client = self.view(request).client
        return self.db(lambda session: key_store.audit(session, actor, action, outcome, target=target,
                                                       client=client, detail=detail))

    def render(self, request: Request, name: str, status: int = 200, session: ConsoleSession | None = None,
               **context: Any) -> HTMLResponse:
        """A page; with a ``session``, its forms carry the session's CSRF token."""
        csrf = self.signer.csrf_token(session) if self.signer is not None and session is not None else None
        return render_template(request, name, status, csrf, session is not None, **context)

    def error_page(self, request: Request, exc: InputError, session: ConsoleSession | None, status: int = 422,
                   title: str = "Refused") -> HTMLResponse:
        return self.render(request, "error.html", status, session, title=title,
                           error={"code": exc.code, "message": exc.message, "field": exc.field})

    def unknown_user(self, request: Request, session: ConsoleSession, user_id: str) -> HTMLResponse:
        return self.render(request, "error.html", 404, session, title="Unknown user",
                           error={"code": "user_not_found", "message": f"no user {user_id!r}",
                                  "field": "user_id"})

    async def current(self, request: Request) -> ConsoleSession:
        """The caller's live session (an admin bearer header counts as one); ``Unauthenticated`` else."""
        if self.signer is None:
            raise Unauthenticated
        session = self.signer.verify(request.cookies.get(COOKIE_NAME))
        if session is not None:
            key_id = await self.db(key_store.console_session_key, session.nonce)
            if key_id is not None:
                return ConsoleSession(session.issued, session.nonce, key_id)
        header = request.headers.getlist("authorization")
        if len(header) == 1:
            scheme, _, credentials = header[0].partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                principal = await self.admin_principal(request, credentials.strip())
                if isinstance(principal, Principal):
                    return ConsoleSession(0, "bearer", principal.key_id)
        raise Unauthenticated

    def csrf_ok(self, session: ConsoleSession, token: str) -> bool:
        return self.signer is not None and self.signer.csrf_ok(session, token)


def console_of(request: Request) -> ConsoleContext:
    """The app's console context (``app.state.console``)."""
    ctx: ConsoleContext = request.app.state.console
    return ctx


def actor_of(session: ConsoleSession) -> str:
    """The audit log's actor for a console session."""
    return f"console:{session.key_id}"


def path_user(request: Request) -> str:
    """The ``{user_id}`` of the path, validated like the REST API's (``InputError`` else)."""
    return validate(UserPath, [("user_id", request.path_params["user_id"])]).user_id


async def read_form(request: Request, model: type[Any]) -> Any:
    """The url-encoded form of the request validated as ``model`` (``InputError`` else)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise InputError("malformed_form", "expected an application/x-www-form-urlencoded form")
    return validate(model, form_pairs(await request.body()))


def guarded(handler: PageHandler) -> Callable[[Request], Awaitable[Response]]:
    """The route for a page handler that needs a console session (see the module doc)."""
    async def wrapper(request: Request) -> Response:
        ctx = console_of(request)
        if ctx.signer is None:
            return ctx.render(request, "disabled.html", 503)
        try:
            session = await ctx.current(request)
        except Unauthenticated:
            return ctx.render(request, "login.html", 401, next_path=request.url.path)
        try:
            return await handler(request, session)
        except InputError as exc:
            return ctx.error_page(request, exc, session)
    wrapper.__name__ = handler.__name__
    wrapper.__doc__ = handler.__doc__
    return wrapper
