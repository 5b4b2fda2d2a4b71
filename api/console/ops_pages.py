"""The console's operations page (``GET /console/ops``: outbox backlog, consumer lag per group, the last
dead letters per group, ``consumers.ops``) and the re-drive of one dead letter (``POST
/console/ops/redrive``, CSRF-checked, audited; post/redirect/get so a reload does not re-drive again)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from api.console.context import CSRF_FAILED, actor_of, console_of, guarded, read_form
from api.console.forms import OpsQuery, RedriveForm, validate
from api.console.session import ConsoleSession
from api.console.templating import PREFIX, link
from core.memory import browse

DLQ_SHOWN = 20

router = APIRouter(prefix=PREFIX, include_in_schema=False)


async def ops_page(request: Request, session: ConsoleSession, status: int = 200,
                   notice: str | None = None, error: dict[str, Any] | None = None) -> Response:
    """The operations page with an optional notice (a re-drive done) or error (a re-drive refused)."""
    from consumers import ops

    ctx = console_of(request)
    settings = ctx.settings
    backlog = await ctx.db(browse.outbox_backlog)
    lags = await run_in_threadpool(ops.consumer_lag, settings)
    dead: dict[str, Any] = {}
    for group in ops.group_topics(settings):
        try:
            dead[group] = await run_in_threadpool(ops.read_dead_letters, settings, group, DLQ_SHOWN)
        except ops.OpsError as exc:
            dead[group] = str(exc)
    return ctx.render(request, "ops.html", status, session, backlog=backlog, lags=lags, dead=dead,
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

    ctx = console_of(request)
    form = await read_form(request, RedriveForm)
    if not ctx.csrf_ok(session, form.csrf):
        raise CSRF_FAILED
    target = f"{form.group} partition {form.partition} offset {form.offset}"
    try:
        done = await run_in_threadpool(ops.redrive_dead_letter, ctx.settings, form.group, form.partition,
                                       form.offset)
    except ops.RedriveRefused as exc:
        await ctx.audit("dlq.redrive", "failed", request, actor_of(session), target,
                        {"reason": str(exc)[:200]})
        return await ops_page(request, session, 422,
                              error={"code": "redrive_refused", "message": str(exc), "field": None})
    except ops.OpsError as exc:
        await ctx.audit("dlq.redrive", "failed", request, actor_of(session), target, {"reason": "kafka"})
        return await ops_page(request, session, 503,
                              error={"code": "kafka_unavailable", "message": str(exc), "field": None})
    await ctx.audit("dlq.redrive", "ok", request, actor_of(session), target,
                    {"to": f"{done.topic}:{done.partition}:{done.offset}"})
    # Post/redirect/get: reloading the result page must not re-drive the record again.
    dead = done.dead_letter
    return RedirectResponse(link(f"{PREFIX}/ops",
                                 redriven_from=f"{dead.topic}:{dead.partition}:{dead.offset}",
                                 redriven_to=f"{done.topic}:{done.partition}:{done.offset}"),
                            status_code=303)
