"""Hybrid episode retrieval (``core.episodes.hybrid``) and its place in the ranking and the pooled order:
pure, no services."""

from __future__ import annotations

from datetime import UTC, datetime

from core.episodes.hybrid import hybrid_candidates, hybrid_with_corpus, lexical_scores
from core.episodes.search import EpisodeView, RetrievedEpisode, rank_episodes
from core.lexical import tokenize
from core.memory.tools import MemoryView
from core.retrieval.merge import EPISODE, MEMORY, memory_lexical, pooled_order
from core.retrieval.ranking import RetrievedMemory, ScoreComponents

AT = datetime(2026, 11, 1, tzinfo=UTC)


def view(eid: int, text: str) -> EpisodeView:
    return EpisodeView(eid, 100 + eid, 0, text, AT, "c1")


def terms(question: str) -> set[str]:
    return set(tokenize(question))


POTTERY = view(1, "I signed up for a pottery class with Melanie last Friday.")
PAINTING = view(2, "We painted a sunset together at the lake, it was lovely.")
WORK = view(3, "Work has been busy, lots of meetings this week.")
RUN = view(4, "I ran a charity race for mental health on Saturday.")


def test_lexical_scores_are_the_share_of_the_question_and_leave_out_what_shares_no_word() -> None:
    scores = lexical_scores(terms("When did she sign up for pottery?"), [POTTERY, PAINTING, WORK])
    assert scores.keys() == {1} and 0.85 < scores[1] <= 1.0  # holds every word (a longer passage: a bit less)
    both = lexical_scores(terms("pottery painting"), [POTTERY, PAINTING, WORK])
    assert both.keys() == {1, 2} and all(0.3 < s < 0.7 for s in both.values())  # each holds one of two
    # not scaled to the best: a passage holding one of the question's three words gets that word's
    # share, not the whole weight; a word no episode holds is still part of the question (counted as
    # the rarest word), so every share shrinks and none rises (the order of the passages stays)
    weak = lexical_scores(terms("a pottery class by the lake"), [POTTERY, PAINTING, WORK])
    assert weak.keys() == {1, 2} and weak[2] < 0.5 < weak[1]
    unheld = lexical_scores(terms("a pottery class by the lake, Zorblax"), [POTTERY, PAINTING, WORK])
    assert unheld.keys() == weak.keys() and all(unheld[k] < weak[k] for k in weak) and unheld[2] < unheld[1]
    assert max(lexical_scores(terms("pottery"), [POTTERY, PAINTING]).values()) > 0.9
    assert lexical_scores(set(), [POTTERY]) == {} and lexical_scores(terms("pottery"), []) == {}


def test_a_word_the_question_repeats_lifts_a_dense_hit_and_finds_one_the_index_missed() -> None:
    dense = [(PAINTING, 0.84), (WORK, 0.83), (POTTERY, 0.82)]
    fused = hybrid_candidates(dense, [POTTERY, PAINTING, WORK, RUN],
                              terms("Did she sign up for a pottery class?"), 0.1, extra=5)
    parts = {v.id: (cos, part) for v, cos, part in fused}
    assert parts[1][0] == 0.82 and 0.09 < parts[1][1] <= 0.1 and parts[2][1] == 0.0 and parts[3][1] == 0.0
    ranked = rank_episodes([(v, c) for v, c, _ in fused], 3, 1000, lexical={v.id: p for v, _, p in fused})
    assert ranked[0].episode.id == 1 and abs(ranked[0].relevance - 0.82 - parts[1][1]) < 1e-9
    # the race was not among the dense hits: it joins at the lowest dense cosine, with its lexical part
    fused = hybrid_candidates(dense, [POTTERY, PAINTING, WORK, RUN], terms("Which charity race was it?"),
                              0.1, extra=5)
    joined = [(v.id, cos, part) for v, cos, part in fused if v.id == 4]
    assert len(joined) == 1 and joined[0][:2] == (4, 0.82) and 0.09 < joined[0][2] <= 0.1
    ranked = rank_episodes([(v, c) for v, c, _ in fused], 1, 1000, lexical={v.id: p for v, _, p in fused})
    assert ranked[0].episode.id == 4


def test_weight_zero_no_terms_or_no_dense_hit_leaves_the_dense_order() -> None:
    dense = [(PAINTING, 0.84), (POTTERY, 0.82)]
    for weight, words in ((0.0, terms("pottery")), (0.1, set())):
        assert hybrid_candidates(dense, [RUN], words, weight, 5) == [(PAINTING, 0.84, 0.0),
                                                                     (POTTERY, 0.82, 0.0)]
    assert hybrid_candidates([], [POTTERY], terms("pottery"), 0.1, 5) == []
    # at most ``extra`` lexical-only episodes join, only those sharing a word
    fused = hybrid_candidates([(WORK, 0.8)], [POTTERY, PAINTING, RUN], terms("pottery painted race"), 0.1, 1)
    assert len(fused) == 2


def mem(mid: int, key: str, content: str, cosine: float) -> RetrievedMemory:
    v = MemoryView(mid, key, "preference", content, 3, 0.9, AT, AT, None, None)
    return RetrievedMemory(v, 0.5, ScoreComponents(0.5, 0.5, 0.9, 0.5, 0.0, cosine))


def test_the_pool_gives_memories_the_same_lexical_part_so_words_alone_do_not_favour_a_kind() -> None:
    question = terms("What food do I like?")
    food = mem(1, "preference-food", "likes spicy Sichuan food", 0.88)
    said = RetrievedEpisode(view(9, "I love spicy Sichuan food."), 1.0, 0.88, False, 0.1)
    # episodes alone carrying a lexical part would pass the memory on a taste question
    assert pooled_order([food], [said], "taste")[0].kind == EPISODE
    # with the memories' own lexical part the lean of the question decides again
    order = pooled_order([food], [said], "taste", question, 0.1)
    assert [p.kind for p in order] == [MEMORY, EPISODE]


def test_the_memories_lexical_part_is_measured_on_the_episodes_ruler() -> None:
    # a memory sharing only the question's commonest word gets that word's share, measured on the
    # user's episodes (the corpus the episodes' own part is measured on), below the episode holding
    # the question's telling word
    question = terms("Did she go to a pottery class on Friday?")
    dense = [(POTTERY, 0.82), (PAINTING, 0.80)]
    fused, corpus = hybrid_with_corpus(dense, [WORK, RUN], question, 0.1, 5)
    assert corpus is not None and fused == hybrid_candidates(dense, [WORK, RUN], question, 0.1, 5)
    friday = mem(1, "fact-friday", "Went out on Friday", 0.80)
    alone = memory_lexical([friday], question, 0.1)
    ruled = memory_lexical([friday], question, 0.1, corpus)
    assert 0 < alone[0] < 0.1 and 0 < ruled[0] < 0.1
    pottery_part = next(part for v, _, part in fused if v.id == POTTERY.id)
    assert ruled[0] < pottery_part  # the episode holding the question's telling word weighs more
    assert hybrid_with_corpus(dense, [WORK], question, 0.0, 5)[1] is None


def test_episodes_far_below_the_best_keep_their_relevance_order_not_their_recency() -> None:
    # the best passage holds the question's words (its lexical part lifts it); every other one sits more
    # than RETRIEVAL_WINDOW below it, where the clipped scores tie: the more relevant older passage must
    # come before the newer, less relevant one (it used to be the other way round)
    best = EpisodeView(1, 101, 0, "I like my kids' drawings.", datetime(2026, 10, 30, tzinfo=UTC), "c1")
    older = EpisodeView(2, 102, 0, "They love dinosaurs and nature.", datetime(2026, 10, 1, tzinfo=UTC), "c1")
    newer = EpisodeView(3, 103, 0, "Work was busy today.", datetime(2026, 10, 31, tzinfo=UTC), "c1")
    ranked = rank_episodes([(best, 0.84), (older, 0.80), (newer, 0.76)], 3, 1000, lexical={1: 0.1})
    assert [r.episode.id for r in ranked] == [1, 2, 3]
    assert ranked[1].score == ranked[2].score == 0.0  # both clipped: the tie is broken by relevance
    # inside a question's window an episode still passes the ones outside it, however far below the best
    window = (datetime(2026, 10, 31, tzinfo=UTC), datetime(2026, 11, 1, tzinfo=UTC))
    ranked = rank_episodes([(best, 0.84), (older, 0.80), (newer, 0.76)], 3, 1000, window, {1: 0.1})
    assert [r.episode.id for r in ranked] == [1, 3, 2] and ranked[1].in_window
