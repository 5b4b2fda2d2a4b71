"""A user's data: ``GET /v1/users/{user_id}/export``, ``DELETE /v1/users/{user_id}``, ``GET /v1/jobs/{id}``.

Both user routes need the ``admin`` scope or a key bound to that user. The export is one JSON document
(``schemas/export.schema.json``) streamed in chunks from server-side cursors, so a large user costs
bounded memory. The erasure is an asynchronous job (``core.jobs``): 202 with the job id at once;
``GET /v1/jobs/{id}`` returns its status and, once done, the proof (rows removed per table, vectors
removed, what is left, the topics left to expire by retention, a search that found nothing).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from api.deps import Caller, authorize_user_data, db_read, jobs_of, services_of, user_limit
from api.keys import ADMIN, READ, WRITE, ForbiddenScope, Principal
from api.models import ERROR_RESPONSES, ID_PATTERN, ErrorResponse, error_body
from core.jobs import JobNotFound, erasable
from core.memory import browse
from schemas.export import EXPORT_FORMAT, UserExport

router = APIRouter(tags=["users"])

UserPath = Annotated[str, Path(pattern=ID_PATTERN, description="the user's external id",
                               examples=["user-42"])]
JobPath = Annotated[str, Path(pattern=r"^[0-9a-f-]{36}$", description="the job id from DELETE /v1/users")]
USER_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorResponse, "description": "no such user (`user_not_found`)"}}
FORBIDDEN: dict[int | str, dict[str, Any]] = {403: {"model": ErrorResponse,
                   "description": "needs the `admin` scope or a key bound to this user (`forbidden_scope`, "
                                  "`forbidden_user`)"}}
CHUNK_BYTES = 64 * 1024


class JobAccepted(BaseModel):
    job_id: str
    status: str = Field(description="pending or running (an open job of the same user is reused)")
    status_url: str


class JobOut(BaseModel):
    id: str
    kind: str = Field(description="erase_user")
    status: str = Field(description="pending, running, done (proof ok) or failed")
    requested_by: str
    attempts: int
    result: dict[str, Any] | None = Field(description="the erasure proof: deleted, milvus_deleted, "
                                          "remaining, "
                                          ""
                                          "milvus_remaining (all zero), kafka_topics_left_to_retention, "
                                          "search.items_found (zero), ok")
    error: str | None
    created_at: str | None
    started_at: str | None
    finished_at: str | None


def _actor(principal: Principal) -> str:
    return f"{principal.name} ({principal.key_id})"


def _user_not_found(user_id: str) -> JSONResponse:
    return JSONResponse(error_body("user_not_found", f"no user {user_id!r}", "user_id"), 404)


def export_chunks(sessions: Callable[[], Any], user_id: str) -> Iterator[bytes]:
    """The export document of ``user_id`` (``schemas.export.UserExport``) in chunks of about
    ``CHUNK_BYTES``, read through server-side cursors (shared with MCP)."""

    def generate() -> Iterator[str]:
        with sessions() as session:
            pk = browse.find_user_pk(session, user_id)
            head = {"format": EXPORT_FORMAT, "user_id": user_id, "exported_at": datetime.now(UTC).isoformat()}
            yield json.dumps(head, ensure_ascii=False)[:-1]
            for name, rows in (("memories", browse.iter_user_memories),
                               ("history", browse.iter_user_history),
                               ("messages", browse.iter_user_messages)):
                yield f', "{name}": ['
                if pk is not None:
                    for i, item in enumerate(rows(session, pk)):
                        yield ("," if i else "") + json.dumps(item, ensure_ascii=False)
                yield "]"
            yield "}"

    buffer: list[str] = []
    size = 0
    for piece in generate():
        buffer.append(piece)
        size += len(piece)
        if size >= CHUNK_BYTES:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    yield "".join(buffer).encode("utf-8")


@router.get("/v1/users/{user_id}/export", response_model=UserExport,
            responses={**ERROR_RESPONSES, **USER_NOT_FOUND, **FORBIDDEN,
                       200: {"description": "the user's data, streamed (chunked)"}})
def export_user(request: Request, user_id: UserPath,
                principal: Caller) -> Any:
    """Everything held about the user in PostgreSQL (memories, history, stored messages) as one JSON
    document (``schemas/export.schema.json``), streamed."""
    authorize_user_data(principal, READ, user_id)
    user_limit(request, user_id)
    if db_read(request, lambda s: browse.find_user_pk(s, user_id)) is None:
        return _user_not_found(user_id)
    chunks = export_chunks(services_of(request).tools.sessions, user_id)
    return StreamingResponse(chunks, media_type="application/json",
                             headers={"content-disposition": f'attachment; filename="{user_id}.json"'})


@router.delete("/v1/users/{user_id}", status_code=202, response_model=JobAccepted,
               responses={**ERROR_RESPONSES, **USER_NOT_FOUND, **FORBIDDEN})
def erase_user(request: Request, user_id: UserPath,
               principal: Caller) -> Any:
    """Erase the user everywhere (what ``pai-memory forget-user`` does) as an asynchronous job: 202 with
    the job id; poll ``GET /v1/jobs/{id}`` for the proof. A user erased before may be erased again (the
    job re-checks the proof)."""
    authorize_user_data(principal, WRITE, user_id)
    if not db_read(request, lambda s: erasable(s, user_id)):
        return _user_not_found(user_id)
    jobs = jobs_of(request)
    job, _created = jobs.store.request_erasure(user_id, _actor(principal))
    jobs.worker.wake()
    url = f"/v1/jobs/{job.id}"
    return JSONResponse({"job_id": job.id, "status": job.status, "status_url": url}, 202,
                        headers={"location": url})


@router.get("/v1/jobs/{job_id}", response_model=JobOut,
            responses={**ERROR_RESPONSES, **FORBIDDEN,
                       404: {"model": ErrorResponse, "description": "no such job (`job_not_found`)"}})
def get_job(request: Request, job_id: JobPath,
            principal: Caller) -> Any:
    """A job's status and result (for an erasure: the proof). Needs ``admin`` or the key that asked."""
    try:
        job = jobs_of(request).store.get(job_id)
    except JobNotFound:
        job = None
    if not principal.has(ADMIN) and (job is None or job.requested_by != _actor(principal)):
        raise ForbiddenScope("this key lacks the 'admin' scope")
    if job is None:
        return JSONResponse(error_body("job_not_found", f"no job {job_id!r}", "job_id"), 404)
    return job.as_dict()
