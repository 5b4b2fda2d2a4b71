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

Modules: ``context`` (the ``ConsoleContext`` on ``app.state.console``, ``guarded``), ``templating``
(templates, security headers, links), and one router per group of pages: ``login`` (login, logout),
``pages`` (users, memories, a memory, messages, episodes, audit, search), ``ops_pages`` (operations,
re-drive). Each page is a named handler; a test can mount one router on a minimal app after
``attach_console``.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

from api.console import login, ops_pages, pages
from api.console.context import ConsoleContext
from api.console.templating import PREFIX
from api.services import ApiServices
from core.config import Settings

__all__ = ["PREFIX", "ROUTERS", "attach_console", "install_console"]

ROUTERS: tuple[APIRouter, ...] = (login.router, pages.router, ops_pages.router)


def attach_console(app: FastAPI, settings: Settings, services: ApiServices,
                   token: str | None) -> ConsoleContext:
    """Put the console's context on ``app.state`` (``console``, ``console_login_failures``); the page
    routers read it from there. The login with an API key uses ``app.state.key_resolver`` when set."""
    ctx = ConsoleContext(settings, services, token)
    app.state.console = ctx
    app.state.console_login_failures = ctx.failures
    return ctx


def install_console(app: FastAPI, settings: Settings, services: ApiServices, token: str | None) -> None:
    """Add the console's routes to ``app`` (the bearer middleware must exempt ``PREFIX``)."""
    attach_console(app, settings, services, token)
    for router in ROUTERS:
        app.include_router(router)
