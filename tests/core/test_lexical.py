"""The lexical scorer (tokenizer + BM25) and the rerank function: pure code, no services."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import lexical
from core.lexical import BM25, SHARE_IDF_POWER, key_terms, stem, tokenize
from core.memory.tools import MemoryView
from core.retrieval import Candidate, RerankWeights, build_query, prompt_block, rerank

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def view(memory_id: int, key: str = "k", content: str = "c", importance: int = 3, confidence: float = 0.9,
         age_days: float = 0.0, memory_type: str = "fact") -> MemoryView:
    at = NOW - timedelta(days=age_days)
    return MemoryView(memory_id, key, memory_type, content, importance, confidence, at, at, None, None)


# --- tokenizer ----------------------------------------------------------------------------------
def test_chinese_is_split_into_bigrams_and_content_characters() -> None:
    terms = tokenize("我喜欢酸菜鱼")
    assert {"喜欢", "酸菜", "菜鱼"} <= set(terms)
    assert "我" not in terms  # a function character alone carries nothing
    assert tokenize("猫") == ["猫"]


def test_english_is_folded_stemmed_and_stop_words_dropped() -> None:
    assert tokenize("The Movies I LOVED") == tokenize("movie love")
    assert tokenize("Café") == tokenize("cafe")
    assert stem("running") == stem("runs") == "run"
    assert stem("allergies") == stem("allergy")
    assert "the" not in tokenize("the cat")


def test_mixed_text_and_full_width_forms() -> None:
    terms = tokenize("我在用Ｐｙｔｈｏｎ写爬虫 2024")
    assert "python" in terms and "爬虫" in terms and "2024" in terms


def test_key_terms_drop_type_prefix_and_hashes() -> None:
    assert key_terms("preference-favorite_food") == {stem("favorite"), "food"}
    assert key_terms("fact-3fa9c0d1e2") == set()
    assert key_terms("memory-0123456789") == set()


@given(st.text())
def test_tokenize_never_raises_and_is_deterministic(text: str) -> None:
    assert tokenize(text) == tokenize(text)
    assert all(t and t == t.casefold() for t in tokenize(text))


# --- BM25 ---------------------------------------------------------------------------------------
def test_bm25_prefers_the_matching_document() -> None:
    docs = [tokenize(t) for t in ("喜欢老坛酸菜鱼", "住在杭州西湖区", "Loves romantic comedies")]
    bm25 = BM25(docs)
    zh = bm25.scores(tokenize("想吃酸菜鱼"))
    assert zh[0] > 0 and zh[1] == 0 and zh[2] == 0
    en = bm25.scores(tokenize("a romantic comedy tonight"))
    assert en.index(max(en)) == 2


def test_rare_terms_weigh_more() -> None:
    docs = [["cat", "food"], ["cat", "toy"], ["cat", "bed"]]
    scores = BM25(docs).scores(["cat", "toy"])
    assert scores[1] > scores[0] == scores[2] > 0


def test_coverage_is_the_share_of_the_query_a_document_holds() -> None:
    docs = [["cat", "toy"], ["cat", "bed"], ["dog", "bed"], ["fish", "tank"]]
    bm25 = BM25(docs)
    full, half, _, none = bm25.coverage(["cat", "toy"])
    assert full == 1.0 and none == 0.0  # every word, average length: the ideal
    assert 0 < half < 0.5  # only the commoner of the two words: less than half of the query
    assert bm25.coverage([]) == [0.0] * 4 and bm25.coverage(["zebra"]) == [0.0] * 4
    # the ideal: the share score of the document holding every word at average length, each word's
    # IDF counted SHARE_IDF_POWER times
    idf = {t: bm25.scores([t])[0] for t in ("cat", "toy")}  # one occurrence, average length: the IDF
    assert bm25.ideal(["cat", "toy"]) == pytest.approx(sum(v ** SHARE_IDF_POWER for v in idf.values()))


def test_a_query_word_no_document_holds_still_counts_in_the_share() -> None:
    # "does she live in Connecticut?" over chat lines that never name the state: the line that
    # shares only the common word holds a small part of the question, not all of it
    docs = [["live", "music"], ["live", "near", "park"], ["love", "dog"], ["cook", "chicken"]]
    bm25 = BM25(docs)
    alone = bm25.coverage(["live"])[0]
    with_state = bm25.coverage(["live", "connecticut"])[0]
    assert alone > 0.9 and 0 < with_state < 0.5
    # the unheld word weighs as the rarest word of the corpus can: one held by a single document
    assert bm25.unheld_idf() ** SHARE_IDF_POWER == pytest.approx(bm25.ideal(["chicken"]))
    assert bm25.ideal(["live", "connecticut"]) == pytest.approx(
        bm25.ideal(["live"]) + bm25.unheld_idf() ** SHARE_IDF_POWER)
    # the documents' order for the query does not change, only the size of the share
    assert bm25.scores(["live", "connecticut"]) == bm25.scores(["live"])
    assert BM25([]).ideal(["live"]) == 0.0 and BM25([]).coverage(["live"]) == []


def test_the_share_is_the_telling_words_not_the_common_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    # "a career for his love of animals and nature": a short line holding two common words of the
    # question ("love", "animal") holds less of its share than the line holding its rarest word
    docs = ([["love", "animal"], ["career", "ranger", "park"]] + [["love", "dog", "walk"]] * 4
            + [["animal", "shelter"]] * 3 + [["cook", "chicken"]] * 3)
    bm25 = BM25(docs)
    query = ["career", "love", "animal"]
    common, telling = bm25.coverage(query)[:2]
    assert telling > 0.6 and 0 < common < 0.35
    order = bm25.scores(query)
    # with the plain IDF (power 1) the two common words would outweigh the telling one
    monkeypatch.setattr(lexical, "SHARE_IDF_POWER", 1.0)
    common, telling = bm25.coverage(query)[:2]
    assert common > telling
    # the documents' BM25 scores (the lexical fallback's order) do not depend on the power
    assert bm25.scores(query) == order


def test_coverage_of_outside_documents_is_measured_on_the_corpus() -> None:
    docs = [["cat", "toy"], ["cat", "bed"], ["dog", "bed"], ["fish", "tank"]]
    bm25 = BM25(docs)
    # a document of the corpus scored from outside gets its own coverage
    assert bm25.coverage_of(docs, ["cat", "toy"]) == bm25.coverage(["cat", "toy"])
    # the corpus's IDF decides: "toy" (rare in the corpus) weighs more than "cat" (common), whatever
    # the outside documents hold; a word the corpus never holds scores for no document, inside or
    # outside, but stays in the share's whole (the same ruler as the corpus's own coverage)
    outside = [["toy", "zebra"], ["cat", "zebra"], ["zebra"]]
    toy, cat, zebra = bm25.coverage_of(outside, ["cat", "toy", "zebra"])
    assert toy > cat > 0 and zebra == 0.0
    assert bm25.coverage_of(docs, ["cat", "toy", "zebra"]) == bm25.coverage(["cat", "toy", "zebra"])
    assert bm25.coverage_of(docs, ["cat", "toy", "zebra"])[0] < bm25.coverage_of(docs, ["cat", "toy"])[0]
    assert bm25.coverage_of([["cat"]], ["zebra"]) == [0.0] and bm25.coverage_of([], ["cat"]) == []


@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "猫", "咖啡"]), max_size=6), max_size=6),
       st.lists(st.sampled_from(["a", "b", "z", "猫"]), max_size=4))
def test_bm25_scores_are_finite_non_negative_and_zero_without_overlap(docs: list[list[str]],
                                                                      query: list[str]) -> None:
    scores = BM25(docs).scores(query)
    assert len(scores) == len(docs)
    for doc, score in zip(docs, scores, strict=True):
        assert math.isfinite(score) and score >= 0
        if not set(doc) & set(query):
            assert score == 0


# --- rerank -------------------------------------------------------------------------------------
def test_dense_rerank_weighs_retrieval_importance_recency_and_key() -> None:
    weights = RerankWeights()
    cands = [Candidate(view(1, content="a"), 0.90), Candidate(view(2, content="b"), 0.80)]
    ranked = rerank(cands, set(), weights, NOW, 5, normalise="window")
    assert [r.memory.id for r in ranked] == [1, 2]
    assert ranked[0].components.retrieval == 1.0 and ranked[1].components.retrieval == pytest.approx(0.0)
    # a close second with much higher importance wins
    cands = [Candidate(view(1, importance=1), 0.90), Candidate(view(2, importance=5), 0.89)]
    assert rerank(cands, set(), weights, NOW, 5, normalise="window")[0].memory.id == 2
    # the exact-key bonus
    cands = [Candidate(view(1, key="fact-home_city"), 0.85), Candidate(view(2, key="fact-pet"), 0.85)]
    ranked = rerank(cands, {"pet"}, weights, NOW, 5, normalise="window")
    assert ranked[0].memory.id == 2 and ranked[0].components.exact_key == 1.0
    # recency: an old memory loses a tie
    cands = [Candidate(view(1, age_days=400), 0.85), Candidate(view(2, age_days=1), 0.85)]
    assert rerank(cands, set(), weights, NOW, 5, normalise="window")[0].memory.id == 2


def test_rerank_weights_are_validated() -> None:
    with pytest.raises(ValueError):
        RerankWeights(importance=-1)
    with pytest.raises(ValueError):
        RerankWeights(retrieval_window=0)


candidate_strategy = st.builds(
    lambda i, imp, conf, age, raw: Candidate(view(i, importance=imp, confidence=conf, age_days=age), raw),
    st.integers(1, 10_000), st.integers(1, 5), st.floats(0, 1), st.floats(0, 3000),
    st.floats(-1, 1, allow_nan=False),
)


@given(st.lists(candidate_strategy, max_size=20, unique_by=lambda c: c.memory.id), st.integers(1, 30),
       st.sampled_from(["window", "max", "none"]))
def test_rerank_properties(cands: list[Candidate], limit: int, normalise: str) -> None:
    weights = RerankWeights()
    ranked = rerank(cands, {"k"}, weights, NOW, limit, normalise=normalise)
    assert len(ranked) == min(limit, len(cands))
    assert {r.memory.id for r in ranked} <= {c.memory.id for c in cands}
    scores = [r.score for r in ranked]
    assert scores == sorted(scores, reverse=True)
    ceiling = (weights.retrieval + weights.importance + weights.confidence + weights.recency
               + weights.exact_key)
    for r in ranked:
        comps = r.components
        for value in (comps.retrieval, comps.importance, comps.confidence, comps.recency, comps.exact_key):
            assert 0.0 <= value <= 1.0
        assert -1e-6 <= r.score <= ceiling + 1e-6


@given(st.lists(candidate_strategy, min_size=1, max_size=10, unique_by=lambda c: c.memory.id),
       st.floats(0, 0.5))
def test_a_better_retrieval_score_never_lowers_a_candidate(cands: list[Candidate], boost: float) -> None:
    target = cands[0]
    weights = RerankWeights()
    before = {r.memory.id: r.score for r in rerank(cands, set(), weights, NOW, 100, normalise="window")}
    boosted = [Candidate(target.memory, target.raw + boost), *cands[1:]]
    after = {r.memory.id: r.score for r in rerank(boosted, set(), weights, NOW, 100, normalise="window")}
    assert after[target.memory.id] >= before[target.memory.id] - 1e-9


def test_prompt_block_and_query() -> None:
    cand = Candidate(view(1, content="住在\n杭州", memory_type="fact"), 0.9)
    ranked = rerank([cand], set(), RerankWeights(), NOW, 3, normalise="window")
    one_line = '{"type": "fact", "key": "k", "content": "住在\\n杭州"}'
    assert prompt_block(ranked).splitlines()[2] == one_line  # one line per memory, JSON-encoded
    assert prompt_block([]) == ""
    assert build_query(" 问题 ", " 摘要 ") == "问题\n摘要"
    assert build_query("q", None) == "q"
    assert len(build_query("x" * 5000, "y")) == 2000
