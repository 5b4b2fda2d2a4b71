"""Retrieval of a user's long-term memories for a prompt: ``full_inject``, ``dense``, lexical fallback.

Modes (``LONG_TERM_MEMORY_RETRIEVE_MODE``, overridable per call):

- ``full_inject``: every live memory of the user (active, unexpired, past the read-side hard
  filters), most important and most recently updated first, capped at
  ``LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT`` (or the caller's ``limit``).
- ``dense``: query = question + "\\n" + conversation summary -> ``embed_queries`` -> vector search
  for the top ``LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT`` ids *of this user only* -> the truth of those
  ids from PostgreSQL (``get_live_by_ids`` scoped by the user: ids of other users, dead or filtered
  rows are dropped even if the index returned them) -> rerank (``RerankWeights``) -> top
  ``LONG_TERM_MEMORY_RETRIEVE_LIMIT``. The query embedding runs beside the user lookup (it does
  not need the user); the search waits for the user's internal id. Identical concurrent queries
  share one in-flight embedding, and recent query vectors are kept in a bounded LRU. A user's
  internal id is remembered (bounded LRU) after the first lookup: then the truth read is the only
  SQL statement of a dense retrieval, and it re-checks the id against the external id itself; an
  empty answer re-verifies the user before it is trusted. Reads run in autocommit (no BEGIN or
  ROLLBACK round trips).
  ``RetrievalResult.timings`` gives the stages in ms: ``embed`` (the model, or 0 for a reused
  vector), ``user_lookup``, ``milvus``, ``truth_read``, ``rerank`` (ours), ``dense`` (submit to
  hits).
- lexical fallback: when ``MEMORY_MILVUS_ENABLED`` is false, or the embedder/vector search fails,
  is paused after a recent failure, is saturated, or misses the time budget
  (``RETRIEVAL_DENSE_TIMEOUT_SEC``), a BM25 scan (``core.lexical``, Chinese bigrams + English words)
  over the user's live memories serves instead, with the same rerank; ``served_by`` says
  ``lexical_fallback`` and ``fallback_reason`` says why.
- fairness (issue 26): a long question (the embedder's ``is_long_query``) embeds on the embedder's
  long-question lane (``core.embedding.long_lane``: one low-priority thread, a bounded wait list) and
  takes no shared slot; it is cut there to what the model reads in one window (``fit_query``: 512
  tokens for e5-small); with an embedder without a lane the query is cut before it takes a slot. Its
  failures pause its user only. One user holds at
  most ``RETRIEVAL_DENSE_PER_USER`` of the ``RETRIEVAL_DENSE_CONCURRENCY`` slots (over it, that user
  waits up to ``RETRIEVAL_DENSE_USER_WAIT_SEC`` for one of its own, then falls back); a failure or a
  missed budget pauses the dense path for that user only, and for everyone only once
  ``RETRIEVAL_DENSE_BREAKER_USERS`` distinct users failed within ``RETRIEVAL_DENSE_COOLDOWN_SEC``.

Invariants:
- ``retrieve`` never raises because of Milvus or the embedder; only a PostgreSQL failure (the
  truth itself) propagates.
- Every result item belongs to the requested user: candidates are read from PostgreSQL with
  ``user_id = <the user's internal id>``, and every vector search carries that id as its scope.
- Returned memories get ``last_accessed_at`` updated off the request path (a background thread,
  best effort: a row locked by a writer is not waited for, so a read never waits for a write).

Modules, by responsibility: ``retriever`` (the service and its stages, the factory), ``plan`` (the
query and the limits), ``dense`` (embed + vector search in a bounded pool, within the budget),
``fairness`` (per-user slots, the circuit breaker), ``query_vectors`` (the query-vector LRU with single
flight), ``vector_search`` (the port and its Milvus adapter), ``truth`` (the PostgreSQL reads),
``ranking`` (rerank), ``merge`` (memories and episodes in one pooled order), ``prompt`` (the prompt
block), ``result`` (what ``retrieve`` returns), ``touch`` (``last_accessed_at`` off the request path).
Every public name is importable from here.
"""

from core.retrieval.merge import Pooled, pooled_order, take_pooled
from core.retrieval.plan import QUERY_MAX_CHARS, build_query
from core.retrieval.prompt import (
    PROMPT_BLOCK_LABEL,
    PROMPT_HEADER,
    full_prompt_block,
    prompt_block,
    read_prompt_block,
)
from core.retrieval.ranking import Candidate, RerankWeights, RetrievedMemory, ScoreComponents, rerank
from core.retrieval.result import RetrievalResult, ServedBy
from core.retrieval.retriever import Retriever, build_retriever
from core.retrieval.touch import TOUCH_LOCK_TIMEOUT_MS
from core.retrieval.truth import LEXICAL_SCAN_MAX
from core.retrieval.vector_search import ActiveCollectionSearch, NoActiveCollection, VectorSearch

__all__ = [
    "LEXICAL_SCAN_MAX",
    "PROMPT_BLOCK_LABEL",
    "PROMPT_HEADER",
    "QUERY_MAX_CHARS",
    "TOUCH_LOCK_TIMEOUT_MS",
    "ActiveCollectionSearch",
    "Candidate",
    "NoActiveCollection",
    "Pooled",
    "RerankWeights",
    "RetrievalResult",
    "RetrievedMemory",
    "Retriever",
    "ScoreComponents",
    "ServedBy",
    "VectorSearch",
    "build_query",
    "build_retriever",
    "full_prompt_block",
    "pooled_order",
    "prompt_block",
    "read_prompt_block",
    "rerank",
    "take_pooled",
]
