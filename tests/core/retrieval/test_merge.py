"""The pooled order of memories and episodes (``core.retrieval.merge``): pure, no services."""

from __future__ import annotations

from datetime import UTC, datetime
from statistics import NormalDist

import pytest

from core.episodes.search import EpisodeView, RetrievedEpisode
from core.memory.tools import MemoryView
from core.retrieval import merge
from core.retrieval.merge import (
    EPISODE,
    FLOOR_SHARE,
    LEAN,
    MEMORY,
    MIN_BACKGROUND,
    NEUTRAL_LEAN,
    WINDOW_LEAN,
    Backgrounds,
    collection_size,
    pooled_order,
    take_pooled,
)
from core.retrieval.ranking import RetrievedMemory, ScoreComponents

AT = datetime(2026, 11, 1, tzinfo=UTC)


def mem(mid: int, cosine: float) -> RetrievedMemory:
    view = MemoryView(mid, f"k{mid}", "fact", f"memory {mid}", 3, 0.9, AT, AT, None, None)
    return RetrievedMemory(view, 0.5, ScoreComponents(0.5, 0.5, 0.9, 0.5, 0.0, cosine))


def ep(eid: int, cosine: float, in_window: bool = False) -> RetrievedEpisode:
    return RetrievedEpisode(EpisodeView(eid, 100 + eid, 0, f"said {eid}", AT, "c1"), 0.5, cosine, in_window)


def kinds(order: list) -> list[tuple[str, int]]:
    return [(p.kind, p.id) for p in order]


@pytest.fixture
def no_neutral_lean(monkeypatch: pytest.MonkeyPatch) -> None:
    """A question with no time intent leans on neither kind: the pool's own mechanics, alone."""
    monkeypatch.setattr(merge, "NEUTRAL_LEAN_ON", False)


@pytest.mark.usefixtures("no_neutral_lean")
def test_both_kinds_pool_by_cosine_and_a_tie_goes_to_the_memory() -> None:
    order = pooled_order([mem(1, 0.85), mem(2, 0.80)], [ep(1, 0.86), ep(2, 0.80), ep(3, 0.70)], "neutral")
    assert kinds(order) == [(EPISODE, 1), (MEMORY, 1), (MEMORY, 2), (EPISODE, 2), (EPISODE, 3)]


def test_the_time_intent_leans_a_near_tie_and_a_window_lifts_an_episode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    items, episodes = [mem(1, 0.85)], [ep(1, 0.85 - LEAN / 2)]
    assert kinds(pooled_order(items, episodes, "past"))[0] == (EPISODE, 1)
    assert kinds(pooled_order(items, episodes, "neutral"))[0] == (MEMORY, 1)  # no time intent: no lean
    # the measured arm: no time intent leans a near tie to what the user said, a clear one stays
    monkeypatch.setattr(merge, "NEUTRAL_LEAN_ON", True)
    assert kinds(pooled_order(items, [ep(1, 0.85 - NEUTRAL_LEAN / 2)], "neutral"))[0] == (EPISODE, 1)
    assert kinds(pooled_order(items, [ep(1, 0.85 - 2 * NEUTRAL_LEAN)], "neutral"))[0] == (MEMORY, 1)
    assert kinds(pooled_order([mem(1, 0.85 - LEAN / 2)], [ep(1, 0.85)], "taste"))[0] == (MEMORY, 1)
    # a clear winner is not moved by the lean
    assert kinds(pooled_order([mem(1, 0.90)], [ep(1, 0.80)], "past"))[0] == (MEMORY, 1)
    assert kinds(pooled_order(items, [ep(1, 0.85 - WINDOW_LEAN / 2, in_window=True)], "neutral"))[0] == (
        EPISODE, 1)


def test_the_memory_that_replaced_a_stale_episode_comes_right_before_it() -> None:
    # ep 1 (message 101) said the old value that memory 1's overwrite replaced: however far above the
    # memory the question ranks it, the memory is read first; the old statement and the episodes after
    # it keep their places
    items, episodes = [mem(2, 0.83), mem(1, 0.80)], [ep(1, 0.95, in_window=True), ep(2, 0.85), ep(3, 0.82)]
    stale = {101: 1}
    order = pooled_order(items, episodes, "past", superseded=stale)
    assert kinds(order) == [(MEMORY, 1), (EPISODE, 1), (EPISODE, 2), (EPISODE, 3), (MEMORY, 2)]
    top = round(0.95 + LEAN + WINDOW_LEAN, 6)
    assert next(p.score for p in order if p.kind == EPISODE and p.id == 1) == top
    # a supersession by a memory that is not a candidate changes nothing in the pool
    assert kinds(pooled_order(items[:1], episodes, "past", superseded={101: 9})) == [
        (EPISODE, 1), (EPISODE, 2), (EPISODE, 3), (MEMORY, 2)]
    kept_m, kept_e, order = take_pooled(items, episodes, 3, "neutral", superseded=stale)
    assert kinds(order) == [(MEMORY, 1), (EPISODE, 1), (EPISODE, 2)]
    assert [i.memory.id for i in kept_m] == [1] and [e.episode.id for e in kept_e] == [1, 2]


def test_each_kind_keeps_its_own_order() -> None:
    # the rerank put a memory of a lower cosine first: the one after it does not pass it in the pool
    order = pooled_order([mem(1, 0.70), mem(2, 0.90)], [ep(1, 0.80)], "neutral")
    assert kinds(order) == [(EPISODE, 1), (MEMORY, 1), (MEMORY, 2)]


def test_take_pooled_serves_the_first_total_split_back_into_the_kinds() -> None:
    items = [mem(1, 0.90), mem(2, 0.75), mem(3, 0.60)]
    episodes = [ep(1, 0.85), ep(2, 0.80), ep(3, 0.50)]
    kept_m, kept_e, order = take_pooled(items, episodes, 4, "neutral")
    assert [i.memory.id for i in kept_m] == [1, 2] and [e.episode.id for e in kept_e] == [1, 2]
    assert kinds(order) == [(MEMORY, 1), (EPISODE, 1), (EPISODE, 2), (MEMORY, 2)]
    assert take_pooled(items, [], 2, "past")[0] == items[:2]
    assert take_pooled([], episodes, 0, "past") == ([], [], [])


def test_each_kind_is_sure_of_a_share_of_the_budget() -> None:
    items = [mem(i, 0.70 - i / 100) for i in range(1, 6)]  # every memory below every episode
    episodes = [ep(i, 0.90 - i / 100) for i in range(1, 11)]
    total = 2 * FLOOR_SHARE
    kept_m, kept_e, order = take_pooled(items, episodes, total, "past")
    assert [i.memory.id for i in kept_m] == [1, 2]  # the memories' best two, though the pool ranks them last
    assert [e.episode.id for e in kept_e] == list(range(1, 9)) and len(order) == total
    assert kinds(order)[-2:] == [(MEMORY, 1), (MEMORY, 2)]  # listed where the pool puts them
    assert len(take_pooled(items, episodes, FLOOR_SHARE - 1, "past")[0]) == 0  # a small budget: no share


def test_each_kind_stays_within_its_own_limit() -> None:
    items = [mem(i, 0.95 - i / 100) for i in range(1, 11)]  # every memory above every episode
    episodes = [ep(i, 0.50 - i / 100) for i in range(1, 11)]
    kept_m, kept_e, order = take_pooled(items, episodes, 12, "taste", max_items=6, max_episodes=6)
    assert [i.memory.id for i in kept_m] == list(range(1, 7))  # LONG_TERM_MEMORY_RETRIEVE_LIMIT holds
    assert [e.episode.id for e in kept_e] == list(range(1, 7))
    assert kinds(order)[:6] == [(MEMORY, i) for i in range(1, 7)] and len(order) == 12
    few_m, few_e, _ = take_pooled(items[:2], episodes, 12, "past", max_items=6, max_episodes=6)
    assert len(few_m) == 2 and len(few_e) == 6  # a kind short of candidates leaves its places empty


def test_a_memory_and_the_episode_of_the_message_it_states_take_one_place() -> None:
    # memory 1 states message 101 (episode 1's): the two say one thing, the pool's first of them is served
    # and the place the other would take goes to the next candidate
    items = [mem(1, 0.90), mem(2, 0.70), mem(3, 0.60)]
    episodes = [ep(1, 0.85), ep(2, 0.80), ep(3, 0.75)]
    kept_m, kept_e, order = take_pooled(items, episodes, 4, "neutral", stated={1: 101})
    assert kinds(order) == [(MEMORY, 1), (EPISODE, 2), (EPISODE, 3), (MEMORY, 2)]
    assert [e.episode.id for e in kept_e] == [2, 3] and [i.memory.id for i in kept_m] == [1, 2]
    # the episode first (a question about the past leans on it): the memory gives up its place
    _, kept_e, order = take_pooled([mem(1, 0.85)], [ep(1, 0.85), ep(2, 0.50)], 2, "past", stated={1: 101})
    assert kinds(order) == [(EPISODE, 1), (EPISODE, 2)]
    # a memory stating another message, or none, keeps its place
    assert len(take_pooled(items, episodes, 6, "neutral", stated={1: 999})[2]) == 6
    assert len(take_pooled(items, episodes, 6, "neutral")[2]) == 6


def _spread(centre: float, width: float, n: int) -> list[float]:
    return [centre + width * (i / (n - 1) - 0.5) for i in range(n)]


@pytest.mark.usefixtures("no_neutral_lean")
def test_each_kind_is_standardised_against_its_own_hits_for_the_question() -> None:
    # the memories' cosines sit lower than the episodes' (a distilled line against what was said): the
    # best memory stands far above the other memories, the best episode only just above the episodes
    m_hits = [0.80, *_spread(0.70, 0.04, 39)]
    e_hits = [0.83, *_spread(0.81, 0.04, 79)]
    backgrounds = Backgrounds(m_hits, e_hits)
    items, episodes = [mem(1, 0.80), mem(2, 0.71)], [ep(1, 0.83), ep(2, 0.82)]
    assert kinds(pooled_order(items, episodes, "neutral")) == [
        (EPISODE, 1), (EPISODE, 2), (MEMORY, 1), (MEMORY, 2)]  # raw cosines: the episodes crowd it out
    order = pooled_order(items, episodes, "neutral", backgrounds=backgrounds)
    assert kinds(order)[0] == (MEMORY, 1)  # on each kind's own ruler, the memory is the clearer answer
    assert [p.score for p in order] == sorted((p.score for p in order), reverse=True)
    # the same depth of each list is read: hits below the shorter list's length do not count
    deeper = Backgrounds(m_hits, [*e_hits, *([0.10] * 200)])
    assert kinds(pooled_order(items, episodes, "neutral", backgrounds=deeper)) == kinds(order)
    # the calibration is affine per kind: each kind keeps its own order, and a shift of every cosine of
    # one kind (its hits and its candidates alike) changes nothing
    shifted = Backgrounds([c - 0.05 for c in m_hits], e_hits)
    assert kinds(pooled_order([mem(1, 0.75), mem(2, 0.66)], episodes, "neutral", backgrounds=shifted)) == \
        kinds(order)
    _, _, served = take_pooled(items, episodes, 2, "neutral", backgrounds=backgrounds)
    assert kinds(served)[0] == (MEMORY, 1)


def test_too_few_hits_or_no_spread_keep_the_raw_cosines() -> None:
    items, episodes = [mem(1, 0.80)], [ep(1, 0.83)]
    raw = kinds(pooled_order(items, episodes, "neutral"))
    few = Backgrounds([0.80] * (MIN_BACKGROUND - 2) + [0.5], _spread(0.8, 0.1, 50))
    flat = Backgrounds([0.7] * 40, _spread(0.8, 0.1, 50))
    assert few.calibration() is None and flat.calibration() is None
    for bg in (few, flat, None):
        assert kinds(pooled_order(items, episodes, "neutral", backgrounds=bg)) == raw


def test_on_each_kinds_ruler_the_newer_statement_still_comes_before_the_stale_one() -> None:
    # a knowledge update with a background that puts the memory far below the old episode: the memory
    # that replaced what episode 1 said is still read right before it
    backgrounds = Backgrounds(_spread(0.80, 0.02, 40), _spread(0.60, 0.40, 80))
    items, episodes = [mem(1, 0.70)], [ep(1, 0.95), ep(2, 0.90)]
    order = pooled_order(items, episodes, "neutral", superseded={101: 1}, backgrounds=backgrounds)
    assert kinds(order) == [(MEMORY, 1), (EPISODE, 1), (EPISODE, 2)]


def _collection(centre: float, spread: float, n: int) -> list[float]:
    """``n`` cosines spread like a normal sample around ``centre``, best first."""
    return [centre + spread * NormalDist().inv_cdf(1 - (i + 0.5) / n) for i in range(n)]


@pytest.mark.usefixtures("no_neutral_lean")
def test_each_kind_is_standardised_against_the_same_share_of_its_collection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(merge, "SAME_SHARE", True)
    # 40 memories, all among the hits; 400 episodes, of which the search returned the best 96: counted by
    # hits alone, the memories' background is their whole spread and the episodes' the top of theirs, so
    # the best memory, no further above its 40 than the best of 40 draws is, passes the third episode
    memories, episodes_all = _collection(0.75, 0.03, 40), _collection(0.80, 0.03, 400)
    hits = episodes_all[:96]
    items = [mem(1, memories[0]), mem(2, memories[1])]
    episodes = [ep(i + 1, episodes_all[i]) for i in range(5)]
    by_count = Backgrounds(memories, hits)
    assert by_count.depths() == (40, 40)
    assert kinds(pooled_order(items, episodes, "neutral", backgrounds=by_count))[:3] == [
        (EPISODE, 1), (EPISODE, 2), (MEMORY, 1)]
    # with the sizes known each kind's background is the same share (96 of 400: 24 %) of its collection
    by_share = Backgrounds(memories, hits, memory_total=40, episode_total=400)
    assert by_share.depths() == (MIN_BACKGROUND, 96)
    order = kinds(pooled_order(items, episodes, "neutral", backgrounds=by_share))
    assert order[:5] == [(EPISODE, 1), (EPISODE, 2), (EPISODE, 3), (EPISODE, 4), (MEMORY, 1)]
    # a memory that stands out of its collection still comes first, and each kind keeps its own order
    assert kinds(pooled_order([mem(3, 0.75 + 4 * 0.03)], episodes, "neutral", backgrounds=by_share))[0] == (
        MEMORY, 3)
    # off (the shipped default), or sizes that do not fit the hits (or are not known): the same count
    monkeypatch.setattr(merge, "SAME_SHARE", False)
    assert by_share.depths() == (40, 40)
    monkeypatch.setattr(merge, "SAME_SHARE", True)
    assert Backgrounds(memories, hits, memory_total=30, episode_total=400).depths() == (40, 40)
    assert Backgrounds(memories, hits, memory_total=40).depths() == (40, 40)
    # both kinds whole: each background is its whole collection
    assert Backgrounds(memories, episodes_all[:60], memory_total=40, episode_total=60).depths() == (40, 60)


def test_a_kinds_collection_size_is_known_from_a_short_hit_list_or_a_count_that_holds_them() -> None:
    assert collection_size({1, 2, 3}, asked=80) == 3  # fewer came back than were asked: all of them
    assert collection_size(set(range(80)), asked=80) is None  # as many as asked: more may exist
    assert collection_size(set(range(96)), asked=96, counted=317) == 317  # the lexical corpus counted them
    assert collection_size(set(range(96)), asked=96, counted=50) is None  # a count that cannot hold the hits


def test_a_first_of_a_message_its_limit_keeps_out_gives_the_place_back() -> None:
    # episode 3 (message 103) ranks above memory 1, which states the same message, but the episodes'
    # limit of two serves episodes 1 and 2 only: memory 1 is served, the message is not lost
    items = [mem(1, 0.70), mem(2, 0.60)]
    episodes = [ep(1, 0.90), ep(2, 0.85), ep(3, 0.80)]
    kept_m, kept_e, order = take_pooled(items, episodes, 4, "past", max_items=2, max_episodes=2,
                                        stated={1: 103})
    assert [e.episode.id for e in kept_e] == [1, 2] and [i.memory.id for i in kept_m] == [1, 2]
    assert kinds(order) == [(EPISODE, 1), (EPISODE, 2), (MEMORY, 1), (MEMORY, 2)]
    # with room for it, the episode ranked first takes the message's place
    kept_m, kept_e, _ = take_pooled(items, episodes, 4, "past", max_items=2, max_episodes=3, stated={1: 103})
    assert [e.episode.id for e in kept_e] == [1, 2, 3] and [i.memory.id for i in kept_m] == [2]
