"""Episodes: what the user said, kept beside the memories and findable by meaning and by time.

Every user message that is not noise becomes one or more passages (``passages``) stored in the
``episodes`` table in the extractor's transaction that makes the message final (``store``), announced
through the outbox as ``pai.episode.dirty.v1``, embedded by the indexer into the episodes' own Milvus
collection (``indexing``) and retrieved by ``dense`` beside the memories (``search``). Assistant turns
are never a source. Episodes expire after ``EPISODE_TTL_DAYS``.

Import rule: nothing here imports ``core.memory`` (which calls ``store`` in its commit) or
``core.retrieval`` (which calls ``search``).
"""
