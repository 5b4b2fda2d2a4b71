"""Stage 3 (upsert) with the real local embedder for semantic dedup, over real PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from core.config import Settings
from core.embedding.factory import build_embedder
from core.extraction.candidates import MemoryCandidate
from core.extraction.rules.slots import is_known_slot
from core.memory.dedup import SemanticDeduper
from core.memory.reader import list_live
from core.memory.store import get_or_create_user, lock_user
from core.memory.upsert import apply_candidates
from core.memory.writer import MemoryWriter, WriteContext
from core.storage.db import session_factory, transaction
from core.types import MemoryType, WriteSource

pytestmark = pytest.mark.services


def _apply(
    engine: Engine, settings: Settings, deduper: SemanticDeduper, user: str, cands: list[MemoryCandidate]
) -> dict[str, str]:
    sessions = session_factory(engine)
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=180)
    with transaction(sessions) as s:
        pk = get_or_create_user(s, user)
        lock_user(s, pk)
        apply_candidates(s, writer, deduper, WriteContext(user_pk=pk, source=WriteSource.EXTRACTOR), cands,
                         named_slot=is_known_slot)
    with sessions() as s:
        return {m.memory_key: m.content or "" for m in list_live(s, pk)}


def test_known_slots_are_never_semantic_duplicates_but_paraphrased_keys_are(
    settings: Settings, clean_db: Engine
) -> None:
    # a permissive reuse threshold: anything of the same type would be a "duplicate"
    deduper = SemanticDeduper(build_embedder(settings), reuse=0.5, merge=0.999)
    fact = MemoryType.FACT
    first = [MemoryCandidate(memory_type=fact, key="fact-hometown", content="我老家是湖南的")]
    _apply(clean_db, settings, deduper, "slots", first)
    live = _apply(
        clean_db,
        settings,
        deduper,
        "slots",
        [MemoryCandidate(memory_type=fact, key="fact-home_city", content="我常住长沙")],
    )
    assert live == {"fact-hometown": "我老家是湖南的", "fact-home_city": "我常住长沙"}

    # an unknown (e.g. LLM-made) key paraphrasing an existing memory reuses that memory's key
    _apply(
        clean_db,
        settings,
        deduper,
        "para",
        [MemoryCandidate(memory_type=fact, key="drink-tea", content="Loves oolong tea")],
    )
    live = _apply(
        clean_db,
        settings,
        deduper,
        "para",
        [MemoryCandidate(memory_type=fact, key="beverage-favourite", content="Really loves oolong tea")],
    )
    assert live == {"drink-tea": "Really loves oolong tea"}


def test_two_life_events_stay_two_memories_however_close_their_texts(
    settings: Settings, clean_db: Engine
) -> None:
    """Each life event is its own dated fact (``RulesExtractor.named_slot``): a second event neither reuses
    the first one's key nor merges it away, even with thresholds that treat any two facts as copies."""
    from core.extraction.rules import RulesExtractor

    named = RulesExtractor().named_slot
    deduper = SemanticDeduper(build_embedder(settings), reuse=0.5, merge=0.5, lexical=None,
                              merge_overlap=None)
    fact = MemoryType.FACT
    sessions = session_factory(clean_db)
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=180)
    events = [
        ("fact-event-went_lgbtq_support_group", "I went to a LGBTQ support group yesterday (2023-05-07)"),
        ("fact-event-went_lgbtq_conference", "I went to an LGBTQ conference two days ago (2023-07-08)"),
    ]
    for key, content in events:
        with transaction(sessions) as s:
            pk = get_or_create_user(s, "events")
            lock_user(s, pk)
            apply_candidates(s, writer, deduper, WriteContext(user_pk=pk, source=WriteSource.EXTRACTOR),
                             [MemoryCandidate(memory_type=fact, key=key, content=content)], named_slot=named)
    with sessions() as s:
        live = {m.memory_key: m.content for m in list_live(s, pk)}
    assert live == dict(events)
    # the same permissive deduper does merge two facts that are not named slots (the check can fail)
    with transaction(sessions) as s:
        pk2 = get_or_create_user(s, "plain")
        lock_user(s, pk2)
        for key, content in (("fact-a", events[0][1]), ("fact-b", events[1][1])):
            apply_candidates(s, writer, deduper, WriteContext(user_pk=pk2, source=WriteSource.EXTRACTOR),
                             [MemoryCandidate(memory_type=fact, key=key, content=content)], named_slot=named)
    with sessions() as s:
        assert len(list_live(s, pk2)) == 1
