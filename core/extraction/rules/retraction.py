"""Retractions by meaning: which live memory (or which clause of one) a retraction withdraws.

``RetractionResolver.apply`` runs in the rules provider's refine stage after the update judge
(``core.extraction.rules.judge``). It finds the message's retraction sentences: a retraction cue the rules
know (``pairs.RETRACT_CUE``, ``patterns.FORGET``; never a reminder, "don't forget ...", nor the user
forgetting something, "我又忘了带钥匙"; and not when the retraction-intent model reads the sentence and its
cued clauses under ``INTENT_CUE_FLOOR`` and it names no word of a live memory: "nvm, found it" is about the
moment), or, without one, the learned retraction-intent model
(``core.extraction.retraction_intent``: "leave the X out of your notes", "rather you didn't remember the X
thing", "那句 ignore 掉") at ``INTENT_P``, or at ``INTENT_LEAN`` when the standing-instruction model
(``core.extraction.standing_instruction``) calls it no rule for the future (``LEAN_NOT_RULE``) and it
names a word of a live memory, when the sentence tells no new value and asks nothing. For each:

- **What it withdraws and what it keeps.** Its clauses that say what to keep ("just the teaching", "cello's
  fine to remember", "住哪儿可以记", ``_KEEP``) are the keep topic; the others, without cue words, the
  retract topic. A topic of cue words alone ("remove that", "那个不算", "当我没说") is the sentence before
  it in the message, else the user's previous turn.
- **Its target, by meaning.** Every live memory is cut into clauses (commas, "and i", "so", "because",
  "；", "所以", "因为"); a clause is withdrawn when it names a salient word of the topic, else when its
  passage vector is the nearest to the topic's (cosine at least ``MIN_COSINE``, within ``MARGIN`` of the
  best); a clause nearer the keep topic than the retract topic is never withdrawn. A topic that finds
  nothing falls back to the previous turn: the clauses of live memories that turn stated (word overlap
  ``TURN_OVERLAP`` or cosine ``TURN_COSINE``).
- **What it does.** A memory whose every clause is withdrawn gets a ``delete``; one that keeps some gets
  an upsert of the kept clauses (when the memory classifier calls them a memory, p_keep >=
  ``REST_KEEP``; else the delete), both naming the memory in ``supersedes``, so the upsert's history says
  "retracted by message N" (``core.memory.upsert``). A whole delete made earlier (rules or judge) of a
  memory this step keeps in part becomes the partial upsert; a delete of a memory the keep topic names is
  dropped; an upsert that replaces the memory with a new value ("scratch X, switching to Y") stands. A memory
  that lists things loses only the item the topic names, by word or by meaning, and is left whole when the
  topic names none of its items (``retract_items.choose_item``).
- **The sentence is never a memory.** Upserts written from the retraction clauses (new keys whose content
  is those clauses, or the clauses merged into a live memory's content) are removed.

Deterministic. Bounded: at most ``MAX_RETRACTIONS`` sentences and ``MAX_EXISTING`` memories a message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import RETRACT_CUE, UPDATE_CUE, bare_cue, overlap, topic_text
from core.extraction.retraction_intent import INTENT_CUE_FLOOR, INTENT_P, RetractionIntent
from core.extraction.retraction_target import RetractionTarget, clause_probabilities
from core.extraction.rules import patterns
from core.extraction.rules.analysis import (
    CUED_RULE_ON,
    cued_rule,
    cued_rule_texts,
    relative_subject,
    theirs_after,
)
from core.extraction.rules.forget import is_about_self
from core.extraction.rules.judge_cues import CLAUSE, tells_new_value, without_reminders
from core.extraction.rules.judge_cues import sentences as message_sentences
from core.extraction.rules.retract_items import (
    ZH_ONE_TOPIC,
    Named,
    choose_item,
    kept_when_unnamed,
    names_a_kind,
    object_phrase,
    one_character_topic,
    shipped_item_reader,
)
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.extraction.standing_instruction import STANDING_DROP
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

MAX_RETRACTIONS = 3
MAX_EXISTING = 40
MIN_COSINE = 0.85  # a clause this near the topic (passage vectors) is what the topic names, when no word does
MIN_COSINE_CJK = 0.90  # ... for a Chinese topic (e5's cosines between Chinese texts sit higher)
MARGIN = 0.02  # ... ahead of every other clause by this much; and every clause this near the best one goes
SIBLING_MARGIN = 0.02  # a clause of the same memory this near the named clause's cosine goes with it, when
# the topic names more than the named clause holds ("抑郁吃药那段": "我有轻度抑郁" is named, "一直在吃氟西汀"
# is the medication beside it)
TURN_OVERLAP = 0.5  # a clause of a memory the previous turn stated (Dice overlap with that turn)
TURN_COSINE = 0.92
INTENT_CUED = 0.70  # P(retraction) at which a sentence with an update cue is a retraction too ("scrap the bit
# about X", "eh scrap that X rule, ...": "scrap" also announces updates); calibrated on the retraction-intent
# trainer's held-out frame folds (``python -m training.train_retraction_intent``, "cued_threshold")
CUED_NOT_RULE = 0.5  # ... and the standing model's decision boundary: such a clause is no rule below it (a
# rule with an update cue, "actually, never suggest X", withdraws nothing; "scrap that X rule" names a rule
# and sits near 0.2, above ``STANDING_DROP``)
LEAN_NOT_RULE = 0.20  # the standing model's P(rule) at or below which a sentence the intent model leans to is
# no rule (``INTENT_LEAN``): session 15's weights read "eh, nix the X + Y part" at 0.18, above
# ``STANDING_DROP``; the lean path also needs a word of a live memory, so it may read "no rule" more loosely
# than precision does
INTENT_LEAN = 0.6  # P(retraction) at which a sentence the standing model calls no rule and that names a word
# of a live memory is a retraction ("nix the counselor + insomnia part"; an acknowledgement, "yeah!", "lol yes
# exactly", sits near 0.55 and names nothing)
REST_KEEP = 0.5  # the clauses a partial retraction keeps must be a memory alone (classifier p_keep)
# Session 32 (helper edge51), the keep-clause head (``core.extraction.retraction_keep``): with it, a
# clause of a retraction sentence (not cued) lets something stay when the head reads it at its calibrated
# bar ``keep`` (0.60 in the shipped weights; ``KEEP_BAR`` when they hold none) and follows the sentence's
# first withdrawing clause ("X那些别存，工作那个无所谓"; the sentence after the retraction likewise, "... the
# Y part is ok"), and a clause the word list ``_KEEP`` calls a keep is none when the head reads it under its
# calibrated bar ``veto`` (0.40 in the shipped weights; ``KEEP_VETO`` when they hold none) ("wait can u not
# keep the X thing"). Off: the word list alone decides.
KEEP_HEAD_ON = True
KEEP_BAR = 0.6
KEEP_VETO = 0.45

# a memory's clause boundaries beyond punctuation: "... and i ...", "... so i ...", "因为", "所以"
_SEGMENT = re.compile(r"[^,，;；。!！?？]+")
_JOINT = re.compile(r"\s+(?:and|so|because|but)\s+(?:i|i'm|im|my)\b|所以|因为|但是", re.IGNORECASE)
# what to keep beside the retraction: "just the teaching", "cello's fine to remember", "住哪儿可以记"
_KEEP = re.compile(r"\b(?:just|only|keep|is fine|'s fine|are fine|fine to|stays|can stay|the rest)\b|"
                   r"可以留|可以记|留着|保留|只记|其他的?可以|别的可以", re.IGNORECASE)
_ZH_TOPIC = ZH_ONE_TOPIC  # a one-character Chinese topic before its marker ("药的事别存", "钱那个别记")
# a keep clause about the memory ("just remember the vegetarian thing"), not a new rule ("just write
# paragraphs")
_KEEP_MEMORY = re.compile(r"\b(?:remember|keep|fine|stays?|the rest|save)\b|记|留|保留", re.IGNORECASE)
_GOAL_WORD = re.compile(r"\b(?:goal|plan|target|resolution)s?\b|目标|计划|打算", re.IGNORECASE)
_REST = re.compile(r"\bthe rest\b|everything else|其他|别的|其余", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$|吗\s*$")
# what follows a cue when its object is a pronoun pointing back ("ugh forget that", "scrap that one pls"): the
# clause withdraws the statement before it, whatever words lead into the cue
_POINTER = re.compile(r"\s*(?:about\s+)?(?:that|this|it)(?:\s+one)?"
                      r"(?:\s+(?:pls|please|plz|lol|thx|thanks))?\s*", re.IGNORECASE)


# a number told in the sentence: the new value of an update, never withdrawn by it
_NEW_NUMBER = re.compile(r"\d|[一二两三四五六七八九十]|"
                         r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.IGNORECASE)


def _points_back(clause: str) -> bool:
    """The clause's last cue word takes a pronoun as its object and nothing after it ("ugh forget that")."""
    ends = [m.end() for rx in (RETRACT_CUE, UPDATE_CUE) for m in rx.finditer(clause)]
    return bool(ends) and re.fullmatch(_POINTER, clause[max(ends):]) is not None
# the retraction's own words and fillers left in a topic ("take penicillin off that list")
_FRAME_WORDS = frozenset({
    "take", "off", "list", "rather", "remember", "nix", "wait", "ignore", "hm", "hmm", "eh", "didnt", "dont",
    "count", "leave", "out", "notes", "hang", "pretend", "never", "mentioned", "disregard", "told", "keep",
    "actually", "situation", "anything", "any", "stuff", "thing", "part", "bit", "pls", "please", "file",
    "now", "for", "of", "it", "on", "that", "what", "said",
    "收回", "那句", "那段", "那个", "不算", "句", "段",
})


_ZH_FRAME = re.compile("|".join(sorted((w for w in _FRAME_WORDS if has_cjk(w)), key=len, reverse=True)))


@dataclass(frozen=True)
class _Retraction:
    sentence: str
    topic: str  # what it withdraws ("" when only the referent turn names it)
    keep: str  # what it keeps ("" when nothing)
    dropped: tuple[str, ...]  # its retraction clauses (and a statement "that" points to): never a memory
    resolved: bool = False  # a bare "that" the rules' own delete in this message already answered
    new_value: str = ""  # what it tells in place of what it withdraws ("..., saving for a van instead")
    within: bool = False  # a bare cue withdrawing a statement told before it in the same message


def cued(sentence: str) -> bool:
    """A retraction cue the rules know, outside a reminder and the user's own forgetting."""
    text = without_reminders(sentence)
    if not (RETRACT_CUE.search(text) or patterns.FORGET.search(normalise(text))):
        return False
    return not is_about_self(sentence) and not patterns.KEEP_REMINDER.search(normalise(sentence))


def _words(text: str) -> set[str]:
    """Salient words of ``text`` (two characters or more, not the retraction's own words), and its Chinese
    runs of two or more characters whole ("教会": salient bigrams may leave it out)."""
    runs = {r for r in (_ZH_FRAME.sub("", r) for r in re.findall(r"[\u4e00-\u9fff]{2,}", text))
            if len(r) >= 2}
    return {t for t in salient_tokens(text) if len(t) >= 2 and t not in _FRAME_WORDS} | runs


def _names(topic: str, clause: str) -> bool:
    """``topic`` names a word of ``clause``: a shared salient word, or a Chinese run of the topic in it."""
    words = _words(topic)
    return bool(words & _words(clause)) or any(has_cjk(w) and w in clause for w in words)


def memory_clauses(content: str) -> list[str]:
    """A memory's clauses, at punctuation and at "and i" / "so i" / "because" / "所以" / "因为"."""
    parts = []
    for p in CLAUSE.findall(_JOINT.sub(lambda m: ", " + m.group(0).strip(), content)):
        if len(p.strip()) >= 2:
            parts.append(p.strip())
    return parts


def _rejoin(content: str, parts: list[str]) -> str:
    text = ("，" if has_cjk(content) else ", ").join(parts)
    if content.startswith("我") and not text.startswith(("我", "I ", "i ")) \
            and not relative_subject(normalise(content)):
        text = f"我{text}"  # the subject the cut clause carried
    return clean_content(text)[:MAX_MEMORY_CONTENT_CHARS]


_ITEM = re.compile(r"\s+(?:and|or|&)\s+|[、和与及]|,\s*")


def _without_item(clause: str, topic: str) -> str:
    """``clause`` without the list items the ``topic`` names ("penicillin and cats" - "penicillin" ->
    "cats"; "悬疑剧、纪录片和韩综" - "韩综" -> "悬疑剧、纪录片"); "" when no item is left or it is no list."""
    items = [t for t in _ITEM.split(clause) if t.strip()]
    if len(items) < 2:
        return ""
    words = _words(topic)
    left = [t.strip() for t in items if not (words & _words(t))]
    if not left or len(left) == len(items):
        return ""
    if len(left) == 1:
        return left[0]
    sep = "、" if has_cjk(clause) else ", "
    return sep.join(left[:-1]) + ("和" if has_cjk(clause) else " and ") + left[-1]


# a clause that details the one before it ("..., especially X", "...，特别是X", "…，比如X")
_DETAIL = re.compile(r"\s*(?:especially|particularly|mostly|mainly|like|e\.g\.|esp\.?|such as|"
                     r"特别是|尤其是|主要是|比如|例如|像是)", re.IGNORECASE)
_ELLIPSIS = re.compile(r"\.{3,}|…+")  # "X……算了当我没说": a clause ends at an ellipsis too
# a place in a list the user told ("drop the third one", "erase the second one", "第二个删掉", "最后那个别记")
# (the place is the object: "the third one", "the 2nd thing", "the last" ending its clause; not "last week",
# "at first", "the first time")
_ORDINAL_EN = re.compile(r"\bthe\s+(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last)"
                         r"(?:\s+(?:one|thing|part|bit|item|point)\b|\s*(?:[,，.!?？]|$))", re.IGNORECASE)
_ORDINAL_ZH = re.compile(r"第\s*([一二三四五12345])\s*(?:个|条|件|点|项|句)|"
                         r"(最后)(?:一个|那个|一条|那条|一件|那件|一句|那句|一点)")
_PLACE = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
          "fifth": 4, "5th": 4, "last": -1, "一": 0, "1": 0, "二": 1, "2": 1, "三": 2, "3": 2, "四": 3,
          "4": 3, "五": 4, "5": 4, "最后": -1}
# the items of a list the user told: after its announcement ("three things about me: a, b, and c"), at
# commas, semicolons, "、", "and", "1)"
_LIST_SPLIT = re.compile(r"\s*(?:[,，;；、]\s*(?:and\s+|以及|还有|和)?|\s+and\s+|\(?\b[1-5][).]\s+|"
                         r"[①②③④⑤])\s*", re.IGNORECASE)


def list_items(turn: str) -> list[str]:
    """The items of a list ``turn`` tells, in order (the part after its last colon when it announces one):
    each with two salient words or a Chinese run; [] when fewer than two."""
    body = re.split(r"[:：]", turn)[-1] if re.search(r"[:：]", turn) else turn
    if "、" in body:  # "爬山、看书和做饭": the last item after "和"
        body = re.sub(r"和|及|以及", "、", body)
    items = [t.strip(" .。!！") for t in _LIST_SPLIT.split(body)]
    items = [t for t in items if t and _words(t)]
    return items if len(items) >= 2 else []


def ordinal_item(sentence: str, previous: str | None) -> str:
    """The item of the previous turn's list a retraction names by its place ("can you drop the third one?"
    after "three things: I'm vegan, I play the bassoon, and I'm saving up for IVF" -> "I'm saving up for
    IVF"); "" when the sentence names no place or the turn holds no such item."""
    if not previous:
        return ""
    zh, en = _ORDINAL_ZH.search(sentence), _ORDINAL_EN.search(sentence)
    if zh is not None:
        place = _PLACE.get(zh.group(1) or zh.group(2) or "")
    elif en is not None:
        place = _PLACE.get(en.group(1).lower())
    else:
        return ""
    items = list_items(previous)
    if place is None or not items or place >= len(items):
        return ""
    return items[place]


def _type(memory: ExistingMemory) -> MemoryType:
    try:
        return MemoryType(memory.memory_type)
    except ValueError:
        return MemoryType.FACT


class RetractionResolver:
    """Applies the retractions of one message to its candidates (see the module doc)."""

    def __init__(self, classifier: MemoryClassifier, intent: RetractionIntent | None,
                 standing: RetractionIntent | None = None, target: RetractionTarget | None = None) -> None:
        """``standing``: the standing-instruction model; a sentence the intent model leans to call a
        retraction (``INTENT_LEAN``) that the standing model calls no rule for the future (``STANDING_DROP``)
        and that names a word of a live memory is a retraction too ("nix the counselor + insomnia part",
        "leave X out of it for now"). ``target``: the retraction-target model; without it a clause no word
        names is found at the fixed cosine bars (``MIN_COSINE``, ``MARGIN``)."""
        self.classifier = classifier
        self.intent = intent
        self.standing = standing
        self.target = target
        self.keep_head: RetractionIntent | None = None
        if KEEP_HEAD_ON:
            from core.extraction.retraction_keep import shipped_keep_head

            self.keep_head = shipped_keep_head()

    # -- which sentences retract, and what -------------------------------------------------------
    def retractions(self, message: str, previous: str | None, withdrew: bool = False,
                    live_words: frozenset[str] = frozenset(), uncued: bool = True) -> list[_Retraction]:
        """The message's retraction sentences. ``withdrew``: the rules already deleted a memory in this
        message, so a bare "please forget that" points at it, not at another sentence or the previous turn
        ("I moved to Portland. I don't watch horror anymore, please forget that"). ``uncued``: also the
        sentences without a cue word the intent model reads as a retraction (off when there is no live
        memory: such a sentence withdraws nothing then)."""
        sentences = message_sentences(message)
        found: list[tuple[int, str]] = [(i, s) for i, s in enumerate(sentences) if cued(s)]
        if self.intent is not None and found:
            found = self._above_cue_floor(found, live_words, previous)
        if self.standing is not None and found and CUED_RULE_ON:
            found = self._not_rules(found)
        withdrawing: set[str] = set()  # clauses with an update cue the intent model calls a retraction
        if self.intent is not None and uncued:
            rest = [(i, s) for i, s in enumerate(sentences) if (i, s) not in found and len(s) >= 4
                    and not _QUESTION.search(s)]
            if rest:
                vectors = self.classifier.embed([s for _, s in rest])
                probs = self.intent.predict_proba(vectors)
                rules = self.standing.predict_proba(vectors) if self.standing is not None else probs * 0 + 1
                for pair, p, q in zip(rest, probs, rules, strict=True):
                    if UPDATE_CUE.search(pair[1]):  # "scrap" / "drop" / "actually" also announce updates
                        # ... and a new value told with them is an update ("改成 2 人份吧", "make it 3")
                        clauses = set() if _NEW_NUMBER.search(pair[1]) else self._withdrawing_clauses(pair[1])
                        if clauses:
                            found.append(pair)
                            withdrawing |= clauses
                    elif p >= INTENT_P or (p >= INTENT_LEAN and q <= LEAN_NOT_RULE
                                           and _words(pair[1]) & live_words):
                        found.append(pair)
        out = []
        for i, sentence in sorted(found)[:MAX_RETRACTIONS]:
            parts = [q.strip() for p in CLAUSE.findall(sentence) for q in _ELLIPSIS.split(p) if q.strip()]
            after = sentences[i + 1] if i + 1 < len(sentences) else ""
            stays = self._stays(parts, after)
            keep = [p for p in parts if stays.get(p, bool(_KEEP.search(p))) and not cued(p)]
            drop = [p for p in parts if p not in keep]
            # a clause the word list calls a keep and the head does not ("can u not keep the X part") is what
            # the sentence withdraws, as a cued clause is ("..., just drop it" points to it, not further back)
            vetoed = {p for p in drop if p in stays and _KEEP.search(p)}
            cue_parts = [p for p in drop if cued(p) or p in withdrawing or p in vetoed]
            lead = cue_parts or [p for p in drop if _words(topic_text(p)) and not UPDATE_CUE.search(p)]
            points_back = bool(lead) and all(_points_back(p) for p in lead)
            if after and stays.get(after, bool(_KEEP.search(after))) and not cued(after):
                # "... the phone call bit is fine"
                keep.append(after)
            within = False
            topic = topic_text(" ".join(lead)) if lead and not points_back else ""
            short = None if points_back else _ZH_TOPIC.search(" ".join(lead))
            placed = "" if _words(topic) & live_words else ordinal_item(" ".join(lead or parts), previous)
            if placed:
                topic = placed  # "erase the second one": the second thing the previous turn listed
            elif (not lead or bare_cue(" ".join(lead)) or not _words(topic)) and short:
                topic = short.group(1)  # "药的事别存": one character names it
            elif withdrew and (not lead or bare_cue(" ".join(lead)) or not _words(topic)):
                out.append(_Retraction(sentence, "", " ".join(keep), tuple(lead or parts), resolved=True))
                continue
            elif not lead or bare_cue(" ".join(lead)) or not _words(topic):
                # the statement before the cue: in its sentence ("X……算了当我没说"), else the sentence before
                # (a statement the memory classifier calls a memory, not the reason: "我妈不同意，就当没说过")
                first = parts.index(lead[0]) if lead and lead[0] in parts else 0
                own = [p for p in parts[:first] if p not in keep and _words(p)]
                if own and self.classifier.predict([" ".join(own)])[0].p_keep < REST_KEEP:
                    own = []
                before = " ".join(own) if own else (
                    sentences[i - 1] if i > 0 and not cued(sentences[i - 1]) else "")
                topic = before if before and _words(before) else ""  # "..., i was wrong. remove that"
                if topic:
                    lead = [*lead, *(own or [before])]  # ... that statement is no memory either
                    within = True
            # what to keep of what is there ("just the teaching") is no memory of its own either
            own_keep = tuple(k for k in keep if k in parts and _KEEP_MEMORY.search(k))
            # a clause telling a new value beside the withdrawal ("scratch X, switching to Y")
            new = [p for p in drop if p not in lead and p not in keep and tells_new_value(p)]
            out.append(_Retraction(sentence, topic, " ".join(keep), tuple(lead or parts) + own_keep,
                                   new_value=("，" if has_cjk(sentence) else ", ").join(new), within=within))
        return out

    def _stays(self, parts: list[str], after: str) -> dict[str, bool]:
        """With the keep-clause head (``KEEP_HEAD_ON``), whether each clause of a retraction sentence and the
        sentence ``after`` it let something stay: a clause the word list ``_KEEP`` names unless the head
        reads it under its bar ``veto``; any other clause after the first withdrawing one (and ``after``)
        when the head reads it at its bar ``keep``. Clauses before the first withdrawal are the word list's
        alone (a statement before a bare cue is what it withdraws). Empty without the head: the word list
        decides."""
        if self.keep_head is None:
            return {}
        texts = list(dict.fromkeys([*parts, *([after] if after else [])]))
        if not texts:
            return {}
        probs = self.keep_head.predict_proba(self.classifier.embed(texts))
        p = dict(zip(texts, (float(q) for q in probs), strict=True))
        bar = self.keep_head.head.bars.get("keep", KEEP_BAR)
        veto = self.keep_head.head.bars.get("veto", KEEP_VETO)
        first = next((k for k, q in enumerate(parts) if cued(q) or not _KEEP.search(q)), len(parts))
        out: dict[str, bool] = {}
        for q in texts:
            listed = bool(_KEEP.search(q))
            later = q == after or (q in parts and parts.index(q) > first)
            out[q] = (listed and p[q] >= veto) or (later and p[q] >= bar)
        return out

    def _above_cue_floor(self, found: list[tuple[int, str]], live_words: frozenset[str],
                         previous: str | None = None) -> list[tuple[int, str]]:
        """The cued sentences the retraction-intent model does not call something else: a cue word whose
        sentence, and whose cued clauses that name something, all read under ``INTENT_CUE_FLOOR`` is about the
        moment ("nvm, found it", "forget it, i'll do it tomorrow"), unless the sentence names a word of a live
        memory ("看球那个别记了"), itself or by a place in the previous turn's list ("wipe the second one").
        A bare cue clause ("nvm", "forget it") is read with its sentence only."""
        assert self.intent is not None
        texts = [s for _, s in found]
        clauses = [[p.strip() for p in CLAUSE.findall(s) if p.strip() and cued(p) and not bare_cue(p)
                    and not _points_back(p) and _words(topic_text(p))] for s in texts]
        flat = [c for cs in clauses for c in cs if c not in texts]
        probs = self.intent.predict_proba(self.classifier.embed(texts + flat))
        p = dict(zip(texts + flat, (float(q) for q in probs), strict=True))
        return [(i, s) for (i, s), cs in zip(found, clauses, strict=True)
                if max([p[s], *(p[c] for c in cs)]) >= INTENT_CUE_FLOOR or _words(topic_text(s)) & live_words
                or _words(ordinal_item(s, previous)) & live_words]

    def _not_rules(self, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """The cued sentences that are no rule: a sentence with a forget cue word of the rules
        (``patterns.FORGET``) that the standing-instruction model reads at ``CUED_RULE`` or more, itself
        or one of its clauses with that word (``analysis.cued_rule_texts``), tells the assistant what to
        leave out from now on ("给我推荐菜的时候把辣的都去掉"), as the rules read it
        (``analysis._Analyser._cued_rule``), and withdraws nothing. Other cue words ("drop the X goal, …",
        "算了") are read as before."""
        assert self.standing is not None
        reads = {s: cued_rule_texts(s) for _, s in found}
        flat = list(dict.fromkeys(t for ts in reads.values() for t in ts))
        if not flat:
            return found
        vectors = self.classifier.embed(flat)
        p = dict(zip(flat, (float(q) for q in self.standing.predict_proba(vectors)), strict=True))
        w = dict(zip(flat, (float(q) for q in self.intent.predict_proba(vectors)), strict=True)) \
            if self.intent is not None else dict.fromkeys(flat, 0.0)
        return [(i, s) for i, s in found if not reads[s] or not cued_rule([p[t] for t in reads[s]], w[s])]

    def _withdrawing_clauses(self, sentence: str) -> set[str]:
        """The clauses of a sentence with an update cue that withdraw something: the intent model calls them
        a retraction (``INTENT_CUED``) and the standing model no rule (below its decision boundary,
        ``CUED_NOT_RULE``) ("eh scrap that X rule" of "eh scrap that X rule, turns out i'm fine with X"). They
        name what is withdrawn; the other clauses tell why."""
        assert self.intent is not None
        parts = [p.strip() for p in CLAUSE.findall(sentence) if p.strip()]
        if not parts:
            return set()
        vectors = self.classifier.embed(parts)
        probs = self.intent.predict_proba(vectors)
        rules = self.standing.predict_proba(vectors) if self.standing is not None else probs * 0 + 1
        return {p for p, q, r in zip(parts, probs, rules, strict=True)
                if q >= INTENT_CUED and r < CUED_NOT_RULE}

    # -- what it withdraws ----------------------------------------------------------------------------
    def _vectors(self, texts: list[str]) -> npt.NDArray[np.float32]:
        vectors = self.classifier.embed(texts)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.maximum(norms, 1e-9)).astype(np.float32)

    def withdrawn(self, r: _Retraction, live: Sequence[ExistingMemory],
                  previous: str | None) -> dict[int, set[int]]:
        """Per live memory (index), the indexes of its clauses the retraction withdraws."""
        units = [(mi, ci, c) for mi, m in enumerate(live) for ci, c in enumerate(memory_clauses(m.content))]
        if not units:
            return {}
        texts = [c for _, _, c in units]
        topic_words = _words(r.topic) if r.topic else set()
        keep_words = _words(r.keep) if r.keep else set()
        extra = [t for t in (r.topic, r.keep, previous or "") if t]
        vecs = self._vectors(texts + extra)
        unit_v = vecs[:len(texts)]
        named = np.zeros(len(units), dtype=np.float64)
        topic_cos = np.zeros(len(units))
        keep_cos = np.zeros(len(units))
        k = len(texts)
        if r.topic:
            topic_cos = unit_v @ vecs[k]
            k += 1
            named = np.array([1.0 if _names(r.topic, c) or (len(r.topic) == 1 and r.topic in c) else 0.0
                              for c in texts])
        if r.keep:
            keep_cos = unit_v @ vecs[k]
            k += 1
        kept = np.array([bool(keep_words & _words(c)) and not (topic_words & _words(c)) for c in texts]) \
            | (keep_cos > topic_cos + MARGIN) if r.keep else np.zeros(len(units), dtype=bool)
        chosen = np.zeros(len(units), dtype=bool)
        if r.topic:
            if named.any():
                chosen = named > 0
                unmatched = topic_words - {w for j in np.flatnonzero(chosen) for w in _words(texts[j])}
                for mi in {units[j][0] for j in np.flatnonzero(chosen)} if unmatched else set():
                    mine = np.array([u[0] == mi for u in units])
                    bar = float(np.max(topic_cos[mine & chosen])) - SIBLING_MARGIN
                    chosen |= mine & (topic_cos >= bar)
                chosen &= ~kept
            else:
                cos = np.sort(np.where(kept, -1.0, topic_cos))[::-1]
                best = float(cos[0])
                bar = MIN_COSINE_CJK if has_cjk(r.topic) else MIN_COSINE
                # by meaning alone only against another clause (one clause is no contrast), and never
                # when the sentence keeps "the rest": the fixed cosine bars first, then the retraction-target
                # model at its calibrated bar (out of fold on its written groups: precision 0.967, recall
                # 0.500 together, against 0.917 / 0.190 for the bars and 0.963 / 0.448 for the model alone)
                if len(cos) >= 2 and not _REST.search(r.keep):
                    if best >= bar and best - float(cos[1]) >= MARGIN:
                        chosen = (topic_cos >= best - MARGIN) & ~kept
                    elif self.target is not None:
                        queries = self.classifier.embedder.embed_queries
                        p = clause_probabilities(self.target, r.topic, r.sentence, texts,
                                                 self.classifier.embed, queries)
                        chosen = (p >= self.target.accept) & ~kept
        if not chosen.any() and r.topic and _GOAL_WORD.search(r.topic):
            # "drop the house savings goal": the user's goal nearest the topic, when it leads the others
            goals = np.array([_type(live[mi]) is MemoryType.GOAL for mi, _, _ in units]) & ~kept
            if goals.any():
                cos = np.sort(topic_cos[goals])[::-1]
                if len(cos) == 1 or float(cos[0] - cos[1]) >= MARGIN:
                    mi_best = units[int(np.flatnonzero(goals)[np.argmax(topic_cos[goals])])][0]
                    chosen = np.array([u[0] == mi_best for u in units])
        if not chosen.any() and previous and not r.topic:
            turn_cos = unit_v @ vecs[-1]
            chosen = np.array([overlap(c, previous) >= TURN_OVERLAP or c in previous for c in texts]) \
                | (turn_cos >= TURN_COSINE)
            chosen &= ~kept
        out: dict[int, set[int]] = {}
        for (mi, ci, _), hit in zip(units, chosen, strict=True):
            if hit:
                out.setdefault(mi, set()).add(ci)
        return out

    # -- the candidates ---------------------------------------------------------------------------
    def apply(self, message: str, existing: Sequence[ExistingMemory], candidates: list[MemoryCandidate],
              previous: str | None = None) -> list[MemoryCandidate]:
        """``candidates`` with the message's retractions applied by meaning (see the module doc)."""
        live = [m for m in existing if m.content.strip()][-MAX_EXISTING:]
        if not live and not any(cued(s) for s in message_sentences(message)):
            return candidates  # nothing to withdraw, and no cue to withdraw within the message
        withdrew = any(c.op is CandidateOp.DELETE for c in candidates)
        live_words = frozenset(w for m in live for w in _words(m.content))
        # with no live memory, a cued retraction still withdraws what the message itself told before it
        # ("我在考虑辞职去读研……算了当我没说。对了我养了一只柯基")
        retractions = self.retractions(message, previous, withdrew, live_words, uncued=bool(live))
        if not live:  # ... and only that: a retraction naming its own topic has nothing to withdraw then
            retractions = [r for r in retractions if r.within]
        out = list(candidates)
        # a cued sentence the cue floor set aside ("forget the dog" names no word of a live memory) still
        # keeps a list memory whole against the rules' slot delete when it names none of its items
        for s in message_sentences(message):
            if live and cued(s) and all(r.sentence != s for r in retractions):
                own = one_character_topic(s) or (topic_text(s) if topic_text(s) != s else "")
                out = self._without_unlisted_deletes(out, _Retraction(s, own, "", ()), live)
        for r in retractions:
            out = self._without_sentence(out, r, live)
            if r.resolved:
                continue
            out = self._without_unlisted_deletes(out, r, live)
            decided = self.withdrawn(r, live, previous)
            for mi, gone in decided.items():
                out = self._decide(out, live[mi], gone, r.topic, r.new_value if len(decided) == 1 else "")
            if r.keep:  # "手机号那个别存，住哪儿可以记": a delete of the kept thing is undone
                out = self._keep_kept(out, r, [live[mi].key for mi in decided])
        return out

    def _without_unlisted_deletes(self, out: list[MemoryCandidate], r: _Retraction,
                                  live: Sequence[ExistingMemory]) -> list[MemoryCandidate]:
        """``out`` without the deletes (the rules' slot reading: "dog" names ``fact-pets``) of list memories
        the retraction's own topic names none of the items of (``retract_items.choose_item`` reads
        ``Named.NONE``: "forget the dog" against "I have two cats and a hamster"), except the slots
        ``kept_when_unnamed`` excepts (health) and an English topic that names a kind
        (``retract_items.names_a_kind``: "forget my pets", "the language stuff"; the item reader reads such
        English categories under its ``whole`` bar): such a memory stays whole, as the resolver and the
        judge leave it."""
        if not r.topic or r.within or names_a_kind(object_phrase(r.topic)):
            return out
        keys = {m.key: m for m in live}
        dels = [c for c in out if c.op is CandidateOp.DELETE and c.key in keys and kept_when_unnamed(c.key)
                and not _names(r.topic, keys[c.key].content)]
        if not dels:
            return out
        reader = shipped_item_reader()
        kept = {c.key for c in dels if choose_item(r.topic, keys[c.key].content, self.classifier.embed,
                                                   self.classifier.embedder.embed_queries, reader).named
                is Named.NONE}
        return [c for c in out if not (c.op is CandidateOp.DELETE and c.key in kept)]

    def _keep_kept(self, out: list[MemoryCandidate], r: _Retraction,
                   decided: list[str]) -> list[MemoryCandidate]:
        """``out`` without the deletes of memories the keep clauses name, by word or nearer by meaning."""
        dels = [c for c in out if c.op is CandidateOp.DELETE and c.key not in decided]
        if not dels:
            return out
        vecs = self._vectors([c.content for c in dels] + [r.keep, r.topic or r.sentence])
        keep_cos, topic_cos = vecs[:-2] @ vecs[-2], vecs[:-2] @ vecs[-1]
        keep_words, topic_words = _words(r.keep), _words(r.topic)
        undone = {c.key for c, k, t in zip(dels, keep_cos, topic_cos, strict=True)
                  if not (topic_words & _words(c.content))
                  and (keep_words & _words(c.content) or k > t + MARGIN)}
        return [c for c in out if not (c.op is CandidateOp.DELETE and c.key in undone)]

    def _without_sentence(self, out: list[MemoryCandidate], r: _Retraction,
                          live: Sequence[ExistingMemory]) -> list[MemoryCandidate]:
        """``out`` without the retraction's clauses: a candidate of them alone goes, one they were merged
        into keeps its other clauses ("scratch the X goal, saving for a trip now" keeps the trip)."""
        keys = {m.key: m for m in live}
        result = []
        for c in out:
            if c.op is not CandidateOp.UPSERT:
                result.append(c)
                continue
            segments = [s.strip() for s in _SEGMENT.findall(c.content) if s.strip()]
            left = [s for s in segments
                    if not any(s in d or d in s or overlap(s, d) >= 0.5 for d in r.dropped)]
            if len(left) == len(segments):
                result.append(c)
                continue
            old = keys.get(c.key)
            if not left or (old is not None and all(normalise(s) in normalise(old.content) for s in left)):
                continue  # the retraction alone, or it merged into what the memory already says
            sep = "，" if has_cjk(c.content) else ", "
            result.append(c.model_copy(update={"content": clean_content(sep.join(left))}))
        return result

    def _without_reasons(self, out: list[MemoryCandidate], rule: ExistingMemory) -> list[MemoryCandidate]:
        """``out`` without the upserts that would replace a withdrawn ``rule`` with what the standing model
        calls no rule for the future ("scrap that X rule, i'm fine with X now": the reason is no new rule)."""
        repl = [c for c in out if c.op is CandidateOp.UPSERT and c.supersedes == rule.key
                and c.key != rule.key and c.memory_type is MemoryType.CONSTRAINT]
        if not repl or self.standing is None:
            return out
        probs = self.standing.predict_proba(self.classifier.embed([c.content for c in repl]))
        gone = {id(c) for c, p in zip(repl, probs, strict=True) if p <= STANDING_DROP}
        return [c for c in out if id(c) not in gone]

    def _replaces(self, memory: ExistingMemory, new_value: str) -> bool:
        """A withdrawn rule is replaced only by a rule (the standing model above ``CUED_NOT_RULE``): "scrap
        that X rule, i'm fine with X now" tells the reason, not a new rule."""
        if _type(memory) is not MemoryType.CONSTRAINT:
            return True
        if self.standing is None:
            return False
        return float(self.standing.predict_proba(self.classifier.embed([new_value]))[0]) >= CUED_NOT_RULE

    def _decide(self, out: list[MemoryCandidate], memory: ExistingMemory, gone: set[int],
                topic: str, new_value: str = "") -> list[MemoryCandidate]:
        """``out`` with ``memory`` withdrawn: its ``gone`` clauses cut (the rest rewritten), or deleted, or,
        withdrawn whole beside a ``new_value`` the classifier calls a memory, replaced by it."""
        parts = memory_clauses(memory.content)
        rest: list[str] = []
        gone = set(gone)
        # a list memory loses only the item the topic names, by word or by meaning, and stays whole when the
        # topic names none of its items (``retract_items.choose_item``)
        choice = choose_item(topic, memory.content, self.classifier.embed,
                             self.classifier.embedder.embed_queries, shipped_item_reader()) if topic else None
        if choice is not None and choice.named is Named.NONE and kept_when_unnamed(memory.key):
            return out
        listed = choice.without() if choice is not None and choice.cuts else ""
        # a clause withdrawn whole, not one item of its list; or a list that is all the memory says, named
        # whole ("周末那条删了")
        whole = choice is not None and choice.deletes
        for i, p in enumerate(parts if not listed and not whole else []):
            if i not in gone and i - 1 in gone and (_DETAIL.match(p)
                                                    or theirs_after(memory.key, parts[i - 1], p)):
                # "喜欢追星，特别是X": the detail of a withdrawn clause goes with it, and so does what a
                # relative's withdrawn statement goes on to say of them ("我老公叫X，在Y上班")
                gone.add(i)
            if i not in gone:
                rest.append(p)
                continue
            item = _without_item(p, topic) if topic else ""  # "penicillin and cats" - "penicillin" -> "cats"
            if item:
                rest.append(item)
            else:
                whole = True
        if whole and _type(memory) is MemoryType.CONSTRAINT:
            rest = []  # a rule is one thing: its condition alone ("whenever you plan trips") is no rule
        content = listed or (_rejoin(memory.content, rest) if rest else "")
        for c in out:
            if c.key == memory.key and c.op is CandidateOp.UPSERT and c.supersedes == memory.key:
                cut = all(normalise(x).removeprefix("我") in normalise(memory.content)
                          for x in _SEGMENT.findall(c.content) if x.strip())
                if not cut or not content:
                    return out  # a new value replaces it ("scratch X, switching to Y")
                # the pair model's cut of the same memory gives way to the cut by named clause and item
        if not content and _type(memory) is MemoryType.CONSTRAINT:
            out = self._without_reasons(out, memory)
        cand: MemoryCandidate | None = None
        if not content and new_value and not any(c.op is CandidateOp.UPSERT and c.supersedes == memory.key
                                                 for c in out) and self._replaces(memory, new_value):
            content = clean_content(new_value)[:MAX_MEMORY_CONTENT_CHARS]  # "scratch X, switching to Y"
        if content and self.classifier.predict([content])[0].p_keep >= REST_KEEP:
            cand = MemoryCandidate(op=CandidateOp.UPSERT, memory_type=_type(memory), key=memory.key,
                                   content=content, importance=3, confidence=0.9, supersedes=memory.key)
        if cand is None:
            cand = MemoryCandidate(op=CandidateOp.DELETE, memory_type=_type(memory), key=memory.key,
                                   content=memory.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
                                   confidence=0.9, supersedes=memory.key)
        return [cand] + [c for c in out if c.key != memory.key]
