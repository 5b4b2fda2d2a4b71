"""Topic words of the rules extractor: which preference / goal / constraint topic a text is about
(``topic_of``, the key suffix of a slot: "preference-coffee"), and whether a phrase the user wants
forgotten is in a memory (``topic_matches``). Pure functions over ``lexicon``'s topic tables."""

from __future__ import annotations

from functools import lru_cache

from core.extraction.rules import lexicon, patterns
from core.extraction.rules.segment import has_cjk, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re


@lru_cache(maxsize=256)
def _topic_pattern(words: tuple[str, ...], english: bool) -> re.Pattern[str]:
    plain = [w.lower() for w in words if not w.startswith("re:")]
    raw = [w[3:] for w in words if w.startswith("re:")]
    alt = patterns.alt(plain)
    if english and raw:
        raise ValueError("English topic tables take plain words only")
    # not inside a longer word: the letters around the word are consumed, the span is group "core"
    parts = [rf"(?:^|[^a-z])(?P<core>{alt}(?:s|es|ing|d|ed)?)(?:[^a-z]|$)" if english else alt, *raw]
    return re.compile("|".join(parts))


def _topic(topics: list[tuple[str, list[str]]], text: str, english: bool, last: bool = False,
           first: bool = False) -> str | None:
    """First topic (in table order) found in ``text``. With ``last``, the topic of the match that
    ends latest (English head nouns: "sci-fi novels" is about books); with ``first``, of the match
    that starts earliest (Chinese objects: "喝咖啡一定要加糖" is about coffee)."""
    best: tuple[int, int, str] | None = None
    for rank, (name, words) in enumerate(topics):
        spans = list(re.finditer_core(_topic_pattern(tuple(words), english), text))
        if not spans:
            continue
        if not (last or first):
            return name
        pos = max(e for _, e in spans) if last else -min(b for b, _ in spans)
        score = (pos, -rank, name)
        if best is None or score[:2] > best[:2]:
            best = score
    return best[2] if best else None


def topic_of(kind: str, text: str) -> str | None:
    """Topic suffix for ``kind`` (preference/goal/constraint) found in normalised ``text``."""
    if kind == "preference":
        zh = _topic(lexicon.PREF_TOPICS_ZH, text, False, first=True) if has_cjk(text) else None
        en = _topic(lexicon.PREF_TOPICS_EN, text, True, last=True)
        return zh or en or _topic(lexicon.PREF_TOPICS_ZH, text, False)
    if kind == "goal":
        return _topic(lexicon.GOAL_TOPICS_ZH, text, False) or _topic(lexicon.GOAL_TOPICS_EN, text, True)
    return _topic(lexicon.CONSTRAINT_TOPICS, text, True) or _topic(lexicon.CONSTRAINT_TOPICS, text, False)


_STRIP_TOPIC = re.compile(r"[\s,，。.!！?？、:：;；\"'“”‘’「」《》()（）]+")


def topic_matches(topic: str, text: str) -> bool:
    """``topic`` (a phrase the user wants forgotten) is in ``text``: substring, or most of its
    character bigrams (Chinese) / words (English) appear."""
    t = _STRIP_TOPIC.sub("", normalise(topic))
    s = _STRIP_TOPIC.sub("", normalise(text))
    if not t:
        return False
    if t in s:
        return True
    if has_cjk(t):
        grams = {t[i:i + 2] for i in range(len(t) - 1)}
        if len(grams) < 2:
            return False
        hit = sum(1 for g in grams if g in s)
        return hit / len(grams) >= 0.6
    words = [w for w in re.findall(r"[a-z0-9']+", normalise(topic)) if len(w) > 2 and w not in _EN_STOP]
    if not words:
        return False
    hay = normalise(text)
    # a shared stem is enough: "pregnancy" ~ "pregnant", "allergy" ~ "allergic"
    hit = sum(1 for w in words if re.search(rf"\b{re.escape(w[:6] if len(w) > 6 else w)}", hay))
    return hit / len(words) >= 0.6


_EN_STOP = {
    "the", "and", "that", "this", "with", "about", "thing", "stuff", "was", "were", "for", "you", "your",
    "have", "has", "had", "not", "but", "are", "just", "really", "pls", "please", "forget", "memory",
}
