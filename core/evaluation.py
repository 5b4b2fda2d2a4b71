"""The evaluation-case format (MISSION.md) and its scoring, independent of how memories were made.

A case: ``{"id", "lang", "conversation": [{"role","content"}...], "expect": [{"type","any_of"}],
"forbid": [...], "queries": [{"query","expect_any_of","k"}]}``. A turn may also carry ``created_at``
(when it was sent) and ``session`` (turns of another session are another conversation).
- an ``expect`` item holds when a live memory of that type contains one of ``any_of``
  (case-insensitive, in key or content);
- a ``forbid`` term must be in no live memory of the user;
- a query holds when one of its top-k retrieved memories contains one of ``expect_any_of``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator


class Turn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: str
    content: str
    created_at: AwareDatetime | None = None  # when it was sent; absent: the default chat pacing
    session: str = ""  # another session = another conversation of the same user


class Expectation(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: str
    any_of: list[str]


class Query(BaseModel):
    model_config = ConfigDict(extra="ignore")
    query: str
    expect_any_of: list[str]
    k: int = Field(5, ge=1)


class EvalCase(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str
    lang: str = ""
    conversation: list[Turn]
    expect: list[Expectation] = Field(default_factory=list)
    forbid: list[str] = Field(default_factory=list)
    queries: list[Query] = Field(default_factory=list)

    @model_validator(mode="after")
    def _timestamps_in_order(self) -> EvalCase:
        stamps = [t.created_at for t in self.conversation if t.created_at is not None]
        if any(b < a for a, b in pairwise(stamps)):
            raise ValueError("conversation turns' created_at must not go back in time")
        return self


# --- timing: how a chat service would have sent the case ------------------------------------------
# Default pacing of a conversation without timestamps: the assistant answers 8 s after a user
# message, the user writes again 40 s after a reply; two user messages in a row come 6 s apart.
GAP_AFTER_USER_SEC = {"assistant": 8.0, "user": 6.0}
GAP_AFTER_ASSISTANT_SEC = {"assistant": 3.0, "user": 40.0}


@dataclass(frozen=True)
class TimedTurn:
    index: int  # position in ``case.conversation``
    role: str
    content: str
    created_at: datetime
    session: str


def timeline(case: EvalCase, start: datetime) -> list[TimedTurn]:
    """Each turn with the time it was sent: its own ``created_at`` when given, else the previous
    turn's time plus the default pacing (``GAP_AFTER_*``); the first untimed turn is at ``start``.

    Order is kept: a timestamp earlier than the previous turn's (after defaults) is moved up to it.
    """
    out: list[TimedTurn] = []
    prev: TimedTurn | None = None
    for i, turn in enumerate(case.conversation):
        if turn.created_at is not None:
            at = turn.created_at
        elif prev is None:
            at = start
        else:
            gaps = GAP_AFTER_USER_SEC if prev.role == "user" else GAP_AFTER_ASSISTANT_SEC
            at = prev.created_at + timedelta(seconds=gaps.get(turn.role, gaps["assistant"]))
        if prev is not None and at < prev.created_at:
            at = prev.created_at
        prev = TimedTurn(i, turn.role, turn.content, at, turn.session)
        out.append(prev)
    return out


def extraction_bursts(
    turns: Sequence[TimedTurn], debounce_sec: float, max_wait_sec: float | None = None
) -> list[list[TimedTurn]]:
    """Split a timed conversation where the extractor's debounce would: the segments a chat service
    feeding the extractor live would have had extracted one by one.

    Mirrors the extractor group (``consumers/extractor.py``): a burst opens with a user message,
    every later message of the same conversation (assistant replies too) extends it, and it is
    extracted once the conversation has been quiet for ``debounce_sec`` or it has waited
    ``max_wait_sec`` (default ``max(4 * debounce, 30)``) since it opened. A new segment starts at
    each user message that opens a new burst; replies inside a burst stay in its segment, replies
    after it (it was extracted already) go to the start of the next segment, as context.
    """
    max_wait = max_wait_sec if max_wait_sec is not None else max(debounce_sec * 4, 30.0)
    segments: list[list[TimedTurn]] = []
    opened: datetime | None = None  # when the open burst started, None when no burst is open
    last: datetime | None = None
    session: str | None = None
    context_only = False  # the last segment holds replies only so far
    for turn in turns:
        if opened is not None and last is not None and (
            turn.session != session
            or (turn.created_at - last).total_seconds() >= debounce_sec
            or (turn.created_at - opened).total_seconds() >= max_wait
        ):
            opened = None
        if opened is None:
            if not context_only:
                segments.append([])
            context_only = turn.role != "user"
            if turn.role == "user":
                opened = turn.created_at
        segments[-1].append(turn)
        session, last = turn.session, turn.created_at
    return segments


@dataclass(frozen=True)
class MemoryText:
    """What scoring needs of a memory."""

    memory_type: str
    key: str
    content: str

    def contains(self, term: str) -> bool:
        needle = term.casefold()
        return needle in self.key.casefold() or needle in self.content.casefold()


@dataclass
class CaseResult:
    id: str
    lang: str
    expect_hits: list[bool] = field(default_factory=list)
    forbid_violations: list[str] = field(default_factory=list)
    query_hits: list[bool] = field(default_factory=list)
    memories: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(self.expect_hits) and not self.forbid_violations and all(self.query_hits)


# The behaviour categories a case id names (issue 24): ``zh-pref-001``, ``ho-zh-pref-01``, ``mix-update-007``.
CATEGORIES = (
    "pref", "fact", "goal", "proj", "cons", "multi", "noise", "update", "forget", "halluc", "boundary",
)


def case_category(case_id: str) -> str | None:
    """The category a case id names: the first ``-``-separated part that is one of ``CATEGORIES``
    (so a prefix such as ``ho-`` does not shift it); ``None`` when no part is one."""
    return next((part for part in case_id.casefold().split("-") if part in CATEGORIES), None)


def load_cases(path: Path) -> list[EvalCase]:
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                cases.append(EvalCase.model_validate_json(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not an evaluation case: {exc}") from None
    return cases


def score_case(
    case: EvalCase, memories: Sequence[MemoryText], retrieved: Sequence[Sequence[MemoryText]]
) -> CaseResult:
    """Score one case: its user's live memories and, per query, the retrieved memories in rank order."""
    result = CaseResult(
        case.id, case.lang, memories=[f"[{m.memory_type}] {m.key}: {m.content}" for m in memories]
    )
    for exp in case.expect:
        result.expect_hits.append(
            any(m.memory_type == exp.type and any(m.contains(t) for t in exp.any_of) for m in memories)
        )
    result.forbid_violations = [t for t in case.forbid if any(m.contains(t) for m in memories)]
    for query, items in zip(case.queries, retrieved, strict=True):
        top = list(items)[: query.k]
        result.query_hits.append(any(m.contains(t) for m in top for t in query.expect_any_of))
    return result


def totals(results: Iterable[CaseResult]) -> dict[str, Any]:
    """The headline figures: ``expect_recall``, ``forbid_violation_rate``, ``query_hit_at_k``."""
    rs = list(results)
    expects = [h for r in rs for h in r.expect_hits]
    queries = [h for r in rs for h in r.query_hits]
    return {
        "cases": len(rs),
        "passed": sum(r.passed for r in rs),
        "expect_recall": round(sum(expects) / len(expects), 4) if expects else None,
        "forbid_violation_rate": round(sum(bool(r.forbid_violations) for r in rs) / len(rs), 4)
        if rs
        else None,
        "query_hit_at_k": round(sum(queries) / len(queries), 4) if queries else None,
        "expect_items": len(expects),
        "queries": len(queries),
        "by_category": category_totals(rs),
    }


def category_totals(results: Iterable[CaseResult]) -> dict[str, dict[str, Any]]:
    """Cases passing per category (``case_category`` of the id; ``other`` when none), in ``CATEGORIES``
    order: ``{"pref": {"cases": 14, "passed": 12, "pass_rate": 0.8571}, ...}``; absent categories left out."""
    counts: dict[str, list[int]] = {}
    for r in results:
        c = counts.setdefault(case_category(r.id) or "other", [0, 0])
        c[0] += 1
        c[1] += r.passed
    order = [*CATEGORIES, "other"]
    return {
        cat: {"cases": n, "passed": ok, "pass_rate": round(ok / n, 4)}
        for cat, (n, ok) in sorted(counts.items(), key=lambda kv: order.index(kv[0]))
    }


def format_categories(by_category: dict[str, dict[str, Any]]) -> str:
    """One line per category: ``update     2/11   18.2%``."""
    return "\n".join(
        f"{cat:<10} {v['passed']:>3}/{v['cases']:<3} {100 * v['pass_rate']:5.1f}%"
        for cat, v in by_category.items()
    )


def result_json(result: CaseResult) -> str:
    return json.dumps({**asdict(result), "passed": result.passed}, ensure_ascii=False)
