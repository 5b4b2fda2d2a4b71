"""The operator console: server-rendered pages (Jinja2) under ``/console`` in the API process.

Screens: users; a user's memories (type, key, importance, confidence, TTL/expiry, active flag, vector
status; filters and paging in SQL, ``core.memory.browse``); a memory's history with the source
messages; a user's messages with their memory status; a user's episodes (passages of what they said,
``core.episodes``, with message, conversation, expiry and vector status); operations (outbox
backlog, consumer lag per group, dead letters per group with a re-drive, ``consumers.ops``); a search
that runs one question through ``dense``, ``full_inject`` and the lexical path of the API's own
``Retriever`` side by side, with the rerank scores.

Access: admin only. The console needs ``API_TOKEN`` (without it every page says so, 503; it also
signs the cookies). The operator enters ``API_TOKEN`` or an API key with the ``admin`` scope in the
login form; a key without it is refused (403). A signed session cookie follows, backed by a
server-side session row (``api.console.session``): logout revokes it for every process. A request
with the API's ``Authorization: Bearer`` header (an admin credential) is accepted too.
Behind a reverse proxy (``CONSOLE_TRUSTED_PROXIES``, ``api.console.proxy``) the login's Origin check and the
cookie's ``Secure`` flag follow the browser's scheme and host. Failed logins are rate-limited per
client address (``CONSOLE_LOGIN_FAILURES_PER_MIN``; over it 429 with ``Retry-After``) and each is
answered after ``CONSOLE_LOGIN_FAILURE_DELAY_SEC``. Logins (success and failure), re-drives and key
changes are in the audit log (``/console/audit``). Pages answer 401 (login form) without a
valid session; every state-changing request is a POST with a CSRF token. Inputs are validated like
the REST API's (``api.console.forms``): a refused input renders the same code and message, 422, and
writes nothing. Responses are ``no-store`` and carry a strict Content-Security-Policy (no scripts).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from api.console.forms import (
    AuditQuery,
    CsrfForm,
    EpisodesQuery,
    InputError,
    LoginForm,
    MemoriesQuery,
    MessagesQuery,
    OpsQuery,
    RedriveForm,
    SearchQuery,
    UserPath,
    UsersQuery,
    form_pairs,
    validate,
)
from api.console.proxy import ClientView, client_view, normalise_origin, parse_trusted
from api.console.session import COOKIE_NAME, COOKIE_PATH, SESSION_MAX_AGE_SEC, ConsoleSession, SessionSigner
from api.keys import ADMIN, Principal
from api.ratelimit import KeyedRateLimiter, retry_after_header
from core import keys as key_store
from core.config import RetrieveMode, Settings
from core.memory import browse
from core.memory.browse import MemoryFilter
from core.types import MemoryType, MessageStatus, VectorStatus

if TYPE_CHECKING:
    from api.app import ApiServices

PREFIX = "/console"
PAGE_SIZE = 50
DLQ_SHOWN = 20
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # "no-referrer" makes browsers send "Origin: null" on POST
    "cache-control": "no-store",
}

_templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

# bidirectional control characters (U+202E RIGHT-TO-LEFT OVERRIDE...) in user text would reorder what
# the operator reads ("gnp.exe" shown as "exe.png"): every value a template prints shows them as a
# visible "[U+202E]" instead (issue 26)
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI_VISIBLE = {ord(ch): f"[U+{ord(ch):04X}]" for ch in BIDI_CONTROLS}


def neutralise_bidi(value: Any) -> Any:
    """``value`` with bidi control characters made visible (Markup stays Markup, other types as is)."""
    if isinstance(value, Markup):
        return Markup(str(value).translate(_BIDI_VISIBLE))
    if isinstance(value, str):
        return value.translate(_BIDI_VISIBLE)
    return value


_templates.env.finalize = neutralise_bidi


CSRF_FAILED = InputError("csrf_failed", "the form's CSRF token is missing or wrong; reload the page", "csrf")


class _Unauthenticated(Exception):
    pass


def install_console(app: FastAPI, settings: Settings, services: ApiServices, token: str | None) -> None:
    """Add the console's routes to ``app`` (the bearer middleware must exempt ``PREFIX``)."""
    signer = SessionSigner(token) if token else None
    router = APIRouter(prefix=PREFIX, include_in_schema=False)
    trusted = parse_trusted(settings.CONSOLE_TRUSTED_PROXIES)
    failures = KeyedRateLimiter("console_login", settings.CONSOLE_LOGIN_FAILURES_PER_MIN / 60.0,
                                max(1, int(settings.CONSOLE_LOGIN_FAILURES_PER_MIN)))
    app.state.console_login_failures = failures

    def view(request: Request) -> ClientView:
        return client_view(request, trusted)

    async def admin_principal(credential: str) -> Principal | bool | None:
        """``API_TOKEN`` or an API key: its principal; ``None`` unknown; ``False`` a key without admin."""
        assert signer is not None
        if signer.token_matches(credential):
            return Principal(key_id=key_store.BOOTSTRAP_KEY_ID, scopes=frozenset({ADMIN}), user_id=None,
                             name="API_TOKEN")
        resolver = getattr(app.state, "key_resolver", None)
        principal = await resolver(credential) if resolver is not None else None
        if principal is None:
            return None
        if ADMIN not in principal.scopes or principal.user_id is not None:
            return False
        return principal

    def audit(action: str, outcome: str, request: Request, actor: str, target: str | None = None,
              detail: dict[str, Any] | None = None) -> Any:
        client = view(request).client

        def write() -> None:
            from core.storage.db import transaction

            with transaction(services.tools.sessions) as session:
                key_store.audit(session, actor, action, outcome, target=target, client=client, detail=detail)
        return run_in_threadpool(write)

    def actor_of(session: ConsoleSession) -> str:
        return f"console:{session.key_id}"

    def render(request: Request, name: str, status: int = 200, session: ConsoleSession | None = None,
               **context: Any) -> HTMLResponse:
        csrf = signer.csrf_token(session) if signer is not None and session is not None else None
        values = {"csrf": csrf, "logged_in": session is not None, "prefix": PREFIX, **context}
        response = _templates.TemplateResponse(request, name, values, status_code=status)
        response.headers.update(SECURITY_HEADERS)
        return response

    def error_page(request: Request, exc: InputError, session: ConsoleSession | None, status: int = 422,
                   title: str = "Refused") -> HTMLResponse:
        return render(request, "error.html", status, session, title=title,
                      error={"code": exc.code, "message": exc.message, "field": exc.field})

    def unknown_user(request: Request, session: ConsoleSession, user_id: str) -> HTMLResponse:
        return render(request, "error.html", 404, session, title="Unknown user",
                      error={"code": "user_not_found", "message": f"no user {user_id!r}", "field": "user_id"})

    async def current(request: Request) -> ConsoleSession:
        """The caller's live session (an admin bearer header counts as one); ``_Unauthenticated`` else."""
        if signer is None:
            raise _Unauthenticated
        session = signer.verify(request.cookies.get(COOKIE_NAME))
        if session is not None:
            key_id = await db(key_store.console_session_key, session.nonce)
            if key_id is not None:
                return ConsoleSession(session.issued, session.nonce, key_id)
        header = request.headers.getlist("authorization")
        if len(header) == 1:
            scheme, _, credentials = header[0].partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                principal = await admin_principal(credentials.strip())
                if isinstance(principal, Principal):
                    return ConsoleSession(0, "bearer", principal.key_id)
        raise _Unauthenticated

    def guarded(handler: Any) -> Any:
        async def wrapper(request: Request) -> Response:
            if signer is None:
                return render(request, "disabled.html", 503)
            try:
                session = await current(request)
            except _Unauthenticated:
                return render(request, "login.html", 401, next_path=request.url.path)
            try:
                result: Response = await handler(request, session)
                return result
            except InputError as exc:
                return error_page(request, exc, session)
        wrapper.__name__ = handler.__name__
        return wrapper

    def path_user(request: Request) -> str:
        return validate(UserPath, [("user_id", request.path_params["user_id"])]).user_id

    async def read_form(request: Request, model: type[Any]) -> Any:
        kind = request.headers.get("content-type", "").split(";")[0].strip()
        if kind != "application/x-www-form-urlencoded":
            raise InputError("malformed_form", "expected an application/x-www-form-urlencoded form")
        return validate(model, form_pairs(await request.body()))

    def db(fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(session, ...)`` in a thread, in one committed unit of work."""
        def run() -> Any:
            from core.storage.db import transaction

            with transaction(services.tools.sessions) as session:
                return fn(session, *args, **kwargs)
        return run_in_threadpool(run)

    # --- login / logout ---------------------------------------------------------------------------
    @router.get("/login")
    async def login_page(request: Request) -> Response:
        if signer is None:
            return render(request, "disabled.html", 503)
        return render(request, "login.html", next_path=PREFIX + "/users")

    @router.post("/login")
    async def login(request: Request) -> Response:
        if signer is None:
            return render(request, "disabled.html", 503)
        seen = view(request)
        origin = request.headers.get("origin")
        if origin is not None and normalise_origin(origin) != seen.origin:
            return render(request, "login.html", 403, login_error="cross-site login refused")
        client = seen.client or "unknown"
        blocked = failures.wait(client)
        if blocked > 0:
            await audit("console.login", "denied", request, "console:unknown",
                        detail={"reason": "too many failed logins"})
            response = render(request, "login.html", 429,
                              login_error="too many failed logins from this address; try again later")
            response.headers["retry-after"] = retry_after_header(blocked)
            return response
        try:
            form = await read_form(request, LoginForm)
        except InputError as exc:
            return render(request, "login.html", 422, login_error=exc.message)
        principal = await admin_principal(form.token)
        if not isinstance(principal, Principal):
            failures.acquire(client)  # counts the failure; the next attempt over the limit gets 429
            await asyncio.sleep(settings.CONSOLE_LOGIN_FAILURE_DELAY_SEC)
            lacks = principal is False
            await audit("console.login", "failed", request, "console:unknown",
                        detail={"reason": "key without the admin scope" if lacks else "wrong token"})
            if lacks:
                return render(request, "login.html", 403, login_error="this key lacks the admin scope")
            return render(request, "login.html", 401, login_error="wrong token")
        value = signer.issue()
        nonce = value.split(".")[2]
        expires = datetime.now(UTC) + timedelta(seconds=SESSION_MAX_AGE_SEC)
        await db(key_store.open_console_session, nonce, principal.key_id, expires)
        await audit("console.login", "ok", request, f"console:{principal.key_id}",
                    detail={"key": principal.name})
        redirect = RedirectResponse(PREFIX + "/users", status_code=303)
        redirect.set_cookie(COOKIE_NAME, value, max_age=SESSION_MAX_AGE_SEC, path=COOKIE_PATH,
                            httponly=True, samesite="strict", secure=seen.secure)
        redirect.headers.update(SECURITY_HEADERS)
        return redirect

    @router.post("/logout")
    @guarded
    async def logout(request: Request, session: ConsoleSession) -> Response:
        form = await read_form(request, CsrfForm)
        if not signer or not signer.csrf_ok(session, form.csrf):
            raise CSRF_FAILED
        if session.nonce != "bearer":
            await db(key_store.revoke_console_session, session.nonce)
        await audit("console.logout", "ok", request, actor_of(session))
        response = RedirectResponse(PREFIX + "/login", status_code=303)
        response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, httponly=True, samesite="strict",
                               secure=view(request).secure)
        return response

    # --- pages ------------------------------------------------------------------------------------
    @router.get("")
    @router.get("/")
    @guarded
    async def home(request: Request, session: ConsoleSession) -> Response:
        return RedirectResponse(PREFIX + "/users", status_code=303)

    @router.get("/users")
    @guarded
    async def users(request: Request, session: ConsoleSession) -> Response:
        q = validate(UsersQuery, request.query_params.multi_items())
        page = await db(browse.list_users, prefix=q.q, page=q.page, page_size=PAGE_SIZE)
        return render(request, "users.html", session=session, page=page, q=q, cap=browse.COUNT_CAP,
                      link=lambda p: _link(PREFIX + "/users", q=q.q, page=p))

    @router.get("/users/{user_id}/memories")
    @guarded
    async def memories(request: Request, session: ConsoleSession) -> Response:
        user_id = path_user(request)
        q = validate(MemoriesQuery, request.query_params.multi_items())
        flt = MemoryFilter(q.memory_type.value if q.memory_type else None,
                           {"all": None, "active": True, "inactive": False}[q.active],
                           q.vector_status.value if q.vector_status else None, q.key)

        def load(s: Any) -> Any:
            pk = browse.find_user_pk(s, user_id)
            if pk is None:
                return None
            return browse.list_memories(s, pk, user_id, flt, page=q.page, page_size=PAGE_SIZE)
        page = await db(load)
        if page is None:
            return unknown_user(request, session, user_id)
        params = {"memory_type": q.memory_type.value if q.memory_type else None, "active": q.active,
                  "vector_status": q.vector_status.value if q.vector_status else None, "key": q.key}
        return render(request, "memories.html", session=session, user_id=user_id, page=page, q=q,
                      memory_types=list(MemoryType),
                      vector_statuses=list(VectorStatus),
                      link=lambda p: _link(f"{PREFIX}/users/{user_id}/memories", **params, page=p))

    @router.get("/memories/{memory_id}")
    @guarded
    async def memory(request: Request, session: ConsoleSession) -> Response:
        raw = request.path_params["memory_id"]
        if not (raw.isascii() and raw.isdigit() and 0 < int(raw) < 2**31):
            raise InputError("invalid_field", "memory id must be a positive integer", "memory_id")

        def load(s: Any) -> Any:
            row = browse.get_memory(s, int(raw))
            return None if row is None else (row, browse.memory_history(s, row.id))
        loaded = await db(load)
        if loaded is None:
            return render(request, "error.html", 404, session, title="Unknown memory",
                          error={"code": "memory_not_found", "message": f"no memory {raw}",
                                 "field": "memory_id"})
        row, history = loaded
        return render(request, "memory.html", session=session, m=row, history=history)

    @router.get("/users/{user_id}/messages")
    @guarded
    async def messages(request: Request, session: ConsoleSession) -> Response:
        user_id = path_user(request)
        q = validate(MessagesQuery, request.query_params.multi_items())

        def load(s: Any) -> Any:
            pk = browse.find_user_pk(s, user_id)
            if pk is None:
                return None
            status = q.status.value if q.status else None
            return browse.list_messages(s, pk, status=status, page=q.page, page_size=PAGE_SIZE)
        page = await db(load)
        if page is None:
            return unknown_user(request, session, user_id)
        return render(request, "messages.html", session=session, user_id=user_id, page=page, q=q,
                      statuses=list(MessageStatus),
                      link=lambda p: _link(f"{PREFIX}/users/{user_id}/messages",
                                           status=q.status.value if q.status else None, page=p))

    @router.get("/users/{user_id}/episodes")
    @guarded
    async def episodes(request: Request, session: ConsoleSession) -> Response:
        user_id = path_user(request)
        q = validate(EpisodesQuery, request.query_params.multi_items())

        def load(s: Any) -> Any:
            pk = browse.find_user_pk(s, user_id)
            if pk is None:
                return None
            return browse.list_episodes(s, pk, page=q.page, page_size=PAGE_SIZE)
        page = await db(load)
        if page is None:
            return unknown_user(request, session, user_id)
        return render(request, "episodes.html", session=session, user_id=user_id, page=page, q=q,
                      link=lambda p: _link(f"{PREFIX}/users/{user_id}/episodes", page=p))

    async def ops_page(request: Request, session: ConsoleSession, status: int = 200,
                       notice: str | None = None, error: dict[str, Any] | None = None) -> Response:
        from consumers import ops

        backlog = await db(browse.outbox_backlog)
        lags = await run_in_threadpool(ops.consumer_lag, settings)
        dead: dict[str, Any] = {}
        for group in ops.group_topics(settings):
            try:
                dead[group] = await run_in_threadpool(ops.read_dead_letters, settings, group, DLQ_SHOWN)
            except ops.OpsError as exc:
                dead[group] = str(exc)
        return render(request, "ops.html", status, session, backlog=backlog, lags=lags, dead=dead,
                      dlq_topic=settings.dlq_topic, notice=notice, error=error)

    @router.get("/ops")
    @guarded
    async def operations(request: Request, session: ConsoleSession) -> Response:
        q = validate(OpsQuery, request.query_params.multi_items())
        notice = None
        if q.redriven_from and q.redriven_to:
            (src, sp, so), (dst, dp, do) = (ref.rsplit(":", 2) for ref in (q.redriven_from, q.redriven_to))
            notice = f"re-drove {src} partition {sp} offset {so} to {dst} partition {dp} offset {do}"
        return await ops_page(request, session, notice=notice)

    @router.post("/ops/redrive")
    @guarded
    async def redrive(request: Request, session: ConsoleSession) -> Response:
        from consumers import ops

        form = await read_form(request, RedriveForm)
        if signer is None or not signer.csrf_ok(session, form.csrf):
            raise CSRF_FAILED
        target = f"{form.group} partition {form.partition} offset {form.offset}"
        try:
            done = await run_in_threadpool(ops.redrive_dead_letter, settings, form.group, form.partition,
                                           form.offset)
        except ops.RedriveRefused as exc:
            await audit("dlq.redrive", "failed", request, actor_of(session), target,
                        {"reason": str(exc)[:200]})
            return await ops_page(request, session, 422,
                                  error={"code": "redrive_refused", "message": str(exc), "field": None})
        except ops.OpsError as exc:
            await audit("dlq.redrive", "failed", request, actor_of(session), target, {"reason": "kafka"})
            return await ops_page(request, session, 503,
                                  error={"code": "kafka_unavailable", "message": str(exc), "field": None})
        await audit("dlq.redrive", "ok", request, actor_of(session), target,
                    {"to": f"{done.topic}:{done.partition}:{done.offset}"})
        # Post/redirect/get: reloading the result page must not re-drive the record again.
        dead = done.dead_letter
        return RedirectResponse(_link(f"{PREFIX}/ops",
                                      redriven_from=f"{dead.topic}:{dead.partition}:{dead.offset}",
                                      redriven_to=f"{done.topic}:{done.partition}:{done.offset}"),
                                status_code=303)

    @router.get("/audit")
    @guarded
    async def audit_page(request: Request, session: ConsoleSession) -> Response:
        q = validate(AuditQuery, request.query_params.multi_items())
        entries = await db(key_store.recent_audit, PAGE_SIZE + 1, (q.page - 1) * PAGE_SIZE)
        return render(request, "audit.html", session=session, entries=entries[:PAGE_SIZE], page=q.page,
                      more=len(entries) > PAGE_SIZE, utc=UTC, link=lambda p: _link(PREFIX + "/audit", page=p))

    @router.get("/search")
    @guarded
    async def search(request: Request, session: ConsoleSession) -> Response:
        q = validate(SearchQuery, request.query_params.multi_items())
        results: list[tuple[str, Any]] = []
        if q.user_id and q.question:
            request.app.state.rate_limits["user"].check(q.user_id)
            retriever = services.retriever
            results = [
                ("dense", await run_in_threadpool(retriever.retrieve, q.user_id, q.question, None,
                                                  RetrieveMode.DENSE, q.limit)),
                ("full_inject", await run_in_threadpool(retriever.retrieve, q.user_id, q.question, None,
                                                        RetrieveMode.FULL_INJECT, q.limit)),
                ("lexical", await run_in_threadpool(retriever.retrieve_lexical, q.user_id, q.question, None,
                                                    q.limit)),
            ]
        elif q.question:  # a user id alone only fills in the form (links from the user pages)
            raise InputError("missing_field", "Field required", "user_id")
        return render(request, "search.html", session=session, q=q, results=results)

    app.include_router(router)


def _link(path: str, **params: Any) -> str:
    kept = {k: v for k, v in params.items() if v not in (None, "") and not (k == "page" and v == 1)}
    return path + ("?" + urlencode(kept) if kept else "")

