"""The evaluation-case format (MISSION.md) and its scoring, independent of how memories were made.

A case: ``{"id", "lang", "conversation": [{"role","content"}...], "expect": [{"type","any_of"}],
"forbid": [...], "queries": [{"query","expect_any_of","k"}]}``.
- an ``expect`` item holds when a live memory of that type contains one of ``any_of``
  (case-insensitive, in key or content);
- a ``forbid`` term must be in no live memory of the user;
- a query holds when one of its top-k retrieved memories contains one of ``expect_any_of``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Turn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: str
    content: str


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
    }


def result_json(result: CaseResult) -> str:
    return json.dumps({**asdict(result), "passed": result.passed}, ensure_ascii=False)
