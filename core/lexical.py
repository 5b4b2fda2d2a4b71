"""Lexical scoring for the retrieval fallback: a tokenizer for Chinese and English, and BM25.

Used when vector search is off, unavailable or too slow. It must work without any model:

- CJK text (Chinese, also Japanese kana and Hangul) has no spaces, so each run of CJK characters
  becomes its overlapping character bigrams plus its single characters (minus very common function
  characters); single characters weigh half as much as bigrams in a query.
- Latin text is NFKC-normalised, case-folded, stripped of accents, split into ``[a-z0-9]`` words,
  English stop words dropped, and lightly stemmed (plural/-ing/-ed suffixes), so ``movies`` matches
  ``movie`` and ``running`` matches ``run``.

Invariants: every function is pure and deterministic; ``tokenize`` never raises on any ``str``;
BM25 scores are finite and ``>= 0``, and a document sharing no term with the query scores 0.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_RUN = re.compile(rf"([{_CJK}]+)|([a-z0-9]+)")
_CJK_CHAR = re.compile(rf"^[{_CJK}]$")
_HEX_HASH = re.compile(r"^[0-9a-f]{8,}$")

# Function characters too common to carry meaning on their own (still used inside bigrams).
_CJK_STOP_CHARS = frozenset(
    "的了是我你他她它们在有和与就都也很还又要会这那个一不吗呢吧啊呀哦么什怎把被给让对从到为以及或")

_EN_STOP_TEXT = """
a an the and or but if then else of to in on at by for with from into onto about as is are was were be
been being am do does did done have has had having i me my mine we us our you your yours he him his she
her it its they them their this that these those there here what which who whom whose when where why
how can could should would will shall may might must not no nor so too very just than also any some
all each every both either neither own same such only s t don doesn didn isn aren wasn weren won
please let lets get got need want like
"""
_EN_STOP_WORDS = frozenset(_EN_STOP_TEXT.split())

_MEMORY_TYPE_WORDS = frozenset({"preference", "fact", "goal", "project", "constraint", "memory"})


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFKD", folded)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def stem(word: str) -> str:
    """A light English stemmer (Porter-like suffix rules), applied alike to queries and documents:
    ``movies``/``movie`` -> ``movi``, ``allergies``/``allergy`` -> ``allergi``, ``running`` -> ``run``."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "i"
    elif word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) > 4:
        word = _undouble(word[:-2])
    elif word.endswith("ly") and len(word) > 5:
        word = word[:-2]
    if word.endswith("y") and len(word) > 3:
        word = word[:-1] + "i"
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _undouble(word: str) -> str:
    """``runn`` -> ``run``, ``plann`` -> ``plan`` (but ``fall``, ``pass``, ``buzz`` stay)."""
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Index terms of ``text`` in order: CJK bigrams and characters, stemmed English words."""
    terms: list[str] = []
    for match in _RUN.finditer(_fold(text or "")):
        cjk, word = match.group(1), match.group(2)
        if cjk:
            if len(cjk) == 1:
                terms.append(cjk)
                continue
            terms.extend(cjk[i:i + 2] for i in range(len(cjk) - 1))
            terms.extend(ch for ch in cjk if ch not in _CJK_STOP_CHARS)
        elif word not in _EN_STOP_WORDS:
            terms.append(stem(word))
    return terms


TERMS_CACHED = 70_000
"""Texts whose terms ``cached_terms`` keeps (LRU by text)."""


@lru_cache(maxsize=TERMS_CACHED)
def cached_terms(text: str) -> tuple[str, ...]:
    """``tokenize`` of a text that does not change once written (a memory's indexed text, an episode's
    passage), cached by text: a user's documents are tokenized once, not on every retrieval (what a user
    flooding the lexical paths costs the others)."""
    return tuple(tokenize(text))


def term_weight(term: str) -> float:
    """Query weight of a term: single CJK characters count half (they are ambiguous alone)."""
    return 0.5 if _CJK_CHAR.match(term) else 1.0


def key_terms(memory_key: str) -> set[str]:
    """Meaningful words of a memory key (``preference-favorite_food`` -> ``{favorite, food}``):
    the type prefix, generic words and hash fragments of non-ASCII keys are left out."""
    words = re.split(r"[^a-z0-9]+", _fold(memory_key or ""))
    return {stem(w) for w in words
            if w and w not in _MEMORY_TYPE_WORDS and w not in _EN_STOP_WORDS and not _HEX_HASH.match(w)}


SHARE_IDF_POWER = 2.0
"""The power of a term's IDF in a query's share (``BM25.ideal``, ``coverage``, ``coverage_of``; not in
``scores``, the documents' order): with the plain IDF a chat line holding two common words of a question
("love" and "animals", "eat" and "more") held most of its share, and the share, weighted into the
episodes' hybrid score (``core.episodes.hybrid``) and the pool (``core.retrieval.merge``), lifted it
over the evidence a few hundredths of cosine above; squared, the share is the telling words' (a name, a
place, a thing the question repeats). LoCoMo conversations 5-7, episodes only: r@5 327 -> 335 of 451
(1.5: 330, 2.5: 333, 3: 331; bench/RESULTS.md, issue 25, session 24)."""


class BM25:
    """Okapi BM25 over a fixed, small corpus (one user's memories).

    ``idf(t) = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))`` is always positive, so a matching term
    never lowers a score even when every document contains it.
    """

    def __init__(self, documents: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> None:
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError("BM25 needs k1 >= 0 and 0 <= b <= 1")
        self.k1 = k1
        self.b = b
        self._tfs = [Counter(doc) for doc in documents]
        self._lengths = [len(doc) for doc in documents]
        self._avg = (sum(self._lengths) / len(self._lengths)) if self._lengths else 0.0
        df: Counter[str] = Counter()
        for tf in self._tfs:
            df.update(tf.keys())
        n = len(self._tfs)
        self._idf = {t: math.log(1.0 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}

    @property
    def size(self) -> int:
        """How many documents the corpus holds."""
        return len(self._tfs)

    def unheld_idf(self) -> float:
        """The IDF ``ideal`` counts a query term no document holds with: that of a term exactly one
        document holds, the rarest a term of the corpus can be (0 for an empty corpus)."""
        n = len(self._tfs)
        return math.log(1.0 + (n - 0.5) / 1.5) if n else 0.0

    def ideal(self, query: Iterable[str]) -> float:
        """The share score of a document of average length holding each query term once: the sum of
        the weighted IDF of the query's terms raised to ``SHARE_IDF_POWER``, a term no document holds
        counted as the rarest (``unheld_idf``). What ``coverage`` divides by, so a share is a share of
        the whole query: a document holding only a common word of a question whose telling word no
        document holds ("does she live in Connecticut?") gets that common word's small share, not all
        of it."""
        unheld = self.unheld_idf()
        return sum(term_weight(t) * self._idf.get(t, unheld) ** SHARE_IDF_POWER for t in set(query))

    def _share_terms(self, query: Iterable[str]) -> dict[str, float]:
        """The query's held terms with the weights that make ``_score`` a share score: each term's
        IDF counted ``SHARE_IDF_POWER`` times (``_score`` multiplies by it once)."""
        return {t: term_weight(t) * self._idf[t] ** (SHARE_IDF_POWER - 1.0) for t in set(query)
                if t in self._idf}

    def coverage(self, query: Iterable[str]) -> list[float]:
        """Each document's score over ``ideal``, capped at 1: how much of the query, weighted by how
        telling each word is, the document holds (0 when it shares no word). Unlike a score scaled
        to the best document, a document that shares only one of the query's words gets only that
        word's share, however it ranks among the others."""
        terms = list(query)
        ideal = self.ideal(terms)
        if ideal <= 0:
            return [0.0] * len(self._tfs)
        weights = self._share_terms(terms)
        return [min(1.0, self._score(tf, length, weights) / ideal)
                for tf, length in zip(self._tfs, self._lengths, strict=True)]

    def coverage_of(self, documents: Sequence[Sequence[str]], query: Iterable[str]) -> list[float]:
        """``coverage`` of documents outside the corpus, measured on the corpus (its IDF, its average
        length and its ``ideal``): texts of another kind on the same ruler as the corpus's own."""
        query = set(query)
        terms = self._share_terms(query)
        ideal = self.ideal(query)
        if ideal <= 0 or not terms:
            return [0.0] * len(documents)
        return [min(1.0, self._score(Counter(doc), len(doc), terms) / ideal) for doc in documents]

    def _score(self, tf: Counter[str], length: int, terms: dict[str, float]) -> float:
        norm = self.k1 * (1.0 - self.b + self.b * (length / self._avg if self._avg else 0.0))
        total = 0.0
        for term, weight in terms.items():
            freq = tf.get(term, 0)
            if freq:
                total += weight * self._idf[term] * freq * (self.k1 + 1.0) / (freq + norm)
        return total

    def scores(self, query: Iterable[str]) -> list[float]:
        """Score of every document for ``query`` terms (repeated query terms count once)."""
        terms = {t: term_weight(t) for t in query if t in self._idf}
        return [self._score(tf, length, terms) for tf, length in zip(self._tfs, self._lengths, strict=True)]
