"""The demo's users (``cli/samples/demo_conversations.jsonl`` and ``demo_commands.jsonl``) through
``MessageProcessor`` and ``MemoryTools`` on the real database, the command applied in every order it can
land in against the extraction of its user's conversation: before the burst is read, while it is
extracted (after its read, before its commit: the extractor is wrapped so the command runs inside its
``extract``), and after its commit. Every order ends in the same live memories: a tool rule that says what
the user said is one memory (``core.memory.tools``' dedup, the upsert's reuse), and a project's news
appended by a tool while the burst was extracted is kept (``core.memory.processing``: a burst whose
user's memories changed before its commit is extracted again)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.embedding.factory import build_embedder
from core.extraction.candidates import (
    CandidateExtractor,
    DelegatingExtractor,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.factory import build_extractor
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage
from core.memory.tools import MemoryTools, ToolCommand
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, User

pytestmark = pytest.mark.services
SAMPLES = Path(__file__).resolve().parents[3] / "cli" / "samples"
T0 = datetime.now(UTC) - timedelta(hours=1)
USERS = ("demo-alice", "demo-carla")  # the users whose command restates or adds to what they say
ORDERS = ("before", "during", "after")


def _lines(name: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in (SAMPLES / name).read_text(encoding="utf-8").splitlines()]


class _Interleaved(DelegatingExtractor):
    """The provider, running a pending action (a tool command) when the next extraction starts: after the
    burst read the user's memories, before it commits."""

    def __init__(self, inner: CandidateExtractor) -> None:
        super().__init__(inner)
        self.pending: Callable[[], object] | None = None

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        if self.pending is not None:
            action, self.pending = self.pending, None
            action()
        return self.inner.extract(data)

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self.inner.refine(data, candidates)


@pytest.fixture(scope="module")
def models(settings: Settings) -> Iterator[tuple[SemanticDeduper, CandidateExtractor]]:
    reuse, merge = settings.dedup_thresholds
    yield SemanticDeduper(build_embedder(settings), reuse, merge), build_extractor(settings)


def _play(settings: Settings, engine: Engine, models: tuple[SemanticDeduper, CandidateExtractor],
          order: str, turns: bool = False, at: int = 0) -> dict[str, list[tuple[str, str]]]:
    """Each user's conversation (one burst, or one burst per user turn with ``turns``) and command, the
    command ``order`` the burst ``at``, under user ids of their own (``<user>.<order>``); the live memories
    of each sample user as (key, content)."""
    deduper, inner = models
    extractor = _Interleaved(inner)
    processor = MessageProcessor(settings, session_factory(engine), extractor, deduper)
    writer = MemoryWriter.from_settings(settings, vectors=deduper)
    tools = MemoryTools(session_factory(engine), writer, deduper, extractor.named_slot)
    live: dict[str, list[tuple[str, str]]] = {}
    for conv in _lines("demo_conversations.jsonl"):
        sample = conv["user_id"]
        if sample not in USERS:
            continue
        user = f"{sample}.{order}"
        (c,) = [c for c in _lines("demo_commands.jsonl") if c["user_id"] == sample]
        fields = {f: c[f] for f in ("memory_type", "importance", "confidence", "ttl_days") if f in c}
        command = ToolCommand.of(c["tool"], user, c["key"], c.get("content", ""), **fields)
        pks = []
        for i, m in enumerate(conv["messages"]):
            got = processor.ingest(IncomingMessage(
                message_id=f"{user}:{i}", user_id=user, conversation_id=f"{user}:c",
                role=m["role"], content=m["content"], created_at=T0 + timedelta(seconds=i)))
            if m["role"] == "user":
                pks.append(got.message_pk)
        bursts = [[pk] for pk in pks] if turns else [pks]
        for i, burst in enumerate(bursts):
            if i == at and order == "before":
                tools.apply(command)
            elif i == at and order == "during":
                extractor.pending = lambda command=command: tools.apply(command)
            processor.process(burst)
        if order == "after":
            tools.apply(command)
        with Session(engine) as s:
            live[sample] = [(k, c or "") for k, c in s.execute(
                select(LongTermMemory.memory_key, LongTermMemory.content)
                .join(User, User.id == LongTermMemory.user_id)
                .where(User.external_id == user, LongTermMemory.is_active)
                .order_by(LongTermMemory.memory_key))]
    return live


def _holding(memories: list[tuple[str, str]], *words: str) -> list[tuple[str, str]]:
    return [m for m in memories if any(w in m[1].lower() for w in words)]


def _check(live: dict[str, list[tuple[str, str]]]) -> None:
    rule = _holding(live["demo-alice"], "vegetarian", "meat")
    assert len(rule) == 1, live["demo-alice"]
    project = _holding(live["demo-carla"], "pennywise")
    assert len(project) == 1 and "csv import" in project[0][1].lower() \
        and "budgeting app" in project[0][1].lower(), live["demo-carla"]


def test_every_order_ends_in_the_same_memories(settings: Settings, clean_db: Engine,
                                              models: tuple[SemanticDeduper, CandidateExtractor]) -> None:
    keys = {}
    for order in ORDERS:
        live = _play(settings, clean_db, models, order)
        _check(live)
        keys[order] = {user: [k for k, _ in memories] for user, memories in live.items()}
    assert keys["before"] == keys["during"] == keys["after"], keys


@pytest.mark.parametrize("order", ORDERS)
def test_the_command_among_the_turns(settings: Settings, clean_db: Engine,
                                     models: tuple[SemanticDeduper, CandidateExtractor], order: str) -> None:
    """One burst per user turn, the command landing after the user's second turn (after the rule was said)."""
    _check(_play(settings, clean_db, models, order, turns=True, at=2))


def test_the_command_before_the_turns(settings: Settings, clean_db: Engine,
                                      models: tuple[SemanticDeduper, CandidateExtractor]) -> None:
    """One burst per user turn, the command before the first: the rule must outlive the later turns (the
    update judge once read the later reply-length rule as superseding the tool's diet rule, whose key is the
    tool's own: ``slots.names_a_slot``)."""
    _check(_play(settings, clean_db, models, "before", turns=True, at=0))
