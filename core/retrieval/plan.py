"""The first stage of a dense retrieval: what to ask (query, terms, kinds) and how many of each to serve.

Pure: no I/O and no state; ``plan_retrieval`` turns a request into a ``RetrievalPlan``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from core.config import RetrievalSettings
from core.episodes.search import question_window, time_intent
from core.lexical import tokenize
from core.query_kinds import query_kinds

QUERY_MAX_CHARS = 2000  # question + summary sent to the embedder (e5 reads ~512 tokens anyway)


def build_query(question: str, conversation_summary: str | None) -> str:
    """The dense/lexical query: question, then the conversation summary, capped."""
    query = question.strip()
    if conversation_summary and conversation_summary.strip():
        query = f"{query}\n{conversation_summary.strip()}"
    return query[:QUERY_MAX_CHARS]


@dataclass
class EpisodeAsk:
    """What a dense retrieval asks of the episodes; the search fills ``hits``."""

    limit: int
    since: datetime | None
    until: datetime | None
    window: tuple[datetime, datetime] | None
    hits: list[tuple[int, float]] = field(default_factory=list)


@dataclass(frozen=True)
class RetrievalPlan:
    """A dense (or lexical) retrieval's request, resolved: the query and how many items to serve."""

    query: str  # question + summary, capped (``build_query``)
    terms: set[str]  # the query's tokens (exact-key match of the rerank)
    kinds: frozenset[str]  # the kinds of thing the question asks about (``core.query_kinds``)
    intent: str  # the question's time intent (``core.episodes.search.time_intent``)
    limit: int  # memories to serve
    episodes: EpisodeAsk  # episodes to serve (limit 0: none)
    pool: int | None = None  # serve this many of both kinds, mixed by their pooled order (merge.py)
    pool_caps: tuple[int, int] = (0, 0)  # with ``pool``: at most this many memories, episodes


def plan_retrieval(settings: RetrievalSettings, episodes_enabled: bool, question: str,
                   conversation_summary: str | None, limit: int | None, episode_limit: int | None,
                   since: datetime | None, until: datetime | None,
                   asked_at: datetime | None) -> RetrievalPlan:
    """The plan of a dense retrieval (see ``Retriever.retrieve`` for the limits' defaults).

    When the caller gives neither limit, the candidates of both kinds are pooled
    (``pool``, ``core.retrieval.merge``: the question's time intent leans it) and served in that
    order, at most ``LONG_TERM_MEMORY_RETRIEVE_LIMIT`` memories and ``EPISODE_RETRIEVE_LIMIT``
    episodes (``pool_caps``); without episodes
    (``episodes_enabled`` false) none are asked.
    """
    intent = time_intent(question)
    ep_limit = (episode_limit if episode_limit is not None
                else settings.EPISODE_RETRIEVE_LIMIT) if episodes_enabled else 0
    pool = None
    caps = (0, 0)
    if limit is None and episode_limit is None and ep_limit > 0:
        caps = (settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT, ep_limit)
        pool = sum(caps)
        limit = ep_limit = pool
    query = build_query(question, conversation_summary)
    return RetrievalPlan(
        query=query, terms=set(tokenize(query)), kinds=query_kinds(question), intent=intent,
        limit=limit or settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT,
        episodes=EpisodeAsk(ep_limit, since, until, question_window(question, asked_at)), pool=pool,
        pool_caps=caps)
