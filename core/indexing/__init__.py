"""Index side of the memory truth: bring Milvus (and the ``vector_*`` columns) in line with PostgreSQL.

``MemoryIndexer.sync(memory_ids)`` is the whole job of the indexer consumer, without Kafka:

1. read the current rows of those ids from PostgreSQL (an event only says *that* a memory changed);
2. decide per row: a live row (active, unexpired, past the read filters) whose index text
   ``[{memory_type}] {memory_key}: {content}`` hashes to ``vector_text_hash`` with the same model and
   collection version is *skipped* when ``SYNCED`` (no work at all) or *refreshed* otherwise (marked
   ``SYNCED`` without embedding: the vector in Milvus is already that text's); other live rows are
   embedded (in batches of ``embed_batch_size``, up to ``max_in_flight_batches`` calls at once: the
   ``openai`` provider's ``MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES``) and upserted; a failed batch fails only its
   rows, the others are written; rows that are not live are deleted
   from Milvus; ids missing from PostgreSQL (erased) are deleted from Milvus;
3. mark the rows in one transaction: ``SYNCED`` with ``vector_synced_at``/``vector_model``/
   ``vector_version``/``vector_text_hash`` (``vector_text_hash`` NULL for rows removed from the index),
   or ``FAILED`` with ``vector_error`` (and ``vector_text_hash`` NULL, so nothing is skipped later).

Invariants:
- A row is marked only if its ``updated_at`` is still the one that was read (optimistic check in the
  UPDATE's WHERE clause), so a duplicate or late event can never mark a newer version synced with an
  older vector. A row that changed meanwhile is indexed again at once (up to ``MAX_PASSES`` passes,
  without the skip shortcut, since this pass may have overwritten a newer vector); if it keeps
  changing it is left ``DIRTY`` for the newer ``memory.dirty`` event that its writer enqueued.
- ``vector_text_hash`` non-NULL with a matching model and collection version means Milvus holds that
  text's vector for the row; every path that may leave Milvus otherwise clears it.
- Nothing is read from the event payload but the memory id.
- Failures of the embedder or Milvus mark the affected rows ``FAILED`` and raise ``IndexSyncFailed``;
  database failures raise ``IndexSyncFailed`` too (stage ``database``). Callers retry the same ids;
  everything here is idempotent. ``IndexModelMismatch`` (the active collection holds another model or
  dimension) is never retried: it needs an operator.

Modules, by responsibility: ``indexer`` (``MemoryIndexer``: the collection, the pass's stages, the
factory), ``plan`` (the per-row decision), ``marks`` (the optimistic ``vector_*`` updates),
``report`` (``SyncReport`` and the errors). Every public name is importable from here.
"""

from core.indexing.indexer import MAX_PASSES, MemoryIndexer, build_indexer
from core.indexing.plan import ActiveTarget
from core.indexing.report import MAX_ERROR_CHARS, IndexingError, IndexSyncFailed, SyncReport

__all__ = [
    "MAX_ERROR_CHARS",
    "MAX_PASSES",
    "ActiveTarget",
    "IndexSyncFailed",
    "IndexingError",
    "MemoryIndexer",
    "SyncReport",
    "build_indexer",
]
