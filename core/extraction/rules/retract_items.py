"""Which item of a list memory a retraction names (issue 24, session 22, helper forget41).

A memory that lists things ("我周末喜欢爬山、下围棋和做面包", "on weekends i like hiking, chess and baking
bread") is withdrawn item by item: a retraction with its own object phrase (its *topic*, "下棋那条", "the
board game part") cuts the item it names and nothing else, and leaves the memory whole when it names none of
them ("做饭那条删了" against hiking, chess and bread names nothing there).

Contracts:

- ``memory_list(content)`` finds the list of a memory: two or more items joined by "、" / "和" / "及"
  (Chinese) or by ", " and a last "and" / "or" / "&" (English), the first item without the words that lead
  into the list ("我周末喜欢", "on weekends i like"); None when the memory lists nothing (a clause after "and
  i" / "and my" is a clause, not an item).
- ``choose_item(topic, content, passages, queries, reader)`` says what the topic names of such a memory:
  ``WORDS`` (a salient word or a Chinese run of the topic is in one or more items: those); ``WHOLE`` (a word
  of the topic is in the list's clause outside its items, "周末那条"; or no word, and the item reader reads a
  category of the whole list, "the health stuff": every item, and the memory when the list's clause is all it
  says, ``Choice.deletes``); ``OTHER`` (a word of another clause of the memory: read as before this module);
  ``MEANING`` (no word: the item whose passage vector the topic's *query* vector finds nearest, at least the
  reader's ``item_cosine`` (``item_cosine_cjk`` for a Chinese topic) and ahead of every other item by
  ``item_lead`` (``item_lead_cjk``));
  ``NONE`` (no word, no item, and the reader's P(whole) under its ``whole`` bar: a thing of the same kind the
  user never listed, "fishing" against hiking, chess and bread: the memory stays whole); or ``NO_LIST``.
  Without a reader (its weights absent) a topic that names no word reads ``OTHER``.
- ``ItemReader``: a logistic head over ``ITEM_FEATURES`` of a topic against a list (its cosine with the whole
  memory, with its best item, the items' mean, whether it is Chinese): P(the topic names the whole list
  rather than a thing the list lacks), with all the bars above, fitted and calibrated out of fold on the
  written groups of ``training/retraction_item_rows_forget41.py`` by
  ``python -m training.train_retraction_item``.
- ``MemoryList.without(items)`` is the memory's content with those items cut and the rest rejoined
  ("我周末喜欢爬山和做面包"); "" when no item is left.

Pure functions over the embedder passed in; deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.logistic_head import LogisticHead, LogisticHeadError, shipped_or_none
from core.extraction.rules.segment import clean_content, has_cjk
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens

Embed = Callable[[list[str]], npt.NDArray[np.float32]]
ITEM_WEIGHTS_PATH = Path(__file__).parent.parent / "data" / "retraction_item.npz"
ITEM_FEATURES = ("whole", "best_item", "mean_item", "cjk")
ITEM_BARS = ("whole", "item_cosine", "item_lead", "item_cosine_cjk", "item_lead_cjk")


class Named(Enum):
    """What a retraction's topic names of a list memory (see the module doc)."""

    WORDS = "words"
    WHOLE = "whole"
    OTHER = "other"
    MEANING = "meaning"
    NONE = "none"
    NO_LIST = "no_list"


@dataclass(frozen=True)
class Choice:
    """The reading of a topic against a list memory: what it names and which items (indexes)."""

    named: Named
    items: tuple[int, ...] = ()
    memory_list: MemoryList | None = None

    @property
    def cuts(self) -> bool:
        """The topic names one or more items (by word or by meaning), not all of them."""
        return (self.named in (Named.WORDS, Named.MEANING) and self.memory_list is not None
                and 0 < len(self.items) < len(self.memory_list.items))

    def without(self) -> str:
        """The memory without the named items ("" when not ``cuts``)."""
        if not self.cuts or self.memory_list is None:
            return ""
        return self.memory_list.without(self.items)

    @property
    def deletes(self) -> bool:
        """The topic names the whole list and the list is all the memory says: the memory goes whole."""
        return self.named is Named.WHOLE and self.memory_list is not None and self.memory_list.whole_clause


@dataclass(frozen=True)
class MemoryList:
    """A memory's list: the spans of its items in ``content`` (the list runs from the first item's start to
    the last one's end), and the joint word of its last item ("和", "and", "or")."""

    content: str
    spans: tuple[tuple[int, int], ...]
    last_joint: str
    clause: tuple[int, int]  # the span of the clause that holds the list, its lead-in words and what follows

    @property
    def whole_clause(self) -> bool:
        """The list's clause is all the memory says."""
        a, b = self.clause
        return not _words(self.content[:a] + " " + self.content[b:])

    @property
    def items(self) -> list[str]:
        return [self.content[a:b] for a, b in self.spans]

    def without(self, gone: tuple[int, ...] | list[int] | set[int]) -> str:
        """``content`` with the items ``gone`` cut and the others rejoined; "" when none is left."""
        kept = [t for i, t in enumerate(self.items) if i not in set(gone)]
        if not kept:
            return ""
        zh = has_cjk(self.content)
        if len(kept) == 1:
            joined = kept[0]
        elif zh:
            joined = "、".join(kept[:-1]) + self.last_joint + kept[-1]
        else:
            joined = ", ".join(kept[:-1]) + f" {self.last_joint} " + kept[-1]
        start, end = self.spans[0][0], self.spans[-1][1]
        return clean_content(self.content[:start] + joined + self.content[end:])


# the words that lead into a list: "我周末喜欢", "i'm allergic to", "on weekends i like", "my kids are"
_ZH_LEAD = re.compile(r"喜欢|爱好是|爱好有|爱|对|有|会|养了|养|包括|比如|是|在学|在用|常去|经常")
_EN_LEAD = re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|into|to|of|with|about|play|plays|playing|"
                      r"watch|watching|read|reading|eat|drink|have|has|own|speak|speaks|are|is|am|i'm|im|"
                      r"include|includes|including|collect|collects|grow|prefer|prefers|use|uses)\s+",
                      re.IGNORECASE)
_ZH_JOINT = re.compile(r"、|以及|和|及")
_EN_LAST = re.compile(r",?\s+(and|or|&)\s+", re.IGNORECASE)
_SUBJECT = re.compile(r"(?:i|i'm|im|i've|i'd|my|we|we're|he|she|they|it|it's|there)\b", re.IGNORECASE)
_ZH_CLAUSE = re.compile(r"[^,，;；。!！?？]+")
_EN_SENTENCE = re.compile(r"[^;；。.!！?？]+")


def _first_item_start(seg_start: int, seg: str, others: list[str], zh: bool) -> int:
    """Where the first item starts in its segment (after the words that lead into the list)."""
    leads = list((_ZH_LEAD if zh else _EN_LEAD).finditer(seg))
    ends = [m.end() for m in leads if len(seg[m.end():].strip()) >= (1 if not zh else 2)]
    if ends:
        return seg_start + max(ends)
    if zh:
        n = max(len(o) for o in others)
        return seg_start + max(0, len(seg) - n)
    words = list(re.finditer(r"\S+", seg))
    n = max(len(o.split()) for o in others)
    if len(words) <= n:
        return seg_start + words[0].start() if words else seg_start
    return seg_start + words[len(words) - n].start()


def _zh_list(content: str) -> MemoryList | None:
    for m in _ZH_CLAUSE.finditer(content):
        clause, base = m.group(0), m.start()
        joints = list(_ZH_JOINT.finditer(clause))
        if not joints or ("、" not in clause and len(joints) > 1):
            continue
        bounds = [0, *(x for j in joints for x in (j.start(), j.end())), len(clause)]
        pieces = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]
        if any(b - a < 1 for a, b in pieces[1:]) or pieces[0][1] - pieces[0][0] < 2:
            continue
        others = [clause[a:b] for a, b in pieces[1:]]
        first = _first_item_start(base, clause[:pieces[0][1]], others, True)
        spans = [(first, base + pieces[0][1]), *((base + a, base + b) for a, b in pieces[1:])]
        if any(b - a < 1 for a, b in spans) or spans[0][1] - spans[0][0] < 1:
            continue
        if clause[:pieces[0][1]][first - base - 1:first - base] == "对" and len(spans) >= 2:
            # "我对花生和芒果过敏": the predicate after the last item is no part of it (as long as the others)
            n = max(b - a for a, b in spans[:-1])
            a, b = spans[-1]
            if b - a > n:
                spans[-1] = (a, a + n)
        last = joints[-1].group(0)
        return MemoryList(content, tuple(spans), "和" if last == "、" else last, (m.start(), m.end()))
    return None


def _en_list(content: str) -> MemoryList | None:
    for s in _EN_SENTENCE.finditer(content):
        sent, base = s.group(0), s.start()
        for joint in _EN_LAST.finditer(sent):
            after = sent[joint.end():]
            if _SUBJECT.match(after):
                continue  # "..., and i make about 85k": a clause, not an item
            end = after.find(",")
            last = (joint.end(), joint.end() + (end if end >= 0 else len(after.rstrip())))
            before = sent[:joint.start()]
            segs = [(x.start(), x.end()) for x in re.finditer(r"[^,]+", before)]
            items: list[tuple[int, int]] = []
            opening = segs[0][0] if segs else 0
            for a, b in reversed(segs):
                text = sent[a:b].strip()
                lead = a + (len(sent[a:b]) - len(sent[a:b].lstrip()))
                opening = lead
                if len(text.split()) > 4 or _SUBJECT.match(text):  # the segment that leads into the list
                    others = [sent[x:y] for x, y in [*items, last]]
                    start = _first_item_start(lead, text, others, False)
                    if b - start >= 2:
                        items.insert(0, (start, lead + len(text)))
                    break
                items.insert(0, (lead, lead + len(text)))
            spans = [(base + a, base + b) for a, b in [*items, last]]
            if len(spans) >= 2 and all(b - a >= 2 for a, b in spans):
                close = joint.end() + (end if end >= 0 else len(after))
                return MemoryList(content, tuple(spans), joint.group(1).lower(),
                                  (base + min(opening, items[0][0] if items else opening), base + close))
    return None


def memory_list(content: str) -> MemoryList | None:
    """The list of ``content`` (see the module doc); None when it lists nothing."""
    return _zh_list(content) if has_cjk(content) else _en_list(content)


@dataclass(frozen=True)
class ItemReader:
    """A ``LogisticHead`` over ``ITEM_FEATURES`` with the bars ``ITEM_BARS`` (see the module doc)."""

    head: LogisticHead

    def bar(self, name: str) -> float:
        return self.head.bars[name]

    def p_whole(self, features: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """P(the topic names the whole list) per row of ``item_features``."""
        return self.head.predict_proba(features)

    def save(self, path: Path) -> None:
        self.head.save(path)

    @classmethod
    def load(cls, path: Path = ITEM_WEIGHTS_PATH) -> ItemReader:
        """Read a weights file (``LogisticHeadError`` when it is absent, does not fit or lacks a bar)."""
        head = LogisticHead.load(path, features=ITEM_FEATURES)
        if not set(ITEM_BARS) <= set(head.bars):
            raise LogisticHeadError(f"{path} lacks a bar of {ITEM_BARS}: retrain")
        return cls(head)


def shipped_item_reader(path: Path = ITEM_WEIGHTS_PATH) -> ItemReader | None:
    """The shipped weights, loaded once per process; None (logged) when they do not load."""
    return shipped_or_none(ItemReader, path, "retraction item reader", "a topic naming no word reads whole")


def _words(text: str) -> set[str]:
    """Salient words (two characters or more) and Chinese runs of ``text``."""
    runs = set(re.findall(r"[\u4e00-\u9fff]{2,}", text))
    return {t for t in salient_tokens(text) if len(t) >= 2} | runs


def _in(topic_words: set[str], text: str) -> bool:
    low = text.lower()
    return bool(topic_words & _words(text)) or any(has_cjk(w) and w in low for w in topic_words)


# a one-character Chinese topic before its marker ("药的事别存", "茶那条去掉")
ZH_ONE_TOPIC = re.compile(r"^[把我的]*([\u4e00-\u9fff])(?:的事|那个|那件|那条|那句|那段|那块|的部分)")


def one_character_topic(sentence: str) -> str:
    """The one Chinese character a retraction names its thing by ("茶那条去掉" -> "茶"); "" when none."""
    m = ZH_ONE_TOPIC.search(sentence.strip())
    return m.group(1) if m else ""


_ONE = re.compile(r"\s+(?:one|ones|thing|things|part|bit|item|entry)$", re.IGNORECASE)


def object_phrase(topic: str) -> str:
    """The topic without a trailing "one" / "thing" / "part" ("chess one" -> "chess")."""
    return _ONE.sub("", topic.strip()) or topic


_KIND_WORDS = frozenset({"stuff", "info", "information", "details", "detail", "everything", "all", "list",
                         "kind", "kinds", "sort", "type", "types", "category"})


def names_a_kind(phrase: str) -> bool:
    """An English object phrase whose head names a kind rather than one thing: a plural head ("my pets",
    "the languages", "kids' names") or a word of a category ("the pet stuff", "food info"). Chinese has no
    such mark: False."""
    words = re.findall(r"[a-z']+", phrase.lower())
    if has_cjk(phrase) or not words:
        return False
    head = words[-1].strip("'")
    return head in _KIND_WORDS or (len(head) > 3 and head.endswith("s")
                                   and not head.endswith(("ss", "us", "is", "'s")))


def by_words(phrase: str, ml: MemoryList) -> Choice | None:
    """What ``phrase`` names of ``ml`` by its words: items (``WORDS``), the memory outside them (``WHOLE``),
    or None (no word of the memory)."""
    words = _words(phrase)
    if re.fullmatch(r"[\u4e00-\u9fff]", phrase.strip()):
        words = {phrase.strip()}  # "茶那条": one character names the item that holds it ("乌龙茶")
    hit = tuple(i for i, t in enumerate(ml.items) if _in(words, t))
    if hit:
        return Choice(Named.WORDS, hit, ml)
    a, b = ml.clause
    if words and _in(words, ml.content[:a] + " " + ml.content[b:]):
        return Choice(Named.OTHER, (), ml)  # another clause of the memory: read as before
    if words and _in(words, ml.content[a:ml.spans[0][0]] + " " + ml.content[ml.spans[-1][1]:b]):
        return Choice(Named.WHOLE, tuple(range(len(ml.spans))), ml)  # "周末那条": the list's own words
    return None


def cosines(phrase: str, ml: MemoryList, passages: Embed, queries: Embed
            ) -> tuple[npt.NDArray[np.float64], float]:
    """The cosine of ``phrase``'s query vector with each item's passage vector and with the memory's."""
    p = _unit(passages([*ml.items, ml.content]))
    c = p @ _unit(queries([phrase]))[0]
    return c[:-1], float(c[-1])


def item_features(items: npt.NDArray[np.float64], whole: float, cjk: bool) -> npt.NDArray[np.float64]:
    """One row of ``ITEM_FEATURES``."""
    return np.array([[whole, float(items.max()), float(items.mean()), 1.0 if cjk else 0.0]])


def nearest_item(items: npt.NDArray[np.float64], bar: float, lead: float) -> int | None:
    """The item at least ``bar`` and ahead of every other by ``lead``; None when there is none."""
    order = np.argsort(-items, kind="stable")
    best = int(order[0])
    ahead = float(items[best] - items[order[1]]) if len(items) > 1 else 1.0
    return best if float(items[best]) >= bar and ahead >= lead else None


HEALTH_KEYS = frozenset({"fact-allergy", "fact-health"})
"""Slots whose list a retraction paired with it withdraws whole even when its topic names none of the items
(``kept_when_unnamed``): what the user asks to forget about their health ("forget the medical stuff" against
"i'm allergic to peanuts, latex and bees") costs more kept than lost; the item reader tells a category of the
whole list from a thing the list lacks poorly (held out, 56 of 98 absent things read as naming nothing)."""


def kept_when_unnamed(key: str) -> bool:
    """Whether a list memory of ``key`` stays whole when a retraction paired with it names none of its items
    (``Named.NONE``): every slot but ``HEALTH_KEYS``."""
    return key not in HEALTH_KEYS


def choose_item(topic: str, content: str, passages: Embed, queries: Embed,
                reader: ItemReader | None) -> Choice:
    """What ``topic`` names of the list memory ``content`` (see the module doc)."""
    ml = memory_list(content)
    if ml is None:
        return Choice(Named.NO_LIST)
    phrase = object_phrase(topic)
    worded = by_words(phrase, ml)
    if worded is not None:
        return worded
    if reader is None:
        return Choice(Named.OTHER, (), ml)
    items, whole = cosines(phrase, ml, passages, queries)
    cjk = has_cjk(phrase)
    best = nearest_item(items, reader.bar("item_cosine_cjk" if cjk else "item_cosine"),
                        reader.bar("item_lead_cjk" if cjk else "item_lead"))
    if best is not None:
        return Choice(Named.MEANING, (best,), ml)
    if float(reader.p_whole(item_features(items, whole, cjk))[0]) >= reader.bar("whole"):
        return Choice(Named.WHOLE, tuple(range(len(items))), ml)
    return Choice(Named.NONE, (), ml)


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    x = v.astype(np.float64)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)
