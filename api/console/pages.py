"""The console's read pages: users, a user's memories, messages and episodes, a memory with its history,
the audit log, and the search that runs one question through ``dense``, ``full_inject`` and the lexical
path of the API's own ``Retriever`` side by side. Filters and paging are in SQL (``core.memory.browse``);
a refused input renders the REST API's code and message (422); an unknown user or memory is 404."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from api.console.context import console_of, guarded, path_user
from api.console.forms import (
    AuditQuery,
    EpisodesQuery,
    InputError,
    MemoriesQuery,
    MessagesQuery,
    SearchQuery,
    UsersQuery,
    validate,
)
from api.console.session import ConsoleSession
from api.console.templating import PREFIX, link
from core import keys as key_store
from core.config import RetrieveMode
from core.memory import browse
from core.memory.browse import MemoryFilter
from core.types import MemoryType, MessageStatus, VectorStatus

PAGE_SIZE = 50

router = APIRouter(prefix=PREFIX, include_in_schema=False)


@router.get("")
@router.get("/")
@guarded
async def home(request: Request, session: ConsoleSession) -> Response:
    return RedirectResponse(PREFIX + "/users", status_code=303)


@router.get("/users")
@guarded
async def users(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
    q = validate(UsersQuery, request.query_params.multi_items())
    page = await ctx.db(browse.list_users, prefix=q.q, page=q.page, page_size=PAGE_SIZE)
    return ctx.render(request, "users.html", session=session, page=page, q=q, cap=browse.COUNT_CAP,
                      link=lambda p: link(PREFIX + "/users", q=q.q, page=p))


@router.get("/users/{user_id}/memories")
@guarded
async def memories(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
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
    page = await ctx.db(load)
    if page is None:
        return ctx.unknown_user(request, session, user_id)
    params = {"memory_type": q.memory_type.value if q.memory_type else None, "active": q.active,
              "vector_status": q.vector_status.value if q.vector_status else None, "key": q.key}
    return ctx.render(request, "memories.html", session=session, user_id=user_id, page=page, q=q,
                      memory_types=list(MemoryType),
                      vector_statuses=list(VectorStatus),
                      link=lambda p: link(f"{PREFIX}/users/{user_id}/memories", **params, page=p))


@router.get("/memories/{memory_id}")
@guarded
async def memory(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
    raw = request.path_params["memory_id"]
    if not (raw.isascii() and raw.isdigit() and 0 < int(raw) < 2**31):
        raise InputError("invalid_field", "memory id must be a positive integer", "memory_id")

    def load(s: Any) -> Any:
        row = browse.get_memory(s, int(raw))
        return None if row is None else (row, browse.memory_history(s, row.id))
    loaded = await ctx.db(load)
    if loaded is None:
        return ctx.render(request, "error.html", 404, session, title="Unknown memory",
                          error={"code": "memory_not_found", "message": f"no memory {raw}",
                                 "field": "memory_id"})
    row, history = loaded
    return ctx.render(request, "memory.html", session=session, m=row, history=history)


@router.get("/users/{user_id}/messages")
@guarded
async def messages(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
    user_id = path_user(request)
    q = validate(MessagesQuery, request.query_params.multi_items())

    def load(s: Any) -> Any:
        pk = browse.find_user_pk(s, user_id)
        if pk is None:
            return None
        status = q.status.value if q.status else None
        return browse.list_messages(s, pk, status=status, page=q.page, page_size=PAGE_SIZE)
    page = await ctx.db(load)
    if page is None:
        return ctx.unknown_user(request, session, user_id)
    return ctx.render(request, "messages.html", session=session, user_id=user_id, page=page, q=q,
                      statuses=list(MessageStatus),
                      link=lambda p: link(f"{PREFIX}/users/{user_id}/messages",
                                          status=q.status.value if q.status else None, page=p))


@router.get("/users/{user_id}/episodes")
@guarded
async def episodes(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
    user_id = path_user(request)
    q = validate(EpisodesQuery, request.query_params.multi_items())

    def load(s: Any) -> Any:
        pk = browse.find_user_pk(s, user_id)
        if pk is None:
            return None
        return browse.list_episodes(s, pk, page=q.page, page_size=PAGE_SIZE)
    page = await ctx.db(load)
    if page is None:
        return ctx.unknown_user(request, session, user_id)
    return ctx.render(request, "episodes.html", session=session, user_id=user_id, page=page, q=q,
                      link=lambda p: link(f"{PREFIX}/users/{user_id}/episodes", page=p))


@router.get("/audit")
@guarded
async def audit_page(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
    q = validate(AuditQuery, request.query_params.multi_items())
    entries = await ctx.db(key_store.recent_audit, PAGE_SIZE + 1, (q.page - 1) * PAGE_SIZE)
    return ctx.render(request, "audit.html", session=session, entries=entries[:PAGE_SIZE], page=q.page,
                      more=len(entries) > PAGE_SIZE, utc=UTC, link=lambda p: link(PREFIX + "/audit", page=p))


@router.get("/search")
@guarded
async def search(request: Request, session: ConsoleSession) -> Response:
    ctx = console_of(request)
    q = validate(SearchQuery, request.query_params.multi_items())
    results: list[tuple[str, Any]] = []
    if q.user_id and q.question:
        request.app.state.rate_limits["user"].check(q.user_id)
        retriever = ctx.services.retriever
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
    return ctx.render(request, "search.html", session=session, q=q, results=results)
