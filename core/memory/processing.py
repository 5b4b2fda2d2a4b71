"""The message lifecycle: store (PENDING) -> extract -> one transaction of effects + final status.

Contract of ``MessageProcessor``:
- ``ingest`` stores a message once (idempotent by upstream id) and says whether it still needs
  extraction: a user message not yet final for the current extractor version does; a message of a
  user erased (``core.erasure``) at or after its ``created_at`` is dropped, not stored
  (``core.memory.ingest``, whose names ``IngestResult`` and ``FINAL`` are importable from here);
- ``process`` runs the three stages for a burst of one conversation's messages and commits, in
  ONE transaction, the memory rows, history rows, outbox rows, the episodes of what the user said
  (``core.episodes``, with their outbox rows) and the messages' final status
  (``PROCESSED``, or ``SKIPPED`` when nothing was worth keeping). Messages already final for this
  extractor version are left untouched, so redelivery and replay change nothing twice;
- the extract and refine calls of one burst share one deadline,
  ``LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC`` (``core.extraction.burst``); a provider closed at shutdown
  (``ExtractionCancelled``) raises ``TransientProcessingError`` without recording an attempt;
- a failure of extraction raises ``TransientProcessingError`` after recording the attempt; once
  ``MEMORY_MESSAGE_MAX_ATTEMPTS`` is reached the messages are marked ``FAILED`` with the error
  and ``PermanentProcessingError`` is raised instead (the sweeper re-drives FAILED later);
- an extraction that exceeds its budget (``ExtractionTimeout``, ``core.extraction.budget``) is
  permanent for this burst: the messages are marked ``FAILED`` with the reason at once and
  ``PermanentProcessingError`` is raised, so the partition moves on; the sweeper re-drives them later;
- an embedding failure while applying (the semantic dedup embeds candidates) is handled like an
  extraction failure: the attempt is recorded and ``TransientProcessingError`` (or, once attempts are
  exhausted, ``PermanentProcessingError``) is raised, never the raw ``EmbeddingError``;
- the memories an extraction read are the ones it is applied to: the commit (under the user's lock)
  reads the user's live memories again and, when they differ from the ones stage 1 and 2 saw (a tool
  write or another burst of the user committed meanwhile), writes nothing, reads them again and runs
  the burst again (at most ``STALE_RERUNS`` times, then it applies what it has). So a memory written
  while a burst was being extracted is never overwritten unseen, and a burst ends as if it had run
  after that write;
- a later statement wins: a candidate for a memory key that was already changed from a *newer*
  message (by ``created_at``, per the key's history) is superseded and not applied. A FAILED message
  re-driven after the user's next messages were processed (or an out-of-order redelivery) therefore
  never overwrites what the user said later; the message still ends ``PROCESSED``;
- bounded input (``split_burst``, ``cut_for_extraction``, in ``core.memory.bounds``): one extraction
  gets at most ``LONG_TERM_MEMORY_MAX_BURST_MESSAGES`` user messages whose joined text is at most
  ``LONG_TERM_MEMORY_MAX_PROMPT_CHARS`` characters. A larger burst is split into consecutive parts,
  extracted and committed one after another in message order; a single longer message is cut to the
  limit for extraction with ``TRUNCATION_MARKER`` (the stored message stays whole). A part that fails
  transiently stops the burst (the parts already committed are final, so the retry resumes after
  them); a part that fails for good does not stop the later parts, and its
  ``PermanentProcessingError`` is raised after they ran;
- thread-safe: ``ingest`` and ``process`` may run concurrently from several threads (the extractor
  runs bursts of different users in workers): each call opens its own sessions, the writer, policy
  and extractors keep no per-call state, and the per-user advisory lock serialises one user's commits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import DateTime, Integer, String, any_, bindparam, select, text, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, sessionmaker

from core import metrics, tracing
from core.config import Settings
from core.embedding.base import EmbeddingError
from core.embedding.cache import shared_passage_cache
from core.episodes.store import SaidMessage, write_episodes
from core.extraction.budget import ExtractionTimeout, run_burst
from core.extraction.burst import burst_scope
from core.extraction.candidates import (
    CandidateExtractor,
    ContextMessage,
    ExistingMemory,
    ExtractionCancelled,
    ExtractionError,
    ExtractionInput,
    MemoryCandidate,
)
from core.memory.bounds import TRUNCATION_MARKER as TRUNCATION_MARKER
from core.memory.bounds import cut_for_extraction as cut_for_extraction
from core.memory.bounds import split_burst as split_burst
from core.memory.dedup import SemanticDeduper
from core.memory.ingest import FINAL as FINAL
from core.memory.ingest import IngestResult as IngestResult
from core.memory.ingest import ingest_batch, ingest_one
from core.memory.reader import live_rows
from core.memory.store import IncomingMessage, conversation_context, lock_messages, remember_external_id
from core.memory.upsert import CandidatePolicy, NamedSlot, admissible, apply_candidates, no_named_slots
from core.memory.writer import MemoryWriter, WriteContext, WriteResult
from core.storage.db import transaction
from core.storage.locks import AdvisoryLock
from core.storage.models import Conversation, MemoryHistory, Message, User
from core.types import MessageRole, MessageStatus, WriteSource

log = logging.getLogger(__name__)

STALE_RERUNS = 2
"""How many times a burst is extracted again when the user's live memories changed between its read and its
commit (a tool write, another conversation's burst); past that it is applied to what it read."""


def _live_set(session: Session, user_pk: int) -> set[ExistingMemory]:
    """The user's live memories as the extraction input holds them (``ExistingMemory``)."""
    return {ExistingMemory(m.memory_key, m.memory_type or "fact", m.content or "")
            for m in live_rows(session, user_pk)}

# a burst's messages in conversation order, each with its conversation's summary and its user's upstream id:
# plain rows of the columns the burst reads (a Core statement on the session's connection, no ORM objects)
_LOAD_BURST = (
    select(Message.id, Message.user_id, Message.conversation_id, Message.role, Message.content,
           Message.memory_status, Message.extractor_version, Message.created_at,
           Conversation.summary, User.external_id)
    .join(Conversation, Conversation.id == Message.conversation_id)
    .join(User, User.id == Message.user_id)
    .where(Message.id == any_(bindparam("ids", type_=ARRAY(Integer))))  # one array: no per-size statement
    .order_by(Message.created_at, Message.id)
)

# ``lock_user`` and the burst's messages FOR UPDATE in one statement. The row locks are taken above
# the join (LockRows), and no row reaches it before the one-row subquery ran, so the user's advisory
# lock is always held before any message row is locked: the same order as the two statements.
_LOCK_BURST = text(
    "SELECT m.id, m.memory_status, m.extractor_version, m.created_at "
    "FROM (SELECT pg_advisory_xact_lock(:ns, :uid) AS locked) AS l, messages AS m "
    "WHERE m.id = ANY(CAST(:ids AS integer[])) ORDER BY m.created_at, m.id FOR UPDATE OF m"
)


class BurstMessage(Protocol):
    """What the burst reads of a stored message (a row of ``_LOAD_BURST``)."""

    id: int
    user_id: int
    conversation_id: int
    role: str
    content: str
    memory_status: str
    extractor_version: str | None
    created_at: datetime


class ProcessingError(RuntimeError):
    """Extraction of a message burst failed."""


class TransientProcessingError(ProcessingError):
    """Worth retrying now (with backoff); the attempt was recorded."""


class PermanentProcessingError(ProcessingError):
    """Attempts exhausted; the messages were marked FAILED."""


@dataclass
class ProcessOutcome:
    processed: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    already_final: list[int] = field(default_factory=list)
    writes: list[WriteResult] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    stage_thread_cpu_seconds: dict[str, float] = field(default_factory=dict)  # this thread's CPU in a stage
    episodes: list[int] = field(default_factory=list)  # episode rows written (core.episodes)
    episode_vectors_reused: int = 0  # of their passages, those whose vector the extractor already had


class MessageProcessor:
    """Turns stored user messages into memory writes (see module docstring for the contract)."""

    def __init__(
        self,
        settings: Settings,
        sessions: sessionmaker[Session],
        extractor: CandidateExtractor,
        deduper: SemanticDeduper | None,
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self.extractor = extractor
        self.deduper = deduper
        self.version = f"{extractor.name}:{settings.MEMORY_EXTRACTOR_VERSION}"
        self.writer = MemoryWriter.from_settings(settings, vectors=deduper)
        # the provider's named slots (optional on CandidateExtractor, like ``close``)
        self.named_slot: NamedSlot = getattr(extractor, "named_slot", no_named_slots)
        self.policy = CandidatePolicy(
            settings.LONG_TERM_MEMORY_MIN_CONFIDENCE, settings.LONG_TERM_MEMORY_MAX_WRITE_ITEMS
        )

    def warm_up(self) -> None:
        """Load the models the first bursts would otherwise load (the provider's, the dedup embedder's),
        so a cold load never counts against a burst's ``MEMORY_EXTRACTOR_BURST_BUDGET_SEC``."""
        for part in (self.extractor, self.deduper.embedder if self.deduper is not None else None):
            warm = getattr(part, "warm_up", None)
            if callable(warm):
                warm()

    def ingest(self, msg: IncomingMessage) -> IngestResult:
        """Store ``msg`` once (``core.memory.ingest``) and say whether it still needs extraction."""
        with transaction(self.sessions) as session:
            return ingest_one(session, msg, self.version)

    def ingest_many(self, msgs: Sequence[IncomingMessage]) -> list[IngestResult]:
        """``ingest`` of several messages in ONE transaction: the same results, in order, with the
        erased-user, known-message and user lookups done once for the batch (a few statements per
        new message instead of a transaction of about ten). All or nothing: on an error nothing is
        stored and the exception propagates (the caller then stores the messages one by one)."""
        if not msgs:
            return []
        with transaction(self.sessions) as session:
            return ingest_batch(session, msgs, self.version)

    def keep_alive(self, message_pks: Sequence[int]) -> int:
        """Set ``updated_at`` of those messages still ``PENDING`` to now: the extractor holds them, so the
        sweeper's re-drive (``core.memory.redrive``, counted from ``updated_at``) must wait another grace
        (``consumers.steps.keep_alive``). Returns the rows refreshed."""
        if not message_pks:
            return 0
        with transaction(self.sessions) as session:
            result = session.connection().execute(_KEEP_ALIVE, {"ids": list(message_pks),
                                                                "pending": MessageStatus.PENDING.value})
            return int(getattr(result, "rowcount", 0) or 0)

    def process(self, message_pks: Sequence[int],
                model_slot: AbstractContextManager[object] | None = None) -> ProcessOutcome:
        """Extract and apply one burst (message ids of ONE conversation).

        ``model_slot`` (e.g. a ``threading.Semaphore`` shared by the caller's workers) is held around the
        model stage only (extract + refine), not around the burst's reads before it or its commit after
        it: a caller running more bursts than it allows model calls keeps every model slot busy while
        other bursts read and commit. Waiting for the slot is not part of the burst's deadline."""
        outcome = ProcessOutcome()
        if not message_pks:
            return outcome
        t0, c0 = time.perf_counter(), time.thread_time()
        with self.sessions() as session:
            # the messages with their conversation's summary and their user's upstream id: one read
            msgs = session.connection().execute(_LOAD_BURST, {"ids": list(message_pks)}).all()
            known = {m.id: (m.summary, m.external_id) for m in msgs}
            todo = [
                m
                for m in msgs
                if m.role == MessageRole.USER.value
                and not (m.memory_status in FINAL and m.extractor_version == self.version)
            ]
            if not todo:
                outcome.already_final = [m.id for m in msgs]
                return outcome
            cfg = self.settings
            groups = split_burst([len(m.content) for m in todo], cfg.LONG_TERM_MEMORY_MAX_BURST_MESSAGES,
                                 cfg.LONG_TERM_MEMORY_MAX_PROMPT_CHARS)
            parts = [[todo[i].id for i in group] for group in groups]
            if len(parts) == 1:
                data, external_id = self._input(session, todo, known[todo[0].id])
                user_pk, conv_pk = todo[0].user_id, todo[0].conversation_id
        if len(parts) > 1:
            return self._process_parts(parts, outcome, model_slot)
        outcome.stage_seconds["load"] = time.perf_counter() - t0
        outcome.stage_thread_cpu_seconds["load"] = time.thread_time() - c0
        said = [SaidMessage(m.id, m.content, m.created_at) for m in todo]
        for rerun in range(STALE_RERUNS + 1):
            if rerun:  # the live memories changed while the burst was extracted: read them again
                metrics.EXTRACTION_STALE_RERUNS.inc()
                with self.sessions() as session:
                    data, external_id = self._input(session, todo, (known[todo[0].id][0], external_id))
            kept = self._extract(todo, data, outcome, model_slot)
            t3, c3 = time.perf_counter(), time.thread_time()
            try:
                with tracing.stage("upsert", {"pai.candidates": len(kept)}):
                    seen = data.existing if rerun < STALE_RERUNS else None
                    applied = self._commit(user_pk, conv_pk, external_id, [m.id for m in todo], kept, outcome,
                                           said, seen)
            except EmbeddingError as exc:  # the dedup's embedder (e.g. an embeddings endpoint) failed
                raise self._record_failure([m.id for m in todo], exc) from exc
            outcome.stage_seconds["upsert"] = (outcome.stage_seconds.get("upsert", 0.0)
                                               + time.perf_counter() - t3)
            outcome.stage_thread_cpu_seconds["upsert"] = (outcome.stage_thread_cpu_seconds.get("upsert", 0.0)
                                                          + time.thread_time() - c3)
            if applied:
                break
        for stage, seconds in outcome.stage_seconds.items():
            metrics.STAGE_DURATION.labels(stage).observe(seconds)
        for stage, seconds in outcome.stage_thread_cpu_seconds.items():
            metrics.STAGE_THREAD_CPU.labels(stage).inc(seconds)
        for write in outcome.writes:
            if write.operation is not None:
                metrics.MEMORY_WRITES.labels(write.operation.value, WriteSource.EXTRACTOR.value).inc()
        return outcome

    # --- internals ----------------------------------------------------------------------------
    def _extract(self, todo: Sequence[BurstMessage], data: ExtractionInput, outcome: ProcessOutcome,
                 model_slot: AbstractContextManager[object] | None) -> list[MemoryCandidate]:
        """Stages 1 and 2 of the burst ``todo`` on ``data``: its admissible candidates (the model stage's
        failures recorded and raised as ``ProcessingError``)."""
        try:
            # one deadline for every model call of this burst (core.extraction.burst), counted once the
            # caller's model slot is granted
            with model_slot if model_slot is not None else nullcontext(), \
                    burst_scope(self.settings.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC) as scope:
                burst = run_burst(self.extractor, data)
            outcome.stage_seconds["extract"] = outcome.stage_seconds.get("extract", 0.0) + burst.extract_sec
            outcome.stage_seconds["refine"] = outcome.stage_seconds.get("refine", 0.0) + burst.refine_sec
        except ExtractionTimeout as exc:
            raise self._record_failure([m.id for m in todo], exc, permanent=True) from exc
        except ExtractionCancelled as exc:  # shutdown: not the burst's fault, no attempt recorded
            raise TransientProcessingError(str(exc)) from exc
        except ExtractionError as exc:
            raise self._record_failure([m.id for m in todo], exc) from exc
        if scope.requests:
            per_message = scope.total_tokens / len(todo)
            for _ in todo:
                metrics.LLM_TOKENS_PER_MESSAGE.labels(self.extractor.name).observe(per_message)
        return admissible(burst.refined, self.policy)

    def _process_parts(self, parts: list[list[int]], outcome: ProcessOutcome,
                       model_slot: AbstractContextManager[object] | None = None) -> ProcessOutcome:
        """A burst over the input bounds: each part in order (see module docstring)."""
        cfg = self.settings
        log.info("burst of %d messages split into %d extractions (LONG_TERM_MEMORY_MAX_BURST_MESSAGES=%d, "
                 "LONG_TERM_MEMORY_MAX_PROMPT_CHARS=%d)", sum(map(len, parts)), len(parts),
                 cfg.LONG_TERM_MEMORY_MAX_BURST_MESSAGES, cfg.LONG_TERM_MEMORY_MAX_PROMPT_CHARS)
        failed: PermanentProcessingError | None = None
        for ids in parts:
            try:
                part = self.process(ids, model_slot)
            except PermanentProcessingError as exc:
                failed = failed or exc
                continue
            outcome.processed.extend(part.processed)
            outcome.skipped.extend(part.skipped)
            outcome.already_final.extend(part.already_final)
            outcome.writes.extend(part.writes)
            outcome.episodes.extend(part.episodes)
            outcome.episode_vectors_reused += part.episode_vectors_reused
            for stage, seconds in part.stage_seconds.items():
                outcome.stage_seconds[stage] = outcome.stage_seconds.get(stage, 0.0) + seconds
            cpu = outcome.stage_thread_cpu_seconds
            for stage, seconds in part.stage_thread_cpu_seconds.items():
                cpu[stage] = cpu.get(stage, 0.0) + seconds
        if failed is not None:
            raise failed
        return outcome

    def _input(self, session: Session, todo: Sequence[BurstMessage],
               summary_and_user: tuple[str | None, str] | None = None) -> tuple[ExtractionInput, str]:
        """The extraction input of the burst ``todo``, and the upstream id of its user;
        ``summary_and_user``: the conversation's summary and that id when already read."""
        first = todo[0]
        budget = self.settings.LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS
        burst_ids = {m.id for m in todo}
        prior = conversation_context(session, first.conversation_id, first.created_at, first.id, budget)
        # assistant replies inside the burst are context too (never a source of facts)
        last = todo[-1]
        inside = [  # none when the burst is one message: the query would return only ``prior`` rows
            m
            for m in conversation_context(
                session, first.conversation_id, last.created_at, last.id + 1, budget
            )
            if m.id not in burst_ids and (m.created_at, m.id) > (first.created_at, first.id)
        ] if len(todo) > 1 else []
        context = tuple(ContextMessage(m.role, m.content) for m in [*prior, *inside])
        existing = tuple(
            ExistingMemory(m.memory_key, m.memory_type or "fact", m.content or "")
            for m in live_rows(session, first.user_id)
        )  # the same reading as ``_live_set``, which the commit compares it with
        max_chars = self.settings.LONG_TERM_MEMORY_MAX_PROMPT_CHARS
        for m in todo:
            if len(m.content) > max_chars:
                log.warning("message %d: %d characters, extraction sees the first part only "
                            "(LONG_TERM_MEMORY_MAX_PROMPT_CHARS=%d)", m.id, len(m.content), max_chars)
        # the summary and the user's upstream id (which every outbox row of the commit names) in one read
        summary, external_id = summary_and_user or session.execute(
            select(Conversation.summary, User.external_id)
            .join(User, User.id == Conversation.user_id)
            .where(Conversation.id == first.conversation_id)
        ).one()
        return ExtractionInput(
            user_message="\n".join(cut_for_extraction(m.content, max_chars) for m in todo),
            context=context,
            summary=summary,
            existing=existing,
            sent_at=todo[-1].created_at,
        ), external_id

    def _commit(
        self, user_pk: int, conv_pk: int, external_id: str, ids: list[int], kept: list[MemoryCandidate],
        outcome: ProcessOutcome, said: Sequence[SaidMessage] = (),
        seen: Sequence[ExistingMemory] | None = None,
    ) -> bool:
        """Apply ``kept`` and the messages' final status in one transaction. With ``seen`` (the live
        memories the extraction read), nothing is written and False is returned when the user's live
        memories are no longer those (``STALE_RERUNS``); True otherwise."""
        now = datetime.now(UTC)
        with transaction(self.sessions) as session:
            remember_external_id(session, user_pk, external_id)  # read with the burst: no lookup per write
            # the user's advisory lock (``lock_user``), then the burst's rows locked, in one round trip;
            # plain rows, no ORM objects: the final status is one UPDATE
            rows = [
                m
                for m in session.connection().execute(_LOCK_BURST, {
                    "ns": int(AdvisoryLock.USER_WRITES), "uid": user_pk, "ids": list(ids)}).all()
                if not (m.memory_status in FINAL and m.extractor_version == self.version)
            ]
            if not rows:
                outcome.already_final = ids
                return True
            if seen is not None and _live_set(session, user_pk) != set(seen):
                log.info("messages %s: the user's memories changed while they were extracted; extracting "
                         "again", [m.id for m in rows])
                return False
            ctx = WriteContext(
                user_pk=user_pk,
                source=WriteSource.EXTRACTOR,
                conversation_pk=conv_pk,
                source_message_pk=rows[-1].id,
                reason=f"extracted by {self.version}",
                origin_at=min(m.created_at for m in rows),
            )
            stale = superseded_keys(session, user_pk, {c.key for c in kept}, max(m.created_at for m in rows))
            if stale:
                log.info("messages %s: %s superseded by newer statements, not applied",
                         [m.id for m in rows], sorted(stale))
            current = [c for c in kept if c.key not in stale]
            outcome.writes = apply_candidates(session, self.writer, self.deduper, ctx, current,
                                              self.named_slot)
            status = MessageStatus.PROCESSED if kept else MessageStatus.SKIPPED
            note = f"superseded by newer statements: {', '.join(sorted(stale))}"[:2000] if stale else None
            row_ids = [m.id for m in rows]
            final_status: dict[str, object] = {
                "f_row_ids": row_ids, "f_status": status.value, "f_version": self.version,
                "f_note": note if kept else "nothing worth keeping", "f_now": now}
            (outcome.processed if kept else outcome.skipped).extend(row_ids)
            if said and self.settings.EPISODES_ENABLED:  # what the user said, beside the memories
                final = set(row_ids)
                # the final status goes in the episodes' round trip (``write_episodes``' leading statement)
                self._episodes(session, user_pk, conv_pk, external_id,
                               [m for m in said if m.message_pk in final], outcome, final_status)
            else:
                session.connection().execute(_FINAL_STATUS, final_status)
        return True

    def _episodes(self, session: Session, user_pk: int, conv_pk: int, external_id: str,
                  said: list[SaidMessage], outcome: ProcessOutcome,
                  final_status: dict[str, object] | None = None) -> None:
        """The burst's episodes and their outbox rows, in the commit's transaction (``core.episodes``);
        a passage whose vector the classifier or dedup already computed carries it to the indexer.
        ``final_status``: the parameters of ``_FINAL_STATUS``, run in the same round trip."""
        cfg = self.settings
        model = self.deduper.embedder.model if self.deduper is not None else None
        cache = shared_passage_cache()
        written = write_episodes(
            session, user_pk=user_pk, conversation_pk=conv_pk, user_external_id=external_id, messages=said,
            topic=cfg.TOPIC_MEMORY_DIRTY, ttl_days=cfg.EPISODE_TTL_DAYS,
            max_chars=cfg.EPISODE_PASSAGE_MAX_CHARS, model=model,
            known_vector=(lambda t: cache.get(model, t)) if model else None,
            leading=(FINAL_STATUS_SQL, final_status) if final_status is not None else None)
        outcome.episodes.extend(written.episode_ids)
        outcome.episode_vectors_reused += written.reused_vectors

    def _record_failure(self, ids: list[int], exc: Exception, permanent: bool = False) -> ProcessingError:
        """Record a failed attempt of the burst ``ids``; returns the error for the caller to raise:
        ``PermanentProcessingError`` once the attempts are used up (or ``permanent``), else transient."""
        # NUL cannot be stored in PostgreSQL text (an endpoint's error text may carry one): escaped, or
        # recording the failure itself would fail forever and the burst would never finish
        error = f"{type(exc).__name__}: {exc}".replace("\x00", "\\0")[:2000]
        with transaction(self.sessions) as session:
            rows = lock_messages(session, ids)
            attempts = max((m.memory_attempts or 0) for m in rows) + 1 if rows else 1
            exhausted = permanent or attempts >= self.settings.MEMORY_MESSAGE_MAX_ATTEMPTS
            session.execute(
                update(Message)
                .where(Message.id.in_(ids))
                .values(
                    memory_attempts=attempts,
                    memory_error=error,
                    updated_at=datetime.now(UTC),
                    memory_status=MessageStatus.FAILED.value if exhausted else MessageStatus.PENDING.value,
                )
            )
        return PermanentProcessingError(error) if exhausted else TransientProcessingError(error)


# rows a burst's commit holds locked are skipped (it is finalising them), so the refresh never waits on
# a commit nor deadlocks with one
_KEEP_ALIVE = text("""
UPDATE messages SET updated_at = clock_timestamp()
WHERE id IN (SELECT id FROM messages WHERE id = ANY(:ids) AND memory_status = :pending
             FOR UPDATE SKIP LOCKED)
""")

# a burst's messages final, in the extraction's transaction: its own statement, or the leading statement of
# the episodes' insert (``write_episodes``), one round trip for both
FINAL_STATUS_SQL = (
    "UPDATE messages SET memory_status = :f_status, extractor_version = :f_version, "
    "memory_attempts = coalesce(memory_attempts, 0) + 1, memory_error = :f_note, "
    "processed_at = CAST(:f_now AS timestamptz), updated_at = CAST(:f_now AS timestamptz) "
    "WHERE id = ANY(CAST(:f_row_ids AS integer[]))"
)
_FINAL_STATUS = text(FINAL_STATUS_SQL)


def superseded_keys(session: Session, user_pk: int, keys: set[str], newest: datetime) -> set[str]:
    """The ``keys`` of ``user_pk`` whose history holds a change made from a message created after
    ``newest`` (the newest message of the burst being applied): applying the burst would overwrite a
    later statement with an earlier one. Writes without a source message (tools) do not count."""
    if not keys:
        return set()
    rows = session.connection().execute(_SUPERSEDED, {"user_pk": user_pk, "keys": sorted(keys),
                                                      "newest": newest}).scalars().all()
    return set(rows)


_SUPERSEDED = (  # built once: read in every burst with candidates
    select(MemoryHistory.memory_key)
    .join(Message, Message.id == MemoryHistory.source_message_id)
    .where(
        MemoryHistory.user_id == bindparam("user_pk"),
        MemoryHistory.memory_key == any_(bindparam("keys", type_=ARRAY(String))),
        Message.created_at > bindparam("newest", type_=DateTime(timezone=True)),
    )
    .distinct()
)
