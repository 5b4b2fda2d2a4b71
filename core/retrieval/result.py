"""What a retrieval returns: the ranked memories (and episodes), the path that served, a prompt block."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.config import RetrieveMode
from core.episodes.search import RetrievedEpisode
from core.retrieval.merge import Pooled
from core.retrieval.ranking import RetrievedMemory


class ServedBy(StrEnum):
    """Which path produced a retrieval result."""

    FULL_INJECT = "full_inject"
    DENSE = "dense"
    LEXICAL_FALLBACK = "lexical_fallback"
    DISABLED = "disabled"  # LONG_TERM_MEMORY_ENABLED is false: no memories are injected


@dataclass(frozen=True)
class RetrievalResult:
    """What ``Retriever.retrieve`` returns: ranked items, the path that served, a prompt block."""

    user_id: str
    requested_mode: RetrieveMode
    served_by: ServedBy
    items: list[RetrievedMemory]
    prompt_block: str
    fallback_reason: str | None = None
    took_ms: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    # what the user said (core.episodes), kept apart from the memories: dense only
    episodes: list[RetrievedEpisode] = field(default_factory=list)
    intent: str | None = None  # the question's time intent (past, taste, neutral) when dense ran
    # both kinds served, in their pooled order (core.retrieval.merge); dense only
    order: list[Pooled] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "requested_mode": self.requested_mode.value,
                "served_by": self.served_by.value, "fallback_reason": self.fallback_reason,
                "items": [i.as_dict() for i in self.items], "prompt_block": self.prompt_block,
                "took_ms": self.took_ms, "episodes": [e.as_dict() for e in self.episodes],
                "intent": self.intent, "order": [p.as_dict() for p in self.order]}
