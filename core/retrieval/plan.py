"""The first stage of a dense retrieval: what to ask (query, terms, kinds) and how many of each to serve.

Pure: no I/O and no state; ``plan_retrieval`` turns a request into a ``RetrievalPlan``.

The user's own names (``user_names``, given by the caller: "Alice", "Alice Chen") are taken out of the
question before it is embedded and tokenized (``without_names``): everything the search reads is the
user's own (what they said, what was distilled from it), so "what might Alice's career be?" asked for
Alice is "what might career be?". Her name tells none of her passages from another; in the query it
pulls the embedding toward passages that name a person (a greeting to a friend by name) and, rare in
her own words, it takes BM25's whole lexical weight for the one passage that holds it. The question's
time intent is read from the question in the user's own person (``in_first_person``: "when did Alice
go…" is "when did I go…"); its kinds and relative dates from the question as asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from core.config import RetrievalSettings
from core.episodes.search import question_window, time_intent
from core.lexical import tokenize
from core.query_kinds import query_kinds

QUERY_MAX_CHARS = 2000  # question + summary sent to the embedder (e5 reads ~512 tokens anyway)
USER_NAMES_MAX = 8  # names of one user a retrieval takes out of its question
_POSSESSIVE = ("'s", "\u2019s", "'", "\u2019")  # "Alice's", "Alice’s", "James'"


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _replace_names(question: str, names: Sequence[str], word: str, possessive: str, cjk: str) -> str:
    """``question`` with each of the user's ``names`` (case-insensitive; a name written in a script with
    spaces between words only as a whole word) replaced: by ``word``, or by ``possessive`` when the
    name carries a possessive ``'s``; a name in a script without spaces by ``cjk``; spaces collapsed."""
    text = question
    for name in sorted({n.strip() for n in names[:USER_NAMES_MAX] if n and n.strip()}, key=len,
                       reverse=True):
        folded, target = text.casefold(), name.casefold()
        if len(folded) != len(text):  # a casefold that changes lengths: leave the text as it is
            continue
        spaced = any(_word_char(ch) and ord(ch) < 0x2E80 for ch in name)
        out: list[str] = []
        i = 0
        while (at := folded.find(target, i)) >= 0:
            end = at + len(target)
            whole = not spaced or ((at == 0 or not _word_char(text[at - 1]))
                                   and (end == len(text) or not _word_char(text[end])))
            if not whole:
                out.append(text[i:end])
                i = end
                continue
            said = word if spaced else cjk
            for tail in _POSSESSIVE if spaced else ():
                if folded.startswith(tail, end) and (end + len(tail) == len(text)
                                                     or not _word_char(text[end + len(tail)])):
                    end += len(tail)
                    said = possessive
                    break
            out.append(text[i:at] + said)
            i = end
        out.append(text[i:])
        text = "".join(out)
    return " ".join(text.split())


def without_names(question: str, names: Sequence[str]) -> str:
    """``question`` without the user's own ``names`` (case-insensitive; a name written in a script
    with spaces between words only as a whole word, with its possessive ``'s``), spaces collapsed;
    the question itself when nothing of it would be left."""
    text = _replace_names(question, names, "", "", "")
    return text if any(_word_char(ch) for ch in text) else question


def in_first_person(question: str, names: Sequence[str]) -> str:
    """``question`` as the user would ask it: each of the user's own ``names`` read as "I" ("my" with a
    possessive, 我 in a script without spaces), so "when did Alice go…" asked for Alice is "when did I
    go…" (what ``time_intent`` reads)."""
    return _replace_names(question, names, "I", "my", "我") if names else question


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

    query: str  # question (without the user's own names) + summary, capped (``build_query``)
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
                   asked_at: datetime | None, user_names: Sequence[str] = ()) -> RetrievalPlan:
    """The plan of a dense retrieval (see ``Retriever.retrieve`` for the limits' defaults).

    When the caller gives neither limit, the candidates of both kinds are pooled
    (``pool``, ``core.retrieval.merge``: the question's time intent leans it) and served in that
    order, at most ``LONG_TERM_MEMORY_RETRIEVE_LIMIT`` memories and ``EPISODE_RETRIEVE_LIMIT``
    episodes (``pool_caps``); without episodes
    (``episodes_enabled`` false) none are asked. ``user_names``: the user's own names, taken out of
    the question the search reads (``without_names``; the module docstring).
    """
    intent = time_intent(in_first_person(question, user_names))
    ep_limit = (episode_limit if episode_limit is not None
                else settings.EPISODE_RETRIEVE_LIMIT) if episodes_enabled else 0
    pool = None
    caps = (0, 0)
    if limit is None and episode_limit is None and ep_limit > 0:
        caps = (settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT, ep_limit)
        pool = sum(caps)
        limit = ep_limit = pool
    query = build_query(without_names(question, user_names) if user_names else question,
                        conversation_summary)
    return RetrievalPlan(
        query=query, terms=set(tokenize(query)), kinds=query_kinds(question), intent=intent,
        limit=limit or settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT,
        episodes=EpisodeAsk(ep_limit, since, until, question_window(question, asked_at)), pool=pool,
        pool_caps=caps)
