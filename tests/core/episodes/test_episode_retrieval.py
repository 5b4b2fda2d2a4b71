"""Dense retrieval over memories and episodes (real PostgreSQL, Milvus and the local model): the answer
and the prompt block keep them apart, each with its own limit; the question's time intent splits the
limits; since/until and relative dates; full_inject stays memories only; a knowledge update prefers the
newer statement."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.episodes.indexing import EpisodeIndexer, build_episode_indexer
from core.episodes.search import read_episode_block
from core.extraction.factory import build_extractor
from core.indexing import MemoryIndexer
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage
from core.retrieval import Retriever, ServedBy, build_retriever, read_prompt_block
from core.storage.db import session_factory
from core.storage.models import Episode, LongTermMemory
from tests.support.indexing import running_indexer

pytestmark = pytest.mark.services

_LOCAL = LocalE5Embedder()
NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)  # a Friday: last weekend is 2026-11-28 .. 2026-11-29


@dataclass
class World:
    settings: Settings
    engine: Engine
    processor: MessageProcessor
    memories: MemoryIndexer
    episodes: EpisodeIndexer
    retriever: Retriever
    n: int = 0

    def say(self, user: str, conversation: str, text: str, at: datetime) -> None:
        self.n += 1
        msg = IncomingMessage(f"m{self.n}", user, conversation, "user", text, at)
        pk = self.processor.ingest(msg).message_pk
        self.processor.process([pk])

    def sync(self) -> None:
        with Session(self.engine) as s:
            self.memories.sync(s.scalars(select(LongTermMemory.id)).all())
            self.episodes.sync(s.scalars(select(Episode.id)).all())


@pytest.fixture
def world(settings: Settings, clean_db: Engine, unique_name) -> Iterator[World]:
    with running_indexer(settings, clean_db, unique_name("epr"), _LOCAL) as (cfg, memories):
        sessions = session_factory(clean_db)
        processor = MessageProcessor(cfg, sessions, build_extractor(cfg), SemanticDeduper(_LOCAL, 0.96, 0.97))
        episodes = build_episode_indexer(cfg, sessions, _LOCAL)
        episodes.start()
        retriever = build_retriever(cfg.model_copy(update={"RETRIEVAL_DENSE_TIMEOUT_SEC": 30.0,
                                                           "MEMORY_MILVUS_ENABLED": True}), sessions,
                                    _LOCAL)
        try:
            yield World(cfg, clean_db, processor, memories, episodes, retriever)
        finally:
            retriever.close()
            episodes.index.drop_collection()
            episodes.close()


def _story(w: World) -> None:
    w.say("ann", "trip-1", "Last weekend I went kayaking on Lake Tahoe with my brother Sam.",
          NOW - timedelta(days=6))
    w.say("ann", "trip-2", "In October I went kayaking in Norway, the fjords were stunning.",
          NOW - timedelta(days=50))
    w.say("ann", "food", "I'm vegetarian and I love spicy Sichuan food.", NOW - timedelta(days=30))
    w.say("ann", "work", "I work as a nurse at a children's hospital.", NOW - timedelta(days=40))
    w.say("ann", "misc", "thanks!", NOW - timedelta(days=1))
    w.say("bob", "b1", "Last weekend I went kayaking on Lake Tahoe too.", NOW - timedelta(days=6))
    w.sync()


def test_dense_returns_memories_and_episodes_apart_with_their_own_blocks(world: World) -> None:
    _story(world)
    result = world.retriever.retrieve("ann", "what did I do last weekend?", mode=RetrieveMode.DENSE,
                                      asked_at=NOW)
    assert result.served_by is ServedBy.DENSE and result.intent == "past", result.fallback_reason
    assert result.episodes, result.as_dict()
    top = result.episodes[0]
    assert "Lake Tahoe" in top.episode.content and top.in_window and top.episode.conversation == "trip-1"
    # only ann's words, never bob's, never the thanks
    contents = [e.episode.content for e in result.episodes]
    assert all("too" not in c and c != "thanks!" for c in contents)
    # the prompt: a <user_memories> section and a <user_episodes> section, each fenced and read back
    block = result.prompt_block
    assert block.index("<user_memories>") < block.index("<user_episodes>") if result.items else True
    episodes = read_episode_block(block)
    assert {"date": "2026-11-28", "conversation": "trip-1",
            "content": top.episode.content} in episodes
    assert [m["content"] for m in read_prompt_block(block)] == [i.memory.content for i in result.items]
    body = result.as_dict()
    assert body["episodes"][0]["episode"]["conversation"] == "trip-1" and body["intent"] == "past"


def test_the_question_decides_which_kind_it_leans_on(world: World) -> None:
    _story(world)
    cfg = world.settings
    past = world.retriever.retrieve("ann", "When did I go kayaking in Norway?", mode=RetrieveMode.DENSE,
                                    asked_at=NOW)
    taste = world.retriever.retrieve("ann", "What food do I like?", mode=RetrieveMode.DENSE, asked_at=NOW)
    assert past.intent == "past" and taste.intent == "taste"
    m, e = cfg.LONG_TERM_MEMORY_RETRIEVE_LIMIT, cfg.EPISODE_RETRIEVE_LIMIT
    for result in (past, taste):
        # both kinds pooled for the two limits' sum (core.retrieval.merge); ``order`` lists what was served
        assert len(result.items) + len(result.episodes) <= m + e
        served = ({("memory", i.memory.id) for i in result.items}
                  | {("episode", x.episode.id) for x in result.episodes})
        assert {(p.kind, p.id) for p in result.order} == served
        assert [p.score for p in result.order] == sorted((p.score for p in result.order), reverse=True)
    assert "Norway" in past.episodes[0].episode.content and past.order[0].kind == "episode"
    assert any("Sichuan" in i.memory.content or "vegetarian" in i.memory.content for i in taste.items)
    assert taste.order[0].kind == "memory", taste.order
    # explicit limits are served as given
    fixed = world.retriever.retrieve("ann", "When did I go kayaking in Norway?", mode=RetrieveMode.DENSE,
                                     limit=1, episode_limit=1)
    assert len(fixed.items) <= 1 and len(fixed.episodes) == 1


def test_since_until_and_relative_dates_resolved_from_the_question_time(world: World) -> None:
    _story(world)
    question = "Where did I go kayaking?"
    only_october = world.retriever.retrieve("ann", question, mode=RetrieveMode.DENSE,
                                            since=datetime(2026, 10, 1, tzinfo=UTC),
                                            until=datetime(2026, 11, 1, tzinfo=UTC))
    assert only_october.episodes[0].episode.conversation == "trip-2"
    assert all(datetime(2026, 10, 1, tzinfo=UTC) <= e.episode.sent_at < datetime(2026, 11, 1, tzinfo=UTC)
               for e in only_october.episodes)
    assert "trip-1" not in {e.episode.conversation for e in only_october.episodes}
    # "last weekend" asked on 2026-12-04 is 2026-11-28..29: the Tahoe trip; asked two months later, the
    # same words name another weekend and favour nothing
    now = world.retriever.retrieve("ann", "Where did I go kayaking last weekend?", mode=RetrieveMode.DENSE,
                                   asked_at=NOW)
    assert now.episodes[0].in_window and now.episodes[0].episode.conversation == "trip-1"
    later = world.retriever.retrieve("ann", "Where did I go kayaking last weekend?", mode=RetrieveMode.DENSE,
                                     asked_at=NOW + timedelta(days=60))
    assert not any(e.in_window for e in later.episodes)


def test_full_inject_stays_memories_only(world: World) -> None:
    _story(world)
    result = world.retriever.retrieve("ann", "what did I do last weekend?", mode=RetrieveMode.FULL_INJECT)
    assert result.items and result.episodes == [] and "<user_episodes>" not in result.prompt_block


def test_a_knowledge_update_prefers_the_newer_statement_the_memory(world: World) -> None:
    world.say("cy", "c1", "I live in Wuhan.", NOW - timedelta(days=90))
    world.say("cy", "c2", "I moved to Shanghai last month, I live there now.", NOW - timedelta(days=2))
    world.sync()
    result = world.retriever.retrieve("cy", "Which city do I live in?", mode=RetrieveMode.DENSE, asked_at=NOW)
    # the memory holds the newer statement and comes first in the prompt; the old city is no memory
    assert result.items and "Shanghai" in result.items[0].memory.content
    # and in the pooled order of both kinds the memory comes before the old episode
    old = [e.episode.id for e in result.episodes if e.episode.content == "I live in Wuhan."]
    ranks = {(p.kind, p.id): n for n, p in enumerate(result.order)}
    newer = ranks[("memory", result.items[0].memory.id)]
    assert all(newer < ranks[("episode", i)] for i in old), result.order
    assert not any("Wuhan" in i.memory.content for i in result.items)
    block = result.prompt_block
    assert block.index("Shanghai") < block.index("<user_episodes>")
    # both statements remain findable as what the user said, each with its date
    dates = {e["content"]: e["date"] for e in read_episode_block(block)}
    assert dates.get("I live in Wuhan.") == (NOW - timedelta(days=90)).date().isoformat()
