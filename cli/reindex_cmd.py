"""``pai-memory reindex``: rebuild the vector index (new model or dimension), or re-emit memory.dirty.

    pai-memory reindex [--model M --dim D] [--collection NAME] [--keep-old] [--drop-grace SEC]
                       [--ready-timeout SEC] [--json]
    pai-memory reindex --emit-only [--user U] [--json]

Full rebuild (``core.reindex``): a new collection is registered and filled with every live memory,
embedded in batches with the configured embedder (``--model``/``--dim`` override
``MEMORY_EMBEDDING_MODEL``/``MEMORY_EMBEDDING_DIM`` of the ``openai`` provider), while the old
collection keeps serving; the new collection is flushed and the rebuild waits (up to ``--ready-timeout``)
until Milvus serves it only from sealed, indexed segments (``core.milvus_serving``); then one PostgreSQL
transaction makes it the active collection, marks the
rows SYNCED with the new ``vector_model``/``vector_version`` and re-emits ``memory.dirty`` for rows
written during the rebuild; the old collection is dropped after ``--drop-grace`` seconds. After a model
change, restart the indexer and API processes with the new embedding configuration.

``--emit-only``: set the rows of ``--user`` (or everyone) DIRTY and enqueue ``memory.dirty`` for each
through the outbox; the running relay and indexer re-embed them into the active collection.
``--user`` alone implies ``--emit-only``.

Episodes (``core.episodes.verify.reindex_episodes``): a full rebuild that changes the model or dimension
drops and recreates the episodes' collection for them and announces every episode
(``pai.episode.dirty.v1``) for the indexer to embed again (episodes are not searchable until it has);
so does any reindex of everyone when the collection's layout is not ``EPISODE_MILVUS_USER_PARTITIONS``
user buckets (a collection made with a partition key before: ``core/vector_buckets.py``); otherwise
``--emit-only`` announces them without dropping the collection.

Exit code: 0 done, 1 the rebuild failed (the old collection is still active), 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.config import ConfigError, EmbeddingProvider, Settings, load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("reindex", help="rebuild the vector index into a new collection; re-emit dirty",
                            description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", help="embedding model of the new index (openai provider)")
    parser.add_argument("--dim", type=int, help="embedding dimension of the new index (openai provider)")
    parser.add_argument("--collection", help="name of the new collection (default: <base>_v<next version>)")
    parser.add_argument("--keep-old", action="store_true", help="do not drop the old collection")
    parser.add_argument("--drop-grace", type=float, default=15.0, metavar="SEC",
                        help="wait before dropping the old collection (readers cache the active one; 15)")
    parser.add_argument("--ready-timeout", type=float, default=600.0, metavar="SEC",
                        help="before the switch, wait up to SEC for Milvus to serve the new collection from "
                             "sealed, indexed segments only (600; it switches anyway after, and says so)")
    parser.add_argument("--batch", type=int, default=256, help="memories per embedding batch (256)")
    parser.add_argument("--emit-only", action="store_true", help="only re-emit memory.dirty via the outbox")
    parser.add_argument("--user", metavar="USER_ID", help="re-emit for this user only (implies --emit-only)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(func=lambda args: run(args, load_settings()))


def run(args: argparse.Namespace, settings: Settings) -> int:
    from core.storage.db import engine_for, session_factory

    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    if args.emit_only or args.user:
        if args.model or args.dim or args.collection:
            print("pai-memory reindex: --model/--dim/--collection apply to a full rebuild, not --emit-only",
                  file=sys.stderr)
            return 2
        from core.reindex import emit_dirty

        try:
            emitted = emit_dirty(sessions, dirty_topic=settings.TOPIC_MEMORY_DIRTY, user=args.user)
        except LookupError as exc:
            print(f"pai-memory reindex: {exc}", file=sys.stderr)
            return 2
        data = emitted.as_dict()
        data["episodes_enqueued"] = _episodes(settings, sessions, args.user, rebuild=False)
        print(json.dumps(data) if args.json else
              f"enqueued memory.dirty for {emitted.total} memories {data['enqueued']} "
              f"and {data['episodes_enqueued']} episodes "
              f"({'user ' + args.user if args.user else 'all users'})")
        return 0
    try:
        settings = _with_model(settings, args.model, args.dim)
    except ConfigError as exc:
        print(f"pai-memory reindex: {exc}", file=sys.stderr)
        return 2
    from core.embedding.factory import build_embedder
    from core.reindex import Reindexer, ReindexError
    from core.vectorstore import MilvusMemoryIndex

    embedder = build_embedder(settings)
    index = MilvusMemoryIndex.from_settings(settings, dim=embedder.dim)
    reindexer = Reindexer(sessions, embedder, index, dirty_topic=settings.TOPIC_MEMORY_DIRTY,
                          batch_size=max(1, args.batch), episode_collection=settings.episode_collection,
                          episode_partitions=settings.EPISODE_MILVUS_USER_PARTITIONS)
    try:
        report = reindexer.rebuild(collection=args.collection, drop_old=not args.keep_old,
                                   drop_grace_sec=args.drop_grace, ready_timeout_sec=args.ready_timeout)
    except ReindexError as exc:
        print(f"pai-memory reindex: {exc}", file=sys.stderr)
        return 1
    finally:
        index.close()
    data = report.as_dict()
    if args.json:
        print(json.dumps(data))
    else:
        print(f"reindexed {report.indexed} memories into {report.new_collection} "
              f"(version {report.new_version}, {report.model}, dim {report.dim}) in {report.seconds:.1f}s; "
              f"{'served from sealed, indexed segments' if report.served_ready else 'NOT yet settled'} "
              f"after waiting {report.served_wait_sec:.1f}s; active now. "
              f"{report.reemitted} rows written during the rebuild re-emitted; old collection "
              f"{report.old_collection} {'dropped' if report.dropped_old else 'kept'}; after a model or "
              f"dimension change the episodes are announced for re-embedding into "
              f"{settings.episode_collection}")
    return 0


def _episodes(settings: Settings, sessions: Any, user: str | None, *, rebuild: bool) -> int:
    """The episodes' part of a reindex (``core.episodes.verify.reindex_episodes``): announced rows."""
    if not settings.EPISODES_ENABLED:
        return 0
    from core.episodes.verify import reindex_episodes
    from core.memory.store import find_user
    from core.vectorstore import MilvusMemoryIndex

    user_pk = None
    if user is not None:
        with sessions() as session:
            user_pk = find_user(session, user)
        if user_pk is None:
            return 0
    view = MilvusMemoryIndex.from_settings(settings, collection=settings.episode_collection)
    try:
        return reindex_episodes(sessions, view, topic=settings.TOPIC_MEMORY_DIRTY, dim=view.dim,
                                rebuild=rebuild, user_pk=user_pk,
                                user_partitions=settings.EPISODE_MILVUS_USER_PARTITIONS)
    finally:
        view.close()


def _with_model(settings: Settings, model: str | None, dim: int | None) -> Settings:
    if model is None and dim is None:
        return settings
    if settings.embedding_provider is EmbeddingProvider.LOCAL:
        raise ConfigError("invalid configuration: --model/--dim: the local embedding provider has a fixed "
                          "model; set MEMORY_EMBEDDING_PROVIDER=openai and MEMORY_EMBEDDING_BASE_URL")
    overrides = settings.model_dump()
    if model is not None:
        overrides["MEMORY_EMBEDDING_MODEL"] = model
    if dim is not None:
        overrides["MEMORY_EMBEDDING_DIM"] = dim
    return load_settings(**overrides)
