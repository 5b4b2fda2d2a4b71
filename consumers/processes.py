"""Wiring of the consumer processes: configuration -> domain services -> strategy -> loop.

Nothing here touches the network until ``ConsumerLoop.run``.
"""

from __future__ import annotations

from consumers.commands import CommandStrategy
from consumers.dlq import DeadLetterPublisher
from consumers.extractor import ExtractorStrategy, max_poll_interval_ms
from consumers.indexer import IndexerStrategy
from consumers.runtime import ConsumerLoop, LoopHooks
from consumers.steps.dlq_limit import DlqLimit
from core.config import Settings
from core.embedding.factory import build_embedder
from core.episodes.indexing import build_episode_indexer
from core.extraction.candidates import is_cpu_bound
from core.extraction.factory import build_extractor, named_slots
from core.indexing import build_indexer
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.redrive import message_redrive_grace
from core.memory.tools import MemoryTools
from core.memory.writer import MemoryWriter
from core.storage.db import engine_for, session_factory


def build_processor(settings: Settings) -> MessageProcessor:
    # the same cap as every process (pool + overflow = 2 x DATABASE_POOL_SIZE), all of it kept open: the
    # extractor's bursts read and commit in many threads at once, and overflow connections closed on
    # return made it connect and disconnect a few times a second (CPU here and a backend per connect)
    size = settings.DATABASE_POOL_SIZE
    sessions = session_factory(engine_for(settings.database_url, 2 * size, max_overflow=0))
    deduper = SemanticDeduper.for_settings(settings, build_embedder(settings, "dedup"))
    return MessageProcessor(settings, sessions, build_extractor(settings), deduper)


def build_tools(settings: Settings, dedup: bool = True) -> MemoryTools:
    """The tool service of the command group, with the semantic dedup of the extraction (its thresholds,
    the provider's named slots): a command that says what an extracted memory says takes it over. The
    writer carries no vectors, so a tool write never waits on the embedder (a failing one only skips the
    dedup); the indexer embeds. ``dedup=False``: every write lands as asked, nothing embedded."""
    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    if not dedup:
        return MemoryTools(sessions, MemoryWriter.from_settings(settings))
    deduper = SemanticDeduper.for_settings(settings, build_embedder(settings, "dedup"))
    return MemoryTools(sessions, MemoryWriter.from_settings(settings), deduper, named_slots(settings))


def dead_letter_publisher(settings: Settings, group: str) -> DeadLetterPublisher:
    return DeadLetterPublisher(settings, group, timeout_sec=settings.CONSUMER_DLQ_TIMEOUT_SEC)


def extractor_loop(
    settings: Settings, *, hooks: LoopHooks | None = None, strategy: ExtractorStrategy | None = None
) -> ConsumerLoop:
    """The extractor group member: chat messages -> memories."""
    if strategy is None:
        processor = build_processor(settings)
        processor.warm_up()  # before joining the group: the first bursts must not pay the model load
        strategy = ExtractorStrategy(
            processor,
            dead_letter_publisher(settings, settings.GROUP_EXTRACTOR),
            debounce_sec=settings.LONG_TERM_MEMORY_DEBOUNCE_SEC,
            group=settings.GROUP_EXTRACTOR,
            max_in_flight=settings.CONSUMER_EXTRACTOR_MAX_IN_FLIGHT,
            model_slots=(min(settings.CONSUMER_EXTRACTOR_CPU_SLOTS, settings.CONSUMER_EXTRACTOR_MAX_IN_FLIGHT)
                         if is_cpu_bound(processor.extractor) else None),
            max_buffered=settings.CONSUMER_EXTRACTOR_MAX_BUFFERED_RECORDS,
            revoke_timeout_sec=settings.CONSUMER_REVOKE_TIMEOUT_SEC,
            max_record_attempts=settings.CONSUMER_MAX_RECORD_ATTEMPTS,
            dlq_max_attempts=settings.CONSUMER_DLQ_MAX_ATTEMPTS,
            dlq_limit=DlqLimit.from_settings(settings),
            # the sweeper re-drives messages PENDING past its grace: the ones held here are refreshed
            keep_alive_sec=(message_redrive_grace(settings) / 3
                            if settings.LONG_TERM_MEMORY_SCAN_ENABLED else None),
        )
    poll_interval_ms = max_poll_interval_ms(settings.CONSUMER_REVOKE_TIMEOUT_SEC,
                                            settings.CONSUMER_DLQ_TIMEOUT_SEC)
    return ConsumerLoop(
        settings,
        settings.GROUP_EXTRACTOR,
        [settings.TOPIC_CHAT_MESSAGES],
        strategy,
        hooks=hooks,
        extra_config={"max.poll.interval.ms": poll_interval_ms},
    )


def commands_loop(settings: Settings, *, hooks: LoopHooks | None = None) -> ConsumerLoop:
    """The command group member: memory_save/append/delete events -> the tool service."""
    tools = build_tools(settings)
    warm = getattr(tools.deduper.embedder if tools.deduper is not None else None, "warm_up", None)
    if callable(warm):
        warm()  # before joining the group: the first commands must not pay the dedup model's load
    strategy = CommandStrategy(
        tools,
        dead_letter_publisher(settings, settings.GROUP_COMMANDS),
        group=settings.GROUP_COMMANDS,
        max_record_attempts=settings.CONSUMER_MAX_RECORD_ATTEMPTS,
        dlq_max_attempts=settings.CONSUMER_DLQ_MAX_ATTEMPTS,
        max_batch=settings.CONSUMER_COMMANDS_MAX_BATCH,
        dlq_limit=DlqLimit.from_settings(settings),
    )
    return ConsumerLoop(
        settings, settings.GROUP_COMMANDS, [settings.TOPIC_MEMORY_COMMANDS], strategy, hooks=hooks,
        batch_size=max(100, settings.CONSUMER_COMMANDS_MAX_BATCH),
    )


def indexer_loop(
    settings: Settings, *, hooks: LoopHooks | None = None, strategy: IndexerStrategy | None = None
) -> ConsumerLoop:
    """The indexer group member: memory.dirty -> truth -> embeddings -> Milvus -> SYNCED/FAILED.

    The collection check (``IndexModelMismatch`` on a model/dimension mismatch) runs when the loop
    starts (``IndexerStrategy.bind``), before anything is consumed.
    """
    if strategy is None:
        indexer = build_indexer(settings)
        strategy = IndexerStrategy(
            indexer,
            dead_letter_publisher(settings, settings.GROUP_INDEXER),
            # one sync = MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES embedding batches in flight (openai embedder)
            batch_size=indexer.sync_batch_size or settings.MEMORY_INDEX_WORKER_BATCH_SIZE,
            max_wait_sec=settings.MEMORY_INDEX_FLUSH_WAIT_SEC,
            max_attempts=settings.MEMORY_INDEX_MAX_ATTEMPTS,
            group=settings.GROUP_INDEXER,
            max_record_attempts=settings.CONSUMER_MAX_RECORD_ATTEMPTS,
            dlq_max_attempts=settings.CONSUMER_DLQ_MAX_ATTEMPTS,
            dlq_limit=DlqLimit.from_settings(settings),
            # episodes (core.episodes) share the indexer's sessions and embedder, not its collection
            episodes=(build_episode_indexer(settings, indexer.sessions, indexer.embedder)
                      if settings.EPISODES_ENABLED else None),
        )
    return ConsumerLoop(
        settings,
        settings.GROUP_INDEXER,
        [settings.TOPIC_MEMORY_DIRTY],
        strategy,
        batch_size=max(100, strategy.batch_size),
        hooks=hooks,
    )
